//! The JSON game record: plain serde types, one object per game, one line per game in `.jsonl`.
//!
//! Unknown fields are errors: a misspelt field must fail validation, and a later format that adds
//! fields raises `version`.

use std::collections::BTreeMap;

#[cfg(feature = "cli")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::protocol::Info;
use crate::rules::game::Seat;

/// The value of [`Record::format`].
pub const FORMAT: &str = "referee-record";
/// The record format version this program writes and reads.
pub const VERSION: u32 = 1;

/// One game: its setup, every ply, and how it ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always `referee-record`.
    #[cfg_attr(feature = "cli", schemars(extend("const" = "referee-record")))]
    pub format: String,
    /// The format version; this is version 1.
    #[cfg_attr(feature = "cli", schemars(extend("const" = 1)))]
    pub version: u32,
    /// The game's id (the schema lists them, from `crate::rules::GAMES`).
    pub game: String,
    /// The variant, for games that have them (`pegs` `standard` or `turbo`, `wyx` `double`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// One entry per seat, in seat order; their number is the number of seats.
    pub seats: Vec<SeatInfo>,
    /// The seed of every random choice of the game (shuffles, draws).
    pub seed: u64,
    /// The public layout drawn from the seed at setup (the Wyx rack), for games that have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// Free-form facts about the game, such as its source when imported.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, String>,
    /// Every ply, in order.
    pub moves: Vec<Ply>,
    /// How many of the first plies were the opening (`--openings`, `--random-plies`): played by
    /// the referee for the seats, told to the engines as ordinary plies, with no clock running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<usize>,
    /// Seats the referee took over after a fault (`--on-fault substitute`, games of three or more
    /// seats): from `ply` on, the referee played random legal moves for them. None of them wins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<SeatFault>,
    /// The result; absent while the game is unfinished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// How the game ended; absent while it is unfinished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<End>,
}

/// Who sat in one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SeatInfo {
    /// The player's or engine's name.
    pub name: String,
}

/// One ply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Ply {
    /// The ply's number, from 0.
    pub ply: usize,
    /// The seat that acted; absent for a chance event drawn by the referee from the seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The move in the game's notation, as the referee prints it.
    #[serde(rename = "move")]
    pub mv: String,
    /// Milliseconds the seat used for this ply, to the microsecond (`12.345`), when the referee
    /// timed it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "no_less_than_zero"
    )]
    pub time_ms: Option<f64>,
    /// Milliseconds left on the seat's clock after this ply, to the microsecond, when a clock ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<f64>,
    /// Milliseconds past its time the answer came, accepted within `--timemargin`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "no_less_than_zero"
    )]
    pub overrun_ms: Option<f64>,
    /// Milliseconds the referee itself was held up (stopped, frozen, not scheduled) while the
    /// seat thought: not counted in `time_ms` nor charged to its clock.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "no_less_than_zero"
    )]
    pub referee_delay_ms: Option<f64>,
    /// What the seat's engine said of its thinking in its last `info` line before this move
    /// (its evaluation, depth, nodes, expected line), when it sent one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info: Option<Info>,
}

/// A duration: never below zero (a clock, which may be, is not one).
fn no_less_than_zero<'de, D: serde::Deserializer<'de>>(input: D) -> Result<Option<f64>, D::Error> {
    let value = Option::<f64>::deserialize(input)?;
    match value {
        Some(ms) if ms < 0.0 => Err(serde::de::Error::custom(format!(
            "a time of {ms} ms: times spent are 0 or more"
        ))),
        _ => Ok(value),
    }
}

/// What replaying needs of one ply: its number, seat and move, borrowed from wherever the record
/// was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyText<'a> {
    /// The ply's number, as recorded.
    pub ply: usize,
    /// The seat that acted; `None` for a chance event.
    pub seat: Option<Seat>,
    /// The move, as recorded.
    pub mv: &'a str,
}

impl Ply {
    /// Its number, seat and move.
    pub fn text(&self) -> PlyText<'_> {
        PlyText {
            ply: self.ply,
            seat: self.seat,
            mv: &self.mv,
        }
    }
}

/// A seat's fault in a game that went on without it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SeatFault {
    /// The seat at fault.
    pub seat: Seat,
    /// The first ply the referee played for it.
    pub ply: usize,
    /// What it did.
    pub verdict: Verdict,
    /// The details.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The winning seats, in seat order: one seat, several sharing a win, or every seat for a draw.
    pub winners: Vec<Seat>,
    /// Each seat's score by the rules at the end, in seat order.
    pub scores: Vec<i64>,
}

impl GameResult {
    /// `seat`'s points: the win split among the seats sharing it (1 to a lone winner, half each
    /// for a two-seat draw), none for a seat that did not win.
    pub fn points(&self, seat: Seat) -> f64 {
        match self.winners.contains(&seat) {
            true => 1.0 / self.winners.len() as f64,
            false => 0.0,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(JsonSchema))]
#[serde(tag = "reason", rename_all = "snake_case", deny_unknown_fields)]
pub enum End {
    /// The rules ended it; the result is the rules' result.
    // A struct variant, so that serde refuses unknown fields in it too.
    Normal {},
    /// A seat resigned; every other seat wins.
    Resignation {
        /// The seat that resigned.
        seat: Seat,
    },
    /// The referee ended it against a seat; every other seat wins.
    Verdict {
        /// The seat at fault.
        seat: Seat,
        /// What it did.
        verdict: Verdict,
        /// The details: the offending text, the exit status, the overrun.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        detail: String,
    },
}

/// What a seat did to lose by the referee's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// It answered with text that is not a move.
    UnparseableMove,
    /// It answered with a move the rules forbid.
    IllegalMove,
    /// It answered after its time ran out.
    TimeLoss,
    /// It did not answer by the deadline plus margin and was killed.
    Stall,
    /// Its process exited or was killed by a signal.
    Crash,
    /// It broke the protocol (wrong id, malformed answer).
    ProtocolError,
    /// Its process could not be started or did not finish the handshake.
    FailedToStart,
}

impl Verdict {
    /// Its name in records: `unparseable_move`, `time_loss`, ...
    pub fn name(self) -> &'static str {
        match self {
            Verdict::UnparseableMove => "unparseable_move",
            Verdict::IllegalMove => "illegal_move",
            Verdict::TimeLoss => "time_loss",
            Verdict::Stall => "stall",
            Verdict::Crash => "crash",
            Verdict::ProtocolError => "protocol_error",
            Verdict::FailedToStart => "failed_to_start",
        }
    }
}

impl Verdict {
    /// Its name in words, for people: `time loss`, `illegal move`, ...
    pub fn words(self) -> &'static str {
        match self {
            Verdict::UnparseableMove => "unparseable move",
            Verdict::IllegalMove => "illegal move",
            Verdict::TimeLoss => "time loss",
            Verdict::Stall => "stall",
            Verdict::Crash => "crash",
            Verdict::ProtocolError => "protocol error",
            Verdict::FailedToStart => "failed to start",
        }
    }
}

impl Record {
    /// A finished record of `game` between `names` (seat by seat) with `result`, seed `seed`,
    /// no moves and no tags: a result alone, as statistics and ratings count it (a game read
    /// from PGN, tests' and benchmarks' games).
    pub fn result_only(game: &str, names: &[&str], seed: u64, result: GameResult) -> Record {
        Record {
            format: FORMAT.into(),
            version: VERSION,
            game: game.to_owned(),
            variant: None,
            seats: (names.iter())
                .map(|&name| SeatInfo {
                    name: name.to_owned(),
                })
                .collect(),
            seed,
            setup: None,
            tags: BTreeMap::new(),
            moves: Vec::new(),
            opening: None,
            faults: Vec::new(),
            result: Some(result),
            end: Some(End::Normal {}),
        }
    }

    /// The name in `seat`, or `?` for a seat the record does not have.
    pub fn seat_name(&self, seat: Seat) -> &str {
        self.seats.get(seat).map_or("?", |s| s.name.as_str())
    }

    /// The seats the referee took over, for people: `; the referee played for c from ply 7 after
    /// crash: exited with code 4` for each (empty without faults).
    pub fn substitutions(&self) -> String {
        self.faults
            .iter()
            .map(|f| {
                format!(
                    "; the referee played for {} from ply {} after {}: {}",
                    self.seat_name(f.seat),
                    f.ply,
                    f.verdict.words(),
                    f.detail
                )
            })
            .collect()
    }
}

impl End {
    /// `normal`, `resignation`, or the verdict's name.
    pub fn name(&self) -> &'static str {
        match self {
            End::Normal {} => "normal",
            End::Resignation { .. } => "resignation",
            End::Verdict { verdict, .. } => verdict.name(),
        }
    }
}

/// The JSON Schema of a record, pretty-printed; the game ids come from the one list of games.
#[cfg(feature = "cli")]
pub fn schema() -> String {
    let mut schema = schemars::schema_for!(Record);
    let mut games: Vec<String> = crate::rules::GAMES
        .iter()
        .map(|id| format!("`{id}`"))
        .collect();
    let last = games.pop().unwrap_or_default();
    if let Some(game) = schema.pointer_mut("/properties/game") {
        game["description"] = format!("The game's id: {}, or {last}.", games.join(", ")).into();
        game["enum"] = serde_json::json!(crate::rules::GAMES);
    }
    serde_json::to_string_pretty(&schema).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema is as strict as `validate`: the fixed fields are constants, the games the ones
    /// the referee knows, and no object takes fields it does not define.
    #[cfg(feature = "cli")]
    #[test]
    fn the_schema_allows_only_what_validate_accepts() {
        let schema: serde_json::Value = serde_json::from_str(&schema()).unwrap();
        let properties = &schema["properties"];
        assert_eq!(properties["format"]["const"], "referee-record");
        assert_eq!(properties["version"]["const"], 1);
        assert_eq!(
            properties["game"]["enum"],
            serde_json::json!(crate::rules::GAMES)
        );
        let ends = schema["$defs"]["End"]["oneOf"].as_array().unwrap();
        assert_eq!(ends.len(), 3);
        for end in ends {
            assert_eq!(end["additionalProperties"], false, "{end}");
        }
        let extra = r#"{"reason":"normal","extra":1}"#;
        assert!(serde_json::from_str::<End>(extra).is_err());
    }

    #[test]
    fn verdict_names_are_their_names_in_records() {
        use Verdict::*;
        for verdict in [
            UnparseableMove,
            IllegalMove,
            TimeLoss,
            Stall,
            Crash,
            ProtocolError,
            FailedToStart,
        ] {
            assert_eq!(serde_json::to_value(verdict).unwrap(), verdict.name());
            assert_eq!(verdict.words(), verdict.name().replace('_', " "));
        }
    }
}
