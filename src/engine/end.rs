//! An engine's end: its exit reaped and read as a verdict (a stop's signal is no fault), a quit
//! with a grace period, and the kill of its process group and cgroup, which dropping it does too.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill, killpg};
use rustix::event::{PollFd, PollFlags, Timespec, poll};

use crate::engine::command::{EngineError, Exit};
use crate::engine::process;
use crate::engine::talk::Engine;

/// How long an engine whose output closed may take to exit before it counts as alive.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// How long a killed engine is waited for before it counts as held by a tracer.
const KILL_WAIT: Duration = Duration::from_secs(2);
/// How long `quit` may take before the process group is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

impl Engine {
    /// The exit status if the process has ended, reaping it.
    pub(super) fn reap(&mut self) -> Option<ExitStatus> {
        if self.exited.is_none() {
            self.exited = self.child.try_wait().ok().flatten();
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

    /// The exit status if the process ends within `timeout`, reaping it; waits on its pidfd, so
    /// on a kernel without pidfds only an exit already happened is seen.
    pub(super) fn reap_within(&mut self, timeout: Duration) -> Option<ExitStatus> {
        if self.reap().is_none()
            && let Some(pidfd) = &self.pidfd
            && let Ok(timeout) = Timespec::try_from(timeout)
        {
            let mut fds = [PollFd::new(pidfd, PollFlags::IN)];
            while let Err(rustix::io::Errno::INTR) = poll(&mut fds, Some(&timeout)) {}
        }
        self.reap()
    }

    /// The error for an engine that ended with `status`: none of its fault if a stop signal
    /// killed it together with the referee.
    pub(super) fn exited_with(&self, status: ExitStatus) -> EngineError {
        // bubblewrap passes a sandboxed engine's death by signal N on as exit code 128 + N.
        let status = match status.code() {
            Some(code @ 129..=192) if self.sandboxed => ExitStatus::from_raw(code - 128),
            _ => status,
        };
        // A shell or wrapper that dies of a stop signal exits with 128 + the signal: under a job
        // scheduler that signals every process of a job, that is the stop too, not a fault.
        let signal = status.signal().or(match status.code() {
            Some(code @ 129..=192) => Some(code - 128),
            _ => None,
        });
        if signal.is_some_and(crate::engine::process::stopped_with_engine) {
            return EngineError::Stopping;
        }
        EngineError::Exited(Exit {
            status,
            limits: self.limits.explain(status),
        })
    }

    /// Whether the process exits by `deadline` (it is reaped if it does).
    pub fn exits_by(&mut self, deadline: Instant) -> bool {
        if self.pidfd.is_some() {
            return self
                .reap_within(deadline.saturating_duration_since(Instant::now()))
                .is_some();
        }
        // Without a pidfd to wait on, look now and then.
        loop {
            if self.reap().is_some() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Whether the engine is known to have exited or closed its output.
    pub fn is_dead(&self) -> bool {
        self.exited.is_some() || self.stdout.is_none() || self.stdin.is_none()
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
            self.cgroup = None;
        }
    }

    /// [`Engine::kill`] but for the orphans, which the caller reaps before the cgroup goes.
    fn kill_group(&mut self) {
        if self.killed {
            return;
        }
        self.killed = true;
        // The human seat leads no group: the process alone.
        let _ = match self.own_group {
            true => killpg(self.group, Signal::SIGKILL),
            false => kill(self.group, Signal::SIGKILL),
        };
        // And whatever it started that left its session and group.
        if let Some(cgroup) = &self.cgroup {
            cgroup.kill();
        }
        self.stdin = None;
        self.outbox.clear();
        // Bounded: a process held by a tracer that does not let it go is not reaped here (and
        // is reaped as an orphan once free, see `process::reap_within`).
        if self.exited.is_none() {
            self.exits_by(Instant::now() + KILL_WAIT);
        }
        self.drain_stderr();
        process::forget(self.group.as_raw());
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}
