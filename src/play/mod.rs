//! Playing engines (whose processes are `crate::engine`'s): clocks, engine specs, openings, the
//! match loop, the checks of `check-engine`, and the schedules of matches and tournaments. The
//! match loop is four files: `config.rs` (what a run is given, and the errors that stop it),
//! `pools.rs` (engine processes kept between games), `table.rs` (one game's turn loop, with
//! `faults.rs`, the verdicts of engines' failures), and `arena.rs` (the games of a run, at once).

pub mod arena;
pub mod check;
pub mod clock;
pub mod codecup;
pub mod config;
mod faults;
pub mod live;
pub mod openings;
mod player;
mod pools;
pub mod schedule;
pub mod secret;
pub mod spec;
mod table;
