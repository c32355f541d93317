//! `referee render`: the SVG picture of one position of one game of a records file.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{CommandResult, Ended, Error};
use crate::records::file::read_all;
use crate::records::replay::replay_record;
use crate::rules::game::{Game, Viewer};

/// Draws game `number` (from 1, each game counted once) of `file` after `ply` plies (the end when
/// `None`), as everyone sees it or as `seat` does, to `output` or `stdout`.
pub fn run(
    file: &Path,
    number: usize,
    ply: Option<usize>,
    seat: Option<usize>,
    output: Option<&Path>,
    stdout: &mut dyn Write,
) -> CommandResult {
    let mut found = None;
    let mut seen = 0;
    read_all(
        std::slice::from_ref(&PathBuf::from(file)),
        &mut std::io::stderr(),
        |record| {
            seen += 1;
            if seen == number {
                found = Some(record);
            }
        },
    )?;
    let record = found.ok_or_else(|| {
        Error::Usage(format!(
            "{} has no record {number} (--index counts from 1)",
            file.display()
        ))
    })?;
    let position = replay_record(&record, ply)?;
    let viewer = match seat {
        Some(seat) if seat < record.seats.len() => Viewer::Seat(seat),
        Some(seat) => {
            return Err(Error::Usage(format!(
                "no seat {seat} in a game of {}",
                record.seats.len()
            )));
        }
        None => Viewer::Everyone,
    };
    let svg = position.render_svg(viewer) + "\n";
    match output {
        Some(path) => std::fs::write(path, svg).map_err(|e| Error::write(path, e))?,
        None => stdout.write_all(svg.as_bytes())?,
    }
    Ok(Ended::Done)
}
