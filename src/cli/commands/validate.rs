//! `referee validate`: every record replayed under the rules, each problem written as it is found.

use std::io::Write;

use crate::cli::error::{CommandResult, Ended};
use crate::records::validate::{Problem, Report, validate_files};

/// `referee validate`: each problem on `stdout` as it is found, then the summary, as text or as
/// one JSON object (`problems` first, streamed); ends [`Ended::Invalid`] when a record is invalid,
/// and fails when a file cannot be read.
pub fn run(paths: &[std::path::PathBuf], json: bool, stdout: &mut dyn Write) -> CommandResult {
    // The first write error is kept and returned once the files are read.
    let mut failed: Option<std::io::Error> = None;
    let mut first = true;
    if json {
        write!(stdout, "{{\"problems\":[")?;
    }
    let ((records, valid, plies), summary, problems, unreadable) = {
        let sink = |problem: Problem| {
            if failed.is_some() {
                return;
            }
            let written = match json {
                true => serde_json::to_string(&problem)
                    .map_err(std::io::Error::from)
                    .and_then(|text| {
                        let comma = if std::mem::replace(&mut first, false) {
                            ""
                        } else {
                            ","
                        };
                        write!(stdout, "{comma}{text}")
                    }),
                // A problem quotes the file: shown, never sent to the terminal.
                false => writeln!(
                    stdout,
                    "{}",
                    crate::protocol::terminal_safe(&problem.to_string())
                ),
            };
            failed = written.err();
        };
        let mut report = Report::with_sink(sink);
        validate_files(paths, &mut report);
        let counts = (report.records, report.valid, report.plies);
        (
            counts,
            report.to_string(),
            report.problems,
            report.unreadable,
        )
    };
    if let Some(error) = failed {
        return Err(error.into());
    }
    if json {
        writeln!(
            stdout,
            "],\"records\":{records},\"valid\":{valid},\"plies\":{plies}}}"
        )?;
    } else {
        writeln!(stdout, "{summary}")?;
    }
    Ok(match (problems == 0, unreadable) {
        (true, _) => Ended::Done,
        (false, true) => Ended::Unreadable,
        (false, false) => Ended::Invalid,
    })
}
