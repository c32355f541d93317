//! `validate`: replays records against the rules and reports each problem with its place.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::sync::{Mutex, mpsc};

use serde::Serialize;

use crate::records::fast::FastLines;
use crate::records::file::{Block, DuplicateKeys, Duplicates, EntryError, Piece, RawEntry, Reader};
use crate::records::replay::result_of;
use crate::records::{End, FORMAT, GameResult, Ply, PlyText, Record, VERSION};
use crate::rules::AnyGame;
use crate::rules::dispatch;
use crate::rules::game::{Actor, Game, MoveError, Outcome, Seat, Setup, SetupError};

/// What kind of mistake a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// The file could not be read.
    Unreadable,
    /// Not JSON, truncated JSON, or JSON that is not a record.
    Malformed,
    /// A format or version this program does not read.
    Format,
    /// The game, variant or seat count is not one the rules allow.
    Setup,
    /// Plies are not numbered 0, 1, 2, ...
    PlyNumber,
    /// A ply is credited to a seat that was not to move.
    WrongSeat,
    /// A move's text is not a move of the game.
    UnparseableMove,
    /// A move breaks the rules.
    IllegalMove,
    /// A chance event (a card drawn) is possible but not the one the seed draws.
    Chance,
    /// The opening covers plies the game does not have.
    Opening,
    /// The way the game ended contradicts the replay.
    End,
    /// The stored result differs from the replayed one.
    Result,
    /// The same game (same run, same game number) is in the input twice.
    Duplicate,
    /// A file holds no record at all: nothing to vouch for, most likely a run that wrote nothing.
    Empty,
}

/// One thing wrong with a record, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The file.
    pub file: String,
    /// The line the record starts on, from 1 (0 when the file could not be read).
    pub line: usize,
    /// The ply, when the problem is one ply's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// The seat the ply is credited to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The move's text, as recorded.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    /// What kind of mistake.
    pub kind: ProblemKind,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.file, self.line)?;
        match (self.ply, self.seat) {
            (Some(ply), Some(seat)) => write!(f, "ply {ply} (seat {seat}): ")?,
            (Some(ply), None) => write!(f, "ply {ply}: ")?,
            _ => {}
        }
        f.write_str(&self.message)
    }
}

/// A problem found inside one record, before its place in a file is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordProblem {
    /// The ply, when the problem is one ply's.
    pub ply: Option<usize>,
    /// The seat the ply is credited to.
    pub seat: Option<Seat>,
    /// The move's text.
    pub mv: Option<String>,
    /// What kind of mistake.
    pub kind: ProblemKind,
    /// What is wrong.
    pub message: String,
}

impl RecordProblem {
    fn new(kind: ProblemKind, message: impl Into<String>) -> RecordProblem {
        RecordProblem {
            ply: None,
            seat: None,
            mv: None,
            kind,
            message: message.into(),
        }
    }
}

/// What `validate` found. Each problem goes to the report's sink as it is found, and only the
/// counts stay: a file of a million bad records takes no more memory than a good one.
pub struct Report<'a> {
    /// Records read (malformed ones included).
    pub records: usize,
    /// Records that replay without a problem.
    pub valid: usize,
    /// Plies replayed in valid records.
    pub plies: usize,
    /// Problems found.
    pub problems: usize,
    /// Whether a file could not be read.
    pub unreadable: bool,
    /// The files read, in order.
    files: Vec<String>,
    sink: Box<dyn FnMut(Problem) + 'a>,
}

impl Default for Report<'_> {
    /// A report that counts its problems and keeps none.
    fn default() -> Self {
        Report::with_sink(|_| {})
    }
}

/// The most characters of a record's text a problem quotes.
const QUOTE_LIMIT: usize = 400;

impl<'a> Report<'a> {
    /// A report that hands each problem to `sink` as it is found.
    pub fn with_sink(sink: impl FnMut(Problem) + 'a) -> Report<'a> {
        Report {
            records: 0,
            valid: 0,
            plies: 0,
            problems: 0,
            unreadable: false,
            files: Vec::new(),
            sink: Box::new(sink),
        }
    }

    /// Whether every record is valid and every file was read.
    pub fn ok(&self) -> bool {
        self.problems == 0
    }

    fn add(&mut self, file: &str, line: usize, problem: RecordProblem) {
        self.problems += 1;
        self.unreadable |= problem.kind == ProblemKind::Unreadable;
        (self.sink)(Problem {
            file: file.to_owned(),
            line,
            ply: problem.ply,
            seat: problem.seat,
            // A hostile record may hold megabytes where a move or a name goes: a report quotes
            // at most 400 characters of each.
            mv: problem
                .mv
                .map(|mv| crate::protocol::shorten(&mv, QUOTE_LIMIT)),
            kind: problem.kind,
            message: crate::protocol::shorten_quotes(&problem.message, QUOTE_LIMIT),
        });
    }

    /// Notes a file that could not be read.
    pub fn unreadable(&mut self, file: &str, error: &std::io::Error) {
        let problem = RecordProblem::new(ProblemKind::Unreadable, format!("cannot read: {error}"));
        self.add(file, 0, problem);
    }

    /// Checks every record `reader` gives, from `file` (number `index` of the input, for the
    /// duplicates' places): read here in order, in blocks of lines, split, parsed and replayed
    /// by a thread per core (at most 8), and reported here in order. The pieces out at once hold
    /// at most [`IN_FLIGHT_BYTES`] (or one longer line), in at most 4 pieces a worker.
    pub fn check_reader<R: std::io::Read>(
        &mut self,
        file: &str,
        reader: &mut Reader<R>,
        duplicates: &mut Duplicates,
        index: usize,
    ) {
        let before = self.records;
        // Told after the problems of the lines before it.
        let mut read_error = None;
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
        let keys = duplicates.keys();
        let (jobs, queue) = mpsc::sync_channel::<(usize, Work)>(2 * workers);
        let (done, results) = mpsc::channel::<(usize, Done)>();
        let queue = Mutex::new(queue);
        std::thread::scope(|scope| {
            for _ in 0..workers {
                let (queue, done, keys) = (&queue, done.clone(), keys.clone());
                scope.spawn(move || {
                    let mut fast = FastLines::default();
                    // A poisoned lock (another worker panicked) or no more jobs: stop.
                    while let Ok(Ok((number, work))) = queue.lock().map(|q| q.recv()) {
                        if done.send((number, work.check(&keys, &mut fast))).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(done);
            let mut order = InOrder::default();
            // Entries of a file of JSON values go out together: a hand-over between threads
            // costs more than checking a short record.
            let mut entries = Vec::new();
            let mut end = false;
            while !end {
                // Pending entries go out before a block, so that the pieces stay in order.
                let mut ready = Vec::new();
                match reader.next_piece() {
                    Ok(Some(Piece::Lines(block))) => ready.push(Work::Lines(block)),
                    Ok(Some(Piece::Entry(line, parsed))) => entries.push((line, parsed)),
                    Ok(None) => end = true,
                    Err(e) => {
                        read_error = Some(e);
                        end = true;
                    }
                }
                if !entries.is_empty() && (end || entries.len() >= 256 || !ready.is_empty()) {
                    ready.insert(0, Work::Entries(std::mem::take(&mut entries)));
                }
                for work in ready {
                    let bytes = work.bytes();
                    // Within bounds: the pieces' bytes, and the pieces out (their problems wait
                    // here).
                    while order.bytes > 0
                        && (order.bytes + bytes > IN_FLIGHT_BYTES || order.out() >= 4 * workers)
                    {
                        let Some(done) = order.next(&results) else {
                            break;
                        };
                        self.take(done, reader, duplicates, index, file);
                    }
                    let number = order.send(bytes);
                    if jobs.send((number, work)).is_err() {
                        end = true;
                    }
                }
            }
            drop(jobs);
            while let Some(done) = order.next(&results) {
                self.take(done, reader, duplicates, index, file);
            }
        });
        match read_error {
            Some(e) => self.unreadable(file, &e),
            None if self.records == before => {
                let problem = RecordProblem::new(ProblemKind::Empty, "holds no records");
                self.add(file, 0, problem);
            }
            None => {}
        }
    }

    /// Counts the records of a piece and reports their problems; its buffer goes back to `reader`.
    fn take<R: std::io::Read>(
        &mut self,
        done: Done,
        reader: &mut Reader<R>,
        duplicates: &mut Duplicates,
        index: usize,
        file: &str,
    ) {
        for checked in done.checked {
            self.records += 1;
            self.take_one(checked, duplicates, index, file);
        }
        if let Some(buffer) = done.buffer {
            reader.recycle(buffer);
        }
    }

    /// Counts one checked record and reports its problem: that it is a game seen before, first.
    fn take_one(
        &mut self,
        checked: Checked,
        duplicates: &mut Duplicates,
        index: usize,
        file: &str,
    ) {
        // Only a valid record claims its game: a damaged copy read first blames itself, not the
        // good one after it.
        let valid = checked.outcome.is_ok();
        let duplicate = checked.key.filter(|_| valid).and_then(|(key, game)| {
            let (first_file, first_line) = duplicates.note(key, index, checked.line)?;
            Some(RecordProblem::new(
                ProblemKind::Duplicate,
                format!(
                    "game {game} again: the same game is at {}:{first_line}",
                    self.files.get(first_file).map_or(file, String::as_str)
                ),
            ))
        });
        match duplicate.map_or(checked.outcome, Err) {
            Ok(plies) => {
                self.valid += 1;
                self.plies += plies;
            }
            Err(problem) => self.add(file, checked.line, problem),
        }
    }
}

/// The most bytes of lines read ahead of the report while workers check them.
pub const IN_FLIGHT_BYTES: usize = 4 << 20;

/// What a worker is given: a block of lines, or entries already read.
enum Work {
    Lines(Block),
    Entries(Vec<(usize, Box<Result<Record, EntryError>>)>),
}

/// What a worker gives back: the records checked in order, and the block's buffer.
struct Done {
    checked: Vec<Checked>,
    buffer: Option<Vec<u8>>,
}

/// A record checked: its line, its key for [`Duplicates`] with its game number, and its plies
/// or its first problem.
struct Checked {
    line: usize,
    key: Option<(u64, String)>,
    outcome: Result<usize, RecordProblem>,
}

impl Work {
    fn bytes(&self) -> usize {
        match self {
            Work::Lines(block) => block.text().len(),
            Work::Entries(entries) => entries.len() * std::mem::size_of::<Record>(),
        }
    }

    /// Each record split off, parsed and checked, in order.
    fn check(self, keys: &DuplicateKeys, fast: &mut FastLines) -> Done {
        match self {
            Work::Lines(block) => {
                let checked = (block.lines())
                    .map(|(line, text, whole)| check_line(line, text, whole, keys, fast));
                Done {
                    checked: checked.collect(),
                    buffer: Some(block.into_buffer()),
                }
            }
            Work::Entries(entries) => Done {
                checked: (entries.into_iter())
                    .map(|(line, parsed)| check_parsed(line, *parsed, keys))
                    .collect(),
                buffer: None,
            },
        }
    }
}

/// A record's key for [`Duplicates`], with its game number.
fn key_of(keys: &DuplicateKeys, record: &Record) -> Option<(u64, String)> {
    Some((keys.key(record)?, record.tags.get("game")?.clone()))
}

/// A line parsed (in place where it is in the referee's form, else by serde_json), keyed and
/// replayed.
fn check_line(
    line: usize,
    text: &[u8],
    whole: bool,
    keys: &DuplicateKeys,
    fast: &mut FastLines,
) -> Checked {
    match fast.read(text) {
        Some((record, plies)) => Checked {
            line,
            key: key_of(keys, &record),
            outcome: check_plies(&record, plies.into_iter()),
        },
        None => check_parsed(line, RawEntry::Line { text, whole }.parse(), keys),
    }
}

/// A record read whole (or why it is not one), keyed and replayed.
fn check_parsed(line: usize, parsed: Result<Record, EntryError>, keys: &DuplicateKeys) -> Checked {
    let (key, outcome) = match parsed {
        Ok(record) => (key_of(keys, &record), check_record(&record)),
        Err(EntryError::Json(e)) => (None, Err(malformed(&e))),
        Err(e) => (
            None,
            Err(RecordProblem::new(ProblemKind::Malformed, e.to_string())),
        ),
    };
    Checked { line, key, outcome }
}

/// The workers' results (a batch each), which come back in any order, handed on in the order of
/// their batches.
#[derive(Default)]
struct InOrder {
    /// Jobs sent.
    sent: usize,
    /// The number of the next result to hand on.
    next: usize,
    /// The bytes of the jobs not handed on, and each one's.
    bytes: usize,
    sizes: VecDeque<usize>,
    /// Results that came before their turn.
    early: BTreeMap<usize, Done>,
}

impl InOrder {
    /// The batches sent and not handed on.
    fn out(&self) -> usize {
        self.sent - self.next
    }

    /// Notes a batch of `bytes` sent; its number.
    fn send(&mut self, bytes: usize) -> usize {
        self.bytes += bytes;
        self.sizes.push_back(bytes);
        self.sent += 1;
        self.sent - 1
    }

    /// The next result in order, waiting for it; `None` when every job's was handed on (or the
    /// workers are gone).
    fn next(&mut self, results: &mpsc::Receiver<(usize, Done)>) -> Option<Done> {
        while self.next < self.sent {
            if let Some(checked) = self.early.remove(&self.next) {
                self.next += 1;
                self.bytes -= self.sizes.pop_front().unwrap_or(0);
                return Some(checked);
            }
            let (number, checked) = results.recv().ok()?;
            self.early.insert(number, checked);
        }
        None
    }
}

/// Validates every file (`.jsonl` line by line, anything else as JSON values; `-` is standard
/// input, read as `.jsonl`), in order, into `report`: see [`Report::check_reader`].
pub fn validate_files(paths: &[std::path::PathBuf], report: &mut Report<'_>) {
    let mut duplicates = Duplicates::default();
    for (index, path) in paths.iter().enumerate() {
        let name = path.display().to_string();
        report.files.push(name.clone());
        match Reader::open(path) {
            Ok(mut reader) => report.check_reader(&name, &mut reader, &mut duplicates, index),
            Err(e) => report.unreadable(&name, &e),
        }
    }
}

impl fmt::Display for Report<'_> {
    /// The summary line (the problems went to the sink).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.ok() { "ok" } else { "FAILED" };
        write!(
            f,
            "{verdict}: {} of {} records valid, {} plies replayed, {} problem{}",
            self.valid,
            self.records,
            self.plies,
            self.problems,
            if self.problems == 1 { "" } else { "s" }
        )
    }
}

fn malformed(error: &serde_json::Error) -> RecordProblem {
    let what = if error.is_eof() {
        "truncated JSON"
    } else if error.is_data() {
        "not a valid record"
    } else {
        "malformed JSON"
    };
    RecordProblem::new(ProblemKind::Malformed, format!("{what}: {error}"))
}

/// Replays one record against the rules; returns its number of plies, or its first problem.
pub fn check_record(record: &Record) -> Result<usize, RecordProblem> {
    check_plies(record, record.moves.iter().map(Ply::text))
}

/// Replays `record` with `plies` in place of its own `moves` (read apart by the fast path).
pub fn check_plies<'a>(
    record: &Record,
    plies: impl ExactSizeIterator<Item = PlyText<'a>>,
) -> Result<usize, RecordProblem> {
    let count = plies.len();
    if record.format != FORMAT || record.version != VERSION {
        return Err(RecordProblem::new(
            ProblemKind::Format,
            format!(
                "format {} version {} is not {FORMAT} version {VERSION}",
                record.format, record.version
            ),
        ));
    }
    let mut game = stored_game(record)?;
    // The loop compiled once per game, so that a ply's rules are called directly, not through
    // `AnyGame`'s match three times a ply.
    dispatch!(&mut game, g => replay(g, record, plies))?;
    if let Some(opening) = record.opening.filter(|&o| o > count) {
        return Err(RecordProblem::new(
            ProblemKind::Opening,
            format!("the opening is {opening} plies, the game only {count}"),
        ));
    }
    check_faults(&game, record, count)?;
    check_end(&game, record, count)?;
    Ok(count)
}

/// The game `record` replays from: its stored layout, which must be the one its seed draws.
fn stored_game(record: &Record) -> Result<AnyGame, RecordProblem> {
    let drawn = Setup {
        variant: record.variant.clone(),
        seats: Some(record.seats.len()),
        seed: record.seed,
        layout: None,
    };
    let setup_problem = |e: SetupError| RecordProblem::new(ProblemKind::Setup, e.to_string());
    // The game replays from the stored layout; the layout must be the one the seed draws.
    let from_seed = AnyGame::create(&record.game, &drawn).map_err(setup_problem)?;
    if from_seed.public_setup() != record.setup {
        return Err(RecordProblem::new(
            ProblemKind::Setup,
            format!(
                "setup {} is not the one seed {} draws: {}",
                record.setup.as_deref().unwrap_or("(none)"),
                record.seed,
                from_seed.public_setup().as_deref().unwrap_or("(none)")
            ),
        ));
    }
    let stored = Setup {
        layout: record.setup.clone(),
        ..drawn
    };
    AnyGame::create(&record.game, &stored).map_err(setup_problem)
}

/// Plays `plies` on `game`, each checked by [`check_ply`].
fn replay<'a, G: Game>(
    game: &mut G,
    record: &Record,
    plies: impl Iterator<Item = PlyText<'a>>,
) -> Result<(), RecordProblem> {
    for (index, ply) in plies.enumerate() {
        check_ply(game, record, index, &ply)?;
    }
    Ok(())
}

/// Plays ply `index` of `record` on `game`: numbered in order, by the seat to move, a move the
/// rules allow, and a chance event the seed draws.
// Once per ply of every record: kept in its caller's loop, as it was before it had a name.
#[inline(always)]
fn check_ply<G: Game>(
    game: &mut G,
    record: &Record,
    index: usize,
    ply: &PlyText<'_>,
) -> Result<(), RecordProblem> {
    let problem = |kind, message: String| RecordProblem {
        ply: Some(index),
        seat: ply.seat,
        mv: Some(ply.mv.to_owned()),
        kind,
        message,
    };
    if ply.ply != index {
        return Err(problem(
            ProblemKind::PlyNumber,
            format!("numbered {} but it is ply {index}", ply.ply),
        ));
    }
    match (game.to_move(), ply.seat) {
        (None, _) => {
            return Err(problem(
                ProblemKind::IllegalMove,
                format!("move {} after the end of the game", ply.mv),
            ));
        }
        (Some(Actor::Seat(s)), Some(seat)) if s == seat => {}
        (Some(Actor::Chance), None) => {}
        (Some(actor), _) => {
            let expected = match actor {
                Actor::Seat(s) => format!("seat {s} is to move"),
                Actor::Chance => "a chance event (no seat) is next".to_owned(),
            };
            return Err(problem(ProblemKind::WrongSeat, expected));
        }
    }
    // The replay follows the recorded chance event; that the seed draws it is checked apart.
    let seeded = match ply.seat {
        None => game.seeded_chance(record.seed),
        Some(_) => None,
    };
    let played = game
        .parse_move(ply.mv)
        .map_err(MoveError::from)
        .and_then(|mv| {
            game.try_play(&mv).map_err(MoveError::from)?;
            Ok(mv)
        });
    match played {
        Ok(mv) => {
            if let Some(expected) = seeded.filter(|s| *s != mv) {
                return Err(problem(
                    ProblemKind::Chance,
                    format!("the seed {} draws {expected}, not {mv}", record.seed),
                ));
            }
        }
        Err(e @ MoveError::Parse(_)) => {
            return Err(problem(ProblemKind::UnparseableMove, e.to_string()));
        }
        Err(e @ MoveError::Illegal(_)) => {
            return Err(problem(ProblemKind::IllegalMove, e.to_string()));
        }
    }
    Ok(())
}

/// Substituted seats: each once, a real seat, at a ply the game reached, in games of three or more.
fn check_faults(game: &AnyGame, record: &Record, plies: usize) -> Result<(), RecordProblem> {
    let problem = |message: String| Err(RecordProblem::new(ProblemKind::End, message));
    for (i, fault) in record.faults.iter().enumerate() {
        if game.seats() < 3 {
            return problem("only games of three or more seats go on after a fault".to_owned());
        }
        if fault.seat >= game.seats() || fault.ply > plies {
            return problem(format!(
                "fault of seat {} at ply {} is outside the game",
                fault.seat, fault.ply
            ));
        }
        if record.faults[..i].iter().any(|f| f.seat == fault.seat) {
            return problem(format!("seat {} is substituted twice", fault.seat));
        }
    }
    Ok(())
}

/// The stored end and result against the replayed position.
fn check_end(game: &AnyGame, record: &Record, plies: usize) -> Result<(), RecordProblem> {
    let over = game.outcome() != Outcome::Ongoing;
    let end_problem = |message: String| Err(RecordProblem::new(ProblemKind::End, message));
    match (&record.end, over) {
        (None, true) => {
            return end_problem(format!(
                "the game is over after {plies} plies ({}) but the record has no end",
                game.outcome()
            ));
        }
        (None, false) => {
            return match &record.result {
                Some(_) => end_problem("an unfinished game (no end) has a result".to_owned()),
                None => Ok(()),
            };
        }
        (Some(End::Normal {}), false) => {
            return end_problem(format!(
                "the record says the rules ended the game, but after {plies} plies it goes on"
            ));
        }
        (Some(End::Resignation { .. } | End::Verdict { .. }), true) => {
            return end_problem(format!(
                "the rules ended the game after {plies} plies; nothing can end it after that"
            ));
        }
        (Some(End::Resignation { seat } | End::Verdict { seat, .. }), false)
            if *seat >= game.seats() =>
        {
            return end_problem(format!("no seat {seat} in a game of {}", game.seats()));
        }
        (Some(_), _) => {}
    }
    let end = record.end.as_ref().expect("matched Some above");
    let expected = result_of(game, end, &record.faults);
    match &record.result {
        Some(stored) if *stored == expected => Ok(()),
        stored => Err(RecordProblem::new(
            ProblemKind::Result,
            format!(
                "stored result {} but the replay gives {}",
                describe(stored.as_ref()),
                describe(Some(&expected))
            ),
        )),
    }
}

fn describe(result: Option<&GameResult>) -> String {
    match result {
        None => "none".to_owned(),
        Some(r) => format!("winners {:?} scores {:?}", r.winners, r.scores),
    }
}
