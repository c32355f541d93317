//! A file read as it grows, by another process than the one writing it: only whole lines, a line
//! still being written waiting for the next look, each line bounded, and a file emptied or
//! replaced (shorter than what was read) read again from its start.

use std::fs::File;
use std::io::{self, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::bounded::{self, Line};
use crate::records::file::MAX_RECORD_BYTES;

/// One line seen by [`Follow::read_new`].
pub enum Seen<'a> {
    /// A whole line: its number (from 1), where it starts in the file, and its bytes.
    Line {
        /// Its number, from 1.
        number: usize,
        /// Its first byte's offset in the file.
        offset: u64,
        /// Its bytes, without the newline.
        text: &'a [u8],
    },
    /// A line longer than [`MAX_RECORD_BYTES`], skipped.
    TooLong {
        /// Its number, from 1.
        number: usize,
    },
    /// The file had become shorter than what was read: what follows is read from its start.
    Restart,
}

/// Why a look at a followed file stopped.
#[derive(Debug, thiserror::Error)]
pub enum FollowError<E> {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The caller refused a line.
    #[error(transparent)]
    Line(E),
}

/// A file followed as it grows.
pub struct Follow {
    path: PathBuf,
    /// Bytes of whole lines read so far, and their count.
    read_to: u64,
    lines: usize,
    line: Vec<u8>,
}

impl Follow {
    /// Follows `path`, which need not exist yet.
    pub fn new(path: &Path) -> Follow {
        Follow {
            path: path.to_owned(),
            read_to: 0,
            lines: 0,
            line: Vec::new(),
        }
    }

    /// The file followed.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Gives `each` the whole lines written since the last look. `Ok(true)` when the file had
    /// become shorter than what was read, and was read again from its start.
    pub fn read_new<E>(
        &mut self,
        mut each: impl FnMut(Seen<'_>) -> Result<(), E>,
    ) -> Result<bool, FollowError<E>> {
        let io = |source| FollowError::Io {
            path: self.path.clone(),
            source,
        };
        let mut input = match File::open(&self.path) {
            Ok(input) => input,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(io(e)),
        };
        let shrank = input.metadata().map_err(io)?.len() < self.read_to;
        if shrank {
            (self.read_to, self.lines) = (0, 0);
            each(Seen::Restart).map_err(FollowError::Line)?;
        }
        input.seek(SeekFrom::Start(self.read_to)).map_err(io)?;
        let mut input = BufReader::new(input);
        loop {
            let end = bounded::read_line(&mut input, &mut self.line, MAX_RECORD_BYTES);
            let (offset, number) = (self.read_to, self.lines + 1);
            let seen = match end.map_err(io)? {
                None | Some(Line::Whole { newline: false }) => return Ok(shrank),
                // Read through to its newline, not held.
                Some(Line::TooLong) => {
                    self.read_to = input.stream_position().map_err(io)?;
                    Seen::TooLong { number }
                }
                Some(Line::Whole { newline: true }) => {
                    self.read_to += self.line.len() as u64 + 1;
                    Seen::Line {
                        number,
                        offset,
                        text: &self.line,
                    }
                }
            };
            self.lines = number;
            each(seen).map_err(FollowError::Line)?;
        }
    }
}
