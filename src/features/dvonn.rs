//! DVONN's tensor: 9 planes of the board's 5 rows by 11 columns (row 1 first, column A first;
//! the cells off the hexagonal board are 0 in every plane).
//!
//! Planes: 0 the board's cells; 1 stacks topped by the viewer's piece; 2 by the other seat's;
//! 3 a DVONN piece alone; 4 stacks holding a DVONN piece; 5 each stack's height out of 49 (every
//! piece in one stack); 6 (whole plane) the placing phase; 7 and 8 (whole plane) the seat to move,
//! counted from the viewer.

use crate::features::{Features, Planes, counted_from, fraction, mover_from};
use crate::rules::dvonn::{Cell, Dvonn};
use crate::rules::game::Seat;

/// The most pieces a stack can hold: all of them.
const PIECES: u8 = 49;

impl Features for Dvonn {
    fn shape(&self) -> Vec<usize> {
        vec![9, 5, 11]
    }

    fn features(&self, viewer: Seat, out: &mut Vec<f32>) {
        let shape = self.shape();
        let mut planes = Planes::new(out, &shape);
        for cell in Cell::all() {
            let (row, column) = (usize::from(cell.y()), usize::from(cell.x()));
            planes.set(0, row, column, 1.0);
            let Some(stack) = self.stack(cell) else {
                continue;
            };
            match stack.top {
                Some(seat) => planes.set(1 + counted_from(viewer, seat, 2), row, column, 1.0),
                None => planes.set(3, row, column, 1.0),
            }
            if stack.holds_dvonn {
                planes.set(4, row, column, 1.0);
            }
            planes.set(5, row, column, fraction(stack.height, PIECES));
        }
        if self.placing() {
            planes.fill(6, 1.0);
        }
        planes.mover(7, mover_from(self, viewer));
    }
}
