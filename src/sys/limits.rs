//! The referee's own limit of open files.

/// Raises the limit of open files to its hard limit, where the system has one (Unix); a server
/// with many clients needs a descriptor for each.
pub fn raise_open_files() {
    #[cfg(unix)]
    {
        use nix::sys::resource::{Resource, getrlimit, setrlimit};
        if let Ok((_, hard)) = getrlimit(Resource::RLIMIT_NOFILE) {
            let _ = setrlimit(Resource::RLIMIT_NOFILE, hard, hard);
        }
    }
}
