//! `referee`: rules, records, engine play, statistics, pictures, the protocol, the session and the
//! built-in bots of a scriptable referee for tabletop games.
#![deny(missing_docs)]

pub mod bots;
pub mod bounded;
pub mod error;
pub mod play;
pub mod protocol;
pub mod records;
pub mod render;
pub mod rules;
pub mod session;
pub mod stats;
