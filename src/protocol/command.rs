//! Commands of the session protocol: the `Command` type, its `Display`, and its nom parser.

use std::fmt;
use std::str::FromStr;

use nom::bytes::complete::take_while1;
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{all_consuming, map_res, opt};
use nom::multi::many0;
use nom::sequence::{separated_pair, terminated};
use nom::{IResult, Parser};

use crate::rules::game::Seat;

/// Every command: its name, its arguments, and what it does.
pub const COMMANDS: [(&str, &str, &str); 16] = [
    ("protocol_version", "", "the GTP protocol version: 2"),
    ("name", "", "the program's name"),
    ("version", "", "the program's version"),
    ("list_commands", "", "every command, one per line"),
    ("known_command", "NAME", "true or false"),
    ("quit", "", "ends the session"),
    (
        "newgame",
        "GAME [VARIANT] [seats=N] [seed=S]",
        "starts a new game, e.g. newgame dvonn",
    ),
    (
        "legal_moves",
        "",
        "the legal moves of the seat to move, sorted, on one line",
    ),
    ("play", "[SEAT] MOVE", "plays MOVE for the seat to move"),
    ("undo", "", "takes back the last ply"),
    ("to_move", "", "the seat to move, or none"),
    (
        "showboard",
        "[svg] [SEAT]",
        "the board as text (or SVG), as SEAT may see it",
    ),
    ("score", "", "each seat's score, in seat order"),
    (
        "result",
        "",
        "ongoing, draw, winner SEAT, or winners SEAT ...",
    ),
    (
        "perft",
        "DEPTH",
        "the number of ply sequences of DEPTH plies",
    ),
    ("record", "", "the game so far as a one-line JSON record"),
];

/// Commands the referee sends to engines, beyond the session's (see protocol.md).
pub const ENGINE_COMMANDS: [(&str, &str, &str); 2] = [
    (
        "genmove",
        "SEAT [time=MS] [inc=MS] [movestogo=N] [movetime=MS] [clocks=MS,MS,...]",
        "asks the engine for SEAT's move",
    ),
    (
        "event",
        "TEXT",
        "a chance event as the engine's seat may see it (informational)",
    ),
];

/// The arguments of `newgame`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The game's id.
    pub game: String,
    /// The variant, if named.
    pub variant: Option<String>,
    /// `key=value` options, in the order given.
    pub options: Vec<(String, String)>,
}

/// A command without its id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `protocol_version`
    ProtocolVersion,
    /// `name`
    Name,
    /// `version`
    Version,
    /// `list_commands`
    ListCommands,
    /// `known_command NAME`
    KnownCommand(String),
    /// `quit`
    Quit,
    /// `newgame GAME [VARIANT] [key=value ...]`
    NewGame(NewGame),
    /// `legal_moves`
    LegalMoves,
    /// `play [SEAT] MOVE`
    Play {
        /// The seat the move is for, if given; it must be the seat to move.
        seat: Option<Seat>,
        /// The move's text, unparsed: only the game knows its notation.
        mv: String,
    },
    /// `undo`
    Undo,
    /// `to_move`
    ToMove,
    /// `showboard [SEAT]`
    ShowBoard {
        /// Only what this seat may see.
        seat: Option<Seat>,
        /// An SVG picture instead of text.
        svg: bool,
    },
    /// `score`
    Score,
    /// `result`
    Result,
    /// `perft DEPTH`
    Perft(u32),
    /// `record`
    Record,
    /// `event TEXT`: a chance event as the engine's seat may see it (`draw 2`, `draw 0 c17:RYB`).
    Event(String),
    /// `genmove SEAT [key=value ...]`, sent to engines.
    GenMove {
        /// The seat to move.
        seat: Seat,
        /// Clock facts as `key=value`, in the order given.
        options: Vec<(String, String)>,
    },
}

/// A command with the id it carried, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The id to echo in the answer.
    pub id: Option<u64>,
    /// The command.
    pub command: Command,
}

/// A line that is not a valid command; carries the id when one could be read, for the answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    /// The line's id, if it had a readable one.
    pub id: Option<u64>,
    /// What is wrong, for the `?` answer.
    pub message: String,
}

fn token(input: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace()).parse(input)
}

fn number<T: FromStr>(input: &str) -> IResult<&str, T> {
    map_res(digit1, str::parse).parse(input)
}

/// `[id] name` and the rest of the line.
fn head(input: &str) -> IResult<&str, (Option<u64>, &str)> {
    (opt(terminated(number, space1)), terminated(token, space0)).parse(input)
}

fn arguments(input: &str) -> IResult<&str, Vec<&str>> {
    many0(terminated(token, space0)).parse(input)
}

fn option(input: &str) -> IResult<&str, (&str, &str)> {
    all_consuming(separated_pair(
        take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_'),
        char('='),
        take_while1(|c: char| !c.is_whitespace()),
    ))
    .parse(input)
}

fn new_game(args: &[&str]) -> Option<NewGame> {
    let (game, rest) = args.split_first()?;
    let (variant, rest) = match rest.split_first() {
        Some((v, rest)) if option(v).is_err() => (Some((*v).to_owned()), rest),
        _ => (None, rest),
    };
    let options = rest
        .iter()
        .map(|arg| {
            option(arg)
                .ok()
                .map(|(_, (k, v))| (k.to_owned(), v.to_owned()))
        })
        .collect::<Option<_>>()?;
    Some(NewGame {
        game: (*game).to_owned(),
        variant,
        options,
    })
}

fn whole<T: FromStr>(text: &str) -> Option<T> {
    all_consuming(number).parse(text).ok().map(|(_, n)| n)
}

/// The command `name` with `args`, or `None` when the arguments do not fit.
fn command(name: &str, args: &[&str]) -> Option<Command> {
    Some(match (name, args) {
        ("protocol_version", []) => Command::ProtocolVersion,
        ("name", []) => Command::Name,
        ("version", []) => Command::Version,
        ("list_commands", []) => Command::ListCommands,
        ("known_command", [n]) => Command::KnownCommand((*n).to_owned()),
        ("quit", []) => Command::Quit,
        ("newgame", args) => Command::NewGame(new_game(args)?),
        ("legal_moves", []) => Command::LegalMoves,
        // A move may be several words (DOUBLE's `single left c07:YGB`); a leading number is a seat.
        ("play", [first, rest @ ..]) if !rest.is_empty() && whole::<usize>(first).is_some() => {
            Command::Play {
                seat: whole(first),
                mv: rest.join(" "),
            }
        }
        ("play", words @ [_, ..]) => Command::Play {
            seat: None,
            mv: words.join(" "),
        },
        ("undo", []) => Command::Undo,
        ("to_move", []) => Command::ToMove,
        ("showboard", []) => Command::ShowBoard {
            seat: None,
            svg: false,
        },
        ("showboard", ["svg"]) => Command::ShowBoard {
            seat: None,
            svg: true,
        },
        ("showboard", ["svg", seat]) => Command::ShowBoard {
            seat: Some(whole(seat)?),
            svg: true,
        },
        ("showboard", [seat]) => Command::ShowBoard {
            seat: Some(whole(seat)?),
            svg: false,
        },
        ("score", []) => Command::Score,
        ("result", []) => Command::Result,
        ("perft", [depth]) => Command::Perft(whole(depth)?),
        ("record", []) => Command::Record,
        ("event", words @ [_, ..]) => Command::Event(words.join(" ")),
        ("genmove", [seat, options @ ..]) => Command::GenMove {
            seat: whole(seat)?,
            options: options
                .iter()
                .map(|arg| {
                    option(arg)
                        .ok()
                        .map(|(_, (k, v))| (k.to_owned(), v.to_owned()))
                })
                .collect::<Option<_>>()?,
        },
        _ => return None,
    })
}

impl FromStr for Request {
    type Err = CommandError;

    /// Reads one cleaned line (see [`super::clean_line`]).
    fn from_str(line: &str) -> Result<Request, CommandError> {
        let line = line.trim();
        let error = |id, message: String| CommandError { id, message };
        let Ok((rest, (id, name))) = head(line) else {
            return Err(error(
                None,
                "expected a command: [ID] NAME [ARGUMENTS]".to_owned(),
            ));
        };
        let (_, args) = arguments(rest).map_err(|_| error(id, "unreadable arguments".into()))?;
        let mut known = COMMANDS.iter().chain(&ENGINE_COMMANDS);
        let Some((_, usage, _)) = known.find(|(n, _, _)| *n == name) else {
            return Err(error(
                id,
                format!("unknown command `{name}` (list_commands lists them)"),
            ));
        };
        command(name, &args)
            .map(|command| Request { id, command })
            .ok_or_else(|| error(id, format!("usage: {name} {usage}").trim_end().to_owned()))
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::ProtocolVersion => f.write_str("protocol_version"),
            Command::Name => f.write_str("name"),
            Command::Version => f.write_str("version"),
            Command::ListCommands => f.write_str("list_commands"),
            Command::KnownCommand(name) => write!(f, "known_command {name}"),
            Command::Quit => f.write_str("quit"),
            Command::NewGame(new) => {
                write!(f, "newgame {}", new.game)?;
                if let Some(variant) = &new.variant {
                    write!(f, " {variant}")?;
                }
                new.options
                    .iter()
                    .try_for_each(|(k, v)| write!(f, " {k}={v}"))
            }
            Command::LegalMoves => f.write_str("legal_moves"),
            Command::Play { seat: None, mv } => write!(f, "play {mv}"),
            Command::Play { seat: Some(s), mv } => write!(f, "play {s} {mv}"),
            Command::Undo => f.write_str("undo"),
            Command::ToMove => f.write_str("to_move"),
            Command::ShowBoard { seat, svg } => {
                f.write_str("showboard")?;
                if *svg {
                    f.write_str(" svg")?;
                }
                match seat {
                    Some(seat) => write!(f, " {seat}"),
                    None => Ok(()),
                }
            }
            Command::Score => f.write_str("score"),
            Command::Result => f.write_str("result"),
            Command::Perft(depth) => write!(f, "perft {depth}"),
            Command::Record => f.write_str("record"),
            Command::Event(text) => write!(f, "event {text}"),
            Command::GenMove { seat, options } => {
                write!(f, "genmove {seat}")?;
                options.iter().try_for_each(|(k, v)| write!(f, " {k}={v}"))
            }
        }
    }
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = self.id {
            write!(f, "{id} ")?;
        }
        self.command.fmt(f)
    }
}

#[cfg(test)]
mod tests {
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
        for case in cases {
            let text = case.to_string();
            assert_eq!(text.parse::<Request>(), Ok(case), "{text}");
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
}
