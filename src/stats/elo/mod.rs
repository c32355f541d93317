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
    -400.0 * libm::log10(1.0 / score - 1.0) + 0.0
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

    /// The 95% interval of the score, `s ± 1.95996 sd / sqrt(n)`, unclamped (NaN before any game).
    fn score_interval(&self) -> (f64, f64) {
        let n = f64::from(self.games());
        let (w, l, d) = (
            f64::from(self.wins),
            f64::from(self.losses),
            f64::from(self.draws),
        );
        let score = (w + d / 2.0) / n;
        let variance =
            (w * (1.0 - score).powi(2) + l * score.powi(2) + d * (0.5 - score).powi(2)) / n;
        let margin = Z_95 * variance.sqrt() / n.sqrt();
        (score - margin, score + margin)
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
        let (low, high) = self.score_interval();
        // A score of 0 or 1, or an interval reaching past them, means an unbounded Elo error.
        let elo_error = if score == 0.0 || score == 1.0 {
            f64::INFINITY
        } else {
            (elo(high.min(1.0)) - elo(low.max(0.0))) / 2.0
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

/// The Elo difference of game pairs (`pentanomial[k]` pairs gave `k / 2` points of 2), the
/// half-width of its 95% interval and the likelihood of superiority: the pairs' mean score `m`
/// mapped to Elo, `m ± 1.96 sd / sqrt(pairs)` mapped likewise (infinite where that reaches 0 or
/// 1), and `Φ((m - 1/2) / (sd / sqrt(pairs)))`, as fastchess reports pairs. `None` before a pair.
pub fn pair_elo(pentanomial: &[u32; 5]) -> Option<(f64, f64, f64)> {
    let n: f64 = pentanomial.iter().map(|&c| f64::from(c)).sum();
    if n == 0.0 {
        return None;
    }
    let trials = || (pentanomial.iter().enumerate()).map(|(k, &c)| (f64::from(c), k as f64 / 4.0));
    let m = trials().map(|(c, x)| c * x).sum::<f64>() / n;
    let variance = trials().map(|(c, x)| c * (x - m).powi(2)).sum::<f64>() / n;
    let margin = Z_95 * variance.sqrt() / n.sqrt();
    let (low, high) = (m - margin, m + margin);
    let error = match low <= 0.0 || high >= 1.0 {
        true => f64::INFINITY,
        false => (elo(high) - elo(low)) / 2.0,
    };
    let z = (m - 0.5) / (variance.sqrt() / n.sqrt());
    let los = match z.is_nan() {
        true => 0.5,
        false => 0.5 * (1.0 + libm::erf(z / std::f64::consts::SQRT_2)),
    };
    Some((elo(m), error, los))
}

/// Normalized Elo (as fastchess and fishtest report it) of trials of which `counts[i]` scored
/// `scores[i]`, with the half-width of its 95% interval: `nElo = (m - 1/2) / (sd · per_trial) ·
/// 800 / ln 10` for mean `m` and standard deviation `sd` of a trial (`per_trial` is 1 for games,
/// √2 for pairs, whose `sd` is a game's over √2), and `± 1.96 · 800 / ln 10 / (per_trial · √n)`
/// for `n` trials. `None` before two trials, or while every trial scored the same.
pub fn normalized_elo(counts: &[u32], scores: &[f64], per_trial: f64) -> Option<(f64, f64)> {
    let n: f64 = counts.iter().map(|&c| f64::from(c)).sum();
    if n < 2.0 {
        return None;
    }
    let trials = || counts.iter().zip(scores).map(|(&c, &x)| (f64::from(c), x));
    let m = trials().map(|(c, x)| c * x).sum::<f64>() / n;
    let variance = trials().map(|(c, x)| c * (x - m).powi(2)).sum::<f64>() / n;
    if variance <= 1e-12 {
        return None;
    }
    let scale = 800.0 / std::f64::consts::LN_10;
    let nelo = (m - 0.5) / (variance.sqrt() * per_trial) * scale;
    Some((nelo, Z_95 * scale / (per_trial * n.sqrt())))
}

/// [`normalized_elo`] of an engine's game pairs (`pentanomial`) where it played any, else of its
/// games (`tally`).
pub fn normalized_elo_of(tally: &Tally, pentanomial: &[u32; 5]) -> Option<(f64, f64)> {
    match pentanomial.iter().any(|&n| n > 0) {
        true => normalized_elo(pentanomial, &[0.0, 0.25, 0.5, 0.75, 1.0], 2f64.sqrt()),
        false => normalized_elo(
            &[tally.losses, tally.draws, tally.wins],
            &[0.0, 0.5, 1.0],
            1.0,
        ),
    }
}

/// The 95% lower bound of the Elo difference after a perfect score in `games` games: the Elo at
/// which a perfect score is 5% likely (minus it for a nil score).
pub fn perfect_bound(games: u32) -> f64 {
    elo(libm::pow(0.05, 1.0 / f64::from(games.max(1))))
}

/// The Elo difference as a reader can use it: `34.9 +/- 69.4` with its 95% interval; after a
/// perfect score, where the estimate is infinite, the one-sided 95% bound (`> +316.6 (95%)` after
/// 20 wins: the exact binomial bound, a score of `0.05^(1/n)`); when the interval reaches past a
/// score of 0 or 1, its finite end (`-190.8 (95%: < +126.4)`); `-` before any game.
pub fn elo_text(tally: &Tally) -> String {
    let Some(e) = tally.estimate() else {
        return "-".to_owned();
    };
    match elo_bound(tally) {
        None => format!("{:.1} +/- {:.1}", e.elo, e.elo_error),
        Some(bound) if e.elo.is_finite() => format!("{:.1} (95%: {bound})", e.elo),
        Some(bound) => format!("{bound} (95%)"),
    }
}

/// What is known of the Elo difference at 95% where it is not `X +/- Y` (the interval reaches
/// past a score of 0 or 1): `> +316.6` after a perfect score (see [`elo_text`]), the interval's
/// finite end, or that too few games bound it. `None` where the interval is finite, and before
/// any game.
pub fn elo_bound(tally: &Tally) -> Option<String> {
    let e = tally.estimate()?;
    let bound = perfect_bound(tally.games());
    if e.score == 1.0 {
        return Some(format!("> {bound:+.1}"));
    }
    if e.score == 0.0 {
        return Some(format!("< {:+.1}", -bound));
    }
    if e.elo_error.is_finite() {
        return None;
    }
    // The interval's finite end: the other one lies past a score of 0 or 1.
    let (low, high) = tally.score_interval();
    Some(match (low > 0.0, high < 1.0) {
        (false, true) => format!("< {:+.1}", elo(high)),
        (true, false) => format!("> {:+.1}", elo(low)),
        _ => "unbounded, too few games".to_owned(),
    })
}

/// The error rates of an `--sprt` that gives none: 5%, as cutechess and fastchess default them.
pub const DEFAULT_ERROR_RATE: f64 = 0.05;

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`.
///
/// It uses the generalised SPRT with the normal approximation that chess testing frameworks use
/// (Van den Bergh): with the mean score `m` and variance `v` of `n` independent trials, and `s0`,
/// `s1` the scores the two hypotheses expect, `LLR = n (s1 - s0) (2m - s0 - s1) / (2v)`. The run
/// stops for H1 when `LLR >= ln((1 - beta) / alpha)` and for H0 when `LLR <= ln(beta / (1 -
/// alpha))`.
///
/// The trials are games (the trinomial model: scores 0, 1/2, 1), or, when games are played in pairs
/// on one seed with the seats swapped, game pairs (the pentanomial model: a pair's score 0, 1/4,
/// 1/2, 3/4 or 1), which counts the correlation inside a pair instead of ignoring it. While every
/// trial has had the same result (variance 0, as in a sweep), `v` is the variance of independent
/// win-or-loss games scored at the hypotheses' mean score, `s(1 - s)` per game with `s = (s0 + s1)
/// / 2`, half that per pair.
///
/// With `model=normalized` the hypotheses are in normalized Elo instead (nElo, as fastchess and
/// fishtest define it: `nElo = (m - 1/2) / sd · 800 / ln 10` per game, with the per-pair `sd`
/// divided by √2 for pairs), and the LLR is the generalised one of Van den Bergh's "Comments on
/// normalized Elo" (section 4.1): for each hypothesis the distribution of trial scores closest to
/// the observed one whose `(mean - 1/2) / sd` is the hypothesis's, found by the fixed-point
/// iteration of that note, and `LLR = n Σ p̂ᵢ ln(p1ᵢ / p0ᵢ)`. A count of 0 is taken as 0.001,
/// as fastchess does.
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
    /// What `elo0` and `elo1` measure.
    pub model: SprtModel,
}

impl std::fmt::Display for Sprt {
    /// As `--sprt` takes it back: `elo0=0 elo1=5 alpha=0.05 beta=0.05`, then ` model=normalized`
    /// for that model.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )?;
        match self.model {
            SprtModel::Logistic => Ok(()),
            SprtModel::Normalized => f.write_str(" model=normalized"),
        }
    }
}

/// The scale of an SPRT's hypotheses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtModel {
    /// Logistic Elo (the default, cutechess's and fastchess's `logistic`).
    #[default]
    Logistic,
    /// Normalized Elo (fastchess's and fishtest's `normalized`).
    Normalized,
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

/// The expected score of a side `elo` points stronger: the Elo curve.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + libm::pow(10.0, -elo / 400.0))
}

/// The distribution over `scores` closest (in the likelihood of `observed`) to `observed` whose
/// `(mean - 1/2) / sd` is `t`: Van den Bergh's fixed-point iteration, from the uniform
/// distribution, each step solving `Σ p̂ᵢ φᵢ / (1 + θ φᵢ) = 0` for θ by bisection.
fn closest_with_t(scores: &[f64], observed: &[f64], t: f64) -> Vec<f64> {
    let k = scores.len();
    let mut p = vec![1.0 / k as f64; k];
    for _ in 0..10 {
        let mu: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
        let var: f64 = scores
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mu).powi(2))
            .sum();
        let sigma = var.sqrt();
        let phi: Vec<f64> = (scores.iter())
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
            .collect();
        let (u, v) = phi
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(u, v), &x| {
                (u.min(x), v.max(x))
            });
        // f(θ) falls from +∞ at -1/v to -∞ at -1/u: bisect between.
        let f = |theta: f64| -> f64 {
            (observed.iter().zip(&phi))
                .map(|(o, x)| o * x / (1.0 + theta * x))
                .sum()
        };
        let (mut low, mut high) = (-1.0 / v, -1.0 / u);
        for _ in 0..200 {
            let middle = f64::midpoint(low, high);
            if f(middle) > 0.0 {
                low = middle;
            } else {
                high = middle;
            }
        }
        let theta = f64::midpoint(low, high);
        let next: Vec<f64> = (observed.iter().zip(&phi))
            .map(|(o, x)| o / (1.0 + theta * x))
            .collect();
        let moved = next
            .iter()
            .zip(&p)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        p = next;
        if moved < 1e-4 {
            break;
        }
    }
    p
}

/// An `--sprt` value that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SprtError {
    /// A word that is not `key=value`.
    #[error("`{0}`: expected key=value")]
    NotPair(String),
    /// A model other than the two.
    #[error("`{0}`: model is logistic or normalized")]
    Model(String),
    /// A value that is not a number.
    #[error("`{0}`: not a number")]
    NotNumber(String),
    /// A key the test does not have.
    #[error("`{0}`: --sprt takes elo0, elo1, alpha, beta and model")]
    UnknownKey(String),
    /// A bound left out.
    #[error("--sprt needs {0}= (elo0, elo1; alpha and beta are 0.05 if left out)")]
    Missing(&'static str),
    /// Bounds or error rates that make no test.
    #[error("--sprt needs elo1 > elo0 and 0 < alpha, beta < 0.5")]
    Range,
}

impl Sprt {
    /// An `--sprt` option's words: no test when there are none.
    pub fn parse_option(words: &[String]) -> Result<Option<Sprt>, SprtError> {
        match words.is_empty() {
            true => Ok(None),
            false => Sprt::parse(words).map(Some),
        }
    }

    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic` (any order; alpha and beta 0.05
    /// and the model logistic when left out).
    pub fn parse(words: &[String]) -> Result<Sprt, SprtError> {
        let mut values = std::collections::HashMap::new();
        let mut model = SprtModel::Logistic;
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtError::NotPair(word.to_owned()))?;
            if key == "model" {
                model = match value {
                    "logistic" => SprtModel::Logistic,
                    "normalized" => SprtModel::Normalized,
                    _ => return Err(SprtError::Model(word.to_owned())),
                };
                continue;
            }
            let value: f64 = value
                .parse()
                .map_err(|_| SprtError::NotNumber(word.to_owned()))?;
            values.insert(key.to_owned(), value);
        }
        if let Some(key) = values
            .keys()
            .find(|k| !["elo0", "elo1", "alpha", "beta"].contains(&k.as_str()))
        {
            return Err(SprtError::UnknownKey(key.clone()));
        }
        let get = |key: &'static str| values.get(key).copied().ok_or(SprtError::Missing(key));
        // As cutechess and fastchess: the error rates are 5% unless given.
        let rate = |key: &str| values.get(key).copied().unwrap_or(DEFAULT_ERROR_RATE);
        let sprt = Sprt {
            elo0: get("elo0")?,
            elo1: get("elo1")?,
            alpha: rate("alpha"),
            beta: rate("beta"),
            model,
        };
        let probability = |p: f64| p > 0.0 && p < 0.5;
        if !(sprt.elo1 > sprt.elo0 && probability(sprt.alpha) && probability(sprt.beta)) {
            return Err(SprtError::Range);
        }
        Ok(sprt)
    }

    /// The bounds of the log-likelihood ratio: (accept H0 at or below, accept H1 at or above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            libm::log(self.beta / (1.0 - self.alpha)),
            libm::log((1.0 - self.beta) / self.alpha),
        )
    }

    /// The log-likelihood ratio of `tally` (0 before any game).
    pub fn llr(&self, tally: &Tally) -> f64 {
        let counts = [tally.losses, tally.draws, tally.wins];
        let scores = [0.0, 0.5, 1.0];
        match self.model {
            SprtModel::Logistic => self.gsprt(&counts, &scores, 1.0),
            SprtModel::Normalized => self.normalized(&counts, &scores, 1.0),
        }
    }

    /// The log-likelihood ratio of game pairs: `pentanomial[k]` pairs scored `k / 2` points of 2
    /// (0 before any pair).
    pub fn llr_pentanomial(&self, pentanomial: &[u32; 5]) -> f64 {
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        match self.model {
            SprtModel::Logistic => self.gsprt(pentanomial, &scores, 0.5),
            SprtModel::Normalized => self.normalized(pentanomial, &scores, 2f64.sqrt()),
        }
    }

    /// The generalised LLR of the normalized model (see [`Sprt`]); `per_trial` is √2 for pairs,
    /// whose `sd` is that of a game over √2. 0 before any trial.
    fn normalized(&self, counts: &[u32], scores: &[f64], per_trial: f64) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let regular: Vec<f64> = (counts.iter())
            .map(|&c| if c == 0 { 1e-3 } else { f64::from(c) })
            .collect();
        let n: f64 = regular.iter().sum();
        let observed: Vec<f64> = regular.iter().map(|c| c / n).collect();
        let scale = 800.0 / std::f64::consts::LN_10;
        let p0 = closest_with_t(scores, &observed, per_trial * self.elo0 / scale);
        let p1 = closest_with_t(scores, &observed, per_trial * self.elo1 / scale);
        n * (observed.iter().zip(p0.iter().zip(&p1)))
            .map(|(o, (a, b))| o * (libm::log(*b) - libm::log(*a)))
            .sum::<f64>()
    }

    /// The normal-approximation LLR of trials of which `counts[i]` scored `scores[i]`; a sweep's
    /// variance is `fallback` times that of one win-or-loss game.
    fn gsprt(&self, counts: &[u32], scores: &[f64], fallback: f64) -> f64 {
        let n: f64 = counts.iter().map(|&c| f64::from(c)).sum();
        if n == 0.0 {
            return 0.0;
        }
        let trials = || counts.iter().zip(scores).map(|(&c, &x)| (f64::from(c), x));
        let m = trials().map(|(c, x)| c * x).sum::<f64>() / n;
        let mut variance = trials().map(|(c, x)| c * (x - m).powi(2)).sum::<f64>() / n;
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        if variance <= 1e-12 {
            let s = f64::midpoint(s0, s1);
            variance = fallback * s * (1.0 - s);
        }
        n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * variance)
    }

    /// The decision a log-likelihood ratio gives.
    pub fn decide(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
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
mod tests;
