//! DVONN's picture: stacks as discs with their height, a red ring around a DVONN piece inside.

use super::Picture;
use crate::render::svg::Svg;
use crate::rules::Game;
use crate::rules::dvonn::{Cell, Dvonn, Move};
use crate::rules::game::Viewer;

const STEP: f64 = 48.0;
const ROW: f64 = 42.0;

impl Picture for Dvonn {
    fn size(&self, _viewer: Viewer) -> (f64, f64) {
        (10.0 * STEP + 80.0, 4.0 * ROW + 120.0)
    }

    fn draw(&self, _viewer: Viewer, svg: &mut Svg) {
        for cell in Cell::all() {
            let x = 40.0 + (f64::from(cell.x()) - f64::from(cell.y()) / 2.0 + 1.0) * STEP;
            let y = 40.0 + f64::from(4 - cell.y()) * ROW;
            let Some(stack) = self.stack(cell) else {
                svg.part(format_args!("{cell}"), x, y, Some(&cell), |svg| {
                    svg.circle(0.0, 0.0, 4.0, "#ccc", "none", "cell");
                    svg.text(0.0, 13.0, 9.0, "#aaa", &cell.to_string());
                });
                continue;
            };
            let (class, fill, ink) = match stack.top {
                Some(0) => ("stack white", "#f4f4f4", "#111"),
                Some(_) => ("stack black", "#222", "#eee"),
                None => ("stack dvonn", "#d22", "#fff"),
            };
            let ringed = stack.holds_dvonn && stack.top.is_some();
            let key = format_args!("{class} {} {ringed}", stack.height);
            svg.part(key, x, y, Some(&cell), |svg| {
                svg.circle(0.0, 0.0, 19.0, fill, "#111", class);
                if ringed {
                    svg.circle(0.0, 0.0, 22.0, "none", "#d22", "dvonn-mark");
                }
                svg.text(0.0, 0.0, 15.0, ink, &stack.height.to_string());
            });
        }
        svg.caption(4.0 * ROW + 85.0, &self.render(Viewer::Everyone));
    }

    fn marks(&self, mv: &Move) -> Vec<String> {
        match *mv {
            Move::Place(cell) => vec![cell.to_string()],
            Move::Step { from, to } => vec![from.to_string(), to.to_string()],
            Move::Pass => Vec::new(),
        }
    }

    fn legend(&self) -> &'static str {
        "A disc is a stack with its height; its colour is its top piece's (red: a DVONN piece on \
         top). A red ring: a DVONN piece inside. Grey dots are empty cells."
    }
}
