//! A few helpers to write SVG text: the games draw their pictures with them, without I/O. A
//! picture is lines (an element each) and parts (a piece, a card: elements drawn at the origin
//! and placed with a translation); written as a scene, the parts are drawn once per game (once
//! per page, with [`SharedParts`]) and a picture is a list of numbers, which is what makes a page
//! of thousands of games cheap.

use std::fmt::{Display, Write as _};
use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::FxHashMap;

/// An SVG picture being written: as text, or as a [`Scene`]'s items.
pub struct Svg {
    text: String,
    scene: Option<Scene>,
    /// The engines in the seats, for pictures that name seats (none: `seat N`).
    names: Vec<String>,
}

/// The pictures of one game as items that share their lines and parts: each distinct line, part
/// and mark is kept once, under a number.
#[derive(Default)]
pub struct Scene {
    /// The distinct lines, parts (their elements at the origin) and marks, in first-seen order.
    pub list: Vec<String>,
    numbers: FxHashMap<String, u32>,
    /// What each part was drawn for (its key, private to the game that draws it), and its
    /// number: in `list`, or (below 0) in `shared_used`.
    parts: FxHashMap<String, i64>,
    /// The parts of every game of a page, and what keys this game's parts there.
    shared: Option<(Arc<SharedParts>, String)>,
    /// The shared parts this game uses, by their index in [`SharedParts`]: its part -1 is the
    /// first. A game's own numbering, in the order its pictures use them, so that what a game
    /// carries does not depend on which games other threads drew first.
    pub shared_used: Vec<usize>,
    /// The items of each group drawn (by its key, as parts).
    groups: FxHashMap<String, Vec<Item>>,
    key: String,
    /// The first line of the pictures, by their size (the same for every picture of a game).
    header: Option<((i64, i64), Item)>,
    /// The text buffer of the picture being written, kept from one picture to the next.
    buffer: String,
    /// The picture being written.
    pub items: Vec<Item>,
}

/// The parts of the pictures of many games (a page), each drawn once: a card or a piece looks the
/// same in every game of its kind, and a game refers to it by number instead of carrying it.
/// What it holds is bounded by the kinds of game and their pieces, not by the number of games.
/// Its order is the order in which threads drew them: a page numbers them anew in the order of
/// its games ([`Scene::shared_used`]).
#[derive(Default)]
pub struct SharedParts(Mutex<SharedList>);

#[derive(Default)]
struct SharedList {
    numbers: FxHashMap<String, usize>,
    list: Vec<String>,
}

impl SharedParts {
    /// The index of the part `key` names, drawn by `draw` if new.
    fn index(&self, key: &str, draw: impl FnOnce() -> String) -> usize {
        // A panic elsewhere while the lock was held cannot leave the list half written: each
        // change is one push and one insert after the drawing.
        let mut shared = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match shared.numbers.get(key) {
            Some(&n) => n,
            None => {
                let text = draw();
                let n = shared.list.len();
                shared.list.push(text);
                shared.numbers.insert(key.to_owned(), n);
                n
            }
        }
    }

    /// The part of this index.
    fn text(&self, index: usize) -> Option<String> {
        let shared = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        shared.list.get(index).cloned()
    }

    /// The parts of these indices, in their order.
    pub fn texts(&self, indices: &[usize]) -> Vec<String> {
        let shared = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        (indices.iter())
            .map(|&i| shared.list.get(i).cloned().unwrap_or_default())
            .collect()
    }
}

/// One line of a picture, or a part placed on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(untagged)]
pub enum Item {
    /// The line of this number in the scene's list.
    Line(u32),
    /// A part: its number (in the scene's list, or below 0 in its [`SharedParts`]), where it goes
    /// (x and y in tenths) and its mark's number, if any (`data-mark`, which names a cell or
    /// card; -1 when it has none).
    Part([i64; 4]),
}

impl Scene {
    /// A scene whose parts are drawn once in `shared` for every game that shares it; `game` says
    /// everything a part's drawing may depend on beyond its key (the game, its variant and its
    /// number of seats), since the keys are private to one game.
    pub fn sharing(shared: Arc<SharedParts>, game: String) -> Scene {
        Scene {
            shared: Some((shared, game)),
            ..Scene::default()
        }
    }

    /// The number of `text` in the list, added if new.
    fn number(&mut self, text: &str) -> u32 {
        if let Some(&n) = self.numbers.get(text) {
            return n;
        }
        let n = self.list.len() as u32;
        self.list.push(text.to_owned());
        self.numbers.insert(text.to_owned(), n);
        n
    }

    /// A picture's text from its items: what [`Svg::finish`] writes for the same drawing, and
    /// what the viewer's script does in the browser.
    pub fn text(&self, items: &[Item]) -> String {
        let listed = |n: i64| {
            let n = usize::try_from(n).ok()?;
            self.list.get(n).map(String::as_str)
        };
        let shared_part = |n: i64| {
            let (shared, _) = self.shared.as_ref()?;
            let used = usize::try_from(-(n + 1)).ok()?;
            shared.text(*self.shared_used.get(used)?)
        };
        let part = |n: i64| match n < 0 {
            true => shared_part(n).unwrap_or_default(),
            false => listed(n).unwrap_or_default().to_owned(),
        };
        let lines: Vec<String> = items
            .iter()
            .map(|item| match *item {
                Item::Line(n) => line_text(listed(n.into()).unwrap_or_default()).into_owned(),
                Item::Part([n, x, y, mark]) => {
                    let mut text = String::from("<g");
                    if let Some(mark) = listed(mark) {
                        let _ = write!(text, " data-mark=\"{mark}\"");
                    }
                    let _ = write!(
                        text,
                        " transform=\"translate({} {})\">{}</g>",
                        Tenths(x),
                        Tenths(y),
                        part(n)
                    );
                    text
                }
            })
            .collect();
        lines.join("\n")
    }
}

/// What starts a label's line in a scene: `\u{1}X Y SIZE TEXT` (the text escaped), which the
/// page's script and [`Scene::text`] write out as the `<text>` element [`Svg::label`] writes
/// outside a scene. Three fifths of a DOUBLE game's data were that element's same attributes.
const LABEL: char = '\u{1}';

/// A label's element from its fields `X Y SIZE TEXT` (see [`LABEL`]).
struct Label<'a>(&'a str);

impl Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut fields = self.0.splitn(4, ' ');
        let mut next = || fields.next().unwrap_or_default();
        let (x, y, size, text) = (next(), next(), next(), next());
        write!(
            f,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" fill=\"#222\" dominant-baseline=\"central\">{text}</text>"
        )
    }
}

/// A scene's line as the picture has it: a label's written out, any other as it is.
fn line_text(line: &str) -> std::borrow::Cow<'_, str> {
    match line.strip_prefix(LABEL) {
        Some(fields) => Label(fields).to_string().into(),
        None => line.into(),
    }
}

/// Text safe inside SVG elements and attributes, written where it is formatted (no new string).
pub fn escape(text: &str) -> Escaped<'_> {
    Escaped(text)
}

/// Text written with `&`, `<`, `>` and `"` escaped: see [`escape`].
pub struct Escaped<'a>(&'a str);

impl Display for Escaped<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(['&', '<', '>', '"']) {
            f.write_str(&rest[..at])?;
            f.write_str(match rest.as_bytes()[at] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                _ => "&quot;",
            })?;
            rest = &rest[at + 1..];
        }
        f.write_str(rest)
    }
}

/// A number with one decimal, as `{:.1}` writes it but without the exact float formatting that
/// dominates the cost of a picture: the pictures' coordinates are sums of halves and the corners
/// of hexagons, so rounding the tenths halfway up or to even never differs in practice.
struct Tenths(i64);

impl Tenths {
    fn from(value: f64) -> Tenths {
        Tenths((value * 10.0).round() as i64)
    }
}

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let mut digits = itoa::Buffer::new();
        f.write_str(sign)?;
        f.write_str(digits.format(abs / 10))?;
        f.write_str(".")?;
        f.write_str(digits.format(abs % 10))
    }
}

impl Svg {
    /// A picture `width` by `height` user units, with a white background.
    pub fn new(width: f64, height: f64) -> Svg {
        Svg::start(width, height, None)
    }

    /// The same picture written as `scene`'s items (its lines and parts numbered there).
    pub fn in_scene(width: f64, height: f64, mut scene: Scene) -> Svg {
        scene.items.clear();
        let size = (width.round() as i64, height.round() as i64);
        match scene.header {
            Some((drawn, header)) if drawn == size => {
                scene.items.push(header);
                Svg {
                    text: std::mem::take(&mut scene.buffer),
                    scene: Some(scene),
                    names: Vec::new(),
                }
            }
            _ => {
                let mut svg = Svg::start(width, height, Some(scene));
                if let Some(scene) = &mut svg.scene {
                    scene.header = scene.items.first().map(|&header| (size, header));
                }
                svg
            }
        }
    }

    /// The same picture with the seats named after `names`' engines.
    pub fn named(mut self, names: &[String]) -> Svg {
        self.names = names.to_vec();
        self
    }

    /// What the picture calls `seat`: its engine's name (the first 16 characters), else
    /// `seat N`.
    pub fn seat_name(&self, seat: usize) -> String {
        match self.names.get(seat) {
            Some(name) if name.chars().count() > 16 => {
                format!("{}…", name.chars().take(15).collect::<String>())
            }
            Some(name) => name.clone(),
            None => format!("seat {seat}"),
        }
    }

    fn start(width: f64, height: f64, scene: Option<Scene>) -> Svg {
        let mut svg = Svg {
            text: String::new(),
            scene,
            names: Vec::new(),
        };
        // Whole units, rounded as `{:.0}` rounds them (half to even never arises: the sizes are
        // whole numbers).
        let (width, height) = (width.round() as i64, height.round() as i64);
        let _ = write!(
            svg.text,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="sans-serif">"#
        );
        let _ = write!(
            svg.text,
            r#"<rect width="100%" height="100%" fill="white"/>"#
        );
        svg.line_done();
        svg
    }

    /// In a scene, the line just written becomes an item.
    fn line_done(&mut self) {
        if let Some(scene) = &mut self.scene {
            let text = self.text.trim_start_matches('\n');
            let n = scene.number(text);
            scene.items.push(Item::Line(n));
            self.text.clear();
        }
    }

    /// A part at (`x`, `y`), named `mark` for a viewer that marks the last move: `draw` draws
    /// its elements around the origin. `key` says everything the drawing depends on (within one
    /// game's pictures): in a scene, a part is drawn once per key.
    pub fn part(
        &mut self,
        key: std::fmt::Arguments,
        x: f64,
        y: f64,
        mark: Option<&dyn Display>,
        draw: impl FnOnce(&mut Svg),
    ) {
        let (x, y) = (Tenths::from(x), Tenths::from(y));
        let Some(scene) = &mut self.scene else {
            self.text.push_str("\n<g");
            if let Some(mark) = mark {
                let _ = write!(self.text, " data-mark=\"{}\"", escape(&mark.to_string()));
            }
            let _ = write!(self.text, " transform=\"translate({x} {y})\">");
            draw(self);
            self.text.push_str("</g>");
            return;
        };
        scene.key.clear();
        let _ = scene.key.write_fmt(key);
        let part = match scene.parts.get(&scene.key) {
            Some(&part) => part,
            None => {
                let alone = || {
                    let mut alone = Svg {
                        text: String::new(),
                        scene: None,
                        names: Vec::new(),
                    };
                    draw(&mut alone);
                    alone.text
                };
                let part = match &scene.shared {
                    Some((shared, game)) => {
                        let key = format!("{game}\n{}", scene.key);
                        scene.shared_used.push(shared.index(&key, alone));
                        -(scene.shared_used.len() as i64)
                    }
                    None => i64::from(scene.number(&alone())),
                };
                scene.parts.insert(scene.key.clone(), part);
                part
            }
        };
        let mark = match mark {
            Some(mark) => {
                scene.key.clear();
                let _ = write!(scene.key, "{mark}");
                let escaped = escape(&scene.key).to_string();
                i64::from(scene.number(&escaped))
            }
            None => -1,
        };
        scene.items.push(Item::Part([part, x.0, y.0, mark]));
    }

    /// A circle; `class` says what it shows (tests count pieces by it).
    pub fn circle(&mut self, x: f64, y: f64, r: f64, fill: &str, stroke: &str, class: &str) {
        let _ = write!(
            self.text,
            "\n<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"/>",
            Tenths::from(x),
            Tenths::from(y),
            Tenths::from(r)
        );
        self.line_done();
    }

    /// A rectangle.
    #[allow(clippy::too_many_arguments)] // the SVG element's own attributes
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str, class: &str) {
        let _ = write!(
            self.text,
            "\n<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
            Tenths::from(x),
            Tenths::from(y),
            Tenths::from(w),
            Tenths::from(h)
        );
        self.line_done();
    }

    /// A closed polygon through `points`.
    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str, stroke: &str, class: &str) {
        let points: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{},{}", Tenths::from(x), Tenths::from(y)))
            .collect();
        let _ = write!(
            self.text,
            "\n<polygon class=\"{class}\" points=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
            points.join(" ")
        );
        self.line_done();
    }

    /// Text centred on (`x`, `y`).
    pub fn text(&mut self, x: f64, y: f64, size: f64, fill: &str, text: &str) {
        let _ = write!(
            self.text,
            "\n<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{fill}\" text-anchor=\"middle\" dominant-baseline=\"central\">{}</text>",
            Tenths::from(x),
            Tenths::from(y),
            size.round() as i64,
            escape(text)
        );
        self.line_done();
    }

    /// Left-aligned text from (`x`, `y`).
    pub fn label(&mut self, x: f64, y: f64, size: f64, text: &str) {
        let (x, y, size, text) = (
            Tenths::from(x),
            Tenths::from(y),
            size.round() as i64,
            escape(text),
        );
        let _ = match self.scene {
            Some(_) => write!(self.text, "{LABEL}{x} {y} {size} {text}"),
            None => write!(self.text, "\n{}", Label(&format!("{x} {y} {size} {text}"))),
        };
        self.line_done();
    }

    /// Two caption lines from `y` down: the first and last lines of a text picture (the status
    /// and the scores).
    pub fn caption(&mut self, y: f64, text_picture: &str) {
        let mut lines = text_picture.lines();
        self.label(15.0, y, 14.0, lines.next().unwrap_or_default());
        self.label(15.0, y + 23.0, 12.0, lines.last().unwrap_or_default());
    }

    /// A group of lines and parts that `draw` draws, and that `key` says everything of (within
    /// one game's pictures, like a part's): in a scene, drawn once per key and then repeated.
    /// Where a game changes a little of its picture at a time (a hand of DOUBLE), the rest is
    /// not drawn again.
    pub fn group(&mut self, key: std::fmt::Arguments, draw: impl FnOnce(&mut Svg)) {
        let Some(scene) = &mut self.scene else {
            draw(self);
            return;
        };
        scene.key.clear();
        let _ = scene.key.write_fmt(key);
        if let Some(items) = scene.groups.get(&scene.key) {
            scene.items.extend_from_slice(items);
            return;
        }
        let (key, start) = (scene.key.clone(), scene.items.len());
        draw(self);
        if let Some(scene) = &mut self.scene {
            let items = scene.items[start..].to_vec();
            scene.groups.insert(key, items);
        }
    }

    /// The finished picture.
    pub fn finish(mut self) -> String {
        self.text.push_str("\n</svg>");
        self.text
    }

    /// The finished picture as its scene's items (`items`).
    pub fn finish_scene(mut self) -> Option<Scene> {
        self.text.push_str("</svg>");
        self.line_done();
        let mut scene = self.scene?;
        scene.buffer = self.text;
        Some(scene)
    }
}

/// The six corners of a pointy-top hexagon of radius `r` around (`x`, `y`).
pub fn hexagon(x: f64, y: f64, r: f64) -> Vec<(f64, f64)> {
    (0..6)
        .map(|i| {
            let angle = std::f64::consts::PI / 3.0 * f64::from(i) + std::f64::consts::PI / 6.0;
            (x + r * libm::cos(angle), y + r * libm::sin(angle))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_writes_the_four_characters_as_entities_and_keeps_the_rest() {
        assert_eq!(
            escape(r#"a<b>&"c"é</script>"#).to_string(),
            "a&lt;b&gt;&amp;&quot;c&quot;é&lt;/script&gt;"
        );
        assert_eq!(escape("").to_string(), "");
        assert_eq!(escape("plain").to_string(), "plain");
    }
}
