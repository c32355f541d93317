//! What the turn loop needs of a seat's engine: the engine process, or, in the turn loop's own
//! tests, an engine played in-process that needs no Python and no process.

use std::time::{Duration, Instant};

use crate::engine::{Engine, EngineError};
use crate::protocol::Info;

/// A seat's engine as the turn loop (`play::table`) speaks to it.
pub(crate) trait Player {
    /// Holds a command whose answer is read later (by [`Player::request`] or the next game), to
    /// go with the next write (see [`Engine::hold`]).
    fn hold(&mut self, command: &str) -> Result<u64, EngineError>;
    /// Holds a command whose answer is read later and may be a refusal (see [`Engine::inform`]).
    fn hold_inform(&mut self, command: &str) -> Result<u64, EngineError>;
    /// Writes the commands held, in one write.
    fn send_held(&mut self) -> Result<(), EngineError>;
    /// Sends a command and reads its answer (and every one still due) by `deadline`.
    fn request(&mut self, command: &str, deadline: Instant) -> Result<String, EngineError>;
    /// Writes one line without framing (the CodeCup protocol).
    fn write_line(&mut self, line: &str) -> Result<(), EngineError>;
    /// Reads one line without framing by `deadline` (the CodeCup protocol).
    fn read_plain_line(&mut self, deadline: Instant) -> Result<String, EngineError>;
    /// How long the referee itself was held up while it waited for the last answer.
    fn own_delay(&self) -> Duration;
    /// What it said of its thinking (`info`) before the last answer.
    fn take_info(&mut self) -> Option<Info>;
    /// Ends the engine; later commands fail.
    fn kill(&mut self);
    /// The engine's last lines on stderr.
    fn stderr_tail(&mut self) -> Vec<String>;
    /// The CPU time all its processes have used so far, where the machine measures it.
    fn cpu_time(&self) -> Option<Duration>;
    /// Ends the next waits for an answer once it has used `budget` more CPU time (a CPU clock).
    fn limit_cpu(&mut self, budget: Option<Duration>);
}

impl Player for Engine {
    fn hold(&mut self, command: &str) -> Result<u64, EngineError> {
        Engine::hold(self, command)
    }
    fn hold_inform(&mut self, command: &str) -> Result<u64, EngineError> {
        Engine::hold_inform(self, command)
    }
    fn send_held(&mut self) -> Result<(), EngineError> {
        Engine::send_held(self)
    }
    fn request(&mut self, command: &str, deadline: Instant) -> Result<String, EngineError> {
        Engine::request(self, command, deadline)
    }
    fn write_line(&mut self, line: &str) -> Result<(), EngineError> {
        Engine::write_line(self, line)
    }
    fn read_plain_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        Engine::read_plain_line(self, deadline)
    }
    fn own_delay(&self) -> Duration {
        Engine::own_delay(self)
    }
    fn take_info(&mut self) -> Option<Info> {
        Engine::take_info(self)
    }
    fn kill(&mut self) {
        Engine::kill(self);
    }
    fn stderr_tail(&mut self) -> Vec<String> {
        Engine::stderr_tail(self)
    }
    fn cpu_time(&self) -> Option<Duration> {
        Engine::cpu_time(self)
    }
    fn limit_cpu(&mut self, budget: Option<Duration>) {
        Engine::limit_cpu(self, budget);
    }
}
