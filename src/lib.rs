//! `referee`: rules, records, engine play, statistics, pictures, the protocol, the session and the
//! built-in bots of a scriptable referee for tabletop games.
//!
//! # The rules as a library
//!
//! Every game implements [`rules::Game`]: a pure state machine over plies, with no I/O, clock or
//! threads. [`rules::AnyGame`] picks a game by its id at run time; each game's own type
//! ([`rules::dvonn::Dvonn`], [`rules::pegs::Pegs`], ...) is there when you know which one you
//! play. `examples/bot.rs` is a complete engine built on this API.
//!
//! Play a game to its end, here always the first legal move:
//!
//! ```
//! use referee::rules::game::{Outcome, Setup};
//! use referee::rules::{AnyGame, Game};
//!
//! let mut game = AnyGame::create("double-dutch", &Setup { seats: Some(3), ..Setup::default() })?;
//! let mut moves = Vec::new();
//! while game.to_move().is_some() {
//!     moves.clear();
//!     game.legal_moves(&mut moves);
//!     game.try_play(&moves[0])?;
//! }
//! assert_ne!(game.outcome(), Outcome::Ongoing);
//! println!("{} after {} plies; scores {:?}", game.outcome(), game.ply(), game.scores());
//! println!("{}", game.render(referee::rules::game::Viewer::Everyone));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! List the legal moves, and tell a text that is no move from a move the rules forbid:
//!
//! ```
//! use referee::rules::game::{MoveError, Setup};
//! use referee::rules::pegs::Pegs;
//! use referee::rules::Game;
//!
//! let mut pegs = Pegs::new(&Setup::default())?;
//! let mut moves = Vec::new();
//! pegs.legal_moves(&mut moves);
//! assert!(moves.iter().any(|mv| mv.to_string() == "c2c3"));
//!
//! let play = |game: &mut Pegs, text: &str| -> Result<(), MoveError> {
//!     let mv = game.parse_move(text)?; // a ParseMoveError knows nothing of the position
//!     Ok(game.try_play(&mv)?) // an IllegalMove leaves the game as it was
//! };
//! assert!(matches!(play(&mut pegs, "zz"), Err(MoveError::Parse(_))));
//! assert!(matches!(play(&mut pegs, "c2c4"), Err(MoveError::Illegal(_))));
//! play(&mut pegs, "C2C3")?; // any case
//! assert_eq!(pegs.ply(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Count move paths with [`rules::game::perft`] (for an [`rules::AnyGame`], [`rules::perft`]
//! dispatches once rather than at every position): after the 49 placements of CodeCup 2011 game 53360,
//! DVONN has 69, 1,358 and 90,334 paths of 1, 2 and 3 plies (counted by three independent DVONN
//! programs):
//!
//! ```
//! use referee::rules::dvonn::Dvonn;
//! use referee::rules::Game;
//! use referee::rules::game::{Setup, perft};
//!
//! let placements = "D2 C1 K5 B1 D1 C2 E3 D3 J5 E2 K4 J4 E1 A1 G5 K3 F1 B2 H5 C3 F5 D4 G1 E4 I5 \
//!                   F2 E5 F3 D5 F4 H1 I3 C5 I4 G3 J3 A2 J2 I1 B3 H3 C4 A3 G2 G4 H2 B4 H4 I2";
//! let mut game = Dvonn::new(&Setup::default())?;
//! for text in placements.split_whitespace() {
//!     let mv = game.parse_move(text)?;
//!     game.try_play(&mv)?;
//! }
//! assert_eq!([1, 2, 3].map(|depth| perft(&game, depth)), [69, 1358, 90334]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Read a record (one line of a `--out` file; `referee schema` prints its JSON Schema) and replay
//! it under the rules:
//!
//! ```
//! use referee::records::{Record, replay::replay_record};
//! use referee::rules::Game;
//! use referee::rules::game::Actor;
//!
//! let line = r#"{"format":"referee-record","version":1,"game":"pegs","variant":"standard",
//!     "seats":[{"name":"mybot"},{"name":"referee-random"}],"seed":1,
//!     "moves":[{"ply":0,"seat":0,"move":"c2c3"},{"ply":1,"seat":1,"move":"c6c5"}]}"#;
//! let record: Record = serde_json::from_str(line)?;
//! let game = replay_record(&record, None)?; // every ply checked; an error names the ply
//! assert_eq!(game.to_move(), Some(Actor::Seat(0)));
//! assert_eq!(record.seat_name(1), "referee-random");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! An engine follows a game through the protocol with [`bots::SeatView`], which keeps DOUBLE as
//! its seat may see it; [`protocol::serve`] answers commands line by line.
#![deny(missing_docs)]

pub mod bots;
pub mod bounded;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod engine;
pub mod events;
pub mod features;
#[cfg(feature = "cli")]
pub mod play;
#[cfg(test)]
mod proptest_cases;
pub mod protocol;
pub mod records;
pub mod render;
pub mod rules;
#[cfg(feature = "cli")]
pub mod session;
pub mod stats;
pub mod sys;
