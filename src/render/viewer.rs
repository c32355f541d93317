//! The HTML replay viewer: one self-contained page (no network, no external assets) that lists the
//! games of a records file and steps through any of them.
//!
//! Every position is drawn here, in Rust, as SVG (the same pictures as `referee render`), so the
//! page needs no rules of its own. A game's pictures are drawn as one [`Scene`]: their distinct
//! lines listed once, their parts (a piece, a card) listed once for the whole page
//! ([`SharedParts`]), and a picture travels as its change from the one before (items kept,
//! dropped, and added by their numbers); each game is packed on its own and
//! unpacked when it is opened: the page grows with the moves, not with pictures of every position,
//! and it is written one game at a time, so memory is bounded by the largest game, whatever the
//! number of games. The page opens the game and ply named in its address (`#game=2&ply=10`), and
//! `steps=N` there presses the right arrow key N times once loaded, so a headless browser can step
//! through a game.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use flate2::{Compress, Compression, FlushCompress, Status};
use serde::Serialize;

use crate::protocol::Info;
use crate::records::replay::{ReplayError, replay_steps};
use crate::records::{End, Record};
use crate::render::board::Picture;
use crate::render::svg::{Item, Scene, SharedParts};
use crate::rules::game::{Game, Viewer};
use rustc_hash::FxHashMap;

use std::sync::Arc;

/// One game as the page unpacks it when it is opened.
#[derive(Serialize)]
struct PageGame {
    title: String,
    result: String,
    /// What the picture's symbols mean.
    legend: &'static str,
    /// The seats' names.
    seats: Vec<String>,
    /// Per ply: who played, what, the time used and the clock left.
    moves: Vec<PageMove>,
    /// Every distinct line and mark of the game's pictures, once (see [`Scene`]); the parts are
    /// the page's (`parts` in its script).
    lines: Vec<String>,
    /// Per picture, the cells or cards its last move touched (`data-mark` in the picture).
    marks: Vec<Vec<String>>,
    scores: Vec<Vec<i64>>,
}

/// A ply as the page unpacks it (an array, the fields unnamed: a game has hundreds): what was
/// played, by which seat (`None` for chance), the milliseconds it used and had left, what the
/// engine said of its thinking (`info`, in words; empty when it said nothing), and its score from
/// its own seat's view.
#[derive(Serialize)]
struct PageMove(
    String,
    Option<usize>,
    Option<f64>,
    Option<f64>,
    String,
    Option<i64>,
);

/// An engine's `info` in a few words: `score 35 · depth 7 · 120422 nodes · 410 ms · pv C1,E3E4
/// · hashfull=7 · its text`.
pub fn info_text(info: &Info) -> String {
    let mut parts = Vec::new();
    if let Some(score) = info.score {
        parts.push(format!("score {score}"));
    }
    if let Some(depth) = info.depth {
        parts.push(format!("depth {depth}"));
    }
    if let Some(nodes) = info.nodes {
        parts.push(format!("{nodes} nodes"));
    }
    if let Some(time) = info.time {
        parts.push(format!("{time} ms"));
    }
    if let Some(pv) = &info.pv {
        parts.push(format!("pv {pv}"));
    }
    parts.extend(info.keys.iter().map(|(k, v)| format!("{k}={v}")));
    parts.extend(info.text.clone());
    parts.join(" · ")
}

/// How a game ended, in words with the seats' names: `won by a; b resigned`.
pub fn end_text(record: &Record) -> String {
    let name = |seat: usize| record.seat_name(seat);
    let winners = record.result.as_ref().map(|r| {
        r.winners
            .iter()
            .map(|&s| name(s))
            .collect::<Vec<_>>()
            .join(", ")
    });
    let how = match &record.end {
        None => return "unfinished".to_owned(),
        Some(End::Normal {}) => "normal end".to_owned(),
        Some(End::Resignation { seat }) => format!("{} resigned", name(*seat)),
        Some(End::Verdict {
            seat,
            verdict,
            detail,
        }) => format!("{} loses by {}: {detail}", name(*seat), verdict.words()),
    };
    let substitutes = record.substitutions();
    format!("won by {}; {how}{substitutes}", winners.unwrap_or_default())
}

/// A game for the page, and its `frames` (written apart: see [`FramesJson`]).
fn page_game(
    index: usize,
    record: &Record,
    parts: &Arc<SharedParts>,
) -> Result<(PageGame, FramesJson, Vec<usize>), ReplayError> {
    let mut frames = FramesJson::default();
    // A part's key says everything its drawing depends on within one game; across games of the
    // same kind, variant and number of seats, a part with the same key is the same drawing.
    let kind = format!(
        "{} {} {}",
        record.game,
        record.variant.as_deref().unwrap_or("-"),
        record.seats.len()
    );
    let mut scene = Scene::sharing(Arc::clone(parts), kind);
    let mut previous = Vec::new();
    // What each ply touched, marked on the picture after it; nothing on the first.
    let mut marks = vec![Vec::new()];
    let mut scores = Vec::new();
    let mut moves = Vec::new();
    let names: Vec<String> = record.seats.iter().map(|s| s.name.clone()).collect();
    let end = replay_steps(&record.moves, record, |game, next| {
        scene = game.scene(Viewer::Everyone, std::mem::take(&mut scene), &names);
        frames.start();
        delta(&previous, &scene.items, &mut frames);
        frames.end();
        // The items before go back to the scene, which clears them: no new list a picture.
        std::mem::swap(&mut previous, &mut scene.items);
        scores.push(game.scores());
        let Some((ply, mv)) = next else {
            return;
        };
        marks.push(game.marks(mv));
        moves.push(PageMove(
            ply.mv.clone(),
            ply.seat,
            ply.time_ms,
            ply.clock_ms,
            ply.info.as_ref().map(info_text).unwrap_or_default(),
            ply.info.as_ref().and_then(|i| i.score),
        ));
    })?;
    let names: Vec<&str> = record.seats.iter().map(|s| s.name.as_str()).collect();
    let game = PageGame {
        title: format!("{}. {}: {}", index + 1, record.game, names.join(" vs ")),
        result: end_text(record),
        legend: end.legend(),
        seats: record.seats.iter().map(|s| s.name.clone()).collect(),
        moves,
        lines: scene.list,
        marks,
        scores,
    };
    Ok((game, frames, scene.shared_used))
}

/// One step of a picture's change from the one before.
#[cfg(test)]
#[derive(Debug, PartialEq, Serialize)]
#[serde(untagged)]
enum Change {
    /// Keeps (> 0) or drops (< 0) that many items.
    Skip(i64),
    /// Adds these items (lines and parts).
    Add(Vec<Item>),
}

/// A picture (its items) as its change from `before`, in one pass: an item equal to the next one
/// before is kept; one that does not come again before is added; otherwise the item before is
/// dropped. The script rebuilds `after` exactly (every item of it is kept where equal or added)
/// but need not be the shortest: a move changes a few runs of a picture, where this finds the same
/// script as a longest common subsequence, without a table per picture (10% of the page's time
/// on 1,000 four-seat DOUBLE games, for 0.6% more page).
fn delta(before: &[Item], after: &[Item], changes: &mut impl Changes) {
    let (mut i, mut j) = (0, 0);
    while i < before.len() && j < after.len() {
        if before[i] == after[j] {
            changes.skip(1);
            (i, j) = (i + 1, j + 1);
        } else if !before[i..].contains(&after[j]) {
            changes.add(&after[j..=j]);
            j += 1;
        } else {
            changes.skip(-1);
            i += 1;
        }
    }
    if i < before.len() {
        changes.skip(-((before.len() - i) as i64));
    }
    changes.add(&after[j..]);
}

/// Where [`delta`] writes a picture's change, step by step.
trait Changes {
    /// Keeps (`n` > 0) or drops (`n` < 0) items.
    fn skip(&mut self, n: i64);
    /// Adds `items`.
    fn add(&mut self, items: &[Item]);
}

/// An edit script as [`Change`]s, runs of a kind joined.
#[cfg(test)]
impl Changes for Vec<Change> {
    fn skip(&mut self, n: i64) {
        match self.last_mut() {
            Some(Change::Skip(last)) if (*last > 0) == (n > 0) => *last += n,
            _ => self.push(Change::Skip(n)),
        }
    }

    fn add(&mut self, items: &[Item]) {
        match self.last_mut() {
            _ if items.is_empty() => {}
            Some(Change::Add(last)) => last.extend_from_slice(items),
            _ => self.push(Change::Add(items.to_vec())),
        }
    }
}

/// A game's pictures as their changes, written as JSON as [`delta`] finds them (a list per
/// picture of numbers that keep or drop items and lists of items to add, runs of a kind joined),
/// rather than built as vectors and serialised (2% of a DOUBLE page's time). The same text as
/// serde_json writes for the changes (a test holds them together).
#[derive(Default)]
struct FramesJson {
    out: Vec<u8>,
    /// The step not yet written: items kept or dropped, or a list of items open.
    pending: Pending,
    /// Whether the picture has a step written before the pending one.
    steps: bool,
}

#[derive(Default, PartialEq)]
enum Pending {
    #[default]
    Nothing,
    Skip(i64),
    Adding,
}

impl FramesJson {
    /// Starts a picture's change.
    fn start(&mut self) {
        self.out.push(if self.out.is_empty() { b'[' } else { b',' });
        self.out.push(b'[');
        (self.pending, self.steps) = (Pending::Nothing, false);
    }

    /// Ends a picture's change.
    fn end(&mut self) {
        self.flush();
        self.out.push(b']');
    }

    /// The JSON list of the pictures' changes.
    fn finish(mut self) -> Vec<u8> {
        if self.out.is_empty() {
            self.out.push(b'[');
        }
        self.out.push(b']');
        self.out
    }

    /// Writes the pending step.
    fn flush(&mut self) {
        match std::mem::take(&mut self.pending) {
            Pending::Nothing => return,
            Pending::Skip(n) => {
                self.comma();
                self.out
                    .extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
            }
            Pending::Adding => self.out.push(b']'),
        }
        self.steps = true;
    }

    fn comma(&mut self) {
        if self.steps {
            self.out.push(b',');
        }
    }

    fn item(&mut self, item: &Item) {
        let mut number = itoa::Buffer::new();
        match *item {
            Item::Line(n) => self.out.extend_from_slice(number.format(n).as_bytes()),
            Item::Part(values) => {
                for (k, value) in values.into_iter().enumerate() {
                    self.out.push(if k == 0 { b'[' } else { b',' });
                    self.out.extend_from_slice(number.format(value).as_bytes());
                }
                self.out.push(b']');
            }
        }
    }
}

impl Changes for FramesJson {
    fn skip(&mut self, n: i64) {
        match &mut self.pending {
            Pending::Skip(last) if (*last > 0) == (n > 0) => *last += n,
            _ => {
                self.flush();
                self.pending = Pending::Skip(n);
            }
        }
    }

    fn add(&mut self, items: &[Item]) {
        let Some((first, rest)) = items.split_first() else {
            return;
        };
        if self.pending == Pending::Adding {
            self.out.push(b',');
        } else {
            self.flush();
            self.comma();
            self.out.push(b'[');
            self.pending = Pending::Adding;
        }
        self.item(first);
        for item in rest {
            self.out.push(b',');
            self.item(item);
        }
    }
}

/// Why the page cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// A game of the records does not replay.
    #[error("game {game}: {error}")]
    Replay {
        /// The game's number among the records, from 1.
        game: usize,
        /// Why.
        error: ReplayError,
    },
    /// The page cannot be written.
    #[error(transparent)]
    Write(#[from] std::io::Error),
}

/// One game ready for the page: its title, its result, and its data packed.
pub struct Packed {
    title: String,
    result: String,
    data: String,
    /// The shared parts its pictures use (see [`Scene::shared_used`]).
    shared: Vec<usize>,
}

/// Packs games for a page one after another, keeping its compressor and buffer from game to game
/// (a compressor's state is a quarter of a megabyte: set up anew for each game, it took 6% of a
/// DOUBLE page's time). Games are independent, so any number of threads may pack them, each with
/// its own packer.
pub struct Packer {
    gzip: Compress,
    data: Vec<u8>,
}

impl Default for Packer {
    fn default() -> Packer {
        // Level 3: on 1,000 four-seat DOUBLE games, 10% less time than the default level 6 for
        // an 11% larger page (level 1: 15% less time, 53% larger; level 9 took twice level 6's
        // time for 2.5% less).
        Packer {
            gzip: Compress::new_gzip(Compression::new(3), 15),
            data: Vec::new(),
        }
    }
}

impl Packer {
    /// Game `number` (from 0) of the page, replayed, drawn and packed, its parts drawn in `parts`
    /// (the page's: [`PageWriter::parts`]).
    pub fn pack(
        &mut self,
        number: usize,
        record: &Record,
        parts: &Arc<SharedParts>,
    ) -> Result<Packed, PageError> {
        let (game, frames, shared) =
            page_game(number, record, parts).map_err(|error| PageError::Replay {
                game: number + 1,
                error,
            })?;
        // The game's object with its frames written in: `{"frames":[...],` and the rest of the
        // object after its `{`. Plain strings and numbers: serialising into memory cannot fail.
        self.data.clear();
        self.data.extend_from_slice(b"{\"frames\":");
        self.data.extend_from_slice(&frames.finish());
        let rest = serde_json::to_vec(&game).unwrap_or_default();
        if let Some(fields) = rest.get(1..) {
            self.data.push(b',');
            self.data.extend_from_slice(fields);
        }
        // The pictures' lines repeat, so gzip shrinks a game severalfold; the browser unpacks it
        // with its own DecompressionStream.
        self.gzip.reset();
        let mut packed = Vec::with_capacity(self.data.len() / 4 + 64);
        loop {
            let read = usize::try_from(self.gzip.total_in()).unwrap_or(usize::MAX);
            let input = self.data.get(read..).unwrap_or_default();
            match self
                .gzip
                .compress_vec(input, &mut packed, FlushCompress::Finish)
            {
                Ok(Status::StreamEnd) => break,
                // The output is full: more room.
                Ok(_) => packed.reserve(packed.capacity().max(4096)),
                Err(e) => return Err(PageError::Write(std::io::Error::other(e))),
            }
        }
        Ok(Packed {
            title: game.title,
            result: game.result,
            data: BASE64.encode(packed),
            shared,
        })
    }
}

/// The page being written, one game at a time: memory holds one game, each game's title and the
/// parts the games share.
pub struct PageWriter<W: std::io::Write> {
    out: W,
    /// Each game's title, result and shared parts (numbered in the page's order).
    titles: Vec<(String, String, Vec<usize>)>,
    /// The shared parts in the page's order, the order of the games that first use them: by
    /// their index in [`SharedParts`], and the other way round.
    order: Vec<usize>,
    numbered: FxHashMap<usize, usize>,
    parts: Arc<SharedParts>,
}

impl<W: std::io::Write> PageWriter<W> {
    /// Starts the page, with `report` (HTML) above the game view, shown until a game is picked
    /// (`referee report`; empty for `referee view`).
    pub fn start(mut out: W, report: &str) -> Result<PageWriter<W>, PageError> {
        out.write_all(page_head(report).as_bytes())?;
        Ok(PageWriter::games_apart(out))
    }

    /// Starts a page's games alone, for a page whose head is known only once they are written:
    /// [`PageWriter::end_apart`] gives what goes around them.
    pub fn games_apart(out: W) -> PageWriter<W> {
        PageWriter {
            out,
            titles: Vec::new(),
            order: Vec::new(),
            numbered: FxHashMap::default(),
            parts: Arc::default(),
        }
    }

    /// The parts the page's games share: [`Packer::pack`] draws a game's parts there.
    pub fn parts(&self) -> Arc<SharedParts> {
        Arc::clone(&self.parts)
    }

    /// Adds the next game, packed by [`Packer::pack`] (on any thread) with its number.
    pub fn write(&mut self, packed: Packed) -> Result<(), PageError> {
        writeln!(self.out, "{}", packed.data)?;
        let shared = (packed.shared.iter())
            .map(|&index| {
                *(self.numbered.entry(index)).or_insert_with(|| {
                    self.order.push(index);
                    self.order.len() - 1
                })
            })
            .collect();
        self.titles.push((packed.title, packed.result, shared));
        Ok(())
    }

    /// Ends the page with the list of the games; returns the output.
    pub fn finish(mut self) -> Result<W, PageError> {
        self.out.write_all(self.tail().as_bytes())?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// Ends a page whose games were written apart ([`PageWriter::games_apart`]): the output
    /// (flushed) that took the games, and the page around them.
    pub fn end_apart(mut self) -> Result<(W, PageAround), PageError> {
        self.out.flush()?;
        let tail = self.tail();
        Ok((self.out, PageAround { tail }))
    }

    /// The page after its games: the script, the shared parts and the games' titles.
    fn tail(&self) -> String {
        let (_, tail) = TEMPLATE.split_once("/*DATA*/").unwrap_or(("", ""));
        // Plain strings: serialising cannot fail. The lists go inside a <script>: a name from
        // a stranger's records must not end it (`</script>`), so `<`, `>` and `&` are written as
        // JSON escapes, which the script reads back as the same characters.
        let in_script = |json: String| {
            json.replace('<', "\\u003c")
                .replace('>', "\\u003e")
                .replace('&', "\\u0026")
        };
        let titles = in_script(serde_json::to_string(&self.titles).unwrap_or_default());
        let parts = self.parts.texts(&self.order);
        let parts = in_script(serde_json::to_string(&parts).unwrap_or_default());
        // The script and the parts (the referee's own drawing) first, so that nothing in a title
        // is taken for a placeholder.
        let tail = (tail.replace("/*DRAWING*/", DRAWING_SCRIPT)).replace("/*PARTS*/", &parts);
        tail.replace("/*TITLES*/", &titles)
    }
}

/// What goes around a page's games written apart ([`PageWriter::end_apart`]).
pub struct PageAround {
    tail: String,
}

impl PageAround {
    /// Writes the page to `page`: its head with `report` above the game view, the games `games`
    /// gives back, and its tail.
    pub fn write(
        &self,
        report: &str,
        games: &mut impl std::io::Read,
        page: &mut impl std::io::Write,
    ) -> Result<(), PageError> {
        page.write_all(page_head(report).as_bytes())?;
        std::io::copy(games, page)?;
        page.write_all(self.tail.as_bytes())?;
        page.flush()?;
        Ok(())
    }
}

/// The page before its games, with `report` above the game view.
fn page_head(report: &str) -> String {
    let (head, _) = TEMPLATE.split_once("/*DATA*/").unwrap_or((TEMPLATE, ""));
    head.replace("<!--REPORT-->", report)
}

/// The drawing both pages share (the viewer and `referee serve`'s live page): the last move
/// ringed on a board, and each engine's score over a game.
pub const DRAWING_SCRIPT: &str = r##"
// Rings what the last move touched: the cells or cards the picture names in data-mark.
function ring(svg, names) {
  names.forEach((name) => {
    const target = svg.querySelector('[data-mark="' + CSS.escape(name) + '"]');
    if (!target) return;
    const box = target.getBBox();
    const r = document.createElementNS(svg.namespaceURI, "rect");
    [["x", box.x - 3], ["y", box.y - 3], ["width", box.width + 6], ["height", box.height + 6], ["rx", 6], ["class", "last-move"]]
      .forEach(([k, v]) => r.setAttribute(k, v));
    // Inside the part, whose own coordinates getBBox gives.
    target.appendChild(r);
  });
}
// Each engine's score of its own position over a game of `plies` plies (its `info`: `scores` are
// [ply, seat, score]), squashed into -1..1 by s / (|s| + 200) so that a won game's huge score
// stays on the picture; a line marks ply `at`, if given.
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
function curves(scores, plies, w, h, at) {
  if (scores.length === 0) return "";
  const x = (p) => (p * w / Math.max(1, plies)).toFixed(1);
  const y = (s) => (h / 2 - s / (Math.abs(s) + 200) * (h / 2 - 4)).toFixed(1);
  let svg = '<svg class="evals" width="' + w + '" height="' + h + '" data-evals="' + scores.length + '">';
  svg += '<rect width="' + w + '" height="' + h + '" fill="#fafafa" stroke="#ccc"/>';
  svg += '<line x1="0" x2="' + w + '" y1="' + h / 2 + '" y2="' + h / 2 + '" stroke="#bbb"/>';
  [...new Set(scores.map((s) => s[1]))].sort().forEach((seat) => {
    const points = scores.filter((s) => s[1] === seat).map((s) => x(s[0]) + "," + y(s[2])).join(" ");
    svg += '<polyline fill="none" stroke-width="2" stroke="' + COLOURS[seat % COLOURS.length] + '" points="' + points + '" data-seat="' + seat + '"/>';
  });
  if (at !== undefined) svg += '<line x1="' + x(at) + '" x2="' + x(at) + '" y1="0" y2="' + h + '" stroke="#f08c00"/>';
  return svg + "</svg>";
}
"##;

const TEMPLATE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>referee games</title>
<style>
body { font-family: sans-serif; margin: 0; display: flex; height: 100vh; }
#list { width: 260px; overflow-y: auto; border-right: 1px solid #ccc; padding: 8px; }
#list a { display: block; padding: 4px; color: #124; text-decoration: none; }
#list a.current { background: #dde8f4; }
#main { flex: 1; padding: 12px; overflow: auto; }
#controls button { font-size: 16px; margin-right: 4px; }
#layout { display: flex; flex-wrap: wrap; gap: 16px; margin-top: 8px; align-items: flex-start; }
#legend { color: #555; font-size: 13px; max-width: 640px; margin-top: 4px; }
.last-move { fill: none; stroke: #f08c00; stroke-width: 3; }
#moves { max-height: 70vh; overflow-y: auto; font-family: monospace; min-width: 280px; }
#moves div { padding: 1px 4px; }
#moves div.current { background: #ffe9a8; }
#report table { border-collapse: collapse; margin: 6px 0 12px; }
#report td, #report th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
#report svg { display: block; margin: 8px 0; }
#moves .info { color: #666; font-size: 12px; padding-left: 2em; }
#evals { margin-top: 8px; }
#evals .note { color: #555; font-size: 12px; }
</style>
</head>
<body>
<div id="list"></div>
<div id="main">
  <div id="report"><!--REPORT--></div>
  <h3 id="title"></h3>
  <div id="result"></div>
  <div id="controls">
    <button id="first" title="Home">|&lt;</button>
    <button id="prev" title="Left arrow">&lt;</button>
    <button id="next" title="Right arrow">&gt;</button>
    <button id="last" title="End">&gt;|</button>
    ply <span id="ply">0</span> of <span id="plies">0</span>
    &nbsp; scores <span id="scores"></span>
  </div>
  <div id="layout">
    <div><div id="board"></div><div id="legend"></div><div id="evals"></div></div>
    <div id="moves"></div>
  </div>
</div>
<script type="text/plain" id="packed">
/*DATA*/</script>
<script>/*DRAWING*/
// Each game packed on its own (gzip, base64: a line each, kept out of the script so that the page
// parses fast), unpacked when opened; then the games' titles.
const packed = document.getElementById("packed").textContent.split("\n").filter((l) => l);
// The parts (pieces, cards) the games' pictures share, drawn once; each game's title, result and
// the parts it uses (its part -1 is parts[shared[0]], and so on).
const parts = /*PARTS*/;
const titles = /*TITLES*/;
let games = [], game = 0, ply = 0;
const $ = (id) => document.getElementById(id);
// A game's pictures from their changes: a number keeps (> 0) or drops (< 0) items, a list adds
// items: a line (its number in the game's list of lines) or a part [number, x, y, mark] (the
// part's number in the game's lines, or below 0 in its list of shared parts; x and y in tenths;
// the mark's number or -1), written as Scene::text writes it.
function pictures(changes, list, shared) {
  const tenths = (t) => (t < 0 ? "-" : "") + Math.floor(Math.abs(t) / 10) + "." + Math.abs(t) % 10;
  const part = (n) => n < 0 ? parts[shared[-1 - n]] : list[n];
  // A label's line is "\u0001X Y SIZE TEXT", written out as Svg::label writes it.
  const line = (s) => {
    if (s.charCodeAt(0) !== 1) return s;
    const a = s.indexOf(" "), b = s.indexOf(" ", a + 1), c = s.indexOf(" ", b + 1);
    return '<text x="' + s.slice(1, a) + '" y="' + s.slice(a + 1, b) + '" font-size="' +
      s.slice(b + 1, c) + '" fill="#222" dominant-baseline="central">' + s.slice(c + 1) + "</text>";
  };
  const text = (item) => typeof item === "number" ? line(list[item]) :
    "<g" + (item[3] >= 0 ? ' data-mark="' + list[item[3]] + '"' : "") +
    ' transform="translate(' + tenths(item[1]) + " " + tenths(item[2]) + ')">' + part(item[0]) + "</g>";
  let items = [];
  return changes.map((change) => {
    const next = [];
    let at = 0;
    for (const op of change) {
      if (Array.isArray(op)) op.forEach((item) => next.push(item));
      else if (op > 0) { for (let k = 0; k < op; k++) next.push(items[at + k]); at += op; }
      else at -= op;
    }
    items = next;
    return items.map(text).join("\n");
  });
}
async function load(i) {
  if (!games[i]) {
    const bytes = Uint8Array.from(atob(packed[i]), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    const g = JSON.parse(await new Response(stream).text());
    g.frames = pictures(g.frames, g.lines, titles[i][2]);
    g.moves = g.moves.map(([text, who, used, left, info, score]) => ({
      text, who, info, score,
      seat: who === null ? "chance" : g.seats[who] ?? "?",
      clock: used === null || left === null ? "" : used + " ms, " + left + " ms left",
    }));
    games = [];
    games[i] = g;
  }
  return games[i];
}
function show() {
  const g = games[game];
  $("title").textContent = g.title;
  $("result").textContent = g.result;
  $("ply").textContent = ply;
  $("plies").textContent = g.moves.length;
  $("scores").textContent = g.scores[ply].join(" ");
  $("board").innerHTML = g.frames[ply];
  $("board").dataset.ply = ply;
  $("legend").textContent = g.legend;
  $("evals").innerHTML = evals(g);
  ring($("board").querySelector("svg"), g.marks[ply]);
  document.querySelectorAll("#list a").forEach((a, i) => {
    a.className = i === game ? "current" : "";
    if (i === game) a.scrollIntoView({ block: "nearest" });
  });
  const moves = $("moves");
  moves.innerHTML = "";
  g.moves.forEach((m, i) => {
    const row = document.createElement("div");
    row.textContent = (i + 1) + ". " + m.seat + ": " + m.text + (m.clock ? "  (" + m.clock + ")" : "");
    if (m.info) {
      const info = document.createElement("div");
      info.className = "info";
      info.textContent = m.info;
      row.appendChild(info);
    }
    row.onclick = () => { ply = i + 1; show(); };
    moves.appendChild(row);
    if (i + 1 === ply) {
      row.className = "current";
      // Scroll the move list only, never the page around it.
      moves.scrollTop = row.offsetTop - moves.offsetTop - moves.clientHeight / 2;
    }
  });
}
// Each seat's score over the game, with the names of the seats that gave one.
function evals(g) {
  const scores = g.moves.flatMap((m, i) =>
    m.score !== null && m.score !== undefined && m.who !== null ? [[i + 1, m.who, m.score]] : []);
  if (scores.length === 0) return "";
  const seats = [...new Set(scores.map((s) => s[1]))].sort();
  const key = seats.map((seat) => '<span style="color:' + COLOURS[seat % COLOURS.length] + '">&#9632; </span>' + g.moves.find((m) => m.who === seat).seat.replace(/[<&]/g, "")).join(" &nbsp; ");
  return curves(scores, g.moves.length, 480, 160, ply) + '<div class="note">each engine\'s score of its own position (info), s / (|s| + 200): ' + key + '</div>';
}
function go(to) { if (!games[game]) return; ply = Math.max(0, Math.min(games[game].moves.length, to)); show(); }
$("first").onclick = () => go(0);
$("prev").onclick = () => go(ply - 1);
$("next").onclick = () => go(ply + 1);
$("last").onclick = () => go(Infinity);
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") go(ply + 1);
  else if (e.key === "ArrowLeft") go(ply - 1);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(Infinity);
});
async function start() {
  titles.forEach(([title, result], i) => {
    const a = document.createElement("a");
    a.href = "#game=" + (i + 1);
    a.textContent = title + " (" + result + ")";
    a.onclick = async (e) => { e.preventDefault(); const g = await load(i); game = i; go(g.moves.length); a.scrollIntoView({ block: "nearest" }); };
    $("list").appendChild(a);
  });
  window.addEventListener("hashchange", open);
  await open();
  const params = new URLSearchParams(location.hash.slice(1));
  for (let i = 0; i < (parseInt(params.get("steps")) || 0); i++) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
  }
  document.body.dataset.ready = "yes";
  // How long the page took to be ready, for whoever measures it.
  document.body.dataset.readyMs = Math.round(performance.now());
}
// Shows the game and ply the address names: `#game=2&ply=10`.
async function open() {
  if (packed.length === 0) return;
  const params = new URLSearchParams(location.hash.slice(1));
  const wanted = Math.max(0, Math.min(packed.length - 1, (parseInt(params.get("game")) || 1) - 1));
  const g = await load(wanted);
  game = wanted;
  // The final position unless the address names a ply.
  const named = parseInt(params.get("ply"));
  go(Number.isNaN(named) ? g.moves.length : named);
}
start();
</script>
</body>
</html>
"##;

#[cfg(test)]
mod end_tests {
    use super::*;
    use crate::records::{FORMAT, GameResult, SeatFault, SeatInfo, VERSION, Verdict};

    #[test]
    fn ends_and_faults_are_told_in_words_with_names() {
        let mut record = Record {
            format: FORMAT.into(),
            version: VERSION,
            game: "double-dutch".into(),
            variant: None,
            seats: ["ann", "bob", "cy"]
                .map(|n| SeatInfo { name: n.into() })
                .to_vec(),
            seed: 0,
            setup: None,
            tags: Default::default(),
            moves: Vec::new(),
            opening: None,
            faults: vec![SeatFault {
                seat: 2,
                ply: 7,
                verdict: Verdict::IllegalMove,
                detail: "A1A2".into(),
            }],
            result: Some(GameResult {
                winners: vec![0],
                scores: vec![3, 1, 0],
            }),
            end: Some(End::Normal {}),
        };
        assert_eq!(
            end_text(&record),
            "won by ann; normal end; the referee played for cy from ply 7 after illegal move: A1A2"
        );
        record.faults.clear();
        record.end = Some(End::Verdict {
            seat: 1,
            verdict: Verdict::TimeLoss,
            detail: "over by 5 ms".into(),
        });
        assert_eq!(
            end_text(&record),
            "won by ann; bob loses by time loss: over by 5 ms"
        );
    }
}

#[cfg(test)]
mod scene_tests {
    use super::*;
    use crate::records::replay::Replay;
    use crate::rules::game::Setup;

    /// The page script's rebuilding of a picture's items from its change, in Rust.
    fn apply(before: &[Item], changes: &[Change]) -> Vec<Item> {
        let (mut next, mut at) = (Vec::new(), 0);
        for change in changes {
            match change {
                Change::Add(items) => next.extend_from_slice(items),
                Change::Skip(n) if *n > 0 => {
                    next.extend_from_slice(&before[at..at + *n as usize]);
                    at += *n as usize;
                }
                Change::Skip(n) => at += n.unsigned_abs() as usize,
            }
        }
        next
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_cases::config(3000))]

        /// Any picture, rebuilt from its change from any other, is that picture: items from a
        /// few values, so that they repeat, move and swap places.
        #[test]
        fn a_change_rebuilds_the_picture_whatever_the_two(
            before in proptest::collection::vec(0u32..6, 0..30),
            after in proptest::collection::vec(0u32..6, 0..30),
            parts in proptest::collection::vec(0i64..3, 0..30),
        ) {
            let item = |(k, n): (usize, &u32)| match parts.get(k) {
                Some(&x) if x > 0 => Item::Part([-1, x, i64::from(*n), -1]),
                _ => Item::Line(*n),
            };
            let before: Vec<Item> = before.iter().enumerate().map(item).collect();
            let after: Vec<Item> = after.iter().enumerate().map(item).collect();
            let mut changes = Vec::new();
            delta(&before, &after, &mut changes);
            proptest::prop_assert_eq!(apply(&before, &changes), after.clone());
            // The page's text of the same changes (there and back), written as they are found,
            // is serde_json's.
            let mut back = Vec::new();
            delta(&after, &before, &mut back);
            let mut json = FramesJson::default();
            for (from, to) in [(&before, &after), (&after, &before)] {
                json.start();
                delta(from, to, &mut json);
                json.end();
            }
            let expected = serde_json::to_string(&[&changes, &back]).unwrap();
            proptest::prop_assert_eq!(String::from_utf8(json.finish()).unwrap(), expected);
            // Runs joined: no two steps of a kind in a row.
            for pair in changes.windows(2) {
                let same = matches!(pair, [Change::Add(_), Change::Add(_)])
                    || matches!(pair, [Change::Skip(a), Change::Skip(b)] if (*a > 0) == (*b > 0));
                proptest::prop_assert!(!same, "{:?}", changes);
            }
        }
    }

    /// A new game of `id`.
    fn new_game(id: &str, variant: Option<&str>, seats: usize, seed: u64) -> Replay {
        let setup = Setup {
            variant: variant.map(str::to_owned),
            seats: Some(seats),
            seed,
            layout: None,
        };
        Replay::new(id, &setup).unwrap()
    }

    /// A game of `id` played with the legal move `(i * 7919) % count` at each ply, for at most
    /// `plies` plies.
    fn played(id: &str, variant: Option<&str>, seats: usize, seed: u64, plies: usize) -> Record {
        let mut replay = new_game(id, variant, seats, seed);
        let mut moves = Vec::new();
        for i in 0..plies {
            replay.settle_chance();
            moves.clear();
            replay.game().legal_moves(&mut moves);
            let Some(mv) = moves.get((i * 7919 + seed as usize) % moves.len().max(1)) else {
                break;
            };
            replay.play(&mv.to_string()).unwrap();
        }
        let names: Vec<String> = (0..seats).map(|s| format!("e{s}")).collect();
        replay.into_record(&names, None)
    }

    /// The page of `records`, each game packed in the order `packing` gives (as threads racing
    /// would draw the shared parts), then written in the records' order.
    fn page_packed_in(records: &[Record], packing: &[usize]) -> Vec<u8> {
        let mut writer = PageWriter::start(Vec::new(), "").unwrap();
        let parts = writer.parts();
        let mut packer = Packer::default();
        let mut packed: Vec<Option<Packed>> = records.iter().map(|_| None).collect();
        for &i in packing {
            packed[i] = Some(packer.pack(i, &records[i], &parts).unwrap());
        }
        for game in packed {
            writer.write(game.unwrap()).unwrap();
        }
        writer.finish().unwrap()
    }

    /// The same records make the same page, byte for byte, whichever games the threads that pack
    /// them drew first: a page's shared parts are numbered in the order of its games.
    #[test]
    fn the_page_does_not_depend_on_the_order_games_are_packed_in() {
        let mut records = Vec::new();
        for seed in 1..4 {
            records.push(played("double", None, 4, seed, 60));
            records.push(played("dvonn", None, 2, seed, 70));
            records.push(played("pegs", Some("turbo"), 2, seed, 40));
            records.push(played("double-dutch", None, 3, seed, 50));
        }
        let forwards: Vec<usize> = (0..records.len()).collect();
        let backwards: Vec<usize> = forwards.iter().rev().copied().collect();
        let shuffled: Vec<usize> = (0..records.len())
            .map(|i| (i * 5 + 3) % records.len())
            .collect();
        let page = page_packed_in(&records, &forwards);
        assert!(page.len() > 10_000);
        for packing in [backwards, shuffled] {
            assert!(
                page == page_packed_in(&records, &packing),
                "packed in {packing:?}"
            );
        }
    }

    #[test]
    fn no_pictures_is_an_empty_list() {
        assert_eq!(FramesJson::default().finish(), b"[]");
    }

    /// Every position of a game of each kind (and of DOUBLE as a seat sees it), rebuilt from the
    /// changes the page carries, is the very picture `referee render` draws: with the game's
    /// parts its own, and with its parts in a list that every game of the loop shares (so that a
    /// part of one kind taken for another's under the same key would show).
    #[test]
    fn pictures_rebuilt_from_their_changes_are_the_pictures() {
        let shared = Arc::new(SharedParts::default());
        for (id, variant, seats, viewer) in [
            ("dvonn", None, 2, Viewer::Everyone),
            ("double-dutch", None, 3, Viewer::Everyone),
            ("pegs", Some("turbo"), 2, Viewer::Everyone),
            ("wyx", Some("double"), 2, Viewer::Everyone),
            ("double", None, 4, Viewer::Everyone),
            ("double", None, 3, Viewer::Seat(1)),
        ] {
            let mut replay = new_game(id, variant, seats, 11);
            let kind = format!("{id} {} {seats}", variant.unwrap_or("-"));
            let mut scenes = [Scene::default(), Scene::sharing(shared.clone(), kind)];
            let mut shown = [Vec::new(), Vec::new()];
            let (mut moves, mut plies) = (Vec::new(), 0);
            for i in 0..400 {
                plies = i;
                for (scene, shown) in scenes.iter_mut().zip(&mut shown) {
                    *scene = replay.game().scene(viewer, std::mem::take(scene), &[]);
                    let mut changes = Vec::new();
                    delta(shown, &scene.items, &mut changes);
                    *shown = apply(shown, &changes);
                    assert_eq!(*shown, scene.items, "{id} ply {i}");
                    assert_eq!(scene.text(shown), replay.game().svg(viewer), "{id} ply {i}");
                }
                replay.settle_chance();
                moves.clear();
                replay.game().legal_moves(&mut moves);
                let Some(mv) = moves.get((i * 7919) % moves.len().max(1)) else {
                    break;
                };
                replay.play(&mv.to_string()).unwrap();
            }
            assert!(plies > 30, "{id}: {plies} plies");
        }
    }
}
