//! The errors a command can end with, and every exit status of the program, in one place.
//!
//! | status | meaning |
//! |---|---|
//! | 0 | the work was done (every record valid, every game imported) |
//! | 1 | the input is wrong: a record is invalid, a transcript does not replay, a move given to `moves` or `session --plain` fails |
//! | 2 | the work could not be done: bad arguments, unreadable files, an output that cannot be written |
//! | 3 | an engine could not be started (the first time it was needed) |
//! | 128 + N | signal N stopped a run (130 for INT, 143 for TERM); the standings so far were printed |

use std::io;
use std::path::PathBuf;

use crate::play::arena::MatchError;
use crate::play::clock::TimeControlError;
use crate::play::openings::OpeningsError;
use crate::play::schedule::ShardError;
use crate::play::spec::EngineSpecError;
use crate::records::file::{OutError, ReadError};
use crate::records::replay::ReplayError;
use crate::render::viewer::PageError;
use crate::rules::game::SetupError;
use crate::stats::elo::SprtError;

/// The exit status when the work was done.
pub const SUCCESS: u8 = 0;
/// The exit status when records are invalid or a transcript does not replay.
pub const INVALID: u8 = 1;
/// The exit status when the work could not be done.
pub const FAILURE: u8 = 2;
/// The exit status when an engine could not be started.
pub const ENGINE_FAILED: u8 = 3;

/// How a command that ran to its end ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Everything done, everything valid.
    Done,
    /// Done, and the input was found wrong (an invalid record, a transcript that does not replay).
    Invalid,
    /// Done as far as the input could be read: some of it could not be (a file of `validate`).
    Unreadable,
    /// A signal (its number) stopped a run; what finished before it was kept.
    Stopped(i32),
}

impl Ended {
    /// Its exit status.
    pub fn exit_status(self) -> u8 {
        match self {
            Ended::Done => SUCCESS,
            Ended::Invalid => INVALID,
            Ended::Unreadable => FAILURE,
            Ended::Stopped(signal) => u8::try_from(128 + signal).unwrap_or(130),
        }
    }
}

/// Why a command could not do its work (exit status 2, or 3 for an engine that cannot start).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Arguments that parse but do not fit together.
    #[error("{0}")]
    Usage(String),
    /// An `--engine` value.
    #[error(transparent)]
    EngineSpec(#[from] EngineSpecError),
    /// `procs=` for an engine that runs as root.
    #[error(transparent)]
    RootProcs(#[from] crate::play::spec::RootProcs),
    /// A `--tc` value.
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    /// A `--shard` value.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// An `--sprt` value.
    #[error(transparent)]
    Sprt(#[from] SprtError),
    /// Openings that cannot be read or used.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// A game that cannot be set up as asked.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A CodeCup engine in a run its protocol cannot play.
    #[error(transparent)]
    CodeCup(#[from] crate::play::codecup::CodeCupRefusal),
    /// A match that cannot run.
    #[error(transparent)]
    Match(#[from] MatchError),
    /// A records file that cannot be appended to.
    #[error(transparent)]
    Out(#[from] OutError),
    /// Records files that cannot be read through.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A run secret that cannot be read or made (status 2).
    #[error(transparent)]
    Secret(#[from] crate::play::secret::SecretError),
    /// Progress files that cannot be read or summed.
    #[error(transparent)]
    Progress(#[from] crate::cli::run::progress_file::ProgressError),
    /// A record to show that does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// Records for the viewer, one of which does not replay.
    #[error(transparent)]
    Page(#[from] PageError),
    /// `referee moves` given a game it cannot set up (status 2) or a move it cannot play (status 1).
    #[error(transparent)]
    Moves(#[from] crate::session::MovesError),
    /// Records that cannot be rated together.
    #[error(transparent)]
    Ratings(#[from] crate::stats::ratings::RatingsError),
    /// A named file that cannot be read or written.
    #[error("cannot {action} {path}: {source}")]
    File {
        /// `read` or `write`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Standard input or output failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl Error {
    /// A file that cannot be read.
    pub fn read(path: impl Into<PathBuf>, source: io::Error) -> Error {
        Error::File {
            action: "read",
            path: path.into(),
            source,
        }
    }

    /// A file that cannot be written.
    pub fn write(path: impl Into<PathBuf>, source: io::Error) -> Error {
        Error::File {
            action: "write",
            path: path.into(),
            source,
        }
    }

    /// Whether it is only standard output closed by its reader (`referee match | head`): no
    /// failure, and nothing to say.
    pub fn is_closed_output(&self) -> bool {
        let (Error::Io(io) | Error::Match(MatchError::Output(io))) = self else {
            return false;
        };
        io.kind() == io::ErrorKind::BrokenPipe
    }

    /// Its exit status.
    pub fn exit_status(&self) -> u8 {
        if self.is_closed_output() {
            SUCCESS
        } else if matches!(self, Error::Match(MatchError::EngineStart { .. })) {
            ENGINE_FAILED
        } else if matches!(self, Error::Moves(crate::session::MovesError::Move(_))) {
            INVALID
        } else {
            FAILURE
        }
    }
}

/// What a command returns.
pub type CommandResult = Result<Ended, Error>;

/// The exit status of a command's result.
pub fn exit_status(result: &CommandResult) -> u8 {
    match result {
        Ok(ended) => ended.exit_status(),
        Err(error) => error.exit_status(),
    }
}
