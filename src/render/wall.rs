//! The live page's parts for a screen across a room: the headline (the event, its game and time
//! control, games done of all and the time left), the SPRT box (its LLR between its bounds, the
//! challenger's wins, losses and draws, pentanomial counts, Elo and normalized Elo with their
//! intervals, as OpenBench and fishtest show a test), and the standings in brief beside the
//! games.

use std::fmt::Write as _;

use crate::render::report::Series;
use crate::render::svg::escape;
use crate::stats::elo::{Sprt, SprtState, elo_text, normalized_elo_of};
use crate::stats::ratings::Standing;

/// What the headline says of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Heading {
    /// The event's name, or what the run is.
    pub title: String,
    /// The game and its variant.
    pub game: String,
    /// The time control, when known.
    pub tc: Option<String>,
    /// Games in all, when known, and how many were done as the run started.
    pub games: Option<(usize, usize)>,
    /// When the run started, in milliseconds since 1970.
    pub started_ms: Option<u64>,
}

/// The headline: title, game and time control, then `N of M games` and the time left at the
/// pace so far (`now_ms` since 1970).
pub fn headline_html(heading: &Heading, finished: usize, now_ms: u64) -> String {
    let mut about = vec![escape(&heading.game).to_string()];
    if let Some(tc) = &heading.tc {
        about.push(format!("tc {}", escape(tc)));
    }
    let progress = match heading.games {
        Some((all, done)) => {
            let mut text = format!("{finished} of {all} games");
            let played = finished.saturating_sub(done);
            let left = all.saturating_sub(finished);
            if let (Some(start), true, true) = (heading.started_ms, played > 0, left > 0) {
                let per_game = now_ms.saturating_sub(start) as f64 / played as f64;
                let _ = write!(text, ", about {} left", duration(per_game * left as f64));
            }
            text
        }
        None => format!("{finished} games"),
    };
    format!(
        "<h1>{}</h1><div class=\"about\">{}</div><div class=\"progress\">{progress}</div>",
        escape(&heading.title),
        about.join(" · ")
    )
}

/// `ms` as `2 h 05 min`, `7 min` or `40 s`.
fn duration(ms: f64) -> String {
    let s = (ms / 1000.0).round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s.div_ceil(60)),
        _ => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

/// The SPRT box of `sprt` for the series' challenger against the field.
pub fn sprt_box_html(series: &Series, sprt: &Sprt) -> String {
    let results = &series.results;
    let who = &series.challenger;
    let tally = results.tally_against_field(who);
    let pentanomial = results.pentanomial_against_field(who);
    let paired = pentanomial.iter().any(|&n| n > 0);
    let llr = series.llr.last().map_or(0.0, |&(_, llr)| llr);
    let (lower, upper) = sprt.bounds();
    let state = match sprt.decide(llr) {
        SprtState::H1 => "<b class=\"h1\">H1 accepted</b>",
        SprtState::H0 => "<b class=\"h0\">H0 accepted</b>",
        SprtState::Continue => "running",
    };
    // The LLR's place between the bounds, as a bar.
    let at = ((llr - lower) / (upper - lower)).clamp(0.0, 1.0) * 100.0;
    let mut html = format!(
        "<h2>SPRT: {} vs the field</h2><div class=\"llr\">LLR <b>{llr:.2}</b> \
         ({lower:.2}, {upper:.2}) · {state}</div>\
         <div class=\"llr-bar\"><div class=\"llr-mark\" style=\"left: {at:.1}%\"></div></div>\
         <div>{} [{:.2}, {:.2}]{} · α {} β {}</div>\
         <div>Games {} · W {} L {} D {}</div>",
        escape(who),
        match sprt.model {
            crate::stats::elo::SprtModel::Logistic => "Elo",
            crate::stats::elo::SprtModel::Normalized => "nElo",
        },
        sprt.elo0,
        sprt.elo1,
        if paired { " on game pairs" } else { "" },
        sprt.alpha,
        sprt.beta,
        tally.games(),
        tally.wins,
        tally.losses,
        tally.draws
    );
    if paired {
        let _ = write!(html, "<div>Ptnml(0-2) {pentanomial:?}</div>");
    }
    if let Some(e) = tally.estimate() {
        // `12.3 +/- 45.6`, or the bound where the interval is not finite, as `stats` says it.
        let _ = write!(
            html,
            "<div>Elo {}",
            escape(&elo_text(&tally)).to_string().replace("+/-", "±")
        );
        let nelo = normalized_elo_of(&tally, &pentanomial);
        if let Some((nelo, error)) = nelo {
            let _ = write!(html, " · nElo {nelo:.1} ± {error:.1}");
        }
        let _ = write!(html, " · LOS {:.1}%</div>", e.los * 100.0);
    }
    html
}

/// The standings in brief: place, engine, points of games, and a rating where there is one.
pub fn table_html(series: &Series) -> String {
    let results = &series.results;
    let ratings = series.ratings.as_ref().and_then(|r| r.as_ref().ok());
    let mut html = String::from(
        "<table><tr><th></th><th>engine</th><th>points</th><th>games</th><th>Elo</th></tr>",
    );
    for (e, place, points, _) in results.placed() {
        let rating = ratings
            .and_then(|r| r.engines.iter().find(|r| r.name == e.name))
            .map(|r| match r.standing {
                Standing::Rated { elo, .. } => format!("{elo:+.0}"),
                Standing::AtLeast(elo) => format!("≥ {elo:+.0}"),
                Standing::AtMost(elo) => format!("≤ {elo:+.0}"),
                Standing::Unrated(_) => "–".to_owned(),
            })
            .or_else(|| {
                let estimate = e.estimate.filter(|e| e.elo.is_finite());
                estimate.map(|est| format!("{:+.0}", est.elo))
            })
            .unwrap_or_else(|| "–".to_owned());
        let _ = write!(
            html,
            "<tr><td>{}</td><td class=\"name\">{}</td><td>{points:.1}</td><td>{}</td><td>{rating}</td></tr>",
            escape(&place),
            escape(&e.name),
            e.games
        );
    }
    html.push_str("</table>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_headline_counts_games_and_the_time_left_at_the_pace_so_far() {
        let heading = Heading {
            title: "<spring> cup".into(),
            game: "dvonn".into(),
            tc: Some("10+0.1".into()),
            games: Some((100, 20)),
            started_ms: Some(1_000_000),
        };
        // 10 games in 60 s since the start: 70 left take 7 minutes.
        let html = headline_html(&heading, 30, 1_060_000);
        assert!(html.contains("<h1>&lt;spring&gt; cup</h1>"), "{html}");
        assert!(html.contains("dvonn · tc 10+0.1"), "{html}");
        assert!(html.contains("30 of 100 games, about 7 min left"), "{html}");
        // Before a game of this run ends there is no pace yet.
        assert!(headline_html(&heading, 20, 1_060_000).contains(">20 of 100 games<"));
        assert_eq!(duration(7_260_000.0), "2 h 01 min");
        assert_eq!(duration(40_400.0), "40 s");
    }
}
