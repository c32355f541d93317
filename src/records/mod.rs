//! Game records: the JSON types, reading and writing records files, replaying a game and the record
//! it makes, validating records against the rules, and importing real transcripts.

pub mod fast;
pub mod file;
pub mod follow;
mod header;
pub mod import;
pub mod live;
pub mod pgn;
mod record;
pub mod replay;
mod scan;
pub mod validate;

pub use record::*;

/// A finished DVONN-shaped record between `names`, won by `winners`, with no moves: what the
/// statistics count (tests of `stats` and `report`).
#[cfg(test)]
pub(crate) fn finished_record(names: &[&str], winners: &[usize], seed: u64) -> Record {
    let result = GameResult {
        winners: winners.to_vec(),
        scores: vec![0; names.len()],
    };
    Record::result_only("dvonn", names, seed, result)
}
