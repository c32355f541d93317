//! The rating list as a table and as JSON.

use std::fmt;

use super::{Rating, Ratings, Reference, Standing};

impl Ratings {
    /// The list as JSON: an array of objects with `name`, `rating` (the bound for a bound, null
    /// when unrated), `error` (the 95% half-width, null but for ratings), `games`, `points`,
    /// `bound` (`at_least`, `at_most` or null) and `unrated` (why, or null); when the likelihood
    /// of superiority was asked for, a rated engine's `los` maps each other rated engine to it
    /// (to four places).
    pub fn to_json(&self) -> serde_json::Value {
        let round = |x: f64| round_to(x, 1);
        let engines = self.engines.iter().enumerate().map(|(a, r)| {
            let (rating, error, bound, unrated) = match r.standing {
                Standing::Rated { elo, error } => {
                    (Some(round(elo)), Some(round(error)), None, None)
                }
                Standing::AtLeast(elo) => (Some(round(elo)), None, Some("at_least"), None),
                Standing::AtMost(elo) => (Some(round(elo)), None, Some("at_most"), None),
                Standing::Unrated(why) => (None, None, None, Some(why.name())),
            };
            let mut engine = serde_json::json!({
                "name": r.name,
                "rating": rating,
                "error": error,
                "games": r.games,
                "points": r.points,
                "bound": bound,
                "unrated": unrated,
            });
            if let Some(row) = self.los.as_ref().and_then(|los| los.get(a)) {
                let others = (row.iter().zip(&self.engines).enumerate())
                    .filter(|&(b, _)| b != a)
                    .map(|(_, (&p, other))| (other.name.clone(), round_to(p, 4).into()));
                engine["los"] = serde_json::Value::Object(others.collect());
            }
            engine
        });
        serde_json::Value::Array(engines.collect())
    }
}

impl Ratings {
    /// The whole list as one JSON object: `games`, `reference` (`average`, or the anchor's
    /// `name` and `elo`), `engines` (the list of [`Ratings::to_json`], with what the caller added
    /// to it), `clustered` (games counted as one unit with the others of their seed), and when
    /// there are any, `seats` (each `seat` from 0, `elo`, `error`) and `draw_rate` (`rate` and the half-width
    /// `error` of its 95% interval, as shares).
    pub fn document(&self, engines: serde_json::Value) -> serde_json::Value {
        let reference = match &self.reference {
            super::Reference::Average => serde_json::json!("average"),
            super::Reference::Anchor(name, elo) => serde_json::json!({"name": name, "elo": elo}),
        };
        let mut document = serde_json::json!({
            "games": self.games,
            "reference": reference,
            "clustered": self.clustered,
            "engines": engines,
        });
        if let Some(seats) = &self.seats {
            let round = |x: f64| round_to(x, 1);
            let seats = seats.iter().map(|s| {
                serde_json::json!({"seat": s.seat, "elo": round(s.elo), "error": round(s.error)})
            });
            document["seats"] = seats.collect();
        }
        if let Some(draws) = self.draw_rate {
            document["draw_rate"] = serde_json::json!({
                "rate": round_to(draws.rate, 4),
                "error": round_to(super::Z_95 * draws.sd, 4),
            });
        }
        document
    }

    /// The fitted draw rate in words, when there is one.
    pub fn draw_rate_text(&self) -> Option<String> {
        let draws = self.draw_rate?;
        Some(format!(
            "Draw rate between equal opponents (Elo curve, draws ν √(wins · losses)): {:.1}% ± {:.1} \
             (95%)",
            100.0 * draws.rate,
            100.0 * super::Z_95 * draws.sd
        ))
    }

    /// The seats' advantages in words, when fitted.
    pub fn seats_text(&self) -> Option<String> {
        let seats = self.seats.as_ref()?;
        let mut text =
            String::from("Seats (advantage over the first seat, Elo with its 95% interval):");
        for s in seats {
            text.push_str(&format!(
                "\n  seat {}  {:+.1} ± {:.1}",
                s.seat + 1,
                s.elo,
                s.error
            ));
        }
        Some(text)
    }

    /// The likelihood of superiority as a table, row over column in percent, the rated engines in
    /// the list's order (as Ordo prints it); `None` when it was not asked for or no engine is
    /// rated.
    pub fn los_table(&self) -> Option<String> {
        let los = self.los.as_ref().filter(|los| !los.is_empty())?;
        let names: Vec<&str> = self.engines[..los.len()]
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        let column = width.clamp(5, 12);
        let mut table = String::from(
            "Likelihood of superiority (%), the row's engine stronger than the column's:\n",
        );
        table.push_str(&" ".repeat(width));
        for name in &names {
            let short: String = name.chars().take(column).collect();
            table.push_str(&format!("  {short:>column$}"));
        }
        for (a, row) in los.iter().enumerate() {
            table.push_str(&format!("\n{:<width$}", names[a]));
            for (b, p) in row.iter().enumerate() {
                let cell = match a == b {
                    true => "-".to_owned(),
                    false => format!("{:.1}", round_to(100.0 * p, 1)),
                };
                table.push_str(&format!("  {cell:>column$}"));
            }
        }
        Some(table)
    }

    /// A rating with `decimals`: signed around an average of 0, plain around an anchor.
    fn number(&self, elo: f64, decimals: usize) -> String {
        rounded(elo, decimals, matches!(self.reference, Reference::Average))
    }
}

impl fmt::Display for Ratings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rated = |r: &Rating| matches!(r.standing, Standing::Rated { .. });
        if !self.engines.iter().any(rated) {
            return write!(
                f,
                "Ratings: none yet from {} games: no two engines have both taken points from \
                 and lost points to each other, directly or through others",
                self.games
            );
        }
        let width = (self.engines.iter())
            .map(|r| r.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let units = match self.clustered {
            0 => String::new(),
            n => format!("; {n} games played from shared seeds, each seed's games one unit"),
        };
        writeln!(
            f,
            "Ratings (Elo with its 95% interval, {}{units}) from {} games:",
            self.reference, self.games
        )?;
        write!(
            f,
            "rank  {:<width$}  {:>9}  {:>6}  {:>6}  {:>7}",
            "engine", "rating", "error", "games", "points"
        )?;
        let mut rank = 0;
        let mut section = "";
        for r in &self.engines {
            let heading = match r.standing {
                Standing::Rated { .. } => "",
                Standing::AtLeast(_) | Standing::AtMost(_) => {
                    "\nNo place on the list yet, a 95% bound from games against rated engines:"
                }
                Standing::Unrated(_) => "\nNot rated:",
            };
            if heading != section {
                f.write_str(heading)?;
                section = heading;
            }
            let (place, rating, error, note) = match r.standing {
                Standing::Rated { elo, error } => {
                    rank += 1;
                    let error = match error {
                        0.0 => "anchor".to_owned(),
                        _ => format!("{error:.1}"),
                    };
                    (rank.to_string(), self.number(elo, 1), error, String::new())
                }
                Standing::AtLeast(elo) => (
                    "-".into(),
                    format!(">={}", self.number(elo, 0)),
                    String::new(),
                    "  won every game against rated engines".into(),
                ),
                Standing::AtMost(elo) => (
                    "-".into(),
                    format!("<={}", self.number(elo, 0)),
                    String::new(),
                    "  lost every game against rated engines".into(),
                ),
                Standing::Unrated(why) => {
                    ("-".into(), String::new(), String::new(), format!("  {why}"))
                }
            };
            write!(
                f,
                "\n{place:>4}  {:<width$}  {rating:>9}  {error:>6}  {:>6}  {:>7}{note}",
                r.name,
                r.games,
                format!("{:.1}", r.points)
            )?;
        }
        Ok(())
    }
}

/// `x` rounded to `decimals` places; a value that rounds to zero is zero, never `-0.0`.
fn round_to(x: f64, decimals: usize) -> f64 {
    let scale = libm::pow(10.0, decimals as f64);
    (x * scale).round() / scale + 0.0
}

/// `elo` to `decimals` places (see [`round_to`]), with its sign when `signed`.
fn rounded(elo: f64, decimals: usize, signed: bool) -> String {
    let elo = round_to(elo, decimals);
    match signed {
        true => format!("{elo:+.decimals$}"),
        false => format!("{elo:.decimals$}"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn nothing_rounds_to_minus_zero() {
        assert_eq!(super::rounded(-0.04, 1, true), "+0.0");
        assert_eq!(super::rounded(-0.4, 0, false), "0");
        assert_eq!(super::rounded(-0.06, 1, true), "-0.1");
        assert_eq!(super::rounded(12.34, 1, true), "+12.3");
        assert!(
            super::round_to(-0.04, 1).is_sign_positive(),
            "the JSON's 0.0"
        );
    }
}
