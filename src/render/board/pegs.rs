//! Pegs' picture: the cross of holes, corner spaces in yellow, South red and North black.

use super::Picture;
use crate::render::svg::Svg;
use crate::rules::Game;
use crate::rules::game::Viewer;
use crate::rules::pegs::{Cell, Move, Pegs};

impl Picture for Pegs {
    fn size(&self, _viewer: Viewer) -> (f64, f64) {
        (7.0 * 44.0 + 60.0, 7.0 * 44.0 + 100.0)
    }

    fn draw(&self, _viewer: Viewer, svg: &mut Svg) {
        for cell in Cell::all() {
            let x = 30.0 + f64::from(cell.column()) * 44.0 + 22.0;
            let y = 30.0 + f64::from(6 - cell.row()) * 44.0 + 22.0;
            let (fill, class) = match cell.is_corner_space() {
                true => ("#f5d76e", "corner"),
                false => ("#f4f1ea", "hole"),
            };
            let peg = self.peg(cell);
            // An empty hole shows its name; a peg hides it.
            let named = peg.is_none().then_some(cell);
            let key = format_args!("{class} {peg:?} {named:?}");
            svg.part(key, x, y, Some(&cell), |svg| {
                svg.rect(-21.0, -21.0, 42.0, 42.0, fill, "#ccc", class);
                match peg {
                    Some(0) => svg.circle(0.0, 0.0, 14.0, "#c22", "#111", "peg south"),
                    Some(_) => svg.circle(0.0, 0.0, 14.0, "#222", "#111", "peg north"),
                    None => {
                        svg.circle(0.0, 0.0, 5.0, "#999", "none", "empty");
                        svg.text(0.0, 13.0, 9.0, "#aaa", &cell.to_string());
                    }
                }
            });
        }
        svg.caption(7.0 * 44.0 + 55.0, &self.render(Viewer::Everyone));
    }

    fn marks(&self, mv: &Move) -> Vec<String> {
        vec![mv.from().to_string(), mv.to().to_string()]
    }

    fn legend(&self) -> &'static str {
        "Red pegs: South (seat 0), moving up to row 7. Black pegs: North (seat 1), moving down to \
         row 1. Yellow holes: the four corner spaces."
    }
}
