//! Engine processes, their own room below the match loop: started in a session of their own under
//! their limits (and in the sandbox when asked), talked to through bounded pipes with deadlines,
//! their traffic kept in a transcript, and killed whole with everything they started.

pub mod cgroup;
mod command;
mod end;
mod fuse;
pub mod limits;
mod pipes;
pub mod process;
pub mod sandbox;
pub mod seccomp;
mod spawn;
mod start;
mod talk;
pub mod transcript;
pub mod users;

pub use command::{EngineCommand, EngineError, Exit};
pub use start::Begun;
pub use talk::{
    Engine, MAX_ANSWER_BYTES, MAX_ANSWER_LINES, MAX_LINE, OWN_DELAY_TOLERANCE, STDERR_TAIL_BYTES,
    STDERR_TAIL_LINES,
};
pub use transcript::Transcript;
