//! Wyx's picture: the board with strong squares, pawns and knights, and the rack beside it.

use super::Picture;
use crate::render::svg::Svg;
use crate::rules::Game;
use crate::rules::game::Viewer;
use crate::rules::wyx::{COLUMNS, Move, PER_COLUMN, Square, Wyx, is_strong, pawns_for};

const SQUARE: f64 = 44.0;

impl Picture for Wyx {
    fn size(&self, _viewer: Viewer) -> (f64, f64) {
        (8.0 * SQUARE + 470.0, 8.0 * SQUARE + 100.0)
    }

    fn draw(&self, _viewer: Viewer, svg: &mut Svg) {
        for square in Square::all() {
            draw_square(self, svg, square);
        }
        let rack_x = 8.0 * SQUARE + 60.0;
        svg.label(rack_x, 18.0, 13.0, "rack (next domino at the foot)");
        for column in 0..COLUMNS {
            let x = rack_x + column as f64 * 50.0;
            let number = (column + 1).to_string();
            svg.text(x + 20.0, 8.0 * SQUARE + 30.0, 12.0, "#555", &number);
            let left = self.rack_column(column);
            for (i, domino) in (PER_COLUMN - left.len()..).zip(left) {
                let y = 30.0 + (PER_COLUMN - 1 - i) as f64 * 44.0;
                svg.part(format_args!("{domino}"), x, y, None, |svg| {
                    svg.rect(0.0, 4.0, 42.0, 34.0, "#fffbe8", "#998", "domino");
                    svg.text(21.0, 21.0, 11.0, "#222", &domino.to_string());
                });
            }
        }
        svg.caption(8.0 * SQUARE + 60.0, &self.render(Viewer::Everyone));
    }

    fn marks(&self, mv: &Move) -> Vec<String> {
        match *mv {
            Move::Column(column) => (self.jump(column.into()))
                .map(|(from, to)| vec![from.to_string(), to.to_string()])
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    fn legend(&self) -> &'static str {
        "N: the knights (white moves first; in Double Wyx the seats swap colours in round 2). \
         Discs: pawns, with their number. Tan squares are strong (2 or 3 pawns). The rack's \
         dominoes are jumps: R2D3 is two files right, three ranks down."
    }
}

/// One square of `wyx`: its colour, a strong square's pawn count, the pawns and a knight on it.
fn draw_square(wyx: &Wyx, svg: &mut Svg, square: Square) {
    let x = 30.0 + f64::from(square.file()) * SQUARE;
    let y = 30.0 + f64::from(7 - square.rank()) * SQUARE;
    let strong = is_strong(square).then(|| pawns_for(square));
    let pawns = wyx.pawns(square);
    let knight = (0..2).find(|&c| wyx.knight(c) == square);
    let key = format_args!("{strong:?} {pawns:?} {knight:?}");
    svg.part(key, x, y, Some(&square), |svg| {
        let (fill, class) = match strong {
            Some(_) => ("#e8dcb0", "strong"),
            None => ("#f7f5ee", "square"),
        };
        svg.rect(0.0, 0.0, SQUARE, SQUARE, fill, "#ccc", class);
        if let Some(strong) = strong {
            svg.text(8.0, 9.0, 10.0, "#8a7a40", &strong.to_string());
        }
        let (cx, cy) = (SQUARE / 2.0, SQUARE / 2.0);
        if let Some((colour, count)) = pawns {
            let (class, fill, ink) = [
                ("pawns white", "#fff", "#111"),
                ("pawns black", "#222", "#fff"),
            ][colour];
            svg.circle(cx, cy + 6.0, 11.0, fill, "#111", class);
            svg.text(cx, cy + 6.0, 11.0, ink, &count.to_string());
        }
        if let Some(colour) = knight {
            let (class, fill, ink) = [
                ("knight white", "#fff", "#111"),
                ("knight black", "#222", "#fff"),
            ][colour];
            svg.rect(cx - 11.0, cy - 18.0, 22.0, 16.0, fill, "#111", class);
            svg.text(cx, cy - 10.0, 12.0, ink, "N");
        }
    });
}
