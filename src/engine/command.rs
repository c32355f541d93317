//! What an engine is to the referee (its command, user, limits, sandbox) and how talking to it
//! can fail (its exit, and the errors of the conversation).

use std::io;
use std::path::PathBuf;

use crate::engine::ending::Ending;
use crate::engine::limits::Limits;

/// How to start an engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineCommand {
    /// The name in records and standings.
    pub name: String,
    /// The command line: words split as a shell would (quotes, backslashes) and run directly, with
    /// no shell in between, so the engine's pipes are its own. Use `sh -c '...'` for shell syntax.
    pub command: String,
    /// The working directory, if not the referee's.
    pub dir: Option<PathBuf>,
    /// The resource limits it runs under.
    pub limits: Limits,
    /// The user and group it runs as (the referee must be root), if not the referee's.
    pub user: Option<(u32, u32)>,
    /// Whether it runs in the bubblewrap sandbox (see [`crate::engine::sys::sandbox`]).
    pub sandbox: bool,
    /// Variables of the referee's environment a sandboxed engine is given besides the few it
    /// always gets (`env=`); an engine outside the sandbox inherits the whole environment.
    pub pass_env: Vec<String>,
    /// Whether it is the human seat: it keeps the referee's standard input and output (the
    /// terminal) and speaks the protocol on descriptors 3 (commands in) and 4 (answers out).
    pub terminal: bool,
    /// The one CPU it runs on, set by a run with `--use-affinity`.
    pub cpu: Option<usize>,
    /// Whether it may think while it owes no answer (`ponder=yes`): a contained engine is frozen
    /// then otherwise (see `Engine::rest`).
    pub ponder: bool,
    /// Whether it runs in a cgroup of its own even uncontained (a run with `--clock cpu`, which
    /// reads its CPU time there).
    pub cgroup: bool,
}

/// How an exited engine ended, and what its limits say about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    /// How it ended.
    pub ending: Ending,
    /// The limit it ran into, or the limits it ran under (see [`Limits::explain`]).
    pub limits: Option<String>,
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.ending {
            Ending::Code(code) => write!(f, "exited with code {code}")?,
            Ending::Signal(signal) => {
                let name = crate::sys::signal_name(signal).unwrap_or("unknown");
                write!(f, "killed by signal {signal} ({name})")?;
            }
            Ending::Other => f.write_str("ended")?,
        }
        match &self.limits {
            Some(text) => write!(f, " ({text})"),
            None => Ok(()),
        }
    }
}

/// What went wrong talking to an engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The process could not be started.
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        source: io::Error,
    },
    /// No complete answer by the deadline.
    #[error("no answer by the deadline")]
    Timeout,
    /// The process ended.
    #[error("{0}")]
    Exited(Exit),
    /// Its output closed while the process kept running.
    #[error("closed its output but kept running")]
    ClosedOutput,
    /// It said something that is not a proper answer.
    #[error("{0}")]
    Protocol(String),
    /// The referee is stopping (an interrupt): nothing the engine did is at fault.
    #[error("the referee is stopping")]
    Stopping,
}
