//! Openings: the first plies of every game, from a file (`--openings`) or drawn at random
//! (`--random-plies`), the same for every game of a group (one seed, every rotation of the seats),
//! so that each engine plays each side of each opening; and `referee openings`, which writes a file.

use std::collections::HashSet;
use std::io;
use std::path::PathBuf;

use crate::bounded::{self, Line};
use crate::records::Record;
use crate::records::file::MAX_RECORD_BYTES;
use crate::records::replay::Replay;
use crate::rules::AnyGame;
use crate::rules::game::{Game, Outcome, Setup, SetupError};
use crate::rules::seeded::Stream;

/// The stream of a game's seed that draws its random opening plies.
pub const RANDOM_PLIES_STREAM: u64 = (1 << 63) + 1;
/// The stream of the run's seed that shuffles a book read with `order=random`.
pub const ORDER_STREAM: u64 = (1 << 63) + 2;

/// How games begin.
#[derive(Clone, Debug, Default)]
pub enum Openings {
    /// From the game's start.
    #[default]
    None,
    /// With this many random legal plies of the seats, drawn from the game's seed.
    Random(usize),
    /// With the moves of one line of a file.
    Book(Book),
}

/// The openings of a file, in the order they are played.
#[derive(Clone, Debug)]
pub struct Book {
    /// What the run's fingerprint says of it: the file's name and the options.
    pub name: String,
    /// Each opening's moves, in file order.
    lines: Vec<Vec<String>>,
    /// The order of play: indices into `lines`.
    order: Vec<usize>,
}

/// How a file of openings is read: `FILE [plies=N] [order=sequential|random] [start=K]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSpec {
    /// The file.
    pub file: PathBuf,
    /// Keep at most this many plies of each line.
    pub plies: Option<usize>,
    /// Shuffle the lines (seeded by the run's seed) instead of taking them in file order.
    pub random: bool,
    /// Begin with the K-th opening (from 1).
    pub start: usize,
}

/// Why openings cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The `--openings` value cannot be read.
    #[error("--openings: {0}")]
    Spec(String),
    /// The file cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A line that is not an opening of the game.
    #[error("{path}:{line}: {reason}")]
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// Why (boxed: a move's error is large, and errors travel by value).
        reason: Box<LineError>,
    },
    /// A file with no opening in it.
    #[error("{0}: no opening in the file")]
    Empty(PathBuf),
    /// The game draws from its seed what the seats may play, so fixed moves do not fit it.
    #[error(
        "{0} draws from each game's seed what the seats may play (a rack, the cards), so a fixed \
         list of moves does not fit every game: use --random-plies instead"
    )]
    Seeded(String),
    /// The game cannot be set up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A legal move drawn at random did not replay (a fault of the rules, never of the input).
    #[error("a legal move did not replay: {0}")]
    Replay(String),
    /// Fewer distinct openings than asked for.
    #[error("found only {found} distinct undecided openings of {plies} plies, not {count}")]
    TooFew {
        /// Found.
        found: usize,
        /// Asked for.
        count: usize,
        /// Their length.
        plies: usize,
    },
}

/// Why a line of an openings file is not an opening of the game.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// A line past the bound of a record line.
    #[error("a line longer than {MAX_RECORD_BYTES} bytes")]
    TooLong,
    /// A line that is not UTF-8.
    #[error("not UTF-8 text")]
    NotText,
    /// A line starting `{` that is not a record.
    #[error("not a record: {0}")]
    NotARecord(String),
    /// The game cannot be set up for the line.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A move that does not replay.
    #[error("ply {ply} `{text}`: {why}")]
    Move {
        /// The ply, from 0.
        ply: usize,
        /// The move's text.
        text: String,
        /// Why it does not replay.
        why: crate::rules::game::MoveError,
    },
    /// The line ends the game.
    #[error("the game is over after its {0} plies: no game is left to play")]
    Over(usize),
}

impl BookSpec {
    /// Reads `FILE [plies=N] [order=sequential|random] [start=K]` (the file may also be given as
    /// `file=FILE`).
    pub fn parse(words: &[String]) -> Result<BookSpec, OpeningsError> {
        let bad = |text: String| OpeningsError::Spec(text);
        let mut spec = BookSpec {
            file: PathBuf::new(),
            plies: None,
            random: false,
            start: 1,
        };
        for word in words {
            let number = |value: &str| {
                value
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| bad(format!("`{word}`: expected a whole number from 1")))
            };
            match word.split_once('=') {
                Some(("file", value)) => spec.file = value.into(),
                Some(("plies", value)) => spec.plies = Some(number(value)?),
                Some(("start", value)) => spec.start = number(value)?,
                Some(("order", "random")) => spec.random = true,
                Some(("order", "sequential")) => spec.random = false,
                Some(("order", _)) => {
                    return Err(bad(format!("`{word}`: order is sequential or random")));
                }
                Some(_) => {
                    return Err(bad(format!(
                        "`{word}`: expected FILE, plies=N, order=sequential|random or start=K"
                    )));
                }
                None => spec.file = word.into(),
            }
        }
        if spec.file.as_os_str().is_empty() {
            return Err(bad("no file given".into()));
        }
        Ok(spec)
    }

    /// Reads the file and checks every opening against the rules of the game `setup` makes;
    /// `seed` orders a random book.
    pub fn load(&self, game: &str, setup: &Setup, seed: u64) -> Result<Book, OpeningsError> {
        let start = AnyGameStart::new(game, setup)?;
        let path = &self.file;
        let io_error = |source| OpeningsError::Io {
            path: path.clone(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io_error)?;
        let mut input = io::BufReader::new(file);
        let mut lines = Vec::new();
        let mut buffer = Vec::new();
        let mut number = 0;
        while let Some(end) =
            bounded::read_line(&mut input, &mut buffer, MAX_RECORD_BYTES).map_err(io_error)?
        {
            number += 1;
            let line_error = |reason: LineError| OpeningsError::Line {
                path: path.clone(),
                line: number,
                reason: Box::new(reason),
            };
            if end == Line::TooLong {
                return Err(line_error(LineError::TooLong));
            }
            let text = std::str::from_utf8(&buffer)
                .map_err(|_| line_error(LineError::NotText))?
                .trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            let mut moves = moves_of(text).map_err(line_error)?;
            if let Some(plies) = self.plies {
                moves.truncate(plies);
            }
            start.check(&moves).map_err(line_error)?;
            lines.push(moves);
        }
        if lines.is_empty() {
            return Err(OpeningsError::Empty(path.clone()));
        }
        let mut order: Vec<usize> = (0..lines.len()).collect();
        if self.random {
            Stream::new(seed, ORDER_STREAM).shuffle(&mut order);
        }
        order.rotate_left((self.start - 1) % lines.len());
        let mut name = path.display().to_string();
        if let Some(plies) = self.plies {
            name.push_str(&format!(":plies={plies}"));
        }
        if self.random {
            name.push_str(":order=random");
        }
        if self.start != 1 {
            name.push_str(&format!(":start={}", self.start));
        }
        Ok(Book { name, lines, order })
    }
}

/// The moves of one line: a JSON record's seat plies, or moves separated by spaces.
fn moves_of(text: &str) -> Result<Vec<String>, LineError> {
    if text.starts_with('{') {
        let record: Record =
            serde_json::from_str(text).map_err(|e| LineError::NotARecord(e.to_string()))?;
        return Ok(record
            .moves
            .into_iter()
            .filter(|ply| ply.seat.is_some())
            .map(|ply| ply.mv)
            .collect());
    }
    Ok(text.split_whitespace().map(str::to_owned).collect())
}

/// A game's start, against which openings are checked.
struct AnyGameStart {
    game: String,
    setup: Setup,
}

impl AnyGameStart {
    fn new(game: &str, setup: &Setup) -> Result<AnyGameStart, OpeningsError> {
        let replay = Replay::new(game, setup)?;
        if replay.game().drawn_from_seed() {
            return Err(OpeningsError::Seeded(game.to_owned()));
        }
        Ok(AnyGameStart {
            game: game.to_owned(),
            setup: setup.clone(),
        })
    }

    /// The moves replay from the start and leave a game to play.
    fn check(&self, moves: &[String]) -> Result<(), LineError> {
        let mut replay = Replay::new(&self.game, &self.setup)?;
        for (ply, mv) in moves.iter().enumerate() {
            replay.play(mv).map_err(|why| LineError::Move {
                ply,
                text: mv.clone(),
                why,
            })?;
        }
        if replay.game().outcome() != Outcome::Ongoing {
            return Err(LineError::Over(moves.len()));
        }
        Ok(())
    }
}

impl Book {
    /// A book of these openings, played in their order; `name` is what the fingerprint says.
    pub fn of(name: impl Into<String>, lines: Vec<Vec<String>>) -> Book {
        Book {
            name: name.into(),
            order: (0..lines.len()).collect(),
            lines,
        }
    }
}

impl Openings {
    /// What the run's fingerprint adds: nothing without openings.
    pub fn fingerprint(&self) -> Option<String> {
        match self {
            Openings::None => None,
            Openings::Random(plies) => Some(format!("random-plies={plies}")),
            Openings::Book(book) => Some(format!("openings={}", book.name)),
        }
    }

    /// The opening of game group `group`, or the number of random plies, for the arena.
    pub fn of_group(&self, group: usize) -> Opening<'_> {
        match self {
            Openings::None => Opening::Moves(&[]),
            Openings::Random(plies) => Opening::Random(*plies),
            Openings::Book(book) => {
                Opening::Moves(&book.lines[book.order[group % book.order.len()]])
            }
        }
    }
}

/// One game's opening.
#[derive(Clone, Copy, Debug)]
pub enum Opening<'a> {
    /// These moves, in order.
    Moves(&'a [String]),
    /// This many random plies of the seats.
    Random(usize),
}

impl Opening<'_> {
    /// How many seat plies it has.
    pub fn len(&self) -> usize {
        match self {
            Opening::Moves(moves) => moves.len(),
            Opening::Random(plies) => *plies,
        }
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The text of its `k`-th seat ply in `game`: the listed move, or a random legal one drawn
    /// from `rng`.
    pub fn ply(&self, k: usize, game: &AnyGame, rng: &mut Stream) -> String {
        match self {
            Opening::Moves(moves) => moves[k].clone(),
            Opening::Random(_) => random_ply(game, rng),
        }
    }
}

/// A uniformly random legal move of `game` (which is not over), drawn from `rng`.
pub fn random_ply(game: &AnyGame, rng: &mut Stream) -> String {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let count = u32::try_from(moves.len()).unwrap_or(u32::MAX);
    moves[rng.below(count) as usize].to_string()
}

/// What `referee openings` makes.
#[derive(Clone, Debug)]
pub struct Generate {
    /// The game.
    pub game: String,
    /// Its setup (variant, seats).
    pub setup: Setup,
    /// Seat plies per opening.
    pub plies: usize,
    /// How many openings.
    pub count: usize,
    /// The most points the leader may be ahead by after the opening.
    pub max_lead: i64,
    /// The seed of the random plies.
    pub seed: u64,
}

/// `count` distinct openings of `plies` random seat plies, each a line of moves, leaving out
/// those after which the game is over or a seat leads by more than `max_lead`.
pub fn generate(options: &Generate) -> Result<Vec<String>, OpeningsError> {
    let start = AnyGameStart::new(&options.game, &options.setup)?;
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    // Bounded: a game with few distinct openings ends the search instead of looping.
    let attempts = options.count.saturating_mul(100).max(1000);
    for attempt in 0..attempts {
        if found.len() == options.count {
            break;
        }
        let mut rng = Stream::new(options.seed, attempt as u64);
        let mut replay = Replay::new(&start.game, &start.setup)?;
        let mut moves = Vec::with_capacity(options.plies);
        // Games that draw from their seed (a rack, cards) are refused above: no chance plies here.
        while moves.len() < options.plies && replay.game().outcome() == Outcome::Ongoing {
            let text = random_ply(replay.game(), &mut rng);
            let mv = (replay.play(&text)).map_err(|e| OpeningsError::Replay(e.to_string()))?;
            moves.push(mv.to_string());
        }
        let scores = replay.game().scores();
        let lead =
            scores.iter().max().copied().unwrap_or(0) - scores.iter().min().copied().unwrap_or(0);
        let decided = replay.game().outcome() != Outcome::Ongoing || lead > options.max_lead;
        if moves.len() == options.plies && !decided && seen.insert(moves.clone()) {
            found.push(moves.join(" "));
        }
    }
    if found.len() < options.count {
        return Err(OpeningsError::TooFew {
            found: found.len(),
            count: options.count,
            plies: options.plies,
        });
    }
    Ok(found)
}

/// Reads a file's openings from any reader, for tests.
#[cfg(test)]
fn lines_of(input: impl io::BufRead) -> Vec<Vec<String>> {
    input
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| moves_of(l.trim()).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_like_cutechess_options() {
        let words =
            |text: &str| -> Vec<String> { text.split_whitespace().map(str::to_owned).collect() };
        assert_eq!(
            BookSpec::parse(&words("book.txt plies=8 order=random start=3")).unwrap(),
            BookSpec {
                file: "book.txt".into(),
                plies: Some(8),
                random: true,
                start: 3
            }
        );
        assert_eq!(
            BookSpec::parse(&words("file=b.txt")).unwrap().file,
            PathBuf::from("b.txt")
        );
        for bad in [
            "plies=0",
            "b.txt order=shuffled",
            "b.txt depth=3",
            "b.txt start=x",
        ] {
            assert!(BookSpec::parse(&words(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_line_is_moves_or_a_record() {
        let record = r#"{"format":"referee-record","version":1,"game":"pegs","seats":[{"name":"a"},{"name":"b"}],"seed":0,"moves":[{"ply":0,"seat":0,"move":"x"},{"ply":1,"move":"chance"},{"ply":2,"seat":1,"move":"y"}]}"#;
        let text = format!("a b  c\n{record}\n");
        assert_eq!(
            lines_of(text.as_bytes()),
            [vec!["a", "b", "c"], vec!["x", "y"]]
        );
    }
}
