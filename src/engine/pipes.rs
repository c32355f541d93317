//! An engine's pipes read into bounded buffers: lines taken whole, never more than the longest
//! line allowed held at once.

use std::io::{self, ErrorKind, Read};

/// The longest line read from an engine; a longer one is a protocol error, not a memory hazard.
pub const MAX_LINE: usize = 64 * 1024;

/// How much is read from a pipe at a time.
pub(super) const CHUNK: usize = 64 * 1024;

/// Bytes read from a pipe and not yet taken as lines, in one reused buffer that starts at a page
/// and doubles only when a line fills it (up to [`LINE_BUFFER`]): an engine that writes short
/// lines never has the rest of the bound allocated and zeroed (32 pages an engine, each a page
/// fault at its start).
#[derive(Default)]
pub(super) struct LineBuffer {
    bytes: Vec<u8>,
    start: usize,
    end: usize,
}

/// A line buffer's largest size: the longest line allowed and one more read.
const LINE_BUFFER: usize = MAX_LINE + CHUNK;

/// A line buffer's first size.
const FIRST_BUFFER: usize = 4096;

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
        if self.start > 0 {
            self.bytes.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.bytes.len() && self.bytes.len() < LINE_BUFFER {
            let size = (self.bytes.len() * 2).clamp(FIRST_BUFFER, LINE_BUFFER);
            self.bytes.resize(size, 0);
        }
        let room = (self.bytes.len() - self.end).min(CHUNK);
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A pipe that hands out its bytes in the given pieces, one piece (or what fits) a read.
    struct Pieces {
        pieces: Vec<Vec<u8>>,
    }

    impl Read for Pieces {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some(piece) = self.pieces.first_mut() else {
                return Ok(0);
            };
            let n = piece.len().min(buf.len());
            buf[..n].copy_from_slice(&piece[..n]);
            piece.drain(..n);
            if piece.is_empty() {
                self.pieces.remove(0);
            }
            Ok(n)
        }
    }

    /// Reads `pipe` to its end as the engine's reader does: the lines taken, or `None` where a
    /// line went past the bound.
    fn lines_of(pipe: &mut Pieces) -> Vec<Option<Vec<u8>>> {
        let mut buffer = LineBuffer::default();
        let mut lines = Vec::new();
        let mut open = true;
        loop {
            assert!(
                buffer.bytes.len() <= LINE_BUFFER,
                "the buffer outgrew its bound"
            );
            if let Some(line) = buffer.take_line(!open) {
                lines.push((line.len() <= MAX_LINE).then(|| line.to_vec()));
                continue;
            }
            if buffer.pending() > MAX_LINE {
                lines.push(None);
                return lines;
            }
            if !open {
                return lines;
            }
            open = buffer.fill(pipe).expect("an in-memory pipe");
        }
    }

    #[test]
    fn a_line_past_the_bound_is_refused_with_the_buffer_at_its_largest() {
        let mut long = vec![b'x'; MAX_LINE + 1];
        long.push(b'\n');
        let mut pipe = Pieces {
            pieces: vec![b"short\n".to_vec(), long],
        };
        assert_eq!(lines_of(&mut pipe), vec![Some(b"short".to_vec()), None]);
        let mut whole = vec![b'y'; MAX_LINE];
        whole.push(b'\n');
        let mut pipe = Pieces {
            pieces: vec![whole.clone()],
        };
        assert_eq!(lines_of(&mut pipe), vec![Some(whole[..MAX_LINE].to_vec())]);
    }

    #[test]
    fn short_lines_keep_the_buffer_at_its_first_size() {
        let mut buffer = LineBuffer::default();
        let mut pipe = Pieces {
            pieces: (0..1000).map(|i| format!("= {i}\n").into_bytes()).collect(),
        };
        while buffer.fill(&mut pipe).expect("an in-memory pipe") {
            while buffer.take_line(false).is_some() {}
        }
        assert_eq!(buffer.bytes.len(), FIRST_BUFFER);
    }

    proptest! {
        #![proptest_config(crate::proptest_cases::config(2000))]

        /// However the bytes arrive, the lines taken are the text's lines.
        #[test]
        fn lines_are_the_texts_whatever_the_reads(
            lines in proptest::collection::vec(0..20_000usize, 0..12),
            cuts in proptest::collection::vec(1..40_000usize, 1..20),
        ) {
            let text: Vec<u8> = lines
                .iter()
                .enumerate()
                .flat_map(|(i, &len)| {
                    let mut line = vec![b'a' + (i % 26) as u8; len];
                    line.push(b'\n');
                    line
                })
                .collect();
            let mut pieces = Vec::new();
            let (mut at, mut cut) = (0, 0);
            while at < text.len() {
                let n = cuts[cut % cuts.len()].min(text.len() - at);
                pieces.push(text[at..at + n].to_vec());
                (at, cut) = (at + n, cut + 1);
            }
            let expected: Vec<_> = text
                .split(|&b| b == b'\n')
                .take(lines.len())
                .map(|line| Some(line.to_vec()))
                .collect();
            prop_assert_eq!(lines_of(&mut Pieces { pieces }), expected);
        }
    }
}
