//! The maximum-likelihood fit of one rating per engine to every game at once, and its covariance.
//!
//! The model (docs/ratings.md): at a table of seats `T`, engine `i` wins with
//! probability `10^(R_i/400) / Σ_{j∈T} 10^(R_j/400)`, a Luce choice of the winner (a game with a
//! whole finishing order is one such choice per place, see `stages`); for two seats
//! that is the Elo (Bradley-Terry) model. A game's points (1 to its winner, `1/k` to each of `k`
//! sharing a win, half each for a draw) weigh the log-probabilities of its winners, so the
//! likelihood's equations say, for every engine, that its points equal its expected points.
//! Newton's method finds the maximum; the covariance is the sandwich `H⁻¹ B H⁻¹` (`H` the
//! information, `B` the covariance of the games' scores with the draws the games show), which is
//! narrower than the model's `H⁻¹` where draws make games less random than it says.

use super::cholesky::Cholesky;

/// Natural-log units per Elo point: `ln 10 / 400`.
pub const K: f64 = std::f64::consts::LN_10 / 400.0;

/// One kind of game: its seats (engine, points) and how many games were exactly that.
#[derive(Clone, Debug)]
pub struct Game {
    /// Each seat's engine (an index into the fit's engines) and points.
    pub seats: Vec<(usize, f64)>,
    /// How many games.
    pub count: f64,
}

/// The fit: ratings with the first engine at 0, and their covariance.
#[derive(Clone, Debug)]
pub struct Fit {
    /// Elo of each engine, the first at 0.
    pub elo: Vec<f64>,
    /// Covariance of the Elo ratings (Elo²), `m`×`m` row by row; the first row and column are 0.
    pub covariance: Vec<f64>,
}

impl Fit {
    /// The variance of `Σ c_i R_i`.
    pub fn variance(&self, c: &[f64]) -> f64 {
        let m = self.elo.len();
        let mut sum = 0.0;
        for i in 0..m {
            for j in 0..m {
                sum += c[i] * self.covariance[i * m + j] * c[j];
            }
        }
        sum.max(0.0)
    }

    /// The variance of `R_i - R_j`, from the covariance's three entries.
    pub fn difference_variance(&self, i: usize, j: usize) -> f64 {
        let m = self.elo.len();
        let c = &self.covariance;
        (c[i * m + i] + c[j * m + j] - 2.0 * c[i * m + j]).max(0.0)
    }

    /// The likelihood that engine `i` is the stronger of `i` and `j`, under the fit's normal
    /// approximation: `Φ((R_i - R_j) / σ)`, `σ` the standard deviation of the difference (with
    /// none, the difference's sign decides, and no difference is even).
    pub fn superiority(&self, i: usize, j: usize) -> f64 {
        let difference = self.elo[i] - self.elo[j];
        let spread = self.difference_variance(i, j).sqrt();
        if spread > 0.0 {
            0.5 * (1.0 + libm::erf(difference / spread / std::f64::consts::SQRT_2))
        } else if difference > 0.0 {
            1.0
        } else if difference < 0.0 {
            0.0
        } else {
            0.5
        }
    }
}

/// `log Σ exp(x)` without overflow.
fn log_sum_exp(values: impl Iterator<Item = f64> + Clone) -> f64 {
    let top = values.clone().fold(f64::NEG_INFINITY, f64::max);
    top + libm::log(values.map(|v| libm::exp(v - top)).sum::<f64>())
}

/// One game's log-likelihood at the strengths `theta` (natural units).
pub fn game_log_likelihood(game: &Game, theta: impl Fn(usize) -> f64) -> f64 {
    let points: f64 = game.seats.iter().map(|&(_, p)| p).sum();
    let lse = log_sum_exp(game.seats.iter().map(|&(e, _)| theta(e)));
    game.seats.iter().map(|&(e, p)| p * theta(e)).sum::<f64>() - points * lse
}

/// Each seat's chance to win `game` at `theta`.
fn chances(game: &Game, theta: &[f64]) -> Vec<f64> {
    let lse = log_sum_exp(game.seats.iter().map(|&(e, _)| theta[e]));
    (game.seats.iter())
        .map(|&(e, _)| libm::exp(theta[e] - lse))
        .collect()
}

/// Adds `scale` times one game's score (the gradient of its log-likelihood) at `theta`.
fn add_score(game: &Game, theta: &[f64], scale: f64, gradient: &mut [f64]) {
    let points: f64 = game.seats.iter().map(|&(_, p)| p).sum();
    for (&(e, p), pi) in game.seats.iter().zip(chances(game, theta)) {
        gradient[e] += scale * (p - points * pi);
    }
}

/// Adds `scale` times one game's information (minus the Hessian) at `theta` (`m`×`m`).
fn add_information(game: &Game, theta: &[f64], scale: f64, information: &mut [f64]) {
    let m = theta.len();
    let points: f64 = game.seats.iter().map(|&(_, p)| p).sum();
    let chance = chances(game, theta);
    for (&(a, _), &pa) in game.seats.iter().zip(&chance) {
        information[a * m + a] += scale * points * pa;
        for (&(b, _), &pb) in game.seats.iter().zip(&chance) {
            information[a * m + b] -= scale * points * pa * pb;
        }
    }
}

/// The covariance of the games' scores at `theta` (`m`×`m`), as the model says with draws: a
/// two-seat game's score is `x - e` for the first seat (`x` its points, `e` its expected points)
/// and the opposite for the other, and when a share `d` of the two-seat games is drawn, `x` has
/// variance `e(1 - e) - d/4` (`w + d/4 - e²` with wins `w = e - d/2`); `d` is estimated as
/// `draws / (games + 2)`, a little under the share seen, so that draws alone never make a game
/// look certain, and kept within what `e` allows. A game of more seats counts its information:
/// the model's own variance, which shared wins can only make smaller. (The scores' observed outer
/// products, the usual sandwich, are no estimate at all with few games: two engines that drew
/// once would be rated equal with no error.)
fn score_covariance(games: &[Game], theta: &[f64]) -> Vec<f64> {
    let m = theta.len();
    let two_seat = games.iter().filter(|g| g.seats.len() == 2);
    let played: f64 = two_seat.clone().map(|g| g.count).sum();
    let drawn: f64 = (two_seat.filter(|g| g.seats.iter().all(|&(_, p)| p == 0.5)))
        .map(|g| g.count)
        .sum();
    let draw_share = drawn / (played + 2.0);
    let mut covariance = vec![0.0; m * m];
    for game in games {
        let points: f64 = game.seats.iter().map(|&(_, p)| p).sum();
        match game.seats.as_slice() {
            &[(a, _), (b, _)] if points > 0.0 => {
                let e = chances(game, theta)[0];
                let d = draw_share.min(2.0 * e.min(1.0 - e));
                let variance = game.count * (e * (1.0 - e) - d / 4.0).max(0.0);
                covariance[a * m + a] += variance;
                covariance[b * m + b] += variance;
                covariance[a * m + b] -= variance;
                covariance[b * m + a] -= variance;
            }
            _ => add_information(game, theta, game.count, &mut covariance),
        }
    }
    covariance
}

/// The total log-likelihood.
fn log_likelihood(games: &[Game], theta: &[f64]) -> f64 {
    (games.iter())
        .map(|g| g.count * game_log_likelihood(g, |e| theta[e]))
        .sum()
}

/// Rows and columns 1.. of an `m`×`m` matrix: the first engine's rating is fixed at 0.
fn reduced(matrix: &[f64], m: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity((m - 1) * (m - 1));
    for i in 1..m {
        out.extend_from_slice(&matrix[i * m + 1..(i + 1) * m]);
    }
    out
}

/// Fits the `m` engines to `games` (every engine in them below `m`). `None` when the maximum is
/// not finite or not unique: the caller passes only engines whose results are strongly connected
/// (each has gained points against, and lost points to, the rest, directly or through others).
pub fn fit(m: usize, games: &[Game]) -> Option<Fit> {
    if m < 2 {
        return None;
    }
    let mut theta = vec![0.0; m];
    let mut current = log_likelihood(games, &theta);
    for _ in 0..200 {
        let mut gradient = vec![0.0; m];
        let mut information = vec![0.0; m * m];
        for game in games {
            add_score(game, &theta, game.count, &mut gradient);
            add_information(game, &theta, game.count, &mut information);
        }
        let step = Cholesky::new(&reduced(&information, m), m - 1)?.solve(&gradient[1..]);
        // Newton's step, halved while it does not improve the likelihood (it is concave).
        let mut scale = 1.0;
        let (next, value) = loop {
            let mut next = theta.clone();
            for (t, s) in next[1..].iter_mut().zip(&step) {
                *t += scale * s;
            }
            let value = log_likelihood(games, &next);
            if value >= current - 1e-12 * current.abs() || scale < 1e-6 {
                break (next, value);
            }
            scale /= 2.0;
        };
        let moved = step.iter().fold(0.0f64, |a, s| a.max((scale * s).abs()));
        theta = next;
        current = value;
        if moved < 1e-11 {
            break;
        }
    }
    // The information at the maximum, and the covariance of the games' scores as the model
    // gives it there (see `score_covariance`), for the sandwich.
    let mut information = vec![0.0; m * m];
    for game in games {
        add_information(game, &theta, game.count, &mut information);
    }
    let meat = reduced(&score_covariance(games, &theta), m);
    let bread = Cholesky::new(&reduced(&information, m), m - 1)?.inverse();
    let n = m - 1;
    let product = |a: &[f64], b: &[f64]| {
        let mut out = vec![0.0; n * n];
        for i in 0..n {
            for k in 0..n {
                let aik = a[i * n + k];
                if aik != 0.0 {
                    for j in 0..n {
                        out[i * n + j] += aik * b[k * n + j];
                    }
                }
            }
        }
        out
    };
    let sandwich = product(&product(&bread, &meat), &bread);
    let mut covariance = vec![0.0; m * m];
    for i in 1..m {
        for j in 1..m {
            covariance[i * m + j] = sandwich[(i - 1) * n + (j - 1)] / (K * K);
        }
    }
    Some(Fit {
        elo: theta.iter().map(|t| t / K).collect(),
        covariance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two(a: usize, b: usize, points_a: f64, count: f64) -> Game {
        Game {
            seats: vec![(a, points_a), (b, 1.0 - points_a)],
            count,
        }
    }

    #[test]
    fn two_engines_give_the_elo_of_the_score_and_its_usual_error() {
        // 60 wins, 40 losses: the Elo of a 0.6 score, and the error of `stats` (elo.rs), which
        // maps the score's interval through the same curve, agrees to first order.
        let games = [two(0, 1, 1.0, 60.0), two(0, 1, 0.0, 40.0)];
        let fit = fit(2, &games).unwrap();
        let expected = -400.0 * (1.0f64 / 0.6 - 1.0).log10();
        assert!((fit.elo[1] + expected).abs() < 1e-6, "{:?}", fit.elo);
        // Var(score) = 0.24 / 100; dElo/dscore = 400 / (ln 10 · s (1 - s)).
        let sd = (0.24f64 / 100.0).sqrt() * 400.0 / (std::f64::consts::LN_10 * 0.24);
        assert!((fit.variance(&[1.0, -1.0]).sqrt() - sd).abs() < 1e-6);
    }

    #[test]
    fn draws_count_half_and_narrow_the_interval() {
        let decisive = [two(0, 1, 1.0, 30.0), two(0, 1, 0.0, 20.0)];
        let drawn = [
            two(0, 1, 1.0, 20.0),
            two(0, 1, 0.0, 10.0),
            two(0, 1, 0.5, 20.0),
        ];
        let (a, b) = (fit(2, &decisive).unwrap(), fit(2, &drawn).unwrap());
        // Both scores are 0.6 of 50 games: the same rating, a narrower interval with draws.
        assert!((a.elo[1] - b.elo[1]).abs() < 1e-6);
        assert!(b.variance(&[1.0, -1.0]) < a.variance(&[1.0, -1.0]));
    }
}
