//! Tournament formats as pure functions of their results: Swiss pairing, the knockout bracket,
//! what a record's `tags.tournament` says of its event, and standings by the event's own rules.

pub mod knockout;
pub mod standings;
pub mod swiss;
pub mod tag;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every table of `seats` engines from all of them.
    RoundRobin,
    /// The first engine against every table of the others.
    Gauntlet,
    /// Rounds of tables of engines with equal scores (`swiss`): each round is
    /// paired from the results of the ones before, so it is not a fixed list.
    Swiss,
    /// A bracket of two-seat ties (`knockout`); the run's rounds are then the games of each tie.
    Knockout,
}

impl Format {
    /// The name `--format` takes and `tags.tournament` stores.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::Swiss => "swiss",
            Format::Knockout => "knockout",
        }
    }

    /// The format a name stands for.
    pub fn from_name(name: &str) -> Option<Format> {
        [
            Format::RoundRobin,
            Format::Gauntlet,
            Format::Swiss,
            Format::Knockout,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }
}
