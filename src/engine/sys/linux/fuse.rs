//! A blocking read of an engine's output under a fuse: the referee sleeps inside the read, as a
//! bare driver does, and a per-thread timer's signal ends the read should no answer come.
//!
//! Why: waiting with `ppoll` and then reading costs the referee more at every ply
//! than one blocking `read` (measured with the bare-driver method). A blocking read has no
//! deadline of its own, so it gets one: the thread's timer burns a fuse of at most [`FUSE`], and
//! its signal handler makes the descriptor being read non-blocking, which ends the read (at
//! once, or as soon as it starts). Past the fuse, the caller waits with `ppoll` as before, which
//! also drains stderr and sees the engine's exit.
//!
//! Race-free: the descriptor is named to the handler before the fuse is checked, and a timer
//! never burns before its time; so either the signal comes after the name (and ends the read),
//! or the fuse had burned before the check (and the read is not made).

// The system room: its `unsafe` blocks each say why they are sound.
#![allow(unsafe_code)]

use std::cell::{Cell, RefCell};
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, Signal};
use nix::sys::timer::{Expiration, Timer, TimerSetTimeFlags};

/// The longest one fused read may block: an engine blocked on a full stderr pipe meanwhile (the
/// referee drains it only while it polls) waits at most this long.
pub const FUSE: Duration = Duration::from_millis(5);

/// The signal the thread's timer sends: ignored by default, used by nothing else here, and reset
/// for the engines by `exec`.
const SIGNAL: Signal = Signal::SIGURG;

thread_local! {
    /// The descriptor a read on this thread is making or about to make, else -1: the one the
    /// signal handler makes non-blocking.
    static READING: Cell<RawFd> = const { Cell::new(-1) };
    /// This thread's timer, and when its fuse burns.
    static TIMER: RefCell<Option<(Timer, Instant)>> = const { RefCell::new(None) };
}

/// The handler: makes the descriptor being read non-blocking. Only `fcntl` (async-signal-safe),
/// `errno` kept as it was.
extern "C" fn burn(_: nix::libc::c_int) {
    let errno = nix::errno::Errno::last_raw();
    if let Ok(fd) = READING.try_with(Cell::get)
        && fd >= 0
    {
        // SAFETY: fcntl on a descriptor number is async-signal-safe; the descriptor is open (it
        // is named only while its owner reads it).
        unsafe { nix::libc::fcntl(fd, nix::libc::F_SETFL, nix::libc::O_NONBLOCK) };
    }
    nix::errno::Errno::set_raw(errno);
}

/// Installs the handler once; `false` if it could not be (then no read is fused).
fn handler_installed() -> bool {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    *INSTALLED.get_or_init(|| {
        // No SA_RESTART: the read must end, not resume.
        let action = SigAction::new(SigHandler::Handler(burn), SaFlags::empty(), SigSet::empty());
        // SAFETY: the handler is async-signal-safe (see `burn`).
        unsafe { nix::sys::signal::sigaction(SIGNAL, &action) }.is_ok()
    })
}

/// A second, blocking description of the pipe `out` reads (its own `O_NONBLOCK` flag), for fused
/// reads; `None` where `/proc` does not give one.
pub fn reopen(out: BorrowedFd<'_>) -> Option<OwnedFd> {
    let path = format!("/proc/self/fd/{}", out.as_raw_fd());
    // Opened non-blocking, so that it never waits for a writer; the first read makes it
    // blocking.
    let flags =
        rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::CLOEXEC;
    rustix::fs::open(path, flags, rustix::fs::Mode::empty()).ok()
}

/// One read of `fd` into `into`, blocking until something comes, the end of the output, or the
/// fuse; not made (`None`) when the fuse would burn after `deadline`. `Some(Ok(0))` is the end;
/// a burned fuse is `Some(Err(WouldBlock or Interrupted))`. Also returns when the fuse was due.
pub fn read(
    fd: BorrowedFd<'_>,
    into: &mut [u8],
    deadline: Instant,
) -> Option<(io::Result<usize>, Instant)> {
    if !handler_installed() {
        return None;
    }
    let now = Instant::now();
    let until = TIMER
        .try_with(|timer| light(&mut timer.borrow_mut(), now))
        .ok()
        .flatten()?;
    if until > deadline {
        return None;
    }
    let _ = READING.try_with(|reading| reading.set(fd.as_raw_fd()));
    // After the name: a fuse that burns from here on ends the read.
    let mut read = None;
    for _ in 0..2 {
        if Instant::now() >= until {
            break;
        }
        let made = rustix::io::read(fd, &mut *into);
        // Non-blocking with the fuse not burned: a fuse burned after an earlier read left it
        // so. Made blocking again (a system call only then), and read once more.
        if made == Err(rustix::io::Errno::AGAIN) && read.is_none() && Instant::now() < until {
            read = Some(made);
            if rustix::io::ioctl_fionbio(fd, false).is_ok() {
                continue;
            }
        }
        read = Some(made);
        break;
    }
    let _ = READING.try_with(|reading| reading.set(-1));
    read.map(|read| (read.map_err(io::Error::from), until))
}

/// When this thread's fuse burns: lit anew when less than half of it is left (the timer made on
/// first use); `None` if there is no timer.
fn light(timer: &mut Option<(Timer, Instant)>, now: Instant) -> Option<Instant> {
    if timer.is_none() {
        *timer = Some((thread_timer()?, now));
    }
    let (timer, until) = timer.as_mut()?;
    if until.saturating_duration_since(now) < FUSE / 2 {
        timer
            .set(Expiration::OneShot(FUSE.into()), TimerSetTimeFlags::empty())
            .ok()?;
        *until = now + FUSE;
    }
    Some(*until)
}

/// A timer that signals this thread alone, where the C library offers one (glibc); elsewhere
/// (musl) none, and reads are not fused: the caller waits with `ppoll`, the portable path.
fn thread_timer() -> Option<Timer> {
    #[cfg(target_env = "gnu")]
    {
        use nix::sys::signal::{SigEvent, SigevNotify};
        use nix::time::ClockId;
        let notify = SigevNotify::SigevThreadId {
            signal: SIGNAL,
            thread_id: nix::unistd::gettid().as_raw(),
            si_value: 0,
        };
        Timer::new(ClockId::CLOCK_MONOTONIC, SigEvent::new(notify)).ok()
    }
    #[cfg(not(target_env = "gnu"))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_env = "gnu")]
    use std::io::Write;
    use std::os::fd::AsFd;
    use std::time::{Duration, Instant};

    #[cfg(target_env = "gnu")]
    use super::FUSE;
    use super::{read, reopen};

    /// Without a thread timer (musl) no read is fused: each is left to the caller's `ppoll`.
    #[cfg(not(target_env = "gnu"))]
    #[test]
    fn without_a_thread_timer_no_read_is_made() {
        let (out, _engine) = std::io::pipe().unwrap();
        let blocking = reopen(out.as_fd()).expect("a blocking description through /proc");
        let far = Instant::now() + Duration::from_secs(600);
        assert!(read(blocking.as_fd(), &mut [0u8; 64], far).is_none());
    }

    /// The attack on the fuse is an engine that never answers: the read must end by itself, and
    /// a read whose fuse would burn past the deadline must not be made. Margins of seconds: a
    /// busy machine only makes the fuse later, never the read endless.
    #[cfg(target_env = "gnu")]
    #[test]
    fn a_silent_pipe_ends_the_read_by_its_fuse_and_an_answer_is_read() {
        let (out, mut engine) = std::io::pipe().unwrap();
        let blocking = reopen(out.as_fd()).expect("a blocking description through /proc");
        let far = Instant::now() + Duration::from_secs(600);
        let mut into = [0u8; 64];
        let began = Instant::now();
        let mut burned = 0;
        while burned < 3 {
            // Not made only when the thread was held up past half a fuse between its steps.
            let Some((made, until)) = read(blocking.as_fd(), &mut into, far) else {
                continue;
            };
            let ended = made.expect_err("nothing was written").kind();
            assert!(
                matches!(
                    ended,
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
                ),
                "{ended:?}"
            );
            // It ended by its fuse, and no sooner.
            assert!(Instant::now() >= until && until <= Instant::now() + FUSE);
            burned += 1;
        }
        assert!(began.elapsed() < Duration::from_secs(5));
        // After burned fuses left it non-blocking, what comes is still waited for and read.
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(1));
            engine.write_all(b"=1 D2\n\n").unwrap();
            engine
        });
        let mut got = Vec::new();
        while got.len() < 7 {
            if let Some((Ok(n), _)) = read(blocking.as_fd(), &mut into, far) {
                got.extend_from_slice(&into[..n]);
            }
        }
        assert_eq!(got, b"=1 D2\n\n");
        // Too near the deadline for a fuse: polled instead.
        let near = Instant::now() + Duration::from_micros(100);
        assert!(read(blocking.as_fd(), &mut into, near).is_none());
        // The end of the output is read as such.
        drop(writer.join().unwrap());
        let end = loop {
            if let Some((made, _)) = read(blocking.as_fd(), &mut into, far) {
                break made.unwrap();
            }
        };
        assert_eq!(end, 0);
    }
}
