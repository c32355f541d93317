//! Schedules: which engines play each game of a match or tournament (round-robin, gauntlet), on
//! which seed, and shards of them; made as they are played.

pub use crate::events::Format;
use crate::events::knockout::Bracket;
use crate::play::secret::Secret;
use crate::rules::seeded::Stream;

/// One game of a schedule: which engine sits in each seat, and the game's seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The game's number in the schedule, from 0; records store it (plus one) as `tags.game`.
    pub index: usize,
    /// The engine (index into `MatchConfig::engines`) in each seat.
    pub engines: Vec<usize>,
    /// The game's group: the games of one table and round, which share a seed and an opening.
    pub group: usize,
    /// The game's seed.
    pub seed: u64,
}

/// The seed of game `index`: one stream per game of a generator seeded with the match seed, so any
/// game can be replayed alone.
pub fn game_seed(match_seed: u64, index: usize) -> u64 {
    Stream::new(match_seed, index as u64).next_u64()
}

/// The first generator stream of engine seeds: far above the streams the rules draw from (a
/// DOUBLE round's deck is stream `ROUND`) and below the referee's own (2^63 and up).
const ENGINE_SEED_STREAM: u64 = 1 << 62;

/// The seed engine `seat` gets for its own random choices in game `index` (seed `seed`): the first
/// number of stream 2^62 + 8 × `index` + `seat` of the game's seed. It differs per game and seat
/// (the rotations of one deal too, which share the game's seed), and it tells nothing about the
/// game's chance events, which come from other streams.
pub fn engine_seed(seed: u64, index: usize, seat: usize) -> u64 {
    let stream = ENGINE_SEED_STREAM
        .wrapping_add((index as u64).wrapping_mul(8))
        .wrapping_add(seat as u64);
    Stream::new(seed, stream).next_u64()
}

/// What fixes a tournament's schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Who plays whom.
    pub format: Format,
    /// How many engines.
    pub engines: usize,
    /// Seats per game.
    pub seats: usize,
    /// Times each table is played (each a new seed).
    pub rounds: usize,
    /// At most this many games: the schedule's first ones (a match's `--games`).
    pub limit: Option<usize>,
    /// Play each seed once for every rotation of the seats.
    pub repeat: bool,
    /// The seed of every game's seed.
    pub seed: u64,
    /// The run's secret, which draws every game's seed instead when there is one.
    pub secret: Option<Secret>,
}

/// Every `k`-element subset of `items`, in lexicographic order.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// The tables: which engines sit together, before rotation (none for a Swiss, whose tables
/// come from its results).
pub fn tables(plan: &Plan) -> Vec<Vec<usize>> {
    let all: Vec<usize> = (0..plan.engines).collect();
    match plan.format {
        Format::Swiss | Format::Knockout => Vec::new(),
        Format::RoundRobin => combinations(&all, plan.seats),
        Format::Gauntlet => combinations(&all[1.min(all.len())..], plan.seats.saturating_sub(1))
            .into_iter()
            .map(|mut others| {
                others.insert(0, 0);
                others
            })
            .collect(),
    }
}

impl Plan {
    /// How many games the whole schedule holds (a knockout: at most).
    pub fn games(&self) -> usize {
        if self.format == Format::Knockout {
            let bracket = Bracket::new(self.engines, self.rounds);
            return bracket.most_games();
        }
        let all = self.rounds.saturating_mul(self.games_per_round());
        self.limit.map_or(all, |limit| all.min(limit))
    }

    /// How many games each round holds.
    pub fn games_per_round(&self) -> usize {
        let rotations = if self.repeat { self.seats } else { 1 };
        let tables = match self.format {
            Format::Swiss => {
                crate::events::swiss::Swiss::tables_per_round(self.engines, self.seats)
            }
            Format::Knockout => self.engines / 2,
            _ => tables(self).len(),
        };
        tables.saturating_mul(rotations)
    }

    /// The seed of the games of `group` (the games of one table and round).
    pub fn group_seed(&self, group: usize) -> u64 {
        match &self.secret {
            Some(secret) => secret.game_seed(group),
            None => game_seed(self.seed, group),
        }
    }

    /// The games of Swiss round `round` (from 0) at `tables` (each engine in its seat): each
    /// table's games one group, every rotation of its seats with `repeat`.
    pub fn swiss_round(&self, round: usize, tables: &[Vec<usize>]) -> Vec<Scheduled> {
        let rotations = if self.repeat { self.seats } else { 1 };
        let first = round * self.games_per_round();
        let mut games = Vec::with_capacity(tables.len() * rotations);
        for (t, table) in tables.iter().enumerate() {
            let group = round * tables.len() + t;
            for r in 0..rotations {
                games.push(Scheduled {
                    index: first + t * rotations + r,
                    engines: (0..table.len())
                        .map(|s| table[(s + r) % table.len()])
                        .collect(),
                    group,
                    seed: self.group_seed(group),
                });
            }
        }
        games
    }
}

/// The whole schedule: round by round, table by table. Without `repeat`, a table's seats rotate
/// from round to round; with it, each round plays every rotation on one seed. Every game's seed
/// comes from the plan's seed and the game's group, so the schedule is the same on every machine.
/// Made as it is played: a long schedule takes no memory. A schedule of more rounds begins with
/// the schedule of fewer, so a run can be extended.
pub fn schedule(plan: &Plan) -> impl Iterator<Item = Scheduled> + Send + use<> {
    let tables = tables(plan);
    let games = plan.games();
    let (seats, repeat) = (plan.seats, plan.repeat);
    let seeds = plan.clone();
    let groups_per_round = tables.len();
    (0..plan.rounds)
        .flat_map(move |round| (0..groups_per_round).map(move |t| (round, t)))
        .flat_map(move |(round, t)| {
            let rotations = if repeat { seats } else { 1 };
            (0..rotations).map(move |r| (round, t, if repeat { r } else { round % seats }))
        })
        .enumerate()
        .map(move |(index, (round, t, rotation))| {
            let table = &tables[t];
            let group = round * groups_per_round + t;
            Scheduled {
                index,
                engines: (0..seats)
                    .map(|seat| table[(seat + rotation) % seats])
                    .collect(),
                group,
                seed: seeds.group_seed(group),
            }
        })
        .take(games)
}

/// A shard `K/N` (K from 1): the games whose index is `K - 1` modulo `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub k: usize,
    /// How many slices.
    pub n: usize,
}

/// A `--shard` value that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad shard `{0}`: expected K/N with 1 <= K <= N, e.g. 2/8")]
pub struct ShardError(String);

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let parsed = text
            .split_once('/')
            .and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)));
        match parsed {
            Some((k, n)) if 1 <= k && k <= n => Ok(Shard { k, n }),
            _ => Err(ShardError(text.to_owned())),
        }
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// How many of the games `0..games` are in this shard.
    pub fn count_of(self, games: usize) -> usize {
        games / self.n + usize::from(games % self.n >= self.k)
    }

    /// Whether game `index` is in this shard.
    pub fn holds(self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

/// The games `from..to` of the tie between `a` and `b` whose first game is `first`, seeded from
/// `seed_of` (a game's group, as in every schedule: one seed per game, or per pair of games with
/// the seats swapped when `repeat`).
pub fn tie_games(
    (a, b): (usize, usize),
    first: usize,
    (from, to): (usize, usize),
    repeat: bool,
    seed_of: impl Fn(usize) -> u64,
) -> Vec<Scheduled> {
    (from..to)
        .map(|g| {
            let index = first + g;
            let group = if repeat {
                (first + g - g % 2) / 2
            } else {
                index
            };
            Scheduled {
                index,
                engines: Bracket::seats(a, b, g),
                group,
                seed: seed_of(group),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(format: Format, engines: usize, seats: usize, rounds: usize, repeat: bool) -> Plan {
        Plan {
            format,
            engines,
            seats,
            rounds,
            limit: None,
            repeat,
            seed: 9,
            secret: None,
        }
    }

    #[test]
    fn round_robin_pairs_everyone_and_gauntlet_only_the_first() {
        assert_eq!(
            tables(&plan(Format::RoundRobin, 4, 2, 1, false)),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        assert_eq!(
            tables(&plan(Format::Gauntlet, 4, 2, 1, false)),
            [[0, 1], [0, 2], [0, 3]]
        );
        assert_eq!(
            tables(&plan(Format::RoundRobin, 4, 3, 1, false)),
            [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]
        );
        assert_eq!(
            tables(&plan(Format::Gauntlet, 4, 3, 1, false)),
            [[0, 1, 2], [0, 1, 3], [0, 2, 3]]
        );
    }

    #[test]
    fn schedules_are_complete_and_deterministic() {
        let p = plan(Format::RoundRobin, 3, 2, 2, true);
        let games: Vec<_> = schedule(&p).collect();
        assert_eq!(games.len(), 3 * 2 * 2);
        assert_eq!(p.games(), games.len());
        assert_eq!(games, schedule(&p).collect::<Vec<_>>());
        // Repeat: each seed twice, seats swapped.
        assert_eq!(games[0].seed, games[1].seed);
        assert_eq!(games[0].engines, [0, 1]);
        assert_eq!(games[1].engines, [1, 0]);
        assert_ne!(games[0].seed, games[2].seed);
        // Every pair meets as often in each seat.
        for pair in [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]] {
            assert_eq!(
                games.iter().filter(|g| g.engines == pair).count(),
                2,
                "{pair:?}"
            );
        }
        let seeds: std::collections::HashSet<u64> = games.iter().map(|g| g.seed).collect();
        assert_eq!(seeds.len(), 6);
        // Without repeat the seats alternate from round to round.
        let plain: Vec<_> = schedule(&plan(Format::Gauntlet, 3, 2, 2, false)).collect();
        assert_eq!(
            plain.iter().map(|g| g.engines.clone()).collect::<Vec<_>>(),
            [[0, 1], [0, 2], [1, 0], [2, 0]]
        );
    }

    #[test]
    fn two_engines_rotate_every_game_and_repeat_pairs_seeds() {
        // A match: engine i sits in seat (i + game) mod 2; with --repeat each seed twice.
        for repeat in [false, true] {
            let mut p = plan(Format::RoundRobin, 2, 2, 7, repeat);
            p.limit = Some(7);
            let games: Vec<_> = schedule(&p).collect();
            assert_eq!(games.len(), 7);
            for (i, g) in games.iter().enumerate() {
                assert_eq!(g.engines, [i % 2, (i + 1) % 2]);
                assert_eq!(g.seed, game_seed(9, if repeat { i / 2 } else { i }));
            }
        }
        // More rounds extend a schedule without changing its beginning.
        let short: Vec<_> = schedule(&plan(Format::RoundRobin, 4, 2, 2, true)).collect();
        let long: Vec<_> = schedule(&plan(Format::RoundRobin, 4, 2, 5, true)).collect();
        assert_eq!(short[..], long[..short.len()]);
    }

    #[test]
    fn shards_are_disjoint_and_cover_everything() {
        let games: Vec<_> = schedule(&plan(Format::RoundRobin, 4, 2, 3, true)).collect();
        let shards: Vec<Shard> = (1..=5).map(|k| Shard { k, n: 5 }).collect();
        for game in &games {
            assert_eq!(shards.iter().filter(|s| s.holds(game.index)).count(), 1);
        }
        for shard in &shards {
            for n in 0..30 {
                let held = (0..n).filter(|&i| shard.holds(i)).count();
                assert_eq!(shard.count_of(n), held, "{shard:?} of {n}");
            }
        }
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { k: 2, n: 8 }));
        for bad in ["0/3", "4/3", "x", "1/0", "1-2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn game_seeds_are_distinct_and_reproducible() {
        let seeds: Vec<u64> = (0..100).map(|i| game_seed(42, i)).collect();
        let mut unique = seeds.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 100);
        assert_eq!(seeds[7], game_seed(42, 7));
        assert_ne!(game_seed(42, 0), game_seed(43, 0));
    }
}
