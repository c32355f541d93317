//! `referee ratings`: one rating list for every engine of any set of record files.

use std::io::{self, Write};

use crate::cli::args::RatingsArgs;
use crate::cli::error::{CommandResult, Ended};
use crate::records::file::read_all;
use crate::stats::ratings::{Options, Pool, RatingsError};

/// Reads every record (each game once) into the pool, then prints the list.
pub fn run(args: RatingsArgs, stdout: &mut dyn Write) -> CommandResult {
    let mut pool = Pool::default();
    let mut refused: Option<RatingsError> = None;
    read_all(&args.files, &mut io::stderr(), |record| {
        if refused.is_none() {
            refused = pool.add(&record).err();
        }
    })?;
    if let Some(error) = refused {
        return Err(error.into());
    }
    let options = Options {
        anchor: args.anchor,
        min_games: args.min_games,
        los: args.los,
    };
    let ratings = pool.rate(&options)?;
    match args.json {
        true => writeln!(stdout, "{}", ratings.to_json())?,
        false => {
            let mut text = ratings.to_string();
            if let Some(table) = ratings.los_table() {
                text = format!("{text}\n\n{table}");
            }
            writeln!(stdout, "{}", crate::protocol::terminal_safe(&text))?;
        }
    }
    Ok(Ended::Done)
}
