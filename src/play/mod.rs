//! Playing engines: their processes and pipes, clocks, the match loop, and the schedules of
//! matches and tournaments.

pub mod arena;
pub mod check;
pub mod clock;
pub mod codecup;
pub mod engine;
pub mod limits;
pub mod openings;
pub mod process;
pub mod progress;
pub mod progress_file;
pub mod run;
pub mod sandbox;
pub mod schedule;
pub mod seccomp;
pub mod secret;
pub mod spec;
