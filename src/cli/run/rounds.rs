//! Tournaments whose rounds are drawn from the results of the ones before (Swiss, knockout): each
//! round's games are played as a batch through the arena, and the next round waits for them.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use crate::cli::run::peers::Share;
use crate::cli::run::results::GameResults;
use crate::events::knockout::{Bracket, Tie};
use crate::events::swiss::Swiss;
use crate::play::arena::{self, MatchConfig, MatchError};
use crate::play::schedule::{Plan, Scheduled, tie_games};

/// Plays a Swiss tournament round by round: each round is paired from the results of the ones
/// before (those of the records file first, then those played now), its games not yet played
/// are played (those of this shard, when sharded), and the next round waits for all of them (the
/// other shards' from their files). Stops when a round cannot be finished (a stop signal, the
/// SPRT, an error).
pub fn swiss_rounds(
    config: &MatchConfig,
    plan: &Plan,
    (names, played, results): (&[String], &HashSet<usize>, &RefCell<GameResults>),
    share: &mut Share,
    on_event: &mut dyn FnMut(arena::Event) -> std::io::Result<bool>,
) -> Result<(), MatchError> {
    let mut swiss = Swiss::new(plan.engines, plan.seats, plan.seed);
    for round in 0..plan.rounds {
        let pairing = swiss.pair();
        let games = plan.swiss_round(round, &pairing.tables);
        let todo: Vec<Scheduled> = (games.iter())
            .filter(|g| share.plays(g.index) && !played.contains(&(g.index + 1)))
            .cloned()
            .collect();
        if !todo.is_empty() {
            arena::run_events(config, todo.into_iter(), &mut *on_event)?;
        }
        let indices: Vec<usize> = games.iter().map(|g| g.index).collect();
        if !share.gather(&indices, results, round)? {
            return Ok(());
        }
        for game in &games {
            let results = results.borrow();
            let Some((seated, points)) = results.get(&game.index) else {
                return Ok(());
            };
            let expected: Vec<&String> = game.engines.iter().map(|&e| &names[e]).collect();
            if seated.iter().collect::<Vec<_>>() != expected {
                return Err(MatchError::NotThisRun(format!(
                    "the records file's game {} was played by {}, not by {} as the Swiss \
                     pairing of its round says: it belongs to another run",
                    game.index + 1,
                    seated.join(", "),
                    expected
                        .iter()
                        .map(|n| n.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            swiss.record(&game.engines, points);
        }
        if crate::engine::process::draining() {
            return Ok(());
        }
    }
    Ok(())
}

/// Plays a knockout bracket round by round (`crate::play::knockout`): each round's undecided ties
/// play their next games together (first their `per_tie` games, then tie-break pairs), the
/// results of the records file first, each shard playing its own and reading the others'; the
/// winners make the next round. Stops when a batch cannot be finished (a stop signal, an error);
/// sets `champion` when the final is decided.
pub fn knockout_rounds(
    config: &MatchConfig,
    plan: &Plan,
    (names, played, results): (&[String], &HashSet<usize>, &RefCell<GameResults>),
    (share, champion): (&mut Share, &Cell<Option<usize>>),
    on_event: &mut dyn FnMut(arena::Event) -> std::io::Result<bool>,
) -> Result<(), MatchError> {
    let bracket = Bracket::new(plan.engines, plan.rounds);
    let mut alive: Vec<Option<usize>> = bracket.places().to_vec();
    let mut round = 0;
    while alive.len() > 1 {
        let ties: Vec<(Option<usize>, Option<usize>)> = alive
            .chunks(2)
            .map(|p| (p[0], p.get(1).copied().flatten()))
            .collect();
        let mut counted = vec![0usize; ties.len()];
        let mut won: Vec<Option<Option<usize>>> = (ties.iter())
            .map(|&tie| match tie {
                (Some(_), Some(_)) => None,
                (a, b) => Some(a.or(b)),
            })
            .collect();
        loop {
            let mut batch = Vec::new();
            let mut next = Vec::new();
            for (t, &(a, b)) in ties.iter().enumerate() {
                let (None, Some(a), Some(b)) = (won[t], a, b) else {
                    continue;
                };
                let first = bracket.first_game(round, t);
                let points = tie_points(&results.borrow(), names, first, counted[t], (a, b));
                match bracket.tie(a, b, counted[t], points) {
                    Tie::Won(winner) => won[t] = Some(Some(winner)),
                    Tie::Play(from, to) => {
                        let seed = |group| plan.group_seed(group);
                        batch.extend(tie_games((a, b), first, (from, to), plan.repeat, seed));
                        next.push((t, to));
                    }
                }
            }
            if batch.is_empty() {
                break;
            }
            let todo: Vec<Scheduled> = (batch.iter())
                .filter(|g| share.plays(g.index) && !played.contains(&(g.index + 1)))
                .cloned()
                .collect();
            if !todo.is_empty() {
                arena::run_events(config, todo.into_iter(), &mut *on_event)?;
            }
            let indices: Vec<usize> = batch.iter().map(|g| g.index).collect();
            if !share.gather(&indices, results, round)? {
                return Ok(());
            }
            for (t, to) in next {
                counted[t] = to;
            }
            if crate::engine::process::draining() {
                return Ok(());
            }
        }
        alive = won.into_iter().map(Option::flatten).collect();
        round += 1;
    }
    champion.set(alive.first().copied().flatten());
    Ok(())
}

/// The points of engines `a` and `b` in the first `count` games of the tie starting at `first`.
fn tie_points(
    results: &GameResults,
    names: &[String],
    first: usize,
    count: usize,
    (a, b): (usize, usize),
) -> (f64, f64) {
    let mut points = (0.0, 0.0);
    for index in first..first + count {
        let Some((seated, scored)) = results.get(&index) else {
            continue;
        };
        for (name, p) in seated.iter().zip(scored) {
            if *name == names[a] {
                points.0 += p;
            } else if *name == names[b] {
                points.1 += p;
            }
        }
    }
    points
}
