//! `referee ratings`: one rating list for every engine of any set of record files.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::cli::args::{RatingsArgs, SeatAdvantageArg};
use crate::cli::error::{CommandResult, Ended, Error};
use crate::records::Record;
use crate::records::file::read_all;
use crate::records::pgn::read_pgn;
use crate::stats::ratings::{Options, Pool, RatingsError};
use crate::stats::results::{Counter, head_to_head};

/// Whether `path` names a PGN file (by its extension, as chess tools name them).
fn is_pgn(path: &Path) -> bool {
    (path.extension()).is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

/// Reads every record (each game once) and every PGN game into the pool, then prints the list.
pub fn run(args: RatingsArgs, stdout: &mut dyn Write) -> CommandResult {
    let bytes = usize::try_from(args.memory << 20).unwrap_or(usize::MAX);
    let mut pool = Pool::spilling(bytes, tempfile::tempfile);
    let mut refused: Option<RatingsError> = None;
    let mut counter = Counter::default();
    let mut add = |record: Record| {
        if refused.is_none() {
            refused = pool.add(&record).err();
        }
        // Head to head is of two-seat games: the counter need not hold the others.
        if args.head_to_head && record.seats.len() == 2 {
            counter.add(&record);
        }
    };
    let (pgn, records): (Vec<PathBuf>, Vec<PathBuf>) =
        args.files.iter().cloned().partition(|path| is_pgn(path));
    read_all(&records, &mut io::stderr(), &mut add)?;
    for path in &pgn {
        let file = std::fs::File::open(path).map_err(|e| Error::read(path, e))?;
        let mut unfinished = 0;
        read_pgn(io::BufReader::new(file), |game| match game.record() {
            Some(record) => add(record),
            None => unfinished += 1,
        })
        .map_err(|e| Error::read(path, e))?;
        if unfinished > 0 {
            eprintln!(
                "referee: {}: {unfinished} games without a result or without both players left out",
                path.display()
            );
        }
    }
    if let Some(error) = refused {
        return Err(error.into());
    }
    let options = Options {
        anchor: args.anchor,
        min_games: args.min_games,
        los: args.los,
        winner_only: args.winner_only,
        seat_advantage: args.seat_advantage == SeatAdvantageArg::Fit,
    };
    let ratings = pool.rate(&options)?;
    let pairings = match args.head_to_head {
        true => counter.results().pairings,
        false => Vec::new(),
    };
    match args.json {
        true => {
            let mut list = ratings.to_json();
            if let (true, Some(engines)) = (args.head_to_head, list.as_array_mut()) {
                let mut met = head_to_head(&pairings);
                for engine in engines {
                    let name = engine["name"].as_str().unwrap_or_default();
                    let row = met.remove(name).unwrap_or_default();
                    engine["head_to_head"] = serde_json::Value::Object(row);
                }
            }
            writeln!(stdout, "{}", ratings.document(list))?;
        }
        false => {
            let mut text = ratings.to_string();
            let parts = [
                ratings.seats_text(),
                ratings.draw_rate_text(),
                ratings.los_table(),
            ];
            for part in parts.into_iter().flatten() {
                let _ = write!(text, "\n\n{part}");
            }
            if args.head_to_head {
                text.push_str(
                    "\n\nHead to head (the first engine's wins - losses - draws [score] games, \
                     Elo and LOS, game pairs by its points 0, 1/2, 1, 3/2, 2):",
                );
                for pairing in &pairings {
                    let _ = write!(text, "\n{pairing}");
                }
            }
            writeln!(stdout, "{}", crate::protocol::terminal_safe(&text))?;
        }
    }
    Ok(Ended::Done)
}
