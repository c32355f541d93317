//! Joint ratings: one Elo per engine fitted to every game of any set of records at once (a
//! ladder is just more files), with a 95% interval each, an anchor, and the engines that cannot
//! be rated named with the reason. The model and its rules are in `fit` and docs/ratings.md.

mod cholesky;
mod draws;
mod fit;
mod groups;
mod show;
mod spill;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::fs::File;
use std::io;

use crate::records::End;
use crate::records::Record;
pub use draws::DrawRate;
use fit::{Game, GameRef, Games, Source};
use groups::{bounds, main_group};
use spill::Spill;

/// The 97.5% quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// How much less likely than at an infinite rating a bound's results may be: a bound is where the
/// likelihood of an engine's results falls to a twentieth of its best.
const BOUND_RATIO: f64 = 0.05;

/// Why the records cannot be rated together.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatingsError {
    /// Records of different games (or variants).
    #[error(
        "records of {first} and of {other} mixed: ratings compare engines at one game (rate each \
         game's records apart)"
    )]
    MixedGames {
        /// The first records' game.
        first: String,
        /// Another game found.
        other: String,
    },
    /// No finished game.
    #[error("no finished game in the records")]
    NoGames,
    /// One engine.
    #[error("ratings compare two or more engines; the records name only {0}")]
    OneEngine(String),
    /// An anchor that is not in the records.
    #[error("no engine {name} to anchor in the records (they name {known})")]
    UnknownAnchor {
        /// The name given.
        name: String,
        /// The names in the records.
        known: String,
    },
    /// The games of more than two seats cannot be kept in, or read back from, their file.
    #[error("cannot keep the games of more than two seats in a temporary file: {0}")]
    Spill(String),
    /// An anchor that cannot be rated.
    #[error("the anchor {name} cannot be rated: {why}")]
    AnchorUnrated {
        /// The anchor.
        name: String,
        /// Why.
        why: Unrated,
    },
}

impl RatingsError {
    /// The file of the games of more than two seats failed with `error`.
    fn spill(error: io::Error) -> RatingsError {
        RatingsError::Spill(error.to_string())
    }
}

/// Why an engine has no rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unrated {
    /// Fewer games than the minimum.
    FewGames(u32),
    /// None of its games links it to the rated engines.
    Disconnected,
    /// Its results fit no finite rating, and no bound either: none of its games was against a
    /// rated engine (it is linked to them only through engines that are not rated themselves).
    NoFiniteRating,
}

impl fmt::Display for Unrated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unrated::FewGames(min) => write!(f, "fewer than {min} games (--min-games)"),
            Unrated::Disconnected => f.write_str("no game links it to the rated engines"),
            Unrated::NoFiniteRating => f.write_str("none of its games was against a rated engine"),
        }
    }
}

impl Unrated {
    /// Its name in JSON.
    fn name(self) -> &'static str {
        match self {
            Unrated::FewGames(_) => "few_games",
            Unrated::Disconnected => "disconnected",
            Unrated::NoFiniteRating => "no_finite_rating",
        }
    }
}

/// Where an engine stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Standing {
    /// Its rating and the half-width of its 95% interval.
    Rated {
        /// Elo.
        elo: f64,
        /// Half-width of the 95% interval.
        error: f64,
    },
    /// It won every game against rated engines: its rating is at least this (95%).
    AtLeast(f64),
    /// It lost every game against rated engines: its rating is at most this (95%).
    AtMost(f64),
    /// No rating.
    Unrated(Unrated),
}

/// One engine of the list.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The engine's name.
    pub name: String,
    /// Finished games it played.
    pub games: u32,
    /// Its points in them (1 a win, `1/k` a win shared by `k`, half a draw).
    pub points: f64,
    /// Its rating, bound, or why it has none.
    pub standing: Standing,
}

/// The rating list.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Rated engines and bounds from the highest down, then the unrated by name.
    pub engines: Vec<Rating>,
    /// Finished games read.
    pub games: u64,
    /// What fixes the scale's zero.
    pub reference: Reference,
    /// When asked for ([`Options::los`]): the likelihood of superiority of each rated engine over
    /// each other, `los[a][b]` for the `a`-th and `b`-th rated engines of `engines` (which come
    /// first there), `NaN` on the diagonal.
    pub los: Option<Vec<Vec<f64>>>,
    /// When fitted ([`Options::seat_advantage`]): each seat's advantage over the first, from the
    /// second seat on.
    pub seats: Option<Vec<SeatAdvantage>>,
    /// The draw rate between equal opponents, fitted to the two-seat games between rated engines
    /// once they are rated, when any of those games was drawn.
    pub draw_rate: Option<DrawRate>,
    /// Games whose intervals count the games of one seed (every rotation of its seats, as
    /// `--repeat` plays them) as one unit; 0 when every game counts alone.
    pub clustered: u64,
}

/// How much stronger than the first seat a seat plays, whoever sits there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatAdvantage {
    /// The seat, from 0 (the first, which is the reference, is never listed).
    pub seat: usize,
    /// Its advantage over the first seat, in Elo (negative when the first seat is stronger).
    pub elo: f64,
    /// Half-width of its 95% interval.
    pub error: f64,
}

/// What fixes the scale's zero.
#[derive(Clone, Debug, PartialEq)]
pub enum Reference {
    /// The rated engines average 0.
    Average,
    /// This engine is at this rating.
    Anchor(String, f64),
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reference::Average => f.write_str("average 0"),
            Reference::Anchor(name, elo) => write!(f, "{name} at {elo}"),
        }
    }
}

/// How to rate.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// This engine gets this rating (default: the rated engines average 0).
    pub anchor: Option<(String, f64)>,
    /// Engines with fewer games are named, not rated (and their games left out).
    pub min_games: u32,
    /// Whether to work out the likelihood of superiority of every rated engine over every other.
    pub los: bool,
    /// Fit only who won each game, even where the records give every seat's place.
    pub winner_only: bool,
    /// Fit each seat's advantage over the first seat along with the ratings.
    pub seat_advantage: bool,
}

/// The games of any number of records, counted by kind: memory grows with the engines and the
/// distinct tables and results, not with the games; and made with [`Pool::spilling`], the
/// kinds of more than two seats (as many as the games where tables are drawn at random) are kept
/// in a file once they outgrow the memory allowed them.
#[derive(Debug, Default)]
pub struct Pool {
    game: Option<String>,
    names: Vec<String>,
    index: HashMap<String, usize>,
    /// Each kind of game: its seats' engines, sorted, with each one's place (0 the first, a
    /// winner; 1 every other seat where the game gives only its winners) and seat number; and
    /// how many.
    kinds: BTreeMap<Kind, u64>,
    /// The games played from one seed of a run with `--repeat` (every rotation of its seats),
    /// whose results are not independent: each closed cluster's kinds, sorted, and how many.
    clusters: BTreeMap<Vec<Kind>, u64>,
    /// Clusters still missing games, by run and seed (a run's records come close together).
    open: HashMap<(String, u64), Vec<Kind>>,
    games: Vec<u32>,
    points: Vec<f64>,
    finished: u64,
    spilling: Option<Spilling>,
}

/// Where the kinds of more than two seats go once they outgrow their memory.
#[derive(Debug)]
struct Spilling {
    /// The most seats of such kinds held in memory: more are written to the file.
    most: usize,
    /// Seats of such kinds held in memory now.
    held: usize,
    /// Makes the file (a temporary one), when first needed.
    make: fn() -> io::Result<File>,
    file: Option<Spill>,
}

/// About how much memory a seat of a kind of more than two seats takes, with the fit's choices
/// made from it, to turn a budget in bytes into seats.
const BYTES_PER_SEAT: usize = 128;

/// One game as the pool keeps it: each seat's engine, place and seat number, sorted; in 32 bits
/// each, since the pool may hold millions.
type Kind = Vec<(u32, u32, u32)>;

/// `kind` with each engine `e` numbered `new[e]`, in order.
fn renumbered(mut kind: Kind, new: &[usize]) -> Kind {
    for seat in &mut kind {
        seat.0 = small(new[seat.0 as usize]);
    }
    kind.sort_unstable();
    kind
}

/// An index or a seat number as a [`Kind`] holds it: no record has more seats or places, and no
/// pool more engines, than 32 bits count (a record is one line of bounded length).
fn small(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

impl Pool {
    /// A pool that keeps the kinds of games of more than two seats in a file from `make` (a
    /// temporary file, made when first needed) once they take more than about `bytes` of memory:
    /// its memory then grows with the engines and pairs of engines, not the games. The fit reads
    /// the file once for each of its passes.
    pub fn spilling(bytes: usize, make: fn() -> io::Result<File>) -> Pool {
        Pool {
            spilling: Some(Spilling {
                most: bytes / BYTES_PER_SEAT,
                held: 0,
                make,
                file: None,
            }),
            ..Pool::default()
        }
    }

    /// Kinds of games of more than two seats written to a file so far.
    pub fn spilled(&self) -> u64 {
        (self.spilling.as_ref())
            .and_then(|s| s.file.as_ref())
            .map_or(0, Spill::kinds)
    }

    /// Adds `record` if it is finished.
    pub fn add(&mut self, record: &Record) -> Result<(), RatingsError> {
        let Some(result) = &record.result else {
            return Ok(());
        };
        let game = match &record.variant {
            Some(variant) => format!("{} {variant}", record.game),
            None => record.game.clone(),
        };
        match &self.game {
            None => self.game = Some(game),
            Some(first) if *first != game => {
                return Err(RatingsError::MixedGames {
                    first: first.clone(),
                    other: game,
                });
            }
            Some(_) => {}
        }
        let places = match (&record.end, crate::rules::AnyGame::places(&record.game)) {
            (Some(End::Normal {}), Some(places)) => places.of(&result.scores, &result.winners),
            _ => None,
        };
        let mut kind = Vec::with_capacity(record.seats.len());
        for (seat, info) in record.seats.iter().enumerate() {
            let engine = match self.index.get(&info.name) {
                Some(&engine) => engine,
                None => {
                    self.index.insert(info.name.clone(), self.names.len());
                    self.names.push(info.name.clone());
                    self.games.push(0);
                    self.points.push(0.0);
                    self.names.len() - 1
                }
            };
            let won = result.winners.contains(&seat);
            let place = match &places {
                Some(places) => places.get(seat).copied().unwrap_or(1),
                None => usize::from(!won),
            };
            self.games[engine] += 1;
            self.points[engine] += result.points(seat);
            kind.push((small(engine), small(place), small(seat)));
        }
        kind.sort_unstable();
        let run = record.tags.get("tournament").map_or("", String::as_str);
        if run.split(' ').any(|word| word == "repeat=true") {
            let key = (run.to_owned(), record.seed);
            let cluster = self.open.entry(key.clone()).or_default();
            cluster.push(kind.clone());
            if cluster.len() >= record.seats.len() {
                let mut cluster = self.open.remove(&key).unwrap_or_default();
                cluster.sort_unstable();
                *self.clusters.entry(cluster).or_default() += 1;
            }
        }
        let seats = kind.len();
        let count = self.kinds.entry(kind).or_default();
        *count += 1;
        self.finished += 1;
        if let Some(spilling) = &mut self.spilling
            && seats > 2
            && *count == 1
        {
            spilling.held += seats;
            if spilling.held > spilling.most {
                self.spill()?;
            }
        }
        Ok(())
    }

    /// Writes the kinds of more than two seats held in memory to the file, as a run in the order
    /// the rated pool will have them (engines numbered by their names, see `canonical`), each
    /// seat with the pool's own number for its engine.
    fn spill(&mut self) -> Result<(), RatingsError> {
        let (order, rank) = self.name_order();
        let Some(spilling) = &mut self.spilling else {
            return Ok(());
        };
        let (tables, rest): (BTreeMap<Kind, u64>, _) = std::mem::take(&mut self.kinds)
            .into_iter()
            .partition(|(kind, _)| kind.len() > 2);
        self.kinds = rest;
        spilling.held = 0;
        let mut ranked: Vec<(Kind, u64)> = (tables.into_iter())
            .map(|(kind, count)| (renumbered(kind, &rank), count))
            .collect();
        ranked.sort_unstable();
        let file = match &mut spilling.file {
            Some(file) => file,
            None => spilling
                .file
                .insert(Spill::new((spilling.make)().map_err(RatingsError::spill)?)),
        };
        let own = |kind: &Kind| -> Kind {
            (kind.iter())
                .map(|&(r, place, seat)| (small(order[r as usize]), place, seat))
                .collect()
        };
        (file.write(ranked.iter().map(|(kind, count)| (own(kind), *count))))
            .map_err(RatingsError::spill)
    }

    /// The engines in the order of their names (each one's number), and each one's place in that
    /// order (by its number).
    fn name_order(&self) -> (Vec<usize>, Vec<usize>) {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| self.names[a].cmp(&self.names[b]));
        let mut new = vec![0; order.len()];
        for (place, &old) in order.iter().enumerate() {
            new[old] = place;
        }
        (order, new)
    }

    /// Every cluster of games from one seed, the closed ones and those still missing games.
    fn all_clusters(&self) -> BTreeMap<Vec<Kind>, u64> {
        let mut all = self.clusters.clone();
        for cluster in self.open.values() {
            let mut cluster = cluster.clone();
            cluster.sort_unstable();
            *all.entry(cluster).or_default() += 1;
        }
        all
    }

    /// The same games with the engines numbered in the order of their names and the kinds in
    /// order: the fit then adds the same numbers in the same order whatever order the records
    /// were read in (a sharded run's files, or the one file of an unsharded one).
    fn canonical(&self) -> (Pool, Vec<u32>) {
        let (order, new) = self.name_order();
        let kinds = (self.kinds.iter())
            .map(|(kind, &count)| (renumbered(kind.clone(), &new), count))
            .collect();
        let clusters = (self.all_clusters().iter())
            .map(|(cluster, &count)| {
                let mut cluster: Vec<Kind> = (cluster.iter())
                    .map(|kind| renumbered(kind.clone(), &new))
                    .collect();
                cluster.sort_unstable();
                (cluster, count)
            })
            .collect();
        let pool = Pool {
            game: self.game.clone(),
            names: order.iter().map(|&e| self.names[e].clone()).collect(),
            index: order
                .iter()
                .enumerate()
                .map(|(i, &e)| (self.names[e].clone(), i))
                .collect(),
            kinds,
            clusters,
            open: HashMap::new(),
            games: order.iter().map(|&e| self.games[e]).collect(),
            points: order.iter().map(|&e| self.points[e]).collect(),
            finished: self.finished,
            spilling: None,
        };
        (pool, new.iter().map(|&e| small(e)).collect())
    }

    /// The rating list.
    pub fn rate(&self, options: &Options) -> Result<Ratings, RatingsError> {
        let (pool, new) = self.canonical();
        let Some(Spilling {
            make,
            file: Some(spill),
            ..
        }) = &self.spilling
        else {
            return pool.rate_canonical(options, None);
        };
        // Every kind of more than two seats, those in the file and those in memory, in one
        // sorted run: the fit reads them in the order it would from memory.
        let tables = (pool.kinds.iter()).filter(|(kind, _)| kind.len() > 2);
        let into = make().map_err(RatingsError::spill)?;
        let merged =
            (spill.merge(&new, tables.map(|(k, &c)| (k, c)), into)).map_err(RatingsError::spill)?;
        pool.rate_canonical(options, Some(&merged))
    }

    /// The list of this pool, numbered in the order of the names; with `spilled`, the kinds of
    /// more than two seats are those of that file (numbered so), not the pool's.
    fn rate_canonical(
        mut self,
        options: &Options,
        spilled: Option<&Spill>,
    ) -> Result<Ratings, RatingsError> {
        match self.names.as_slice() {
            [] => return Err(RatingsError::NoGames),
            [one] => return Err(RatingsError::OneEngine(one.clone())),
            _ => {}
        }
        let anchor = match &options.anchor {
            None => None,
            Some((name, elo)) => match self.index.get(name) {
                Some(&engine) => Some((engine, *elo)),
                None => {
                    return Err(RatingsError::UnknownAnchor {
                        name: name.clone(),
                        known: self.names.join(", "),
                    });
                }
            },
        };
        let n = self.names.len();
        let few = Some(Standing::Unrated(Unrated::FewGames(options.min_games)));
        let mut standing: Vec<Option<Standing>> = (self.games.iter())
            .map(|&games| if games < options.min_games { few } else { None })
            .collect();
        // The games of the engines that count, each a Luce choice of its winners, then of the
        // next place among the rest, and so on down (Plackett-Luce).
        // Taken from this copy of the pool as they are made, so that the kinds and their choices
        // are not both held whole; the two-seat kinds stay for the draw rate.
        let mut games = Games::default();
        // At most a choice per seat but the last, each of the seats left (a whole order).
        let (choices, seats) = (self.kinds.keys()).fold((0, 0), |(choices, seats), kind| {
            let k = kind.len();
            (
                choices + k.saturating_sub(1),
                seats + (k * (k + 1) / 2).saturating_sub(1),
            )
        });
        games.reserve(choices, seats);
        // Two-seat games first, then the rest (as a file gives them when there is one); the
        // kinds of more seats are let go as they are made into choices.
        let left_out: Vec<bool> = standing.iter().map(Option::is_some).collect();
        let counted = |kind: &Kind| counts(kind, &left_out);
        let mut stages = Stages::default();
        for (kind, &count) in self.kinds.iter().filter(|(kind, _)| kind.len() <= 2) {
            if counted(kind) {
                stages.of(kind, count, options.winner_only, &mut |g| games.push(g));
            }
        }
        let mut two_seat = BTreeMap::new();
        for (kind, count) in std::mem::take(&mut self.kinds) {
            if kind.len() <= 2 {
                two_seat.insert(kind, count);
            } else if spilled.is_none() && counted(&kind) {
                stages.of(&kind, count, options.winner_only, &mut |g| games.push(g));
            }
        }
        self.kinds = two_seat;
        games.shrink_to_fit();
        let spilled = spilled.map(|spill| Spilled {
            spill,
            left_out: &left_out,
            winner_only: options.winner_only,
            failed: RefCell::new(None),
        });
        let all = Both(&games, spilled.as_ref().map(|s| s as &dyn Source));
        let games = &all;
        let main = main_group(n, games, anchor.map(|(e, _)| e), &mut standing);
        let failed = || spilled.as_ref().and_then(|s| s.failed.borrow_mut().take());
        if let Some(e) = failed() {
            return Err(RatingsError::spill(e));
        }
        if let Some((engine, _)) = anchor.filter(|(e, _)| !main.contains(e)) {
            let why = match standing[engine] {
                Some(Standing::Unrated(why)) => why,
                _ => Unrated::NoFiniteRating,
            };
            return Err(RatingsError::AnchorUnrated {
                name: self.names[engine].clone(),
                why,
            });
        }
        let (rated, fitted) = self.fit(&main, games, (anchor, options), &mut standing);
        let seats = (fitted.as_ref().filter(|_| options.seat_advantage))
            .map(|fit| seat_advantages(fit, main.len()));
        let advantage: Vec<f64> = match &seats {
            Some(seats) => std::iter::once(0.0)
                .chain(seats.iter().map(|s| s.elo))
                .collect(),
            None => Vec::new(),
        };
        bounds(games, &rated, &advantage, &mut standing);
        if let Some(e) = failed() {
            return Err(RatingsError::spill(e));
        }
        let draw_rate = self.draw_rate(&rated, &advantage);
        let mut engines: Vec<Rating> = (0..n)
            .map(|e| Rating {
                name: self.names[e].clone(),
                games: self.games[e],
                points: self.points[e],
                standing: standing[e].unwrap_or(Standing::Unrated(Unrated::Disconnected)),
            })
            .collect();
        // The rated first, then the bounds, then the unrated: a bound is no place on the list.
        let key = |r: &Rating| match r.standing {
            Standing::Rated { elo, .. } => (0, -elo),
            Standing::AtLeast(elo) | Standing::AtMost(elo) => (1, -elo),
            Standing::Unrated(_) => (2, 0.0),
        };
        engines.sort_by(|a, b| {
            let (ka, kb) = (key(a), key(b));
            (ka.0.cmp(&kb.0))
                .then(ka.1.total_cmp(&kb.1))
                .then_with(|| a.name.cmp(&b.name))
        });
        let los = (fitted.as_ref().filter(|_| options.los)).map(|fit| {
            // The rated engines' places in the fit (`main`'s order), in the list's order.
            let places: Vec<usize> = (engines.iter())
                .take_while(|r| matches!(r.standing, Standing::Rated { .. }))
                .filter_map(|r| main.iter().position(|&e| e == self.index[&r.name]))
                .collect();
            (places.iter())
                .map(|&i| {
                    (places.iter())
                        .map(|&j| match i == j {
                            true => f64::NAN,
                            false => fit.superiority(i, j),
                        })
                        .collect()
                })
                .collect()
        });
        let clustered = (self.clusters_among(|e| rated.contains_key(&e)))
            .map(|(cluster, count)| cluster.len() as u64 * count)
            .sum();
        Ok(Ratings {
            engines,
            los,
            seats,
            draw_rate,
            clustered,
            games: self.finished,
            reference: match &options.anchor {
                Some((name, elo)) => Reference::Anchor(name.clone(), *elo),
                None => Reference::Average,
            },
        })
    }

    /// The clusters of more than one game whose engines are all `among`, and how many.
    fn clusters_among(
        &self,
        among: impl Fn(usize) -> bool,
    ) -> impl Iterator<Item = (&Vec<Kind>, u64)> {
        (self.clusters.iter())
            .filter(move |(cluster, _)| {
                cluster.len() > 1 && cluster.iter().flatten().all(|&(e, _, _)| among(e as usize))
            })
            .map(|(cluster, &count)| (cluster, count))
    }

    /// The draw rate of the two-seat games (the kinds the fit left: those alone) between `rated`
    /// engines (their Elo, with the seats' `advantage` by seat number when fitted), see
    /// [`draws`].
    fn draw_rate(&self, rated: &HashMap<usize, f64>, advantage: &[f64]) -> Option<DrawRate> {
        let seat = |position: usize| advantage.get(position).copied().unwrap_or(0.0);
        let mut tables: BTreeMap<(usize, usize, usize, usize), [f64; 3]> = BTreeMap::new();
        for (kind, &count) in &self.kinds {
            let &[(a, place_a, seat_a), (b, place_b, seat_b)] = kind.as_slice() else {
                continue;
            };
            let (a, seat_a, b, seat_b) = (a as usize, seat_a as usize, b as usize, seat_b as usize);
            if !(rated.contains_key(&a) && rated.contains_key(&b)) {
                continue;
            }
            let outcome = match place_a.cmp(&place_b) {
                std::cmp::Ordering::Less => 0,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Greater => 2,
            };
            tables.entry((a, seat_a, b, seat_b)).or_default()[outcome] += count as f64;
        }
        let games: Vec<(f64, [f64; 3])> = (tables.into_iter())
            .map(|((a, seat_a, b, seat_b), results)| {
                let gap = rated[&a] + seat(seat_a) - rated[&b] - seat(seat_b);
                (crate::stats::elo::expected_score(gap), results)
            })
            .collect();
        draws::fit(&games)
    }

    /// Fits the engines of `main` (and with `options.seat_advantage` the seats' advantages), the
    /// games of one seed's cluster counted as one unit in the intervals, and writes their
    /// standings; returns each rated engine's Elo, and the fit itself (its engines in `main`'s
    /// order, then the seats from the second), when there is one.
    fn fit(
        &self,
        main: &[usize],
        games: &dyn Source,
        (anchor, options): (Option<(usize, f64)>, &Options),
        standing: &mut [Option<Standing>],
    ) -> (HashMap<usize, f64>, Option<fit::Fit>) {
        // Each engine's number in the fit, by its number here.
        let mut numbers = vec![None; standing.len()];
        for (i, &e) in main.iter().enumerate() {
            numbers[e] = Some(i);
        }
        let local = |e: usize| numbers.get(e).copied().flatten();
        let to_local = |g: GameRef| Game {
            seats: (g.seats.iter())
                .filter_map(|&(e, p)| Some((local(e)?, p)))
                .collect(),
            positions: g.positions.to_vec(),
            count: g.count,
        };
        // Numbered as the fit numbers them; the games themselves when that changes nothing.
        let mut same = main.iter().enumerate().all(|(i, &e)| i == e);
        games.each(&mut |g| same &= g.seats.iter().all(|&(e, _)| local(e).is_some()));
        let renumbered = Local {
            games,
            numbers: &numbers,
        };
        let inside: &dyn Source = if same { games } else { &renumbered };
        let clusters: Vec<fit::Cluster> = (self.clusters_among(|e| local(e).is_some()))
            .map(|(cluster, count)| fit::Cluster {
                games: (cluster.iter())
                    .map(|kind| {
                        let mut choices = Vec::new();
                        let each = &mut |g: GameRef<'_>| choices.push(to_local(g));
                        Stages::default().of(kind, 1, options.winner_only, each);
                        choices
                    })
                    .collect(),
                count: count as f64,
            })
            .collect();
        let mut seats = None;
        if options.seat_advantage {
            inside.each(&mut |g| {
                seats = seats.max(g.positions.iter().map(|p| p + 1).max());
            });
        }
        let Some(fit) = fit::fit(main.len(), seats.unwrap_or(0), inside, &clusters) else {
            for &e in main {
                standing[e] = Some(Standing::Unrated(Unrated::NoFiniteRating));
            }
            return (HashMap::new(), None);
        };
        let m = main.len();
        // The contrast that fixes the zero: the anchor, or the average of the rated engines.
        let anchored = anchor.and_then(|(e, _)| local(e));
        let zero = match anchored {
            Some(a) => fit.elo[a],
            None => fit.elo[..m].iter().sum::<f64>() / m as f64,
        };
        let shift = zero - anchor.map_or(0.0, |(_, elo)| elo);
        let variances = fit.reference_variances(m, anchored);
        let mut rated = HashMap::new();
        for ((i, &e), variance) in main.iter().enumerate().zip(variances) {
            let elo = fit.elo[i] - shift;
            let error = Z_95 * variance.sqrt();
            standing[e] = Some(Standing::Rated { elo, error });
            rated.insert(e, elo);
        }
        (rated, Some(fit))
    }
}

/// Each seat's advantage over the first, in seat order from the second, from `fit` of `m`
/// engines.
fn seat_advantages(fit: &fit::Fit, m: usize) -> Vec<SeatAdvantage> {
    (m..fit.elo.len())
        .map(|t| SeatAdvantage {
            seat: t - m + 1,
            elo: fit.elo[t],
            error: Z_95 * fit.variance_at(t).sqrt(),
        })
        .collect()
}

/// Makes kinds of game into the choices the fit sees (docs/ratings.md): the winners chosen from
/// all its seats, then the seats of the next place from those left, and so on, each choice a
/// Luce choice whose point the seats sharing the place split. The last place chooses nothing; a
/// game all its seats won (a draw) is one choice they all share, and a game nobody won tells
/// nothing. With `winner_only`, every seat but the winners is in second place.
#[derive(Default)]
struct Stages {
    /// The kind's seats by place: (place, engine, seat number).
    by_place: Vec<(u32, u32, u32)>,
    seats: Vec<(usize, f64)>,
    positions: Vec<usize>,
}

impl Stages {
    /// Calls `each` with every choice of `kind`, played `count` times: the seats of each place
    /// but the last, with those of the places after it.
    fn of(
        &mut self,
        kind: &[(u32, u32, u32)],
        count: u64,
        winner_only: bool,
        each: &mut dyn FnMut(GameRef<'_>),
    ) {
        let place = |p: u32| if winner_only { p.min(1) } else { p };
        self.by_place.clear();
        (self.by_place).extend(kind.iter().map(|&(e, p, seat)| (place(p), e, seat)));
        self.by_place.sort_unstable();
        let (Some(&(first, _, _)), Some(&(last, _, _))) =
            (self.by_place.first(), self.by_place.last())
        else {
            return;
        };
        if first == last && first != 0 {
            return;
        }
        let mut start = 0;
        while start < self.by_place.len() {
            let chosen = self.by_place[start].0;
            if chosen == last && start > 0 {
                return;
            }
            let left = &self.by_place[start..];
            let sharing = left.iter().take_while(|&&(p, _, _)| p == chosen).count();
            self.seats.clear();
            self.positions.clear();
            for (i, &(_, e, seat)) in left.iter().enumerate() {
                let points = if i < sharing {
                    1.0 / sharing as f64
                } else {
                    0.0
                };
                self.seats.push((e as usize, points));
                self.positions.push(seat as usize);
            }
            each(GameRef {
                seats: &self.seats,
                positions: &self.positions,
                count: count as f64,
            });
            start += sharing;
        }
    }
}

/// Whether the games of `kind` count: none of its engines is `left_out` (or unknown).
fn counts(kind: &[(u32, u32, u32)], left_out: &[bool]) -> bool {
    (kind.iter()).all(|&(e, _, _)| left_out.get(e as usize) == Some(&false))
}

/// Two sources of games read one after the other: the kinds in memory, then those in a file.
struct Both<'a>(&'a dyn Source, Option<&'a dyn Source>);

impl Source for Both<'_> {
    fn each(&self, each: &mut dyn FnMut(GameRef<'_>)) {
        self.0.each(each);
        if let Some(second) = self.1 {
            second.each(each);
        }
    }
}

/// The kinds in a file as the fit reads them: those with an engine left out dropped, each made
/// into its choices ([`Stages`]).
struct Spilled<'a> {
    spill: &'a Spill,
    left_out: &'a [bool],
    winner_only: bool,
    /// The first error reading the file: the list is then refused.
    failed: RefCell<Option<io::Error>>,
}

impl Source for Spilled<'_> {
    fn each(&self, each: &mut dyn FnMut(GameRef<'_>)) {
        let mut stages = Stages::default();
        let read = self.spill.read(&mut |kind, count| {
            if counts(kind, self.left_out) {
                stages.of(kind, count, self.winner_only, each);
            }
        });
        if let Err(e) = read {
            self.failed.borrow_mut().get_or_insert(e);
        }
    }
}

/// Games with their engines numbered anew, those with an engine not numbered left out.
struct Local<'a> {
    games: &'a dyn Source,
    /// Each engine's new number, by its old.
    numbers: &'a [Option<usize>],
}

impl Source for Local<'_> {
    fn each(&self, each: &mut dyn FnMut(GameRef<'_>)) {
        let mut seats = Vec::new();
        self.games.each(&mut |g| {
            seats.clear();
            for &(e, points) in g.seats {
                match self.numbers.get(e).copied().flatten() {
                    Some(e) => seats.push((e, points)),
                    None => return,
                }
            }
            each(GameRef {
                seats: &seats,
                positions: g.positions,
                count: g.count,
            });
        });
    }
}

#[cfg(test)]
mod tests;
