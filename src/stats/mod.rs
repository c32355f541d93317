//! Statistics of any set of records: one tally per engine and pairing, Elo and SPRT, and the
//! printed standings.

pub mod elo;
pub mod ratings;
pub mod results;
pub mod standings;
