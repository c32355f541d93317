//! Every command written and read back, and the parser's answers to bad lines.

use super::*;

fn request(id: Option<u64>, command: Command) -> Request {
    Request { id, command }
}

#[test]
fn every_command_round_trips() {
    let cases = [
        request(None, Command::ProtocolVersion),
        request(Some(7), Command::Name),
        request(None, Command::Version),
        request(None, Command::ListCommands),
        request(Some(0), Command::KnownCommand("play".into())),
        request(None, Command::Quit),
        request(
            Some(3),
            Command::NewGame(NewGame {
                game: "pegs".into(),
                variant: Some("turbo".into()),
                options: vec![("seed".into(), "42".into()), ("seats".into(), "2".into())],
            }),
        ),
        request(
            None,
            Command::NewGame(NewGame {
                game: "dvonn".into(),
                variant: None,
                options: vec![],
            }),
        ),
        request(None, Command::LegalMoves),
        request(
            None,
            Command::Play {
                seat: None,
                mv: "D2".into(),
            },
        ),
        request(
            Some(12),
            Command::Play {
                seat: Some(1),
                mv: "b4e4".into(),
            },
        ),
        request(
            None,
            Command::Play {
                seat: Some(2),
                mv: "single left c07:YGB".into(),
            },
        ),
        request(
            None,
            Command::Play {
                seat: None,
                mv: "right c31".into(),
            },
        ),
        request(None, Command::Undo),
        request(None, Command::ToMove),
        request(
            None,
            Command::ShowBoard {
                seat: None,
                svg: false,
            },
        ),
        request(
            None,
            Command::ShowBoard {
                seat: Some(2),
                svg: false,
            },
        ),
        request(
            None,
            Command::ShowBoard {
                seat: None,
                svg: true,
            },
        ),
        request(
            Some(3),
            Command::ShowBoard {
                seat: Some(1),
                svg: true,
            },
        ),
        request(None, Command::Score),
        request(None, Command::Result),
        request(Some(99), Command::Perft(5)),
        request(None, Command::Record),
        request(
            Some(4),
            Command::GenMove {
                seat: 1,
                options: vec![
                    ("time".into(), "900".into()),
                    ("clocks".into(), "1000,900".into()),
                ],
            },
        ),
        request(
            None,
            Command::GenMove {
                seat: 0,
                options: vec![],
            },
        ),
        request(Some(5), Command::Event("draw 2 c17:RYB".into())),
    ];
    for case in &cases {
        let text = case.to_string();
        assert_eq!(text.parse::<Request>().as_ref(), Ok(case), "{text}");
    }
    // Every declared command is among the cases, once by name.
    let mut names: Vec<&str> = SPECS.iter().map(|s| s.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), SPECS.len(), "two commands of one name");
    for spec in SPECS {
        assert!(
            cases.iter().any(|c| c.command.spec().name == spec.name),
            "{} is not round-tripped here",
            spec.name
        );
    }
}

#[test]
fn bad_lines_are_errors_that_keep_the_id() {
    let cases = [
        ("5 frobnicate", Some(5), "unknown command `frobnicate`"),
        ("perft", None, "usage: perft DEPTH"),
        ("8 perft x", Some(8), "usage: perft DEPTH"),
        ("perft -1", None, "usage: perft DEPTH"),
        ("play", None, "usage: play [SEAT] MOVE"),
        ("newgame", None, "usage: newgame"),
        ("newgame dvonn x y", None, "usage: newgame"),
        ("9 name extra", Some(9), "usage: name"),
        ("42", None, "unknown command `42`"),
        ("", None, "expected a command"),
        (
            "99999999999999999999999 name",
            None,
            "unknown command `99999999999999999999999`",
        ),
    ];
    for (line, id, message) in cases {
        let err = line.parse::<Request>().expect_err(line);
        assert_eq!(err.id, id, "{line}");
        assert!(err.message.starts_with(message), "{line}: {}", err.message);
    }
}

#[test]
fn newgame_reads_variant_and_options() {
    let parsed: Request = "newgame wyx double seed=7".parse().unwrap();
    let Command::NewGame(new) = parsed.command else {
        panic!("newgame parses to NewGame");
    };
    assert_eq!(new.variant.as_deref(), Some("double"));
    assert_eq!(new.options, vec![("seed".to_owned(), "7".to_owned())]);
    let parsed: Request = "newgame double-dutch seats=3".parse().unwrap();
    let Command::NewGame(new) = parsed.command else {
        panic!("newgame parses to NewGame");
    };
    assert_eq!(new.variant, None);
}

#[test]
fn a_play_line_is_written_as_the_play_command_is() {
    for (seat, mv) in [
        (Some(0), "C4"),
        (Some(5), "single left c07:YGB"),
        (None, "pass"),
    ] {
        let command = Command::Play {
            seat,
            mv: mv.to_owned(),
        };
        assert_eq!(PlayLine { seat, mv }.to_string(), command.to_string());
    }
    assert_eq!(
        PlayLine {
            seat: Some(1),
            mv: "A1"
        }
        .to_string(),
        "play 1 A1"
    );
}

#[test]
fn a_genmove_line_is_written_as_the_genmove_command_is() {
    let keys = [
        ClockKeys::default(),
        ClockKeys {
            movetime: Some(250),
            ..ClockKeys::default()
        },
        ClockKeys {
            time: Some(9_900),
            inc: Some(100),
            movestogo: Some(40),
            clocks: vec![10_000, 9_900, 0],
            ..ClockKeys::default()
        },
    ];
    for (seat, keys) in keys.iter().enumerate() {
        // The command's options as the keys write them.
        let written = keys.to_string();
        let command = Command::GenMove {
            seat,
            options: (written.split_whitespace())
                .filter_map(|word| word.split_once('='))
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        };
        let mut line = String::new();
        GenmoveLine { seat, keys }.write_to(&mut line).unwrap();
        assert_eq!(line, command.to_string());
    }
    let mut line = String::new();
    let keys = &keys[2];
    GenmoveLine { seat: 1, keys }.write_to(&mut line).unwrap();
    assert_eq!(
        line,
        "genmove 1 time=9900 inc=100 movestogo=40 clocks=10000,9900,0"
    );
}

#[test]
fn a_round_event_gives_each_seats_points_and_total() {
    let event = Command::round_event(2, &[3, 10, 0], &[9, 10, 4]);
    assert_eq!(
        event.to_string(),
        "event round 2 points=6,0,4 totals=9,10,4"
    );
}

#[test]
fn a_round_event_is_read_back_and_anything_else_is_not() {
    let event = RoundEnd::new(2, &[3, 10, 0], &[9, 10, 4]);
    assert_eq!(RoundEnd::parse(&event.to_string()), Some(event));
    for text in [
        "round 2 points=6,0 totals=9,10,4",
        "round 2 points=6,0,4",
        "round x points=6 totals=9",
        "round 2 points=6 totals=9 more",
        "round 2 points=1,1,1,1,1,1,1 totals=1,1,1,1,1,1,1",
        "draw 0 c17:RGB",
    ] {
        assert_eq!(RoundEnd::parse(text), None, "{text}");
    }
}
