//! Engine processes' lives with the standard library: listed while they run so that a stop kills
//! them all (their process groups on Unix) and none starts after it. No orphan is adopted: what an
//! engine leaves outside its group goes to the system.

use std::io;

pub use crate::engine::sys::stop::{
    begin_draining, draining, forget, stop_all, stopped_by, stopped_with_engine, stopping,
};

/// Kills the process group `group` leads (on Windows, the job made for process `group`).
pub(in crate::engine::sys) fn kill_group(group: i32) {
    #[cfg(unix)]
    {
        use nix::sys::signal::{Signal, killpg};
        let _ = killpg(nix::unistd::Pid::from_raw(group), Signal::SIGKILL);
    }
    super::job::kill(group);
}

/// Nothing escapes a group that could be found here.
pub(in crate::engine::sys) fn kill_escaped() {}

/// Nothing to adopt here.
pub fn adopt_orphans() {}

/// Nothing to reap here: the standard library reaps its own children.
pub fn reap_orphans() {}

/// Nothing to reap here.
pub fn reap_ended_orphans() {}

/// The CPUs there are, in order (none can be chosen here).
pub fn usable_cpus() -> io::Result<Vec<usize>> {
    Ok((0..std::thread::available_parallelism()?.get()).collect())
}

/// Pinning to a CPU (`--use-affinity`) needs Linux.
pub fn run_on(_cpu: usize) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        format!(
            "--use-affinity needs Linux; {} has no way to pin an engine",
            super::PLATFORM
        ),
    ))
}
