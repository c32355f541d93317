//! A match's configuration and the errors that stop a run.

use std::path::PathBuf;
use std::time::Duration;

use crate::play::clock::TimeControl;
use crate::play::openings::Openings;
use crate::play::secret::Secret;
use crate::play::spec::EngineSpec;
use crate::rules::game::SetupError;

/// What happens to a game of three or more seats when one seat's engine is at fault.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnFault {
    /// The game ends; the faulty seat loses and every other seat shares the win.
    #[default]
    Forfeit,
    /// The game goes on: the referee plays random legal moves for the faulty seat, which cannot
    /// win. Games of two seats always forfeit.
    Substitute,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game's id.
    pub game: String,
    /// The variant, if any.
    pub variant: Option<String>,
    /// One engine per seat; seats rotate from game to game.
    pub engines: Vec<EngineSpec>,
    /// Play each seed once for every rotation of the seats (twice for two seats): duplicate play,
    /// so the luck of a deal cancels out.
    pub repeat: bool,
    /// The seed every game's seed is drawn from.
    pub seed: u64,
    /// The run's secret, from which every game's seed and engine seed are drawn instead, when
    /// there is one (games with hidden information).
    pub secret: Option<Secret>,
    /// The time control of engines without their own.
    pub tc: TimeControl,
    /// How long past its time an engine may stay silent before it is killed.
    pub margin: Duration,
    /// How late an answer may be and still count (`--timemargin`); the lateness is recorded.
    pub time_margin: Duration,
    /// Whether the clocks charge the CPU time of an engine's processes (`--clock cpu`) instead
    /// of the time that passes.
    pub cpu_clock: bool,
    /// How long an engine may take to start, answer the handshake, or set up a game.
    pub startup: Duration,
    /// Games played at once.
    pub concurrency: usize,
    /// With `--use-affinity`, the CPU of each of the `concurrency` game threads, on which it and
    /// the engines it starts run; empty otherwise.
    pub affinity: Vec<usize>,
    /// What a fault does to a game of three or more seats.
    pub on_fault: OnFault,
    /// Where per-game transcripts go, if anywhere.
    pub log_dir: Option<PathBuf>,
    /// The most bytes of engine traffic one game's transcript keeps.
    pub log_limit: u64,
    /// How games begin.
    pub openings: Openings,
    /// Where sandboxed engines get their scratch directories, kept after the run; a temporary
    /// directory, removed at the end, when `None`.
    pub scratch_dir: Option<PathBuf>,
    /// Files and directories of the run that sandboxed engines must not see (the records file);
    /// the transcripts' directory and the scratch directories are added to them.
    pub private: Vec<PathBuf>,
    /// Add the key [`PROBE_KEY`] to every `newgame` and `genmove` (`check-engine`: engines
    /// must ignore keys they do not know).
    pub probe_keys: bool,
    /// Where each game's start, plies and end go as they happen (`--live`), if anywhere.
    pub live: Option<std::sync::Arc<crate::play::live::LiveLog>>,
}

/// A run's time control where none is asked for (`--tc`'s default).
pub const DEFAULT_TC: &str = "10+0.1";
/// How long past its time an engine may stay silent, in milliseconds (`--margin`'s default).
pub const DEFAULT_MARGIN_MS: u64 = 500;
/// How long an engine may take to start or set up a game, in milliseconds (`--startup`'s
/// default).
pub const DEFAULT_STARTUP_MS: u64 = 5000;
/// The most bytes of engine traffic one game's transcript keeps (`--log-limit`'s default).
pub const DEFAULT_LOG_LIMIT: u64 = 4 << 20;

impl MatchConfig {
    /// A run of `game` between `engines`, its games drawn from `seed` under `tc`, every other
    /// setting at the default its flag shows: one game at a time, no openings, no transcripts,
    /// faults forfeit.
    pub fn new(game: &str, engines: Vec<EngineSpec>, seed: u64, tc: TimeControl) -> MatchConfig {
        MatchConfig {
            game: game.to_owned(),
            variant: None,
            engines,
            repeat: false,
            seed,
            secret: None,
            tc,
            margin: Duration::from_millis(DEFAULT_MARGIN_MS),
            time_margin: Duration::ZERO,
            cpu_clock: false,
            startup: Duration::from_millis(DEFAULT_STARTUP_MS),
            concurrency: 1,
            affinity: Vec::new(),
            on_fault: OnFault::Forfeit,
            log_dir: None,
            log_limit: DEFAULT_LOG_LIMIT,
            openings: Openings::None,
            scratch_dir: None,
            private: Vec::new(),
            probe_keys: false,
            live: None,
        }
    }
}

/// The key no engine knows, sent by `check-engine`.
pub const PROBE_KEY: &str = "probe=1";

/// Why a match cannot run.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The game cannot be set up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The engine count does not fit the game.
    #[error("{game} is played by {seats} seats: give {seats} engines, not {engines}")]
    EngineCount {
        /// The game.
        game: String,
        /// Its seats.
        seats: usize,
        /// The engines given.
        engines: usize,
    },
    /// The sandbox's scratch directories cannot be made.
    #[error("cannot make scratch directories in {path}: {source}")]
    Scratch {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A game thread could not be pinned to its CPU (`--use-affinity`).
    #[error("cannot run on CPU {cpu}: {reason}")]
    Affinity {
        /// The CPU.
        cpu: usize,
        /// Why.
        reason: String,
    },
    /// A transcript could not be written.
    #[error("cannot write the transcript {path}: {source}")]
    Log {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The caller's handling of a finished game failed (writing the records, say).
    #[error("{0}")]
    Output(#[from] std::io::Error),
    /// An engine failed to start the first time it was needed: its command or setup is wrong, and
    /// every game it plays would be forfeited, so the run stops.
    #[error("engine {name} cannot start: {detail}")]
    EngineStart {
        /// The engine.
        name: String,
        /// Why, with its last stderr lines.
        detail: String,
    },
    /// A signal stopped the run; the games under way were not finished and are not recorded.
    #[error("interrupted")]
    Interrupted,
    /// A records file whose games do not fit the run's schedule (a Swiss round paired otherwise).
    #[error("{0}")]
    NotThisRun(String),
}
