//! Progress of a long run on stderr: a bar with games done, ETA and the leader when stderr is a
//! terminal, a plain line per game otherwise.

use std::cell::Cell;
use std::io::{self, IsTerminal};

use crate::stats::results::Results;

/// The progress of one run.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: u64,
    done: Cell<u64>,
}

impl Progress {
    /// A run of `total` games of which `done` were played before.
    pub fn new(total: u64, done: u64) -> Progress {
        let bar = io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total);
            let style = indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games, ETA {eta} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            bar.set_style(style);
            bar.set_position(done);
            bar
        });
        Progress {
            bar,
            total,
            done: Cell::new(done),
        }
    }

    /// One more game finished; `results` are the standings now.
    pub fn advance(&self, results: &Results) {
        self.done.set(self.done.get() + 1);
        let leader = results
            .engines
            .first()
            .map(|e| format!("leader {} {:.1}/{}", e.name, e.points, e.games))
            .unwrap_or_default();
        match &self.bar {
            Some(bar) => {
                bar.set_message(leader);
                bar.inc(1);
            }
            None => eprintln!("{}/{} games done, {leader}", self.done.get(), self.total),
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
