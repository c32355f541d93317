//! Game records: the JSON types, reading and writing records files, replaying a game and the record
//! it makes, validating records against the rules, and importing real transcripts.

pub mod file;
pub mod import;
mod record;
pub mod replay;
pub mod validate;

pub use record::*;
