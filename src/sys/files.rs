//! Files only their owner may read, and whether two paths name one file. On Unix a file is
//! created with mode 0600; elsewhere it gets what its folder gives (on Windows, the folder's
//! access list), which the documents say.

use std::fs::{Metadata, OpenOptions};
use std::path::Path;

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

/// The permission bits of a file that users other than its owner may read or write, or `None`
/// if they may not. Elsewhere than Unix a file's access list is not read: always `None`.
pub fn open_to_others(meta: &Metadata) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        (mode & 0o077 != 0).then_some(mode)
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// Whether `a` and `b` name one existing file (the same device and inode on Unix; elsewhere the
/// same canonical path), however they are spelled.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        matches!(
            (std::fs::metadata(a), std::fs::metadata(b)),
            (Ok(a), Ok(b)) if (a.dev(), a.ino()) == (b.dev(), b.ino())
        )
    }
    #[cfg(not(unix))]
    {
        matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(a), Ok(b)) if a == b
        )
    }
}
