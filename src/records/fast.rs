//! A strict reader for record lines in the form the referee writes them: the `moves` array is
//! scanned in place, with no allocation per ply, and the rest is left to serde_json. A line it is
//! not sure of is declined, and the caller reads it with serde_json as before.
//!
//! Why it is exact: the array it accepts is a subset of what `Vec<Ply>` accepts (fixed key order,
//! no white space, no escapes, plain decimal numbers, an `info` object that serde_json reads as
//! one), and the rest of the line, with the array
//! replaced by `[]`, must parse as a [`Record`] with no plies. The first `,"moves":[` in a line is
//! never inside a string (a quote in a string is escaped), and in any object but the record itself
//! a `moves` key is refused by `deny_unknown_fields` or by the map's string values, so what
//! serde_json accepts here it accepts with the plies in place, and with the same values.

use memchr::memmem;

use crate::protocol::Info;
use crate::records::header;
use crate::records::scan::{integer, literal, number, plain_string_end};
use crate::records::{PlyText, Record};

/// The key the referee writes before the plies, after the tags.
const MOVES: &[u8] = b",\"moves\":";

/// Reads record lines in the referee's own form; reuses its buffer from line to line.
#[derive(Default)]
pub struct FastLines {
    /// The line without its plies.
    header: Vec<u8>,
}

impl FastLines {
    /// The record on `line` (its `moves` empty) and its plies, or `None` when the line is not in
    /// the referee's form and serde_json must read it (whether it is a record or not).
    pub fn read<'l>(&mut self, line: &'l [u8]) -> Option<(Record, Vec<PlyText<'l>>)> {
        let key = memmem::find(line, MOVES)?;
        let open = key + MOVES.len();
        // Checked as UTF-8 at once, not move by move (a call per move cost more than the whole).
        let text = std::str::from_utf8(&line[open..]).ok()?;
        let mut plies = Vec::with_capacity(line.len() / 64);
        let close = open + scan_plies(text, &mut plies)?;
        if let Some(record) = header::read(&line[..key], &line[close..]) {
            return Some((record, plies));
        }
        self.header.clear();
        self.header.extend_from_slice(&line[..open]);
        self.header.extend_from_slice(b"[]");
        self.header.extend_from_slice(&line[close..]);
        let record: Record = serde_json::from_slice(&self.header).ok()?;
        record.moves.is_empty().then_some((record, plies))
    }
}

/// Scans the array that starts `text`, pushing its plies; the index just past its `]`.
fn scan_plies<'l>(text: &'l str, plies: &mut Vec<PlyText<'l>>) -> Option<usize> {
    let line = text.as_bytes();
    let mut i = literal(line, 0, b"[")?;
    if line.get(i) == Some(&b']') {
        return Some(i + 1);
    }
    loop {
        i = literal(line, i, b"{\"ply\":")?;
        let (ply, next) = integer(line, i)?;
        i = next;
        let seat = match literal(line, i, b",\"seat\":") {
            Some(next) => {
                let (seat, next) = integer(line, next)?;
                i = next;
                Some(seat)
            }
            None => None,
        };
        i = literal(line, i, b",\"move\":\"")?;
        let end = plain_string_end(line, i)?;
        let mv = text.get(i..end)?;
        i = end + 1;
        // Times spent are never negative (a clock may be): such a line is left to serde_json,
        // which says why it is no record.
        if let Some(next) = literal(line, i, b",\"time_ms\":") {
            i = duration(line, next)?;
        }
        if let Some(next) = literal(line, i, b",\"clock_ms\":") {
            i = number(line, next)?;
        }
        if let Some(next) = literal(line, i, b",\"overrun_ms\":") {
            i = duration(line, next)?;
        }
        if let Some(next) = literal(line, i, b",\"referee_delay_ms\":") {
            i = duration(line, next)?;
        }
        if let Some(next) = literal(line, i, b",\"info\":") {
            i = info(line, next)?;
        }
        i = literal(line, i, b"}")?;
        plies.push(PlyText { ply, seat, mv });
        match line.get(i)? {
            b',' => i += 1,
            b']' => return Some(i + 1),
            _ => return None,
        }
    }
}

/// The index past the number at `line[at]`, which must not be negative.
fn duration(line: &[u8], at: usize) -> Option<usize> {
    match line.get(at) {
        Some(b'-') => None,
        _ => number(line, at),
    }
}

/// The index past the `info` object at `line[at]`, which must read as an [`Info`]: its end found
/// by counting braces outside strings (declined at any escape), then its value checked whole.
fn info(line: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    for (offset, &byte) in line.get(at..)?.iter().enumerate() {
        match byte {
            b'\\' => return None,
            b'"' => in_string = !in_string,
            _ if in_string => {}
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    let end = at + offset + 1;
                    serde_json::from_slice::<Info>(&line[at..end]).ok()?;
                    return Some(end);
                }
            }
            _ if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plies(array: &str) -> Option<Vec<(usize, Option<usize>, String)>> {
        let mut plies = Vec::new();
        let end = scan_plies(array, &mut plies)?;
        (end == array.len()).then(|| {
            plies
                .iter()
                .map(|p| (p.ply, p.seat, p.mv.to_owned()))
                .collect()
        })
    }

    #[test]
    fn reads_the_referees_own_form() {
        let array = r#"[{"ply":0,"seat":0,"move":"a1b2","time_ms":1.5,"clock_ms":59998.5},{"ply":1,"move":"7","overrun_ms":0.25}]"#;
        let expected = vec![(0, Some(0), "a1b2".to_owned()), (1, None, "7".to_owned())];
        assert_eq!(plies(array), Some(expected));
        assert_eq!(plies("[]"), Some(Vec::new()));
    }

    /// Each of these is either not JSON, or JSON that serde_json reads differently or refuses;
    /// all are left to serde_json.
    #[test]
    fn declines_anything_else() {
        for array in [
            r#"[{"ply":0,"move":"a\"1"}]"#,
            r#"[{"ply":0,"move":"a\u0031"}]"#,
            r#"[{"ply":01,"move":"a"}]"#,
            r#"[{"ply":-1,"move":"a"}]"#,
            r#"[{"ply":0.0,"move":"a"}]"#,
            r#"[{"ply":18446744073709551616,"move":"a"}]"#,
            r#"[{"ply":0,"move":"a","time_ms":1e400}]"#,
            r#"[{"ply":0,"move":"a","time_ms":.5}]"#,
            r#"[{"ply":0,"move":"a","time_ms":1.}]"#,
            r#"[{"ply":0,"move":"a","time_ms":00.5}]"#,
            r#"[{"ply":0,"move":"a","time_ms":1,"time_ms":2}]"#,
            r#"[{"ply":0,"move":"a","time_ms":-1}]"#,
            r#"[{"ply":0,"move":"a","overrun_ms":-0.5}]"#,
            r#"[{"ply":0,"move":"a","referee_delay_ms":-2}]"#,
            r#"[{"ply":0,"move":"a","extra":1}]"#,
            r#"[{"move":"a","ply":0}]"#,
            r#"[{"ply":0,"seat":null,"move":"a"}]"#,
            r#"[ {"ply":0,"move":"a"}]"#,
            r#"[{"ply":0,"move":"a"},]"#,
            r#"[{"ply":0,"move":"a"}"#,
            "[{\"ply\":0,\"move\":\"a\tb\"}]",
        ] {
            assert_eq!(plies(array), None, "{array}");
        }
    }

    mod properties {
        use proptest::prelude::*;

        use super::super::FastLines;
        use crate::protocol::Info;
        use crate::records::header;
        use crate::records::{End, FORMAT, GameResult, Ply, PlyText, Record, SeatInfo, VERSION};

        /// Text with what JSON must escape or what could fool the search for the plies.
        fn text() -> impl Strategy<Value = String> {
            prop_oneof![
                20 => "[a-h1-9]{1,6}",
                1 => "[a-z\"\\,:\\[\\]{} \u{1}\t\u{e9}\u{1F600}]{0,10}",
                1 => Just(",\"moves\":[".to_owned()),
                1 => Just(",\"moves\":[{\"ply\":0,\"move\":\"a\"}]".to_owned()),
            ]
        }

        /// A time as the referee writes it (to the microsecond), or any finite number.
        /// A clock: any finite number, usually a plausible one.
        fn time() -> impl Strategy<Value = Option<f64>> {
            prop_oneof![
                40 => Just(None),
                160 => (0u64..4_000_000_000).prop_map(|us| Some(us as f64 / 1000.0)),
                1 => any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Some),
            ]
        }

        /// A time spent: as [`time`], never below zero (a record with one is none).
        fn duration() -> impl Strategy<Value = Option<f64>> {
            time().prop_map(|t| t.map(f64::abs))
        }

        /// What an engine may say of its thinking, its texts sometimes needing escapes.
        fn info() -> impl Strategy<Value = Info> {
            let number = || prop::option::of(any::<u64>());
            (
                prop::option::of(any::<i64>()),
                (number(), number(), number()),
                prop::option::of(text()),
                prop::collection::btree_map("[a-z]{1,4}", text(), 0..3),
                prop::option::of(text()),
            )
                .prop_map(|(score, (depth, nodes, time), pv, keys, text)| Info {
                    score,
                    depth,
                    nodes,
                    time,
                    pv,
                    keys,
                    text,
                })
        }

        fn ply() -> impl Strategy<Value = Ply> {
            (
                prop_oneof![0usize..400, any::<usize>()],
                prop::option::of(0usize..6),
                prop_oneof![40 => "[a-h1-9]{1,6}", 1 => text()],
                (duration(), time(), duration(), duration()),
                prop_oneof![3 => Just(None), 1 => info().prop_map(Some)],
            )
                .prop_map(
                    |(ply, seat, mv, (time_ms, clock_ms, overrun_ms, referee_delay_ms), info)| {
                        Ply {
                            ply,
                            seat,
                            mv,
                            time_ms,
                            clock_ms,
                            overrun_ms,
                            referee_delay_ms,
                            info,
                        }
                    },
                )
        }

        fn record() -> impl Strategy<Value = Record> {
            (
                prop::collection::vec(text(), 1..4),
                prop::collection::btree_map(text(), text(), 0..4),
                prop::collection::vec(ply(), 0..40),
                (
                    any::<u64>(),
                    prop::option::of(text()),
                    prop::option::of(0usize..50),
                    prop::option::of(text()),
                ),
                prop::option::of(prop::collection::vec(0usize..4, 0..3)),
                prop::collection::vec(any::<i64>(), 0..4),
            )
                .prop_map(
                    |(names, tags, moves, (seed, setup, opening, variant), winners, scores)| {
                        Record {
                            format: FORMAT.to_owned(),
                            version: VERSION,
                            game: "dvonn".to_owned(),
                            variant,
                            seats: names.into_iter().map(|name| SeatInfo { name }).collect(),
                            seed,
                            setup,
                            tags,
                            moves,
                            opening,
                            faults: Vec::new(),
                            end: winners.as_ref().map(|_| End::Normal {}),
                            result: winners.map(|winners| GameResult { scores, winners }),
                        }
                    },
                )
        }

        /// One edit of a line: a byte inserted, removed or replaced by one that matters to JSON,
        /// anywhere, or among the fields before the plies, or among those after them.
        fn edit() -> impl Strategy<Value = (usize, u8, u8, u8)> {
            let bytes = b"  \n,\"\\[]{}:00123456789-.eE+tnx\x7f\xc3";
            let bytes = prop::sample::select(bytes.to_vec());
            (any::<usize>(), 0u8..4, bytes, 0u8..3)
        }

        proptest! {
            #![proptest_config(crate::proptest_cases::config(3000))]

            /// Whatever the fast path accepts, serde_json reads as the same record with the same
            /// plies; and it accepts the records the referee writes (moves that need no escape,
            /// times to the microsecond), so that it is the path taken.
            #[test]
            fn the_fast_path_reads_what_serde_json_reads(
                record in record(),
                edits in prop::collection::vec(edit(), 0..3),
            ) {
                let mut line = serde_json::to_vec(&record).unwrap();
                let plain_text = |t: &str| !t.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20);
                let plain = record.moves.iter().all(|p| {
                    plain_text(&p.mv)
                        && p.info.as_ref().is_none_or(|i| {
                            let texts = [&i.pv, &i.text];
                            texts.iter().all(|t| t.as_deref().is_none_or(plain_text))
                                && i.keys.values().all(|v| plain_text(v))
                        })
                        && [p.time_ms, p.clock_ms, p.overrun_ms, p.referee_delay_ms]
                            .iter()
                            .flatten()
                            .all(|t| (t * 1000.0).fract() == 0.0 && (0.0..4e6).contains(t))
                });
                if plain {
                    prop_assert!(FastLines::default().read(&line).is_some());
                }
                // And its header is read in place, not by serde_json, when its texts are plain.
                let header_texts = [&record.format, &record.game]
                    .into_iter()
                    .chain(record.variant.iter().chain(&record.setup))
                    .chain(record.seats.iter().map(|s| &s.name))
                    .chain(record.tags.iter().flat_map(|(k, v)| [k, v]));
                if header_texts.into_iter().all(|t| plain_text(t)) {
                    let empty = serde_json::to_vec(&Record { moves: Vec::new(), ..record.clone() }).unwrap();
                    let key = memchr::memmem::find(&empty, b",\"moves\":[]").unwrap();
                    let read = header::read(&empty[..key], &empty[key + 11..]);
                    prop_assert_eq!(read, Some(Record { moves: Vec::new(), ..record.clone() }));
                }
                for (at, how, byte, place) in edits {
                    let key = memchr::memmem::find(&line, b",\"moves\":").unwrap_or(0);
                    let after = memchr::memmem::rfind(&line, b"}]").map_or(0, |end| end + 2);
                    let at = match place {
                        0 => at % (line.len() + 1),
                        1 => at % (key + 1),
                        _ => after + at % (line.len() + 1 - after.min(line.len())),
                    };
                    match how {
                        0 => line.insert(at, byte),
                        1 if at < line.len() => {
                            line.remove(at);
                        }
                        _ if at < line.len() => line[at] = byte,
                        _ => {}
                    }
                }
                if let Some((header, plies)) = FastLines::default().read(&line) {
                    let full: Result<Record, _> = serde_json::from_slice(&line);
                    prop_assert!(full.is_ok(), "accepted what serde_json refuses: {}", String::from_utf8_lossy(&line));
                    let full = full.unwrap();
                    let texts: Vec<PlyText> = full.moves.iter().map(Ply::text).collect();
                    prop_assert_eq!(plies, texts);
                    prop_assert_eq!(header, Record { moves: Vec::new(), ..full });
                }
            }
        }
    }
}
