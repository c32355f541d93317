//! The `referee` binary: parses the command line, calls the library, maps errors to exit codes.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;

use cli::{Cli, Command, ImportFormat};
use referee::import::{self, Source};

/// Exit status when records are invalid or a transcript does not replay.
const INVALID: u8 = 1;
/// Exit status when the work could not be done at all (unreadable input, I/O error).
const FAILURE: u8 = 2;

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("referee: {error:#}");
            ExitCode::from(FAILURE)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Session => {
            referee::session::run(io::stdin().lock(), io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Validate { files, json } => {
            let report = referee::validate::validate_files(&files);
            let mut out = io::stdout().lock();
            if json {
                serde_json::to_writer(&mut out, &report)?;
                writeln!(out)?;
            } else {
                writeln!(out, "{report}")?;
            }
            let unreadable = report
                .problems
                .iter()
                .any(|p| p.kind == referee::validate::ProblemKind::Unreadable);
            Ok(match (report.ok(), unreadable) {
                (true, _) => ExitCode::SUCCESS,
                (false, true) => ExitCode::from(FAILURE),
                (false, false) => ExitCode::from(INVALID),
            })
        }
        Command::Import { from, file, output } => {
            let text = if file.as_os_str() == "-" {
                io::read_to_string(io::stdin())
            } else {
                std::fs::read_to_string(&file)
            }
            .with_context(|| format!("cannot read {}", file.display()))?;
            let source = match from {
                ImportFormat::Codecup => Source::CodeCup,
                ImportFormat::Littlegolem => Source::LittleGolem,
            };
            let mut lines = String::new();
            let mut failed = false;
            for result in import::import(source, &text) {
                match result {
                    Ok(record) => {
                        lines.push_str(&serde_json::to_string(&record)?);
                        lines.push('\n');
                    }
                    Err(e) => {
                        eprintln!("{}:{e}", file.display());
                        failed = true;
                    }
                }
            }
            match output {
                Some(path) => std::fs::write(&path, lines)
                    .with_context(|| format!("cannot write {}", path.display()))?,
                None => io::stdout().lock().write_all(lines.as_bytes())?,
            }
            Ok(if failed {
                ExitCode::from(INVALID)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Schema => {
            println!("{}", referee::record::schema());
            Ok(ExitCode::SUCCESS)
        }
    }
}
