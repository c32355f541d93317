//! Observation tensors: a position as numbers from 0 to 1, as one seat may see it, for learning
//! agents (OpenSpiel's observation tensors, PettingZoo's observations). One file per game.
//!
//! Seats are counted from the viewer: where a tensor has a plane or an entry per seat, the first
//! is the viewer's, the next the seat after it, and so on round the table. A tensor depends only
//! on what the viewer may see, so a policy can read it in any seat.

mod double;
mod double_dutch;
mod dvonn;
mod pegs;
mod wyx;

use crate::rules::game::{Actor, Game, Seat};
use crate::rules::{AnyGame, dispatch};

/// A game whose positions can be shown to a learning agent as a tensor.
pub trait Features: Game {
    /// The tensor's shape, the same at every position of a game as set up: planes, rows and
    /// columns for the board games, one length for DOUBLE.
    fn shape(&self) -> Vec<usize>;

    /// Writes the position as `viewer` may see it into `out` (replacing what it held), in the
    /// order of `shape()` with the last index fastest. `viewer` is a seat of the game (another
    /// number is taken modulo the seats).
    fn features(&self, viewer: Seat, out: &mut Vec<f32>);
}

impl Features for AnyGame {
    fn shape(&self) -> Vec<usize> {
        dispatch!(self, g => g.shape())
    }

    fn features(&self, viewer: Seat, out: &mut Vec<f32>) {
        dispatch!(self, g => g.features(viewer, out));
    }
}

/// Where `seat` comes counted from `viewer` round a table of `seats`: 0 for the viewer.
fn counted_from(viewer: Seat, seat: Seat, seats: usize) -> usize {
    let seats = seats.max(1);
    (seat % seats + seats - viewer % seats) % seats
}

/// The seat to move counted from `viewer`, if a seat is to move (not chance, not the end).
fn mover_from(game: &impl Game, viewer: Seat) -> Option<usize> {
    match game.to_move() {
        Some(Actor::Seat(seat)) => Some(counted_from(viewer, seat, game.seats())),
        _ => None,
    }
}

/// A tensor of planes being written: `rows` by `columns` values a plane, all 0 at first.
struct Planes<'a> {
    out: &'a mut Vec<f32>,
    rows: usize,
    columns: usize,
}

impl<'a> Planes<'a> {
    fn new(out: &'a mut Vec<f32>, shape: &[usize]) -> Planes<'a> {
        let (rows, columns) = match shape {
            [_, rows, columns] => (*rows, *columns),
            _ => (1, shape.iter().product()),
        };
        out.clear();
        out.resize(shape.iter().product(), 0.0);
        Planes { out, rows, columns }
    }

    /// Sets one value; a place outside the tensor is left alone (the games' cells are all
    /// inside their planes).
    fn set(&mut self, plane: usize, row: usize, column: usize, value: f32) {
        if row < self.rows && column < self.columns {
            let at = (plane * self.rows + row) * self.columns + column;
            if let Some(slot) = self.out.get_mut(at) {
                *slot = value;
            }
        }
    }

    /// Sets every value of a plane: a number that holds for the whole position.
    fn fill(&mut self, plane: usize, value: f32) {
        let size = self.rows * self.columns;
        if let Some(slots) = self.out.get_mut(plane * size..(plane + 1) * size) {
            slots.fill(value);
        }
    }

    /// Fills plane `first + k` when seat `k`, counted from the viewer, is to move.
    fn mover(&mut self, first: usize, mover: Option<usize>) {
        if let Some(k) = mover {
            self.fill(first + k, 1.0);
        }
    }
}

/// `count` out of `most`, as a number from 0 to 1.
fn fraction(count: impl Into<f64>, most: impl Into<f64>) -> f32 {
    let (count, most) = (count.into(), most.into());
    if most <= 0.0 {
        return 0.0;
    }
    (count / most).clamp(0.0, 1.0) as f32
}

#[cfg(test)]
mod tests;
