//! Standings of a match: a line per finished game, then the score, Elo and verdicts.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::play::arena::Finished;
use crate::records::End;
use crate::stats::elo::{Estimate, Tally};

/// Everything counted so far.
#[derive(Clone, Debug, Serialize)]
pub struct Standings {
    /// Engine names, in the order given.
    pub engines: Vec<String>,
    /// Games counted.
    pub games: u32,
    /// Plies played in them.
    pub plies: u64,
    /// Each engine's wins, losses and draws against the others.
    pub tallies: Vec<Tally>,
    /// How games ended: `normal`, `resignation`, or the verdict's name.
    pub ends: BTreeMap<String, u32>,
}

impl Standings {
    /// No games yet.
    pub fn new(engines: Vec<String>) -> Standings {
        let tallies = vec![Tally::default(); engines.len()];
        Standings {
            engines,
            games: 0,
            plies: 0,
            tallies,
            ends: BTreeMap::new(),
        }
    }

    /// Counts a finished game.
    pub fn add(&mut self, game: &Finished) {
        self.games += 1;
        self.plies += game.record.moves.len() as u64;
        *self
            .ends
            .entry(end_name(game.record.end.as_ref()))
            .or_default() += 1;
        let Some(result) = &game.record.result else {
            return;
        };
        let seats = game.engine_of_seat.len();
        for (seat, &engine) in game.engine_of_seat.iter().enumerate() {
            let tally = &mut self.tallies[engine];
            if result.winners.len() == seats {
                tally.draws += 1;
            } else if result.winners.contains(&seat) {
                tally.wins += 1;
            } else {
                tally.losses += 1;
            }
        }
    }

    /// The estimate of the first engine against the second.
    pub fn estimate(&self) -> Option<Estimate> {
        self.tallies.first().and_then(Tally::estimate)
    }

    /// The summary as one JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        value["estimate"] = serde_json::to_value(self.estimate()).unwrap_or_default();
        value
    }
}

fn end_name(end: Option<&End>) -> String {
    match end {
        None => "unfinished".to_owned(),
        Some(End::Normal) => "normal".to_owned(),
        Some(End::Resignation { .. }) => "resignation".to_owned(),
        Some(End::Verdict { verdict, .. }) => serde_json::to_value(verdict)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default(),
    }
}

/// `Finished game 3 (alpha vs beta): 1-0 {normal end, scores 23 17}`, in the style of chess match
/// runners; with more than two seats the result is the winning seats.
pub fn game_line(game: &Finished, total: usize) -> String {
    let record = &game.record;
    let names: Vec<&str> = record.seats.iter().map(|s| s.name.as_str()).collect();
    let score = match &record.result {
        None => "*".to_owned(),
        Some(r) if names.len() == 2 && r.winners.len() == 2 => "1/2-1/2".to_owned(),
        Some(r) if names.len() == 2 && r.winners == [0] => "1-0".to_owned(),
        Some(r) if names.len() == 2 => {
            debug_assert_eq!(r.winners, [1]);
            "0-1".to_owned()
        }
        Some(r) => {
            let winners: Vec<&str> = r.winners.iter().map(|&s| names[s]).collect();
            format!("won by {}", winners.join(" and "))
        }
    };
    let how = match &record.end {
        None => "unfinished".to_owned(),
        Some(End::Normal) => {
            let scores = record.result.as_ref().map(|r| &r.scores[..]).unwrap_or(&[]);
            let scores: Vec<String> = scores.iter().map(ToString::to_string).collect();
            format!("normal end, scores {}", scores.join(" "))
        }
        Some(End::Resignation { seat }) => format!("{} resigns", names[*seat]),
        Some(End::Verdict {
            seat,
            verdict,
            detail,
        }) => {
            let verdict = end_name(Some(&End::Verdict {
                seat: *seat,
                verdict: *verdict,
                detail: String::new(),
            }));
            format!("{} loses by {verdict}: {detail}", names[*seat])
        }
    };
    format!(
        "Finished game {} of {total} ({}): {score} {{{how}}}",
        game.index + 1,
        names.join(" vs ")
    )
}

impl fmt::Display for Standings {
    /// `Score of A vs B: W - L - D [0.550] 100`, `Elo difference: 34.9 +/- 21.1, ...`, then how
    /// the games ended.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let ([a, b], [t, ..]) = (&self.engines[..], &self.tallies[..]) {
            let score = t.estimate().map_or(0.0, |e| e.score);
            writeln!(
                f,
                "Score of {a} vs {b}: {} - {} - {} [{score:.3}] {}",
                t.wins,
                t.losses,
                t.draws,
                t.games()
            )?;
            if let Some(e) = t.estimate() {
                writeln!(
                    f,
                    "Elo difference: {:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %",
                    e.elo,
                    e.elo_error,
                    e.los * 100.0,
                    e.draw_ratio * 100.0
                )?;
            }
        } else {
            for (name, t) in self.engines.iter().zip(&self.tallies) {
                writeln!(f, "{name}: {} - {} - {}", t.wins, t.losses, t.draws)?;
            }
        }
        let ends: Vec<String> = self.ends.iter().map(|(k, v)| format!("{k} {v}")).collect();
        write!(
            f,
            "{} games, {} plies; ends: {}",
            self.games,
            self.plies,
            ends.join(", ")
        )
    }
}
