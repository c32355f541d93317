//! Playing engines (whose processes are `crate::engine`'s): clocks, engine specs, openings, the
//! match loop, the checks of `check-engine`, and the schedules of matches and tournaments.

pub mod arena;
pub mod check;
pub mod clock;
pub mod codecup;
pub mod knockout;
pub mod openings;
pub mod schedule;
pub mod secret;
pub mod spec;
pub mod swiss;
