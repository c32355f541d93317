//! `referee report`: one self-contained HTML page of a run: the standings, the crosstable, the
//! joint ratings (three engines or more), each
//! engine's Elo with its 95% interval as the games accumulate (and the SPRT's LLR with its
//! bounds), above the replay viewer of every game.

use std::fmt::Write as _;

use crate::events::tag::RunTag;
use crate::records::Record;
use crate::render::event::event_html;
use crate::render::ratings::ratings_html;
use crate::render::svg::escape;
use crate::stats::elo::{Sprt, elo_text, perfect_bound};
use crate::stats::ratings::{Ratings, RatingsError};
use crate::stats::results::{Counter, Results};

/// The most points a curve gets: a run of 20,000 games is sampled, not drawn game by game.
const MAX_POINTS: usize = 100;
/// Elo values are drawn within this range; a perfect score's unbounded interval is cut there.
const ELO_LIMIT: f64 = 800.0;

/// One engine's value after some games: Elo against the field in two-seat games (mean points
/// per game otherwise), with the half-width of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Games counted so far.
    pub games: u32,
    /// The value.
    pub value: f64,
    /// The half-width of its 95% interval (infinite when one end is unbounded).
    pub error: f64,
    /// 0 for an estimate; 1 when the value is a 95% lower bound (the score so far is perfect and
    /// the Elo has no finite estimate), -1 for an upper bound (a nil score).
    pub bound: i8,
}

/// What the report shows: the results of all the records, per engine (in their standings'
/// order) its points, and the SPRT's LLR after each sample.
#[derive(Debug, Default, PartialEq)]
pub struct Series {
    /// Everything counted, as `stats` says it.
    pub results: Results,
    /// The SPRT's challenger (see `challenger_of`).
    pub challenger: String,
    /// Whether the values are Elo (two-seat games) or mean points.
    pub elo: bool,
    /// Engine name and its points.
    pub engines: Vec<(String, Vec<Point>)>,
    /// Games counted and the LLR then.
    pub llr: Vec<(u32, f64)>,
    /// The joint ratings of three engines or more, or why they cannot be computed.
    pub ratings: Option<Result<Ratings, RatingsError>>,
}

/// The curves of records added one at a time, counted in their order and sampled at most
/// `MAX_POINTS` times (and at least half as often): memory holds the samples, not the records.
/// The last sample is all the records, so it equals what `stats` says of them. The SPRT's
/// challenger is the one the first record names (see `challenger_of`).
#[derive(Default)]
pub struct SeriesBuilder {
    counter: Counter,
    records: usize,
    /// Records between samples; doubled whenever the samples would outnumber `MAX_POINTS`.
    step: usize,
    samples: Vec<Results>,
    challenger: Option<String>,
    two_seats: bool,
    /// The SPRT the first record's run stopped on (`tags.sprt`), if it had one.
    recorded_sprt: Option<String>,
}

impl SeriesBuilder {
    /// Counts the next record.
    pub fn add(&mut self, record: &Record) {
        if self.challenger.is_none() {
            self.challenger = Some(challenger_of(record));
            self.recorded_sprt = record.tags.get("sprt").cloned();
            self.two_seats = true;
            self.step = 1;
        }
        self.two_seats &= record.seats.len() == 2;
        self.counter.add(record);
        self.records += 1;
        if self.records.is_multiple_of(self.step) {
            self.samples.push(self.counter.results());
            if self.samples.len() > MAX_POINTS {
                // Keep every other sample: those at multiples of the doubled step.
                let mut i = 0;
                self.samples.retain(|_| {
                    i += 1;
                    i % 2 == 0
                });
                self.step *= 2;
            }
        }
    }

    /// The SPRT the first record's run had (`--sprt`'s words), if any.
    pub fn recorded_sprt(&self) -> Option<&str> {
        self.recorded_sprt.as_deref()
    }

    /// The curves, and the LLR of `sprt` after each sample.
    pub fn finish(&self, sprt: Option<&Sprt>) -> Series {
        if self.records == 0 {
            return Series::default();
        }
        let mut samples = self.samples.clone();
        if !self.records.is_multiple_of(self.step) {
            let last = self.counter.results();
            if samples.len() == MAX_POINTS {
                samples.pop();
            }
            samples.push(last);
        }
        let challenger = self.challenger.clone().unwrap_or_default();
        let elo = self.two_seats;
        let Some(last) = samples.last() else {
            return Series::default();
        };
        let paired = last
            .pairings
            .iter()
            .any(|p| p.pentanomial.iter().any(|&n| n > 0));
        let engines = last
            .engines
            .iter()
            .map(|engine| {
                let points = samples
                    .iter()
                    .filter_map(|results| {
                        let e = results.engines.iter().find(|e| e.name == engine.name)?;
                        let (value, error) = match (elo, e.estimate) {
                            (true, Some(estimate)) => (estimate.elo, estimate.elo_error),
                            (true, None) => return None,
                            (false, _) => e.mean_points,
                        };
                        // A perfect (or nil) score: its 95% bound, as `stats` prints it.
                        let bound = match value.is_finite() {
                            true => 0,
                            false if value > 0.0 => 1,
                            false => -1,
                        };
                        Some(Point {
                            games: results.games,
                            value: match bound {
                                0 => value,
                                _ => f64::from(bound) * perfect_bound(e.tally.games()),
                            },
                            error: if bound == 0 { error } else { 0.0 },
                            bound,
                        })
                    })
                    .collect();
                (engine.name.clone(), points)
            })
            .collect();
        let llr = match sprt {
            Some(sprt) => samples
                .iter()
                .map(|results| (results.games, results.llr(sprt, &challenger, paired)))
                .collect(),
            None => Vec::new(),
        };
        Series {
            results: last.clone(),
            challenger,
            elo,
            engines,
            llr,
            // The report shows who is likely stronger than whom, as `ratings --los` does.
            ratings: self.counter.ratings_with(&crate::stats::ratings::Options {
                los: true,
                ..Default::default()
            }),
        }
    }
}

/// Line colours of the engines, in standings order (then again).
const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
];

/// A line of a plot: its name, colour, and points as (x, y, half-width of the error bar, and 0
/// for an estimate, 1 for a lower bound, -1 for an upper bound).
type Line<'a> = (String, &'a str, Vec<(f64, f64, f64, i8)>);

/// A plot of `lines` with x from 0 to `x_max` and y within `y_range`; horizontal reference lines
/// `rules` (label, y).
fn plot(
    title: &str,
    class: &str,
    lines: &[Line],
    x_max: f64,
    (y_low, y_high): (f64, f64),
    rules: &[(String, f64)],
) -> String {
    const W: f64 = 720.0;
    const H: f64 = 300.0;
    const LEFT: f64 = 60.0;
    const TOP: f64 = 30.0;
    let (width, height) = (W - LEFT - 20.0, H - TOP - 40.0);
    let x_of = |x: f64| LEFT + x / x_max.max(1.0) * width;
    let y_of = |y: f64| TOP + (y_high - y.clamp(y_low, y_high)) / (y_high - y_low) * height;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg class="{class}" viewBox="0 0 {W} {H}" width="{W}" height="{H}" font-family="sans-serif" font-size="11"><rect width="100%" height="100%" fill="white"/><text x="{LEFT}" y="16" font-size="13">{}</text><rect x="{LEFT}" y="{TOP}" width="{width}" height="{height}" fill="none" stroke="#999"/>"##,
        escape(title)
    );
    // Two decimals on a narrow scale (mean points from 0 to 1), whole numbers on a wide one.
    let decimals = if y_high - y_low <= 4.0 { 2 } else { 0 };
    for k in 0..=4 {
        let y = y_low + (y_high - y_low) * f64::from(k) / 4.0;
        let _ = write!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{y:.decimals$}</text>"##,
            LEFT - 4.0,
            y_of(y) + 4.0
        );
    }
    let _ = write!(
        svg,
        r##"<text x="{LEFT}" y="{:.1}">0</text><text x="{:.1}" y="{:.1}" text-anchor="end">{x_max:.0} games</text>"##,
        TOP + height + 16.0,
        LEFT + width,
        TOP + height + 16.0
    );
    for (label, y) in rules {
        let (right, y) = (LEFT + width, y_of(*y));
        let _ = write!(
            svg,
            r##"<line class="bound" x1="{LEFT}" x2="{right:.1}" y1="{y:.1}" y2="{y:.1}" stroke="#888" stroke-dasharray="4 3"/><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#666">{}</text>"##,
            right - 4.0,
            y - 4.0,
            escape(label),
        );
    }
    for (i, line) in lines.iter().enumerate() {
        draw_line(&mut svg, i, line, &x_of, &y_of, (LEFT, TOP));
    }
    svg.push_str("</svg>");
    svg
}

/// Draws `line`, the `i`th of its plot: the curve, its bounds as triangles, its error bars, and
/// its name in the corner at (`left`, `top`).
fn draw_line(
    svg: &mut String,
    i: usize,
    (name, colour, points): &Line,
    x_of: &dyn Fn(f64) -> f64,
    y_of: &dyn Fn(f64) -> f64,
    (left, top): (f64, f64),
) {
    let path: Vec<String> = points
        .iter()
        .map(|&(x, y, _, _)| format!("{:.1},{:.1}", x_of(x), y_of(y)))
        .collect();
    let _ = write!(
        svg,
        r##"<polyline class="line" data-name="{}" points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"##,
        escape(name),
        path.join(" ")
    );
    // A bound is a triangle pointing the way the true value lies.
    for &(x, y, _, bound) in points.iter().filter(|p| p.3 != 0) {
        let (px, py) = (x_of(x), y_of(y));
        let tip = if bound > 0 { py - 6.0 } else { py + 6.0 };
        let _ = write!(
            svg,
            r##"<polygon class="bound-point" points="{:.1},{py:.1} {:.1},{py:.1} {px:.1},{tip:.1}" fill="{colour}"/>"##,
            px - 4.0,
            px + 4.0
        );
    }
    for &(x, y, error, _) in points.iter().filter(|p| p.2 > 0.0) {
        let _ = write!(
            svg,
            r##"<line class="error-bar" x1="{0:.1}" x2="{0:.1}" y1="{1:.1}" y2="{2:.1}" stroke="{colour}" stroke-opacity="0.45"/>"##,
            x_of(x),
            y_of(y - error),
            y_of(y + error)
        );
    }
    let _ = write!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" fill="{colour}">{}</text>"##,
        left + 8.0,
        top + 14.0 + 14.0 * i as f64,
        escape(name)
    );
}

/// The report's HTML block for the curves `series`.
pub fn report_html(series: &Series, sprt: Option<&Sprt>) -> String {
    let results = &series.results;
    let mut html = String::new();
    let _ = write!(
        html,
        "<h2>Report</h2><p id=\"summary\">{}</p>",
        escape(&results.summary_line())
    );
    standings_html(&mut html, results);
    crosstable_html(&mut html, results);
    head_to_head_html(&mut html, results);
    match &series.ratings {
        Some(Ok(ratings)) => html.push_str(&ratings_html(ratings)),
        Some(Err(why)) => {
            let _ = write!(
                html,
                "<h3>Ratings</h3><p>Not computed: {}</p>",
                escape(&why.to_string())
            );
        }
        None => {}
    }
    let games = f64::from(results.games);
    html.push_str(&elo_plot(series, games));
    if let (Some(sprt), false) = (sprt, series.llr.is_empty()) {
        html.push_str(&sprt_plot(series, sprt, games));
    }
    html
}

/// The standings table: place (by the event's rules where the records say the event), games,
/// points, mean points and rank with their intervals, Elo, and the event's tie-breaks or how far
/// each went; then a knockout's bracket or a Swiss's rounds.
fn standings_html(html: &mut String, results: &crate::stats::results::Results) {
    let event = results.event.as_ref();
    if let Some(event) = event {
        let _ = write!(
            html,
            "<p id=\"ranked-by\">{} standings, by {}.</p>",
            escape(event.format),
            escape(event.ranked_by)
        );
    }
    // The event's own columns: how far each went, or its byes and tie-breaks.
    let last = match event {
        Some(e) if e.format == "knockout" => "<th>reached</th>".to_owned(),
        Some(e) => {
            let mut heads = String::new();
            if e.rows.iter().any(|row| row.byes > 0) {
                heads.push_str("<th>byes</th>");
            }
            for (name, _) in e.rows.first().map_or(&[][..], |row| &row.tie_breaks[..]) {
                let _ = write!(heads, "<th>{}</th>", escape(name));
            }
            heads
        }
        None => String::new(),
    };
    let _ = write!(
        html,
        "<table id=\"standings\"><tr><th>place</th><th>engine</th><th>games</th><th>points</th>\
         <th>mean points</th><th>mean rank</th><th>Elo (2 seats)</th>{last}</tr>",
    );
    let byes = event.is_some_and(|e| e.rows.iter().any(|row| row.byes > 0));
    for (e, place, points, row) in results.placed() {
        let details = row.map(|row| match &row.reached {
            Some(reached) => format!("<td>{}</td>", escape(reached)),
            None => {
                let mut cells = String::new();
                if byes {
                    let _ = write!(cells, "<td>{}</td>", row.byes);
                }
                for (_, value) in &row.tie_breaks {
                    let shown = value.map_or("–".to_owned(), |x| format!("{x:.2}"));
                    let _ = write!(cells, "<td>{shown}</td>");
                }
                cells
            }
        });
        let _ = write!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{:.3} ± {:.3}</td>\
             <td>{:.2} ± {:.2}</td><td>{}</td>{}</tr>",
            escape(&place),
            escape(&e.name),
            e.games,
            points,
            e.mean_points.0,
            e.mean_points.1,
            e.mean_rank.0,
            e.mean_rank.1,
            escape(&elo_text(&e.tally)),
            details.unwrap_or_default()
        );
    }
    html.push_str("</table>");
    if let Some(event) = event {
        html.push_str(&event_html(event));
    }
}

/// The crosstable of points / games between every two engines, when any two met.
fn crosstable_html(html: &mut String, results: &crate::stats::results::Results) {
    if !results.pairings.is_empty() {
        html.push_str("<h3>Crosstable (points / games)</h3><table id=\"crosstable\"><tr><th></th>");
        for e in &results.engines {
            let _ = write!(html, "<th>{}</th>", escape(&e.name));
        }
        html.push_str("</tr>");
        for row in &results.engines {
            let _ = write!(html, "<tr><th>{}</th>", escape(&row.name));
            for column in &results.engines {
                let cell = match results.against(&row.name, &column.name) {
                    _ if row.name == column.name => "-".to_owned(),
                    Some((points, games)) => format!("{points:.1}/{games}"),
                    None => ".".to_owned(),
                };
                let _ = write!(html, "<td>{cell}</td>");
            }
            html.push_str("</tr>");
        }
        html.push_str("</table>");
    }
}

/// Each pair's results from the first's side (engines in name order): wins, losses and draws,
/// score, Elo and LOS, and the game pairs by points (pentanomial), as `ratings --head-to-head`.
fn head_to_head_html(html: &mut String, results: &crate::stats::results::Results) {
    if results.pairings.is_empty() {
        return;
    }
    html.push_str(
        "<h3>Head to head</h3><table id=\"head-to-head\"><tr><th>engines</th>\
         <th>wins - losses - draws</th><th>score</th><th>Elo</th><th>LOS</th>\
         <th>game pairs by points 0, ½, 1, 1½, 2</th></tr>",
    );
    for pairing in &results.pairings {
        let t = pairing.tally;
        let (score, los) = pairing.estimate.map_or((0.0, 0.5), |e| (e.score, e.los));
        let pairs = pairing.pentanomial.map(|n| n.to_string()).join(", ");
        let _ = write!(
            html,
            "<tr><td>{} vs {}</td><td>{} - {} - {}</td><td>{score:.3}</td><td>{}</td>\
             <td>{:.1} %</td><td>{pairs}</td></tr>",
            escape(&pairing.a),
            escape(&pairing.b),
            t.wins,
            t.losses,
            t.draws,
            escape(&crate::stats::elo::elo_text(&pairing.tally)),
            100.0 * los
        );
    }
    html.push_str("</table>");
}

/// Each engine's Elo against the field (or mean points, in games of more seats) with its 95%
/// interval, as games accumulate.
fn elo_plot(series: &Series, games: f64) -> String {
    let lines: Vec<Line> = series
        .engines
        .iter()
        .enumerate()
        .map(|(i, (name, points))| {
            // A perfect score has no finite Elo: its bound is drawn instead, marked as one.
            let points = points
                .iter()
                .map(|p| (f64::from(p.games), p.value, p.error, p.bound))
                .collect();
            (name.clone(), COLOURS[i % COLOURS.len()], points)
        })
        .collect();
    let (title, range) = if series.elo {
        let values = lines.iter().flat_map(|(_, _, points)| points);
        let reach = values
            .filter(|p| p.1.is_finite() && p.2.is_finite())
            .map(|p| p.1.abs() + p.2)
            .fold(50.0, f64::max);
        // A round scale, so that the ticks at its quarters are round too.
        let reach = [50.0, 100.0, 200.0, 400.0, ELO_LIMIT]
            .into_iter()
            .find(|&r| r >= reach)
            .unwrap_or(ELO_LIMIT);
        let title = "Elo against the field, with its 95% interval, as games accumulate \
                     (a triangle: a perfect score's 95% bound)";
        (title, (-reach, reach))
    } else {
        (
            "Mean points per game, with its 95% interval, as games accumulate",
            (0.0, 1.0),
        )
    };
    plot(title, "elo-plot", &lines, games, range, &[])
}

/// The engine an SPRT of `record`'s run is of: the one its run names (`tags.sprt_challenger`);
/// for records written before runs named it, the first engine of the run's statement
/// (`engines=` in `tags.tournament`), else seat 0's. Never a seat of its own: seats rotate.
fn challenger_of(record: &Record) -> String {
    if let Some(named) = record.tags.get("sprt_challenger") {
        return named.clone();
    }
    let stated = (record.tags.get("tournament"))
        .and_then(|run| RunTag::parse(run))
        .and_then(|tag| tag.engines.into_iter().next())
        .filter(|first| record.seats.iter().any(|s| s.name == *first));
    stated.unwrap_or_else(|| record.seat_name(0).to_owned())
}

/// The SPRT's log-likelihood ratio of the challenger as games accumulate, between its bounds.
fn sprt_plot(series: &Series, sprt: &Sprt, games: f64) -> String {
    let (lower, upper) = sprt.bounds();
    let points: Vec<(f64, f64, f64, i8)> = series
        .llr
        .iter()
        .map(|&(games, llr)| (f64::from(games), llr, 0.0, 0))
        .collect();
    let reach = points
        .iter()
        .map(|p| p.1.abs())
        .fold(upper.max(-lower), f64::max)
        * 1.1;
    let title = format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR of {} against the field",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, series.challenger
    );
    let rules = [
        (format!("accept H1 at {upper:.2}"), upper),
        (format!("accept H0 at {lower:.2}"), lower),
    ];
    let line = [("LLR".to_owned(), "#333", points)];
    plot(&title, "llr-plot", &line, games, (-reach, reach), &rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The curves of `records` (see [`SeriesBuilder`]).
    fn series(records: &[Record], sprt: Option<&Sprt>) -> Series {
        let mut builder = SeriesBuilder::default();
        for r in records {
            builder.add(r);
        }
        builder.finish(sprt)
    }
    use crate::records::finished_record;

    #[test]
    fn curves_are_sampled_and_end_at_what_stats_says() {
        // 250 games, seats alternating; `new` wins 3 of every 5.
        let records: Vec<Record> = (0..250u64)
            .map(|i| {
                let names = if i % 2 == 0 {
                    ["new", "old"]
                } else {
                    ["old", "new"]
                };
                let new_seat = usize::from(i % 2 == 1);
                let winner = if i % 5 < 3 { new_seat } else { 1 - new_seat };
                finished_record(&names, &[winner], i)
            })
            .collect();
        let sprt = Sprt::parse(&["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"].map(String::from))
            .unwrap();
        let series = series(&records, Some(&sprt));
        assert!(series.elo);
        let mut counter = Counter::default();
        for r in &records {
            counter.add(r);
        }
        let results = counter.results();
        for (name, points) in &series.engines {
            assert!(
                points.len() <= MAX_POINTS && points.len() >= MAX_POINTS / 2,
                "{name}"
            );
            let last = points.last().unwrap();
            let engine = results.engines.iter().find(|e| &e.name == name).unwrap();
            let estimate = engine.estimate.unwrap();
            assert_eq!(
                (last.games, last.value, last.error),
                (250, estimate.elo, estimate.elo_error)
            );
            // Counted in order: the games grow along the curve.
            assert!(points.windows(2).all(|w| w[0].games < w[1].games));
        }
        // 150 of 250 is a score of 0.6: about +70 Elo for `new`.
        assert_eq!(series.engines[0].0, "new");
        assert!((series.engines[0].1.last().unwrap().value - 70.4).abs() < 0.1);
        let (games, llr) = *series.llr.last().unwrap();
        assert_eq!(games, 250);
        assert_eq!(llr, results.llr(&sprt, "new", false));
        assert!(series.llr.len() == series.engines[0].1.len());
    }
}
