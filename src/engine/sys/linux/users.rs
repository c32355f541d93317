//! A user of its own for each sandboxed engine of a root referee, so that no engine's processes,
//! process count, signals, files or shared memory are another's: a block of user ids claimed for
//! the run's life, one id per engine spec.
//!
//! Referees running side by side (shards on one machine) each claim a block of their own: the
//! claim is an exclusive `flock` on `/run/referee/users-N`, which the kernel drops when the
//! referee ends, however it ends, so no block outlives its run and none is handed out twice.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::Path;

/// The first user id of the first block: above the ranges that distributions, systemd and
/// container managers hand out (systemd's container ranges end at 0x6FFEFFFF), below 2^31.
pub const FIRST_UID: u32 = 0x7F00_0000;

/// How many engine specs a block has ids for.
pub const BLOCK: u32 = 256;

/// How many blocks there are: this many referees may run side by side on one machine.
pub const BLOCKS: u32 = 1024;

/// Where the claims are kept: a directory only root may write to.
const CLAIMS: &str = "/run/referee";

/// A block of user ids claimed for this run.
#[derive(Debug)]
pub struct EngineUsers {
    first: u32,
    /// The locked claim file: the block is this run's while it is open.
    _claim: File,
}

impl EngineUsers {
    /// Claims the first free block.
    pub fn claim() -> io::Result<EngineUsers> {
        DirBuilder::new()
            .recursive(true)
            .mode(0o755)
            .create(CLAIMS)?;
        for block in 0..BLOCKS {
            let path = Path::new(CLAIMS).join(format!("users-{block}"));
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .mode(0o600)
                .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
                .open(&path)?;
            match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => {
                    return Ok(EngineUsers {
                        first: FIRST_UID + block * BLOCK,
                        _claim: file,
                    });
                }
                Err(rustix::io::Errno::WOULDBLOCK) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Err(io::Error::other(format!(
            "all {BLOCKS} blocks of engine users in {CLAIMS} are taken by running referees"
        )))
    }

    /// The user and group of engine spec `spec`, the same number for both; `None` past the
    /// block.
    pub fn of(&self, spec: usize) -> Option<(u32, u32)> {
        let spec = u32::try_from(spec).ok().filter(|&s| s < BLOCK)?;
        let id = self.first + spec;
        Some((id, id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_held_at_once_get_different_blocks() {
        if !nix::unistd::geteuid().is_root() {
            return;
        }
        let a = EngineUsers::claim().unwrap();
        let b = EngineUsers::claim().unwrap();
        assert_ne!(a.first, b.first);
        assert_eq!(a.of(1), Some((a.first + 1, a.first + 1)));
        assert_eq!(a.of(BLOCK as usize), None);
        drop(a);
        let c = EngineUsers::claim().unwrap();
        assert_ne!(c.first, b.first);
    }
}
