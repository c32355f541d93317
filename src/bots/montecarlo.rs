//! Monte Carlo move choice for games of any number of seats: random playouts from each root move,
//! spread over the moves by UCB1, until the deadline or the playout budget runs out.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rules::game::{Actor, Game};

/// Plies after which a playout is cut short and scored as a loss: a guard, far past any real game.
const PLAYOUT_LIMIT: usize = 10_000;

/// What the playouts chose: the root move with the most playouts, its mean worth, and how many
/// playouts there were in all.
#[derive(Clone, Debug)]
pub struct Sampled<M> {
    /// The move.
    pub best: M,
    /// Its playouts' mean worth to the root seat, 0 to 1; `None` when it was the only move.
    pub worth: Option<f64>,
    /// Playouts in all.
    pub playouts: u64,
}

/// The root move with the most playouts, or `None` when the game is over or a chance event is next.
/// Each playout runs to the end of the game and scores the root seat's share of the win.
pub fn monte_carlo<G: Game>(
    game: &G,
    deadline: Instant,
    max_playouts: u64,
    seed: u64,
) -> Option<Sampled<G::Move>> {
    let seats = game.seats();
    let Some(Actor::Seat(root)) = game.to_move() else {
        return None;
    };
    let share = move |end: &G| {
        if end.to_move().is_some() {
            return None;
        }
        let winners = end.outcome().winners(seats);
        Some(match winners.contains(&root) {
            true => 1.0 / winners.len() as f64,
            false => 0.0,
        })
    };
    monte_carlo_with(game, deadline, max_playouts, seed, |g, _| g.clone(), share)
}

/// Monte Carlo with hooks: `prepare` makes each playout's start from the root (a determinized
/// copy, for hidden information), and `score` says when a playout is over and what it is worth to
/// the root seat (0 to 1).
pub fn monte_carlo_with<G: Game>(
    game: &G,
    deadline: Instant,
    max_playouts: u64,
    seed: u64,
    prepare: impl Fn(&G, &mut ChaCha8Rng) -> G,
    score: impl Fn(&G) -> Option<f64>,
) -> Option<Sampled<G::Move>> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if moves.len() <= 1 {
        return moves.pop().map(|best| Sampled {
            best,
            worth: None,
            playouts: 0,
        });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Points won (a shared win is split) and playouts, per root move.
    let mut points = vec![0.0f64; moves.len()];
    let mut visits = vec![0u64; moves.len()];
    let mut scratch = Vec::new();
    let mut total = 0u64;
    // A playout costs far more than reading the clock, so look after every one.
    while total < max_playouts && Instant::now() < deadline {
        let arm = match visits.iter().position(|&v| v == 0) {
            Some(unvisited) => unvisited,
            None => {
                let log_total = (total as f64).ln();
                (0..moves.len())
                    .max_by(|&a, &b| {
                        let ucb = |i: usize| {
                            points[i] / visits[i] as f64
                                + (2.0 * log_total / visits[i] as f64).sqrt()
                        };
                        ucb(a).total_cmp(&ucb(b))
                    })
                    .expect("at least two moves")
            }
        };
        let mut playout = prepare(game, &mut rng);
        playout.play_unchecked(&moves[arm]);
        let mut worth = 0.0;
        for _ in 0..PLAYOUT_LIMIT {
            if let Some(value) = score(&playout) {
                worth = value;
                break;
            }
            scratch.clear();
            playout.legal_moves(&mut scratch);
            let pick = rng.random_range(0..scratch.len());
            playout.play_unchecked(&scratch[pick]);
        }
        points[arm] += worth;
        visits[arm] += 1;
        total += 1;
    }
    let best = (0..moves.len()).max_by_key(|&i| visits[i])?;
    let worth = (visits[best] > 0).then(|| points[best] / visits[best] as f64);
    Some(Sampled {
        best: moves.swap_remove(best),
        worth,
        playouts: total,
    })
}
