//! The engine processes of a run: started with their handshake, kept idle between games, and
//! reused by the next game that may use them.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crate::engine::sandbox::Sandbox;
use crate::engine::{Begun, Engine, Transcript};
use crate::play::codecup::{self};
use crate::play::config::{MatchConfig, MatchError};
use crate::play::spec::Proto;
use crate::records::Verdict;

use crate::play::faults::{Fault, fault, fault_of, with_stderr};

/// Idle engine processes, one pool per engine spec, reused from game to game, and whether each
/// spec ever finished its handshake.
pub(super) struct Pools {
    pub(super) idle: Vec<Mutex<Vec<Pooled>>>,
    pub(super) started: Vec<AtomicBool>,
    /// The run's sandbox, when an engine asks for one.
    pub(super) sandbox: Option<Sandbox>,
    /// Whether a process must never play two games of one seed group: duplicate play of a game
    /// with hidden information, where a process that remembers would know the deal.
    pub(super) fresh_per_group: bool,
}

/// An engine process and the seed groups it has played.
pub(super) struct Pooled {
    pub(super) engine: Engine,
    pub(super) groups: Vec<usize>,
}

/// Why no engine could be taken from a pool.
pub(super) struct NotStarted {
    /// The fault, for the game's record.
    pub(super) fault: Fault,
    /// Whether the engine never started in this run: its command is wrong, and the run stops.
    pub(super) never: bool,
}

/// A new engine whose process is starting, with the deadline of its handshake.
pub(super) struct Beginning {
    begun: Begun,
    deadline: Instant,
}

/// An engine being taken from a pool: an idle one, or one just started whose handshake is due.
pub(super) enum Taking {
    Idle(Pooled),
    Starting { engine: Engine, deadline: Instant },
}

impl Pools {
    /// Empty pools for `config`'s engines, with the run's sandbox when one asks for it; a game
    /// that `hides_information`, played in duplicate, never gives one process two games of a
    /// deal.
    pub(super) fn new(config: &MatchConfig, hides_information: bool) -> Result<Pools, MatchError> {
        Ok(Pools {
            idle: config.engines.iter().map(|_| Mutex::default()).collect(),
            started: (config.engines.iter())
                .map(|_| AtomicBool::new(false))
                .collect(),
            fresh_per_group: config.repeat && hides_information,
            sandbox: match config.engines.iter().any(|e| e.command.sandbox) {
                true => Some(sandbox_of(config)?),
                false => None,
            },
        })
    }

    /// An idle engine of `spec` that may play a game of `group` on `cpu` (the one CPU it runs on,
    /// with `--use-affinity`), if there is one; its traffic goes to `transcript`.
    pub(super) fn take_idle(
        &self,
        spec: usize,
        (group, cpu): (usize, Option<usize>),
        transcript: Option<&Transcript>,
    ) -> Option<Taking> {
        let idle = {
            let mut idle = self.idle[spec]
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let fits = |p: &Pooled| {
                p.engine.cpu() == cpu && !(self.fresh_per_group && p.groups.contains(&group))
            };
            idle.iter().rposition(fits).map(|at| idle.swap_remove(at))
        };
        let mut pooled = idle?;
        pooled.engine.set_transcript(transcript.cloned());
        Some(Taking::Idle(pooled))
    }

    /// A new engine of `spec` on `cpu` begun: its process handed to a starter thread, not waited
    /// for (see [`Pools::start_begun`]), so that a game's engines start side by side; its traffic
    /// goes to `transcript`.
    pub(super) fn begin_new(
        &self,
        config: &MatchConfig,
        spec: usize,
        cpu: Option<usize>,
        transcript: Option<&Transcript>,
    ) -> Result<Beginning, NotStarted> {
        let sandbox = self.sandbox.as_ref().map(|s| (s, spec));
        let engine_spec = &config.engines[spec];
        let mut command = engine_spec.command.clone();
        command.cpu = cpu;
        if engine_spec.proto == Proto::CodeCup {
            // A process per game, told its time in its command; there is no handshake.
            command.command =
                codecup::command_for(engine_spec, engine_spec.tc.unwrap_or(config.tc));
        }
        let deadline = Instant::now() + config.startup;
        let begun = Engine::begin(&command, sandbox, transcript.cloned())
            .map_err(|e| self.failed(spec, e.to_string()))?;
        Ok(Beginning { begun, deadline })
    }

    /// The engine [`Pools::begin_new`] began, once its process has exec'd, its handshake sent but
    /// not yet answered (see [`Pools::finish`]).
    pub(super) fn start_begun(
        &self,
        config: &MatchConfig,
        spec: usize,
        Beginning { begun, deadline }: Beginning,
    ) -> Result<Taking, NotStarted> {
        let mut engine = begun
            .finish()
            .map_err(|e| self.failed(spec, e.to_string()))?;
        if config.engines[spec].proto != Proto::CodeCup {
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

    /// The engine [`Pools::take_idle`] or [`Pools::start_begun`] took, its handshake answered.
    pub(super) fn finish(
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
    pub(super) fn failed(&self, spec: usize, detail: String) -> NotStarted {
        NotStarted {
            fault: fault(Verdict::FailedToStart, detail),
            never: !self.started[spec].load(Ordering::Relaxed),
        }
    }

    pub(super) fn give_back(&self, spec: usize, mut pooled: Pooled, group: usize) {
        if self.fresh_per_group {
            pooled.groups.push(group);
        }
        self.idle[spec]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
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

/// Asks every idle engine to quit (and kills it).
pub(super) fn quit_idle(pools: Pools) {
    let engines = pools
        .idle
        .into_iter()
        .flat_map(|pool| pool.into_inner().unwrap_or_else(PoisonError::into_inner))
        .map(|pooled| pooled.engine)
        .collect();
    Engine::quit_all(engines);
}
