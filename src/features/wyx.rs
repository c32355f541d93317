//! Wyx's tensor: 13 planes of the board's 8 ranks by 8 files (rank 1 first, file a first), the
//! rack drawn on the same grid. Colours are counted from the viewer: "the viewer's" is the
//! colour the viewer plays this round (Double Wyx swaps colours in its second round).
//!
//! Planes: 0 the viewer's pawns on each square out of 3 (the most a square takes); 1 the other
//! colour's; 2 the viewer's knight; 3 the other knight; 4 the pawns each square gives out of 3
//! (its strength); 5, 6 and 7 the rack, column c of the rack in column c and its dominoes from the
//! foot up the rows: a domino there, its jump right out of -4..4 as 0..1, its jump up likewise;
//! 8 and 9 (whole plane) the viewer's supply and the other's, out of 32; 10 and 11 (whole plane)
//! the seat to move, counted from the viewer; 12 (whole plane) Double Wyx's second round.

use crate::features::{Features, Planes, counted_from, fraction, mover_from};
use crate::rules::game::Seat;
use crate::rules::wyx::{COLUMNS, Square, Wyx, pawns_for};

/// The most pawns a square takes (a strong corner's 3).
const MOST_ON_A_SQUARE: u8 = 3;
/// The longest jump of a domino either way.
const LONGEST: i8 = 4;

impl Features for Wyx {
    fn shape(&self) -> Vec<usize> {
        vec![13, 8, 8]
    }

    fn features(&self, viewer: Seat, out: &mut Vec<f32>) {
        let shape = self.shape();
        let mut planes = Planes::new(out, &shape);
        let mine = self.colour_of(viewer);
        // The plane of a colour, 0 for the viewer's and 1 for the other.
        let side = |colour: usize| counted_from(mine, colour, 2);
        for square in Square::all() {
            let (row, column) = (square.rank().max(0) as usize, square.file().max(0) as usize);
            if let Some((colour, count)) = self.pawns(square) {
                let value = fraction(count, MOST_ON_A_SQUARE);
                planes.set(side(colour), row, column, value);
            }
            planes.set(
                4,
                row,
                column,
                fraction(pawns_for(square), MOST_ON_A_SQUARE),
            );
        }
        for colour in 0..2 {
            let knight = self.knight(colour);
            let (row, column) = (knight.rank().max(0) as usize, knight.file().max(0) as usize);
            planes.set(2 + side(colour), row, column, 1.0);
            let (left, start) = self.supply(colour);
            planes.fill(8 + side(colour), fraction(left, start));
        }
        let jump = |n: i8| fraction(n + LONGEST, 2 * LONGEST);
        for column in 0..COLUMNS {
            for (depth, domino) in self.rack_column(column).iter().enumerate() {
                let (right, up) = domino.jump();
                planes.set(5, depth, column, 1.0);
                planes.set(6, depth, column, jump(right));
                planes.set(7, depth, column, jump(up));
            }
        }
        planes.mover(10, mover_from(self, viewer));
        if self.second_round() {
            planes.fill(12, 1.0);
        }
    }
}
