//! An engine's end: its exit reaped and read as a verdict (a stop's signal is no fault), a quit
//! with a grace period, and the kill of its process group and cgroup, which dropping it does too.

use std::time::{Duration, Instant};

use crate::engine::command::{EngineError, Exit};
use crate::engine::ending::Ending;
use crate::engine::sys::process;
use crate::engine::talk::Engine;

/// How long an engine whose output closed may take to exit before it counts as alive.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// How long a killed engine is waited for before it counts as held by a tracer.
const KILL_WAIT: Duration = Duration::from_secs(2);
/// How long `quit` may take before the process group is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

impl Engine {
    /// The exit status if the process has ended, reaping it.
    pub(super) fn reap(&mut self) -> Option<Ending> {
        if self.exited.is_none() {
            self.exited = self.child.try_wait();
        }
        self.exited
    }

    /// After its input or output closed: the exit if the process ends within a grace period,
    /// otherwise `alive`.
    pub(super) fn dead_or(&mut self, alive: EngineError) -> EngineError {
        match self.reap_within(EXIT_GRACE) {
            Some(status) => self.exited_with(status),
            None => alive,
        }
    }

    /// How the process ended if it ends within `timeout`, reaping it.
    pub(super) fn reap_within(&mut self, timeout: Duration) -> Option<Ending> {
        if self.exited.is_none() {
            self.exited = self.child.wait_within(timeout);
        }
        self.exited
    }

    /// The error for an engine that ended so: none of its fault if a stop signal killed it
    /// together with the referee.
    pub(super) fn exited_with(&self, ending: Ending) -> EngineError {
        // A shell or wrapper that dies of a stop signal exits with 128 + the signal: under a job
        // scheduler that signals every process of a job, that is the stop too, not a fault.
        let signal = match ending {
            Ending::Signal(signal) => Some(signal),
            Ending::Code(code @ 129..=192) => Some(code - 128),
            _ => None,
        };
        if signal.is_some_and(process::stopped_with_engine) {
            return EngineError::Stopping;
        }
        EngineError::Exited(Exit {
            ending,
            limits: self.limits.explain(ending),
        })
    }

    /// Whether the process exits by `deadline` (it is reaped if it does).
    pub fn exits_by(&mut self, deadline: Instant) -> bool {
        (self.reap_within(deadline.saturating_duration_since(Instant::now()))).is_some()
    }

    /// Whether the engine is known to have exited or closed its output.
    pub fn is_dead(&self) -> bool {
        self.exited.is_some() || !self.child.has_output() || !self.child.has_input()
    }

    /// Asks the engine to quit, then kills its process group whatever it did.
    pub fn quit(self) {
        Engine::quit_all(vec![self]);
    }

    /// Asks every engine to quit, and then waits for their answers (all within one grace
    /// period: they end side by side, not one after another) and kills their process groups
    /// whatever they did.
    pub fn quit_all(mut engines: Vec<Engine>) {
        let asked: Vec<bool> = engines
            .iter_mut()
            .map(|engine| !engine.is_dead() && engine.send("quit").is_ok())
            .collect();
        let deadline = Instant::now() + QUIT_GRACE;
        for (engine, asked) in engines.iter_mut().zip(asked) {
            if asked {
                let _ = engine.settle(deadline);
            }
            engine.kill_group();
        }
        // What they left behind, looked for once for all; their cgroups go with them after.
        process::reap_orphans();
    }

    /// Kills the engine's process group and reaps it and the orphans it left; later commands fail
    /// as if it had exited.
    pub fn kill(&mut self) {
        if !self.killed {
            self.kill_group();
            // Its children, now orphans, were handed to this process (see
            // `process::adopt_orphans`).
            process::reap_orphans();
            // Its cgroup goes once empty.
            self.child.release();
        }
    }

    /// [`Engine::kill`] but for the orphans, which the caller reaps before the cgroup goes.
    fn kill_group(&mut self) {
        if self.killed {
            return;
        }
        self.killed = true;
        // Its process group, and whatever it started that left it.
        self.child.kill();
        self.outbox.clear();
        // Bounded: a process held by a tracer that does not let it go is not reaped here (and
        // is reaped as an orphan once free, see `process::reap_within`).
        if self.exited.is_none() {
            self.exits_by(Instant::now() + KILL_WAIT);
        }
        self.drain_stderr();
        self.child.forget();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}
