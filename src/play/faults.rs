//! A seat's fault: the verdict an engine's failure earns, with its detail.

use std::time::Duration;

use crate::engine::EngineError;
use crate::play::player::Player;
use crate::records::Verdict;

/// A seat's fault, for the record.
pub(super) struct Fault {
    pub(super) verdict: Verdict,
    pub(super) detail: String,
}

pub(super) fn fault(verdict: Verdict, detail: impl Into<String>) -> Fault {
    Fault {
        verdict,
        detail: detail.into(),
    }
}

/// `detail` with the engine's last stderr lines, which often say why it failed (a traceback).
pub(super) fn with_stderr(detail: String, engine: &mut impl Player) -> String {
    let tail = engine.stderr_tail();
    if tail.is_empty() {
        return detail;
    }
    format!("{detail}; stderr: {}", tail.join(" | "))
}

/// The verdict for an engine that failed to answer as it should; `waited` is how long it had.
pub(super) fn fault_of(error: EngineError, waited: Duration) -> Fault {
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
