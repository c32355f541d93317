//! Commands of the session protocol: the `Command` type, its `Display`, and its nom parser.

use std::fmt;
use std::str::FromStr;

use nom::bytes::complete::take_while1;
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{all_consuming, map_res, opt};
use nom::multi::many0;
use nom::sequence::{separated_pair, terminated};
use nom::{IResult, Parser};

use crate::protocol::{ClockKeys, RoundEnd};
use crate::rules::game::Seat;

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

impl NewGame {
    /// The value of option `key`, the first if given twice.
    pub fn option(&self, key: &str) -> Option<&str> {
        value_of(&self.options, key)
    }
}

/// The value of `key` among `key=value` options (`newgame`'s, `genmove`'s), the first if given
/// twice.
pub fn value_of<'a>(options: &'a [(String, String)], key: &str) -> Option<&'a str> {
    options
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
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
        // Dots and dashes too, for engine options passed on as cutechess-cli names them.
        take_while1(|c: char| c.is_ascii_alphanumeric() || "_.-".contains(c)),
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

/// One protocol command, declared once: its name, arguments and help, who answers it, how its
/// arguments are read, and how they are written back.
pub struct Spec {
    /// The command's name.
    pub name: &'static str,
    /// Its arguments, as `list_commands` help and usage errors show them.
    pub usage: &'static str,
    /// What it does.
    pub help: &'static str,
    /// Whether `referee session` answers it.
    pub session: bool,
    /// Whether engines must answer it (the built-in bots do).
    pub engine: bool,
    /// The command from its argument words, or `None` when they do not fit.
    parse: fn(&[&str]) -> Option<Command>,
    /// Whether a command is this one.
    is: fn(&Command) -> bool,
    /// Writes the command's arguments, each after a space.
    args: fn(&Command, &mut fmt::Formatter<'_>) -> fmt::Result,
}

fn no_args(_: &Command, _: &mut fmt::Formatter<'_>) -> fmt::Result {
    Ok(())
}

fn key_values(f: &mut fmt::Formatter<'_>, options: &[(String, String)]) -> fmt::Result {
    options.iter().try_for_each(|(k, v)| write!(f, " {k}={v}"))
}

/// `key=value` words, or `None` when one is not.
fn options(words: &[&str]) -> Option<Vec<(String, String)>> {
    words
        .iter()
        .map(|arg| {
            option(arg)
                .ok()
                .map(|(_, (k, v))| (k.to_owned(), v.to_owned()))
        })
        .collect()
}

/// A command without arguments.
macro_rules! bare {
    ($name:literal, $variant:ident, $help:literal, session: $session:literal, engine: $engine:literal) => {
        Spec {
            name: $name,
            usage: "",
            help: $help,
            session: $session,
            engine: $engine,
            parse: |args| args.is_empty().then_some(Command::$variant),
            is: |c| matches!(c, Command::$variant),
            args: no_args,
        }
    };
}

/// Every command of the protocol, in the order `list_commands` gives them.
pub const SPECS: &[Spec] = &[
    bare!("protocol_version", ProtocolVersion, "the GTP protocol version: 2", session: true, engine: true),
    bare!("name", Name, "the program's name", session: true, engine: true),
    bare!("version", Version, "the program's version", session: true, engine: true),
    bare!("list_commands", ListCommands, "every command, one per line", session: true, engine: true),
    Spec {
        name: "known_command",
        usage: "NAME",
        help: "true or false",
        session: true,
        engine: true,
        parse: |args| match args {
            [name] => Some(Command::KnownCommand((*name).to_owned())),
            _ => None,
        },
        is: |c| matches!(c, Command::KnownCommand(_)),
        args: |c, f| match c {
            Command::KnownCommand(name) => write!(f, " {name}"),
            _ => Ok(()),
        },
    },
    bare!("quit", Quit, "ends the session", session: true, engine: true),
    Spec {
        name: "newgame",
        usage: "GAME [VARIANT] [seats=N] [seed=S]",
        help: "starts a new game, e.g. newgame dvonn",
        session: true,
        engine: true,
        parse: |args| new_game(args).map(Command::NewGame),
        is: |c| matches!(c, Command::NewGame(_)),
        args: |c, f| match c {
            Command::NewGame(new) => {
                write!(f, " {}", new.game)?;
                if let Some(variant) = &new.variant {
                    write!(f, " {variant}")?;
                }
                key_values(f, &new.options)
            }
            _ => Ok(()),
        },
    },
    bare!("legal_moves", LegalMoves, "the legal moves of the seat to move, sorted, on one line", session: true, engine: false),
    Spec {
        name: "play",
        usage: "[SEAT] MOVE",
        help: "plays MOVE for the seat to move",
        session: true,
        engine: true,
        // A move may be several words (DOUBLE's `single left c07:YGB`); a leading number is a seat.
        parse: |args| match args {
            [first, rest @ ..] if !rest.is_empty() && whole::<usize>(first).is_some() => {
                Some(Command::Play {
                    seat: whole(first),
                    mv: rest.join(" "),
                })
            }
            [_, ..] => Some(Command::Play {
                seat: None,
                mv: args.join(" "),
            }),
            [] => None,
        },
        is: |c| matches!(c, Command::Play { .. }),
        args: |c, f| match c {
            Command::Play { seat, mv } => play_args(f, *seat, mv),
            _ => Ok(()),
        },
    },
    bare!("undo", Undo, "takes back the last ply", session: true, engine: false),
    bare!("to_move", ToMove, "the seat to move, or none", session: true, engine: false),
    Spec {
        name: "showboard",
        usage: "[svg] [SEAT]",
        help: "the board as text (or SVG), as SEAT may see it",
        session: true,
        engine: false,
        parse: |args| {
            let (svg, rest) = match args {
                ["svg", rest @ ..] => (true, rest),
                rest => (false, rest),
            };
            let seat = match rest {
                [] => None,
                [seat] => Some(whole(seat)?),
                _ => return None,
            };
            Some(Command::ShowBoard { seat, svg })
        },
        is: |c| matches!(c, Command::ShowBoard { .. }),
        args: |c, f| match c {
            Command::ShowBoard { seat, svg } => {
                if *svg {
                    f.write_str(" svg")?;
                }
                match seat {
                    Some(seat) => write!(f, " {seat}"),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        },
    },
    bare!("score", Score, "each seat's score, in seat order", session: true, engine: false),
    bare!("result", Result, "ongoing, draw, winner SEAT, or winners SEAT ...", session: true, engine: false),
    Spec {
        name: "perft",
        usage: "DEPTH",
        help: "the number of ply sequences of DEPTH plies",
        session: true,
        engine: false,
        parse: |args| match args {
            [depth] => Some(Command::Perft(whole(depth)?)),
            _ => None,
        },
        is: |c| matches!(c, Command::Perft(_)),
        args: |c, f| match c {
            Command::Perft(depth) => write!(f, " {depth}"),
            _ => Ok(()),
        },
    },
    bare!("record", Record, "the game so far as a one-line JSON record", session: true, engine: false),
    Spec {
        name: "genmove",
        usage: "SEAT [time=MS] [inc=MS] [movestogo=N] [movetime=MS] [clocks=MS,MS,...]",
        help: "asks the engine for SEAT's move",
        session: false,
        engine: true,
        parse: |args| match args {
            [seat, rest @ ..] => Some(Command::GenMove {
                seat: whole(seat)?,
                options: options(rest)?,
            }),
            [] => None,
        },
        is: |c| matches!(c, Command::GenMove { .. }),
        args: |c, f| match c {
            Command::GenMove { seat, options } => {
                write!(f, " {seat}")?;
                key_values(f, options)
            }
            _ => Ok(()),
        },
    },
    Spec {
        name: "event",
        usage: "TEXT",
        help: "a chance event as a seat may see it: to an engine (informational), or to a session that is a seat's view",
        session: true,
        engine: true,
        parse: |args| (!args.is_empty()).then(|| Command::Event(args.join(" "))),
        is: |c| matches!(c, Command::Event(_)),
        args: |c, f| match c {
            Command::Event(text) => write!(f, " {text}"),
            _ => Ok(()),
        },
    },
];

/// Who answers commands: `referee session`, or an engine (the built-in bots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answerer {
    /// `referee session`.
    Session,
    /// An engine.
    Engine,
}

impl Answerer {
    /// The commands it answers, in order.
    pub fn commands(self) -> impl Iterator<Item = &'static Spec> {
        SPECS.iter().filter(move |s| match self {
            Answerer::Session => s.session,
            Answerer::Engine => s.engine,
        })
    }

    /// Its answer to `list_commands`: their names, one per line.
    pub fn list_commands(self) -> String {
        let names: Vec<&str> = self.commands().map(|s| s.name).collect();
        names.join("\n")
    }

    /// Its answer to `known_command NAME`: `true` or `false`.
    pub fn known_command(self, name: &str) -> String {
        self.commands().any(|s| s.name == name).to_string()
    }

    /// Its answer to a handshake command (`protocol_version`, `name`, answered with `name`,
    /// `version`, `list_commands`, `known_command`, `quit`); `None` for any other command, which
    /// the game's own code answers. Every engine the crate ships, and the session, answer them
    /// here.
    pub fn handshake(self, command: &Command, name: &str) -> Option<String> {
        Some(match command {
            Command::ProtocolVersion => "2".to_owned(),
            Command::Name => name.to_owned(),
            Command::Version => env!("CARGO_PKG_VERSION").to_owned(),
            Command::ListCommands => self.list_commands(),
            Command::KnownCommand(asked) => self.known_command(asked),
            Command::Quit => String::new(),
            _ => return None,
        })
    }
}

impl Command {
    /// The event every seat is told when round `finished` (from 1) of DOUBLE ends: `event round
    /// N points=P0,P1,.. totals=T0,T1,..`, the round's points being how far each seat's total
    /// grew from `before`.
    pub fn round_event(finished: usize, before: &[i64], totals: &[i64]) -> Command {
        Command::Event(RoundEnd::new(finished, before, totals).to_string())
    }

    /// Its declaration in [`SPECS`].
    pub fn spec(&self) -> &'static Spec {
        SPECS
            .iter()
            .find(|s| (s.is)(self))
            .expect("every command is declared in SPECS")
    }
}

/// `play`'s arguments: ` SEAT MOVE`, or ` MOVE` with no seat.
fn play_args<W: fmt::Write>(f: &mut W, seat: Option<Seat>, mv: &str) -> fmt::Result {
    if let Some(seat) = seat {
        f.write_char(' ')?;
        f.write_str(itoa::Buffer::new().format(seat))?;
    }
    f.write_char(' ')?;
    f.write_str(mv)
}

/// A `play` command as [`Command::Play`] writes it, from a borrowed move: what the match loop
/// sends every engine at every ply, written with no command built.
pub struct PlayLine<'a> {
    /// The seat that played, if named.
    pub seat: Option<Seat>,
    /// The move, in the game's notation.
    pub mv: &'a str,
}

impl PlayLine<'_> {
    /// Writes the line into `out` (at every ply, into a `String` directly).
    pub fn write_to<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        out.write_str("play")?;
        play_args(out, self.seat, self.mv)
    }
}

impl fmt::Display for PlayLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// A `genmove` command as [`Command::GenMove`] writes it, from the seat and its clock keys: what
/// the match loop sends at every ply, written with no command built.
pub struct GenmoveLine<'a> {
    /// The seat asked to move.
    pub seat: Seat,
    /// What the clocks say (nothing when no clock runs).
    pub keys: &'a ClockKeys,
}

impl GenmoveLine<'_> {
    /// Writes the line into `out` (at every ply, into a `String` directly).
    pub fn write_to<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        out.write_str("genmove ")?;
        out.write_str(itoa::Buffer::new().format(self.seat))?;
        if self.keys.any() {
            out.write_char(' ')?;
            self.keys.write_to(out)?;
        }
        Ok(())
    }
}

impl fmt::Display for GenmoveLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spec = self.spec();
        f.write_str(spec.name)?;
        (spec.args)(self, f)
    }
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
        let Some(spec) = SPECS.iter().find(|s| s.name == name) else {
            return Err(error(
                id,
                format!("unknown command `{name}` (list_commands lists them)"),
            ));
        };
        (spec.parse)(&args)
            .map(|command| Request { id, command })
            .ok_or_else(|| {
                let usage = format!("usage: {name} {}", spec.usage);
                error(id, usage.trim_end().to_owned())
            })
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
mod tests;
