//! Standings by the event's own rules, from its finished games alone (in any order):
//! - Round robin and gauntlet: points, then direct encounter, then Sonneborn-Berger.
//! - Swiss: points with a bye counting as a win (as the pairing counts it), then Buchholz, then
//!   Sonneborn-Berger, then direct encounter.
//! - Knockout: how far an engine went (the winner, the final, the semi-finals, ...), then its
//!   seed; the bracket itself, tie by tie.
//!
//! Engines still equal after every tie-break share a place (`3-4`) and are listed by name (by seed
//! in a knockout). The tie-breaks, for games of any number of seats, an engine's opponents being
//! everyone it sat at a table with: Buchholz is the sum of its opponents' scores, once per game;
//! Sonneborn-Berger the sum, over its opponents, of the points it took in the games it played
//! with each times that opponent's score; direct encounter the points it took in the games among
//! the engines still level with it, counted only when every two of them have met. A bye brings
//! no opponent.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::events::Format;
use crate::events::knockout::{Bracket, Tie};
use crate::events::tag::RunTag;

/// Games of one event kept one by one (for a Swiss's rounds and a knockout's bracket) at most;
/// past it those views, and a Swiss's byes, are left out.
pub const MAX_KEPT_GAMES: usize = 1 << 16;

/// Two values closer than this are level (points are sums of shares such as 1/3).
const LEVEL: f64 = 1e-9;

/// One engine's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Its place: `3`, or `3-4` when shared.
    pub place: String,
    /// Its name.
    pub name: String,
    /// Finished games it played.
    pub games: u32,
    /// Its score: points, with a Swiss's byes.
    pub score: f64,
    /// Rounds it sat out (Swiss).
    pub byes: u32,
    /// The tie-breaks of the event's rule, in order, each with its value (none for direct
    /// encounter where it does not apply: no engine level with it, or not all of them met).
    pub tie_breaks: Vec<(&'static str, Option<f64>)>,
    /// How far it went (knockout): `winner`, `final`, `semi-final`, `quarter-final`, `round N`.
    pub reached: Option<String>,
}

/// One table of a Swiss round: the engines in their seats and the points each took there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// The engines, in the seats of the table's first game.
    pub engines: Vec<String>,
    /// Their points at this table.
    pub points: Vec<f64>,
    /// Finished games played at it.
    pub games: u32,
}

/// A Swiss round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Round {
    /// Its number, from 1.
    pub number: usize,
    /// Its tables with a finished game.
    pub tables: Vec<Table>,
    /// The engines that sat out.
    pub byes: Vec<String>,
}

/// One tie of a knockout.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TieView {
    /// The higher seed's place and the other (either may be empty: a bye, or not yet known).
    pub engines: [Option<String>; 2],
    /// Their points in the tie so far.
    pub points: [f64; 2],
    /// Finished games of the tie.
    pub games: u32,
    /// The one going on, once decided.
    pub winner: Option<String>,
}

/// Standings ranked by the event's rules.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventStandings {
    /// The format's name.
    pub format: &'static str,
    /// How the rows are ranked, in words.
    pub ranked_by: &'static str,
    /// The rows, first place first.
    pub rows: Vec<Row>,
    /// A Swiss's rounds.
    pub rounds: Vec<Round>,
    /// A knockout's rounds of ties.
    pub bracket: Vec<Vec<TieView>>,
    /// A knockout's winner, once the final is decided.
    pub champion: Option<String>,
}

/// A finished game as kept: engine numbers by seat, points by seat.
type Game = (Vec<usize>, Vec<f64>);

/// The counts behind the standings, one finished game at a time: memory grows with the engines'
/// pairs, and with the games only for a Swiss or knockout (up to [`MAX_KEPT_GAMES`]).
#[derive(Clone, Debug, Default)]
pub struct EventCounter {
    /// The run's tag, as long as every game added had the same one.
    tag: Option<String>,
    mixed: bool,
    /// Whether that run is a Swiss or knockout, whose games are kept one by one.
    drawn: bool,
    names: Vec<String>,
    number: HashMap<String, usize>,
    points: Vec<f64>,
    games: Vec<u32>,
    /// For each engine and each other: games together and the first one's points in them.
    met: BTreeMap<(usize, usize), (u32, f64)>,
    /// Games by number (from 0), for a Swiss or knockout.
    kept: BTreeMap<usize, Game>,
    overflow: bool,
}

impl EventCounter {
    /// Adds a finished game of the run tagged `tag`, numbered `number` (from 1) in its schedule,
    /// the engine and its points in each seat.
    pub fn add(
        &mut self,
        tag: Option<&str>,
        number: Option<usize>,
        names: &[&str],
        points: &[f64],
    ) {
        match (&self.tag, tag) {
            _ if self.mixed => {}
            (None, Some(tag)) if self.names.is_empty() => {
                self.drawn = RunTag::parse(tag)
                    .is_some_and(|t| matches!(t.format, Format::Swiss | Format::Knockout));
                self.tag = Some(tag.to_owned());
            }
            (Some(kept), Some(tag)) if kept == tag => {}
            _ => {
                self.mixed = true;
                self.drawn = false;
                self.tag = None;
                self.kept.clear();
            }
        }
        let seated: Vec<usize> = names.iter().map(|name| self.engine(name)).collect();
        for (i, (&e, &p)) in seated.iter().zip(points).enumerate() {
            self.points[e] += p;
            self.games[e] += 1;
            for &o in seated.iter().take(i).chain(seated.iter().skip(i + 1)) {
                let pair = self.met.entry((e, o)).or_default();
                pair.0 += 1;
                pair.1 += p;
            }
        }
        if let (Some(number), true) = (number, self.drawn) {
            if self.kept.len() >= MAX_KEPT_GAMES {
                self.overflow = true;
                self.kept.clear();
            } else if !self.overflow && number >= 1 {
                self.kept
                    .entry(number - 1)
                    .or_insert_with(|| (seated, points.to_vec()));
            }
        }
    }

    fn engine(&mut self, name: &str) -> usize {
        if let Some(&e) = self.number.get(name) {
            return e;
        }
        self.names.push(name.to_owned());
        self.points.push(0.0);
        self.games.push(0);
        self.number.insert(name.to_owned(), self.names.len() - 1);
        self.names.len() - 1
    }

    /// The standings, when every game added belongs to one run whose tag names its format and
    /// engines.
    pub fn standings(&self) -> Option<EventStandings> {
        let tag = RunTag::parse(self.tag.as_deref()?)?;
        let entrants = tag.entrants(self.names.iter().map(String::as_str))?;
        // Engines by their place in the run's list.
        let of: Vec<usize> = self.names.iter().map(|n| position(entrants, n)).collect();
        let n = entrants.len();
        let mut points = vec![0.0; n];
        let mut games = vec![0; n];
        for (e, &p) in of.iter().enumerate() {
            points[p] = self.points[e];
            games[p] = self.games[e];
        }
        let mut met: BTreeMap<(usize, usize), (u32, f64)> = BTreeMap::new();
        for (&(e, o), &v) in &self.met {
            met.insert((of[e], of[o]), v);
        }
        let kept: BTreeMap<usize, Game> = (self.kept.iter())
            .map(|(&i, (seated, p))| (i, (seated.iter().map(|&e| of[e]).collect(), p.clone())))
            .collect();
        let event = Event {
            tag: &tag,
            names: entrants,
            points,
            games,
            met,
            kept: (!self.overflow).then_some(kept),
        };
        Some(match tag.format {
            Format::Knockout => event.knockout(),
            Format::Swiss => event.ranked(
                SWISS,
                "points (a bye counts as a win), then Buchholz, Sonneborn-Berger, direct encounter",
            ),
            Format::RoundRobin | Format::Gauntlet => event.ranked(
                ROUND_ROBIN,
                "points, then direct encounter, Sonneborn-Berger",
            ),
        })
    }
}

fn position(names: &[String], name: &str) -> usize {
    names.iter().position(|n| n == name).unwrap_or(0)
}

/// A tie-break.
#[derive(Clone, Copy)]
enum Key {
    Buchholz,
    SonnebornBerger,
    Direct,
}

impl Key {
    fn name(self) -> &'static str {
        match self {
            Key::Buchholz => "Buchholz",
            Key::SonnebornBerger => "Sonneborn-Berger",
            Key::Direct => "direct encounter",
        }
    }
}

const SWISS: &[Key] = &[Key::Buchholz, Key::SonnebornBerger, Key::Direct];
const ROUND_ROBIN: &[Key] = &[Key::Direct, Key::SonnebornBerger];

/// An event's counts, its engines numbered as the run listed them.
struct Event<'a> {
    tag: &'a RunTag,
    names: &'a [String],
    points: Vec<f64>,
    games: Vec<u32>,
    met: BTreeMap<(usize, usize), (u32, f64)>,
    kept: Option<BTreeMap<usize, Game>>,
}

impl Event<'_> {
    /// A Swiss's rounds (none unless its games were kept), and each engine's byes.
    fn swiss_rounds(&self) -> (Vec<Round>, Vec<u32>) {
        let n = self.names.len();
        let mut byes = vec![0; n];
        let Some(kept) = &self.kept else {
            return (Vec::new(), byes);
        };
        let seats = self.tag.seats.max(1);
        let rotations = if self.tag.repeat { seats } else { 1 };
        let per_round = (n / seats * rotations).max(1);
        let mut rounds: BTreeMap<usize, Vec<(usize, &Game)>> = BTreeMap::new();
        for (&index, game) in kept {
            rounds
                .entry(index / per_round)
                .or_default()
                .push((index, game));
        }
        let mut out = Vec::new();
        for (round, games) in rounds {
            let mut tables: BTreeMap<usize, Table> = BTreeMap::new();
            let mut seated = vec![false; n];
            for (index, (engines, points)) in games {
                let table = tables
                    .entry(index % per_round / rotations)
                    .or_insert(Table {
                        engines: engines.iter().map(|&e| self.names[e].clone()).collect(),
                        points: vec![0.0; engines.len()],
                        games: 0,
                    });
                table.games += 1;
                for (&e, &p) in engines.iter().zip(points) {
                    seated[e] = true;
                    if let Some(slot) = (table.engines.iter()).position(|x| *x == self.names[e]) {
                        table.points[slot] += p;
                    }
                }
            }
            let sat_out: Vec<usize> = (0..n).filter(|&e| !seated[e]).collect();
            // Only a round whose every table has begun says who sat out.
            if tables.len() == n / seats {
                for &e in &sat_out {
                    byes[e] += 1;
                }
            }
            out.push(Round {
                number: round + 1,
                tables: tables.into_values().collect(),
                byes: sat_out.iter().map(|&e| self.names[e].clone()).collect(),
            });
        }
        (out, byes)
    }

    /// Standings by score and `keys`.
    fn ranked(&self, keys: &[Key], ranked_by: &'static str) -> EventStandings {
        let n = self.names.len();
        let (rounds, byes) = match self.tag.format {
            Format::Swiss => self.swiss_rounds(),
            _ => (Vec::new(), vec![0; n]),
        };
        let score: Vec<f64> = (0..n)
            .map(|e| self.points[e] + f64::from(byes[e]))
            .collect();
        let met = |e: usize, o: usize| self.met.get(&(e, o)).copied().unwrap_or_default();
        let value = |key: Key, e: usize, group: &[usize]| -> Option<f64> {
            match key {
                Key::Buchholz => Some((0..n).map(|o| f64::from(met(e, o).0) * score[o]).sum()),
                Key::SonnebornBerger => Some((0..n).map(|o| met(e, o).1 * score[o]).sum()),
                Key::Direct => {
                    let all_met = group
                        .iter()
                        .all(|&a| group.iter().all(|&b| a == b || met(a, b).0 > 0));
                    (group.len() > 1 && all_met).then(|| group.iter().map(|&o| met(e, o).1).sum())
                }
            }
        };
        // Groups level so far, refined by each key in turn.
        let mut all: Vec<usize> = (0..n).collect();
        all.sort_by(|&a, &b| {
            score[b]
                .total_cmp(&score[a])
                .then(self.names[a].cmp(&self.names[b]))
        });
        let mut groups = split(&all, |e| score[e]);
        let mut breaks: Vec<Vec<(&'static str, Option<f64>)>> = vec![Vec::new(); n];
        for &key in keys {
            let mut next = Vec::new();
            for group in groups {
                let values: HashMap<usize, f64> = (group.iter())
                    .map(|&e| {
                        let v = value(key, e, &group);
                        breaks[e].push((key.name(), v));
                        (e, v.unwrap_or(0.0))
                    })
                    .collect();
                let mut sorted = group.clone();
                sorted.sort_by(|a, b| {
                    values[b]
                        .total_cmp(&values[a])
                        .then(self.names[*a].cmp(&self.names[*b]))
                });
                next.extend(split(&sorted, |e| values[&e]));
            }
            groups = next;
        }
        let rows = placed(&groups)
            .map(|(place, e)| Row {
                place,
                name: self.names[e].clone(),
                games: self.games[e],
                score: score[e],
                byes: byes[e],
                tie_breaks: std::mem::take(&mut breaks[e]),
                reached: None,
            })
            .collect();
        EventStandings {
            format: self.tag.format.name(),
            ranked_by,
            rows,
            rounds,
            bracket: Vec::new(),
            champion: None,
        }
    }

    /// A knockout's bracket, replayed from its games, and its standings.
    fn knockout(&self) -> EventStandings {
        let n = self.names.len();
        let per_tie = self.tag.games_per_tie.unwrap_or(2);
        let bracket = Bracket::new(n, per_tie);
        let empty = BTreeMap::new();
        let kept = self.kept.as_ref().unwrap_or(&empty);
        let total_rounds = bracket.places().len().trailing_zeros() as usize;
        let mut won = vec![0usize; n];
        let mut alive: Vec<Option<usize>> = bracket.places().to_vec();
        let mut rounds = Vec::new();
        for round in 0..total_rounds {
            let mut ties = Vec::new();
            let mut next = Vec::new();
            for (t, pair) in alive.chunks(2).enumerate() {
                let (a, b) = (pair[0], pair.get(1).copied().flatten());
                let (view, winner) = match (a, b) {
                    (Some(a), Some(b)) => self.tie(&bracket, kept, round, t, (a, b)),
                    // A bye (first round only: later, an empty place is a tie not yet decided).
                    (one, other) => (
                        TieView {
                            engines: [one, other].map(|e| e.map(|e| self.names[e].clone())),
                            points: [0.0; 2],
                            games: 0,
                            winner: None,
                        },
                        one.or(other).filter(|_| round == 0),
                    ),
                };
                if let Some(w) = winner {
                    won[w] += 1;
                }
                next.push(winner);
                ties.push(TieView {
                    winner: winner.map(|w| self.names[w].clone()),
                    ..view
                });
            }
            rounds.push(ties);
            alive = next;
        }
        let champion = alive.first().copied().flatten();
        let round_name = |w: usize| match total_rounds - w.min(total_rounds) {
            0 => "winner".to_owned(),
            1 => "final".to_owned(),
            2 => "semi-final".to_owned(),
            3 => "quarter-final".to_owned(),
            _ => format!("round {}", w + 1),
        };
        // By how far each went, then seed.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| won[b].cmp(&won[a]).then(a.cmp(&b)));
        let groups = split(&order, |e| won[e] as f64);
        let rows = placed(&groups)
            .map(|(place, e)| Row {
                place,
                name: self.names[e].clone(),
                games: self.games[e],
                score: self.points[e],
                byes: 0,
                tie_breaks: Vec::new(),
                reached: Some(round_name(won[e])),
            })
            .collect();
        EventStandings {
            format: self.tag.format.name(),
            ranked_by: "how far each went, then seed",
            rows,
            rounds: Vec::new(),
            bracket: rounds,
            champion: champion.map(|e| self.names[e].clone()),
        }
    }

    /// Tie `t` of `round` between engines `a` and `b`: what it shows, and who went on once
    /// decided, by the bracket's own rule.
    fn tie(
        &self,
        bracket: &Bracket,
        kept: &BTreeMap<usize, Game>,
        round: usize,
        t: usize,
        (a, b): (usize, usize),
    ) -> (TieView, Option<usize>) {
        let first = bracket.first_game(round, t);
        let points_in = |index: usize| -> Option<[f64; 2]> {
            let (engines, points) = kept.get(&index)?;
            let mut got = [0.0; 2];
            for (&e, &p) in engines.iter().zip(points) {
                match e {
                    _ if e == a => got[0] += p,
                    _ if e == b => got[1] += p,
                    _ => return None,
                }
            }
            Some(got)
        };
        let mut view = TieView {
            engines: [Some(self.names[a].clone()), Some(self.names[b].clone())],
            points: [0.0; 2],
            games: 0,
            winner: None,
        };
        let mut played = 0;
        loop {
            match bracket.tie(a, b, played, (view.points[0], view.points[1])) {
                Tie::Won(w) => return (view, Some(w)),
                Tie::Play(from, to) => {
                    for g in from..to {
                        let Some(p) = points_in(first + g) else {
                            return (view, None);
                        };
                        view.points[0] += p[0];
                        view.points[1] += p[1];
                        view.games += 1;
                        played = g + 1;
                    }
                }
            }
        }
    }
}

/// `sorted` cut into runs of level `value`.
fn split(sorted: &[usize], value: impl Fn(usize) -> f64) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &e in sorted {
        match groups.last_mut() {
            Some(last) if (value(last[0]) - value(e)).abs() < LEVEL => last.push(e),
            _ => groups.push(vec![e]),
        }
    }
    groups
}

/// Each engine of `groups` (in order) with its place: `3`, or `3-4` for a group of two.
fn placed(groups: &[Vec<usize>]) -> impl Iterator<Item = (String, usize)> + '_ {
    let mut first = 1;
    groups.iter().flat_map(move |group| {
        let place = match group.len() {
            1 => first.to_string(),
            k => format!("{first}-{}", first + k - 1),
        };
        first += group.len();
        group.iter().map(move |&e| (place.clone(), e))
    })
}

/// A number of points as the tables print them: `1`, `0.5`, `0.33`.
pub fn points_text(x: f64) -> String {
    let text = format!("{x:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

impl Row {
    /// Its byes and tie-breaks, or how far it went: `1 bye, Buchholz 5, Sonneborn-Berger 2.5`.
    pub fn details(&self) -> String {
        if let Some(reached) = &self.reached {
            return reached.clone();
        }
        let byes = match self.byes {
            0 => None,
            1 => Some("1 bye".to_owned()),
            n => Some(format!("{n} byes")),
        };
        let breaks = (self.tie_breaks.iter())
            .filter_map(|(name, x)| Some(format!("{name} {}", points_text((*x)?))));
        byes.into_iter()
            .chain(breaks)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One table's result: `a 1-0 b` for two seats, `a 1, b 0, c 0` for more.
fn table_text(engines: &[Option<String>], points: &[f64]) -> String {
    let name = |e: &Option<String>| e.clone().unwrap_or_else(|| "?".to_owned());
    match (engines, points) {
        ([a, b], [pa, pb]) => format!(
            "{} {}-{} {}",
            name(a),
            points_text(*pa),
            points_text(*pb),
            name(b)
        ),
        _ => (engines.iter().zip(points))
            .map(|(e, p)| format!("{} {}", name(e), points_text(*p)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

impl EventStandings {
    /// A Swiss's rounds or a knockout's bracket, a line a round: `round 2: a 1-0 b, c 0-1 d;
    /// bye: e`, or `final: a 1.5-0.5 b, a goes on`.
    pub fn rounds_text(&self) -> String {
        let mut text = String::new();
        for round in &self.rounds {
            let tables: Vec<String> = (round.tables.iter())
                .map(|t| {
                    let engines: Vec<Option<String>> =
                        t.engines.iter().cloned().map(Some).collect();
                    table_text(&engines, &t.points)
                })
                .collect();
            text.push_str(&format!("round {}: {}", round.number, tables.join(", ")));
            if !round.byes.is_empty() {
                text.push_str(&format!("; bye: {}", round.byes.join(", ")));
            }
            text.push('\n');
        }
        let total = self.bracket.len();
        for (r, ties) in self.bracket.iter().enumerate() {
            let ties: Vec<String> = (ties.iter())
                .map(|tie| {
                    let result = match tie.engines {
                        [Some(_), Some(_)] => table_text(&tie.engines, &tie.points),
                        [Some(ref e), None] | [None, Some(ref e)] if r == 0 => format!("{e} (bye)"),
                        _ => "?".to_owned(),
                    };
                    match (&tie.winner, tie.games) {
                        (Some(w), g) if g > 0 => format!("{result} ({w} goes on)"),
                        _ => result,
                    }
                })
                .collect();
            text.push_str(&format!("{}: {}\n", round_title(r, total), ties.join(", ")));
        }
        text
    }
}

/// The name of knockout round `r` (from 0) of `total`: `final`, `semi-finals`, ..., `round 1`.
pub fn round_title(r: usize, total: usize) -> String {
    match total - r.min(total) {
        1 => "final".to_owned(),
        2 => "semi-finals".to_owned(),
        3 => "quarter-finals".to_owned(),
        _ => format!("round {}", r + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter fed `games`: (number from 1, seats' names, winning seat or none for a draw).
    fn counter(tag: &str, games: &[(usize, [&str; 2], Option<usize>)]) -> EventCounter {
        let mut c = EventCounter::default();
        for &(number, names, winner) in games {
            let points = match winner {
                Some(w) => [0, 1].map(|s| if s == w { 1.0 } else { 0.0 }),
                None => [0.5, 0.5],
            };
            c.add(Some(tag), Some(number), &names, &points);
        }
        c
    }

    fn table(s: &EventStandings) -> Vec<(String, String, f64)> {
        (s.rows.iter())
            .map(|r| (r.place.clone(), r.name.clone(), r.score))
            .collect()
    }

    #[test]
    fn a_swiss_counts_byes_and_breaks_ties_by_buchholz() {
        // Three engines, one table a round. Round 1: a beats b, c sits out. Round 2: c beats a,
        // b sits out. Scores: c 1 + bye = 2; a 1; b 0 + bye = 1. a and b level: a's opponents
        // scored 1 + 2 = 3, b's 1, so a is second.
        let tag = "game=pegs variant=- format=swiss seats=2 repeat=false seed=1 engines=a,b,c";
        let s = counter(tag, &[(1, ["a", "b"], Some(0)), (2, ["c", "a"], Some(0))])
            .standings()
            .unwrap();
        let own = |p: &str, n: &str, x: f64| (p.to_owned(), n.to_owned(), x);
        assert_eq!(
            table(&s),
            [own("1", "c", 2.0), own("2", "a", 1.0), own("3", "b", 1.0)]
        );
        assert_eq!(s.rows[1].tie_breaks[0], ("Buchholz", Some(3.0)));
        assert_eq!(s.rows[2].tie_breaks[0], ("Buchholz", Some(1.0)));
        assert_eq!(s.rows[2].byes, 1);
        assert_eq!(s.rounds.len(), 2);
        assert_eq!(s.rounds[0].byes, ["c"]);
        assert_eq!(s.rounds[1].tables[0].engines, ["c", "a"]);
    }

    #[test]
    fn a_round_robin_breaks_ties_by_direct_encounter_then_shares_places() {
        // a, b, c, d: a beats b, b beats c, c beats a (a cycle at 2 points each with d's
        // games: all three beat d); d loses all. a, b, c level on points, and each has 1 point
        // among them: direct encounter leaves them level; Sonneborn-Berger too (each beat one
        // engine of 2 points and d of 0). So they share 1-3.
        let tag = "format=round-robin seats=2 repeat=false seed=1 engines=a,b,c,d";
        let games = [
            (1, ["a", "b"], Some(0)),
            (2, ["b", "c"], Some(0)),
            (3, ["c", "a"], Some(0)),
            (4, ["a", "d"], Some(0)),
            (5, ["b", "d"], Some(0)),
            (6, ["c", "d"], Some(0)),
        ];
        let s = counter(tag, &games).standings().unwrap();
        let places: Vec<&str> = s.rows.iter().map(|r| r.place.as_str()).collect();
        assert_eq!(places, ["1-3", "1-3", "1-3", "4"]);
        // a beats d; b beats a; c beats a and b; d beats b and c. c and d are level on 2, d beat
        // c; a and b on 1, b beat a. Direct encounter puts d and b ahead, though a's
        // Sonneborn-Berger (d's 2) is above b's (a's 1): it comes first.
        let games = [
            (1, ["a", "d"], Some(0)),
            (2, ["b", "a"], Some(0)),
            (3, ["c", "a"], Some(0)),
            (4, ["c", "b"], Some(0)),
            (5, ["d", "b"], Some(0)),
            (6, ["d", "c"], Some(0)),
        ];
        let s = counter(tag, &games).standings().unwrap();
        let names: Vec<&str> = s.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["d", "c", "b", "a"]);
        assert_eq!(
            s.rows[2].tie_breaks,
            [
                ("direct encounter", Some(1.0)),
                ("Sonneborn-Berger", Some(1.0))
            ]
        );
        assert_eq!(
            s.rows[3].tie_breaks,
            [
                ("direct encounter", Some(0.0)),
                ("Sonneborn-Berger", Some(2.0))
            ]
        );
        let s2 = counter(tag, &[(1, ["a", "b"], None), (2, ["a", "b"], Some(1))])
            .standings()
            .unwrap();
        assert_eq!(s2.rows[0].tie_breaks[0], ("direct encounter", None));
    }

    #[test]
    fn a_knockout_is_ranked_by_how_far_each_went() {
        // Three engines, ties of 2 games (blocks of 4): a has a bye; b beats c 2-0 in games 5-6;
        // the final (games 9-10) is 1-1, its tie-break pair (11-12) goes to b.
        let tag = "format=knockout seats=2 repeat=false seed=1 engines=a,b,c games-per-tie=2";
        let games = [
            (5, ["b", "c"], Some(0)),
            (6, ["c", "b"], Some(1)),
            (9, ["a", "b"], Some(0)),
            (10, ["b", "a"], Some(0)),
            (11, ["a", "b"], Some(1)),
            (12, ["b", "a"], Some(0)),
        ];
        let s = counter(tag, &games).standings().unwrap();
        assert_eq!(s.champion.as_deref(), Some("b"));
        let rows: Vec<(&str, &str, Option<&str>)> = (s.rows.iter())
            .map(|r| (r.place.as_str(), r.name.as_str(), r.reached.as_deref()))
            .collect();
        assert_eq!(
            rows,
            [
                ("1", "b", Some("winner")),
                ("2", "a", Some("final")),
                ("3", "c", Some("semi-final"))
            ]
        );
        assert_eq!(s.bracket[1][0].points, [1.0, 3.0]);
        // Before the tie-break pair, the final is undecided and nobody has won it.
        let s = counter(tag, &games[..4]).standings().unwrap();
        assert_eq!(s.champion, None);
        assert_eq!(s.rows[0].place, "1-2");
    }

    #[test]
    fn games_of_several_runs_or_an_unreadable_list_give_no_event() {
        let one = "format=swiss seats=2 repeat=false seed=1 engines=a,b";
        let other = "format=swiss seats=2 repeat=false seed=2 engines=a,b";
        let mut c = counter(one, &[(1, ["a", "b"], Some(0))]);
        assert!(c.standings().is_some());
        c.add(Some(other), Some(1), &["a", "b"], &[1.0, 0.0]);
        assert!(c.standings().is_none());
        c.add(Some(one), Some(2), &["a", "b"], &[1.0, 0.0]);
        assert!(c.standings().is_none(), "mixed stays mixed");
        // A name with a comma splits the list wrongly: no event, not a wrong one.
        let comma = "format=swiss seats=2 repeat=false seed=1 engines=a,b,c";
        assert!(
            counter(comma, &[(1, ["a,b", "c"], Some(0))])
                .standings()
                .is_none()
        );
    }
}
