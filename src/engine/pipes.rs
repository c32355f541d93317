//! An engine's pipes read into bounded buffers: lines taken whole, never more than the longest
//! line allowed held at once.

use std::io::{self, ErrorKind, Read};

use super::talk::MAX_LINE;

/// How much is read from a pipe at a time.
pub(super) const CHUNK: usize = 64 * 1024;

/// Bytes read from a pipe and not yet taken as lines, in one buffer allocated at the first read
/// and reused: never cleared or grown, so a read costs no more than the bytes it brings.
#[derive(Default)]
pub(super) struct LineBuffer {
    bytes: Vec<u8>,
    start: usize,
    end: usize,
}

/// A line buffer's size: the longest line allowed and one more read.
const LINE_BUFFER: usize = MAX_LINE + CHUNK;

impl LineBuffer {
    /// The next whole line, without its newline (or the rest, at the end of the output).
    pub(super) fn take_line(&mut self, at_end: bool) -> Option<&[u8]> {
        let start = self.start;
        let rest = &self.bytes[start..self.end];
        let (len, used) = match rest.iter().position(|&b| b == b'\n') {
            Some(end) => (end, end + 1),
            None if at_end && !rest.is_empty() => (rest.len(), rest.len()),
            None => return None,
        };
        self.start += used;
        Some(&self.bytes[start..start + len])
    }

    pub(super) fn pending(&self) -> usize {
        self.end - self.start
    }

    /// Reads what `pipe` has now (at most one chunk); `Ok(false)` at its end. A full buffer
    /// (a line longer than the longest allowed, which the caller refuses) reads nothing.
    pub(super) fn fill(&mut self, pipe: &mut impl Read) -> io::Result<bool> {
        if self.bytes.is_empty() {
            self.bytes = vec![0; LINE_BUFFER];
        }
        if self.start > 0 {
            self.bytes.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        let room = (LINE_BUFFER - self.end).min(CHUNK);
        if room == 0 {
            return Ok(true);
        }
        match pipe.read(&mut self.bytes[self.end..self.end + room]) {
            Ok(n) => {
                self.end += n;
                Ok(n > 0)
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted) => {
                Ok(true)
            }
            Err(e) => Err(e),
        }
    }
}
