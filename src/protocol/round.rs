//! DOUBLE's round event, `event round N points=P0,P1,.. totals=T0,T1,..`: written and read here.

use std::fmt;

/// The most seats a round event names (DOUBLE's most).
const MOST_SEATS: usize = 6;

/// What every seat is told when a round of DOUBLE ends: the hands are shown and scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundEnd {
    /// The round that ended, from 1.
    pub finished: usize,
    /// Each seat's points of the round, in seat order.
    pub points: Vec<i64>,
    /// Each seat's total after it.
    pub totals: Vec<i64>,
}

impl RoundEnd {
    /// Round `finished` ended, the seats' totals grown from `before` to `totals`.
    pub fn new(finished: usize, before: &[i64], totals: &[i64]) -> RoundEnd {
        RoundEnd {
            finished,
            points: totals.iter().zip(before).map(|(t, b)| t - b).collect(),
            totals: totals.to_vec(),
        }
    }

    /// Reads an event's text (after `event `), None when it is no round event: `round`, the
    /// round, and the two lists, one number per seat (at most 6), alike in length.
    pub fn parse(text: &str) -> Option<RoundEnd> {
        let list = |word: &str, key: &str| -> Option<Vec<i64>> {
            let values = word.strip_prefix(key)?.split(',');
            let values: Vec<i64> = values
                .take(MOST_SEATS + 1)
                .map(|v| v.parse().ok())
                .collect::<Option<_>>()?;
            (values.len() <= MOST_SEATS).then_some(values)
        };
        let words: Vec<&str> = text.split_whitespace().take(5).collect();
        let ["round", finished, points, totals] = words.as_slice() else {
            return None;
        };
        let round = RoundEnd {
            finished: finished.parse().ok()?,
            points: list(points, "points=")?,
            totals: list(totals, "totals=")?,
        };
        (round.points.len() == round.totals.len()).then_some(round)
    }
}

impl fmt::Display for RoundEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |values: &[i64]| {
            values
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        write!(
            f,
            "round {} points={} totals={}",
            self.finished,
            join(&self.points),
            join(&self.totals)
        )
    }
}
