//! A dense symmetric positive definite matrix factored once (Cholesky) and solved against:
//! the fit's information matrix, one row per engine. Its loops run along rows (the matrices are
//! stored row by row) and its sums keep four partial sums, which the compiler vectorises.

/// Rows of `L` factored together (see [`Cholesky::new`]).
const BLOCK: usize = 16;

/// `A = L Lᵀ`, with `L` lower triangular, stored row by row.
pub struct Cholesky {
    n: usize,
    l: Vec<f64>,
}

impl Cholesky {
    /// Factors the `n`×`n` matrix `a` (row by row); `None` when it is not positive definite.
    ///
    /// Rows are worked out [`BLOCK`] at a time, each earlier row read once for the block rather
    /// than once for each of its rows (a matrix of a thousand engines is larger than the caches);
    /// every entry is the same sum, in the same order, as row by row.
    pub fn new(a: &[f64], n: usize) -> Option<Cholesky> {
        let mut l = vec![0.0; n * n];
        for start in (0..n).step_by(BLOCK) {
            let end = (start + BLOCK).min(n);
            for j in 0..end {
                for i in start.max(j)..end {
                    let sum = dot(&l[i * n..i * n + j], &l[j * n..j * n + j]);
                    let value = a[i * n + j] - sum;
                    if i == j {
                        // Relative to the diagonal: a pivot lost to rounding is as bad as a
                        // negative one.
                        if value.is_nan() || value <= a[i * n + i].abs() * 1e-13 {
                            return None;
                        }
                        l[i * n + i] = value.sqrt();
                    } else {
                        l[i * n + j] = value / l[j * n + j];
                    }
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

    /// `A⁻¹ = L⁻ᵀ L⁻¹`, [`BLOCK`] rows at a time (as [`Cholesky::new`]): every entry the same
    /// sum, in the same order, as row by row.
    pub fn inverse(&self) -> Vec<f64> {
        let (n, l) = (self.n, &self.l);
        // `W = L⁻¹`, lower triangular: row `i` is `(eᵢ - Σ_k<i L_ik W_k) / L_ii`, the rows `k`
        // taken in order, each finished (divided by its pivot) before a later row takes it.
        let mut w = vec![0.0; n * n];
        for start in (0..n).step_by(BLOCK) {
            let end = (start + BLOCK).min(n);
            for i in start..end {
                w[i * n + i] = 1.0;
            }
            for k in 0..end {
                if k >= start {
                    let pivot = l[k * n + k];
                    w[k * n..=k * n + k].iter_mut().for_each(|x| *x /= pivot);
                }
                let (done, rows) = w.split_at_mut((k + 1).max(start) * n);
                let wk = &done[k * n..=k * n + k];
                for i in (k + 1).max(start)..end {
                    let lik = l[i * n + k];
                    if lik != 0.0 {
                        let row = &mut rows[(i - (k + 1).max(start)) * n..];
                        for (x, wkj) in row[..=k].iter_mut().zip(wk) {
                            *x -= lik * wkj;
                        }
                    }
                }
            }
        }
        // `Wᵀ W`, the sum over rows `k` of `W_k`'s outer product with itself (`W_k` is 0 past
        // `k`): the lower triangle, then mirrored.
        let mut inverse = vec![0.0; n * n];
        for start in (0..n).step_by(BLOCK) {
            let end = (start + BLOCK).min(n);
            for k in start..n {
                let wk = &w[k * n..=k * n + k];
                for i in start..end.min(k + 1) {
                    let wki = wk[i];
                    if wki != 0.0 {
                        for (x, wkj) in inverse[i * n..=i * n + i].iter_mut().zip(wk) {
                            *x += wki * wkj;
                        }
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
        // The blocks change the order entries are worked out in, not one bit of them.
        let mut by_rows = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..=i {
                let value =
                    a[i * n + j] - dot(&by_rows[i * n..i * n + j], &by_rows[j * n..j * n + j]);
                by_rows[i * n + j] = match i == j {
                    true => value.sqrt(),
                    false => value / by_rows[j * n + j],
                };
            }
        }
        assert!(c.l == by_rows);
        let inverse = c.inverse();
        assert!(inverse == inverse_by_rows(&by_rows, n));
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

    /// `A⁻¹` from `L` the plain way, a row at a time: what the blocks must give, bit for bit.
    fn inverse_by_rows(l: &[f64], n: usize) -> Vec<f64> {
        let mut w = vec![0.0; n * n];
        for i in 0..n {
            w[i * n + i] = 1.0;
            for k in 0..i {
                let lik = l[i * n + k];
                if lik != 0.0 {
                    for j in 0..=k {
                        w[i * n + j] -= lik * w[k * n + j];
                    }
                }
            }
            for j in 0..=i {
                w[i * n + j] /= l[i * n + i];
            }
        }
        let mut inverse = vec![0.0; n * n];
        for k in 0..n {
            for i in 0..=k {
                if w[k * n + i] != 0.0 {
                    for j in 0..=i {
                        inverse[i * n + j] += w[k * n + i] * w[k * n + j];
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
