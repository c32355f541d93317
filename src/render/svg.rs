//! A few helpers to write SVG text: the games draw their pictures with them, without I/O.

use std::fmt::Write as _;

/// An SVG picture being written.
pub struct Svg {
    text: String,
}

/// Text safe inside SVG elements and attributes.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A number with one decimal, as `{:.1}` writes it but without the exact float formatting that
/// dominates the cost of a picture: the pictures' coordinates are sums of halves and the corners
/// of hexagons, so rounding the tenths halfway up or to even never differs in practice.
struct Tenths(f64);

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tenths = (self.0 * 10.0).round() as i64;
        let sign = if tenths < 0 { "-" } else { "" };
        let abs = tenths.unsigned_abs();
        write!(f, "{sign}{}.{}", abs / 10, abs % 10)
    }
}

impl Svg {
    /// A picture `width` by `height` user units, with a white background.
    pub fn new(width: f64, height: f64) -> Svg {
        let mut text = String::new();
        let _ = write!(
            text,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0} {height:.0}" width="{width:.0}" height="{height:.0}" font-family="sans-serif">"#
        );
        let _ = write!(text, r#"<rect width="100%" height="100%" fill="white"/>"#);
        Svg { text }
    }

    /// A circle; `class` says what it shows (tests count pieces by it).
    pub fn circle(&mut self, x: f64, y: f64, r: f64, fill: &str, stroke: &str, class: &str) {
        let _ = write!(
            self.text,
            "\n<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"/>",
            Tenths(x),
            Tenths(y),
            Tenths(r)
        );
    }

    /// A rectangle.
    #[allow(clippy::too_many_arguments)] // the SVG element's own attributes
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str, class: &str) {
        let _ = write!(
            self.text,
            "\n<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
            Tenths(x),
            Tenths(y),
            Tenths(w),
            Tenths(h)
        );
    }

    /// A closed polygon through `points`.
    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str, stroke: &str, class: &str) {
        let points: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{},{}", Tenths(x), Tenths(y)))
            .collect();
        let _ = write!(
            self.text,
            "\n<polygon class=\"{class}\" points=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
            points.join(" ")
        );
    }

    /// Starts a group for the cell or card the picture calls `name` (`D4`, `c31`): a viewer finds
    /// it by `data-mark` to mark the last move. Ends with [`Svg::end_mark`].
    pub fn start_mark(&mut self, name: &str) {
        let _ = write!(self.text, "\n<g data-mark=\"{}\">", escape(name));
    }

    /// Ends the group [`Svg::start_mark`] began.
    pub fn end_mark(&mut self) {
        self.text.push_str("</g>");
    }

    /// Text centred on (`x`, `y`).
    pub fn text(&mut self, x: f64, y: f64, size: f64, fill: &str, text: &str) {
        let _ = write!(
            self.text,
            "\n<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{fill}\" text-anchor=\"middle\" dominant-baseline=\"central\">{}</text>",
            Tenths(x),
            Tenths(y),
            size.round() as i64,
            escape(text)
        );
    }

    /// Left-aligned text from (`x`, `y`).
    pub fn label(&mut self, x: f64, y: f64, size: f64, text: &str) {
        let _ = write!(
            self.text,
            "\n<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#222\" dominant-baseline=\"central\">{}</text>",
            Tenths(x),
            Tenths(y),
            size.round() as i64,
            escape(text)
        );
    }

    /// Two caption lines from `y` down: the first and last lines of a text picture (the status
    /// and the scores).
    pub fn caption(&mut self, y: f64, text_picture: &str) {
        let mut lines = text_picture.lines();
        self.label(15.0, y, 14.0, lines.next().unwrap_or_default());
        self.label(15.0, y + 23.0, 12.0, lines.last().unwrap_or_default());
    }

    /// The finished picture.
    pub fn finish(mut self) -> String {
        self.text.push_str("\n</svg>");
        self.text
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
