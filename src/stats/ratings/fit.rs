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

/// The longest Newton step (natural units) after which the information is no longer worked out
/// and factored at every step.
const CHORD_FROM: f64 = 0.01;

/// Natural-log units per Elo point: `ln 10 / 400`.
pub const K: f64 = std::f64::consts::LN_10 / 400.0;

/// One kind of game: its seats (engine, points), where each sat, and how many games were exactly
/// that.
#[derive(Clone, Debug)]
pub struct Game {
    /// Each seat's engine (an index into the fit's engines) and points.
    pub seats: Vec<(usize, f64)>,
    /// Each seat's number at the table (0 the first to move), in the order of `seats`: what a
    /// fitted seat advantage is of.
    pub positions: Vec<usize>,
    /// How many games.
    pub count: f64,
}

impl Game {
    /// The game as the fit reads it.
    pub fn view(&self) -> GameRef<'_> {
        GameRef {
            seats: &self.seats,
            positions: &self.positions,
            count: self.count,
        }
    }
}

/// One kind of game as the fit reads it, borrowed from a [`Game`] or from [`Games`].
#[derive(Clone, Copy, Debug)]
pub struct GameRef<'a> {
    /// Each seat's engine and points.
    pub seats: &'a [(usize, f64)],
    /// Each seat's number at the table.
    pub positions: &'a [usize],
    /// How many games.
    pub count: f64,
}

/// Many kinds of game in flat lists: no allocation for each (there may be millions), and every
/// pass over them reads memory in order.
#[derive(Clone, Debug, Default)]
pub struct Games {
    seats: Vec<(usize, f64)>,
    positions: Vec<usize>,
    /// Where each game's seats end.
    ends: Vec<usize>,
    counts: Vec<f64>,
}

impl Games {
    /// Room for `games` more games of `seats` seats in all, so that the lists are not copied as
    /// they grow (with millions of seats, a copy is the peak of memory).
    pub fn reserve(&mut self, games: usize, seats: usize) {
        self.seats.reserve_exact(seats);
        self.positions.reserve_exact(seats);
        self.ends.reserve_exact(games);
        self.counts.reserve_exact(games);
    }

    /// Gives back the room not used.
    pub fn shrink_to_fit(&mut self) {
        self.seats.shrink_to_fit();
        self.positions.shrink_to_fit();
        self.ends.shrink_to_fit();
        self.counts.shrink_to_fit();
    }

    /// Adds `game`.
    pub fn push(&mut self, game: GameRef<'_>) {
        self.seats.extend_from_slice(game.seats);
        self.positions.extend_from_slice(game.positions);
        self.ends.push(self.seats.len());
        self.counts.push(game.count);
    }

    /// The games, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = GameRef<'_>> + Clone {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        (starts.zip(&self.ends).zip(&self.counts)).map(|((start, &end), &count)| GameRef {
            seats: &self.seats[start..end],
            positions: &self.positions[start..end],
            count,
        })
    }
}

/// Games the fit reads, once for each of its passes: held in memory ([`Games`]), or made again
/// each time from what the pool keeps (a file, other numbers).
pub trait Source {
    /// Calls `each` with every game, in the same order every time.
    fn each(&self, each: &mut dyn FnMut(GameRef<'_>));
}

impl Source for Games {
    fn each(&self, each: &mut dyn FnMut(GameRef<'_>)) {
        self.iter().for_each(each);
    }
}

/// Whether any game of `games` is drawn (two seats, half a point each).
fn any_drawn(games: &dyn Source) -> bool {
    let mut any = false;
    games.each(&mut |game| any |= drawn(game));
    any
}

impl<'a> FromIterator<GameRef<'a>> for Games {
    fn from_iter<I: IntoIterator<Item = GameRef<'a>>>(games: I) -> Games {
        let mut all = Games::default();
        games.into_iter().for_each(|game| all.push(game));
        all
    }
}

/// The games of one seed played in every rotation of its seats (`--repeat`), whose results
/// lean together, and how many clusters were exactly these: each game as the fit sees it (its
/// choices, see `stages`).
#[derive(Clone, Debug)]
pub struct Cluster {
    /// Each game's choices.
    pub games: Vec<Vec<Game>>,
    /// How many.
    pub count: f64,
}

/// The fit: ratings with the first engine at 0, the seats' advantages over the first seat when
/// fitted, and their covariance.
#[derive(Clone, Debug)]
pub struct Fit {
    /// Elo of each engine, the first at 0; then, when fitted, the advantage of each seat from the
    /// second on over the first, in Elo.
    pub elo: Vec<f64>,
    /// Covariance of `elo` (Elo²), row by row; the first row and column are 0.
    pub covariance: Vec<f64>,
}

impl Fit {
    /// The variance of `Σ c_i elo_i` (`c` may be shorter than `elo`: the rest are 0): the long
    /// way the tests hold the short ones to.
    #[cfg(test)]
    pub fn variance(&self, c: &[f64]) -> f64 {
        let n = self.elo.len();
        let mut sum = 0.0;
        for (i, ci) in c.iter().enumerate() {
            for (j, cj) in c.iter().enumerate() {
                sum += ci * self.covariance[i * n + j] * cj;
            }
        }
        sum.max(0.0)
    }

    /// The variance of each of the first `m` ratings less the reference: the rating of
    /// `anchor`, or else the average of the `m` (`c_i = e_i - 1/m`, whose variance takes each
    /// row's sum once instead of a whole sum per engine).
    pub fn reference_variances(&self, m: usize, anchor: Option<usize>) -> Vec<f64> {
        if let Some(a) = anchor {
            return (0..m).map(|i| self.difference_variance(i, a)).collect();
        }
        let n = self.elo.len();
        let rows: Vec<f64> = (0..m)
            .map(|i| self.covariance[i * n..i * n + m].iter().sum())
            .collect();
        let total: f64 = rows.iter().sum();
        let m = m as f64;
        (rows.iter().enumerate())
            .map(|(i, row)| (self.covariance[i * n + i] - 2.0 * row / m + total / (m * m)).max(0.0))
            .collect()
    }

    /// The variance of `elo[i]`.
    pub fn variance_at(&self, i: usize) -> f64 {
        self.covariance[i * self.elo.len() + i].max(0.0)
    }

    /// The variance of `R_i - R_j`, from the covariance's three entries.
    pub fn difference_variance(&self, i: usize, j: usize) -> f64 {
        let n = self.elo.len();
        let c = &self.covariance;
        (c[i * n + i] + c[j * n + j] - 2.0 * c[i * n + j]).max(0.0)
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

/// One game's log-likelihood with `strength(engine, seat number)` in natural units.
pub fn game_log_likelihood(game: GameRef<'_>, strength: impl Fn(usize, usize) -> f64) -> f64 {
    let points: f64 = game.seats.iter().map(|&(_, p)| p).sum();
    let at = |k: usize| strength(game.seats[k].0, game.positions[k]);
    let lse = log_sum_exp((0..game.seats.len()).map(at));
    (0..game.seats.len())
        .map(|k| game.seats[k].1 * at(k))
        .sum::<f64>()
        - points * lse
}

/// The log-likelihood of the games at some strengths, its gradient, and the information
/// (`n`×`n`) when asked for.
struct Pass {
    log_likelihood: f64,
    gradient: Vec<f64>,
    information: Option<Vec<f64>>,
}

/// What is fitted: `m` engines' strengths, then (when `seats` is above 1) the advantage of each
/// seat number from 1 to `seats - 1` over seat 0.
#[derive(Clone, Copy, Debug)]
struct Model {
    m: usize,
    seats: usize,
}

impl Model {
    /// How many parameters.
    fn size(self) -> usize {
        self.m + self.seats.saturating_sub(1)
    }

    /// The parameters seat `k` of `game` plays with: its engine's, and its seat's when fitted.
    fn terms(self, game: GameRef<'_>, k: usize) -> ([usize; 2], usize) {
        let engine = game.seats[k].0;
        match self.seat_term(game.positions[k]) {
            Some(seat) => ([engine, seat], 2),
            None => ([engine, engine], 1),
        }
    }

    /// The parameter of seat number `position`, when fitted (seat 0 is the reference).
    fn seat_term(self, position: usize) -> Option<usize> {
        (position >= 1 && position < self.seats).then(|| self.m + position - 1)
    }

    /// The strength of `engine` in seat number `position` at `theta`.
    fn strength_of(self, engine: usize, position: usize, theta: &[f64]) -> f64 {
        theta[engine] + self.seat_term(position).map_or(0.0, |t| theta[t])
    }

    /// Seat `k`'s strength at `theta`.
    fn strength(self, game: GameRef<'_>, k: usize, theta: &[f64]) -> f64 {
        self.strength_of(game.seats[k].0, game.positions[k], theta)
    }

    /// Each seat's chance to win `game` at `theta`, into `chance` (its seats' strengths into
    /// `strengths`); returns `log Σ exp` of the strengths.
    fn chances_into(
        self,
        game: GameRef<'_>,
        theta: &[f64],
        strengths: &mut Vec<f64>,
        chance: &mut Vec<f64>,
    ) -> f64 {
        strengths.clear();
        strengths.extend((0..game.seats.len()).map(|k| self.strength(game, k, theta)));
        let top = strengths.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        chance.clear();
        chance.extend(strengths.iter().map(|s| libm::exp(s - top)));
        let sum: f64 = chance.iter().sum();
        for c in chance.iter_mut() {
            *c /= sum;
        }
        top + libm::log(sum)
    }

    /// Each seat's chance to win `game` at `theta`.
    fn chances(self, game: GameRef<'_>, theta: &[f64]) -> Vec<f64> {
        let (mut strengths, mut chance) = (Vec::new(), Vec::new());
        self.chances_into(game, theta, &mut strengths, &mut chance);
        chance
    }

    /// One game's score (the gradient of its log-likelihood) at its seats' `chance`s, entry by
    /// entry: each term of each seat with what that seat adds to it.
    fn score_entries<'a>(
        self,
        game: GameRef<'a>,
        chance: &'a [f64],
    ) -> impl Iterator<Item = (usize, f64)> + 'a {
        let points: f64 = game.seats.iter().map(|&(_, p)| p).sum();
        chance.iter().enumerate().flat_map(move |(k, &pk)| {
            let (terms, used) = self.terms(game, k);
            let value = game.seats[k].1 - points * pk;
            terms.into_iter().take(used).map(move |t| (t, value))
        })
    }

    /// Adds `scale` times one game's information (minus the Hessian) at its seats' `chance`s.
    fn add_information_at(
        self,
        game: GameRef<'_>,
        chance: &[f64],
        scale: f64,
        information: &mut [f64],
    ) {
        let n = self.size();
        let points: f64 = game.seats.iter().map(|&(_, p)| p).sum();
        if self.seats <= 1 {
            // Each seat's one term is its engine's: straight into the engines' rows.
            for (&(ea, _), &pa) in game.seats.iter().zip(chance) {
                let weight = scale * points * pa;
                let row = &mut information[ea * n..(ea + 1) * n];
                row[ea] += weight;
                for (&(eb, _), &pb) in game.seats.iter().zip(chance) {
                    row[eb] -= weight * pb;
                }
            }
            return;
        }
        for (a, &pa) in chance.iter().enumerate() {
            let (ta, ua) = self.terms(game, a);
            for (b, &pb) in chance.iter().enumerate() {
                let (tb, ub) = self.terms(game, b);
                let value = scale * points * (if a == b { pa } else { 0.0 } - pa * pb);
                for &u in &ta[..ua] {
                    for &v in &tb[..ub] {
                        information[u * n + v] += value;
                    }
                }
            }
        }
    }

    /// The log-likelihood of `games` at `theta`, its gradient and (with `information`) the
    /// information, in one pass: each game's chances worked out once for all three.
    fn pass(self, games: &dyn Source, theta: &[f64], information: bool) -> Pass {
        let n = self.size();
        let mut pass = Pass {
            log_likelihood: 0.0,
            gradient: vec![0.0; n],
            information: information.then(|| vec![0.0; n * n]),
        };
        let (mut strengths, mut chance) = (Vec::new(), Vec::new());
        games.each(&mut |game| {
            let lse = self.chances_into(game, theta, &mut strengths, &mut chance);
            let points: f64 = game.seats.iter().map(|&(_, p)| p).sum();
            let won: f64 = (game.seats.iter().zip(&strengths))
                .map(|(&(_, p), s)| p * s)
                .sum();
            pass.log_likelihood += game.count * (won - points * lse);
            for (t, value) in self.score_entries(game, &chance) {
                pass.gradient[t] += game.count * value;
            }
            if let Some(information) = &mut pass.information {
                self.add_information_at(game, &chance, game.count, information);
            }
        });
        pass
    }

    /// The covariance of the games' scores at `theta`, as the model says with draws: a
    /// two-seat game's score is `x - e` for the first seat (`x` its points, `e` its expected
    /// points) and the opposite for the other, and when a share `d` of the two-seat games is
    /// drawn, `x` has variance `e(1 - e) - d/4` (`w + d/4 - e²` with wins `w = e - d/2`); `d` is
    /// estimated as `draws / (games + 2)`, a little under the share seen, so that draws alone
    /// never make a game look certain, and kept within what `e` allows. A game of more seats
    /// counts its information: the model's own variance, which shared wins can only make
    /// smaller. (The scores' observed outer products, the usual sandwich, are no estimate at all
    /// with few games: two engines that drew once would be rated equal with no error.)
    fn score_covariance(self, games: &dyn Source, theta: &[f64]) -> Vec<f64> {
        let n = self.size();
        let (mut played, mut drawn_games) = (0.0, 0.0);
        games.each(&mut |g| {
            if g.seats.len() == 2 {
                played += g.count;
                drawn_games += if drawn(g) { g.count } else { 0.0 };
            }
        });
        let draw_share = drawn_games / (played + 2.0);
        let mut covariance = vec![0.0; n * n];
        games.each(&mut |game| {
            let chance = self.chances(game, theta);
            let points: f64 = game.seats.iter().map(|&(_, p)| p).sum();
            if game.seats.len() != 2 || points <= 0.0 {
                self.add_information_at(game, &chance, game.count, &mut covariance);
                return;
            }
            let e = chance[0];
            let d = draw_share.min(2.0 * e.min(1.0 - e));
            let variance = game.count * (e * (1.0 - e) - d / 4.0).max(0.0);
            // The score's direction: +1 on the first seat's terms, -1 on the second's.
            let direction: Vec<(usize, f64)> = [(0, 1.0), (1, -1.0)]
                .into_iter()
                .flat_map(|(k, sign)| {
                    let (terms, used) = self.terms(game, k);
                    terms.into_iter().take(used).map(move |t| (t, sign))
                })
                .collect();
            for &(u, du) in &direction {
                for &(v, dv) in &direction {
                    covariance[u * n + v] += variance * du * dv;
                }
            }
        });
        covariance
    }

    /// Adds to `covariance` the products of the scores of every two games of each cluster at
    /// `theta`: what makes the covariance of a cluster's summed score that of one unit.
    fn add_cluster_products(self, clusters: &[Cluster], theta: &[f64], covariance: &mut [f64]) {
        let n = self.size();
        for cluster in clusters {
            // Each game's score, entry by entry (a game touches only its seats' terms).
            let scores: Vec<Vec<(usize, f64)>> = (cluster.games.iter())
                .map(|choices| {
                    (choices.iter())
                        .flat_map(|c| {
                            let chance = self.chances(c.view(), theta);
                            self.score_entries(c.view(), &chance).collect::<Vec<_>>()
                        })
                        .collect()
                })
                .collect();
            for (g, a) in scores.iter().enumerate() {
                for b in scores.iter().skip(g + 1) {
                    for &(u, au) in a {
                        for &(v, bv) in b {
                            covariance[u * n + v] += cluster.count * au * bv;
                            covariance[v * n + u] += cluster.count * au * bv;
                        }
                    }
                }
            }
        }
    }
}

/// Whether `game` is a drawn two-seat game.
fn drawn(game: GameRef<'_>) -> bool {
    game.seats.len() == 2 && game.seats.iter().all(|&(_, p)| p == 0.5)
}

/// Rows and columns 1.. of an `n`×`n` matrix: the first engine's rating is fixed at 0.
fn reduced(matrix: &[f64], n: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity((n - 1) * (n - 1));
    for i in 1..n {
        out.extend_from_slice(&matrix[i * n + 1..(i + 1) * n]);
    }
    out
}

/// Fits the `m` engines to `games` (every engine in them below `m`), and with `seats` above 1
/// the advantage of each seat number below `seats` over the first. `None` when the maximum is
/// not finite or not unique: the caller passes only engines whose results are strongly
/// connected (each has gained points against, and lost points to, the rest, directly or through
/// others), and asks for seat advantages only where every seat has been played.
///
/// The games of each of `clusters` (which are among `games` too) are one unit in the intervals:
/// the observed products of their games' scores with each other's are added to the covariance of
/// the scores, so that a pair whose two results lean opposite ways (an opening that favours one
/// seat, played from both sides) counts for what its sum varies, not for two independent games.
pub fn fit(m: usize, seats: usize, games: &dyn Source, clusters: &[Cluster]) -> Option<Fit> {
    if m < 2 {
        return None;
    }
    let model = Model { m, seats };
    let n = model.size();
    let mut theta = vec![0.0; n];
    let mut at = model.pass(games, &theta, true);
    // Newton's method; once its steps are short, the last factored information serves the
    // following steps too (a chord method: a pass without the information, and no factoring),
    // as long as each step is under half the one before.
    let mut factored: Option<Cholesky> = None;
    let mut last_moved = f64::INFINITY;
    for _ in 0..200 {
        if let Some(information) = &at.information {
            factored = Some(Cholesky::new(&reduced(information, n), n - 1)?);
        }
        let step = factored.as_ref()?.solve(&at.gradient[1..]);
        let longest = step.iter().fold(0.0f64, |a, s| a.max(s.abs()));
        let chord_next = longest < CHORD_FROM && longest < last_moved / 2.0;
        // The step, halved while it does not improve the likelihood (it is concave); the pass
        // that checks it also gives the next step's gradient (and information).
        let mut scale = 1.0;
        let (next, next_at) = loop {
            let mut next = theta.clone();
            for (t, s) in next[1..].iter_mut().zip(&step) {
                *t += scale * s;
            }
            let next_at = model.pass(games, &next, !chord_next);
            let current = at.log_likelihood;
            if next_at.log_likelihood >= current - 1e-12 * current.abs() || scale < 1e-6 {
                break (next, next_at);
            }
            scale /= 2.0;
        };
        let moved = scale * longest;
        (theta, at, last_moved) = (next, next_at, moved);
        if moved < 1e-11 {
            break;
        }
    }
    // The information at the maximum, and the covariance of the games' scores as the model
    // gives it there (see `score_covariance`), for the sandwich.
    let information = match at.information {
        Some(information) => information,
        None => model.pass(games, &theta, true).information?,
    };
    let bread = Cholesky::new(&reduced(&information, n), n - 1)?.inverse();
    let r = n - 1;
    // Without draws in two-seat games and without clusters, the scores' covariance is the
    // information itself, and the sandwich is the inverse alone.
    let sandwich = if clusters.is_empty() && !any_drawn(games) {
        bread
    } else {
        let mut covariance = model.score_covariance(games, &theta);
        model.add_cluster_products(clusters, &theta, &mut covariance);
        sandwich(&bread, &reduced(&covariance, n), r)
    };
    let mut covariance = vec![0.0; n * n];
    for i in 1..n {
        for j in 1..n {
            covariance[i * n + j] = sandwich[(i - 1) * r + (j - 1)] / (K * K);
        }
    }
    Some(Fit {
        elo: theta.iter().map(|t| t / K).collect(),
        covariance,
    })
}

/// `bread · meat · bread` of two `r`×`r` matrices.
fn sandwich(bread: &[f64], meat: &[f64], r: usize) -> Vec<f64> {
    let product = |a: &[f64], b: &[f64]| {
        let mut out = vec![0.0; r * r];
        for i in 0..r {
            for k in 0..r {
                let aik = a[i * r + k];
                if aik != 0.0 {
                    for j in 0..r {
                        out[i * r + j] += aik * b[k * r + j];
                    }
                }
            }
        }
        out
    };
    product(&product(bread, meat), bread)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(games: &[Game]) -> Games {
        games.iter().map(Game::view).collect()
    }

    fn two(a: usize, b: usize, points_a: f64, count: f64) -> Game {
        Game {
            seats: vec![(a, points_a), (b, 1.0 - points_a)],
            positions: vec![0, 1],
            count,
        }
    }

    #[test]
    fn two_engines_give_the_elo_of_the_score_and_its_usual_error() {
        // 60 wins, 40 losses: the Elo of a 0.6 score, and the error of `stats` (elo.rs), which
        // maps the score's interval through the same curve, agrees to first order.
        let games = [two(0, 1, 1.0, 60.0), two(0, 1, 0.0, 40.0)];
        let fit = fit(2, 0, &flat(&games), &[]).unwrap();
        let expected = -400.0 * (1.0f64 / 0.6 - 1.0).log10();
        assert!((fit.elo[1] + expected).abs() < 1e-6, "{:?}", fit.elo);
        // Var(score) = 0.24 / 100; dElo/dscore = 400 / (ln 10 · s (1 - s)).
        let sd = (0.24f64 / 100.0).sqrt() * 400.0 / (std::f64::consts::LN_10 * 0.24);
        assert!((fit.variance(&[1.0, -1.0]).sqrt() - sd).abs() < 1e-6);
    }

    #[test]
    fn without_draws_the_sandwich_is_the_inverse_information_it_skips() {
        let three = |seats: [(usize, f64); 3], count: f64| Game {
            seats: seats.to_vec(),
            positions: vec![0, 1, 2],
            count,
        };
        let games = [
            two(0, 1, 1.0, 7.0),
            two(0, 1, 0.0, 4.0),
            two(1, 2, 1.0, 5.0),
            two(2, 1, 1.0, 3.0),
            three([(0, 0.0), (1, 0.0), (2, 1.0)], 2.0),
            three([(0, 1.0), (1, 0.0), (2, 0.0)], 3.0),
        ];
        let fitted = fit(3, 0, &flat(&games), &[]).unwrap();
        // The long way: the sandwich with the scores' covariance worked out.
        let model = Model { m: 3, seats: 0 };
        let theta: Vec<f64> = fitted.elo.iter().map(|e| e * K).collect();
        let mut information = vec![0.0; 9];
        for game in &games {
            model.add_information_at(
                game.view(),
                &model.chances(game.view(), &theta),
                game.count,
                &mut information,
            );
        }
        let bread = Cholesky::new(&reduced(&information, 3), 2)
            .unwrap()
            .inverse();
        let meat = reduced(&model.score_covariance(&flat(&games), &theta), 3);
        let long = sandwich(&bread, &meat, 2);
        for i in 1..3 {
            for j in 1..3 {
                let (short, long) = (
                    fitted.covariance[i * 3 + j],
                    long[(i - 1) * 2 + j - 1] / (K * K),
                );
                assert!(
                    (short - long).abs() < 1e-9 * long.abs(),
                    "{i},{j}: {short} vs {long}"
                );
            }
        }
    }

    #[test]
    fn draws_count_half_and_narrow_the_interval() {
        let decisive = [two(0, 1, 1.0, 30.0), two(0, 1, 0.0, 20.0)];
        let drawn = [
            two(0, 1, 1.0, 20.0),
            two(0, 1, 0.0, 10.0),
            two(0, 1, 0.5, 20.0),
        ];
        let (a, b) = (
            fit(2, 0, &flat(&decisive), &[]).unwrap(),
            fit(2, 0, &flat(&drawn), &[]).unwrap(),
        );
        // Both scores are 0.6 of 50 games: the same rating, a narrower interval with draws.
        assert!((a.elo[1] - b.elo[1]).abs() < 1e-6);
        assert!(b.variance(&[1.0, -1.0]) < a.variance(&[1.0, -1.0]));
    }
}
