//! Match statistics: score, Elo difference with its 95% interval, likelihood of superiority.
//!
//! The formulas are those chess match runners print (cutechess-cli): with `n` games of which `w`
//! won, `l` lost and `d` drawn, the score is `s = (w + d/2) / n`, the Elo difference
//! `-400 log10(1/s - 1)`; the per-game standard deviation `sd = sqrt((w(1-s)^2 + l s^2 +
//! d(1/2-s)^2) / n)` gives the 95% score interval `s ± 1.95996 sd / sqrt(n)`, and the Elo error is
//! half the width of that interval mapped to Elo. LOS is `(1 + erf((w - l) / sqrt(2(w + l)))) / 2`.

use serde::Serialize;

/// The 97.5% quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws of one engine against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

/// What a tally says.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Points per game, 0 to 1.
    pub score: f64,
    /// Elo difference (infinite at a score of 0 or 1).
    pub elo: f64,
    /// Half-width of the 95% interval of the Elo difference.
    pub elo_error: f64,
    /// Likelihood of superiority, 0 to 1.
    pub los: f64,
    /// Share of drawn games.
    pub draw_ratio: f64,
}

fn elo(score: f64) -> f64 {
    // Adding zero turns -0.0 into 0.0, which prints without a sign.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The estimate, or `None` before any game.
    pub fn estimate(&self) -> Option<Estimate> {
        let n = f64::from(self.games());
        if n == 0.0 {
            return None;
        }
        let (w, l, d) = (
            f64::from(self.wins),
            f64::from(self.losses),
            f64::from(self.draws),
        );
        let score = (w + d / 2.0) / n;
        let variance =
            (w * (1.0 - score).powi(2) + l * score.powi(2) + d * (0.5 - score).powi(2)) / n;
        let margin = Z_95 * variance.sqrt() / n.sqrt();
        // A score of 0 or 1, or an interval reaching past them, means an unbounded Elo error.
        let elo_error = if score == 0.0 || score == 1.0 {
            f64::INFINITY
        } else {
            (elo((score + margin).min(1.0)) - elo((score - margin).max(0.0))) / 2.0
        };
        let los = if w + l == 0.0 {
            0.5
        } else {
            0.5 * (1.0 + libm::erf((w - l) / (2.0 * (w + l)).sqrt()))
        };
        Some(Estimate {
            score,
            elo: elo(score),
            elo_error,
            los,
            draw_ratio: d / n,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.05
    }

    #[test]
    fn known_values() {
        // 55 - 45 - 0: score 0.55, 34.86 Elo; sd = 0.4975, interval 0.55 ± 0.0975 = 0.4525 to
        // 0.6475, which is -33.11 to 105.64 Elo: ± 69.37.
        let e = Tally {
            wins: 55,
            losses: 45,
            draws: 0,
        }
        .estimate()
        .unwrap();
        assert!(close(e.score, 0.55) && close(e.elo, 34.86), "{e:?}");
        assert!(close(e.elo_error, 69.37), "{e:?}");
        // erf(10 / sqrt(200)) = erf(0.7071) = 0.6827, so LOS = 0.8413.
        assert!((e.los - 0.8413).abs() < 1e-3, "{e:?}");
        let even = Tally {
            wins: 10,
            losses: 10,
            draws: 20,
        }
        .estimate()
        .unwrap();
        assert_eq!(
            (even.score, even.elo, even.los, even.draw_ratio),
            (0.5, 0.0, 0.5, 0.5)
        );
        let sweep = Tally {
            wins: 5,
            losses: 0,
            draws: 0,
        }
        .estimate()
        .unwrap();
        assert!(sweep.elo.is_infinite() && sweep.elo_error.is_infinite());
        let few = Tally {
            wins: 1,
            losses: 3,
            draws: 0,
        }
        .estimate()
        .unwrap();
        assert!(few.elo_error.is_infinite(), "{few:?}");
        assert_eq!(Tally::default().estimate(), None);
    }
}
