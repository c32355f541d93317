//! The referee's stop, the same on every platform: the list of the running engines' process
//! groups, the graceful stop (finish the games under way, start nothing) and the stop for good
//! (kill every engine), ordered against starts by the list's lock.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The running engines' process groups (an engine's process id leads its group).
pub(super) struct Registry {
    pub(super) groups: Vec<i32>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry { groups: Vec::new() });

/// Whether the referee is stopping. Set with the registry locked, so a start either sees it or
/// is killed by the stop; read without the lock, since every wait on an engine reads it.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// The signal that stopped the referee, if one did.
static STOPPED_BY: AtomicI32 = AtomicI32::new(0);

/// Whether the referee is finishing the games under way before it stops: set by the first stop
/// signal, it starts no engine and no game.
static DRAINING: AtomicBool = AtomicBool::new(false);

/// The list, locked.
pub(super) fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether starts are refused now (a stop of either kind came).
pub(super) fn refusing() -> bool {
    STOPPING.load(Ordering::SeqCst) || DRAINING.load(Ordering::SeqCst)
}

/// Lists `group`, a process just started, unless a stop came meanwhile (checked with the list
/// locked, so that a stop either kills it or is seen here): `false` then, and the caller kills it.
pub(super) fn list(group: i32) -> bool {
    let mut registry = registry();
    if refusing() {
        return false;
    }
    registry.groups.push(group);
    true
}

/// Takes `group` off the list once its process is reaped.
pub fn forget(group: i32) {
    registry().groups.retain(|&g| g != group);
}

/// Stops for good: no engine starts after this, and every engine's process group is killed. Their
/// handles still reap them; a referee that exits right after needs nothing more.
pub fn stop_all() {
    let registry = registry();
    STOPPING.store(true, Ordering::SeqCst);
    for &group in &registry.groups {
        // The human seat leads no group and is not reached here: a stop from the terminal reaches
        // it too, and it dies with the referee where the platform can see to that.
        super::os::kill_group(group);
    }
    super::os::kill_escaped();
}

/// A graceful stop, for the first stop `signal`: no game and no engine starts after it, and the
/// games under way are finished (see [`draining`]). A second signal calls for [`stop_all`].
pub fn begin_draining(signal: i32) {
    STOPPED_BY.store(signal, Ordering::SeqCst);
    // With the registry locked, so that a start sees it or came before.
    let _registry = registry();
    DRAINING.store(true, Ordering::SeqCst);
}

/// Whether a stop signal came: the games under way are being finished, and no other starts.
pub fn draining() -> bool {
    DRAINING.load(Ordering::SeqCst)
}

/// The signal that stopped the referee, if one did.
pub fn stopped_by() -> Option<i32> {
    match STOPPED_BY.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// Whether [`stop_all`] was called.
pub fn stopping() -> bool {
    STOPPING.load(Ordering::SeqCst)
}

/// How long an engine killed by a stop signal may precede the referee's own stop.
const STOP_SKEW: Duration = Duration::from_millis(500);

/// Whether an engine that died of `signal` was most likely stopped together with the referee:
/// a job scheduler (Slurm signals every process of a job) or a terminal sends the same stop
/// signal to the engines as to the referee, and an engine may die of it before the referee's
/// own stop is under way. For the stop signals this waits up to `STOP_SKEW` for that stop
/// (graceful or not), so that such a death is not taken for the engine's fault, and then stops
/// at once: a game whose engines died cannot be finished.
pub fn stopped_with_engine(signal: i32) -> bool {
    if !crate::sys::STOP_SIGNALS.contains(&signal) {
        return stopping();
    }
    let deadline = Instant::now() + STOP_SKEW;
    while !stopping() && !draining() {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // The stop reached the engines too: no game under way can be finished, so stop at once.
    stop_all();
    true
}
