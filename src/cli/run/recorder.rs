//! What a run does with each game as it is played: the record kept, progress and standings told,
//! the SPRT watched.

use std::cell::RefCell;
use std::io::Write;

use crate::cli::run::leader;
use crate::cli::run::progress::Progress;
use crate::cli::run::progress_file::ProgressFile;
use crate::cli::run::results::{GameResults, seat_names, seat_points};
use crate::play::arena;
use crate::records::file::RecordsOut;
use crate::stats::elo::{Sprt, SprtState};
use crate::stats::results::Counter;
use crate::stats::standings::{Standings, game_line, start_line};

/// What a run does with its games as they are played: each record kept (`--out`, the progress
/// file), the progress and standings told, the SPRT watched.
pub(super) struct Recorder<'a> {
    pub(super) fingerprint: String,
    /// The time control and the opening book's name (`NULL` without one), for fastchess's
    /// summary.
    pub(super) conditions: (String, String),
    /// The event's name (`--event`), stored in each record's `tags.event`.
    pub(super) event: Option<String>,
    pub(super) sprt: Option<Sprt>,
    /// Whether games come in pairs of swapped seats (the SPRT's pentanomial model).
    pub(super) paired: bool,
    pub(super) json: bool,
    /// The games of the schedule.
    pub(super) games: usize,
    /// Standings every this many games (0: never).
    pub(super) rating_interval: usize,
    pub(super) names: &'a [String],
    /// Each finished game's seats and points, by index: the results a Swiss round is paired from.
    pub(super) results: &'a RefCell<GameResults>,
    pub(super) file: Option<RecordsOut>,
    pub(super) progress_file: Option<ProgressFile>,
    pub(super) counter: Counter,
    pub(super) progress: Progress,
    /// The SPRT's decision, once made: the run stops.
    pub(super) decided: Option<SprtState>,
    pub(super) stdout: &'a mut dyn Write,
}

impl Recorder<'_> {
    /// Takes `event`; whether the run goes on.
    pub(super) fn on_event(&mut self, event: arena::Event) -> std::io::Result<bool> {
        match event {
            arena::Event::Started { index, names } => {
                if !self.json {
                    let line = start_line(index, &names, self.games);
                    let line = crate::protocol::terminal_safe(&line);
                    let stdout = &mut self.stdout;
                    self.progress.suspend(|| writeln!(stdout, "{line}"))?;
                }
                Ok(true)
            }
            arena::Event::Finished(finished) => self.finished(*finished),
        }
    }

    fn finished(&mut self, mut finished: arena::Finished) -> std::io::Result<bool> {
        let record = &mut finished.record;
        record
            .tags
            .insert("tournament".into(), self.fingerprint.clone());
        if let Some(event) = &self.event {
            record.tags.insert("event".into(), event.clone());
        }
        // `report` reads the run's test from its records.
        if let Some(sprt) = &self.sprt {
            record.tags.insert("sprt".into(), sprt.to_string());
            // Which engine the test is of, whatever seat it had in this game.
            (record.tags).insert("sprt_challenger".into(), self.names[0].clone());
        }
        if let Some(points) = seat_points(record) {
            (self.results.borrow_mut()).insert(finished.index, (seat_names(record), points));
        }
        if let Some(file) = self.file.as_mut() {
            // The error names the file.
            file.append(record).map_err(std::io::Error::other)?;
        }
        if let Some(progress_file) = self.progress_file.as_mut() {
            progress_file.advance();
        }
        self.counter.add(record);
        let results = self.counter.results();
        let mut status = leader(&results);
        if !self.json {
            let stdout = &mut self.stdout;
            // The verdict's detail quotes the engine's stderr: shown, never sent to the terminal.
            let line = game_line(finished.index, record);
            let line = crate::protocol::terminal_safe(&line);
            self.progress.suspend(|| writeln!(stdout, "{line}"))?;
            let every = self.rating_interval;
            if every > 0 && (results.games as usize).is_multiple_of(every) {
                let standings = Standings {
                    results: &results,
                    engines: self.names,
                };
                self.progress
                    .suspend(|| write!(stdout, "{}", standings.so_far()))?;
            }
        }
        if let Some(sprt) = &self.sprt {
            let llr = results.llr(sprt, &self.names[0], self.paired);
            let (lower, upper) = sprt.bounds();
            status.push_str(&format!(", LLR {llr:.2} [{lower:.2}, {upper:.2}]"));
            let state = sprt.decide(llr);
            if state != SprtState::Continue {
                self.decided = Some(state);
            }
        }
        self.progress.advance(&status);
        Ok(self.decided.is_none())
    }
}
