//! The command line: clap types only; `main` turns them into library calls.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// A scriptable referee for DVONN (and, later, Double Dutch, Pegs, Wyx and DOUBLE).
///
/// Speaks a GTP-like protocol (see protocol.md), writes and checks JSON game records.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read protocol commands on stdin and answer on stdout, for scripts.
    ///
    /// Example: printf 'newgame dvonn\nplay D2\nlegal_moves\n' | referee session
    Session,
    /// Replay game records against the rules; exit 0 only when all are valid.
    ///
    /// Each problem is printed as FILE:LINE: ply N (seat S): what is wrong. Exit status: 0 all
    /// valid, 1 a record is invalid, 2 a file could not be read.
    Validate {
        /// Record files: `.jsonl` holds one record per line, `.json` one record (or several in a
        /// row); `-` reads JSON lines from stdin.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print a machine-readable JSON report instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Turn real DVONN transcripts into records, one JSON line per game.
    Import {
        /// The transcript's style.
        #[arg(long, value_enum)]
        from: ImportFormat,
        /// The transcript file (`-` for stdin).
        file: PathBuf,
        /// Write the records here instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print the JSON Schema of game records.
    Schema,
}

/// Transcript styles `import` reads.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ImportFormat {
    /// CodeCup 2011: `game N: D2 C1 ... PASS`, one game per line.
    Codecup,
    /// Little Golem: lower case, numbered (`25. a2b2 b3b2`), 49th placement omitted, `resign`.
    Littlegolem,
}
