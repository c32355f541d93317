//! The live file of a run (`--live`): every game's start, plies and end appended as they happen,
//! one line each in one write, for `referee serve` to follow. It is a view of the run, not its
//! state: the records file stays the truth, and a live line that cannot be written is dropped.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::Mutex;

use crate::records::live::LiveEvent;

/// The live file, written by every game thread.
#[derive(Debug)]
pub struct LiveLog {
    file: Mutex<File>,
}

impl LiveLog {
    /// Creates (or empties) the live file at `path`, readable by its owner only: it holds every
    /// card as it is dealt.
    pub fn create(path: &Path) -> io::Result<LiveLog> {
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(path)?;
        Ok(LiveLog {
            file: Mutex::new(file),
        })
    }

    /// Appends `event` as one line, in one write so that a reader never sees half of one next to
    /// another thread's.
    pub fn write(&self, event: &LiveEvent) {
        let Ok(mut line) = serde_json::to_vec(event) else {
            return;
        };
        line.push(b'\n');
        if let Ok(mut file) = self.file.lock() {
            let _ = file.write_all(&line);
        }
    }
}
