//! `referee render`: the SVG picture of one position of one game of a records file.

use std::io::Write;
use std::path::PathBuf;

use crate::cli::args::RenderArgs;
use crate::cli::error::{CommandResult, Ended, Error};
use crate::records::file::read_all;
use crate::records::replay::replay_record;
use crate::render::board::Picture;
use crate::rules::game::Viewer;

/// Draws game `--index` (from 1, each game counted once) of the file after `--ply` plies (the
/// end when not given), as everyone sees it or as `--seat` does, to `--out` or `stdout`.
pub fn run(args: RenderArgs, stdout: &mut dyn Write) -> CommandResult {
    let (file, number) = (&args.file, args.index);
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
    let position = replay_record(&record, args.ply)?;
    let viewer = match args.seat {
        Some(seat) if seat < record.seats.len() => Viewer::Seat(seat),
        Some(seat) => {
            return Err(Error::Usage(format!(
                "no seat {seat} in a game of {}",
                record.seats.len()
            )));
        }
        None => Viewer::Everyone,
    };
    let names: Vec<String> = record.seats.iter().map(|s| s.name.clone()).collect();
    let svg = position.svg_named(viewer, &names) + "\n";
    match &args.output {
        Some(path) => std::fs::write(path, svg).map_err(|e| Error::write(path, e))?,
        None => stdout.write_all(svg.as_bytes())?,
    }
    Ok(Ended::Done)
}
