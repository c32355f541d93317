//! Linux: engines started without copying the referee, in a session and process group of their
//! own under rlimits, a cgroup, a user and bubblewrap where asked, read blocking under a fuse.

pub mod cgroup;
mod child;
mod fuse;
pub mod process;
pub mod sandbox;
pub mod seccomp;
mod spawn;
pub mod start;
pub mod users;

pub(in crate::engine) use child::Child;

/// Why `command` cannot be run here: Linux runs every engine command.
pub fn refusal(_command: &crate::engine::EngineCommand) -> Option<String> {
    None
}
