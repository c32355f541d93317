//! The live file of a run (`--live`): every game's start, plies and end appended as they happen,
//! for `referee serve` to follow. A game's thread only puts the line in memory; a writer thread
//! of its own writes them out every 100 ms (at once for a game's end), so the file costs the
//! turn loop no system call. It is a view of the run, not its state: the records file stays the
//! truth, and lines that cannot be written, or that pile up past 16 MiB, are dropped. It is
//! bounded: past 64 MiB it is emptied and begins again with the lines of the games still in
//! progress, which a follower, seeing it shorter, reads again from its start.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Seek, Write};
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

/// The size past which the file begins again with the games in progress.
const MAX_FILE: u64 = 64 << 20;

/// Lines waiting for the writer, each marked with where it ends, its game and what it is, and
/// whether it should write them now or stop.
#[derive(Default)]
struct Pending {
    lines: Vec<u8>,
    marks: Vec<Mark>,
    now: bool,
    stop: bool,
}

/// Where a pending line ends, its game, and what it does to the game's lines.
#[derive(Clone, Copy)]
struct Mark {
    end: usize,
    game: usize,
    kind: Kind,
}

/// A line's part in its game: its first line (a start, or a start again), one more, its last;
/// or the run's line, which begins the file.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Start,
    Ply,
    End,
    Run,
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
        let file = crate::sys::owner_only(&mut OpenOptions::new())
            .write(true)
            .create(true)
            .truncate(true)
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

    /// Game `game`'s start, or its end (written out at once), or the run's line.
    pub fn write(&self, event: &LiveEvent) {
        let kind = match event {
            LiveEvent::Start { .. } => Kind::Start,
            LiveEvent::Ply { .. } => Kind::Ply,
            LiveEvent::End { .. } => Kind::End,
            LiveEvent::Run { .. } => Kind::Run,
        };
        let mark = (event.game(), kind);
        self.put(|lines| serde_json::to_writer(lines, event), mark);
    }

    /// A ply of game `game` (from 1), with every seat's clock after it.
    pub fn ply(&self, game: usize, ply: &Ply, clocks_ms: &[f64]) {
        let line = PlyLine {
            event: "ply",
            game,
            ply,
            clocks_ms,
        };
        self.put(
            |lines| serde_json::to_writer(lines, &line),
            (game, Kind::Ply),
        );
    }

    /// Appends a line made by `make` to the pending ones, unless too many are pending; a game's
    /// end is written out at once.
    fn put(
        &self,
        make: impl FnOnce(&mut Vec<u8>) -> serde_json::Result<()>,
        (game, kind): (usize, Kind),
    ) {
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
            Err(_) => return pending.lines.truncate(mark),
        }
        let end = pending.lines.len();
        pending.marks.push(Mark { end, game, kind });
        if matches!(kind, Kind::End | Kind::Run) {
            pending.now = true;
            wake.notify_one();
        }
    }
}

/// The writer thread: writes what is pending every [`FLUSH_EVERY`], or when woken, until stopped.
fn write_out(file: File, shared: &(Mutex<Pending>, Condvar)) {
    let (pending, wake) = shared;
    let mut out = Vec::new();
    let mut marks = Vec::new();
    let mut file = Bounded {
        file,
        written: 0,
        limit: MAX_FILE,
        games: BTreeMap::new(),
        run: Vec::new(),
    };
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
            std::mem::swap(&mut marks, &mut guard.marks);
            guard.now = false;
            guard.stop
        };
        if !out.is_empty() {
            file.write(&out, &marks);
            out.clear();
            marks.clear();
        }
        if stop {
            return;
        }
    }
}

/// The live file, the bytes written to it since it began (again), and the lines of each game in
/// progress, to begin it again with.
struct Bounded {
    file: File,
    written: u64,
    /// [`MAX_FILE`].
    limit: u64,
    games: BTreeMap<usize, Vec<u8>>,
    /// The run's line.
    run: Vec<u8>,
}

impl Bounded {
    /// Writes `lines` (ending where `marks` say), then begins the file again if it is past
    /// [`MAX_FILE`].
    fn write(&mut self, lines: &[u8], marks: &[Mark]) {
        if self.file.write_all(lines).is_ok() {
            self.written += lines.len() as u64;
        }
        let mut start = 0;
        for mark in marks {
            let line = lines.get(start..mark.end).unwrap_or_default();
            start = mark.end;
            match mark.kind {
                Kind::Start => drop(self.games.insert(mark.game, line.to_vec())),
                Kind::Ply => {
                    if let Some(game) = self.games.get_mut(&mark.game) {
                        game.extend_from_slice(line);
                    }
                }
                Kind::End => drop(self.games.remove(&mark.game)),
                Kind::Run => self.run = line.to_vec(),
            }
        }
        if self.written > self.limit {
            self.begin_again();
        }
    }

    /// Empties the file and writes the lines of the games in progress.
    fn begin_again(&mut self) {
        let emptied = self.file.set_len(0).and_then(|()| self.file.rewind());
        if emptied.is_err() {
            return;
        }
        self.written = 0;
        for lines in std::iter::once(&self.run).chain(self.games.values()) {
            if self.file.write_all(lines).is_ok() {
                self.written += lines.len() as u64;
            }
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

    /// Lines of `events` (game, kind) as the writer gets them: `game kind n` each.
    fn batch(events: &[(usize, Kind)], n: &mut usize) -> (Vec<u8>, Vec<Mark>) {
        let (mut lines, mut marks) = (Vec::new(), Vec::new());
        for &(game, kind) in events {
            *n += 1;
            let word = match kind {
                Kind::Start => "start",
                Kind::Ply => "ply",
                Kind::End => "end",
                Kind::Run => "run",
            };
            lines.extend_from_slice(format!("{game} {word} {n}\n").as_bytes());
            marks.push(Mark {
                end: lines.len(),
                game,
                kind,
            });
        }
        (lines, marks)
    }

    #[test]
    fn the_file_begins_again_with_the_games_in_progress_past_its_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("live.jsonl");
        let mut file = Bounded {
            file: File::create(&path).unwrap(),
            written: 0,
            limit: 2000,
            games: BTreeMap::new(),
            run: Vec::new(),
        };
        let mut n = 0;
        // The run's line first; game 1 runs throughout; games 2, 3, ... start, move and end
        // one after another.
        let (lines, marks) = batch(&[(0, Kind::Run), (1, Kind::Start), (1, Kind::Ply)], &mut n);
        file.write(&lines, &marks);
        let mut largest = 0;
        for game in 2..500 {
            let events = [(game, Kind::Start), (game, Kind::Ply), (1, Kind::Ply)];
            let (lines, marks) = batch(&events, &mut n);
            file.write(&lines, &marks);
            let (lines, marks) = batch(&[(game, Kind::Ply), (game, Kind::End)], &mut n);
            file.write(&lines, &marks);
            largest = largest.max(std::fs::metadata(&path).unwrap().len());
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Game 1's lines (2 + 498 plies, about 7 KB) and at most the limit besides.
        let first: Vec<&str> = text.lines().filter(|l| l.starts_with("1 ")).collect();
        assert_eq!(
            first.len(),
            500,
            "every line of the game in progress is there"
        );
        assert_eq!(first[0], "1 start 2");
        assert_eq!(
            text.lines().next(),
            Some("0 run 1"),
            "the run's line begins it"
        );
        assert!(
            text.lines().all(|l| !l.starts_with("2 ")),
            "game 2 ended long ago"
        );
        let game_one: usize = first.iter().map(|l| l.len() + 1).sum();
        assert!(largest <= (game_one + 2000 + 100) as u64, "{largest} bytes");
    }
}
