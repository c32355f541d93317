//! Records as PGN tag pairs, so that the chess rating tools (Ordo, BayesElo) read the results of
//! two-seat games: seat 0 is White, seat 1 Black; no moves, only the result. And PGN files read
//! back as such results, so that a chess list can be rated here.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, BufRead};

use super::{GameResult, Record};

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

/// The longest PGN line kept (the standard asks for at most 255 characters); a longer one is
/// read through and dropped, as movetext.
const MAX_PGN_LINE: usize = 64 << 10;

/// The tags kept of a game read from PGN (the others are not needed to rate it).
const KEPT_TAGS: [&str; 7] = [
    "White", "Black", "Result", "Game", "Variant", "Seed", "Event",
];

/// One game of a PGN file: where its tags began, and the tags a result needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The line (from 1) of its first tag, or of its movetext when it has no tags.
    pub line: usize,
    /// Its kept tags (White, Black, Result, Game, Variant, Seed and Event), values unescaped.
    pub tags: BTreeMap<String, String>,
}

impl PgnGame {
    /// As a finished two-seat record (White seat 0, Black seat 1): `None` for a game with no
    /// result (`*`, or none) or without both players. Its game is the `Game` tag (a PGN this
    /// referee wrote) or `pgn`.
    pub fn record(&self) -> Option<Record> {
        let tag = |name: &str| self.tags.get(name).map(String::as_str);
        let (white, black) = (tag("White")?, tag("Black")?);
        let winners = match tag("Result")? {
            "1-0" => vec![0],
            "0-1" => vec![1],
            "1/2-1/2" => vec![0, 1],
            _ => return None,
        };
        let result = GameResult {
            winners,
            scores: vec![0, 0],
        };
        let seed = tag("Seed").and_then(|s| s.parse().ok()).unwrap_or(0);
        let game = tag("Game").unwrap_or("pgn");
        let mut record = Record::result_only(game, &[white, black], seed, result);
        record.variant = tag("Variant").map(str::to_owned);
        (record.tags).insert("game".to_owned(), self.line.to_string());
        if let Some(event) = tag("Event") {
            (record.tags).insert("event".to_owned(), event.to_owned());
        }
        Some(record)
    }
}

/// Reads the games of a PGN file as they come, each handed to `each` once its tags and movetext
/// have been read: memory for one game's kept tags, however large the file. A tag line is
/// `[Name "value"]` at the start of a line outside a `{...}` comment; a tag line after movetext
/// starts the next game. Values are unescaped as PGN writes them (`\"`, `\\`) and as this
/// referee's export does (`%22`, `%5C`, `%5B`, `%5D`, `%25`), so an exported file reads back with
/// its names.
pub fn read_pgn(mut input: impl BufRead, mut each: impl FnMut(PgnGame)) -> io::Result<()> {
    let mut line = Vec::new();
    let mut number = 0;
    let mut game = PgnGame::default();
    let (mut in_tags, mut started, mut in_comment) = (false, false, false);
    while let Some(end) = crate::bounded::read_line(&mut input, &mut line, MAX_PGN_LINE)? {
        number += 1;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        let is_tag = !in_comment && text.starts_with('[') && end != crate::bounded::Line::TooLong;
        if is_tag {
            if started && !in_tags {
                each(std::mem::take(&mut game));
            }
            if !in_tags {
                game.line = number;
            }
            (in_tags, started) = (true, true);
            if let Some((name, value)) = tag_pair(text)
                && KEPT_TAGS.contains(&name)
            {
                game.tags.insert(name.to_owned(), value);
            }
            continue;
        }
        if text.is_empty() || text.starts_with('%') {
            continue;
        }
        if !started {
            game.line = number;
            started = true;
        }
        in_tags = false;
        in_comment = comment_after(text, in_comment);
    }
    if started {
        each(game);
    }
    Ok(())
}

/// Whether a `{...}` comment is open at the end of movetext `text`, given whether one was open at
/// its start (a `;` comment runs to the end of the line).
fn comment_after(text: &str, mut open: bool) -> bool {
    for c in text.chars() {
        match (open, c) {
            (false, '{') => open = true,
            (true, '}') => open = false,
            (false, ';') => break,
            _ => {}
        }
    }
    open
}

/// `[Name "value"]`: the name and the value unescaped; `None` for a line that is not one.
fn tag_pair(text: &str) -> Option<(&str, String)> {
    let inner = text.strip_prefix('[')?.trim_end().strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.extend(chars.next()),
            '%' => {
                let code: String = chars.clone().take(2).collect();
                match ["25", "22", "5C", "5B", "5D"]
                    .iter()
                    .position(|&e| e == code)
                {
                    Some(i) => {
                        value.push(['%', '"', '\\', '[', ']'][i]);
                        chars.nth(1);
                    }
                    None => value.push('%'),
                }
            }
            c => value.push(c),
        }
    }
    Some((name, value))
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

    fn games(text: &str) -> Vec<PgnGame> {
        let mut games = Vec::new();
        read_pgn(text.as_bytes(), |game| games.push(game)).unwrap();
        games
    }

    #[test]
    fn exported_games_read_back_with_their_names_and_results() {
        let draw = finished_record(&["a \"]q[", "b\\c%"], &[0, 1], 7);
        let won = finished_record(&["x", "y"], &[1], 8);
        let text = pgn_game(&draw, "g", 1, 1).unwrap() + &pgn_game(&won, "g", 2, 2).unwrap();
        let read = games(&text);
        assert_eq!(read.len(), 2);
        let (first, second) = (read[0].record().unwrap(), read[1].record().unwrap());
        assert_eq!(first.seats, draw.seats);
        assert_eq!(first.result, draw.result);
        assert_eq!((first.game.as_str(), first.seed), ("dvonn", 7));
        assert_eq!(second.seats, won.seats);
        assert_eq!(second.result, won.result);
    }

    #[test]
    fn comments_escapes_and_unfinished_games_are_read_as_pgn_means_them() {
        let text = "[Event \"x\"]\n[White \"A \\\"B\\\" C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n\n\
                    1. e4 {a comment\n[White \"not a tag\"]\n} e5 ; [Black \"no\"]\n1-0\n\n\
                    [White \"E\"]\n[Black \"F\"]\n[Result \"*\"]\n\n*\n\
                    [White \"G\"]\n[Result \"0-1\"]\n0-1\n";
        let read = games(text);
        assert_eq!(read.len(), 3, "{read:?}");
        let first = read[0].record().unwrap();
        assert_eq!(first.seats[0].name, "A \"B\" C");
        assert_eq!(first.seats[1].name, "D");
        assert_eq!(first.result.unwrap().winners, [0]);
        assert_eq!(read[1].line, 11);
        assert!(read[1].record().is_none(), "an unfinished game");
        assert!(read[2].record().is_none(), "no Black");
    }
}
