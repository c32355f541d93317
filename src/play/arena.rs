//! The match loop: games between engine processes under the referee's clocks and adjudication.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::engine::sandbox::Sandbox;
use crate::engine::{Engine, EngineError, Transcript};
use crate::play::clock::{Clock, TimeControl, millis};
use crate::play::codecup::{self, CodeCupSeat};
use crate::play::openings::{Opening, Openings, RANDOM_PLIES_STREAM};
use crate::play::schedule::{Scheduled, engine_seed};
use crate::play::secret::Secret;
use crate::play::spec::{EngineSpec, Proto};
use crate::protocol::{ClockKeys, Command, GameKeys, MoveAnswer, NewGame};
use crate::records::replay::Replay;
use crate::records::{End, Ply, Record, Verdict};
use crate::rules::AnyMove;
use crate::rules::game::{Actor, Game, MoveError, Setup, SetupError, Viewer};
use crate::rules::seeded::Stream;

/// The stream of a game's generator from which the referee picks moves for a substituted seat.
const SUBSTITUTE_STREAM: u64 = 1 << 63;

/// How many moves a list holds, as a bound for `Stream::below`: a game never offers 2^32 moves.
fn count<T>(moves: &[T]) -> u32 {
    u32::try_from(moves.len()).expect("fewer than 2^32 legal moves")
}

/// What happens to a game of three or more seats when one seat's engine is at fault.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnFault {
    /// The game ends; the faulty seat loses and every other seat shares the win.
    #[default]
    Forfeit,
    /// The game goes on: the referee plays random legal moves for the faulty seat, which cannot
    /// win. Games of two seats always forfeit.
    Substitute,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game's id.
    pub game: String,
    /// The variant, if any.
    pub variant: Option<String>,
    /// One engine per seat; seats rotate from game to game.
    pub engines: Vec<EngineSpec>,
    /// Play each seed once for every rotation of the seats (twice for two seats): duplicate play,
    /// so the luck of a deal cancels out.
    pub repeat: bool,
    /// The seed every game's seed is drawn from.
    pub seed: u64,
    /// The run's secret, from which every game's seed and engine seed are drawn instead, when
    /// there is one (games with hidden information).
    pub secret: Option<Secret>,
    /// The time control of engines without their own.
    pub tc: TimeControl,
    /// How long past its time an engine may stay silent before it is killed.
    pub margin: Duration,
    /// How late an answer may be and still count (`--timemargin`); the lateness is recorded.
    pub time_margin: Duration,
    /// How long an engine may take to start, answer the handshake, or set up a game.
    pub startup: Duration,
    /// Games played at once.
    pub concurrency: usize,
    /// What a fault does to a game of three or more seats.
    pub on_fault: OnFault,
    /// Where per-game transcripts go, if anywhere.
    pub log_dir: Option<PathBuf>,
    /// The most bytes of engine traffic one game's transcript keeps.
    pub log_limit: u64,
    /// How games begin.
    pub openings: Openings,
    /// Where sandboxed engines get their scratch directories, kept after the run; a temporary
    /// directory, removed at the end, when `None`.
    pub scratch_dir: Option<PathBuf>,
    /// Files and directories of the run that sandboxed engines must not see (the records file);
    /// the transcripts' directory and the scratch directories are added to them.
    pub private: Vec<PathBuf>,
    /// Add the key [`PROBE_KEY`] to every `newgame` and `genmove` (`check-engine`: engines
    /// must ignore keys they do not know).
    pub probe_keys: bool,
}

/// The key no engine knows, sent by `check-engine`.
pub const PROBE_KEY: &str = "probe=1";

/// Why a match cannot run.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The game cannot be set up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The engine count does not fit the game.
    #[error("{game} is played by {seats} seats: give {seats} engines, not {engines}")]
    EngineCount {
        /// The game.
        game: String,
        /// Its seats.
        seats: usize,
        /// The engines given.
        engines: usize,
    },
    /// The sandbox's scratch directories cannot be made.
    #[error("cannot make scratch directories in {path}: {source}")]
    Scratch {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A transcript could not be written.
    #[error("cannot write the transcript {path}: {source}")]
    Log {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The caller's handling of a finished game failed (writing the records, say).
    #[error("{0}")]
    Output(#[from] std::io::Error),
    /// An engine failed to start the first time it was needed: its command or setup is wrong, and
    /// every game it plays would be forfeited, so the run stops.
    #[error("engine {name} cannot start: {detail}")]
    EngineStart {
        /// The engine.
        name: String,
        /// Why, with its last stderr lines.
        detail: String,
    },
    /// A signal stopped the run; the games under way were not finished and are not recorded.
    #[error("interrupted")]
    Interrupted,
    /// A records file whose games do not fit the run's schedule (a Swiss round paired otherwise).
    #[error("{0}")]
    NotThisRun(String),
}

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

/// Idle engine processes, one pool per engine spec, reused from game to game, and whether each
/// spec ever finished its handshake.
struct Pools {
    idle: Vec<Mutex<Vec<Pooled>>>,
    started: Vec<AtomicBool>,
    /// The run's sandbox, when an engine asks for one.
    sandbox: Option<Sandbox>,
    /// Whether a process must never play two games of one seed group: duplicate play of a game
    /// with hidden information, where a process that remembers would know the deal.
    fresh_per_group: bool,
}

/// An engine process and the seed groups it has played.
struct Pooled {
    engine: Engine,
    groups: Vec<usize>,
}

/// Why no engine could be taken from a pool.
struct NotStarted {
    /// The fault, for the game's record.
    fault: Fault,
    /// Whether the engine never started in this run: its command is wrong, and the run stops.
    never: bool,
}

/// A seat's fault, for the record.
struct Fault {
    verdict: Verdict,
    detail: String,
}

fn fault(verdict: Verdict, detail: impl Into<String>) -> Fault {
    Fault {
        verdict,
        detail: detail.into(),
    }
}

/// `detail` with the engine's last stderr lines, which often say why it failed (a traceback).
fn with_stderr(detail: String, engine: &mut Engine) -> String {
    let tail = engine.stderr_tail();
    if tail.is_empty() {
        return detail;
    }
    format!("{detail}; stderr: {}", tail.join(" | "))
}

/// The verdict for an engine that failed to answer as it should; `waited` is how long it had.
fn fault_of(error: EngineError, waited: Duration) -> Fault {
    match error {
        EngineError::Spawn { .. } => fault(Verdict::FailedToStart, error.to_string()),
        EngineError::Timeout => fault(
            Verdict::Stall,
            format!("no answer within {} ms", waited.as_millis()),
        ),
        EngineError::Exited(exit) => fault(Verdict::Crash, exit.to_string()),
        EngineError::ClosedOutput | EngineError::Protocol(_) | EngineError::Stopping => {
            fault(Verdict::ProtocolError, error.to_string())
        }
    }
}

/// An engine being taken from a pool: an idle one, or one just started whose handshake is due.
enum Taking {
    Idle(Pooled),
    Starting { engine: Engine, deadline: Instant },
}

impl Pools {
    /// An idle engine of `spec` that may play a game of `group`, or a new one whose handshake is
    /// sent but not yet answered (see [`Pools::finish`]), so that a game's engines start together;
    /// its traffic goes to `transcript` either way.
    fn begin(
        &self,
        config: &MatchConfig,
        spec: usize,
        group: usize,
        transcript: Option<&Transcript>,
    ) -> Result<Taking, NotStarted> {
        let idle = {
            let mut idle = self.idle[spec]
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let fits = |p: &Pooled| !(self.fresh_per_group && p.groups.contains(&group));
            idle.iter().rposition(fits).map(|at| idle.swap_remove(at))
        };
        if let Some(mut pooled) = idle {
            pooled.engine.set_transcript(transcript.cloned());
            return Ok(Taking::Idle(pooled));
        }
        let sandbox = self.sandbox.as_ref().map(|s| (s, spec));
        let engine_spec = &config.engines[spec];
        let codecup = engine_spec.proto == Proto::CodeCup;
        let mut command = engine_spec.command.clone();
        if codecup {
            // A process per game, told its time in its command; there is no handshake.
            command.command =
                codecup::command_for(engine_spec, engine_spec.tc.unwrap_or(config.tc));
        }
        let deadline = Instant::now() + config.startup;
        let mut engine = Engine::start(&command, sandbox, transcript.cloned())
            .map_err(|e| self.failed(spec, e.to_string()))?;
        if !codecup {
            let sent = engine
                .send("protocol_version")
                .and_then(|_| engine.send("name"));
            if let Err(e) = sent {
                let detail = fault_of(e, config.startup).detail;
                return Err(self.failed(spec, with_stderr(detail, &mut engine)));
            }
        }
        Ok(Taking::Starting { engine, deadline })
    }

    /// The engine [`Pools::begin`] took, its handshake answered.
    fn finish(
        &self,
        config: &MatchConfig,
        spec: usize,
        taking: Taking,
    ) -> Result<Pooled, NotStarted> {
        let (mut engine, deadline) = match taking {
            Taking::Idle(pooled) => return Ok(pooled),
            Taking::Starting { engine, deadline } => (engine, deadline),
        };
        if let Err(e) = engine.settle(deadline) {
            let detail = fault_of(e, config.startup).detail;
            return Err(self.failed(spec, with_stderr(detail, &mut engine)));
        }
        self.started[spec].store(true, Ordering::Relaxed);
        Ok(Pooled {
            engine,
            groups: Vec::new(),
        })
    }

    /// A failed start of `spec`, which stops the run if no engine of it ever started.
    fn failed(&self, spec: usize, detail: String) -> NotStarted {
        NotStarted {
            fault: fault(Verdict::FailedToStart, detail),
            never: !self.started[spec].load(Ordering::Relaxed),
        }
    }

    fn give_back(&self, spec: usize, mut pooled: Pooled, group: usize) {
        if self.fresh_per_group {
            pooled.groups.push(group);
        }
        self.idle[spec]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(pooled);
    }
}

/// The run's sandbox: it hides the run's private files, the transcripts and every engine's
/// directory from the other engines.
fn sandbox_of(config: &MatchConfig) -> Result<Sandbox, MatchError> {
    let mut hidden = config.private.clone();
    hidden.extend(config.log_dir.iter().cloned());
    let dirs: Vec<Option<PathBuf>> = config
        .engines
        .iter()
        .map(|e| e.command.dir.clone())
        .collect();
    Sandbox::new(&hidden, &dirs, config.scratch_dir.as_deref()).map_err(|source| {
        MatchError::Scratch {
            path: config
                .scratch_dir
                .clone()
                .unwrap_or_else(std::env::temp_dir),
            source,
        }
    })
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
    let pools = Pools {
        idle: config.engines.iter().map(|_| Mutex::default()).collect(),
        started: config
            .engines
            .iter()
            .map(|_| AtomicBool::new(false))
            .collect(),
        fresh_per_group: config.repeat && probe.game().hides_information(),
        sandbox: match config.engines.iter().any(|e| e.command.sandbox) {
            true => Some(sandbox_of(config)?),
            false => None,
        },
    };
    let play = |game: &Scheduled| {
        if game.engines.len() == seats {
            play_one(config, &pools, game)
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
                    || !go_on(play(&game).map(|g| Event::Finished(Box::new(g))))?
                {
                    break;
                }
            }
            Ok(())
        })();
        quit_idle(pools);
        return result;
    }
    let stop = AtomicBool::new(false);
    let (sender, finished) = mpsc::channel();
    let result = std::thread::scope(|scope| {
        for _ in 0..config.concurrency {
            let sender = sender.clone();
            let (play, schedule, stop, started) = (&play, &schedule, &stop, &started);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) && !crate::engine::process::draining() {
                    let next = schedule
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .next();
                    let Some(game) = next else {
                        break;
                    };
                    if sender.send(Ok(started(&game))).is_err()
                        || (sender.send(play(&game).map(|g| Event::Finished(Box::new(g))))).is_err()
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
    });
    quit_idle(pools);
    result
}

/// Asks every idle engine to quit (and kills it).
fn quit_idle(pools: Pools) {
    for pool in pools.idle {
        for pooled in pool
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            pooled.engine.quit();
        }
    }
}

/// Plays one scheduled game.
fn play_one(
    config: &MatchConfig,
    pools: &Pools,
    scheduled: &Scheduled,
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

    // Every seat's engine is taken (new ones started) before any handshake is waited for; the
    // seats before the first that fails play or go back to their pool.
    let mut taking = Vec::with_capacity(seats);
    let mut failure = None;
    for (seat, &spec) in engine_of_seat.iter().enumerate() {
        match pools.begin(config, spec, scheduled.group, transcript.as_ref()) {
            Ok(taken) => taking.push(taken),
            Err(not_started) => {
                failure = Some((seat, spec, not_started));
                break;
            }
        }
    }
    let mut engines = Vec::with_capacity(seats);
    let mut groups = Vec::with_capacity(seats);
    for (seat, taken) in taking.into_iter().enumerate() {
        let spec = engine_of_seat[seat];
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
    let mut end = None;
    match failure {
        None => {}
        // No engine starts once a stop came: a game that could not start its engines then is
        // no game, and nobody's fault.
        Some(_) if crate::engine::process::stopping() || crate::engine::process::draining() => {
            return Err(MatchError::Interrupted);
        }
        Some((_, spec, NotStarted { fault, never: true })) => {
            return Err(MatchError::EngineStart {
                name: config.engines[spec].command.name.clone(),
                detail: fault.detail,
            });
        }
        Some((seat, _, NotStarted { fault: f, .. })) => {
            end = Some(End::Verdict {
                seat,
                verdict: f.verdict,
                detail: f.detail,
            });
        }
    }
    let mut healthy = vec![true; engines.len()];
    if end.is_none() {
        let clocks = engine_of_seat
            .iter()
            .map(|&e| Clock::new(config.engines[e].tc.unwrap_or(config.tc)))
            .collect();
        let mut table = Table {
            config,
            index,
            replay: &mut replay,
            engines: &mut engines,
            clocks,
            healthy: &mut healthy,
            rng: Stream::new(seed, SUBSTITUTE_STREAM),
            opening: config.openings.of_group(scheduled.group),
            opening_played: 0,
            opening_rng: Stream::new(seed, RANDOM_PLIES_STREAM),
            rounds_told: 0,
            totals_told: vec![0; seats],
            codecup: engine_of_seat
                .iter()
                .map(|&e| (config.engines[e].proto == Proto::CodeCup).then(CodeCupSeat::default))
                .collect(),
            human: engine_of_seat
                .iter()
                .map(|&e| config.engines[e].command.terminal)
                .collect(),
            newgame_keys: engine_of_seat
                .iter()
                .map(|&e| config.engines[e].newgame_keys.clone())
                .collect(),
            redo: VecDeque::new(),
        };
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
    let mut record = replay.record(&names, end);
    record.tags.insert("game".into(), (index + 1).to_string());
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

/// One game in progress.
struct Table<'a> {
    config: &'a MatchConfig,
    /// The game's number in the schedule.
    index: usize,
    replay: &'a mut Replay,
    engines: &'a mut [Engine],
    clocks: Vec<Clock>,
    healthy: &'a mut [bool],
    rng: Stream,
    /// The game's opening, and how many of its plies were played.
    opening: Opening<'a>,
    opening_played: usize,
    opening_rng: Stream,
    /// The rounds whose end the engines were told of, and the totals they were told.
    rounds_told: usize,
    totals_told: Vec<i64>,
    /// The seats whose engines speak the CodeCup protocol.
    codecup: Vec<Option<CodeCupSeat>>,
    /// The human seats (`--engine human`), which may take a move back in a game without a clock.
    human: Vec<bool>,
    /// Each seat's engine's own `newgame` keys (`nodes=1000 option.Hash=64`).
    newgame_keys: Vec<Vec<(String, String)>>,
    /// Plies to play again after an undo, told to the engines as they are played.
    redo: VecDeque<Ply>,
}

impl Table<'_> {
    /// Plays to the end: `Ok` when the rules end the game, `Err` with the end when a resignation
    /// or a verdict does.
    fn play(&mut self) -> Result<(), End> {
        self.new_games()?;
        loop {
            self.tell_rounds()?;
            let seat = match self.replay.game().to_move() {
                None => return Ok(()),
                // After an undo: the plies kept, played again and told as before.
                Some(actor) if !self.redo.is_empty() => {
                    self.play_again(actor)?;
                    continue;
                }
                Some(Actor::Seat(seat)) if self.opening_played < self.opening.len() => {
                    if let Err((at_fault, f)) = self.opening_ply(seat) {
                        self.fault(at_fault, f)?;
                    }
                    continue;
                }
                Some(Actor::Seat(seat)) if !self.replay.is_substituted(seat) => seat,
                // A card leaves the stock as the seed dictates.
                Some(Actor::Chance) => {
                    let game = self.replay.game();
                    let mv = match game.seeded_chance(self.replay.seed()) {
                        Some(mv) => mv,
                        None => {
                            let mut moves = Vec::new();
                            game.legal_moves(&mut moves);
                            moves[self.rng.below(count(&moves)) as usize]
                        }
                    };
                    self.chance(&mv)?;
                    continue;
                }
                // The referee plays for a substituted seat: a random legal move.
                Some(Actor::Seat(seat)) => {
                    let mut moves = Vec::new();
                    self.replay.game().legal_moves(&mut moves);
                    let pick = moves[self.rng.below(count(&moves)) as usize].to_string();
                    self.replay.play(&pick).expect("a listed move is legal");
                    if let Err((at_fault, f)) = self.tell(seat, &pick) {
                        self.fault(at_fault, f)?;
                    }
                    continue;
                }
            };
            match self.turn(seat) {
                Ok(None) => {}
                Ok(Some(end)) => return Err(end),
                Err((at_fault, f)) => self.fault(at_fault, f)?,
            }
        }
    }

    /// Tells every engine the game begins: `newgame` with its seat, seed, clock and layout.
    fn new_games(&mut self) -> Result<(), End> {
        let seats = self.engines.len();
        let game = self.replay.game();
        let variant = game.variant().map(str::to_owned);
        let id = game.id();
        let seed = self.replay.seed();
        let setup = game.public_setup();
        for seat in 0..seats {
            // A CodeCup engine starts a process per game and is told nothing before `Start`.
            if self.codecup[seat].is_some() {
                continue;
            }
            let mut keys = GameKeys {
                seats: Some(seats),
                seat: Some(seat),
                seed: Some(match &self.config.secret {
                    Some(secret) => secret.engine_seed(self.index, seat),
                    None => engine_seed(seed, self.index, seat),
                }),
                setup: setup.clone(),
                others: self.newgame_keys[seat].clone(),
                ..GameKeys::default()
            };
            self.clocks[seat].control().tell(&mut keys);
            let command = Command::NewGame(NewGame {
                game: id.to_owned(),
                variant: variant.clone(),
                options: keys.into_options(),
            });
            let command = self.probed(command.to_string());
            let deadline = Instant::now() + self.config.startup;
            if let Err(e) = self.engines[seat].request(&command, deadline) {
                self.fault(seat, fault_of(e, self.config.startup))?;
            }
        }
        Ok(())
    }

    /// Plays chance ply `mv` (a card leaving the stock); each engine learns what its seat may see
    /// of it, as information it may ignore.
    fn chance(&mut self, mv: &AnyMove) -> Result<(), End> {
        let game = self.replay.game();
        let views: Vec<String> = (0..self.engines.len())
            .map(|seat| game.visible_text(mv, Viewer::Seat(seat)))
            .collect();
        self.replay
            .play(&mv.to_string())
            .expect("a chance ply the game offers is legal");
        for (seat, view) in views.into_iter().enumerate() {
            if self.replay.is_substituted(seat) {
                continue;
            }
            if let Err(e) = self.engines[seat].inform(&Command::Event(view).to_string()) {
                self.fault(seat, fault_of(e, Duration::ZERO))?;
            }
        }
        Ok(())
    }

    /// Plays the next ply kept by an undo for `actor`, and tells the engines as the first time.
    fn play_again(&mut self, actor: Actor) -> Result<(), End> {
        let Some(ply) = self.redo.pop_front() else {
            return Ok(());
        };
        let index = self.replay.game().ply();
        let Actor::Seat(seat) = actor else {
            let game = self.replay.game();
            let mv = game
                .parse_move(&ply.mv)
                .expect("a ply played before parses");
            return self.chance(&mv);
        };
        let mv = self
            .replay
            .play_again(&ply)
            .expect("a ply played before is legal");
        if index < self.opening_played {
            self.replay.end_opening();
        }
        if let Err((at_fault, f)) = self.tell(seat, &mv.to_string()) {
            self.fault(at_fault, f)?;
        }
        Ok(())
    }

    /// Tells every engine still playing of a round that ended (DOUBLE): `event round N
    /// points=P0,P1,.. totals=T0,T1,..`, what everyone at the table sees when the hands are shown.
    fn tell_rounds(&mut self) -> Result<(), End> {
        let game = self.replay.game();
        let finished = game.rounds_finished();
        if finished == self.rounds_told {
            return Ok(());
        }
        let totals = game.scores();
        let join = |values: &mut dyn Iterator<Item = i64>| {
            values.map(|v| v.to_string()).collect::<Vec<_>>().join(",")
        };
        let points = join(&mut totals.iter().zip(&self.totals_told).map(|(t, b)| t - b));
        let line = format!(
            "event round {finished} points={points} totals={}",
            join(&mut totals.iter().copied())
        );
        self.rounds_told = finished;
        self.totals_told = totals;
        for seat in 0..self.engines.len() {
            if self.replay.is_substituted(seat) {
                continue;
            }
            if let Err(e) = self.engines[seat].inform(&line) {
                self.fault(seat, fault_of(e, Duration::ZERO))?;
            }
        }
        Ok(())
    }

    /// Marks `seat`'s engine for a restart. With `--on-fault substitute` in a game of three or
    /// more seats, the engine is killed and the referee plays on for the seat (`Ok`); otherwise the
    /// fault ends the game (`Err`, so `?` returns it from `play`).
    fn fault(&mut self, seat: usize, mut fault: Fault) -> Result<(), End> {
        self.healthy[seat] = false;
        // A failed start never reaches here: `Pools::take` adds its stderr itself.
        if matches!(
            fault.verdict,
            Verdict::Crash | Verdict::ProtocolError | Verdict::Stall
        ) {
            fault.detail = with_stderr(fault.detail, &mut self.engines[seat]);
        }
        if self.config.on_fault == OnFault::Substitute && self.engines.len() >= 3 {
            self.engines[seat].kill();
            self.replay.substitute(seat, fault.verdict, fault.detail);
            return Ok(());
        }
        Err(End::Verdict {
            seat,
            verdict: fault.verdict,
            detail: fault.detail,
        })
    }

    /// Plays the opening's next ply for `seat`, with no clock running, and tells every engine as
    /// of any ply.
    fn opening_ply(&mut self, seat: usize) -> Result<(), (usize, Fault)> {
        let text = self.opening.ply(
            self.opening_played,
            self.replay.game(),
            &mut self.opening_rng,
        );
        self.opening_played += 1;
        match self.replay.play(&text) {
            Ok(mv) => {
                self.replay.end_opening();
                self.tell(seat, &mv.to_string())
            }
            // Openings are checked against the rules when they are read; should one still not
            // fit, the game goes on from where it stands.
            Err(_) => {
                self.opening_played = self.opening.len();
                Ok(())
            }
        }
    }

    /// Tells every engine still playing that `seat` played `mv`.
    fn tell(&mut self, seat: usize, mv: &str) -> Result<(), (usize, Fault)> {
        let line = Command::Play {
            seat: Some(seat),
            mv: mv.to_owned(),
        }
        .to_string();
        for (other, engine) in self.engines.iter_mut().enumerate() {
            if self.replay.is_substituted(other) {
                continue;
            }
            // A CodeCup engine hears only the other seat's moves, when it is next asked to move.
            if let Some(codecup) = &mut self.codecup[other] {
                if other != seat {
                    codecup.hear(mv);
                }
                continue;
            }
            if let Err(e) = engine.send(&line) {
                return Err((other, fault_of(e, Duration::ZERO)));
            }
        }
        Ok(())
    }

    /// `command` with [`PROBE_KEY`] added when the run sends it.
    fn probed(&self, mut command: String) -> String {
        if self.config.probe_keys {
            command.push(' ');
            command.push_str(PROBE_KEY);
        }
        command
    }

    /// The `genmove` command for `seat`, with its clock and every seat's.
    fn genmove(&self, seat: usize) -> String {
        let clock = &self.clocks[seat];
        let keys = match clock.control() {
            TimeControl::Infinite => ClockKeys::default(),
            TimeControl::MoveTime(time) => ClockKeys {
                movetime: Some(millis(time)),
                ..ClockKeys::default()
            },
            TimeControl::Fischer { .. } => ClockKeys {
                time: Some(millis(clock.remaining())),
                inc: Some(millis(clock.increment())),
                movestogo: clock.moves_to_go().map(u64::from),
                clocks: self.clocks.iter().map(|c| millis(c.remaining())).collect(),
                ..ClockKeys::default()
            },
        };
        self.probed(match keys.any() {
            true => format!("genmove {seat} {keys}"),
            false => format!("genmove {seat}"),
        })
    }

    /// Whether `seat` may ask to take a move back: a human seat, in a game without a clock.
    fn may_undo(&self, seat: usize) -> bool {
        self.human[seat] && self.clocks.iter().all(|c| !c.runs())
    }

    /// Takes `seat`'s last move back (and every ply after it): the game starts again for every
    /// engine (`newgame`), and the plies before that move are played again as they were. With no
    /// move of its own to take back, or where the game cannot start over for every seat (the
    /// referee plays for one, or a CodeCup process, which is never told `newgame`, sits in one),
    /// nothing changes and the seat is asked again.
    fn undo(&mut self, seat: usize) -> Result<(), End> {
        let seats = 0..self.engines.len();
        let restartable = self.codecup.iter().all(Option::is_none)
            && seats.clone().all(|s| !self.replay.is_substituted(s));
        if !restartable {
            return Ok(());
        }
        if let Some(kept) = self.replay.rewind_before_last_of(seat, self.opening_played) {
            self.redo = kept.into();
            self.rounds_told = 0;
            self.totals_told = vec![0; self.engines.len()];
            self.new_games()?;
        }
        Ok(())
    }

    /// Asks `seat` for its move, checks it against the clock and the rules, plays it and tells
    /// every engine. `Ok(Some(end))` when the seat resigns; `Err` names the seat at fault.
    fn turn(&mut self, seat: usize) -> Result<Option<End>, (usize, Fault)> {
        let waited = self.clocks[seat].remaining() + self.config.margin;
        let sent = Instant::now();
        let answer = match &mut self.codecup[seat] {
            Some(codecup) => codecup.ask(&mut self.engines[seat], sent + waited),
            None => {
                let command = self.genmove(seat);
                self.engines[seat].request(&command, sent + waited)
            }
        };
        // The referee's own delay (stopped, frozen, not scheduled) is not the engine's time: its
        // deadline was moved on by it, and its clock is not charged for it.
        let own_delay = self.engines[seat].own_delay();
        let used = sent.elapsed().saturating_sub(own_delay);
        // Helpers an engine started and left (a `setsid` child) are adopted here: reap those
        // that ended as the game goes, so none is left a zombie.
        crate::engine::process::reap_ended_orphans();
        let answer = answer.map_err(|e| {
            let mut fault = fault_of(e, waited);
            if !own_delay.is_zero() {
                let ms = own_delay.as_millis();
                fault
                    .detail
                    .push_str(&format!(" (and {ms} ms the referee itself was held up)"));
            }
            (seat, fault)
        })?;
        let text = answer.trim();
        if text.contains('\n') {
            let detail = format!("answered genmove with several lines: {text:?}");
            return Err((seat, fault(Verdict::ProtocolError, detail)));
        }
        let Ok(answer) = text.parse::<MoveAnswer>();
        match answer {
            MoveAnswer::Resign => return Ok(Some(End::Resignation { seat })),
            // A fault while the engines are told ends the game: `Ok(Some(end))`.
            MoveAnswer::Undo if self.may_undo(seat) => return Ok(self.undo(seat).err()),
            // An undo the game cannot take is read as a move, which it is not.
            _ => {}
        }
        let late = self.clocks[seat]
            .spend(used, self.config.time_margin)
            .map_err(|overrun| (seat, fault(Verdict::TimeLoss, format!("{overrun}: {text}"))))?;
        let mv = match self.replay.play(text) {
            Ok(mv) => mv,
            Err(e @ MoveError::Parse(_)) => {
                return Err((seat, fault(Verdict::UnparseableMove, e.to_string())));
            }
            Err(e @ MoveError::Illegal(_)) => {
                return Err((seat, fault(Verdict::IllegalMove, e.to_string())));
            }
        };
        let clock = &self.clocks[seat];
        self.replay.time_last_ply(
            used,
            clock.runs().then(|| clock.remaining()),
            late,
            own_delay,
        );
        // Every engine, the mover included, hears every ply; their answers are read before the
        // next command each gets, so a slow acknowledgement costs no round trip here.
        self.tell(seat, &mv.to_string())?;
        Ok(None)
    }
}
