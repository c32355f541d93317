//! The rules: the `Game` trait, one file per game (pure state machines with their data tables at
//! the top, no I/O, clock or threads), `AnyGame` over them, the seeded random draws, and the rules
//! in words.

mod any;
pub mod docs;
pub mod double;
pub mod double_dutch;
pub mod dvonn;
pub mod game;
pub mod pegs;
pub mod seeded;
pub mod wyx;

pub use any::{AnyGame, AnyMove, GAMES, perft, perft_within};
pub(crate) use any::{dispatch, dispatch_move};
pub use game::Game;
