//! The match loop: a run's games played between engine processes, as many at once as asked,
//! each at a table (`table.rs`, the turn loop) of engines from the run's pools (`pools.rs`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Instant;

use crate::engine::{Engine, Transcript};
use crate::play::schedule::Scheduled;
use crate::play::spec::Proto;
use crate::records::replay::Replay;
use crate::records::{End, Record};
use crate::rules::game::{Game, Setup};

use crate::play::pools::{NotStarted, Pooled, Pools, Taking, quit_idle};
use crate::play::table::Table;

pub use crate::play::config::{MatchConfig, MatchError, OnFault, PROBE_KEY};

/// A finished game.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The game's number in the schedule, from 0.
    pub index: usize,
    /// The engine (index into `MatchConfig::engines`) in each seat.
    pub engine_of_seat: Vec<usize>,
    /// Its record.
    pub record: Record,
}

/// What a run tells as it goes, on the calling thread.
#[derive(Debug)]
pub enum Event {
    /// A game starts: its number in the schedule, from 0, and the names in its seats.
    Started {
        /// The game's number in the schedule, from 0.
        index: usize,
        /// The engines' names, by seat.
        names: Vec<String>,
    },
    /// A game finished.
    Finished(Box<Finished>),
}

/// Plays the games of `schedule`, taken as they are played; `on_finish` gets each game as it
/// finishes, on the calling thread, and returns whether to go on (the games under way finish, no
/// new one starts).
pub fn run(
    config: &MatchConfig,
    schedule: impl Iterator<Item = Scheduled> + Send,
    mut on_finish: impl FnMut(Finished) -> std::io::Result<bool>,
) -> Result<(), MatchError> {
    run_events(config, schedule, |event| match event {
        Event::Started { .. } => Ok(true),
        Event::Finished(game) => on_finish(*game),
    })
}

/// As [`run`], with each game's start told too (`Event::Started`, before it is played).
pub fn run_events(
    config: &MatchConfig,
    schedule: impl Iterator<Item = Scheduled> + Send,
    mut on_event: impl FnMut(Event) -> std::io::Result<bool>,
) -> Result<(), MatchError> {
    let mut schedule = schedule.peekable();
    let Some(first) = schedule.peek() else {
        return Ok(());
    };
    let setup = Setup {
        variant: config.variant.clone(),
        seats: Some(first.engines.len()),
        ..Setup::default()
    };
    let probe = Replay::new(&config.game, &setup)?;
    let seats = probe.game().seats();
    let schedule = Mutex::new(schedule);
    if let Some(dir) = &config.log_dir {
        std::fs::create_dir_all(dir).map_err(|source| MatchError::Log {
            path: dir.clone(),
            source,
        })?;
    }
    crate::engine::process::adopt_orphans();
    let pools = Pools::new(config, probe.game().hides_information())?;
    let play = |game: &Scheduled, cpu: Option<usize>| {
        if game.engines.len() == seats {
            play_one(config, &pools, game, cpu)
        } else {
            Err(MatchError::EngineCount {
                game: config.game.clone(),
                seats,
                engines: game.engines.len(),
            })
        }
    };
    let started = |game: &Scheduled| Event::Started {
        index: game.index,
        names: (game.engines.iter())
            .map(|&e| config.engines[e].command.name.clone())
            .collect(),
    };
    // Each event goes to `on_event`, which says whether to go on.
    let mut go_on = |event: Result<Event, MatchError>| {
        event.and_then(|e| on_event(e).map_err(MatchError::from))
    };
    // One game at a time is played on this thread: no hand-over per game.
    if config.concurrency <= 1 {
        let cpu = config.affinity.first().copied();
        pin_this_thread(cpu)?;
        let games = schedule
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let result = (|| {
            for game in games {
                // After a stop signal the games under way finish; no other starts.
                if crate::engine::process::draining() {
                    break;
                }
                if !go_on(Ok(started(&game)))?
                    || !go_on(play(&game, cpu).map(|g| Event::Finished(Box::new(g))))?
                {
                    break;
                }
            }
            Ok(())
        })();
        quit_idle(pools);
        return result;
    }
    let result = play_concurrently(config, &schedule, &play, &started, go_on);
    quit_idle(pools);
    result
}

/// Plays a scheduled game with its engines on a CPU, if given.
type PlayOn<'a> = dyn Fn(&Scheduled, Option<usize>) -> Result<Finished, MatchError> + Sync + 'a;

/// Plays the games of `schedule` on `config.concurrency` threads (thread `i` and its engines on
/// CPU `config.affinity[i]` when given), each game's events handed to `go_on` on this one, which
/// says whether to go on; a stop signal lets the games under way finish.
fn play_concurrently(
    config: &MatchConfig,
    schedule: &Mutex<impl Iterator<Item = Scheduled> + Send>,
    play: &PlayOn,
    started: &(dyn Fn(&Scheduled) -> Event + Sync),
    mut go_on: impl FnMut(Result<Event, MatchError>) -> Result<bool, MatchError>,
) -> Result<(), MatchError> {
    let stop = AtomicBool::new(false);
    let (sender, finished) = mpsc::channel();
    std::thread::scope(|scope| {
        for thread in 0..config.concurrency {
            let sender = sender.clone();
            let (play, schedule, stop, started) = (&play, &schedule, &stop, &started);
            let cpu = config.affinity.get(thread).copied();
            scope.spawn(move || {
                if let Err(e) = pin_this_thread(cpu) {
                    let _ = sender.send(Err(e));
                    return;
                }
                while !stop.load(Ordering::Relaxed) && !crate::engine::process::draining() {
                    let next = schedule
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .next();
                    let Some(game) = next else {
                        break;
                    };
                    if sender.send(Ok(started(&game))).is_err()
                        || (sender.send(play(&game, cpu).map(|g| Event::Finished(Box::new(g)))))
                            .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for game in finished {
            let went_on = go_on(game);
            if !matches!(went_on, Ok(true)) {
                stop.store(true, Ordering::Relaxed);
            }
            went_on?;
        }
        Ok(())
    })
}

/// Plays one scheduled game.
fn play_one(
    config: &MatchConfig,
    pools: &Pools,
    scheduled: &Scheduled,
    cpu: Option<usize>,
) -> Result<Finished, MatchError> {
    let (index, seed) = (scheduled.index, scheduled.seed);
    let engine_of_seat = scheduled.engines.clone();
    let seats = engine_of_seat.len();
    let names: Vec<String> = engine_of_seat
        .iter()
        .map(|&e| config.engines[e].command.name.clone())
        .collect();
    let setup = Setup {
        variant: config.variant.clone(),
        seats: Some(seats),
        seed,
        layout: None,
    };
    let mut replay = Replay::new(&config.game, &setup)?;
    let log_path =
        (config.log_dir.as_ref()).map(|dir| dir.join(format!("game-{:05}.log", index + 1)));
    let transcript = log_path.as_ref().map(|path| {
        let transcript = Transcript::create(path, config.log_limit);
        transcript.line("referee", '#', &format!("game {} seed {seed}", index + 1));
        transcript
    });

    let Seated {
        mut engines,
        groups,
        mut end,
    } = take_engines(config, pools, scheduled, transcript.as_ref(), cpu)?;
    let mut healthy = vec![true; engines.len()];
    if end.is_none() {
        let mut table = Table::new(config, scheduled, &mut replay, &mut engines, &mut healthy);
        end = table.play().err();
    }
    // Read the answers still due, so each engine starts the next game in step.
    let deadline = Instant::now() + config.margin;
    for (engine, ok) in engines.iter_mut().zip(healthy.iter_mut()) {
        *ok = *ok && engine.settle(deadline).is_ok();
    }
    // A CodeCup process plays one game: it may have exited after the last move, else it is told.
    for (engine, &spec) in engines.iter_mut().zip(&engine_of_seat) {
        if config.engines[spec].proto == Proto::CodeCup {
            engine.quit_with("Quit");
        }
    }
    // Engines killed by a stop end the game with faults that are nobody's: it has no result.
    if crate::engine::process::stopping() {
        return Err(MatchError::Interrupted);
    }
    // What the engines wrote to stderr up to now belongs to this game's transcript.
    for engine in &mut engines {
        engine.set_transcript(None);
    }
    let mut record = replay.into_record(&names, end);
    record.tags.insert("game".into(), (index + 1).to_string());
    if config.cpu_clock {
        record.tags.insert("clock".into(), "cpu".into());
    }
    if let (Some(transcript), Some(path)) = (&transcript, log_path) {
        let result = serde_json::to_string(&record.end).unwrap_or_default();
        transcript.line("referee", '#', &format!("end {result}"));
        transcript
            .finish()
            .map_err(|source| MatchError::Log { path, source })?;
    }
    // Faulty engines are dropped, which kills them; the next game starts a fresh process.
    let seats_played = engines.into_iter().zip(groups).zip(healthy);
    for (((engine, groups), ok), &spec) in seats_played.zip(&engine_of_seat) {
        // A CodeCup engine plays one game (it was told `Quit` above).
        if ok && config.engines[spec].proto != Proto::CodeCup {
            pools.give_back(spec, Pooled { engine, groups }, scheduled.group);
        }
    }
    Ok(Finished {
        index,
        engine_of_seat,
        record,
    })
}

/// Every seat's engine taken from its pool, in seat order: idle ones first, then the new ones,
/// started side by side (each handed to a starter thread before any is waited for).
fn begin_all(
    config: &MatchConfig,
    pools: &Pools,
    scheduled: &Scheduled,
    transcript: Option<&Transcript>,
    cpu: Option<usize>,
) -> Vec<(usize, Result<Taking, NotStarted>)> {
    let group = (scheduled.group, cpu);
    let mut begun: Vec<(usize, Result<Taking, NotStarted>)> = Vec::new();
    let mut new = Vec::new();
    for (seat, &spec) in scheduled.engines.iter().enumerate() {
        match pools.take_idle(spec, group, transcript) {
            Some(idle) => begun.push((seat, Ok(idle))),
            None => new.push((seat, spec)),
        }
    }
    let beginning: Vec<_> = (new.into_iter())
        .map(|(seat, spec)| {
            let beginning = pools.begin_new(config, spec, cpu, transcript);
            (seat, spec, beginning)
        })
        .collect();
    // Every one begun is waited for, whatever became of the others.
    for (seat, spec, beginning) in beginning {
        begun.push((
            seat,
            beginning.and_then(|b| pools.start_begun(config, spec, b)),
        ));
    }
    begun.sort_by_key(|(seat, _)| *seat);
    begun
}

/// A game's engines as [`take_engines`] seats them.
struct Seated {
    engines: Vec<Engine>,
    /// The seed groups each has played.
    groups: Vec<Vec<usize>>,
    /// The game's end when a seat's engine could not be taken.
    end: Option<End>,
}

/// The engines of `scheduled`'s seats, from their pools, with the seed groups each has played;
/// when one could not be taken, also the game's end (its seat's fault), with the engines taken
/// before it (which go back to their pools after the game) and the later ones given back. Every seat's engine is taken (new ones started) before any handshake is waited
/// for, so that a game's engines start together.
fn take_engines(
    config: &MatchConfig,
    pools: &Pools,
    scheduled: &Scheduled,
    transcript: Option<&Transcript>,
    cpu: Option<usize>,
) -> Result<Seated, MatchError> {
    let seats = scheduled.engines.len();
    let mut taking = Vec::with_capacity(seats);
    let mut failure = None;
    for (seat, result) in begin_all(config, pools, scheduled, transcript, cpu) {
        match result {
            Ok(taken) => taking.push((seat, taken)),
            Err(not_started) if failure.is_none() => {
                failure = Some((seat, scheduled.engines[seat], not_started));
            }
            Err(_) => {}
        }
    }
    let mut engines = Vec::with_capacity(seats);
    let mut groups = Vec::with_capacity(seats);
    for (seat, taken) in taking {
        let spec = scheduled.engines[seat];
        match pools.finish(config, spec, taken) {
            Ok(pooled) if failure.is_none() => {
                engines.push(pooled.engine);
                groups.push(pooled.groups);
            }
            // Started, but a seat before it failed: it goes back to its pool.
            Ok(pooled) => pools.give_back(spec, pooled, scheduled.group),
            Err(not_started) if failure.is_none() => failure = Some((seat, spec, not_started)),
            Err(_) => {}
        }
    }
    match failure {
        None => Ok(Seated {
            engines,
            groups,
            end: None,
        }),
        // No engine starts once a stop came: a game that could not start its engines then is
        // no game, and nobody's fault.
        Some(_) if crate::engine::process::stopping() || crate::engine::process::draining() => {
            Err(MatchError::Interrupted)
        }
        Some((_, spec, NotStarted { fault, never: true })) => Err(MatchError::EngineStart {
            name: config.engines[spec].command.name.clone(),
            detail: match crate::engine::sandbox::start_hint(&fault.detail) {
                Some(hint) => format!("{}; {hint}", fault.detail),
                None => fault.detail,
            },
        }),
        Some((seat, _, NotStarted { fault, .. })) => Ok(Seated {
            engines,
            groups,
            end: Some(End::Verdict {
                seat,
                verdict: fault.verdict,
                detail: fault.detail,
            }),
        }),
    }
}

/// Pins the calling thread to `cpu`, when given (`--use-affinity`): the referee's side of a game
/// runs on the CPU of its engines, where a wake-up costs least.
fn pin_this_thread(cpu: Option<usize>) -> Result<(), MatchError> {
    let Some(cpu) = cpu else {
        return Ok(());
    };
    crate::engine::process::run_on(cpu).map_err(|e| MatchError::Affinity {
        cpu,
        reason: e.to_string(),
    })
}
