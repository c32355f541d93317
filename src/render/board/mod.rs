//! The pictures of the games, one file per game, drawn from each game's read-only accessors: an
//! SVG of a position as a viewer may see it, what a move touches, and what the symbols mean.

mod double;
mod double_dutch;
mod dvonn;
mod pegs;
mod wyx;

use crate::rules::game::{Game, Viewer};
use crate::rules::{AnyGame, AnyMove, dispatch, dispatch_move};

/// A game that can be drawn.
pub trait Picture: Game {
    /// An SVG picture of the position as `viewer` may see it.
    fn svg(&self, viewer: Viewer) -> String;

    /// What `mv`, about to be played here, touches, as the picture names its cells or cards
    /// (`data-mark` in the SVG): a viewer marks them on the picture after the move.
    fn marks(&self, mv: &Self::Move) -> Vec<String>;

    /// What the symbols of the picture mean, in a line or two.
    fn legend(&self) -> &'static str;
}

impl Picture for AnyGame {
    fn svg(&self, viewer: Viewer) -> String {
        dispatch!(self, g => g.svg(viewer))
    }

    fn marks(&self, mv: &AnyMove) -> Vec<String> {
        dispatch_move!(self, mv, (g, m) => g.marks(m), Vec::new())
    }

    fn legend(&self) -> &'static str {
        dispatch!(self, g => g.legend())
    }
}
