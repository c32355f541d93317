//! `referee stats`: standings, crosstable and pairing statistics of record files, merged.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::cli::error::{CommandResult, Ended};
use crate::cli::run::progress_file::Overall;
use crate::protocol::terminal_safe;
use crate::stats::results::Counter;

/// The standings of every record of `files` (each game once), and how far the
/// run is by the progress files `progress` (if any), on `stdout` as text or JSON.
pub fn run(
    files: &[PathBuf],
    progress: &[PathBuf],
    json: bool,
    stdout: &mut dyn Write,
) -> CommandResult {
    // Read first, so that a bad progress file fails before anything is printed.
    let overall = (!progress.is_empty())
        .then(|| Overall::read(progress))
        .transpose()?;
    let mut counter = Counter::default();
    crate::records::file::read_all(files, &mut io::stderr(), |record| counter.add(&record))?;
    let results = counter.results();
    if json {
        let mut value = results.to_json();
        add_ratings(&mut value, &counter);
        if let Some(overall) = &overall {
            value["progress"] = overall.to_json();
        }
        writeln!(stdout, "{value}")?;
    } else {
        // Engine names come from the records: shown, never sent to the terminal.
        writeln!(stdout, "{}", terminal_safe(&results.to_string()))?;
        write_ratings(stdout, &counter)?;
        if let Some(overall) = &overall {
            writeln!(stdout, "{overall}")?;
        }
    }
    Ok(Ended::Done)
}

/// The joint ratings of three engines or more under `ratings` (or why not, under `error`).
pub fn add_ratings(value: &mut serde_json::Value, counter: &Counter) {
    match counter.ratings() {
        Some(Ok(ratings)) => value["ratings"] = ratings.to_json(),
        Some(Err(why)) => value["ratings"] = serde_json::json!({ "error": why.to_string() }),
        None => {}
    }
}

/// The joint ratings of three engines or more after a blank line (or why not).
pub fn write_ratings(stdout: &mut dyn Write, counter: &Counter) -> io::Result<()> {
    match counter.ratings() {
        Some(Ok(ratings)) => writeln!(stdout, "\n{}", terminal_safe(&ratings.to_string())),
        Some(Err(why)) => writeln!(
            stdout,
            "\nRatings: not computed: {}",
            terminal_safe(&why.to_string())
        ),
        None => Ok(()),
    }
}
