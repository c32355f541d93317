//! Playing engines (whose processes are `crate::engine`'s): clocks, the match loop, and the
//! schedules of matches and tournaments.

pub mod arena;
pub mod check;
pub mod clock;
pub mod codecup;
pub mod openings;
pub mod progress;
pub mod progress_file;
pub mod run;
pub mod schedule;
pub mod secret;
pub mod spec;
