//! The one room for the operating system: how an engine process is started, waited on, talked to
//! and ended, and what the referee does about its own stops, on the platform it runs on. Every
//! system-specific and `unsafe` line of the engine room is in here; the conversation above it
//! (`talk.rs`, `end.rs`) is the same everywhere.

#[cfg(all(target_os = "linux", not(feature = "portable")))]
mod linux;
#[cfg(any(not(target_os = "linux"), feature = "portable"))]
mod portable;
mod stop;

use std::time::{Duration, Instant};

#[cfg(all(target_os = "linux", not(feature = "portable")))]
use linux as platform;
#[cfg(any(not(target_os = "linux"), feature = "portable"))]
use portable as platform;

/// The platform's own calls that the stop makes.
use platform::process as os;

pub(in crate::engine) use platform::Child;
pub use platform::{cgroup, process, refusal, sandbox, seccomp, start, users};

impl crate::engine::Engine {
    /// Starts `command` ([`crate::engine::Engine::begin`], then [`start::Begun::finish`]), in
    /// `sandbox` (the run's, with the engine's spec number) when it asks for one.
    pub fn start(
        command: &crate::engine::EngineCommand,
        sandbox: Option<(&sandbox::Sandbox, usize)>,
        transcript: Option<crate::engine::Transcript>,
    ) -> Result<crate::engine::Engine, crate::engine::EngineError> {
        crate::engine::Engine::begin(command, sandbox, transcript)?.finish()
    }
}

/// `status` as every platform says it: by a signal (Unix), or with an exit code.
fn ending(status: std::process::ExitStatus) -> crate::engine::ending::Ending {
    use crate::engine::ending::Ending;
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Ending::Signal(signal);
        }
    }
    status.code().map_or(Ending::Other, Ending::Code)
}

/// Looks whether a process has ended (`ended`) every 2 ms until it has or `deadline` passes:
/// how it ended, if it did. For a wait with nothing to block on.
fn poll_ended<T>(deadline: Instant, mut ended: impl FnMut() -> Option<T>) -> Option<T> {
    loop {
        if let Some(ending) = ended() {
            return Some(ending);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// What a wait on an engine's pipes waits for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Want {
    /// Its output, to read.
    Output,
    /// Room in its input pipe, to write.
    Room,
}

/// What a wait found ready: the pipe waited for, its stderr, its exit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ready {
    /// The pipe the wait was for ([`Want`]).
    pub main: bool,
    /// Its stderr has something to read.
    pub err: bool,
    /// It has exited.
    pub exited: bool,
}
