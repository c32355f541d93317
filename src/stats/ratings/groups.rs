//! Who can be rated: the group whose results leave one finite maximum (strongly connected by
//! "took points from"), the engines only linked to it, and the bounds of those that won or lost
//! everything against it.

use std::collections::HashMap;

use rustc_hash::FxHashSet;

use super::fit::{self, Games, K, Source};
use super::{BOUND_RATIO, Standing, Unrated};

/// The engines that can be fitted together: of the engines linked by games, the group (the
/// anchor's, or the largest) in which each has won points against the others and lost points to
/// them, directly or through others (a strongly connected component of "took points from").
/// Engines linked to it otherwise are left for [`bounds`]; those not linked at all are marked
/// disconnected.
pub fn main_group(
    n: usize,
    games: &dyn Source,
    anchor: Option<usize>,
    standing: &mut [Option<Standing>],
) -> Vec<usize> {
    let mut beat_pairs = Pairs::new(n);
    let mut linked_pairs = Pairs::new(n);
    games.each(&mut |game| {
        for &(a, pa) in game.seats {
            for &(b, pb) in game.seats {
                if a != b {
                    linked_pairs.insert(a, b);
                    // Points taken from b: a got more, or shared a win with it.
                    if pa > pb || (pa > 0.0 && pa == pb) {
                        beat_pairs.insert(a, b);
                    }
                }
            }
        }
    });
    let adjacency = |pairs: Pairs| {
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        pairs.for_each(|a, b| edges[a].push(b));
        for e in &mut edges {
            e.sort_unstable();
        }
        edges
    };
    let (beats, linked) = (adjacency(beat_pairs), adjacency(linked_pairs));
    let active: Vec<usize> = (0..n).filter(|&e| !linked[e].is_empty()).collect();
    let pick = |groups: Vec<Vec<usize>>| {
        let by_anchor = anchor.and_then(|a| groups.iter().position(|g| g.contains(&a)));
        let largest = (0..groups.len()).max_by_key(|&i| (groups[i].len(), usize::MAX - i));
        by_anchor
            .or(largest)
            .map(|i| groups[i].clone())
            .unwrap_or_default()
    };
    let component = pick(components(&active, &linked));
    for &e in &active {
        if !component.contains(&e) && standing[e].is_none() {
            standing[e] = Some(Standing::Unrated(Unrated::Disconnected));
        }
    }
    let mut main = pick(components(&component, &beats));
    if main.len() < 2 {
        main.clear();
    }
    main.sort_unstable();
    main
}

/// The most engines whose pairs are kept as one bit each (8 MiB); more keep the pairs met in a
/// hash set.
const DENSE_ENGINES: usize = 8192;

/// A set of ordered pairs of engines: memory by engines (a bit per pair) while that is small,
/// else by the pairs met; every game adds each of its pairs, so a look-up must be cheap.
enum Pairs {
    Dense { n: usize, bits: Vec<u64> },
    Hashed(FxHashSet<(usize, usize)>),
}

impl Pairs {
    fn new(n: usize) -> Pairs {
        match n <= DENSE_ENGINES {
            true => Pairs::Dense {
                n,
                bits: vec![0; (n * n).div_ceil(64)],
            },
            false => Pairs::Hashed(FxHashSet::default()),
        }
    }

    fn insert(&mut self, a: usize, b: usize) {
        match self {
            Pairs::Dense { n, bits } => {
                let at = a * *n + b;
                bits[at / 64] |= 1 << (at % 64);
            }
            Pairs::Hashed(set) => {
                set.insert((a, b));
            }
        }
    }

    /// Calls `f` with each pair.
    fn for_each(self, mut f: impl FnMut(usize, usize)) {
        match self {
            Pairs::Dense { n, bits } => {
                for (word, &value) in bits.iter().enumerate() {
                    for bit in crate::rules::game::bits(value) {
                        let at = word * 64 + usize::from(bit);
                        f(at / n, at % n);
                    }
                }
            }
            Pairs::Hashed(set) => set.into_iter().for_each(|(a, b)| f(a, b)),
        }
    }
}

/// The strongly connected components of the graph `edges` over `nodes` (Kosaraju: one pass
/// along the edges, one against them); with symmetric edges, the connected components.
fn components(nodes: &[usize], edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = edges.len();
    let mut inside = vec![false; n];
    for &e in nodes {
        inside[e] = true;
    }
    let mut reverse: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &a in nodes {
        for &b in &edges[a] {
            if inside[b] {
                reverse[b].push(a);
            }
        }
    }
    // The order in which a depth-first search along the edges finishes the nodes.
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(nodes.len());
    for &start in nodes {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![(start, 0usize)];
        while let Some((node, next)) = stack.pop() {
            match edges[node].get(next) {
                Some(&b) => {
                    stack.push((node, next + 1));
                    if inside[b] && !seen[b] {
                        seen[b] = true;
                        stack.push((b, 0));
                    }
                }
                None => order.push(node),
            }
        }
    }
    let mut group = vec![usize::MAX; n];
    let mut groups = Vec::new();
    for &start in order.iter().rev() {
        if group[start] != usize::MAX {
            continue;
        }
        let id = groups.len();
        let mut members = vec![start];
        group[start] = id;
        let mut stack = vec![start];
        while let Some(node) = stack.pop() {
            for &b in &reverse[node] {
                if group[b] == usize::MAX {
                    group[b] = id;
                    members.push(b);
                    stack.push(b);
                }
            }
        }
        members.sort_unstable();
        groups.push(members);
    }
    groups
}

/// A bound for each engine left out of the fit that played rated engines only at some tables:
/// the rating at which its results there become [`BOUND_RATIO`] as likely as at the best (an
/// infinite rating for an engine that won them all, minus infinity for one that lost them all),
/// the rated engines held at their ratings and the seats at their `advantage` (Elo by seat number;
/// none when empty).
pub fn bounds(
    games: &dyn Source,
    rated: &HashMap<usize, f64>,
    advantage: &[f64],
    standing: &mut [Option<Standing>],
) {
    if rated.is_empty() {
        for s in standing.iter_mut().filter(|s| s.is_none()) {
            *s = Some(Standing::Unrated(Unrated::NoFiniteRating));
        }
        return;
    }
    let low = rated.values().copied().fold(f64::INFINITY, f64::min) - 5000.0;
    let high = rated.values().copied().fold(f64::NEG_INFINITY, f64::max) + 5000.0;
    // Each engine's games against rated engines only, in one pass over the games.
    let mut own: HashMap<usize, Games> = (standing.iter().enumerate())
        .filter(|(_, slot)| slot.is_none())
        .map(|(engine, _)| (engine, Games::default()))
        .collect();
    games.each(&mut |g| {
        let mut outside = (g.seats.iter()).filter(|(e, _)| !rated.contains_key(e));
        if let Some((engine, _)) = outside.next()
            && outside.all(|(e, _)| e == engine)
            && let Some(games) = own.get_mut(engine)
        {
            games.push(g);
        }
    });
    for (engine, slot) in standing.iter_mut().enumerate() {
        if slot.is_some() {
            continue;
        }
        let own = own.remove(&engine).unwrap_or_default();
        if own.iter().next().is_none() {
            *slot = Some(Standing::Unrated(Unrated::NoFiniteRating));
            continue;
        }
        let likelihood = |elo: f64| -> f64 {
            let seat = |position: usize| advantage.get(position).copied().unwrap_or(0.0);
            let theta = |e: usize, position| {
                K * (if e == engine { elo } else { rated[&e] } + seat(position))
            };
            (own.iter())
                .map(|g| g.count * fit::game_log_likelihood(g, theta))
                .sum()
        };
        let (at_high, at_low) = (likelihood(high), likelihood(low));
        let up = at_high > at_low;
        let target = at_high.max(at_low) + libm::log(BOUND_RATIO);
        // Bisection: the likelihood is monotone in the engine's own rating here.
        let (mut a, mut b) = (low, high);
        for _ in 0..100 {
            let middle = f64::midpoint(a, b);
            let above = likelihood(middle) >= target;
            if above == up {
                b = middle;
            } else {
                a = middle;
            }
        }
        let bound = f64::midpoint(a, b);
        *slot = Some(if up {
            Standing::AtLeast(bound)
        } else {
            Standing::AtMost(bound)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_kinds_of_pair_set_hold_the_same_pairs_once() {
        let n = 70;
        let pairs = [(0, 1), (1, 0), (69, 68), (3, 64), (3, 64), (64, 3), (5, 5)];
        let held = |mut set: Pairs| {
            for &(a, b) in &pairs {
                set.insert(a, b);
            }
            let mut out = Vec::new();
            set.for_each(|a, b| out.push((a, b)));
            out.sort_unstable();
            out
        };
        let dense = held(Pairs::new(n));
        assert!(matches!(Pairs::new(n), Pairs::Dense { .. }));
        let hashed = held(Pairs::Hashed(FxHashSet::default()));
        let mut expected = pairs.to_vec();
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(dense, expected);
        assert_eq!(hashed, expected);
        assert!(matches!(Pairs::new(DENSE_ENGINES + 1), Pairs::Hashed(_)));
    }
}
