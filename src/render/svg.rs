//! A few helpers to write SVG text: the games draw their pictures with them, without I/O. A
//! picture is lines (an element each) and parts (a piece, a card: elements drawn at the origin
//! and placed with a translation); written as a scene, the parts are drawn once per game and a
//! picture is a list of numbers, which is what makes a page of thousands of games cheap.

use std::fmt::{Display, Write as _};

use rustc_hash::FxHashMap;

/// An SVG picture being written: as text, or as a [`Scene`]'s items.
pub struct Svg {
    text: String,
    scene: Option<Scene>,
}

/// The pictures of one game as items that share their lines and parts: each distinct line, part
/// and mark is kept once, under a number.
#[derive(Default)]
pub struct Scene {
    /// The distinct lines, parts (their elements at the origin) and marks, in first-seen order.
    pub list: Vec<String>,
    numbers: FxHashMap<String, u32>,
    /// What each part was drawn for (its key, private to the game that draws it).
    parts: FxHashMap<String, u32>,
    /// The items of each group drawn (by its key, as parts).
    groups: FxHashMap<String, Vec<Item>>,
    key: String,
    /// The picture being written.
    pub items: Vec<Item>,
}

/// One line of a picture, or a part placed on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(untagged)]
pub enum Item {
    /// The line of this number in the scene's list.
    Line(u32),
    /// A part: its number, where it goes (x and y in tenths) and its mark's number, if any
    /// (`data-mark`, which names a cell or card; -1 when it has none).
    Part([i64; 4]),
}

impl Scene {
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
        let lines: Vec<String> = items
            .iter()
            .map(|item| match *item {
                Item::Line(n) => listed(n.into()).unwrap_or_default().to_owned(),
                Item::Part([part, x, y, mark]) => {
                    let mut text = String::from("<g");
                    if let Some(mark) = listed(mark) {
                        let _ = write!(text, " data-mark=\"{mark}\"");
                    }
                    let _ = write!(
                        text,
                        " transform=\"translate({} {})\">{}</g>",
                        Tenths(x),
                        Tenths(y),
                        listed(part).unwrap_or_default()
                    );
                    text
                }
            })
            .collect();
        lines.join("\n")
    }
}

/// Text safe inside SVG elements and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
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
        Svg::start(width, height, Some(scene))
    }

    fn start(width: f64, height: f64, scene: Option<Scene>) -> Svg {
        let mut svg = Svg {
            text: String::new(),
            scene,
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
                let mut alone = Svg {
                    text: String::new(),
                    scene: None,
                };
                draw(&mut alone);
                let part = scene.number(&alone.text);
                scene.parts.insert(scene.key.clone(), part);
                part
            }
        };
        let mark = match mark {
            Some(mark) => {
                scene.key.clear();
                let _ = write!(scene.key, "{mark}");
                let escaped = escape(&scene.key);
                i64::from(scene.number(&escaped))
            }
            None => -1,
        };
        scene
            .items
            .push(Item::Part([i64::from(part), x.0, y.0, mark]));
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
        let _ = write!(
            self.text,
            "\n<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#222\" dominant-baseline=\"central\">{}</text>",
            Tenths::from(x),
            Tenths::from(y),
            size.round() as i64,
            escape(text)
        );
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
        self.scene
    }
}

/// The six corners of a pointy-top hexagon of radius `r` around (`x`, `y`).
pub fn hexagon(x: f64, y: f64, r: f64) -> Vec<(f64, f64)> {
    (0..6)
        .map(|i| {
            let angle = std::f64::consts::PI / 3.0 * f64::from(i) + std::f64::consts::PI / 6.0;
            (x + r * angle.cos(), y + r * angle.sin())
        })
        .collect()
}
