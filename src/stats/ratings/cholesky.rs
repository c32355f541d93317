//! A dense symmetric positive definite matrix factored once (Cholesky) and solved against:
//! the fit's information matrix, one row per engine. Its loops run along rows (the matrices are
//! stored row by row) and its sums keep four partial sums, which the compiler vectorises.

/// `A = L Lᵀ`, with `L` lower triangular, stored row by row.
pub struct Cholesky {
    n: usize,
    l: Vec<f64>,
}

impl Cholesky {
    /// Factors the `n`×`n` matrix `a` (row by row); `None` when it is not positive definite.
    pub fn new(a: &[f64], n: usize) -> Option<Cholesky> {
        let mut l = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..=i {
                let sum = dot(&l[i * n..i * n + j], &l[j * n..j * n + j]);
                let value = a[i * n + j] - sum;
                if i == j {
                    // Relative to the diagonal: a pivot lost to rounding is as bad as a negative one.
                    if value.is_nan() || value <= a[i * n + i].abs() * 1e-13 {
                        return None;
                    }
                    l[i * n + i] = value.sqrt();
                } else {
                    l[i * n + j] = value / l[j * n + j];
                }
            }
        }
        Some(Cholesky { n, l })
    }

    /// `x` with `A x = b`.
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        let (n, l) = (self.n, &self.l);
        let mut y = b.to_vec();
        for i in 0..n {
            let sum = dot(&l[i * n..i * n + i], &y[..i]);
            y[i] = (y[i] - sum) / l[i * n + i];
        }
        // Back along the rows of `L`: once `y[i]` is known, it is taken out of every earlier one.
        for i in (0..n).rev() {
            y[i] /= l[i * n + i];
            let yi = y[i];
            for (yk, lik) in y[..i].iter_mut().zip(&l[i * n..i * n + i]) {
                *yk -= lik * yi;
            }
        }
        y
    }

    /// `A⁻¹ = L⁻ᵀ L⁻¹`, row by row.
    pub fn inverse(&self) -> Vec<f64> {
        let (n, l) = (self.n, &self.l);
        // `W = L⁻¹`, lower triangular, a row at a time: row `i` is `(eᵢ - Σ_k<i L_ik W_k) / L_ii`.
        let mut w = vec![0.0; n * n];
        for i in 0..n {
            let (done, row) = w.split_at_mut(i * n);
            let row = &mut row[..n];
            row[i] = 1.0;
            for k in 0..i {
                let lik = l[i * n + k];
                if lik != 0.0 {
                    for (x, wk) in row[..=k].iter_mut().zip(&done[k * n..=k * n + k]) {
                        *x -= lik * wk;
                    }
                }
            }
            let pivot = l[i * n + i];
            row[..=i].iter_mut().for_each(|x| *x /= pivot);
        }
        // `Wᵀ W`, the sum over rows `k` of `W_k`'s outer product with itself (`W_k` is 0 past
        // `k`): the lower triangle, then mirrored.
        let mut inverse = vec![0.0; n * n];
        for k in 0..n {
            let wk = &w[k * n..=k * n + k];
            for (i, &wki) in wk.iter().enumerate() {
                if wki != 0.0 {
                    for (x, wkj) in inverse[i * n..=i * n + i].iter_mut().zip(wk) {
                        *x += wki * wkj;
                    }
                }
            }
        }
        for i in 0..n {
            for j in 0..i {
                inverse[j * n + i] = inverse[i * n + j];
            }
        }
        inverse
    }
}

/// `Σ aᵢbᵢ` in four partial sums.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut sums = [0.0; 4];
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail: f64 = (a4.remainder().iter().zip(b4.remainder()))
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a4.zip(b4) {
        for lane in 0..4 {
            sums[lane] += x[lane] * y[lane];
        }
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_inverts_a_known_matrix() {
        // [[4, 2], [2, 3]]: determinant 8, inverse [[3, -2], [-2, 4]] / 8.
        let a = [4.0, 2.0, 2.0, 3.0];
        let c = Cholesky::new(&a, 2).unwrap();
        let x = c.solve(&[2.0, 1.0]);
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12, "{x:?}");
        let inverse = c.inverse();
        for (got, want) in inverse.iter().zip([3.0, -2.0, -2.0, 4.0].map(|v| v / 8.0)) {
            assert!((got - want).abs() < 1e-12);
        }
        assert!(
            Cholesky::new(&[1.0, 2.0, 2.0, 1.0], 2).is_none(),
            "indefinite"
        );
    }

    #[test]
    fn a_larger_matrix_times_its_inverse_and_its_solution_give_back_the_unit_and_b() {
        // `A = M Mᵀ + n I` of a fixed pseudo-random `M`, with rows that are not multiples of 4.
        let n = 37;
        let mut state = 1u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let m: Vec<f64> = (0..n * n).map(|_| next()).collect();
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                a[i * n + j] = (0..n).map(|k| m[i * n + k] * m[j * n + k]).sum::<f64>()
                    + if i == j { n as f64 } else { 0.0 };
            }
        }
        let c = Cholesky::new(&a, n).unwrap();
        let inverse = c.inverse();
        for i in 0..n {
            for j in 0..n {
                let product: f64 = (0..n).map(|k| a[i * n + k] * inverse[k * n + j]).sum();
                let unit = if i == j { 1.0 } else { 0.0 };
                assert!((product - unit).abs() < 1e-12, "{i},{j}: {product}");
            }
        }
        let b: Vec<f64> = (0..n).map(|_| next()).collect();
        let x = c.solve(&b);
        for i in 0..n {
            let ax: f64 = (0..n).map(|k| a[i * n + k] * x[k]).sum();
            assert!((ax - b[i]).abs() < 1e-12, "{i}: {ax} vs {}", b[i]);
        }
    }
}
