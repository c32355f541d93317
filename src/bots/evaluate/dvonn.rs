//! DVONN's evaluation: stacks, life, moves and threats; placements by life, edge and contact.
//!
//! The score at the end is the pieces under one's stacks, but until the end the pieces a seat
//! holds say little: a tall stack is taken in one move, and a stack cut off from the DVONN pieces
//! leaves the board. What decides games is what a seat can still do, so during stack moves a seat
//! is worth (the weights below, against the opponent's):
//! - its *stacks*, whatever their height: each is a move left and a target the opponent must deal
//!   with (pieces are not counted at all: weighing them, even little, lost more games);
//! - their *life*: a stack holding a DVONN piece cannot be cut off, one next to it hardly; the
//!   further from every DVONN piece, the likelier a stack dies with the region around it;
//! - its *moves*: a stack that can move can still take, and one that cannot only waits;
//! - its *threats*: a move onto an enemy stack takes it; onto a DVONN stack takes its life.
//!
//! During placement nothing has moved, so the evaluation looks ahead to the first stack moves: a
//! piece near the DVONN pieces lives longest, and near all three is central; a piece at the edge
//! can move at once (an inner piece waits for a neighbour to leave); a piece beside enemy pieces
//! threatens them, and one walled in by its own colour has nothing to take.
//!
//! The weights were chosen by play against PrimaDvonna (CodeCup 2011) at 2 s a game, 40 to 80
//! games a setting: not counting pieces took the score from 1 in 40 to 11, the edge and central
//! placement terms from there to half the points.

use crate::rules::dvonn::{Bits, Cell, Dvonn, Move};
use crate::rules::game::{Actor, Game, Seat};

/// Stack moves: a stack controlled.
const STACK: i32 = 100;
/// Stack moves: each step of life (3 on a DVONN stack, 2 next to one, 1 two cells away).
const LIFE: i32 = 30;
/// Stack moves: each move a seat has.
const MOVE: i32 = 25;
/// Stack moves: each move onto an enemy stack.
const THREAT: i32 = 20;
/// Stack moves: each move onto a DVONN stack.
const ONTO_DVONN: i32 = 20;
/// Placement: each step of life, as above.
const PLACED_LIFE: i32 = 10;
/// Placement: a piece at the edge of the board.
const PLACED_EDGE: i32 = 16;
/// Placement: each enemy piece beside a piece, up to three.
const PLACED_CONTACT: i32 = 4;
/// Placement: each own piece beside a piece beyond three.
const PLACED_CROWD: i32 = 6;
/// Placement: each step from a piece to each DVONN piece.
const PLACED_DISTANCE: i32 = 3;

/// How safe a stack at `distance` from the nearest DVONN piece is from being cut off.
fn life(distance: u8) -> i32 {
    match distance {
        0 => 3,
        1 => 2,
        2 => 1,
        _ => 0,
    }
}

/// Where the DVONN pieces are.
struct DvonnCells {
    cells: [Option<Cell>; 3],
}

impl DvonnCells {
    fn of(game: &Dvonn) -> DvonnCells {
        let mut cells = [None; 3];
        let holding = Cell::all().filter(|&c| game.stack(c).is_some_and(|s| s.holds_dvonn));
        for (slot, cell) in cells.iter_mut().zip(holding) {
            *slot = Some(cell);
        }
        DvonnCells { cells }
    }

    fn distances(&self, cell: Cell) -> impl Iterator<Item = u8> + '_ {
        self.cells.iter().flatten().map(move |&d| cell.distance(d))
    }

    fn nearest(&self, cell: Cell) -> u8 {
        self.distances(cell).min().unwrap_or(u8::MAX)
    }
}

/// The position's worth to `seat` during stack moves (see the module's comment). Bit sets, not
/// cell by cell: it runs at every leaf of the search.
pub fn stacking(game: &Dvonn, seat: Seat) -> i32 {
    let bits = game.bits();
    // Life 3 on a DVONN stack, 2 next to one, 1 two cells away: one count per ring reached.
    let ring0 = bits.dvonn & bits.occupied;
    let near1 = ring0 | Bits::around(ring0);
    let near2 = near1 | Bits::around(near1);
    let mut worth = [0i32; 2];
    for (owner, worth) in worth.iter_mut().enumerate() {
        let tops = bits.tops[owner];
        let life = [ring0, near1, near2].map(|ring| (tops & ring).count_ones() as i32);
        *worth += STACK * tops.count_ones() as i32 + LIFE * life.iter().sum::<i32>();
        let enemy = bits.tops[1 - owner];
        game.each_stack_move(owner, |_, to| {
            *worth += MOVE;
            if enemy & to.bit() != 0 {
                *worth += THREAT;
            }
            if bits.dvonn & to.bit() != 0 {
                *worth += ONTO_DVONN;
            }
        });
    }
    worth[seat] - worth[1 - seat]
}

/// The position's worth to `seat` while pieces are placed (see the module's comment).
pub fn placing(game: &Dvonn, seat: Seat) -> i32 {
    let dvonns = DvonnCells::of(game);
    let mut worth = [0i32; 2];
    for cell in Cell::all() {
        let Some(owner) = game.stack(cell).and_then(|s| s.top) else {
            continue;
        };
        let (mut around, mut own, mut enemy) = (0, 0, 0);
        for next in cell.neighbours() {
            around += 1;
            match game.stack(next).map(|s| s.top) {
                Some(Some(top)) if top == owner => own += 1,
                Some(Some(_)) => enemy += 1,
                _ => {}
            }
        }
        let mut value = PLACED_LIFE * life(dvonns.nearest(cell));
        if around < 6 {
            value += PLACED_EDGE;
        }
        value += PLACED_CONTACT * enemy.min(3);
        value -= PLACED_CROWD * (own - 3).max(0);
        value -= PLACED_DISTANCE * dvonns.distances(cell).map(i32::from).sum::<i32>();
        worth[owner] += value;
    }
    worth[seat] - worth[1 - seat]
}

/// How promising a move looks: taking an enemy stack first (the taller the better), then onto a
/// DVONN stack; placements near the DVONN pieces.
pub fn promise(game: &Dvonn, mv: &Move) -> i32 {
    match *mv {
        Move::Step { to, .. } => {
            let Some(target) = game.stack(to) else {
                return 0;
            };
            let mover = match game.to_move() {
                Some(Actor::Seat(seat)) => Some(seat),
                _ => None,
            };
            let mut promise = 0;
            if target.top.is_some() && target.top != mover {
                promise += 100 + i32::from(target.height);
            }
            if target.holds_dvonn {
                promise += 50;
            }
            promise
        }
        // Nearer a DVONN piece first: 1 or 2 cells away, then the rest.
        Move::Place(cell) => {
            let bits = game.bits();
            let near1 = Bits::around(bits.dvonn);
            let near2 = near1 | Bits::around(near1);
            i32::from(near1 & cell.bit() != 0) + i32::from(near2 & cell.bit() != 0)
        }
        Move::Pass => 0,
    }
}
