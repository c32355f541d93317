//! What `referee serve` shows, kept up to date from the files it follows: the records files (the
//! report's standings, ratings and curves, and the finished games), and the live files (the
//! games in progress, replayed ply by ply and drawn as a spectator sees them: no hidden card of
//! a game in progress is ever in what it sends).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

use crate::records::Record;
use crate::records::follow::{Follow, Seen};
use crate::records::live::LiveEvent;
use crate::records::replay::Replay;
use crate::render::board::Picture;
use crate::render::report::{SeriesBuilder, report_html};
use crate::render::wall::{Heading, headline_html, sprt_box_html, table_html};
use crate::rules::AnyGame;
use crate::rules::game::{Game, Setup, Viewer};
use crate::stats::elo::Sprt;

/// The most games in progress shown: a live file of a killed run may hold games that never end.
const MAX_LIVE: usize = 64;

/// The most finished games listed on the page (the newest); every one can be opened.
const LISTED: usize = 200;

/// A finished game: where its record is, and what the list says of it.
struct Finished {
    file: usize,
    offset: u64,
    /// The deal it is one rotation of, when its cards are hidden and its deal is played once per
    /// rotation of the seats (`--repeat`): it is shown once every rotation has ended.
    deal: Option<Deal>,
}

/// A deal of hidden cards played once per rotation of the seats: the run (`tags.tournament`)
/// and the seed.
type Deal = (String, u64);

/// A finished game as `/game/N` may show it.
pub enum Shown<R = Box<Record>> {
    /// Its record (or, where only whether it is shown is asked, nothing).
    Record(R),
    /// Held back: other rotations of its deal have not ended, and it would show their hands.
    Held,
}

/// A game in progress, replayed from the live file.
struct LiveGame {
    title: String,
    names: Vec<String>,
    replay: Replay,
    /// Each seat's clock after the last ply, in milliseconds.
    clocks: Vec<f64>,
    /// The last ply as a spectator may see it, and what its engine said (never for a game
    /// with hidden cards), and what it touched on the board.
    last: String,
    marks: Vec<String>,
    /// Each `info` score so far: ply, seat, score (none for a game with hidden cards).
    scores: Vec<(usize, usize, i64)>,
    /// When it last changed, in the watcher's own count of events.
    touched: u64,
    /// Whether it is one rotation of a deal played once per rotation (`--repeat`).
    duplicate: bool,
}

/// What the page shows of one game in progress.
#[derive(Serialize)]
struct LiveView<'a> {
    key: String,
    title: &'a str,
    ply: usize,
    svg: String,
    marks: Vec<String>,
    last: &'a str,
    clocks: Vec<String>,
    /// The seat on move, if a seat is.
    on_move: Option<usize>,
    /// The engines' scores so far: ply, seat, score.
    scores: &'a [(usize, usize, i64)],
    names: &'a [String],
}

/// What `/state` sends.
#[derive(Serialize)]
struct State<'a> {
    version: u64,
    /// The headline, the SPRT box (empty without a test) and the standings in brief, as HTML.
    headline: String,
    sprt: &'a str,
    table: &'a str,
    report: &'a str,
    progress: &'a str,
    finished: usize,
    /// The newest finished games: their number (from 1, for `/game/N`), title and result.
    listed: Vec<(usize, String, String)>,
    live: Vec<LiveView<'a>>,
}

/// What a page follows: a run's records, live and progress files, and whether its games in
/// progress are shown whole.
#[derive(Clone, Debug, Default)]
pub struct Files {
    /// Records files.
    pub records: Vec<PathBuf>,
    /// Live files (`--live`).
    pub lives: Vec<PathBuf>,
    /// Progress files (`--progress`).
    pub progress: Vec<PathBuf>,
    /// Hidden cards of games in progress shown (`--reveal`).
    pub reveal: bool,
}

/// The files followed and what they hold so far.
pub struct Watch {
    records: Vec<Follow>,
    lives: Vec<Follow>,
    /// The run's `--progress` files, summed as `stats --progress` does, and what they say.
    progress_files: Vec<PathBuf>,
    progress: String,
    /// Show games in progress whole, hidden cards included (no engine is playing them).
    reveal: bool,
    sprt: Option<Sprt>,
    series: SeriesBuilder,
    report: String,
    /// The SPRT box and the standings in brief, drawn with the report.
    sprt_box: String,
    table: String,
    /// What the headline says: from the live file's run line, else from the first record.
    heading: Option<Heading>,
    record_heading: Option<Heading>,
    finished: Vec<Finished>,
    listed: std::collections::VecDeque<(usize, String, String)>,
    live: BTreeMap<(usize, usize), LiveGame>,
    /// Deals of hidden cards in duplicate play: how many of their rotations have ended, and how
    /// many there are.
    deals: std::collections::HashMap<Deal, (usize, usize)>,
    /// Live events read so far: which game moved last.
    events: u64,
    /// Counts the records files' replacements (see [`Watch::run`]).
    run: u64,
    version: u64,
    /// `/state`'s body for the current version.
    state: Arc<Vec<u8>>,
}

impl Watch {
    /// Follows what `files` names; `sprt` is the test the report draws (the records' own when
    /// none).
    pub fn new(files: &Files, sprt: Option<Sprt>) -> Watch {
        let mut watch = Watch {
            records: files.records.iter().map(|p| Follow::new(p)).collect(),
            lives: files.lives.iter().map(|p| Follow::new(p)).collect(),
            progress_files: files.progress.clone(),
            progress: String::new(),
            reveal: files.reveal,
            sprt,
            series: SeriesBuilder::default(),
            report: String::new(),
            sprt_box: String::new(),
            table: String::new(),
            heading: None,
            record_heading: None,
            finished: Vec::new(),
            listed: std::collections::VecDeque::new(),
            live: BTreeMap::new(),
            deals: std::collections::HashMap::new(),
            events: 0,
            run: 0,
            version: 0,
            state: Arc::new(Vec::new()),
        };
        watch.render();
        watch
    }

    /// `/state`'s body and its version.
    pub fn state(&self) -> (u64, Arc<Vec<u8>>) {
        (self.version, self.state.clone())
    }

    /// Which run the finished games' numbers count: it changes when a records file is replaced.
    pub fn run(&self) -> u64 {
        self.run
    }

    /// Whether finished game `number` (from 1) is there and may be shown.
    pub fn finished_status(&self, number: usize) -> Option<Shown<()>> {
        let game = self.finished.get(number.checked_sub(1)?)?;
        let ended = |deal| {
            self.deals
                .get(deal)
                .is_some_and(|(ended, all)| ended >= all)
        };
        match game.deal.as_ref().is_some_and(|deal| !ended(deal)) {
            true => Some(Shown::Held),
            false => Some(Shown::Record(())),
        }
    }

    /// The record of finished game `number` (from 1), read again from its file.
    pub fn finished_record(&self, number: usize) -> Option<Shown> {
        if let Shown::Held = self.finished_status(number)? {
            return Some(Shown::Held);
        }
        let game = self.finished.get(number.checked_sub(1)?)?;
        let path = self.records.get(game.file)?.path();
        let mut file = std::fs::File::open(path).ok()?;
        std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(game.offset)).ok()?;
        let mut input = std::io::BufReader::new(file);
        let mut line = Vec::new();
        let max = crate::records::file::MAX_RECORD_BYTES;
        crate::bounded::read_line(&mut input, &mut line, max).ok()??;
        serde_json::from_slice(&line).ok().map(Shown::Record)
    }

    /// Reads what the files gained since the last look; `true` when anything changed.
    pub fn refresh(&mut self) -> bool {
        let records = self.read_records();
        let lives = self.read_lives();
        let progress = self.read_progress();
        if records {
            let sprt = match (&self.sprt, self.series.recorded_sprt()) {
                (Some(given), _) => Some(*given),
                (None, Some(words)) => {
                    let words: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
                    Sprt::parse(&words).ok()
                }
                (None, None) => None,
            };
            let series = self.series.finish(sprt.as_ref());
            self.report = report_html(&series, sprt.as_ref());
            self.sprt_box = (sprt.as_ref())
                .filter(|_| series.results.games > 0)
                .map(|sprt| sprt_box_html(&series, sprt))
                .unwrap_or_default();
            self.table = match series.results.games {
                0 => String::new(),
                _ => table_html(&series),
            };
        }
        if records || lives || progress {
            self.render();
        }
        records || lives || progress
    }

    /// What the progress files say now; `true` when it changed.
    fn read_progress(&mut self) -> bool {
        if self.progress_files.is_empty() {
            return false;
        }
        let now = match crate::cli::run::progress_file::Overall::read(&self.progress_files) {
            Ok(overall) => overall.to_string(),
            Err(e) => format!("progress: {e}"),
        };
        let changed = now != self.progress;
        self.progress = now;
        changed
    }

    /// New finished games: counted for the report, listed, and where to find them kept. A
    /// records file that became shorter was replaced (a new run): everything is counted again.
    fn read_records(&mut self) -> bool {
        let (changed, replaced) = self.read_new_records();
        if !replaced {
            return changed;
        }
        self.records = self.records.iter().map(|f| Follow::new(f.path())).collect();
        self.run += 1;
        self.series = SeriesBuilder::default();
        self.record_heading = None;
        self.finished.clear();
        self.listed.clear();
        self.deals.clear();
        self.read_new_records();
        true
    }

    /// Whether the records files gained games, and whether one of them was replaced.
    fn read_new_records(&mut self) -> (bool, bool) {
        let (mut changed, mut replaced) = (false, false);
        for (file, follow) in self.records.iter_mut().enumerate() {
            let (series, finished, listed, deals, record_heading) = (
                &mut self.series,
                &mut self.finished,
                &mut self.listed,
                &mut self.deals,
                &mut self.record_heading,
            );
            let seen = follow.read_new(|seen| {
                let Seen::Line { offset, text, .. } = seen else {
                    return Ok::<(), ()>(());
                };
                let Ok(record) = serde_json::from_slice::<Record>(text) else {
                    return Ok(());
                };
                if record_heading.is_none() {
                    *record_heading = Some(heading_of(&record));
                }
                series.add(&record);
                let deal = duplicate_deal(&record);
                if let Some(deal) = &deal {
                    let seen = deals.entry(deal.clone()).or_insert((0, record.seats.len()));
                    seen.0 += 1;
                }
                finished.push(Finished { file, offset, deal });
                let names: Vec<&str> = record.seats.iter().map(|s| s.name.as_str()).collect();
                let title = format!("{}: {}", record.game, names.join(" vs "));
                let result = crate::render::viewer::end_text(&record);
                listed.push_back((finished.len(), title, result));
                if listed.len() > LISTED {
                    listed.pop_front();
                }
                changed = true;
                Ok(())
            });
            // A file that cannot be read now may be readable at the next look.
            replaced |= matches!(seen, Ok(true));
        }
        (changed, replaced)
    }

    /// New events of the games in progress.
    fn read_lives(&mut self) -> bool {
        let mut changed = false;
        let reveal = self.reveal;
        for (file, follow) in self.lives.iter_mut().enumerate() {
            let (live, events, heading) = (&mut self.live, &mut self.events, &mut self.heading);
            let _ = follow.read_new(|seen| {
                let text = match seen {
                    Seen::Line { text, .. } => text,
                    // A live file emptied: its run started again, or it began again with the
                    // games in progress, which follow.
                    Seen::Restart => {
                        live.retain(|&(f, _), _| f != file);
                        changed = true;
                        return Ok::<(), ()>(());
                    }
                    Seen::TooLong { .. } => return Ok(()),
                };
                if let Ok(event) = serde_json::from_slice::<LiveEvent>(text) {
                    if let LiveEvent::Run {
                        title,
                        game,
                        tc,
                        games,
                        done,
                        started_ms,
                        ..
                    } = &event
                    {
                        *heading = Some(Heading {
                            title: title.clone(),
                            game: game.clone(),
                            tc: Some(tc.clone()),
                            games: Some((*games, *done)),
                            started_ms: Some(*started_ms),
                        });
                    }
                    *events += 1;
                    apply(live, (file, reveal), event, *events);
                    changed = true;
                }
                Ok(())
            });
        }
        // The most recently moved games stay.
        while self.live.len() > MAX_LIVE {
            let oldest = (self.live.iter())
                .min_by_key(|(_, g)| g.touched)
                .map(|(key, _)| *key);
            match oldest {
                Some(key) => self.live.remove(&key),
                None => break,
            };
        }
        changed
    }

    /// `/state`'s body for what is known now, under a new version.
    fn render(&mut self) {
        self.version += 1;
        let live = (self.live.iter())
            .map(|(&(file, game), g)| {
                let hides = g.replay.game().hides_information() && !self.reveal;
                let viewer = if hides {
                    Viewer::Spectator
                } else {
                    Viewer::Everyone
                };
                // One rotation of a duplicate deal: what a spectator sees of it (the cards
                // played) is what other rotations hold in their hands.
                let (svg, marks, last) = match hides && g.duplicate {
                    true => (String::new(), Vec::new(), DUPLICATE_VEIL),
                    false => (
                        g.replay.game().svg_named(viewer, &g.names),
                        g.marks.clone(),
                        g.last.as_str(),
                    ),
                };
                LiveView {
                    key: format!("{file}-{game}"),
                    title: &g.title,
                    ply: g.replay.plies(),
                    svg,
                    marks,
                    last,
                    clocks: (g.clocks.iter()).map(|ms| clock_text(*ms)).collect(),
                    on_move: match g.replay.game().to_move() {
                        Some(crate::rules::game::Actor::Seat(seat)) => Some(seat),
                        _ => None,
                    },
                    scores: &g.scores,
                    names: &g.names,
                }
            })
            .collect();
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let heading = (self.heading.as_ref())
            .or(self.record_heading.as_ref())
            .cloned()
            .unwrap_or_else(|| Heading {
                title: "referee".into(),
                game: "waiting for the first game".into(),
                ..Heading::default()
            });
        let state = State {
            version: self.version,
            headline: headline_html(&heading, self.finished.len(), now_ms),
            sprt: &self.sprt_box,
            table: &self.table,
            report: &self.report,
            progress: &self.progress,
            finished: self.finished.len(),
            listed: self.listed.iter().rev().cloned().collect(),
            live,
        };
        self.state = Arc::new(serde_json::to_vec(&state).unwrap_or_default());
    }
}

/// A clock as the page shows it: `4:05.3`, or `12.3` under a minute.
fn clock_text(ms: f64) -> String {
    let tenths = (ms.max(0.0) / 100.0).round() as u64;
    match tenths {
        0..600 => format!("{}.{}", tenths / 10, tenths % 10),
        _ => format!("{}:{:02}.{}", tenths / 600, (tenths / 10) % 60, tenths % 10),
    }
}

/// What the headline says of a run known only by its records: the event's name (`tags.event`),
/// else its format and engines (`tags.tournament`), and the game.
fn heading_of(record: &Record) -> Heading {
    let tag = (record.tags.get("tournament")).and_then(|t| crate::events::tag::RunTag::parse(t));
    let title = match (record.tags.get("event"), tag) {
        (Some(event), _) => event.clone(),
        (None, Some(tag)) => format!("{} of {} engines", tag.format.name(), tag.engines.len()),
        (None, None) => "games".to_owned(),
    };
    Heading {
        title,
        game: match &record.variant {
            Some(variant) => format!("{} {variant}", record.game),
            None => record.game.clone(),
        },
        ..Heading::default()
    }
}

/// What the page says of a game in progress that is one rotation of a duplicate deal of hidden
/// cards, in place of its board.
const DUPLICATE_VEIL: &str =
    "one rotation of a duplicate deal: shown once every rotation of the deal has ended";

/// The deal `record` is one rotation of, when its cards are hidden and it was played with
/// `--repeat` (its run's fingerprint says `repeat=true`).
fn duplicate_deal(record: &Record) -> Option<Deal> {
    let tournament = record.tags.get("tournament")?;
    if !tournament.split_whitespace().any(|w| w == "repeat=true") {
        return None;
    }
    let setup = Setup {
        variant: record.variant.clone(),
        seats: Some(record.seats.len()),
        seed: record.seed,
        layout: record.setup.clone(),
    };
    let hides = AnyGame::create(&record.game, &setup)
        .ok()?
        .hides_information();
    hides.then(|| (tournament.clone(), record.seed))
}

/// Applies one live event to the games in progress of live file `file` (shown whole when
/// `reveal`).
fn apply(
    live: &mut BTreeMap<(usize, usize), LiveGame>,
    (file, reveal): (usize, bool),
    event: LiveEvent,
    at: u64,
) {
    let key = (file, event.game());
    match event {
        LiveEvent::Start {
            game,
            id,
            variant,
            seats,
            seed,
            duplicate,
        } => {
            let setup = Setup {
                variant,
                seats: Some(seats.len()),
                seed,
                layout: None,
            };
            let Ok(replay) = Replay::new(&id, &setup) else {
                live.remove(&key);
                return;
            };
            let title = format!("{game}. {id}: {}", seats.join(" vs "));
            live.insert(
                key,
                LiveGame {
                    title,
                    names: seats,
                    replay,
                    clocks: Vec::new(),
                    last: String::new(),
                    marks: Vec::new(),
                    scores: Vec::new(),
                    touched: at,
                    duplicate,
                },
            );
        }
        LiveEvent::Ply { ply, clocks_ms, .. } => {
            let Some(game) = live.get_mut(&key) else {
                return;
            };
            // A ply out of step, or one the rules refuse: the game is not shown until it
            // starts again.
            let played = (ply.ply == game.replay.plies())
                .then(|| game.replay.play(&ply.mv).ok())
                .flatten();
            let Some(mv) = played else {
                live.remove(&key);
                return;
            };
            let hides = game.replay.game().hides_information() && !reveal;
            let who = ply
                .seat
                .and_then(|s| game.names.get(s))
                .map_or("chance", String::as_str);
            // A spectator's view of the move: the card of a deal or a draw is hidden.
            let now = game.replay.game();
            let text = match hides {
                true => now.visible_text(&mv, Viewer::Spectator),
                false => ply.mv.clone(),
            };
            game.marks = now.marks(&mv);
            let said = match (&ply.info, hides) {
                (Some(info), false) => format!(" ({})", crate::render::viewer::info_text(info)),
                _ => String::new(),
            };
            let score = (ply.seat.zip(ply.info.as_ref().and_then(|i| i.score))).filter(|_| !hides);
            if let Some((seat, score)) = score {
                game.scores.push((ply.ply + 1, seat, score));
            }
            game.last = format!("{who}: {text}{said}");
            game.clocks = clocks_ms;
            game.touched = at;
        }
        LiveEvent::Run { .. } => {}
        LiveEvent::End { .. } => {
            live.remove(&key);
        }
    }
}
