//! The progress file of a run (`--progress FILE`): one JSON object, replaced whole as games finish
//! so that a reader never sees half of one; and the sum of several shards' files for `stats`.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// A progress file is a few hundred bytes; anything much larger is not one.
const MAX_BYTES: u64 = 64 * 1024;

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunState {
    /// Playing, or killed before it could say otherwise (see `updated`).
    Running,
    /// Every game of its schedule (or shard) is recorded.
    Finished,
    /// The SPRT decided; the remaining games will not be played.
    Decided,
    /// A signal stopped it; `--resume` goes on.
    Stopped,
    /// An error ended it (the referee's stderr says which).
    Failed,
}

impl fmt::Display for RunState {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            RunState::Running => "running",
            RunState::Finished => "finished",
            RunState::Decided => "decided",
            RunState::Stopped => "stopped",
            RunState::Failed => "failed",
        })
    }
}

/// What a progress file holds (its fields are listed in docs/matches.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunProgress {
    /// The run's fingerprint, as in its records' `tags.tournament`.
    pub tournament: String,
    /// `K/N` when the run is a shard.
    pub shard: Option<String>,
    /// Games of this run (shard) recorded, those of earlier sittings included.
    pub games_done: u64,
    /// Games this run (shard) plays in all.
    pub games_total: u64,
    /// Games of the whole schedule, every shard's.
    pub schedule_games: u64,
    /// Where the run stands.
    pub state: RunState,
    /// When the file was written, in seconds since 1970 (UTC).
    pub updated: u64,
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A progress file being kept up to date by a run.
pub struct ProgressFile {
    path: PathBuf,
    progress: RunProgress,
    /// A write failed already (told once; the run goes on, since its records are what matter).
    failed: bool,
}

impl ProgressFile {
    /// Writes the first state of a run to `path`, stamped with the time now; an error here stops
    /// the run before it starts.
    pub fn create(path: &Path, mut progress: RunProgress) -> io::Result<ProgressFile> {
        progress.updated = now();
        let file = ProgressFile {
            path: path.to_owned(),
            progress,
            failed: false,
        };
        file.write()?;
        Ok(file)
    }

    /// One more game recorded.
    pub fn advance(&mut self) {
        self.progress.games_done += 1;
        self.rewrite();
    }

    /// The run ended this way.
    pub fn end(&mut self, state: RunState) {
        self.progress.state = state;
        self.rewrite();
    }

    fn rewrite(&mut self) {
        self.progress.updated = now();
        if let Err(e) = self.write()
            && !self.failed
        {
            self.failed = true;
            eprintln!(
                "referee: cannot write the progress file {}: {e} (the run goes on)",
                self.path.display()
            );
        }
    }

    /// Writes a file beside it and renames it over it: a reader sees the old or the new state.
    /// Whatever fails (a full disk), the file beside it is not left behind.
    fn write(&self) -> io::Result<()> {
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        let temporary = self
            .path
            .with_file_name(format!(".{name}.{}.tmp", std::process::id()));
        let mut text = serde_json::to_string(&self.progress).map_err(io::Error::other)?;
        text.push('\n');
        // Private like the records: its fingerprint names the run.
        let mut file = crate::sys::owner_only(&mut std::fs::OpenOptions::new())
            .write(true)
            .create(true)
            .truncate(true)
            .open(&temporary)?;
        let written = io::Write::write_all(&mut file, text.as_bytes())
            .and_then(|()| std::fs::rename(&temporary, &self.path));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        written
    }
}

/// Why progress files cannot be summed.
#[derive(Debug, thiserror::Error)]
pub enum ProgressError {
    /// A file that cannot be read.
    #[error("cannot read the progress file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A file that is not a progress file.
    #[error("{path} is not a progress file: {reason}")]
    NotProgress {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// Files that do not belong together.
    #[error("{0}")]
    Mixed(String),
}

impl RunProgress {
    /// Reads the progress file `path`.
    pub fn read(path: &Path) -> Result<RunProgress, ProgressError> {
        let io_error = |source| ProgressError::Io {
            path: path.to_owned(),
            source,
        };
        let mut text = String::new();
        std::fs::File::open(path)
            .map_err(io_error)?
            .take(MAX_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(io_error)?;
        let not = |reason: String| ProgressError::NotProgress {
            path: path.to_owned(),
            reason,
        };
        if text.len() as u64 > MAX_BYTES {
            return Err(not(format!("larger than {MAX_BYTES} bytes")));
        }
        let progress: RunProgress = serde_json::from_str(&text).map_err(|e| not(e.to_string()))?;
        if progress.games_done > progress.games_total
            || progress.games_total > progress.schedule_games
        {
            return Err(not(format!(
                "{} of {} games done, of a schedule of {}",
                progress.games_done, progress.games_total, progress.schedule_games
            )));
        }
        Ok(progress)
    }
}

/// The progress of a whole run across its shards' files.
#[derive(Clone, Debug, PartialEq)]
pub struct Overall {
    /// Games recorded, over the files read.
    pub games_done: u64,
    /// Games of the whole schedule.
    pub schedule_games: u64,
    /// How many shards the run has (1 when it is not sharded).
    pub shards: usize,
    /// Each file read, in shard order.
    pub files: Vec<RunProgress>,
    /// When it was summed, in seconds since 1970, to tell how old each file is.
    pub now: u64,
}

impl Overall {
    /// Sums the progress files `paths` of one run: one file per shard (shards not started yet
    /// have none) or one file of an unsharded run.
    pub fn read(paths: &[PathBuf]) -> Result<Overall, ProgressError> {
        let mut files = BTreeMap::new();
        let mut shards = None;
        for path in paths {
            let progress = RunProgress::read(path)?;
            let (k, n) = match &progress.shard {
                None => (1, 1),
                Some(shard) => shard
                    .parse::<crate::play::schedule::Shard>()
                    .map(|s| (s.k, s.n))
                    .map_err(|e| ProgressError::NotProgress {
                        path: path.clone(),
                        reason: e.to_string(),
                    })?,
            };
            if let Some((first, _)) = files.values().next() {
                let first: &RunProgress = first;
                let mixed = |what: &str| {
                    ProgressError::Mixed(format!(
                        "{} is the progress of another run than {}: {what} differ",
                        path.display(),
                        paths[0].display()
                    ))
                };
                if progress.tournament != first.tournament {
                    return Err(mixed("the tournaments"));
                }
                if progress.schedule_games != first.schedule_games {
                    return Err(mixed("the schedules' lengths"));
                }
                if shards != Some(n) {
                    return Err(mixed("the numbers of shards"));
                }
            }
            shards = Some(n);
            if let Some((_, other)) = files.insert(k, (progress, path.clone())) {
                return Err(ProgressError::Mixed(format!(
                    "{} and {} are both the progress of shard {k}/{n}",
                    other.display(),
                    path.display()
                )));
            }
        }
        let files: Vec<RunProgress> = files.into_values().map(|(p, _)| p).collect();
        Ok(Overall {
            games_done: files.iter().map(|p| p.games_done).sum(),
            schedule_games: files.first().map_or(0, |p| p.schedule_games),
            shards: shards.unwrap_or(0),
            files,
            now: now(),
        })
    }

    /// How many shards are in each state; `not started` for those without a file.
    pub fn states(&self) -> BTreeMap<String, usize> {
        let mut states = BTreeMap::new();
        for file in &self.files {
            *states.entry(file.state.to_string()).or_default() += 1;
        }
        let missing = self.shards - self.files.len();
        if missing > 0 {
            states.insert("not started".to_owned(), missing);
        }
        states
    }

    /// As JSON, for `stats --json`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "games_done": self.games_done,
            "schedule_games": self.schedule_games,
            "shards": self.shards,
            "states": self.states(),
            "files": self.files,
        })
    }
}

/// `Progress: 9 of 12 games (75.0%); 4 shards: 3 finished, 1 running`, then a line for each
/// shard that is not finished.
impl fmt::Display for Overall {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let percent = if self.schedule_games == 0 {
            100.0
        } else {
            100.0 * self.games_done as f64 / self.schedule_games as f64
        };
        write!(
            f,
            "Progress: {} of {} games ({percent:.1}%)",
            self.games_done, self.schedule_games
        )?;
        if self.shards > 1 {
            let states: Vec<String> = self
                .states()
                .iter()
                .map(|(state, count)| format!("{count} {state}"))
                .collect();
            write!(f, "; {} shards: {}", self.shards, states.join(", "))?;
        } else if let Some(file) = self.files.first() {
            write!(f, "; {}", file.state)?;
        }
        for file in self.files.iter().filter(|p| p.state != RunState::Finished) {
            let Some(shard) = &file.shard else { continue };
            write!(
                f,
                "\n  shard {shard}: {} of {} games, {}, updated {} s ago",
                file.games_done,
                file.games_total,
                file.state,
                self.now.saturating_sub(file.updated)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(k: usize, n: usize, done: u64, total: u64, state: RunState) -> RunProgress {
        RunProgress {
            tournament: "game=dvonn".into(),
            shard: Some(format!("{k}/{n}")),
            games_done: done,
            games_total: total,
            schedule_games: 10,
            state,
            updated: 100,
        }
    }

    /// Writes `files` as runs leave them, with the `updated` times they hold.
    fn write_all(dir: &Path, files: &[RunProgress]) -> Vec<PathBuf> {
        files
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let path = dir.join(format!("p{i}.json"));
                std::fs::write(&path, serde_json::to_string(p).unwrap()).unwrap();
                path
            })
            .collect()
    }

    #[test]
    fn shards_sum_and_the_missing_ones_are_not_started() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        // 10 games in 4 shards: 3, 3, 2, 2; shard 4 has not written a file yet.
        let paths = write_all(
            dir,
            &[
                shard(2, 4, 1, 3, RunState::Running),
                shard(1, 4, 3, 3, RunState::Finished),
                shard(3, 4, 0, 2, RunState::Stopped),
            ],
        );
        let mut overall = Overall::read(&paths).unwrap();
        overall.now = 107;
        assert_eq!((overall.games_done, overall.schedule_games), (4, 10));
        assert_eq!(overall.files[0].shard.as_deref(), Some("1/4"));
        assert_eq!(
            overall.to_string(),
            "Progress: 4 of 10 games (40.0%); 4 shards: 1 finished, 1 not started, 1 running, \
             1 stopped\n  shard 2/4: 1 of 3 games, running, updated 7 s ago\n  shard 3/4: 0 of \
             2 games, stopped, updated 7 s ago"
        );
        assert_eq!(overall.to_json()["states"]["not started"], 1);
    }

    #[test]
    fn files_of_other_runs_or_the_same_shard_twice_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let mut other = shard(2, 4, 1, 3, RunState::Running);
        other.tournament = "game=wyx".into();
        for (files, expected) in [
            (
                [shard(1, 4, 1, 3, RunState::Running), other],
                "tournaments differ",
            ),
            (
                [
                    shard(1, 4, 1, 3, RunState::Running),
                    shard(1, 5, 1, 2, RunState::Running),
                ],
                "numbers of shards differ",
            ),
            (
                [
                    shard(1, 4, 1, 3, RunState::Running),
                    shard(1, 4, 2, 3, RunState::Running),
                ],
                "both the progress of shard 1/4",
            ),
        ] {
            let paths = write_all(dir, &files);
            let error = Overall::read(&paths).unwrap_err().to_string();
            assert!(error.contains(expected), "{error}");
        }
    }

    #[test]
    fn anything_else_is_not_a_progress_file() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let path = dir.join("bad.json");
        for text in [
            String::new(),
            "{\"game\":\"dvonn\"}".to_owned(),
            " ".repeat(MAX_BYTES as usize + 1),
            serde_json::to_string(&shard(1, 2, 4, 3, RunState::Running)).unwrap(),
            serde_json::to_string(&RunProgress {
                shard: Some("3/2".into()),
                ..shard(1, 2, 1, 3, RunState::Running)
            })
            .unwrap(),
        ] {
            std::fs::write(&path, &text).unwrap();
            let error = Overall::read(std::slice::from_ref(&path)).unwrap_err();
            assert!(
                matches!(error, ProgressError::NotProgress { .. }),
                "{error} for {text:.60}"
            );
        }
        let missing = Overall::read(&[dir.join("missing.json")]).unwrap_err();
        assert!(matches!(missing, ProgressError::Io { .. }), "{missing}");
    }

    #[test]
    fn a_rewrite_replaces_the_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let path = dir.join("p.json");
        let mut file = ProgressFile::create(&path, shard(1, 1, 0, 2, RunState::Running)).unwrap();
        // The first state is stamped with the time it was written, not the caller's placeholder.
        let first = RunProgress::read(&path).unwrap();
        assert!(
            first.updated + 60 >= now() && first.updated <= now(),
            "{first:?}"
        );
        file.advance();
        file.advance();
        file.end(RunState::Finished);
        let read = RunProgress::read(&path).unwrap();
        assert_eq!((read.games_done, read.state), (2, RunState::Finished));
        // Nothing is left beside it.
        assert_eq!(std::fs::read_dir(dir).unwrap().count(), 1);
    }
}
