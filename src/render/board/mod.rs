//! The pictures of the games, one file per game, drawn from each game's read-only accessors: an
//! SVG of a position as a viewer may see it, what a move touches, and what the symbols mean.

mod double;
mod double_dutch;
mod dvonn;
mod pegs;
mod wyx;

use crate::render::svg::{Scene, Svg};
use crate::rules::game::{Game, Viewer};
use crate::rules::{AnyGame, AnyMove, dispatch, dispatch_move};

/// A game that can be drawn.
pub trait Picture: Game {
    /// The picture's width and height as `viewer` sees the position.
    fn size(&self, viewer: Viewer) -> (f64, f64);

    /// Draws the position as `viewer` may see it.
    fn draw(&self, viewer: Viewer, svg: &mut Svg);

    /// An SVG picture of the position as `viewer` may see it.
    fn svg(&self, viewer: Viewer) -> String {
        self.svg_named(viewer, &[])
    }

    /// The same picture, its seats named after `names`' engines where it names seats.
    fn svg_named(&self, viewer: Viewer, names: &[String]) -> String {
        let (width, height) = self.size(viewer);
        let mut svg = Svg::new(width, height).named(names);
        self.draw(viewer, &mut svg);
        svg.finish()
    }

    /// The same picture as `scene`'s items (after the pictures it already holds of this game),
    /// its seats named after `names`' engines where it names seats.
    fn scene(&self, viewer: Viewer, scene: Scene, names: &[String]) -> Scene {
        let (width, height) = self.size(viewer);
        let mut svg = Svg::in_scene(width, height, scene).named(names);
        self.draw(viewer, &mut svg);
        svg.finish_scene().unwrap_or_default()
    }

    /// What `mv`, about to be played here, touches, as the picture names its cells or cards
    /// (`data-mark` in the SVG): a viewer marks them on the picture after the move.
    fn marks(&self, mv: &Self::Move) -> Vec<String>;

    /// What the symbols of the picture mean, in a line or two.
    fn legend(&self) -> &'static str;
}

impl Picture for AnyGame {
    fn size(&self, viewer: Viewer) -> (f64, f64) {
        dispatch!(self, g => g.size(viewer))
    }

    fn draw(&self, viewer: Viewer, svg: &mut Svg) {
        dispatch!(self, g => g.draw(viewer, svg));
    }

    fn marks(&self, mv: &AnyMove) -> Vec<String> {
        dispatch_move!(self, mv, (g, m) => g.marks(m), Vec::new())
    }

    fn legend(&self) -> &'static str {
        dispatch!(self, g => g.legend())
    }
}
