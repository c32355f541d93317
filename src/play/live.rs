//! The live file of a run (`--live`): every game's start, plies and end appended as they happen,
//! for `referee serve` to follow. A game's thread only puts the line in memory; a writer thread
//! of its own writes them out every 100 ms (at once for a game's end), so the file costs the
//! turn loop no system call. It is a view of the run, not its state: the records file stays the
//! truth, and lines that cannot be written, or that pile up past 16 MiB, are dropped.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde::Serialize;

use crate::records::Ply;
use crate::records::live::LiveEvent;

/// How often the lines are written out.
const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// The most bytes waiting to be written; past it, lines are dropped.
const MAX_PENDING: usize = 16 << 20;

/// Lines waiting for the writer, and whether it should write them now or stop.
#[derive(Default)]
struct Pending {
    lines: Vec<u8>,
    now: bool,
    stop: bool,
}

/// The live file, fed by every game thread.
pub struct LiveLog {
    shared: Arc<(Mutex<Pending>, Condvar)>,
    writer: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for LiveLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LiveLog")
    }
}

/// A ply's line, written from borrowed parts; it reads back as [`LiveEvent::Ply`].
#[derive(Serialize)]
struct PlyLine<'a> {
    event: &'static str,
    game: usize,
    ply: &'a Ply,
    #[serde(skip_serializing_if = "<[f64]>::is_empty")]
    clocks_ms: &'a [f64],
}

impl LiveLog {
    /// Creates (or empties) the live file at `path`, readable by its owner only: it holds every
    /// card as it is dealt.
    pub fn create(path: &Path) -> io::Result<LiveLog> {
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(path)?;
        let shared = Arc::new((Mutex::new(Pending::default()), Condvar::new()));
        let theirs = shared.clone();
        let writer = std::thread::Builder::new()
            .name("live file".into())
            .spawn(move || write_out(file, &theirs))?;
        Ok(LiveLog {
            shared,
            writer: Some(writer),
        })
    }

    /// Game `game`'s start, or its end (written out at once).
    pub fn write(&self, event: &LiveEvent) {
        let now = matches!(event, LiveEvent::End { .. });
        self.put(|lines| serde_json::to_writer(lines, event), now);
    }

    /// A ply of game `game` (from 1), with every seat's clock after it.
    pub fn ply(&self, game: usize, ply: &Ply, clocks_ms: &[f64]) {
        let line = PlyLine {
            event: "ply",
            game,
            ply,
            clocks_ms,
        };
        self.put(|lines| serde_json::to_writer(lines, &line), false);
    }

    /// Appends a line made by `make` to the pending ones, unless too many are pending.
    fn put(&self, make: impl FnOnce(&mut Vec<u8>) -> serde_json::Result<()>, now: bool) {
        let (pending, wake) = &*self.shared;
        let Ok(mut pending) = pending.lock() else {
            return;
        };
        if pending.lines.len() >= MAX_PENDING {
            return;
        }
        let mark = pending.lines.len();
        match make(&mut pending.lines) {
            Ok(()) => pending.lines.push(b'\n'),
            Err(_) => pending.lines.truncate(mark),
        }
        if now {
            pending.now = true;
            wake.notify_one();
        }
    }
}

/// The writer thread: writes what is pending every [`FLUSH_EVERY`], or when woken, until stopped.
fn write_out(mut file: File, shared: &(Mutex<Pending>, Condvar)) {
    let (pending, wake) = shared;
    let mut out = Vec::new();
    loop {
        let stop = {
            let Ok(guard) = pending.lock() else {
                return;
            };
            let waited = wake.wait_timeout_while(guard, FLUSH_EVERY, |p| !p.now && !p.stop);
            let Ok((mut guard, _)) = waited else {
                return;
            };
            std::mem::swap(&mut out, &mut guard.lines);
            guard.now = false;
            guard.stop
        };
        if !out.is_empty() {
            let _ = file.write_all(&out);
            out.clear();
        }
        if stop {
            return;
        }
    }
}

impl Drop for LiveLog {
    /// Writes out what is pending before the run ends.
    fn drop(&mut self) {
        if let Ok(mut pending) = self.shared.0.lock() {
            pending.stop = true;
            self.shared.1.notify_one();
        }
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ply_line_reads_back_as_the_event_and_every_line_is_written_by_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("live");
        let ply = Ply {
            ply: 3,
            seat: Some(1),
            mv: "D2".into(),
            time_ms: Some(1.5),
            clock_ms: Some(998.5),
            overrun_ms: None,
            referee_delay_ms: None,
            info: None,
        };
        let log = LiveLog::create(&path).unwrap();
        log.ply(2, &ply, &[1000.0, 998.5]);
        log.ply(2, &ply, &[]);
        log.write(&LiveEvent::End { game: 2 });
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        let events: Vec<LiveEvent> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            events,
            [
                LiveEvent::Ply {
                    game: 2,
                    ply: ply.clone(),
                    clocks_ms: vec![1000.0, 998.5]
                },
                LiveEvent::Ply {
                    game: 2,
                    ply,
                    clocks_ms: Vec::new()
                },
                LiveEvent::End { game: 2 },
            ]
        );
    }
}
