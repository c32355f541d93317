//! The one room for the operating system: how an engine process is started, waited on, talked to
//! and ended, and what the referee does about its own stops, on the platform it runs on. Every
//! system-specific and `unsafe` line of the engine room is in here; the conversation above it
//! (`talk.rs`, `end.rs`) is the same everywhere.

#[cfg(all(target_os = "linux", not(feature = "portable")))]
mod linux;
#[cfg(any(not(target_os = "linux"), feature = "portable"))]
mod portable;
mod stop;

#[cfg(all(target_os = "linux", not(feature = "portable")))]
use linux as platform;
#[cfg(any(not(target_os = "linux"), feature = "portable"))]
use portable as platform;

/// The platform's own calls that the stop makes.
use platform::process as os;

pub(in crate::engine) use platform::Child;
pub use platform::{cgroup, process, refusal, sandbox, seccomp, signal_name, start, users};

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
