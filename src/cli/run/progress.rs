//! Progress of a run on stderr: a bar with games done, ETA and a status (the leader, the SPRT's
//! LLR) when stderr is a terminal, a plain line per game otherwise. Nothing goes to stdout, which
//! holds only results.

use std::cell::Cell;
use std::io::{self, IsTerminal, Write};

/// The progress of one run.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: u64,
    done: Cell<u64>,
}

impl Progress {
    /// A run of `total` games of which `done` were played before; a bar only when `bar` allows
    /// it (not while a person plays at the terminal) and stderr is a terminal.
    pub fn new(total: u64, done: u64, bar: bool) -> Progress {
        let bar = (bar && io::stderr().is_terminal()).then(|| {
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

    /// One more game finished; `status` says where the run stands now.
    pub fn advance(&self, status: &str) {
        self.done.set(self.done.get() + 1);
        match &self.bar {
            Some(bar) => {
                bar.set_message(status.to_owned());
                bar.inc(1);
            }
            None => {
                // One write a line (stderr is unbuffered: `eprintln!` wrote each piece apart,
                // ten writes a game, which another writer's line could come between).
                let line = format!("{}/{} games done, {status}\n", self.done.get(), self.total);
                let _ = io::stderr().write_all(line.as_bytes());
            }
        }
    }

    /// Runs `print` with the bar hidden, so a line written to a terminal does not tear it.
    pub fn suspend<T>(&self, print: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
