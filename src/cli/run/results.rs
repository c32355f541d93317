//! The results a Swiss or knockout pairs its rounds from: each finished game's seat names and
//! points, whichever shard played it.

use std::collections::HashMap;

use crate::records::Record;

/// Each finished game's seat names and points, by its index in the schedule.
pub type GameResults = HashMap<usize, (Vec<String>, Vec<f64>)>;

/// Each seat's points in a finished record: 1 to a winner, `1/k` to each of `k` sharing a win.
pub fn seat_points(record: &Record) -> Option<Vec<f64>> {
    let result = record.result.as_ref()?;
    Some((0..record.seats.len()).map(|s| result.points(s)).collect())
}

/// Each seat's engine name in a record.
pub fn seat_names(record: &Record) -> Vec<String> {
    record.seats.iter().map(|s| s.name.clone()).collect()
}
