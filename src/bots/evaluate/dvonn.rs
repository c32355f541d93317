//! DVONN's evaluation: life, stacks, threats, and material that counts more as the game ends.
//!
//! The score at the end is the pieces under one's stacks, but for most of the game the pieces a
//! seat holds say little: a tall stack is captured in one move, and a stack cut off from the DVONN
//! pieces leaves the board. What decides games is what one can still do:
//! - *stacks* controlled: each is a move left and a target the opponent must deal with;
//! - *life*: a stack holding a DVONN piece cannot be cut off, and one next to it hardly; the
//!   further from every DVONN piece, the likelier a stack dies with the region around it;
//! - *moves*: a stack that can move can still capture, and one that cannot is only material;
//! - *threats*: a move onto an enemy stack takes it (and its height); onto a DVONN stack
//!   takes life as well;
//! - *material*, the pieces themselves, weighed more as stacks leave the board and the score
//!   comes near to being final.
//!
//! During placement nothing has moved, so the evaluation looks ahead to the first stack moves:
//! pieces near the DVONN pieces live longest; pieces at the edge can move at once (an inner piece
//! waits for a neighbour to leave); a piece beside enemy pieces threatens them, and one walled in
//! by its own colour has nothing to take.

use crate::rules::dvonn::{Cell, Dvonn, Move};
use crate::rules::game::{Actor, Game, Seat};

/// Cells on the board.
const CELLS: i32 = 49;

/// How safe a stack at `distance` from the nearest DVONN piece is from being cut off.
fn life(distance: u8) -> i32 {
    match distance {
        0 => 3,
        1 => 2,
        2 => 1,
        _ => 0,
    }
}

/// Where the DVONN pieces are, and how far a cell is from the nearest.
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

    fn nearest(&self, cell: Cell) -> u8 {
        (self.cells.iter().flatten())
            .map(|&d| cell.distance(d))
            .min()
            .unwrap_or(u8::MAX)
    }
}

/// The position's worth to `seat` during stack moves (see the module's comment).
pub fn stacking(game: &Dvonn, seat: Seat) -> i32 {
    let dvonns = DvonnCells::of(game);
    let stacks = Cell::all().filter(|&c| game.stack(c).is_some()).count();
    let weight = material_weight(stacks as i32);
    let mut worth = [0i32; 2];
    for cell in Cell::all() {
        if let Some(stack) = game.stack(cell)
            && let Some(owner) = stack.top
        {
            let pieces = i32::from(stack.height);
            worth[owner] += 40 + 15 * life(dvonns.nearest(cell)) + weight * pieces;
        }
    }
    for (owner, worth) in worth.iter_mut().enumerate() {
        game.each_stack_move(owner, |_, to| {
            *worth += 4;
            if let Some(target) = game.stack(to) {
                if target.top.is_some_and(|t| t != owner) {
                    *worth += 10 + 10 * i32::from(target.height);
                }
                if target.holds_dvonn {
                    *worth += 10;
                }
            }
        });
    }
    worth[seat] - worth[1 - seat]
}

/// Points a piece is worth when `stacks` stacks are left: 20 at the start of stack moves, near
/// 100 when few stacks remain.
fn material_weight(stacks: i32) -> i32 {
    20 + 80 * (CELLS - stacks.min(CELLS)) / CELLS
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
        let mut value = 10 * life(dvonns.nearest(cell));
        if around < 6 {
            value += 8;
        }
        value += 4 * enemy.min(3);
        value -= 6 * (own - 3).max(0);
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
        Move::Place(cell) => -i32::from(DvonnCells::of(game).nearest(cell).min(10)),
        Move::Pass => 0,
    }
}
