//! `referee export`: the results of record files in another tool's format (PGN).

use std::io::{self, Write};

use crate::cli::args::{ExportArgs, ExportFormat};
use crate::cli::error::{CommandResult, Ended, Error};
use crate::records::file::read_all_located;
use crate::records::pgn::pgn_game;

/// Streams each record's game to the output as it is read; what PGN cannot hold is counted.
pub fn run(args: ExportArgs, stdout: &mut dyn Write) -> CommandResult {
    let ExportFormat::Pgn = args.format;
    let mut file;
    let out: &mut dyn Write = match &args.output {
        Some(path) => {
            file =
                io::BufWriter::new(std::fs::File::create(path).map_err(|e| Error::write(path, e))?);
            &mut file
        }
        None => stdout,
    };
    let (mut written, mut left_out) = (0, 0);
    let mut failed: Option<io::Error> = None;
    read_all_located(&args.files, &mut io::stderr(), |path, line, record| {
        if failed.is_some() {
            return;
        }
        match pgn_game(&record, &path.display().to_string(), line, written + 1) {
            Some(text) => {
                written += 1;
                failed = out.write_all(text.as_bytes()).err();
            }
            None => left_out += 1,
        }
    })?;
    let flushed = out.flush();
    match (failed, &args.output) {
        (Some(e), Some(path)) => return Err(Error::write(path, e)),
        (Some(e), None) => return Err(e.into()),
        (None, Some(path)) => flushed.map_err(|e| Error::write(path, e))?,
        (None, None) => flushed?,
    }
    if left_out > 0 {
        eprintln!(
            "referee: left out {left_out} games that are unfinished or not of two seats (PGN has \
             two sides); wrote {written}"
        );
    }
    Ok(Ended::Done)
}
