//! A dense symmetric positive definite matrix factored once (Cholesky) and solved against:
//! the fit's information matrix, a few hundred rows at most.

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
                let sum: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
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
            let sum: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
            y[i] = (y[i] - sum) / l[i * n + i];
        }
        for i in (0..n).rev() {
            let sum: f64 = (i + 1..n).map(|k| l[k * n + i] * y[k]).sum();
            y[i] = (y[i] - sum) / l[i * n + i];
        }
        y
    }

    /// `A⁻¹`, row by row.
    pub fn inverse(&self) -> Vec<f64> {
        let n = self.n;
        let mut inverse = vec![0.0; n * n];
        let mut unit = vec![0.0; n];
        for column in 0..n {
            unit.fill(0.0);
            unit[column] = 1.0;
            for (row, x) in self.solve(&unit).into_iter().enumerate() {
                inverse[row * n + column] = x;
            }
        }
        inverse
    }
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
}
