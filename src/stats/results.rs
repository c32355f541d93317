//! Results of any set of records (one run, or shards merged): standings per engine, pairings with
//! pentanomial counts, and a crosstable. Records count the same in any order.
//!
//! A game's points go to its winners, split equally (a draw splits them among all seats). In
//! two-seat games each engine's wins, losses and draws give its score and Elo against the field,
//! and each pairing's give the pair's Elo (see `stats`). Two games of one pair on one seed with the
//! seats swapped (`--repeat`) form a game pair, counted in the pentanomial: how many pairs gave the
//! first engine 0, 0.5, 1, 1.5 or 2 points. In games of three or more seats each engine gets its
//! mean points and mean rank (winners rank 1, the others share the next rank), each with the
//! half-width of its 95% interval, `1.96 sd / sqrt(n)`.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::Serialize;

use crate::events::standings::{EventCounter, EventStandings, Row};
use crate::records::Record;
use crate::stats::elo::{Estimate, Sprt, Tally, elo_text};
use crate::stats::ratings::{Options, Pool, Ratings, RatingsError};

/// One engine's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineResult {
    /// Its name.
    pub name: String,
    /// Finished games it played.
    pub games: u32,
    /// Points won.
    pub points: f64,
    /// Two-seat games: wins, losses and draws against anyone.
    pub tally: Tally,
    /// Two-seat games: score and Elo against the field.
    pub estimate: Option<Estimate>,
    /// Mean points per game and its error.
    pub mean_points: (f64, f64),
    /// Mean rank and its error (1 is best).
    pub mean_rank: (f64, f64),
}

/// Two engines' games against each other (two-seat games), from the first one's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pairing {
    /// The first engine (in name order).
    pub a: String,
    /// The second.
    pub b: String,
    /// `a`'s wins, losses, draws against `b`.
    pub tally: Tally,
    /// `a`'s score and Elo against `b`.
    pub estimate: Option<Estimate>,
    /// Game pairs giving `a` 0, 0.5, 1, 1.5, 2 points.
    pub pentanomial: [u32; 5],
}

/// Everything counted.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Results {
    /// Finished games counted.
    pub games: u32,
    /// Plies played in them.
    pub plies: u64,
    /// How they ended: `normal`, `resignation`, the verdict's name, or `substitute` for a game
    /// the referee finished for a faulty seat, with how many ended so.
    pub ends: BTreeMap<String, u32>,
    /// The faults behind the `substitute` ends: how many seats were taken over for each verdict.
    pub substitutes: BTreeMap<String, u32>,
    /// Engines, best first (most points per game, then name).
    pub engines: Vec<EngineResult>,
    /// Pairings of two-seat games, in name order.
    pub pairings: Vec<Pairing>,
    /// The standings by the event's own rules, when every game is of one run whose
    /// `tags.tournament` names its format and engines.
    pub event: Option<EventStandings>,
}

#[derive(Clone, Default)]
struct Sums {
    games: u32,
    points: f64,
    points_sq: f64,
    rank: f64,
    rank_sq: f64,
    tally: Tally,
}

fn mean_error(sum: f64, sum_sq: f64, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let n = f64::from(n);
    let mean = sum / n;
    let variance = (sum_sq / n - mean * mean).max(0.0);
    (mean, 1.959_963_984_540_054 * variance.sqrt() / n.sqrt())
}

/// Adds one two-seat game worth `points` (1, 1/2 or 0) to `tally`.
fn count(tally: &mut Tally, points: f64) {
    if points >= 1.0 {
        tally.wins += 1;
    } else if points <= 0.0 {
        tally.losses += 1;
    } else {
        tally.draws += 1;
    }
}

/// Counts every finished record.
pub fn results(records: &[Record]) -> Results {
    let mut counter = Counter::default();
    for record in records {
        counter.add(record);
    }
    counter.results()
}

/// The counts of records added one at a time: memory grows with the engines and pairings, not the
/// games (a game pair's first half is kept only until its second arrives).
#[derive(Default)]
pub struct Counter {
    sums: BTreeMap<String, Sums>,
    pairs: BTreeMap<(String, String), Tally>,
    /// First halves of game pairs, by a 64-bit hash of (tournament, seed, pair): their points for
    /// the first of the pair. A hash, not the strings: a run without pairs leaves every game here,
    /// and each then costs a few dozen bytes, not hundreds.
    halves: HashMap<u64, f64>,
    pentanomials: BTreeMap<(String, String), [u32; 5]>,
    games: u32,
    plies: u64,
    ends: BTreeMap<String, u32>,
    substitutes: BTreeMap<String, u32>,
    /// The games for the joint ratings, and why they cannot be rated together if they cannot.
    pool: Pool,
    refused: Option<RatingsError>,
    event: EventCounter,
}

impl Counter {
    /// Counts `record` if it is finished.
    pub fn add(&mut self, record: &Record) {
        let Some(result) = &record.result else {
            return;
        };
        if self.refused.is_none()
            && let Err(e) = self.pool.add(record)
        {
            self.refused = Some(e);
        }
        self.games += 1;
        self.plies += record.moves.len() as u64;
        let end = match record.end.as_ref() {
            _ if !record.faults.is_empty() => "substitute",
            Some(end) => end.name(),
            None => "unfinished",
        };
        *self.ends.entry(end.to_owned()).or_default() += 1;
        for fault in &record.faults {
            *self
                .substitutes
                .entry(fault.verdict.name().to_owned())
                .or_default() += 1;
        }
        let names: Vec<&str> = record.seats.iter().map(|s| s.name.as_str()).collect();
        let seats = names.len();
        let winners = &result.winners;
        let share = |seat: usize| result.points(seat);
        let points: Vec<f64> = (0..seats).map(share).collect();
        let tag = record.tags.get("tournament").map(String::as_str);
        let number = record.tags.get("game").and_then(|n| n.parse().ok());
        self.event.add(tag, number, &names, &points);
        for (seat, name) in names.iter().enumerate() {
            let s = self.sums.entry((*name).to_owned()).or_default();
            let points = share(seat);
            let rank = if winners.contains(&seat) {
                1.0
            } else {
                winners.len() as f64 + 1.0
            };
            s.games += 1;
            s.points += points;
            s.points_sq += points * points;
            s.rank += rank;
            s.rank_sq += rank * rank;
            if seats == 2 {
                count(&mut s.tally, points);
            }
        }
        if seats == 2 {
            let (first, second) = if names[0] <= names[1] { (0, 1) } else { (1, 0) };
            let key = (names[first].to_owned(), names[second].to_owned());
            count(self.pairs.entry(key.clone()).or_default(), share(first));
            let tournament = record.tags.get("tournament").map_or("", String::as_str);
            let half = {
                use std::hash::{Hash, Hasher};
                // Fixed keys: the same record gives the same hash in every run.
                let mut hasher = std::hash::DefaultHasher::new();
                (tournament, record.seed, &key.0, &key.1).hash(&mut hasher);
                hasher.finish()
            };
            match self.halves.remove(&half) {
                Some(x) => {
                    let slot = ((x + share(first)) * 2.0).round() as usize;
                    self.pentanomials.entry(key).or_default()[slot.min(4)] += 1;
                }
                None => {
                    self.halves.insert(half, share(first));
                }
            }
        }
    }

    /// The joint ratings (see `ratings`), for three engines or more: with two, the Elo of their
    /// score says the same. `Err` says why they cannot be computed.
    pub fn ratings(&self) -> Option<Result<Ratings, RatingsError>> {
        self.ratings_with(&Options::default())
    }

    /// As [`Counter::ratings`], rated with `options`.
    pub fn ratings_with(&self, options: &Options) -> Option<Result<Ratings, RatingsError>> {
        if self.sums.len() < 3 {
            return None;
        }
        Some(match &self.refused {
            Some(why) => Err(why.clone()),
            None => self.pool.rate(options),
        })
    }

    /// The results so far.
    pub fn results(&self) -> Results {
        let mut engines: Vec<EngineResult> = self
            .sums
            .iter()
            .map(|(name, s)| EngineResult {
                name: name.clone(),
                games: s.games,
                points: s.points,
                tally: s.tally,
                estimate: s.tally.estimate(),
                mean_points: mean_error(s.points, s.points_sq, s.games),
                mean_rank: mean_error(s.rank, s.rank_sq, s.games),
            })
            .collect();
        engines.sort_by(|x, y| {
            y.mean_points
                .0
                .total_cmp(&x.mean_points.0)
                .then_with(|| x.name.cmp(&y.name))
        });
        let event = self.event.standings();
        if let Some(event) = &event {
            let place = |name: &str| event.rows.iter().position(|row| row.name == name);
            engines.sort_by_key(|e| place(&e.name).unwrap_or(usize::MAX));
        }
        let pairings = self
            .pairs
            .iter()
            .map(|((a, b), tally)| Pairing {
                pentanomial: self
                    .pentanomials
                    .get(&(a.clone(), b.clone()))
                    .copied()
                    .unwrap_or_default(),
                a: a.clone(),
                b: b.clone(),
                estimate: tally.estimate(),
                tally: *tally,
            })
            .collect();
        Results {
            games: self.games,
            plies: self.plies,
            ends: self.ends.clone(),
            substitutes: self.substitutes.clone(),
            engines,
            pairings,
            event,
        }
    }
}

impl Results {
    /// As one JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        // Plain numbers, strings and maps always serialise.
        serde_json::to_value(self).unwrap_or_default()
    }

    /// `10 games, 797 plies; ends: normal 8, stall 1, substitute 1 (illegal_move)`.
    pub fn summary_line(&self) -> String {
        let ends: Vec<String> = self
            .ends
            .iter()
            .map(|(k, v)| match k.as_str() {
                "substitute" => {
                    let why: Vec<String> = match self.substitutes.len() {
                        1 => self.substitutes.keys().cloned().collect(),
                        _ => (self.substitutes.iter())
                            .map(|(verdict, n)| format!("{verdict} {n}"))
                            .collect(),
                    };
                    format!("{k} {v} ({})", why.join(", "))
                }
                _ => format!("{k} {v}"),
            })
            .collect();
        format!(
            "{} games, {} plies; ends: {}",
            self.games,
            self.plies,
            ends.join(", ")
        )
    }

    /// The engines in order, each with its place (`3`, or `3-4` by the event's rules, else its
    /// rank), its points (a Swiss's byes included) and its row of the event's standings.
    pub fn placed(&self) -> impl Iterator<Item = (&EngineResult, String, f64, Option<&Row>)> {
        self.engines.iter().enumerate().map(|(i, e)| {
            let row = (self.event.iter())
                .flat_map(|event| &event.rows)
                .find(|row| row.name == e.name);
            let place = row.map_or_else(|| (i + 1).to_string(), |row| row.place.clone());
            (e, place, row.map_or(e.points, |row| row.score), row)
        })
    }

    /// `a`'s wins, losses and draws against `b` in their two-seat games.
    pub fn tally_of(&self, a: &str, b: &str) -> Option<Tally> {
        self.pairings.iter().find_map(|p| {
            if p.a == a && p.b == b {
                Some(p.tally)
            } else if p.a == b && p.b == a {
                Some(p.tally.reversed())
            } else {
                None
            }
        })
    }

    /// An engine's two-seat results against everyone (the SPRT's input); none when it played
    /// no such game.
    pub fn tally_against_field(&self, name: &str) -> Tally {
        self.engines
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.tally)
            .unwrap_or_default()
    }

    /// An engine's game pairs against everyone, from its side: how many gave it 0, 1/2, 1, 3/2
    /// or 2 points (the pentanomial SPRT's input).
    pub fn pentanomial_against_field(&self, name: &str) -> [u32; 5] {
        let mut sum = [0; 5];
        for p in &self.pairings {
            for k in 0..5 {
                if p.a == name {
                    sum[k] += p.pentanomial[k];
                } else if p.b == name {
                    sum[4 - k] += p.pentanomial[k];
                }
            }
        }
        sum
    }

    /// The SPRT's log-likelihood ratio for `first` against the others: on game pairs when the
    /// games were played in pairs, on games otherwise.
    pub fn llr(&self, sprt: &Sprt, first: &str, paired: bool) -> f64 {
        if paired {
            sprt.llr_pentanomial(&self.pentanomial_against_field(first))
        } else {
            sprt.llr(&self.tally_against_field(first))
        }
    }

    /// Points `a` won against `b` in their two-seat games, and how many they played.
    pub fn against(&self, a: &str, b: &str) -> Option<(f64, u32)> {
        self.tally_of(a, b)
            .map(|t| (f64::from(t.wins) + f64::from(t.draws) / 2.0, t.games()))
    }
}

impl fmt::Display for Results {
    /// The games, plies and ends, a table of the engines, and for two-seat games a crosstable
    /// and a line per pairing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.summary_line())?;
        let width = self
            .engines
            .iter()
            .map(|e| e.name.len())
            .max()
            .unwrap_or(6)
            .max(6);
        if let Some(event) = &self.event {
            writeln!(f, "{} standings, by {}:", event.format, event.ranked_by)?;
        }
        writeln!(
            f,
            "{:>5}  {:<width$}  {:>6}  {:>8}  {:>14}  {:>14}  {:>18}{}",
            "place",
            "engine",
            "games",
            "points",
            "mean points",
            "mean rank",
            "elo (2 seats)",
            match &self.event {
                Some(event) if event.format == "knockout" => "  reached",
                Some(_) => "  tie-breaks",
                None => "",
            }
        )?;
        for (e, place, points, row) in self.placed() {
            let points = format!("{points:.1}");
            writeln!(
                f,
                "{place:>5}  {:<width$}  {:>6}  {points:>8}  {:>14}  {:>14}  {:>18}{}",
                e.name,
                e.games,
                format!("{:.3} +/- {:.3}", e.mean_points.0, e.mean_points.1),
                format!("{:.2} +/- {:.2}", e.mean_rank.0, e.mean_rank.1),
                elo_text(&e.tally),
                row.map(|row| format!("  {}", row.details()))
                    .unwrap_or_default()
            )?;
        }
        if let Some(event) = &self.event {
            write!(f, "{}", event.rounds_text())?;
        }
        if self.pairings.is_empty() {
            return Ok(());
        }
        write!(f, "crosstable (points / games):\n{:<width$}", "")?;
        for e in &self.engines {
            write!(f, "  {:>10}", e.name)?;
        }
        for row in &self.engines {
            write!(f, "\n{:<width$}", row.name)?;
            for column in &self.engines {
                let cell = match self.against(&row.name, &column.name) {
                    _ if row.name == column.name => "-".to_owned(),
                    Some((points, games)) => format!("{points:.1}/{games}"),
                    None => ".".to_owned(),
                };
                write!(f, "  {cell:>10}")?;
            }
        }
        for p in &self.pairings {
            write!(f, "\n{p}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Pairing {
    /// `a vs b: W - L - D [score] games, Elo ..., LOS ... %, pentanomial [...]`, from `a`'s side.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.tally;
        let score = self.estimate.map_or(0.0, |e| e.score);
        write!(
            f,
            "{} vs {}: {} - {} - {} [{score:.3}] {}, Elo {}, LOS {:.1} %, pentanomial {:?}",
            self.a,
            self.b,
            t.wins,
            t.losses,
            t.draws,
            t.games(),
            elo_text(&self.tally),
            self.estimate.map_or(50.0, |e| e.los * 100.0),
            self.pentanomial
        )
    }
}

/// Every engine's head-to-head results as JSON, by name: each engine it met, with what
/// [`Pairing::seen_by`] gives (each pairing read once, from both sides).
pub fn head_to_head(
    pairings: &[Pairing],
) -> HashMap<&str, serde_json::Map<String, serde_json::Value>> {
    let mut by_engine: HashMap<&str, serde_json::Map<String, serde_json::Value>> = HashMap::new();
    for pairing in pairings {
        for name in [&pairing.a, &pairing.b] {
            if let Some((other, value)) = pairing.seen_by(name) {
                by_engine
                    .entry(name)
                    .or_default()
                    .insert(other.to_owned(), value);
            }
        }
    }
    by_engine
}

impl Pairing {
    /// The pair seen from `name`'s side (one of the two): the other engine, and as JSON its wins,
    /// losses, draws, points, games, game pairs and their pentanomial counts.
    pub fn seen_by(&self, name: &str) -> Option<(&str, serde_json::Value)> {
        let t = self.tally;
        let p = self.pentanomial;
        let (other, wins, losses, pentanomial) = match name {
            _ if name == self.a => (&self.b, t.wins, t.losses, p),
            _ if name == self.b => (&self.a, t.losses, t.wins, [p[4], p[3], p[2], p[1], p[0]]),
            _ => return None,
        };
        let value = serde_json::json!({
            "wins": wins,
            "losses": losses,
            "draws": t.draws,
            "points": f64::from(wins) + f64::from(t.draws) / 2.0,
            "games": t.games(),
            "pairs": pentanomial.iter().sum::<u32>(),
            "pentanomial": pentanomial,
        });
        Some((other, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(names: &[&str], winners: &[usize], seed: u64) -> Record {
        crate::records::finished_record(names, winners, seed)
    }

    #[test]
    fn small_cases_by_hand() {
        // a-b on seed 1: a wins both (2 points); on seed 2: a wins one, draws one (1.5).
        // b-c on seed 3: one each (1 point for b).
        let records = [
            record(&["a", "b"], &[0], 1),
            record(&["b", "a"], &[1], 1),
            record(&["a", "b"], &[0], 2),
            record(&["b", "a"], &[0, 1], 2),
            record(&["b", "c"], &[0], 3),
            record(&["c", "b"], &[0], 3),
        ];
        let r = results(&records);
        assert_eq!(r.games, 6);
        let names: Vec<&str> = r.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a", "c", "b"]);
        let a = &r.engines[0];
        assert_eq!((a.games, a.points), (4, 3.5));
        assert_eq!(
            a.tally,
            Tally {
                wins: 3,
                losses: 0,
                draws: 1
            }
        );
        let ab = &r.pairings[0];
        assert_eq!((ab.a.as_str(), ab.b.as_str()), ("a", "b"));
        assert_eq!(
            ab.tally,
            Tally {
                wins: 3,
                losses: 0,
                draws: 1
            }
        );
        assert_eq!(ab.pentanomial, [0, 0, 0, 1, 1]);
        assert_eq!(r.pairings[1].pentanomial, [0, 0, 1, 0, 0]);
        // Mean points of a: 3.5 / 4 = 0.875; of c: 1 / 2.
        assert_eq!(a.mean_points.0, 0.875);
        assert_eq!(r.engines[1].mean_points.0, 0.5);
        // The same records in another order count the same.
        let mut shuffled = records.to_vec();
        shuffled.reverse();
        assert_eq!(results(&shuffled), r);
        let text = r.to_string();
        assert!(text.contains("a vs b: 3 - 0 - 1 [0.875] 4"), "{text}");
        assert!(text.contains("3.5/4"), "{text}");
    }

    #[test]
    fn three_seat_games_give_mean_points_and_ranks() {
        let records = [
            record(&["a", "b", "c"], &[0], 1),
            record(&["b", "c", "a"], &[2], 2),
            record(&["c", "a", "b"], &[0, 2], 3),
        ];
        let r = results(&records);
        let a = r.engines.iter().find(|e| e.name == "a").unwrap();
        assert_eq!(a.points, 2.0);
        assert_eq!(a.mean_rank.0, (1.0 + 1.0 + 3.0) / 3.0);
        let b = r.engines.iter().find(|e| e.name == "b").unwrap();
        assert_eq!(b.points, 0.5);
        assert!(r.pairings.is_empty());
    }
}
