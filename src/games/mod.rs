//! The games, and `AnyGame`: one enum that dispatches over them.

pub mod dvonn;

use std::fmt;

use crate::game::{Actor, Game, IllegalMove, Outcome, ParseMoveError, Setup, SetupError, Viewer};

/// Game ids the rules describe but this version does not implement yet.
const PLANNED: [&str; 4] = ["double-dutch", "pegs", "wyx", "double"];

/// Any game, chosen at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyGame {
    /// DVONN.
    Dvonn(dvonn::Dvonn),
}

/// A move of any game; it belongs to the game that parsed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyMove {
    /// A DVONN move.
    Dvonn(dvonn::Move),
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Dvonn(mv) => mv.fmt(f),
        }
    }
}

impl AnyGame {
    /// Sets up game `id` (as typed after `newgame`).
    pub fn create(id: &str, setup: &Setup) -> Result<AnyGame, SetupError> {
        match id.to_ascii_lowercase().as_str() {
            "dvonn" => Ok(AnyGame::Dvonn(dvonn::Dvonn::new(setup)?)),
            planned if PLANNED.contains(&planned) => {
                Err(SetupError::NotImplemented(planned.to_owned()))
            }
            _ => Err(SetupError::UnknownGame(id.to_owned())),
        }
    }
}

/// Calls the same method on whichever game is inside.
macro_rules! dispatch {
    ($self:expr, $game:ident => $body:expr) => {
        match $self {
            AnyGame::Dvonn($game) => $body,
        }
    };
}

impl Game for AnyGame {
    type Move = AnyMove;

    /// DVONN; use [`AnyGame::create`] to choose the game.
    fn new(setup: &Setup) -> Result<Self, SetupError> {
        AnyGame::create("dvonn", setup)
    }

    fn id(&self) -> &'static str {
        dispatch!(self, g => g.id())
    }

    fn variant(&self) -> Option<&'static str> {
        dispatch!(self, g => g.variant())
    }

    fn seats(&self) -> usize {
        dispatch!(self, g => g.seats())
    }

    fn ply(&self) -> usize {
        dispatch!(self, g => g.ply())
    }

    fn to_move(&self) -> Option<Actor> {
        dispatch!(self, g => g.to_move())
    }

    fn parse_move(&self, text: &str) -> Result<AnyMove, ParseMoveError> {
        match self {
            AnyGame::Dvonn(g) => g.parse_move(text).map(AnyMove::Dvonn),
        }
    }

    fn legal_moves(&self, out: &mut Vec<AnyMove>) {
        match self {
            AnyGame::Dvonn(g) => {
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                out.extend(moves.into_iter().map(AnyMove::Dvonn));
            }
        }
    }

    fn count_legal(&self) -> usize {
        dispatch!(self, g => g.count_legal())
    }

    fn check(&self, mv: &AnyMove) -> Result<(), IllegalMove> {
        match (self, mv) {
            (AnyGame::Dvonn(g), AnyMove::Dvonn(mv)) => g.check(mv),
        }
    }

    fn play_unchecked(&mut self, mv: &AnyMove) {
        match (self, mv) {
            (AnyGame::Dvonn(g), AnyMove::Dvonn(mv)) => g.play_unchecked(mv),
        }
    }

    fn scores(&self) -> Vec<i64> {
        dispatch!(self, g => g.scores())
    }

    fn outcome(&self) -> Outcome {
        dispatch!(self, g => g.outcome())
    }

    fn render(&self, viewer: Viewer) -> String {
        dispatch!(self, g => g.render(viewer))
    }
}

/// Runs `perft` on the concrete game inside, so the hot loop is not dispatched per node.
pub fn perft(game: &AnyGame, depth: u32) -> u64 {
    dispatch!(game, g => crate::game::perft(g, depth))
}
