//! `referee import`: real DVONN transcripts turned into records.

use std::io::{self, Write};
use std::path::Path;

use crate::cli::args::ImportFormat;
use crate::cli::error::{CommandResult, Ended, Error};
use crate::records::import::{Source, import};

/// The records of `file` (`-` for standard input), one per line, to `output` or `stdout`; each
/// transcript that does not replay is told on stderr, and the run ends [`Ended::Invalid`].
pub fn run(
    from: ImportFormat,
    file: &Path,
    output: Option<&Path>,
    stdout: &mut dyn Write,
) -> CommandResult {
    let source = match from {
        ImportFormat::Codecup => Source::CodeCup,
        ImportFormat::Littlegolem => Source::LittleGolem,
    };
    let text = if file.as_os_str() == "-" {
        io::read_to_string(io::stdin())
    } else {
        std::fs::read_to_string(file)
    }
    .map_err(|e| Error::read(file, e))?;
    let mut lines = String::new();
    let mut ended = Ended::Done;
    for result in import(source, &text) {
        match result {
            Ok(record) => {
                // A record is plain data: it always serialises.
                lines.push_str(&serde_json::to_string(&record).unwrap_or_default());
                lines.push('\n');
            }
            Err(e) => {
                let problem = format!("{}:{e}", file.display());
                eprintln!("{}", crate::protocol::terminal_safe(&problem));
                ended = Ended::Invalid;
            }
        }
    }
    match output {
        Some(path) => std::fs::write(path, lines).map_err(|e| Error::write(path, e))?,
        None => stdout.write_all(lines.as_bytes())?,
    }
    Ok(ended)
}
