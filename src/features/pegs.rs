//! Pegs' tensor: 6 planes of the 7 by 7 grid the cross stands on, turned so that the viewer's
//! pegs move up the rows (North sees the board upside down, row 7 first; the cross and the rules
//! are the same either way up).
//!
//! Planes: 0 the cross's holes; 1 the viewer's pegs; 2 the other seat's; 3 and 4 (whole plane)
//! the seat to move, counted from the viewer; 5 (whole plane) the plies in a row without progress
//! out of the number that draws.

use crate::features::{Features, Planes, counted_from, fraction, mover_from};
use crate::rules::game::Seat;
use crate::rules::pegs::{Cell, Pegs};

/// The grid's rows and columns.
const SIZE: i8 = 7;

impl Features for Pegs {
    fn shape(&self) -> Vec<usize> {
        vec![6, 7, 7]
    }

    fn features(&self, viewer: Seat, out: &mut Vec<f32>) {
        let shape = self.shape();
        let mut planes = Planes::new(out, &shape);
        let north = viewer % 2 == 1;
        for cell in Cell::all() {
            let row = if north {
                SIZE - 1 - cell.row()
            } else {
                cell.row()
            };
            let (row, column) = (row.max(0) as usize, cell.column().max(0) as usize);
            planes.set(0, row, column, 1.0);
            if let Some(seat) = self.peg(cell) {
                planes.set(1 + counted_from(viewer, seat, 2), row, column, 1.0);
            }
        }
        planes.mover(3, mover_from(self, viewer));
        let (quiet, limit) = self.quiet_plies();
        planes.fill(5, fraction(quiet, limit));
    }
}
