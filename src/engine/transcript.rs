//! A game's transcript: every engine's traffic and stderr, timestamped, kept in memory while the
//! game runs and written to a private file when it ends.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// A timestamped transcript of one game's engine traffic, shared by the engines of the game, kept
/// in memory and written to its file only when the game ends, so that no engine can read it (and
/// the hidden cards in it) while the game runs. Capped in size: past the cap, lines are counted,
/// not kept.
#[derive(Clone)]
pub struct Transcript(Arc<Mutex<TranscriptFile>>);

struct TranscriptFile {
    path: PathBuf,
    start: Instant,
    text: Vec<u8>,
    limit: u64,
    dropped: u64,
    written: bool,
}

impl Transcript {
    /// A transcript to be written to `path` (readable by its owner only) when the game ends,
    /// keeping at most `limit` bytes of lines.
    pub fn create(path: &Path, limit: u64) -> Transcript {
        Transcript(Arc::new(Mutex::new(TranscriptFile {
            path: path.to_owned(),
            start: Instant::now(),
            text: Vec::new(),
            limit,
            dropped: 0,
            written: false,
        })))
    }

    /// Appends `engine MARK text` with the time since the transcript began; `<` is sent to the
    /// engine, `>` came from it, `!` is its stderr, `#` is the referee's note.
    pub fn line(&self, engine: &str, mark: char, text: &str) {
        let mut inner = lock(&self.0);
        let ms = inner.start.elapsed().as_secs_f64() * 1e3;
        let line = format!("{ms:>12.3} {engine} {mark} {text}\n");
        // The referee's own notes (the result) are always kept.
        if mark != '#' && (inner.text.len() + line.len()) as u64 > inner.limit {
            inner.dropped += 1;
            return;
        }
        inner.text.extend_from_slice(line.as_bytes());
    }

    /// Writes the file: what was kept, and how many lines the cap dropped, if any. Only the first
    /// call writes; a transcript not finished is written when its last handle is dropped.
    pub fn finish(&self) -> io::Result<()> {
        lock(&self.0).write()
    }
}

impl TranscriptFile {
    fn write(&mut self) -> io::Result<()> {
        if std::mem::replace(&mut self.written, true) {
            return Ok(());
        }
        if self.dropped > 0 {
            let note = format!(
                "{:>12} referee # {} lines dropped past the transcript's limit of {} bytes\n",
                "", self.dropped, self.limit
            );
            self.text.extend_from_slice(note.as_bytes());
        }
        let mut file = crate::sys::owner_only(&mut std::fs::OpenOptions::new())
            .write(true)
            .create(true)
            .truncate(true)
            .open(&self.path)?;
        file.write_all(&self.text)?;
        self.text = Vec::new();
        Ok(())
    }
}

impl Drop for TranscriptFile {
    fn drop(&mut self) {
        // A transcript is a debugging aid: failing to write one must not stop a run.
        let _ = self.write();
    }
}

/// Locks a mutex even if a thread panicked while holding it: the data is append-only text.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
