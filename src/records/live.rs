//! The live file (`--live`): the games in progress, an event per line as they are played (a game
//! starts, a ply, a game ends), which `referee serve` follows to draw them. It holds every ply,
//! hidden cards included, so it is kept from engines as the records are.

use serde::{Deserialize, Serialize};

use crate::records::Ply;

/// One line of the live file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase", deny_unknown_fields)]
pub enum LiveEvent {
    /// Game `game` (its number in the schedule, from 1) starts, or starts again from its first
    /// ply (a person took a move back): what a replay needs to set it up.
    Start {
        /// The game's number in the schedule, from 1.
        game: usize,
        /// The game's id.
        id: String,
        /// Its variant, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        variant: Option<String>,
        /// The engines' names, by seat.
        seats: Vec<String>,
        /// The game's seed (it deals DOUBLE's cards: the file is as secret as the records).
        seed: u64,
        /// Whether the game is one rotation of a deal played once per rotation of the seats
        /// (`--repeat`): what is seen of it reveals the hands of the deal's other rotations.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        duplicate: bool,
    },
    /// A ply of game `game`, as the record will hold it, with every seat's clock after it.
    Ply {
        /// The game's number in the schedule, from 1.
        game: usize,
        /// The ply.
        ply: Ply,
        /// Each seat's clock in milliseconds after the ply, when clocks run.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        clocks_ms: Vec<f64>,
    },
    /// Game `game` is over; its record is in the records file.
    End {
        /// The game's number in the schedule, from 1.
        game: usize,
    },
    /// The run: written first, and again first whenever the file begins again.
    Run {
        /// Its headline: the event's name (`--event`), else what the run is (`tournament of 6
        /// engines`).
        title: String,
        /// The game's id and variant, as `dvonn` or `pegs turbo`.
        game: String,
        /// The time control, as `--tc` reads it.
        tc: String,
        /// Games the run plays in all (for a knockout, at most), those its records file held
        /// already included.
        games: usize,
        /// Games its records file held as it started.
        done: usize,
        /// When it started, in milliseconds since 1970.
        started_ms: u64,
        /// The SPRT it stops on, as `--sprt` takes it, and the engine it tests.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sprt: Option<(String, String)>,
    },
}

impl LiveEvent {
    /// The game it is about, from 1.
    pub fn game(&self) -> usize {
        match self {
            LiveEvent::Start { game, .. }
            | LiveEvent::Ply { game, .. }
            | LiveEvent::End { game } => *game,
            LiveEvent::Run { .. } => 0,
        }
    }
}
