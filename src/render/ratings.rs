//! The rating list as HTML: a table, and a picture with a dot and a bar (the 95% interval) per
//! engine, a bound as an arrow from it.

use std::fmt::Write as _;

use crate::render::svg::escape;
use crate::stats::ratings::{Ratings, Standing};

/// The table and the picture of `ratings`.
pub fn ratings_html(ratings: &Ratings) -> String {
    if !(ratings.engines.iter()).any(|r| matches!(r.standing, Standing::Rated { .. })) {
        return format!("<h3>Ratings</h3><p>{}</p>", escape(&ratings.to_string()));
    }
    let mut html = format!(
        "<h3>Ratings</h3><p>Elo with its 95% interval, {}, fitted to all {} games at once.</p>\
         <table id=\"ratings\"><tr><th>rank</th><th>engine</th><th>rating</th><th>95% interval</th>\
         <th>games</th><th>points</th></tr>",
        escape(&ratings.reference.to_string()),
        ratings.games
    );
    let mut rank = 0;
    let mut section = "";
    for r in &ratings.engines {
        let (rating, error) = match r.standing {
            Standing::Rated { elo, error } => (format!("{elo:.1}"), format!("± {error:.1}")),
            Standing::AtLeast(elo) => (
                format!("≥ {elo:.0}"),
                "won every game against rated engines".into(),
            ),
            Standing::AtMost(elo) => (
                format!("≤ {elo:.0}"),
                "lost every game against rated engines".into(),
            ),
            Standing::Unrated(why) => (String::new(), why.to_string()),
        };
        // The rated ranked, then the bounds and the unrated apart, each said why.
        let (place, heading) = match r.standing {
            Standing::Rated { .. } => {
                rank += 1;
                (rank.to_string(), "")
            }
            Standing::AtLeast(_) | Standing::AtMost(_) => (
                String::new(),
                "No place on the list yet: a 95% bound from games against rated engines",
            ),
            Standing::Unrated(_) => (String::new(), "Not rated"),
        };
        if heading != section {
            let _ = write!(
                html,
                "<tr><th colspan=\"6\" style=\"text-align: left\">{heading}</th></tr>"
            );
            section = heading;
        }
        let _ = write!(
            html,
            "<tr><td>{place}</td><td>{}</td><td>{rating}</td><td>{}</td><td>{}</td><td>{:.1}</td></tr>",
            escape(&r.name),
            escape(&error),
            r.games,
            r.points
        );
    }
    html.push_str("</table>");
    html.push_str(&picture(ratings));
    html.push_str(&los_html(ratings));
    html
}

/// The likelihood of superiority of each rated engine over each other, row over column, when the
/// ratings carry it.
fn los_html(ratings: &Ratings) -> String {
    let Some(los) = ratings.los.as_ref().filter(|los| !los.is_empty()) else {
        return String::new();
    };
    let names = &ratings.engines[..los.len()];
    let mut html = String::from(
        "<h3>Likelihood of superiority</h3><p>The row's engine stronger than the column's, in \
         percent, from the ratings and their covariance.</p><table id=\"los\"><tr><th></th>",
    );
    for r in names {
        let _ = write!(html, "<th>{}</th>", escape(&r.name));
    }
    html.push_str("</tr>");
    for (r, row) in names.iter().zip(los) {
        let _ = write!(html, "<tr><th>{}</th>", escape(&r.name));
        for p in row {
            let cell = match p.is_nan() {
                true => "-".to_owned(),
                false => format!("{:.1}", 100.0 * p),
            };
            let _ = write!(html, "<td>{cell}</td>");
        }
        html.push_str("</tr>");
    }
    html.push_str("</table>");
    html
}

/// One row per rated or bounded engine: a dot at its rating and its interval as a bar.
fn picture(ratings: &Ratings) -> String {
    const W: f64 = 720.0;
    const LEFT: f64 = 140.0;
    const ROW: f64 = 22.0;
    let shown: Vec<_> = (ratings.engines.iter())
        .filter(|r| !matches!(r.standing, Standing::Unrated(_)))
        .collect();
    let ends = |r: &&crate::stats::ratings::Rating| match r.standing {
        Standing::Rated { elo, error } => (elo - error, elo + error),
        Standing::AtLeast(elo) | Standing::AtMost(elo) => (elo, elo),
        Standing::Unrated(_) => (0.0, 0.0),
    };
    let low = shown
        .iter()
        .map(|r| ends(r).0)
        .fold(f64::INFINITY, f64::min);
    let high = shown
        .iter()
        .map(|r| ends(r).1)
        .fold(f64::NEG_INFINITY, f64::max);
    if shown.is_empty() || !low.is_finite() || !high.is_finite() {
        return String::new();
    }
    // Room beyond the extremes for the bounds' arrows.
    let margin = ((high - low) * 0.1).max(20.0);
    let (low, high) = (low - margin, high + margin);
    let width = W - LEFT - 20.0;
    let x_of = |elo: f64| LEFT + (elo - low) / (high - low) * width;
    let height = 40.0 + ROW * shown.len() as f64;
    let mut svg = format!(
        r##"<svg class="ratings-plot" viewBox="0 0 {W} {height}" width="{W}" height="{height}" font-family="sans-serif" font-size="11"><rect width="100%" height="100%" fill="white"/>"##
    );
    // Ticks at round values, 3 to 5 of them.
    let step = round_step((high - low) / 4.0);
    let first = libm::ceil(low / step) as i64;
    let last = libm::floor(high / step) as i64;
    for k in first..=last {
        let elo = k as f64 * step + 0.0;
        let x = x_of(elo);
        let _ = write!(
            svg,
            r##"<line x1="{x:.1}" x2="{x:.1}" y1="10" y2="{:.1}" stroke="#eee"/><text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#666">{elo:.0}</text>"##,
            height - 24.0,
            height - 10.0
        );
    }
    for (i, r) in shown.iter().enumerate() {
        let y = 22.0 + ROW * i as f64;
        let _ = write!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT - 8.0,
            y + 4.0,
            escape(&r.name)
        );
        let mark = match r.standing {
            Standing::Rated { elo, error } => format!(
                r##"<line class="interval" x1="{:.1}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="#1f77b4" stroke-width="3" stroke-opacity="0.5"/><circle class="rating" cx="{:.1}" cy="{y:.1}" r="4" fill="#1f77b4"/>"##,
                x_of(elo - error),
                x_of(elo + error),
                x_of(elo)
            ),
            Standing::AtLeast(elo) | Standing::AtMost(elo) => {
                let (from, to) = match r.standing {
                    Standing::AtLeast(_) => (x_of(elo), x_of(high)),
                    _ => (x_of(elo), x_of(low)),
                };
                let tip = if to > from { to - 6.0 } else { to + 6.0 };
                format!(
                    r##"<line class="rating-bound" x1="{from:.1}" x2="{to:.1}" y1="{y:.1}" y2="{y:.1}" stroke="#d62728" stroke-width="2"/><polygon points="{to:.1},{y:.1} {tip:.1},{:.1} {tip:.1},{:.1}" fill="#d62728"/>"##,
                    y - 4.0,
                    y + 4.0
                )
            }
            Standing::Unrated(_) => String::new(),
        };
        svg.push_str(&mark);
    }
    svg.push_str("</svg>");
    svg
}

/// The smallest of 1, 2 and 5 times a power of ten that is at least `raw`: a step between ticks
/// a reader takes in at a glance.
fn round_step(raw: f64) -> f64 {
    let power = libm::pow(10.0, libm::floor(libm::log10(raw.max(1e-9))));
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= raw)
        .unwrap_or(10.0 * power)
}

#[cfg(test)]
mod tests {
    #[test]
    fn ticks_are_round() {
        assert_eq!(super::round_step(59.75), 100.0);
        assert_eq!(super::round_step(119.5), 200.0);
        assert_eq!(super::round_step(4.0), 5.0);
        assert_eq!(super::round_step(0.3), 0.5);
        assert_eq!(super::round_step(50.0), 50.0);
    }
}
