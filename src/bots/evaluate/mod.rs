//! Each game's evaluation for the search, a file a game: what a position is worth to a seat, and
//! which moves to try first. Each file's comment says the ideas behind its game's evaluation.

use crate::rules::dvonn::Dvonn;
use crate::rules::game::{Game, Seat};
use crate::rules::{AnyGame, AnyMove};

use super::search::{Evaluate, key_of};

mod double_dutch;
mod dvonn;
mod pegs;
mod wyx;

impl Evaluate for Dvonn {
    /// See `evaluate/dvonn.rs`: stack moves and placements judged apart.
    fn evaluate(&self, seat: Seat) -> i32 {
        if self.placing() {
            dvonn::placing(self, seat)
        } else {
            dvonn::stacking(self, seat)
        }
    }

    fn key(&self) -> u64 {
        key_of(self)
    }

    fn promise(&self, mv: &Self::Move) -> i32 {
        dvonn::promise(self, mv)
    }
}

impl Evaluate for AnyGame {
    fn evaluate(&self, seat: Seat) -> i32 {
        match self {
            AnyGame::Dvonn(game) => game.evaluate(seat),
            AnyGame::DoubleDutch(game) => game.evaluate(seat),
            AnyGame::Pegs(game) => game.evaluate(seat),
            AnyGame::Wyx(game) => game.evaluate(seat),
            // Hidden hands: alpha-beta must not see them; DOUBLE's tree search deals them anew.
            AnyGame::Double(game) => -game.scores()[seat] as i32,
        }
    }

    fn key(&self) -> u64 {
        match self {
            AnyGame::Dvonn(game) => game.key(),
            AnyGame::DoubleDutch(game) => game.key(),
            AnyGame::Pegs(game) => game.key(),
            AnyGame::Wyx(game) => game.key(),
            // Never searched (see above); every position the same key would only waste the table.
            AnyGame::Double(game) => game.ply() as u64,
        }
    }

    fn promise(&self, mv: &AnyMove) -> i32 {
        match (self, mv) {
            (AnyGame::Dvonn(game), AnyMove::Dvonn(mv)) => game.promise(mv),
            (AnyGame::DoubleDutch(game), AnyMove::DoubleDutch(mv)) => game.promise(mv),
            (AnyGame::Pegs(game), AnyMove::Pegs(mv)) => game.promise(mv),
            (AnyGame::Wyx(game), AnyMove::Wyx(mv)) => game.promise(mv),
            _ => 0,
        }
    }
}
