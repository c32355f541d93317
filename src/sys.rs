//! What differs between operating systems outside the engine processes' own room (`engine/`):
//! files only their owner may read. On Unix a file is created with mode 0600; elsewhere it gets
//! what its folder gives (on Windows, the folder's access list), which the documents say.

use std::fs::OpenOptions;

/// `options` set to create a file only its owner may read and write (mode 0600 on Unix).
pub fn owner_only(options: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600)
    }
    #[cfg(not(unix))]
    {
        options
    }
}
