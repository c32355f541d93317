//! `import`: real DVONN transcripts (CodeCup and Little Golem styles) turned into records.

use std::collections::BTreeMap;

use crate::records::replay::Replay;
use crate::records::{End, Record};
use crate::rules::game::{Actor, Game, Setup};

/// Where a transcript comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// CodeCup 2011: one game per line, `game N:` then every ply in upper case, all 49
    /// placements, `PASS`; separated by spaces or, as the game pages list them, by commas.
    CodeCup,
    /// Little Golem: one game per file, header tags first (`Event [...] Site [...] White [...]
    /// Black [...]`), then lower case moves with move numbers like `25.`, the forced 49th
    /// placement omitted, `pass`, `resign`.
    LittleGolem,
}

/// A transcript that does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}: {message}")]
pub struct ImportError {
    /// The line of the transcript, from 1.
    pub line: usize,
    /// What is wrong, with the ply and seat when a move is.
    pub message: String,
}

/// Names of the two seats of an imported game, which transcripts do not carry.
const SEAT_NAMES: [&str; 2] = ["white", "black"];

/// Reads every game of `text`; each one becomes a record or an error.
pub fn import(source: Source, text: &str) -> Vec<Result<Record, ImportError>> {
    match source {
        Source::CodeCup => text
            .lines()
            .enumerate()
            // A `#` starts a comment; lines left blank hold no game.
            .map(|(index, line)| (index, line.split('#').next().unwrap_or("")))
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(index, line)| codecup_game(index + 1, line))
            .collect(),
        Source::LittleGolem => vec![little_golem_game(text)],
    }
}

fn codecup_game(line: usize, text: &str) -> Result<Record, ImportError> {
    let (name, moves) = match text.split_once(':') {
        Some((head, moves)) => (head.trim().strip_prefix("game").map(str::trim), moves),
        None => (None, text),
    };
    let mut replay = new_replay();
    let tokens = moves.split(|c: char| c == ',' || c.is_whitespace());
    for token in tokens.filter(|token| !token.is_empty()) {
        play(&mut replay, line, token)?;
    }
    let mut record = replay.record(&names(), None);
    record.tags.insert("source".into(), "codecup".into());
    if let Some(name) = name.filter(|n| !n.is_empty()) {
        record.tags.insert("codecup_game".into(), name.to_owned());
    }
    Ok(record)
}

fn little_golem_game(text: &str) -> Result<Record, ImportError> {
    let (tags, moves) = header_tags(text);
    let header_lines = text[..text.len() - moves.len()].matches('\n').count();
    let mut names = names();
    let mut record_tags = BTreeMap::new();
    for (key, value) in tags {
        match key.to_ascii_lowercase().as_str() {
            "white" => names[0] = value.to_owned(),
            "black" => names[1] = value.to_owned(),
            key => {
                record_tags.insert(key.to_owned(), value.to_owned());
            }
        }
    }
    let mut replay = new_replay();
    let mut end = None;
    for (index, line) in moves.lines().enumerate() {
        let line_number = header_lines + index + 1;
        for token in line.split_whitespace() {
            let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
            let token = token.strip_prefix('.').unwrap_or(token);
            if token.is_empty() {
                continue;
            }
            if end.is_some() {
                return Err(ImportError {
                    line: line_number,
                    message: format!("`{token}` after the resignation"),
                });
            }
            if token.eq_ignore_ascii_case("resign") {
                end = match replay.game().to_move() {
                    Some(Actor::Seat(seat)) => Some(End::Resignation { seat }),
                    _ => {
                        return Err(ImportError {
                            line: line_number,
                            message: "resign after the end of the game".into(),
                        });
                    }
                };
                continue;
            }
            // Little Golem plays the last placement itself and leaves it out of the transcript.
            if replay.game().ply() == 48 && token.len() == 4 {
                let mut last = Vec::new();
                replay.game().legal_moves(&mut last);
                if let [only] = last.as_slice() {
                    let only = only.to_string();
                    play(&mut replay, line_number, &only)?;
                }
            }
            play(&mut replay, line_number, token)?;
        }
    }
    let mut record = replay.record(&names, end);
    record.tags = record_tags;
    record.tags.insert("source".into(), "littlegolem".into());
    Ok(record)
}

/// The header tags at the start of a Little Golem transcript, as Little Golem writes them
/// (`Event [Tournament dvonn.mc.2014.may.1.1] Site [www.littlegolem.net]`, any number per line)
/// or as PGN does (`[White "name"]`), each with its value trimmed; and the text after them.
fn header_tags(text: &str) -> (Vec<(&str, &str)>, &str) {
    use nom::Parser;
    use nom::branch::alt;
    use nom::bytes::complete::{take_till, take_while1};
    use nom::character::complete::{char, multispace0, multispace1};
    use nom::multi::many0;
    use nom::sequence::{delimited, preceded, separated_pair};

    let key = || take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let little_golem = separated_pair(
        key(),
        multispace0,
        delimited(char('['), take_till(|c| c == ']'), char(']')),
    );
    let pgn = delimited(
        char('['),
        separated_pair(
            key(),
            multispace1,
            delimited(char('"'), take_till(|c| c == '"'), char('"')),
        ),
        preceded(multispace0, char(']')),
    );
    let mut tags = many0(preceded(multispace0, alt((little_golem, pgn))));
    let parsed: nom::IResult<&str, Vec<(&str, &str)>> = tags.parse(text);
    match parsed {
        Ok((rest, tags)) => {
            let tags = tags.into_iter().map(|(k, v)| (k, v.trim()));
            (tags.filter(|(_, v)| !v.is_empty()).collect(), rest)
        }
        Err(_) => (Vec::new(), text),
    }
}

fn new_replay() -> Replay {
    Replay::new("dvonn", &Setup::default()).expect("DVONN's default setup is valid")
}

fn names() -> Vec<String> {
    SEAT_NAMES.map(str::to_owned).to_vec()
}

fn play(replay: &mut Replay, line: usize, token: &str) -> Result<(), ImportError> {
    let ply = replay.game().ply();
    let seat = match replay.game().to_move() {
        Some(Actor::Seat(seat)) => seat.to_string(),
        _ => "none".to_owned(),
    };
    replay.play(token).map(|_| ()).map_err(|e| ImportError {
        line,
        message: format!("ply {ply} (seat {seat}): {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn little_golem_fills_in_the_49th_placement_and_reads_resign() {
        let (lg, moves) = little_golem_transcript("", 60, "resign\n");
        let records = import(Source::LittleGolem, &lg);
        let record = records[0].as_ref().unwrap();
        let plies: Vec<&str> = record.moves.iter().map(|p| p.mv.as_str()).collect();
        assert_eq!(plies, moves[..60]);
        // After 60 plies Black is to move, and resigns.
        assert_eq!(record.end, Some(End::Resignation { seat: 1 }));
        assert_eq!(record.result.as_ref().unwrap().winners, vec![0]);
    }

    #[test]
    fn bad_transcripts_name_line_ply_and_seat() {
        let err = import(Source::CodeCup, "\ngame 1: D2 D2\n")
            .remove(0)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "2: ply 1 (seat 1): illegal move D2: D2 is occupied"
        );
        let err = import(Source::CodeCup, "game 2: D2 Q9")
            .remove(0)
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("1: ply 1 (seat 1): cannot parse move `Q9`")
        );
    }

    /// The real CodeCup game as Little Golem would show it: header tags on one line, then
    /// numbered lower-case moves, the 49th placement left out.
    fn little_golem_transcript(header: &str, plies: usize, last: &str) -> (String, Vec<String>) {
        let codecup =
            std::fs::read_to_string("fixtures/dvonn/codecup-2011-game-53360.txt").unwrap();
        let moves: Vec<String> = codecup
            .split_whitespace()
            .skip(2)
            .map(String::from)
            .collect();
        let mut lg = format!("{header}\n");
        for (i, mv) in moves.iter().take(plies).enumerate() {
            if i == 48 {
                continue;
            }
            if i % 2 == 0 {
                lg.push_str(&format!("{}. ", i / 2 + 1));
            }
            lg.push_str(&mv.to_lowercase());
            lg.push(if i % 10 == 9 { '\n' } else { ' ' });
        }
        lg.push_str(last);
        (lg, moves[..plies].to_vec())
    }

    #[test]
    fn little_golem_headers_name_the_seats_and_become_tags() {
        let header = "Event [Tournament dvonn.mc.2014.may.1.1] Site [www.littlegolem.net] \
                      White [Ann Example] Black [bob_42]";
        let (lg, moves) = little_golem_transcript(header, 60, "resign\n");
        let record = import(Source::LittleGolem, &lg).remove(0).unwrap();
        let names: Vec<&str> = record.seats.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Ann Example", "bob_42"]);
        assert_eq!(record.tags["event"], "Tournament dvonn.mc.2014.may.1.1");
        assert_eq!(record.tags["site"], "www.littlegolem.net");
        assert_eq!(record.tags["source"], "littlegolem");
        let plies: Vec<&str> = record.moves.iter().map(|p| p.mv.as_str()).collect();
        assert_eq!(plies, moves);
        assert_eq!(record.end, Some(End::Resignation { seat: 1 }));

        // PGN-style tags, one per line, read the same.
        let header = "[Event \"dvonn.ch.12.1.1\"]\n[White \"ann\"]\n[Black \"bob\"]";
        let (lg, _) = little_golem_transcript(header, 60, "resign\n");
        let record = import(Source::LittleGolem, &lg).remove(0).unwrap();
        assert_eq!(record.seats[1].name, "bob");
        assert_eq!(record.tags["event"], "dvonn.ch.12.1.1");
    }

    #[test]
    fn a_bad_move_after_little_golem_headers_names_its_own_line() {
        // Three header lines, then moves ten plies a line: ply 12 is on line 5.
        let header = "Event [t]\nSite [www.littlegolem.net]\nWhite [a] Black [b]";
        let (mut lg, _) = little_golem_transcript(header, 12, "");
        lg.push_str("d2\n");
        let err = import(Source::LittleGolem, &lg).remove(0).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("5: ply 12 (seat 0): illegal move D2"),
            "{err}"
        );
    }

    #[test]
    fn codecup_comment_lines_are_no_games() {
        let codecup =
            std::fs::read_to_string("fixtures/dvonn/codecup-2011-game-53360.txt").unwrap();
        let text = format!("# CodeCup 2011\n{}  # the final\n\n# end\n", codecup.trim());
        let games = import(Source::CodeCup, &text);
        assert_eq!(games.len(), 1, "{games:?}");
        let game = games[0].as_ref().unwrap();
        assert_eq!(game.tags["codecup_game"], "53360");
    }

    #[test]
    fn codecup_game_pages_list_moves_with_commas() {
        let codecup =
            std::fs::read_to_string("fixtures/dvonn/codecup-2011-game-53360.txt").unwrap();
        let moves: Vec<&str> = codecup.split_whitespace().skip(2).collect();
        let listed = import(Source::CodeCup, &moves.join(",")).remove(0).unwrap();
        let spaced = import(Source::CodeCup, &codecup).remove(0).unwrap();
        assert_eq!(listed.moves, spaced.moves);
        assert_eq!(listed.moves.len(), moves.len());
        let with_spaces = import(Source::CodeCup, &moves.join(", "))
            .remove(0)
            .unwrap();
        assert_eq!(with_spaces.moves, spaced.moves);
    }
}
