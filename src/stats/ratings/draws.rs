//! The draw rate between equal opponents, fitted to the two-seat games once the ratings are: the
//! draw model of Ordo (and of Davidson), in which a game's draws are `ν √(wins · losses)` of it,
//! whatever the gap, and the expected score is the Elo curve's.

/// A fitted draw rate between equal opponents and its standard deviation, both as shares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawRate {
    /// The share of games drawn between equal opponents.
    pub rate: f64,
    /// Its standard deviation (from the likelihood's curvature).
    pub sd: f64,
}

/// The chance of a draw at expected score `p` when equal opponents draw a share `d0`: the root
/// of `a x² + 2x - 4p(1 - p) = 0` with `a = (1 - 2 d0) / d0²`, which is `x² = ν² w l` for wins
/// `w = p - x/2` and losses `l = 1 - p - x/2`, `ν = 2 d0 / (1 - d0)`.
fn draw_chance(p: f64, d0: f64) -> f64 {
    let a = (1.0 - 2.0 * d0) / (d0 * d0);
    let c = 4.0 * p * (1.0 - p);
    if a.abs() < 1e-9 {
        return c / 2.0;
    }
    ((1.0 + a * c).sqrt() - 1.0) / a
}

/// The log-likelihood of `games` (each: the first seat's expected score, and how many it won,
/// drew and lost) at draw rate `d0`.
fn log_likelihood(games: &[(f64, [f64; 3])], d0: f64) -> f64 {
    (games.iter())
        .map(|&(p, [won, drawn, lost])| {
            let draw = draw_chance(p, d0).clamp(1e-300, 1.0);
            let win = (p - draw / 2.0).max(1e-300);
            let loss = (1.0 - p - draw / 2.0).max(1e-300);
            won * win.ln() + drawn * draw.ln() + lost * loss.ln()
        })
        .sum()
}

/// The draw rate between equal opponents that makes `games` most likely (each: the first
/// seat's expected score by the ratings, and how many it won, drew and lost); `None` without a
/// draw among them.
pub fn fit(games: &[(f64, [f64; 3])]) -> Option<DrawRate> {
    if !games.iter().any(|(_, [_, drawn, _])| *drawn > 0.0) {
        return None;
    }
    // The likelihood is unimodal in d0: golden-section search on (0, 1).
    let (mut low, mut high) = (1e-6, 1.0 - 1e-6);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..200 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if log_likelihood(games, a) < log_likelihood(games, b) {
            low = a;
        } else {
            high = b;
        }
    }
    let rate = f64::midpoint(low, high);
    let h = 1e-4 * rate.min(1.0 - rate);
    let curvature = (log_likelihood(games, rate + h) - 2.0 * log_likelihood(games, rate)
        + log_likelihood(games, rate - h))
        / (h * h);
    let sd = if curvature < 0.0 {
        (-1.0 / curvature).sqrt()
    } else {
        f64::NAN
    };
    Some(DrawRate { rate, sd })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draw_chance_is_the_rate_at_an_even_score_and_falls_with_the_gap() {
        for d0 in [0.1, 0.3, 0.5, 0.7] {
            assert!((draw_chance(0.5, d0) - d0).abs() < 1e-12, "{d0}");
            assert!(draw_chance(0.8, d0) < d0 && draw_chance(0.2, d0) < d0);
            assert!((draw_chance(0.8, d0) - draw_chance(0.2, d0)).abs() < 1e-12);
        }
    }

    #[test]
    fn equal_opponents_drawing_a_quarter_of_their_games_give_a_quarter() {
        let fitted = fit(&[(0.5, [300.0, 200.0, 300.0])]).unwrap();
        assert!((fitted.rate - 0.25).abs() < 1e-6, "{fitted:?}");
        // A share's standard deviation: √(d (1 - d) / n).
        assert!(
            (fitted.sd - (0.25f64 * 0.75 / 800.0).sqrt()).abs() < 1e-4,
            "{fitted:?}"
        );
        assert!(fit(&[(0.5, [3.0, 0.0, 1.0])]).is_none());
    }
}
