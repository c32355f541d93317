//! `referee`: rules, protocol, session and records of a scriptable referee for tabletop games.
#![deny(missing_docs)]

pub mod game;
pub mod games;
