//! Double Dutch's picture: hexes in offset rows; flat pieces as discs, flipped ones as diamonds.

use super::Picture;
use crate::render::svg::{Svg, hexagon};
use crate::rules::Game;
use crate::rules::double_dutch::{Cell, DoubleDutch, Move};
use crate::rules::game::Viewer;

/// Fill colours of the seats' pieces.
const SEAT_FILLS: [&str; 3] = ["#f2e6c9", "#3b2a1a", "#c33"];

impl Picture for DoubleDutch {
    fn size(&self, _viewer: Viewer) -> (f64, f64) {
        // Wide enough for the supply line under the board.
        (7.0 * 44.0 + 260.0, 7.0 * 38.0 + 110.0)
    }

    fn draw(&self, _viewer: Viewer, svg: &mut Svg) {
        for cell in Cell::all() {
            let (c, r) = (cell.column(), cell.row());
            let shift = if r % 2 == 1 { 22.0 } else { 0.0 };
            let x = 45.0 + f64::from(c) * 44.0 + shift;
            let y = 40.0 + f64::from(6 - r) * 38.0;
            let piece = self.piece(cell);
            // An empty cell shows its name; a piece hides it.
            let named = piece.is_none().then_some(cell);
            let key = format_args!("{piece:?} {named:?}");
            svg.part(key, x, y, Some(&cell), |svg| {
                svg.polygon(&hexagon(0.0, 0.0, 25.0), "#f8f8f0", "#bbb", "cell");
                match piece {
                    None => svg.text(0.0, 0.0, 9.0, "#bbb", &cell.to_string()),
                    Some(piece) if piece.flipped => {
                        let class = format!("piece flipped seat{}", piece.seat);
                        let diamond = [(0.0, -15.0), (15.0, 0.0), (0.0, 15.0), (-15.0, 0.0)];
                        svg.polygon(&diamond, SEAT_FILLS[piece.seat], "#111", &class);
                    }
                    Some(piece) => {
                        let class = format!("piece flat seat{}", piece.seat);
                        svg.circle(0.0, 0.0, 14.0, SEAT_FILLS[piece.seat], "#111", &class);
                    }
                }
            });
        }
        svg.caption(7.0 * 38.0 + 55.0, &self.render(Viewer::Everyone));
    }

    fn marks(&self, mv: &Move) -> Vec<String> {
        match *mv {
            Move::Place(cell) => vec![cell.to_string()],
            Move::Slide { from, to } => vec![from.to_string(), to.to_string()],
            Move::Pass => Vec::new(),
        }
    }

    fn legend(&self) -> &'static str {
        "Discs are flat pieces, which may still slide; diamonds are flipped pieces, which never \
         move again. Light: seat 0, dark: seat 1, red: seat 2."
    }
}
