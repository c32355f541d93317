//! The lexical pieces of a record line in the referee's own form (plain strings, integers, plain
//! numbers, literal bytes), read in place; each answers `None` where serde_json must read instead.

/// The longest number (`time_ms` and the like) read: always a finite `f64`.
const MAX_NUMBER: usize = 24;

/// The index past `text` when `line` has it at `at`. Of a length known when compiled, so that the
/// comparison is a few loads, not a call to `memcmp`.
#[inline(always)]
pub(super) fn literal<const N: usize>(line: &[u8], at: usize, text: &[u8; N]) -> Option<usize> {
    let end = at.checked_add(N)?;
    let found: &[u8; N] = line.get(at..end)?.try_into().ok()?;
    (found == text).then_some(end)
}

/// The index of the quote that ends the string whose text starts at `line[at]`, when nothing in
/// it is escaped and it holds no control character (which JSON forbids unescaped).
#[inline(always)]
pub(super) fn plain_string_end(line: &[u8], at: usize) -> Option<usize> {
    let length = (line.get(at..)?.iter()).position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
    (line[at + length] == b'"').then_some(at + length)
}

/// A JSON integer with no sign and no leading zero that fits a `usize`: its value and the index
/// past it.
#[inline]
pub(super) fn integer(line: &[u8], at: usize) -> Option<(usize, usize)> {
    let digits = digits(line, at);
    if digits == 0 || (digits > 1 && line[at] == b'0') {
        return None;
    }
    let value = line[at..at + digits].iter().try_fold(0usize, |n, &d| {
        n.checked_mul(10)?.checked_add(usize::from(d - b'0'))
    })?;
    Some((value, at + digits))
}

/// A JSON number with no exponent, of at most [`MAX_NUMBER`] bytes: `-?(0|[1-9][0-9]*)(.[0-9]+)?`.
#[inline]
pub(super) fn number(line: &[u8], at: usize) -> Option<usize> {
    let start = at + usize::from(line.get(at) == Some(&b'-'));
    let whole = digits(line, start);
    if whole == 0 || (whole > 1 && line[start] == b'0') {
        return None;
    }
    let mut end = start + whole;
    if line.get(end) == Some(&b'.') {
        let fraction = digits(line, end + 1);
        if fraction == 0 {
            return None;
        }
        end += 1 + fraction;
    }
    (end - at <= MAX_NUMBER).then_some(end)
}

/// How many ASCII digits `line` has from `at`.
#[inline]
fn digits(line: &[u8], at: usize) -> usize {
    let mut end = at;
    while line.get(end).is_some_and(u8::is_ascii_digit) {
        end += 1;
    }
    end - at
}
