//! Swiss pairing: round by round, engines of equal score meet, no two engines meet twice while it
//! can be avoided, seats are balanced, and an odd engine out sits out (a bye) at most once while
//! others have not. Deterministic: the same seed and the same results give the same rounds, so a
//! resumed run pairs as the first one did.
//!
//! The rules, written in docs/tournaments.md:
//! - The order: by score (points so far, a bye counting as a win), then by a starting order drawn
//!   from the seed (a shuffle), which breaks every tie.
//! - Byes: with `n` engines and tables of `s` seats, `n mod s` engines sit out each round: the
//!   lowest in the order among those with the fewest byes.
//! - Tables, two seats: the highest unpaired engine meets the highest one below it that it has not
//!   met; when that leaves the rest unpairable without repeats, the search backtracks; when no
//!   pairing without repeats exists (or the search grows too long), the first choice of repeats
//!   is taken. Three seats or more: consecutive engines of the order fill each table, then a
//!   swap of equals with the next table is tried where two at a table have met before.
//!   With two seats, the search first looks for a pairing in which no two engines that both sat
//!   more in seat 0 (or both in seat 1) meet, so that seats stay within one of even.
//! - Seats: of every way to seat a table, the one that keeps each engine's seat counts most even
//!   (least sum of squares), then the one that repeats fewest last-round seats, then the first
//!   (the higher in the order in the lower seat).

use std::collections::HashSet;

use crate::rules::seeded::Stream;

/// The stream of the run's seed that draws the starting order.
pub const ORDER_STREAM: u64 = (1 << 63) + 3;

/// The most steps the backtracking search of a round may take before it allows repeats.
const SEARCH_LIMIT: usize = 200_000;

/// One round's pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// The tables, each engine in its seat.
    pub tables: Vec<Vec<usize>>,
    /// The engines that sit out.
    pub byes: Vec<usize>,
}

/// Where a Swiss tournament stands.
#[derive(Clone, Debug)]
pub struct Swiss {
    seats: usize,
    /// The tie-breaking starting order: `start[e]` is engine `e`'s place.
    start: Vec<usize>,
    score: Vec<f64>,
    byes: Vec<u32>,
    /// How often each engine sat in each seat.
    seat_counts: Vec<Vec<u32>>,
    /// The round in which each engine last sat in each seat.
    last_in_seat: Vec<Vec<Option<usize>>>,
    met: HashSet<(usize, usize)>,
    round: usize,
}

impl Swiss {
    /// A tournament of `engines` at tables of `seats`, its starting order drawn from `seed`.
    pub fn new(engines: usize, seats: usize, seed: u64) -> Swiss {
        let mut order: Vec<usize> = (0..engines).collect();
        let mut stream = Stream::new(seed, ORDER_STREAM);
        // Fisher-Yates, from the top.
        for i in (1..engines).rev() {
            let j = (stream.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let mut start = vec![0; engines];
        for (place, &e) in order.iter().enumerate() {
            start[e] = place;
        }
        Swiss {
            seats: seats.max(1),
            start,
            score: vec![0.0; engines],
            byes: vec![0; engines],
            seat_counts: vec![vec![0; seats]; engines],
            last_in_seat: vec![vec![None; seats]; engines],
            met: HashSet::new(),
            round: 0,
        }
    }

    /// Tables per round.
    pub fn tables_per_round(engines: usize, seats: usize) -> usize {
        engines / seats.max(1)
    }

    /// Adds a game's result: `points` of the engines in `table`, seat by seat.
    pub fn record(&mut self, table: &[usize], points: &[f64]) {
        for (&e, &p) in table.iter().zip(points) {
            self.score[e] += p;
        }
    }

    /// The engines in Swiss order: score, then the starting order.
    fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.start.len()).collect();
        order.sort_by(|&a, &b| {
            (self.score[b].total_cmp(&self.score[a])).then(self.start[a].cmp(&self.start[b]))
        });
        order
    }

    fn have_met(&self, a: usize, b: usize) -> bool {
        self.met.contains(&(a.min(b), a.max(b)))
    }

    /// Pairs the next round and counts it as played (meetings, seats, byes).
    pub fn pair(&mut self) -> Round {
        let mut order = self.order();
        let sitting_out = order.len() % self.seats;
        let mut byes = Vec::new();
        for _ in 0..sitting_out {
            // The lowest in the order among those with the fewest byes.
            let fewest = order.iter().map(|&e| self.byes[e]).min().unwrap_or(0);
            if let Some(place) = order.iter().rposition(|&e| self.byes[e] == fewest) {
                byes.push(order.remove(place));
            }
        }
        let groups = match self.seats {
            2 => self.pairs(&order),
            _ => self.groups(&order),
        };
        let tables: Vec<Vec<usize>> = groups.into_iter().map(|g| self.seat(g)).collect();
        for table in &tables {
            for (seat, &e) in table.iter().enumerate() {
                self.seat_counts[e][seat] += 1;
                self.last_in_seat[e][seat] = Some(self.round);
            }
            for (i, &a) in table.iter().enumerate() {
                for &b in &table[i + 1..] {
                    self.met.insert((a.min(b), a.max(b)));
                }
            }
        }
        for &e in &byes {
            self.byes[e] += 1;
            self.score[e] += 1.0;
        }
        self.round += 1;
        Round { tables, byes }
    }

    /// Two-seat tables: the first pairing the search finds without repeats and with seats that
    /// can be balanced, else without repeats, else the greedy one.
    fn pairs(&self, order: &[usize]) -> Vec<Vec<usize>> {
        for strict in [true, false] {
            let mut steps = 0;
            let mut paired = vec![false; order.len()];
            let mut out = Vec::new();
            if self.search(order, strict, &mut paired, &mut out, &mut steps) {
                return out;
            }
        }
        // Repeats cannot be avoided: each takes the next one down.
        order.chunks(2).map(<[usize]>::to_vec).collect()
    }

    /// Seat 0 games minus seat 1 games.
    fn balance(&self, e: usize) -> i64 {
        i64::from(self.seat_counts[e][0]) - i64::from(self.seat_counts[e][1])
    }

    /// Backtracking: the highest unpaired engine meets the highest unpaired one it has not met
    /// (and, when `strict`, that does not need the same seat: both ahead in seat 0, or in seat 1).
    fn search(
        &self,
        order: &[usize],
        strict: bool,
        paired: &mut [bool],
        out: &mut Vec<Vec<usize>>,
        steps: &mut usize,
    ) -> bool {
        let Some(first) = paired.iter().position(|p| !p) else {
            return true;
        };
        paired[first] = true;
        for second in first + 1..order.len() {
            *steps += 1;
            if *steps > SEARCH_LIMIT {
                break;
            }
            let (a, b) = (order[first], order[second]);
            let clash = self.balance(a) * self.balance(b) > 0;
            if paired[second] || self.have_met(a, b) || (strict && clash) {
                continue;
            }
            paired[second] = true;
            out.push(vec![a, b]);
            if self.search(order, strict, paired, out, steps) {
                return true;
            }
            out.pop();
            paired[second] = false;
        }
        paired[first] = false;
        false
    }

    /// Tables of three seats or more: consecutive engines of the order, then swaps of an engine
    /// with one of the next table where that lowers the repeated meetings of both tables.
    fn groups(&self, order: &[usize]) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = order.chunks(self.seats).map(<[usize]>::to_vec).collect();
        let repeats = |table: &[usize]| {
            let mut n = 0;
            for (i, &a) in table.iter().enumerate() {
                n += table[i + 1..]
                    .iter()
                    .filter(|&&b| self.have_met(a, b))
                    .count();
            }
            n
        };
        for t in 0..groups.len().saturating_sub(1) {
            for i in 0..self.seats {
                for j in 0..self.seats {
                    let before = repeats(&groups[t]) + repeats(&groups[t + 1]);
                    let (mut a, mut b) = (groups[t].clone(), groups[t + 1].clone());
                    std::mem::swap(&mut a[i], &mut b[j]);
                    if repeats(&a) + repeats(&b) < before {
                        (groups[t], groups[t + 1]) = (a, b);
                    }
                }
            }
        }
        groups
    }

    /// The table's engines in their seats: of every way to seat them, the one that keeps each
    /// engine's seats most even (the least sum of squares of its seat counts after the game);
    /// ties to the way that seats fewest engines where they sat last round, then the first.
    fn seat(&self, group: Vec<usize>) -> Vec<usize> {
        let mut best: Option<((u64, usize), Vec<usize>)> = None;
        for table in permutations(&group) {
            let mut squares = 0u64;
            let mut again = 0usize;
            for (seat, &e) in table.iter().enumerate() {
                for (s, &n) in self.seat_counts[e].iter().enumerate() {
                    let n = u64::from(n) + u64::from(s == seat);
                    squares += n * n;
                }
                let previous = self.round.checked_sub(1);
                again += usize::from(previous.is_some() && self.last_in_seat[e][seat] == previous);
            }
            if best
                .as_ref()
                .is_none_or(|(cost, _)| (squares, again) < *cost)
            {
                best = Some(((squares, again), table));
            }
        }
        best.map_or(group, |(_, table)| table)
    }
}

/// Every order of `items` (at most 6 of them: 720), the given order first.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `rounds` rounds of `engines` at tables of `seats`; the engine with the lower number
    /// wins every game, so scores spread as in a real tournament.
    fn play(engines: usize, seats: usize, rounds: usize, seed: u64) -> (Swiss, Vec<Round>) {
        let mut swiss = Swiss::new(engines, seats, seed);
        let mut played = Vec::new();
        for _ in 0..rounds {
            let round = swiss.pair();
            for table in &round.tables {
                let best = table.iter().copied().min().unwrap_or(0);
                let points: Vec<f64> = table.iter().map(|&e| f64::from(e == best)).collect();
                swiss.record(table, &points);
            }
            played.push(round);
        }
        (swiss, played)
    }

    #[test]
    fn sixty_four_engines_seven_rounds_no_repeats_balanced_seats() {
        for seed in 0..20 {
            let (swiss, rounds) = play(64, 2, 7, seed);
            let mut pairs = HashSet::new();
            for round in &rounds {
                let mut seen = HashSet::new();
                assert!(round.byes.is_empty());
                for table in &round.tables {
                    assert_eq!(table.len(), 2);
                    for &e in table {
                        assert!(seen.insert(e), "engine {e} twice in a round");
                    }
                    let key = (table[0].min(table[1]), table[0].max(table[1]));
                    assert!(pairs.insert(key), "seed {seed}: {key:?} met twice");
                }
                assert_eq!(seen.len(), 64);
            }
            for e in 0..64 {
                let [white, black] = [swiss.seat_counts[e][0], swiss.seat_counts[e][1]];
                assert!(
                    white.abs_diff(black) <= 1,
                    "seed {seed}: engine {e} {white}/{black}"
                );
            }
        }
    }

    #[test]
    fn winners_meet_winners() {
        // After round 1, 32 engines have 1 point and 32 none: round 2 pairs within each group.
        let mut swiss = Swiss::new(64, 2, 5);
        for table in swiss.pair().tables {
            let best = table[0].min(table[1]);
            let points: Vec<f64> = table.iter().map(|&e| f64::from(e == best)).collect();
            swiss.record(&table, &points);
        }
        let scores = swiss.score.clone();
        for table in swiss.pair().tables {
            assert_eq!(scores[table[0]], scores[table[1]], "{table:?}");
        }
    }

    #[test]
    fn an_odd_field_gives_each_bye_once_and_pairs_by_score() {
        let (swiss, rounds) = play(9, 2, 8, 3);
        let mut byes = vec![0; 9];
        for round in &rounds {
            assert_eq!(round.byes.len(), 1);
            byes[round.byes[0]] += 1;
        }
        assert!(byes.iter().all(|&b| b <= 1), "{byes:?}");
        // Engine 0 wins every game it plays: it leads.
        assert_eq!(swiss.order()[0], 0);
        // The same seed and results pair the same; another seed another way.
        assert_eq!(play(9, 2, 8, 3).1, rounds);
        assert_ne!(play(9, 2, 8, 4).1, rounds);
    }

    #[test]
    fn tables_of_four_fill_the_field_and_rotate_the_seats() {
        let (swiss, rounds) = play(18, 4, 6, 1);
        for round in &rounds {
            assert_eq!(round.tables.len(), 4);
            assert_eq!(round.byes.len(), 2);
            let mut all: Vec<usize> = round.tables.concat();
            all.extend(&round.byes);
            all.sort_unstable();
            assert_eq!(all, (0..18).collect::<Vec<_>>());
        }
        // No engine sat in seat 0 more than twice in 6 rounds (it plays at most 6 games, 4 seats).
        for e in 0..18 {
            assert!(
                swiss.seat_counts[e].iter().all(|&n| n <= 2),
                "{e}: {:?}",
                swiss.seat_counts[e]
            );
        }
    }
}
