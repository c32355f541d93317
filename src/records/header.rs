//! A strict reader for the fields of a record line around its plies, in the form and order the
//! referee writes them; anything else is declined and left to serde_json.
//!
//! Why it is exact: it accepts a subset of what serde_json accepts for a [`Record`] (each field
//! once, in the struct's order, no white space, strings with no escape, plain integers, an end
//! that is `normal`, no faults) and builds the same values, tags included (a later duplicate key
//! replaces an earlier one, as serde's map does). serde_json took a third of the fast path's time
//! on these few hundred bytes: a call and an allocation a key.

use std::collections::BTreeMap;

use crate::records::scan;
use crate::records::{End, GameResult, Record, SeatInfo};

/// The record whose line is `before` (up to the plies' key), its plies, then `after` (from just
/// past the plies' array): `moves` is left empty.
pub(super) fn read(before: &[u8], after: &[u8]) -> Option<Record> {
    let mut at = Cursor {
        text: before,
        at: 0,
    };
    at.literal(b"{\"format\":")?;
    let format = at.string()?;
    at.literal(b",\"version\":")?;
    let version = u32::try_from(at.unsigned()?).ok()?;
    at.literal(b",\"game\":")?;
    let game = at.string()?;
    let variant = at.optional(b",\"variant\":", Cursor::string)?;
    at.literal(b",\"seats\":")?;
    let seats = at.array(|at| {
        at.literal(b"{\"name\":")?;
        let name = at.string()?;
        at.literal(b"}")?;
        Some(SeatInfo { name })
    })?;
    at.literal(b",\"seed\":")?;
    let seed = at.unsigned()?;
    let setup = at.optional(b",\"setup\":", Cursor::string)?;
    let tags = at
        .optional(b",\"tags\":", Cursor::tags)?
        .unwrap_or_default();
    at.end()?;

    let mut at = Cursor { text: after, at: 0 };
    let opening = at.optional(b",\"opening\":", |at| usize::try_from(at.unsigned()?).ok())?;
    let result = at.optional(b",\"result\":", |at| {
        at.literal(b"{\"winners\":")?;
        let winners = at.array(|at| usize::try_from(at.unsigned()?).ok())?;
        at.literal(b",\"scores\":")?;
        let scores = at.array(Cursor::signed)?;
        at.literal(b"}")?;
        Some(GameResult { winners, scores })
    })?;
    let end = at.optional(b",\"end\":", |at| {
        at.literal(b"{\"reason\":\"normal\"}")?;
        Some(End::Normal {})
    })?;
    at.literal(b"}")?;
    at.end()?;
    Some(Record {
        format,
        version,
        game,
        variant,
        seats,
        seed,
        setup,
        tags,
        moves: Vec::new(),
        opening,
        faults: Vec::new(),
        result,
        end,
    })
}

/// A place in a line's bytes.
struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    /// Steps past `literal` if it is next.
    fn literal(&mut self, literal: &[u8]) -> Option<()> {
        let end = self.at.checked_add(literal.len())?;
        (self.text.get(self.at..end)? == literal).then(|| self.at = end)
    }

    /// The end of the text.
    fn end(&self) -> Option<()> {
        (self.at == self.text.len()).then_some(())
    }

    /// `Some(None)` when `key` is not next, `Some(Some(value))` when it is and `value` reads,
    /// `None` when it is and `value` does not.
    fn optional<T>(
        &mut self,
        key: &[u8],
        value: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<Option<T>> {
        match self.literal(key) {
            Some(()) => value(self).map(Some),
            None => Some(None),
        }
    }

    /// A string with nothing escaped and no control character, valid UTF-8.
    fn string(&mut self) -> Option<String> {
        self.literal(b"\"")?;
        let end = scan::plain_string_end(self.text, self.at)?;
        let text = std::str::from_utf8(&self.text[self.at..end]).ok()?;
        self.at = end + 1;
        Some(text.to_owned())
    }

    /// A JSON integer with no sign and no leading zero that fits a `u64` (and a `usize`).
    fn unsigned(&mut self) -> Option<u64> {
        let (value, end) = scan::integer(self.text, self.at)?;
        self.at = end;
        u64::try_from(value).ok()
    }

    /// A JSON integer with no leading zero that fits an `i64` (`-0` is declined).
    fn signed(&mut self) -> Option<i64> {
        if self.literal(b"-").is_none() {
            return i64::try_from(self.unsigned()?).ok();
        }
        let magnitude = self.unsigned()?;
        (magnitude != 0).then_some(())?;
        i64::try_from(-i128::from(magnitude)).ok()
    }

    /// `[item,item,...]`, or `[]`.
    fn array<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.literal(b"[")?;
        let mut items = Vec::new();
        if self.literal(b"]").is_some() {
            return Some(items);
        }
        loop {
            items.push(item(self)?);
            if self.literal(b"]").is_some() {
                return Some(items);
            }
            self.literal(b",")?;
        }
    }

    /// `{"key":"value",...}`, or `{}`.
    fn tags(&mut self) -> Option<BTreeMap<String, String>> {
        self.literal(b"{")?;
        let mut tags = BTreeMap::new();
        if self.literal(b"}").is_some() {
            return Some(tags);
        }
        loop {
            let key = self.string()?;
            self.literal(b":")?;
            tags.insert(key, self.string()?);
            if self.literal(b"}").is_some() {
                return Some(tags);
            }
            self.literal(b",")?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `read` of a line whose plies are `[]`, and serde_json's reading of it.
    fn both(line: &str) -> (Option<Record>, Option<Record>) {
        let key = line.find(",\"moves\":[]").expect("a line with no plies");
        let ours = read(&line.as_bytes()[..key], &line.as_bytes()[key + 11..]);
        (ours, serde_json::from_str(line).ok())
    }

    const SEATS: &str = r#"{"format":"referee-record","version":1,"game":"dvonn","seats":[{"name":"a"},{"name":"b"}],"seed":7"#;

    /// What it reads, serde_json reads the same; the edge cases of each kind of value.
    #[test]
    fn reads_what_serde_json_reads() {
        for rest in [
            r#","moves":[]}"#,
            r#","tags":{},"moves":[]}"#,
            r#","tags":{"game":"1","game":"2"},"moves":[]}"#,
            r#","setup":"","tags":{"":"é"},"moves":[],"opening":0}"#,
            r#","moves":[],"result":{"winners":[],"scores":[-9223372036854775808,9223372036854775807]}}"#,
            r#","moves":[],"result":{"winners":[1],"scores":[0,-1]},"end":{"reason":"normal"}}"#,
        ] {
            let (ours, serde) = both(&format!("{SEATS}{rest}"));
            assert!(ours.is_some(), "{rest}");
            assert_eq!(ours, serde, "{rest}");
        }
        let (ours, serde) = both(
            r#"{"format":"x","version":4294967295,"game":"","seats":[],"seed":18446744073709551615,"moves":[]}"#,
        );
        assert!(ours.is_some());
        assert_eq!(ours, serde);
    }

    /// Anything else is left to serde_json, which reads it or refuses it.
    #[test]
    fn declines_anything_else() {
        for rest in [
            r#","moves":[]} "#,
            r#","moves":[] }"#,
            r#","tags":{"a":"\u0031"},"moves":[]}"#,
            r#","tags":{"a":"b\"c"},"moves":[]}"#,
            ",\"tags\":{\"a\":\"b\tc\"},\"moves\":[]}",
            r#","tags":{"a":1},"moves":[]}"#,
            r#","tags":{"a":"b",},"moves":[]}"#,
            r#","moves":[],"opening":01}"#,
            r#","moves":[],"opening":-1}"#,
            r#","moves":[],"opening":1.0}"#,
            r#","moves":[],"result":{"winners":[0],"scores":[-0]}}"#,
            r#","moves":[],"result":{"winners":[0],"scores":[9223372036854775808]}}"#,
            r#","moves":[],"result":{"winners":[0],"scores":[-9223372036854775809]}}"#,
            r#","moves":[],"result":{"scores":[0],"winners":[0]}}"#,
            r#","moves":[],"end":{"reason":"normal"},"result":{"winners":[0],"scores":[0]}}"#,
            r#","moves":[],"end":{"reason":"resignation","seat":0}}"#,
            r#","moves":[],"faults":[]}"#,
            r#","moves":[],"extra":1}"#,
            r#","seed":8,"moves":[]}"#,
        ] {
            let line = format!("{SEATS}{rest}");
            assert_eq!(both(&line).0, None, "{line}");
        }
        let line =
            r#"{"format":"x","version":4294967296,"game":"","seats":[],"seed":1,"moves":[]}"#;
        assert_eq!(both(line).0, None);
        let line = "{\"format\":\"\u{1}\",\"version\":1,\"game\":\"\",\"seats\":[],\"seed\":1,\"moves\":[]}";
        assert_eq!(both(line).0, None);
    }
}
