//! Information-set Monte Carlo tree search (single observer): for a game whose seats cannot see
//! each other's cards, a tree of the moves the searching seat can see, grown over many
//! determinizations.
//!
//! Each iteration deals the cards the seat cannot see anew (`prepare`), walks down the tree
//! choosing among the moves legal in that deal by UCB1, each seat choosing for its own reward,
//! adds one move to the tree, plays on to the end by a quick rule (`policy`: a move of the highest
//! rank it gives, at random among those; `rewards` says when the game is over, and what each seat
//! won), and credits every move on the way with the reward of the seat that made it. A
//! move's UCB1 counts only the iterations in which it was legal (its *availability*), so a card
//! some deals give an opponent and others do not is judged on the deals that gave it. Chance
//! events (a card from the stock) are dealt at random and are not part of the tree: what another
//! seat draws is hidden from the searching seat anyway.
//!
//! The reference: Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
//! IEEE Transactions on Computational Intelligence and AI in Games 4(2), 2012.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rules::game::{Actor, Game, Seat};

/// Plies after which an iteration is cut short and scores nothing: a guard, far past any round.
const PLAYOUT_LIMIT: usize = 10_000;

/// UCB1's exploration constant for rewards between 0 and 1.
const EXPLORATION: f64 = 0.7;

/// What the search chose: the root move tried most often, its mean worth, and how many
/// iterations there were in all.
#[derive(Clone, Debug)]
pub struct Sampled<M> {
    /// The move.
    pub best: M,
    /// Its mean worth to the root seat, 0 to 1; `None` when it was the only move.
    pub worth: Option<f64>,
    /// Iterations (each one playout) in all.
    pub playouts: u64,
}

/// A move out of a tree node.
struct Edge<M> {
    mv: M,
    /// The seat that makes it, whose reward it collects.
    seat: Seat,
    /// The node it leads to.
    child: usize,
    visits: u32,
    /// Iterations in which the move was legal when its node was passed.
    available: u32,
    reward: f64,
}

/// A node: the moves tried from it.
struct Node<M> {
    edges: Vec<Edge<M>>,
}

/// The root move tried most often, its mean reward to the root seat, and how many iterations
/// there were; `None` when the game is over or a chance event is next. `rewards` returns `true`
/// once the iteration's game is over, and only then fills in each seat's reward (0 to 1).
pub fn ismcts<G: Game>(
    game: &G,
    deadline: Instant,
    max_iterations: u64,
    seed: u64,
    prepare: impl Fn(&G, &mut ChaCha8Rng) -> G,
    rewards: impl Fn(&G, &mut [f64]) -> bool,
    policy: impl Fn(&G::Move) -> u8,
) -> Option<Sampled<G::Move>> {
    let Some(Actor::Seat(root)) = game.to_move() else {
        return None;
    };
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
    let mut tree: Vec<Node<G::Move>> = vec![Node { edges: Vec::new() }];
    let mut won = vec![0.0; game.seats()];
    let (mut legal, mut untried, mut path) = (Vec::new(), Vec::new(), Vec::new());
    let mut iterations = 0;
    // An iteration costs far more than reading the clock, so look after every one.
    while iterations < max_iterations && Instant::now() < deadline {
        iterations += 1;
        let mut world = prepare(game, &mut rng);
        let mut node = 0;
        let mut in_tree = true;
        path.clear();
        // Nothing won unless `rewards` says the game is over: an iteration cut short scores 0.
        won.fill(0.0);
        for _ in 0..PLAYOUT_LIMIT {
            if rewards(&world, &mut won) {
                break;
            }
            legal.clear();
            world.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            let seat = match world.to_move() {
                Some(Actor::Seat(seat)) if in_tree => seat,
                actor => {
                    // Past the tree, a seat plays a move of the best rank the policy gives; a
                    // chance event is any. Either at random among those.
                    if matches!(actor, Some(Actor::Seat(_))) {
                        let top = legal.iter().map(&policy).max().unwrap_or(0);
                        legal.retain(|mv| policy(mv) == top);
                    }
                    let pick = rng.random_range(0..legal.len());
                    world.play_unchecked(&legal[pick]);
                    continue;
                }
            };
            let edges = &mut tree[node].edges;
            untried.clear();
            untried.extend((0..legal.len()).filter(|&i| edges.iter().all(|e| e.mv != legal[i])));
            for edge in edges.iter_mut().filter(|e| legal.contains(&e.mv)) {
                edge.available += 1;
            }
            let chosen = if untried.is_empty() {
                let best = (edges.iter().enumerate())
                    .filter(|(_, e)| legal.contains(&e.mv))
                    .max_by(|(_, a), (_, b)| ucb(a).total_cmp(&ucb(b)))
                    .map(|(i, _)| i)
                    .expect("every legal move has an edge");
                world.play_unchecked(&edges[best].mv);
                best
            } else {
                let mv = legal.swap_remove(untried[rng.random_range(0..untried.len())]);
                world.play_unchecked(&mv);
                let child = tree.len();
                let edges = &mut tree[node].edges;
                edges.push(Edge {
                    mv,
                    seat,
                    child,
                    visits: 0,
                    available: 1,
                    reward: 0.0,
                });
                tree.push(Node { edges: Vec::new() });
                in_tree = false;
                tree[node].edges.len() - 1
            };
            path.push((node, chosen));
            node = tree[node].edges[chosen].child;
        }
        for &(node, edge) in &path {
            let edge = &mut tree[node].edges[edge];
            edge.visits += 1;
            edge.reward += won[edge.seat];
        }
    }
    let root_edges = &tree[0].edges;
    let best = (0..root_edges.len()).max_by_key(|&i| root_edges[i].visits)?;
    let edge = &root_edges[best];
    debug_assert_eq!(edge.seat, root);
    Some(Sampled {
        best: edge.mv.clone(),
        worth: (edge.visits > 0).then(|| edge.reward / f64::from(edge.visits)),
        playouts: iterations,
    })
}

/// A move's mean reward and its exploration bonus over the iterations it was available.
fn ucb<M>(edge: &Edge<M>) -> f64 {
    let visits = f64::from(edge.visits.max(1));
    edge.reward / visits + EXPLORATION * (libm::log(f64::from(edge.available)) / visits).sqrt()
}

/// The tree search for a game every seat sees whole (three-seat Double Dutch): no cards to deal,
/// playouts at random, a seat's reward its share of the win.
pub fn perfect_information<G: Game>(
    game: &G,
    deadline: Instant,
    max_iterations: u64,
    seed: u64,
) -> Option<Sampled<G::Move>> {
    let seats = game.seats();
    let rewards = move |end: &G, won: &mut [f64]| {
        if end.to_move().is_some() {
            return false;
        }
        let winners = end.outcome().winners(seats);
        for (seat, won) in won.iter_mut().enumerate() {
            *won = match winners.contains(&seat) {
                true => 1.0 / winners.len() as f64,
                false => 0.0,
            };
        }
        true
    };
    ismcts(
        game,
        deadline,
        max_iterations,
        seed,
        |g, _| g.clone(),
        rewards,
        |_| 0,
    )
}
