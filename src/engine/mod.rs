//! Engine processes, their own room below the match loop: started in a session of their own under
//! their limits (and in the sandbox when asked), talked to through bounded pipes with deadlines,
//! their traffic kept in a transcript, and killed whole with everything they started. What the
//! operating system does for that is in `sys/`; the conversation above it is the same everywhere.

mod command;
mod end;
mod ending;
pub mod limits;
mod pipes;
pub mod sys;
mod talk;
pub mod transcript;

pub use command::{EngineCommand, EngineError, Exit};
pub use ending::Ending;
pub use pipes::MAX_LINE;
pub use sys::start::Begun;
pub use sys::{cgroup, process, sandbox, seccomp, users};
pub use talk::{
    Engine, MAX_ANSWER_BYTES, MAX_ANSWER_LINES, OWN_DELAY_TOLERANCE, STDERR_TAIL_BYTES,
    STDERR_TAIL_LINES,
};
pub use transcript::Transcript;
