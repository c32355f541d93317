//! Records as PGN tag pairs, so that the chess rating tools (Ordo, BayesElo) read the results of
//! two-seat games: seat 0 is White, seat 1 Black; no moves, only the result.

use std::fmt::Write as _;

use super::Record;

/// A PGN tag value, quoted. Ordo takes a tag's value as the text up to the first `"]` of its
/// line, without unescaping, so the PGN escape (`\"`) would cut a name such as `a"]x` short
/// and merge engines: instead `%`, `"`, `\`, `[` and `]` are written as `%25`, `%22`, `%5C`,
/// `%5B` and `%5D` (no tag line then holds another's `[White "`, and names stay distinct in
/// every reader); control characters are left out.
fn quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars().filter(|c| !c.is_control()) {
        match c {
            '%' | '"' | '\\' | '[' | ']' => {
                let _ = write!(out, "%{:02X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The game of `record` (line `line` of `file`, the `number`th exported) as PGN, or `None` for a
/// game that is unfinished or not of two seats.
pub fn pgn_game(record: &Record, file: &str, line: usize, number: usize) -> Option<String> {
    let result = record.result.as_ref()?;
    let [white, black] = record.seats.as_slice() else {
        return None;
    };
    let outcome = match result.winners.as_slice() {
        [0] => "1-0",
        [1] => "0-1",
        [0, 1] => "1/2-1/2",
        _ => return None,
    };
    let mut text = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(text, "[{name} {}]", quoted(value));
    };
    let event = record.tags.get("event").cloned();
    tag(
        "Event",
        &event.unwrap_or_else(|| format!("referee {}", record.game)),
    );
    tag("Site", "?");
    tag("Date", "????.??.??");
    tag("Round", &number.to_string());
    tag("White", &white.name);
    tag("Black", &black.name);
    tag("Result", outcome);
    tag("Game", &record.game);
    if let Some(variant) = &record.variant {
        tag("Variant", variant);
    }
    tag("Seed", &record.seed.to_string());
    tag("RecordFile", file);
    tag("RecordLine", &line.to_string());
    let _ = write!(text, "\n{outcome}\n\n");
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::finished_record;

    #[test]
    fn results_and_tags_are_written_as_pgn_reads_them() {
        let draw = finished_record(&["a \"]q[", "b\\c%"], &[0, 1], 7);
        let text = pgn_game(&draw, "g.jsonl", 3, 1).unwrap();
        assert!(
            text.contains("[White \"a %22%5Dq%5B\"]\n[Black \"b%5Cc%25\"]\n"),
            "{text}"
        );
        assert!(text.contains("[Result \"1/2-1/2\"]") && text.ends_with("\n1/2-1/2\n\n"));
        assert!(text.contains("[Seed \"7\"]\n[RecordFile \"g.jsonl\"]\n[RecordLine \"3\"]"));
        assert!(text.starts_with("[Event \"referee dvonn\"]"), "{text}");
        let mut named = draw.clone();
        named.tags.insert("event".into(), "Cup \"final\"".into());
        let text = pgn_game(&named, "g.jsonl", 3, 1).unwrap();
        assert!(text.starts_with("[Event \"Cup %22final%22\"]"), "{text}");
        let black = finished_record(&["a", "b"], &[1], 0);
        assert!(
            pgn_game(&black, "g", 1, 1)
                .unwrap()
                .contains("[Result \"0-1\"]")
        );
        assert!(pgn_game(&finished_record(&["a", "b", "c"], &[0], 0), "g", 1, 1).is_none());
        let mut unfinished = black;
        unfinished.result = None;
        assert!(pgn_game(&unfinished, "g", 1, 1).is_none());
    }
}
