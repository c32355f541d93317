//! The other shards of a sharded Swiss or knockout: their records files, read as they grow, so
//! that each shard pairs a round from every earlier game, whichever shard played it.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::cli::run::results::{GameResults, seat_names, seat_points};
use crate::engine::process;
use crate::play::arena::MatchError;
use crate::play::schedule::Shard;
use crate::records::Record;
use crate::records::follow::{Follow, FollowError, Seen};

/// What stands for a shard's number in `--peers`.
pub const PLACEHOLDER: &str = "{shard}";

/// How often a waiting shard looks at the others' files again.
const POLL: Duration = Duration::from_millis(200);

/// How long a round waits before it says which shards it waits for.
const QUIET_WAIT: Duration = Duration::from_secs(2);

/// Every shard's records file, `{shard}` in `pattern` replaced by its number (1 to `n`).
pub fn shard_files(pattern: &str, n: usize) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| PathBuf::from(pattern.replace(PLACEHOLDER, &k.to_string())))
        .collect()
}

/// One other shard's records file, followed as it grows.
struct PeerFile {
    follow: Follow,
    shard: Shard,
}

/// The records files of the other shards of this run.
pub struct Peers {
    files: Vec<PeerFile>,
    fingerprint: String,
}

impl Peers {
    /// The files of every shard of `shard.n` but `shard` itself, which hold records of the run
    /// named `fingerprint`.
    pub fn new(files: Vec<PathBuf>, shard: Shard, fingerprint: &str) -> Peers {
        let files = (files.into_iter().enumerate())
            .map(|(i, path)| {
                (
                    Shard {
                        k: i + 1,
                        n: shard.n,
                    },
                    path,
                )
            })
            .filter(|(peer, _)| *peer != shard)
            .map(|(shard, path)| PeerFile {
                follow: Follow::new(&path),
                shard,
            })
            .collect();
        Peers {
            files,
            fingerprint: fingerprint.to_owned(),
        }
    }

    /// Waits until `results` holds every game of `games` (indices from 0), reading the other
    /// shards' files as they grow. `false` when a stop signal came first.
    pub fn wait_for(
        &mut self,
        games: &[usize],
        results: &RefCell<GameResults>,
        round: usize,
    ) -> Result<bool, MatchError> {
        let started = Instant::now();
        let mut said = false;
        loop {
            self.read_new(&mut results.borrow_mut())?;
            let missing: Vec<usize> = (games.iter())
                .filter(|g| !results.borrow().contains_key(g))
                .copied()
                .collect();
            if missing.is_empty() {
                return Ok(true);
            }
            if process::draining() || process::stopping() {
                return Ok(false);
            }
            if !said && started.elapsed() >= QUIET_WAIT {
                said = true;
                eprintln!(
                    "referee: round {} waits for {}",
                    round + 1,
                    self.owners(&missing)
                );
            }
            std::thread::sleep(POLL);
        }
    }

    /// `shard 2 (shard-2.jsonl), shard 3 (shard-3.jsonl)`: the shards that hold `games`.
    fn owners(&self, games: &[usize]) -> String {
        (self.files.iter())
            .filter(|f| games.iter().any(|&g| f.shard.holds(g)))
            .map(|f| format!("shard {} ({})", f.shard.k, f.follow.path().display()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Reads the whole lines the other shards wrote since the last look; a line still being
    /// written waits for the next look. A file that shrank was rewritten: not a peer's records.
    fn read_new(&mut self, results: &mut GameResults) -> Result<(), MatchError> {
        let fingerprint = &self.fingerprint;
        for file in &mut self.files {
            let (path, shard) = (file.follow.path().to_owned(), file.shard);
            let shrank = file.follow.read_new(|seen| {
                let (number, text) = match seen {
                    Seen::Line { number, text, .. } => (number, text),
                    Seen::TooLong { number } => {
                        return Err(foreign(&path, number, "a line too long"));
                    }
                    // Said once it is read through (below).
                    Seen::Restart => return Ok(()),
                };
                if text.iter().all(u8::is_ascii_whitespace) {
                    return Ok(());
                }
                let record: Record = serde_json::from_slice(text)
                    .map_err(|e| foreign(&path, number, &format!("not a record: {e}")))?;
                let (index, points) = check(&record, shard, fingerprint)
                    .map_err(|why| foreign(&path, number, &why.to_string()))?;
                results.insert(index, (seat_names(&record), points));
                Ok(())
            });
            match shrank {
                Ok(false) => {}
                Ok(true) => return Err(foreign(&path, 1, "the file was emptied or replaced")),
                Err(FollowError::Line(e)) => return Err(e),
                Err(e @ FollowError::Io { .. }) => {
                    return Err(MatchError::NotThisRun(e.to_string()));
                }
            }
        }
        Ok(())
    }
}

/// A record of the run named `fingerprint`, of a game of `shard`, that replays: its index and
/// points.
fn check(record: &Record, shard: Shard, fingerprint: &str) -> Result<(usize, Vec<f64>), Foreign> {
    let found = record.tags.get("tournament").map_or("", String::as_str);
    if found != fingerprint {
        return Err(Foreign::OtherRun(found.to_owned()));
    }
    let index = (record.tags.get("game"))
        .and_then(|g| g.parse::<usize>().ok())
        .and_then(|g| g.checked_sub(1))
        .ok_or(Foreign::NoNumber)?;
    if !shard.holds(index) {
        return Err(Foreign::OtherShard(index + 1, shard));
    }
    crate::records::validate::check_record(record)
        .map_err(|problem| Foreign::NoReplay(problem.message))?;
    let points = seat_points(record).ok_or(Foreign::NoResult)?;
    Ok((index, points))
}

/// Why a peer's record is not one of this run's shard.
#[derive(Debug, thiserror::Error)]
enum Foreign {
    /// Its fingerprint is another run's.
    #[error("a record of another run ({0})")]
    OtherRun(String),
    /// It has no game number.
    #[error("a record with no game number")]
    NoNumber,
    /// Its game (from 1) is not the shard's.
    #[error("game {0}, which is not shard {1}'s")]
    OtherShard(usize, Shard),
    /// It does not replay.
    #[error("a record that does not replay ({0})")]
    NoReplay(String),
    /// It has no result.
    #[error("a record with no result")]
    NoResult,
}

/// A peer's line that is not a record of this run's shard.
fn foreign(path: &Path, line: usize, why: &str) -> MatchError {
    MatchError::NotThisRun(format!(
        "{}:{line}: {why}: --peers must name the records files of this run's shards",
        path.display()
    ))
}

/// This shard's part of a Swiss or knockout: the games it plays, and where the others are.
pub struct Share {
    /// The slice of the games this referee plays; all of them when `None`.
    pub shard: Option<Shard>,
    /// The other shards' records, when sharded.
    pub peers: Option<Peers>,
}

impl Share {
    /// Whether this referee plays game `index`.
    pub fn plays(&self, index: usize) -> bool {
        self.shard.is_none_or(|s| s.holds(index))
    }

    /// Whether `results` holds every game of `games` (of round `round`, from 0), once the other
    /// shards have played theirs; `false` when the run stops first.
    pub fn gather(
        &mut self,
        games: &[usize],
        results: &RefCell<GameResults>,
        round: usize,
    ) -> Result<bool, MatchError> {
        match &mut self.peers {
            Some(peers) => peers.wait_for(games, results, round),
            None => Ok(games.iter().all(|g| results.borrow().contains_key(g))),
        }
    }
}
