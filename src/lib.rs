//! `referee`: rules, protocol, session and records of a scriptable referee for tabletop games.
#![deny(missing_docs)]

pub mod arena;
pub mod bots;
pub mod bounded;
pub mod clock;
pub mod engine;
pub mod game;
pub mod games;
pub mod import;
pub mod process;
pub mod protocol;
pub mod record;
pub mod records_file;
pub mod replay;
pub mod results;
pub mod seeded;
pub mod session;
pub mod standings;
pub mod stats;
pub mod svg;
pub mod tournament;
pub mod validate;
pub mod viewer;
