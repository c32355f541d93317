//! Every platform but Linux, and Linux built with the `portable` feature: engines are the
//! standard library's processes, their pipes carried by threads. What only Linux offers here
//! (the sandbox, cgroups, engine users, pinning to a CPU, freezing) is refused where asked for.

mod child;
mod job;
pub mod process;
pub mod refused;
pub mod start;

pub(in crate::engine) use child::Child;
pub use refused::{cgroup, sandbox, seccomp, users};
pub use start::refusal;

/// The platform's name, for the messages that refuse what it cannot do.
pub const PLATFORM: &str = if cfg!(target_os = "linux") {
    "this build (the portable one)"
} else if cfg!(target_os = "macos") {
    "macOS"
} else if cfg!(windows) {
    "Windows"
} else {
    "this platform"
};

/// The process group an engine's process leads (on Unix it leads one of its own; elsewhere the
/// process id stands for it).
fn group_of(pid: u32) -> i32 {
    i32::try_from(pid).unwrap_or(i32::MAX)
}

/// Kills an engine's process and, where the platform has process groups, its group.
fn kill_tree(process: &mut std::process::Child) {
    process::kill_group(group_of(process.id()));
    let _ = process.kill();
}
