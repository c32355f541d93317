//! Tournaments: deterministic schedules (round-robin, gauntlet), shards, and resuming from the
//! records file, which is the tournament's only state.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use crate::arena::{Scheduled, game_seed};
use crate::record::Record;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every table of `seats` engines from all of them.
    RoundRobin,
    /// The first engine against every table of the others.
    Gauntlet,
}

/// What fixes a tournament's schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Who plays whom.
    pub format: Format,
    /// How many engines.
    pub engines: usize,
    /// Seats per game.
    pub seats: usize,
    /// Times each table is played (each a new seed).
    pub rounds: usize,
    /// Play each seed once for every rotation of the seats.
    pub repeat: bool,
    /// The seed of every game's seed.
    pub seed: u64,
}

/// Every `k`-element subset of `items`, in lexicographic order.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// The tables: which engines sit together, before rotation.
pub fn tables(plan: &Plan) -> Vec<Vec<usize>> {
    let all: Vec<usize> = (0..plan.engines).collect();
    match plan.format {
        Format::RoundRobin => combinations(&all, plan.seats),
        Format::Gauntlet => combinations(&all[1.min(all.len())..], plan.seats.saturating_sub(1))
            .into_iter()
            .map(|mut others| {
                others.insert(0, 0);
                others
            })
            .collect(),
    }
}

/// The whole schedule: round by round, table by table. Without `repeat`, a table's seats rotate
/// from round to round; with it, each round plays every rotation on one seed. Every game's seed
/// comes from the plan's seed and the game's group, so the schedule is the same on every machine.
pub fn schedule(plan: &Plan) -> Vec<Scheduled> {
    let tables = tables(plan);
    let mut games = Vec::new();
    let mut group = 0;
    for round in 0..plan.rounds {
        for table in &tables {
            let seed = game_seed(plan.seed, group);
            group += 1;
            let rotations: Vec<usize> = if plan.repeat {
                (0..plan.seats).collect()
            } else {
                vec![round % plan.seats]
            };
            for rotation in rotations {
                games.push(Scheduled {
                    index: games.len(),
                    engines: (0..plan.seats)
                        .map(|seat| table[(seat + rotation) % plan.seats])
                        .collect(),
                    seed,
                });
            }
        }
    }
    games
}

/// A shard `K/N` (K from 1): the games whose index is `K - 1` modulo `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub k: usize,
    /// How many slices.
    pub n: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let parsed = text
            .split_once('/')
            .and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)));
        match parsed {
            Some((k, n)) if 1 <= k && k <= n => Ok(Shard { k, n }),
            _ => Err(format!(
                "bad shard `{text}`: expected K/N with 1 <= K <= N, e.g. 2/8"
            )),
        }
    }
}

impl Shard {
    /// Whether game `index` is in this shard.
    pub fn holds(self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

/// What is in a records file when a run resumes.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The file cannot be read or repaired.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// A whole line is not a record: not a torn write, so it is not silently dropped.
    #[error("{path}:{line}: not a record ({reason}); fix or remove it to resume")]
    Corrupt {
        /// The file.
        path: String,
        /// The line, from 1.
        line: usize,
        /// Why.
        reason: String,
    },
    /// A record of another tournament.
    #[error("{path}:{line}: a record of another tournament ({found}), not {expected}")]
    Foreign {
        /// The file.
        path: String,
        /// The line, from 1.
        line: usize,
        /// Its fingerprint.
        found: String,
        /// This tournament's.
        expected: String,
    },
}

/// Reads the records of `path` for a resumed run: a torn last line (a write cut short by a kill)
/// is cut off the file; every other line must be a record whose `tags.tournament` is
/// `fingerprint`. A missing file is an empty one.
pub fn read_for_resume(path: &Path, fingerprint: &str) -> Result<Vec<Record>, ResumeError> {
    let name = path.display().to_string();
    let io_error = |source| ResumeError::Io {
        path: name.clone(),
        source,
    };
    let mut file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(e)),
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io_error)?;
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if whole < bytes.len() {
        truncate(&mut file, whole as u64).map_err(io_error)?;
    }
    let text = String::from_utf8_lossy(&bytes[..whole]);
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record: Record = serde_json::from_str(line).map_err(|e| ResumeError::Corrupt {
            path: name.clone(),
            line: i + 1,
            reason: e.to_string(),
        })?;
        let found = record.tags.get("tournament").cloned().unwrap_or_default();
        if found != fingerprint {
            return Err(ResumeError::Foreign {
                path: name.clone(),
                line: i + 1,
                found,
                expected: fingerprint.to_owned(),
            });
        }
        records.push(record);
    }
    Ok(records)
}

fn truncate(file: &mut File, length: u64) -> io::Result<()> {
    file.set_len(length)?;
    file.seek(SeekFrom::End(0)).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(format: Format, engines: usize, seats: usize, rounds: usize, repeat: bool) -> Plan {
        Plan {
            format,
            engines,
            seats,
            rounds,
            repeat,
            seed: 9,
        }
    }

    #[test]
    fn round_robin_pairs_everyone_and_gauntlet_only_the_first() {
        assert_eq!(
            tables(&plan(Format::RoundRobin, 4, 2, 1, false)),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        assert_eq!(
            tables(&plan(Format::Gauntlet, 4, 2, 1, false)),
            [[0, 1], [0, 2], [0, 3]]
        );
        assert_eq!(
            tables(&plan(Format::RoundRobin, 4, 3, 1, false)),
            [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]
        );
        assert_eq!(
            tables(&plan(Format::Gauntlet, 4, 3, 1, false)),
            [[0, 1, 2], [0, 1, 3], [0, 2, 3]]
        );
    }

    #[test]
    fn schedules_are_complete_and_deterministic() {
        let p = plan(Format::RoundRobin, 3, 2, 2, true);
        let games = schedule(&p);
        assert_eq!(games.len(), 3 * 2 * 2);
        assert_eq!(games, schedule(&p));
        // Repeat: each seed twice, seats swapped.
        assert_eq!(games[0].seed, games[1].seed);
        assert_eq!(games[0].engines, [0, 1]);
        assert_eq!(games[1].engines, [1, 0]);
        assert_ne!(games[0].seed, games[2].seed);
        // Every pair meets as often in each seat.
        for pair in [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]] {
            assert_eq!(
                games.iter().filter(|g| g.engines == pair).count(),
                2,
                "{pair:?}"
            );
        }
        let seeds: std::collections::HashSet<u64> = games.iter().map(|g| g.seed).collect();
        assert_eq!(seeds.len(), 6);
        // Without repeat the seats alternate from round to round.
        let plain = schedule(&plan(Format::Gauntlet, 3, 2, 2, false));
        assert_eq!(
            plain.iter().map(|g| g.engines.clone()).collect::<Vec<_>>(),
            [[0, 1], [0, 2], [1, 0], [2, 0]]
        );
    }

    #[test]
    fn shards_are_disjoint_and_cover_everything() {
        let games = schedule(&plan(Format::RoundRobin, 4, 2, 3, true));
        let shards: Vec<Shard> = (1..=5).map(|k| Shard { k, n: 5 }).collect();
        for game in &games {
            assert_eq!(shards.iter().filter(|s| s.holds(game.index)).count(), 1);
        }
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { k: 2, n: 8 }));
        for bad in ["0/3", "4/3", "x", "1/0", "1-2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
