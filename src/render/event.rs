//! An event drawn by its own rules, as HTML: a knockout's bracket (a column a round, a box a
//! tie, the one going on in bold) and a Swiss's rounds (a row a round, a cell a table).

use std::fmt::Write as _;

use crate::events::standings::{EventStandings, points_text as points, round_title};
use crate::render::svg::escape;

/// The bracket or the rounds of `event`, or nothing for a round robin.
pub fn event_html(event: &EventStandings) -> String {
    let mut html = String::new();
    if let Some(champion) = &event.champion {
        let _ = write!(
            html,
            "<p id=\"champion\">Won by <b>{}</b></p>",
            escape(champion)
        );
    }
    if !event.bracket.is_empty() {
        html.push_str("<h3>Bracket</h3><div id=\"bracket\">");
        let total = event.bracket.len();
        for (r, ties) in event.bracket.iter().enumerate() {
            let _ = write!(
                html,
                "<div class=\"round\"><div class=\"round-title\">{}</div>",
                escape(&round_title(r, total))
            );
            for tie in ties {
                html.push_str("<div class=\"tie\">");
                for (engine, score) in tie.engines.iter().zip(tie.points) {
                    let name = match engine {
                        Some(name) => escape(name).to_string(),
                        None if r == 0 => "bye".to_owned(),
                        None => "?".to_owned(),
                    };
                    let going_on = engine.is_some() && *engine == tie.winner;
                    let shown = match tie.games {
                        0 => String::new(),
                        _ => points(score),
                    };
                    let _ = write!(
                        html,
                        "<div class=\"{}\"><span>{name}</span><span>{shown}</span></div>",
                        if going_on { "on" } else { "out" }
                    );
                }
                html.push_str("</div>");
            }
            html.push_str("</div>");
        }
        html.push_str("</div>");
    }
    if !event.rounds.is_empty() {
        html.push_str("<h3>Rounds</h3><table id=\"rounds\"><tr><th>round</th><th>tables (points)</th><th>bye</th></tr>");
        for round in &event.rounds {
            let tables: Vec<String> = (round.tables.iter())
                .map(|t| {
                    let seats: Vec<String> = (t.engines.iter().zip(&t.points))
                        .map(|(name, p)| format!("{} {}", escape(name), points(*p)))
                        .collect();
                    seats.join(" – ")
                })
                .collect();
            let _ = write!(
                html,
                "<tr><td>{}</td><td class=\"tables\">{}</td><td>{}</td></tr>",
                round.number,
                tables.join("<br>"),
                escape(&round.byes.join(", "))
            );
        }
        html.push_str("</table>");
    }
    if !html.is_empty() {
        // Its own style with it: the viewer and the live page both show the report.
        html.insert_str(0, &format!("<style>{EVENT_CSS}</style>"));
    }
    html
}

/// The page style the bracket and rounds need.
const EVENT_CSS: &str =
    "#bracket { display: flex; gap: 18px; align-items: center; margin: 6px 0 12px; }
#bracket .round { display: flex; flex-direction: column; justify-content: space-around; gap: 10px; }
#bracket .round-title { font-size: 12px; color: #555; }
#bracket .tie { border: 1px solid #999; min-width: 150px; }
#bracket .tie div { display: flex; justify-content: space-between; gap: 12px; padding: 2px 6px; }
#bracket .tie .on { font-weight: bold; background: #e8f2e0; }
#rounds td.tables { text-align: left; }
";
