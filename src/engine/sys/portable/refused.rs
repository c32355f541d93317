//! What only Linux offers, as it looks where it cannot be had: each asks nothing of the system
//! and says, where it is asked for, that it needs Linux.

/// Cgroups: none here.
pub mod cgroup {
    /// The referee's cgroups: never made here.
    pub enum Cgroups {}

    /// Why there are none.
    pub fn cgroups() -> Result<&'static Cgroups, &'static str> {
        Err("cgroups need Linux")
    }

    /// What holds the engines' processes together, in a sentence for the start of a run.
    pub fn describe() -> String {
        format!(
            "no cgroup on {}: each engine's process group is killed at game end; engines are not \
             frozen while others think",
            super::super::PLATFORM
        )
    }

    /// Nothing to release.
    pub fn release() {}
}

/// The sandbox: none here.
pub mod sandbox {
    use std::io;
    use std::path::{Path, PathBuf};

    /// A run's sandbox: never made here.
    #[derive(Debug)]
    pub enum Sandbox {}

    impl Sandbox {
        /// Refused: the sandbox is bubblewrap's, on Linux.
        pub fn new(
            _hidden: &[PathBuf],
            _dirs: &[Option<PathBuf>],
            _scratch: Option<&Path>,
        ) -> io::Result<Sandbox> {
            Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "sandbox=bwrap needs Linux; {} has no sandbox",
                    super::super::PLATFORM
                ),
            ))
        }
    }

    /// No advice: bubblewrap never runs here.
    pub fn start_hint(_detail: &str) -> Option<&'static str> {
        None
    }
}

/// Seccomp: none here.
pub mod seccomp {}

/// Engine users: none here.
pub mod users {
    /// The first of the user ids a root referee on Linux gives its sandboxed engines.
    pub const FIRST_UID: u32 = 0x7F00_0000;
}
