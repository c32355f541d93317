//! Lines of bounded length from any `BufRead`: a line longer than the bound is read through and
//! dropped, never held, so hostile input costs no more memory than the bound.

use std::io::{self, BufRead};

/// How a line read by [`read_line`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// Kept whole; `newline` is false for a last line with no newline after it.
    Whole {
        /// Whether a newline ended it.
        newline: bool,
    },
    /// Longer than the bound: read through to its end and dropped.
    TooLong,
}

/// Reads one line into `line` (cleared first, without its newline), keeping at most `max` bytes;
/// `None` at the end of the input.
pub fn read_line(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<Line>> {
    line.clear();
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(if too_long {
                Some(Line::TooLong)
            } else if line.is_empty() {
                None
            } else {
                Some(Line::Whole { newline: false })
            });
        }
        let (part, newline) = match memchr::memchr(b'\n', chunk) {
            Some(end) => (&chunk[..end], true),
            None => (chunk, false),
        };
        if !too_long && line.len() + part.len() <= max {
            line.extend_from_slice(part);
        } else {
            too_long = true;
            line.clear();
        }
        let used = part.len() + usize::from(newline);
        input.consume(used);
        if newline {
            return Ok(Some(if too_long {
                Line::TooLong
            } else {
                Line::Whole { newline: true }
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_past_the_bound_are_dropped_and_the_next_one_read() {
        let mut input = io::BufReader::with_capacity(4, &b"abc\nabcdefgh\n\nlast"[..]);
        let mut line = Vec::new();
        let mut read = || {
            let end = read_line(&mut input, &mut line, 5).unwrap();
            (end, String::from_utf8(line.clone()).unwrap())
        };
        assert_eq!(read(), (Some(Line::Whole { newline: true }), "abc".into()));
        assert_eq!(read(), (Some(Line::TooLong), String::new()));
        assert_eq!(read(), (Some(Line::Whole { newline: true }), String::new()));
        assert_eq!(
            read(),
            (Some(Line::Whole { newline: false }), "last".into())
        );
        assert_eq!(read(), (None, String::new()));
    }
}
