//! Alpha-beta search with iterative deepening under a deadline, for two-seat games.
//!
//! Values are from the root seat's point of view: a node is a max node when the root seat is to
//! move and a min node otherwise, so a seat moving twice in a row (DVONN's White at ply 48/49)
//! needs no special case. What makes it deep enough to matter: a transposition table (the same
//! position reached by other move orders is searched once, and its best move is tried first next
//! time), killer moves (a move that cut off a sibling is tried early), the game's own guess of a
//! move's promise, and null windows after the first move (principal variation search), which
//! prove a move no better than the first far more cheaply than finding its value.

use std::hash::{Hash, Hasher};
use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::rules::game::{Actor, Game, Outcome, Seat};

/// A game the search can judge.
pub trait Evaluate: Game {
    /// How good the position is for `seat`, in the game's own units (about 100 per piece).
    fn evaluate(&self, seat: Seat) -> i32;

    /// The position as a number for the transposition table: equal positions, equal keys
    /// ([`key_of`] for a game that derives `Hash`).
    fn key(&self) -> u64;

    /// How promising `mv` looks before it is searched: moves are tried highest first, after the
    /// table's move and the killers. The default orders nothing.
    fn promise(&self, mv: &Self::Move) -> i32 {
        let _ = mv;
        0
    }
}

/// A position's key from its `Hash`: FxHash, fast on the few machine words a position is.
pub fn key_of(position: &impl Hash) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    position.hash(&mut hasher);
    hasher.finish()
}

/// A value beyond any evaluation: a won game.
const WIN: i32 = 1_000_000;

/// Values this close to [`WIN`] are wins at a known distance.
const WIN_ZONE: i32 = WIN - 10_000;

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

/// What a table entry's value says of the position's true value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// At least the value: the search stopped at a cut-off.
    Lower,
    /// At most the value: no move reached alpha.
    Upper,
}

#[derive(Clone)]
struct Entry<M> {
    key: u64,
    depth: u32,
    value: i32,
    bound: Bound,
    best: Option<M>,
}

/// Positions searched, by key; a newer entry replaces an older one in its slot.
struct Table<M> {
    slots: Vec<Option<Entry<M>>>,
}

impl<M: Clone> Table<M> {
    /// A table of `2^bits` slots.
    fn new(bits: u32) -> Table<M> {
        Table {
            slots: vec![None; 1 << bits],
        }
    }

    fn index(&self, key: u64) -> usize {
        // The low bits: FxHash's high bits are its best, but any mixing will do for a table.
        (key.rotate_left(26) as usize) & (self.slots.len() - 1)
    }

    fn get(&self, key: u64) -> Option<&Entry<M>> {
        self.slots[self.index(key)]
            .as_ref()
            .filter(|entry| entry.key == key)
    }

    fn put(&mut self, entry: Entry<M>) {
        let index = self.index(entry.key);
        self.slots[index] = Some(entry);
    }
}

/// A win's value counts plies from the root; the table keeps it from the position, where the
/// same position may be reached at another ply.
fn to_table(value: i32, ply: i32) -> i32 {
    match value {
        v if v > WIN_ZONE => v + ply,
        v if v < -WIN_ZONE => v - ply,
        v => v,
    }
}

fn from_table(value: i32, ply: i32) -> i32 {
    match value {
        v if v > WIN_ZONE => v - ply,
        v if v < -WIN_ZONE => v + ply,
        v => v,
    }
}

struct Searcher<M> {
    root: Seat,
    deadline: Instant,
    nodes: u64,
    max_nodes: u64,
    stopped: bool,
    table: Table<M>,
    /// Two moves per ply that last cut a search off there.
    killers: Vec<[Option<M>; 2]>,
    /// Move lists and their order by ply, kept to save an allocation per node.
    lists: Vec<(Vec<M>, Vec<i32>)>,
}

impl<M: Clone + PartialEq> Searcher<M> {
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

    /// Puts the most promising moves first: the table's move, the killers, then by
    /// [`Evaluate::promise`].
    fn order<G: Evaluate<Move = M>>(
        &self,
        game: &G,
        moves: &mut [M],
        order: &mut Vec<i32>,
        first: Option<&M>,
        ply: usize,
    ) {
        let killers = self.killers.get(ply);
        order.clear();
        order.extend(moves.iter().map(|mv| {
            if first == Some(mv) {
                i32::MAX
            } else if killers.is_some_and(|k| k[0].as_ref() == Some(mv)) {
                i32::MAX - 1
            } else if killers.is_some_and(|k| k[1].as_ref() == Some(mv)) {
                i32::MAX - 2
            } else {
                game.promise(mv).min(i32::MAX - 3)
            }
        }));
        // Insertion sort, highest first, stable: the lists are short and mostly in order.
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && order[j - 1] < order[j] {
                order.swap(j - 1, j);
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    fn remember_killer(&mut self, mv: &M, ply: usize) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let slot = &mut self.killers[ply];
        if slot[0].as_ref() != Some(mv) {
            slot[1] = slot[0].take();
            slot[0] = Some(mv.clone());
        }
    }

    fn value<G: Evaluate<Move = M>>(
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
        let key = game.key();
        let mut first = None;
        if let Some(entry) = self.table.get(key) {
            let v = from_table(entry.value, ply);
            if entry.depth >= depth
                && match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                }
            {
                return v;
            }
            first = entry.best.clone();
        }
        let (alpha0, beta0) = (alpha, beta);
        let at = ply as usize;
        if self.lists.len() <= at {
            self.lists.resize_with(at + 1, Default::default);
        }
        let (mut moves, mut order) = std::mem::take(&mut self.lists[at]);
        moves.clear();
        game.legal_moves(&mut moves);
        self.order(game, &mut moves, &mut order, first.as_ref(), at);
        let maximise = mover == self.root;
        let mut best = if maximise { i32::MIN } else { i32::MAX };
        let mut best_move = None;
        for (index, mv) in moves.iter().enumerate() {
            let mut next = game.clone();
            next.play_unchecked(mv);
            let v = if index == 0 {
                self.value(&next, depth - 1, alpha, beta, ply + 1)
            } else if maximise {
                let v = self.value(&next, depth - 1, alpha, alpha + 1, ply + 1);
                if v > alpha && v < beta && !self.stopped {
                    self.value(&next, depth - 1, alpha, beta, ply + 1)
                } else {
                    v
                }
            } else {
                let v = self.value(&next, depth - 1, beta - 1, beta, ply + 1);
                if v < beta && v > alpha && !self.stopped {
                    self.value(&next, depth - 1, alpha, beta, ply + 1)
                } else {
                    v
                }
            };
            if self.stopped {
                break;
            }
            if maximise && v > best || !maximise && v < best {
                best = v;
                best_move = Some(mv.clone());
            }
            if maximise {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                self.remember_killer(mv, at);
                break;
            }
        }
        self.lists[at] = (moves, order);
        if !self.stopped {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta0 {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table.put(Entry {
                key,
                depth,
                value: to_table(best, ply),
                bound,
                best: best_move,
            });
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
    // A slot per position the search may visit (at most its budget, and no more than two a
    // microsecond of its time), up to 2^17 (a few MB): more would cost more to clear than it
    // saves, and clearing must not eat a short move's time.
    let micros = budget
        .deadline
        .saturating_duration_since(Instant::now())
        .as_micros();
    let reachable = u64::try_from(micros).unwrap_or(u64::MAX).saturating_mul(2);
    let bits = (budget.max_nodes.min(reachable))
        .clamp(1 << 10, 1 << 17)
        .next_power_of_two();
    let mut searcher = Searcher {
        root,
        deadline: budget.deadline,
        nodes: 0,
        max_nodes: budget.max_nodes,
        stopped: false,
        table: Table::new(bits.trailing_zeros()),
        killers: Vec::new(),
        lists: Vec::new(),
    };
    for depth in 1..=budget.max_depth {
        let mut alpha = -WIN - 1;
        let mut best_index = None;
        for (index, mv) in moves.iter().enumerate() {
            let mut next = game.clone();
            next.play_unchecked(mv);
            let v = if index == 0 {
                searcher.value(&next, depth - 1, alpha, WIN + 1, 1)
            } else {
                let v = searcher.value(&next, depth - 1, alpha, alpha + 1, 1);
                if v > alpha && !searcher.stopped {
                    searcher.value(&next, depth - 1, v - 1, WIN + 1, 1)
                } else {
                    v
                }
            };
            if searcher.stopped {
                break;
            }
            if v > alpha {
                alpha = v;
                best_index = Some(index);
            }
        }
        found.nodes = searcher.nodes;
        // A move proved better than the last iteration's best counts even when the iteration
        // did not finish; the rest of an unfinished iteration does not.
        if let Some(index) = best_index {
            // Search the best move first next time: it makes the cut-offs come early.
            let best = moves.remove(index);
            moves.insert(0, best);
            found.best = moves[0].clone();
            if !searcher.stopped {
                found.depth = depth;
                found.score = Some(alpha);
            }
        }
        if searcher.stopped || alpha.abs() > WIN_ZONE {
            break;
        }
    }
    Some(found)
}
