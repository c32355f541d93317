//! Double Dutch's tensor: 3 x seats + 1 planes of the board's 7 rows by 7 columns (row 1 first,
//! column a first).
//!
//! Planes, seats counted from the viewer: first a plane per seat of its pieces (flat or
//! flipped); then the flipped pieces; then a whole plane per seat of its supply out of the
//! supply it started with; then a whole plane per seat, the one of the seat to move set.

use crate::features::{Features, Planes, counted_from, fraction, mover_from};
use crate::rules::double_dutch::{Cell, DoubleDutch};
use crate::rules::game::{Game, Seat};

impl Features for DoubleDutch {
    fn shape(&self) -> Vec<usize> {
        vec![3 * self.seats() + 1, 7, 7]
    }

    fn features(&self, viewer: Seat, out: &mut Vec<f32>) {
        let shape = self.shape();
        let seats = self.seats();
        let mut planes = Planes::new(out, &shape);
        for cell in Cell::all() {
            let (row, column) = (usize::from(cell.row()), usize::from(cell.column()));
            let Some(piece) = self.piece(cell) else {
                continue;
            };
            planes.set(counted_from(viewer, piece.seat, seats), row, column, 1.0);
            if piece.flipped {
                planes.set(seats, row, column, 1.0);
            }
        }
        for seat in 0..seats {
            let (left, start) = self.supply(seat);
            let plane = seats + 1 + counted_from(viewer, seat, seats);
            planes.fill(plane, fraction(left, start));
        }
        planes.mover(2 * seats + 1, mover_from(self, viewer));
    }
}
