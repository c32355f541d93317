//! Alpha-beta search with iterative deepening under a deadline, for two-seat games.
//!
//! Values are from the root seat's point of view: a node is a max node when the root seat is to
//! move and a min node otherwise, so a seat moving twice in a row (DVONN's White at ply 48/49)
//! needs no special case.

use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::rules::game::{Actor, Game, Outcome, Seat};

/// A game the search can judge.
pub trait Evaluate: Game {
    /// How good the position is for `seat`, in the game's own units (about 100 per piece).
    fn evaluate(&self, seat: Seat) -> i32;
}

/// A value beyond any evaluation: a won game.
const WIN: i32 = 1_000_000;

/// How long and how deep to search.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Stop starting new work at this instant.
    pub deadline: Instant,
    /// Never search deeper than this many plies.
    pub max_depth: u32,
    /// Stop starting new work after this many positions (`nodes=` in `newgame`): the same
    /// search, whatever the machine's load, while the deadline allows it.
    pub max_nodes: u64,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Found<M> {
    /// The best move of the deepest finished iteration.
    pub best: M,
    /// That iteration's depth.
    pub depth: u32,
    /// That iteration's value of the best move for the seat to move; `None` when the move was the
    /// only one, and nothing was searched.
    pub score: Option<i32>,
    /// Nodes visited in all iterations.
    pub nodes: u64,
}

struct Searcher {
    root: Seat,
    deadline: Instant,
    nodes: u64,
    max_nodes: u64,
    stopped: bool,
}

impl Searcher {
    fn out_of_time(&mut self) -> bool {
        // A node costs far more than reading the clock, but not 32 times more.
        if !self.stopped
            && (self.nodes >= self.max_nodes
                || self.nodes.is_multiple_of(32) && Instant::now() >= self.deadline)
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn value<G: Evaluate>(
        &mut self,
        game: &G,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        let mover = match game.to_move() {
            None => {
                return match game.outcome() {
                    Outcome::Winners(w) if w.contains(&self.root) => WIN - ply,
                    Outcome::Winners(_) => -WIN + ply,
                    _ => 0,
                };
            }
            Some(Actor::Seat(seat)) => seat,
            Some(Actor::Chance) => return game.evaluate(self.root),
        };
        // Every node counts towards the next look at the clock, leaves included: with 49 leaves
        // under a node, checking only at inner nodes would look far too rarely.
        let stopped = self.out_of_time();
        if depth == 0 || stopped {
            return game.evaluate(self.root);
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let maximise = mover == self.root;
        let mut best = if maximise { i32::MIN } else { i32::MAX };
        for mv in &moves {
            let mut next = game.clone();
            next.play_unchecked(mv);
            let v = self.value(&next, depth - 1, alpha, beta, ply + 1);
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta || self.stopped {
                break;
            }
        }
        best
    }
}

/// The best move for the seat to move, deepening until the budget runs out; among equally good
/// moves, `tie_break` picks one (the root moves are shuffled with it). `None` only when the game is
/// over or a chance event is next.
pub fn search<G: Evaluate>(game: &G, budget: Budget, tie_break: u64) -> Option<Found<G::Move>> {
    let Some(Actor::Seat(root)) = game.to_move() else {
        return None;
    };
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.shuffle(&mut ChaCha8Rng::seed_from_u64(tie_break));
    let mut found = Found {
        best: moves.first()?.clone(),
        depth: 0,
        score: None,
        nodes: 0,
    };
    if moves.len() == 1 {
        return Some(found);
    }
    let mut searcher = Searcher {
        root,
        deadline: budget.deadline,
        nodes: 0,
        max_nodes: budget.max_nodes,
        stopped: false,
    };
    for depth in 1..=budget.max_depth {
        let mut alpha = -WIN - 1;
        let mut best_index = 0;
        for (index, mv) in moves.iter().enumerate() {
            let mut next = game.clone();
            next.play_unchecked(mv);
            let v = searcher.value(&next, depth - 1, alpha, WIN + 1, 1);
            if searcher.stopped {
                break;
            }
            if v > alpha {
                alpha = v;
                best_index = index;
            }
        }
        found.nodes = searcher.nodes;
        if searcher.stopped {
            break;
        }
        // Search the best move first next time: it makes the cut-offs come early.
        moves.swap(0, best_index);
        found.best = moves[0].clone();
        found.depth = depth;
        found.score = Some(alpha);
        if alpha.abs() >= WIN - 1000 {
            break;
        }
    }
    Some(found)
}
