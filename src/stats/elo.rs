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
    /// The same games from the opponent's side.
    pub fn reversed(self) -> Tally {
        Tally {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

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

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`.
///
/// It uses the generalised SPRT with the normal approximation that chess testing frameworks use
/// (Van den Bergh): with the mean score `m` and per-game variance `v` of `n` games, and `s0`, `s1`
/// the scores the two hypotheses expect, `LLR = n (s1 - s0) (2m - s0 - s1) / (2v)`. The run stops
/// for H1 when `LLR >= ln((1 - beta) / alpha)` and for H0 when `LLR <= ln(beta / (1 - alpha))`.
/// While every game has had the same result (variance 0, as in a sweep), `v` is the variance of a
/// win-or-loss game scored at the hypotheses' mean score, `s(1 - s)` with `s = (s0 + s1) / 2`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtState {
    /// Not decided yet.
    Continue,
    /// H0 accepted: the difference is `elo0` or less.
    H0,
    /// H1 accepted: the difference is `elo1` or more.
    H1,
}

fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An `--sprt` value that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SprtError(String);

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; all four needed).
    pub fn parse(words: &[String]) -> Result<Sprt, SprtError> {
        Sprt::parse_words(words).map_err(SprtError)
    }

    fn parse_words(words: &[String]) -> Result<Sprt, String> {
        let mut values = std::collections::HashMap::new();
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("`{word}`: expected key=value"))?;
            let value: f64 = value
                .parse()
                .map_err(|_| format!("`{word}`: not a number"))?;
            values.insert(key.to_owned(), value);
        }
        let get = |key: &str| {
            values
                .get(key)
                .copied()
                .ok_or_else(|| format!("--sprt needs {key}= (elo0, elo1, alpha, beta)"))
        };
        let sprt = Sprt {
            elo0: get("elo0")?,
            elo1: get("elo1")?,
            alpha: get("alpha")?,
            beta: get("beta")?,
        };
        let probability = |p: f64| p > 0.0 && p < 0.5;
        if !(sprt.elo1 > sprt.elo0 && probability(sprt.alpha) && probability(sprt.beta)) {
            return Err("--sprt needs elo1 > elo0 and 0 < alpha, beta < 0.5".to_owned());
        }
        Ok(sprt)
    }

    /// The bounds of the log-likelihood ratio: (accept H0 at or below, accept H1 at or above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of `tally` (0 before any game).
    pub fn llr(&self, tally: &Tally) -> f64 {
        let n = f64::from(tally.games());
        let Some(e) = tally.estimate() else {
            return 0.0;
        };
        let (w, l, d) = (
            f64::from(tally.wins),
            f64::from(tally.losses),
            f64::from(tally.draws),
        );
        let m = e.score;
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        let mut variance = (w * (1.0 - m).powi(2) + l * m.powi(2) + d * (0.5 - m).powi(2)) / n;
        if variance <= 1e-12 {
            let s = (s0 + s1) / 2.0;
            variance = s * (1.0 - s);
        }
        n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * variance)
    }

    /// The decision so far.
    pub fn state(&self, tally: &Tally) -> SprtState {
        let (lower, upper) = self.bounds();
        let llr = self.llr(tally);
        if llr >= upper {
            SprtState::H1
        } else if llr <= lower {
            SprtState::H0
        } else {
            SprtState::Continue
        }
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

    #[test]
    fn sprt_decides_where_the_answer_is_known() {
        let sprt = Sprt::parse(&["elo0=0 elo1=20 alpha=0.05 beta=0.05".to_owned()]).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-12 && (lower + upper).abs() < 1e-12);
        // A stream won 60 % of the time (about +70 Elo) is decided for H1 ...
        let mut tally = Tally::default();
        let mut states = Vec::new();
        for game in 0..2000 {
            if game % 5 < 3 {
                tally.wins += 1
            } else {
                tally.losses += 1
            }
            states.push(sprt.state(&tally));
        }
        assert_eq!(states.last(), Some(&SprtState::H1));
        // ... and an even one (0 Elo, well under the midpoint of 10) for H0.
        let even = Tally {
            wins: 900,
            losses: 900,
            draws: 200,
        };
        assert_eq!(sprt.state(&even), SprtState::H0);
        let early = Tally {
            wins: 3,
            losses: 2,
            draws: 0,
        };
        assert_eq!(sprt.state(&early), SprtState::Continue);
        // A sweep has no variance of its own; it still decides, after enough games.
        let sweep = |n| Tally {
            wins: n,
            losses: 0,
            draws: 0,
        };
        assert_eq!(sprt.state(&sweep(5)), SprtState::Continue);
        assert_eq!(sprt.state(&sweep(200)), SprtState::H1);
        // LLR by hand for 60 wins, 40 losses: m = 0.6, v = 0.24, s0 = 0.5,
        // s1 = 1 / (1 + 10^(-0.05)) = 0.528751; LLR = 100 * 0.028751 * (1.2 - 1.028751) / 0.48.
        let by_hand = 100.0 * 0.028751 * (1.2 - 1.028751) / 0.48;
        let llr = sprt.llr(&Tally {
            wins: 60,
            losses: 40,
            draws: 0,
        });
        assert!((llr - by_hand).abs() < 1e-3, "{llr} vs {by_hand}");
        for bad in [
            "elo0=0 elo1=5 alpha=0.05",
            "elo0=5 elo1=0 alpha=0.05 beta=0.05",
            "elo0=x",
        ] {
            assert!(Sprt::parse(&[bad.to_owned()]).is_err(), "{bad}");
        }
    }
}
