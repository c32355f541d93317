//! A running engine process as the conversation sees it on Linux: its pipes (non-blocking, waited
//! on with `poll`, its output also read blocking under a fuse), its pidfd, its process group and
//! cgroup.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout, ExitStatus};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;
use rustix::event::{PollFd, PollFlags, Timespec, poll};

use super::cgroup::EngineCgroup;
use super::spawn::Process;
use crate::engine::ending::Ending;
use crate::engine::pipes::LineBuffer;
use crate::engine::sys::{Ready, Want};

/// An engine's process and the referee's ends of its pipes.
pub struct Child {
    process: Process,
    group: Pid,
    /// Readable when the process has exited; `None` on kernels without pidfds.
    pidfd: Option<OwnedFd>,
    /// Whether `group` is its own process group (every engine but the human seat).
    own_group: bool,
    /// Whether it runs under bubblewrap, which reports a death by signal N as exit code 128 + N.
    sandboxed: bool,
    /// The cgroup holding everything it starts, where the machine gives one.
    cgroup: Option<EngineCgroup>,
    stdin: Option<ChildStdin>,
    stdout: Option<ChildStdout>,
    /// A blocking description of the same pipe, for reads under a fuse (see `fuse`).
    stdout_blocking: Option<OwnedFd>,
    stderr: Option<ChildStderr>,
}

/// Puts our end of a pipe in non-blocking mode: a read or write then never waits, and all the
/// waiting is done by `poll` with the caller's deadline.
fn set_nonblocking(fd: impl AsFd) -> io::Result<()> {
    rustix::io::ioctl_fionbio(fd, true).map_err(io::Error::from)
}

impl Child {
    /// The engine run by `process` (its own group leader unless `terminal`), with the ends of
    /// its input, output and stderr, which are made non-blocking.
    pub(super) fn new(
        process: Process,
        ((stdin, stdout), stderr): ((Option<OwnedFd>, Option<OwnedFd>), OwnedFd),
        terminal: bool,
        sandboxed: bool,
        cgroup: Option<EngineCgroup>,
    ) -> io::Result<Child> {
        let pid = i32::try_from(process.id()).map_err(io::Error::other)?;
        let pidfd = rustix::process::Pid::from_raw(pid).and_then(|p| {
            rustix::process::pidfd_open(p, rustix::process::PidfdFlags::empty()).ok()
        });
        let stdin = stdin.map(ChildStdin::from);
        let stdout = stdout.map(ChildStdout::from);
        let stdout_blocking = (stdout.as_ref()).and_then(|out| super::fuse::reopen(out.as_fd()));
        let stderr = Some(ChildStderr::from(stderr));
        let child = Child {
            process,
            group: Pid::from_raw(pid),
            pidfd,
            own_group: !terminal,
            sandboxed,
            cgroup,
            stdin,
            stdout,
            stdout_blocking,
            stderr,
        };
        let pipes = [
            child.stdin.as_ref().map(set_nonblocking),
            child.stdout.as_ref().map(set_nonblocking),
            child.stderr.as_ref().map(set_nonblocking),
        ];
        for result in pipes.into_iter().flatten() {
            result?;
        }
        Ok(child)
    }

    /// Writes what the input pipe has room for now; `WouldBlock` when it has none.
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self.stdin.as_mut() {
            Some(stdin) => io::Write::write(stdin, bytes),
            None => Ok(0),
        }
    }

    /// Whether its input is open.
    pub fn has_input(&self) -> bool {
        self.stdin.is_some()
    }

    /// Whether its output is open (not yet read to its end).
    pub fn has_output(&self) -> bool {
        self.stdout.is_some()
    }

    /// Closes its input.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits up to `timeout` for `want`, its stderr or its exit: which of the three are ready, or
    /// `None` when the pipe `want` needs is closed. An interrupted wait is `Interrupted`.
    pub fn ready(&self, want: Want, timeout: Duration) -> io::Result<Option<Ready>> {
        let (main, main_flags) = match want {
            Want::Output => (self.stdout.as_ref().map(|p| p.as_fd()), PollFlags::IN),
            Want::Room => (self.stdin.as_ref().map(|p| p.as_fd()), PollFlags::OUT),
        };
        let Some(main) = main else {
            return Ok(None);
        };
        let timeout = Timespec::try_from(timeout).unwrap_or(Timespec {
            tv_sec: 0,
            tv_nsec: 50_000_000,
        });
        // At most three descriptors, in an array (a wait costs no allocation); the slots past
        // `len` are never polled.
        let first = PollFd::from_borrowed_fd(main, main_flags);
        let mut fds = [first.clone(), first.clone(), first];
        let mut len = 1;
        let stderr_at = self.stderr.as_ref().map(|err| {
            fds[len] = PollFd::new(err, PollFlags::IN);
            len += 1;
            len - 1
        });
        let pidfd_at = self.pidfd.as_ref().map(|fd| {
            fds[len] = PollFd::new(fd, PollFlags::IN);
            len += 1;
            len - 1
        });
        let fds = &mut fds[..len];
        poll(fds, Some(&timeout)).map_err(io::Error::from)?;
        let ready = |i: usize| !fds[i].revents().is_empty();
        let exited = pidfd_at.is_some_and(ready);
        // A poll looks at its descriptors one after another: the exit may be seen after the
        // output was looked at, and what was written before the exit is there now.
        let main = ready(0) || (exited && poll_now(main, main_flags));
        Ok(Some(Ready {
            main,
            err: stderr_at.is_some_and(ready),
            exited,
        }))
    }

    /// Reads what its output has now into `into`, without waiting; at its end (`Ok(false)`) the
    /// output is closed.
    pub fn read_output(&mut self, into: &mut LineBuffer) -> io::Result<bool> {
        let Some(stdout) = self.stdout.as_mut() else {
            return Ok(false);
        };
        let open = into.fill(stdout)?;
        if !open {
            (self.stdout, self.stdout_blocking) = (None, None);
        }
        Ok(open)
    }

    /// One blocking read of its output into `into` under the thread's fuse (see `fuse`): `None`
    /// when no read was made (the fuse would burn past `deadline`, or there is no blocking
    /// description); else whether the output is still open, and when the fuse was due.
    pub fn read_output_fused(
        &mut self,
        into: &mut LineBuffer,
        deadline: Instant,
    ) -> Option<(io::Result<bool>, Option<Instant>)> {
        let (Some(_), Some(fd)) = (&self.stdout, &self.stdout_blocking) else {
            return None;
        };
        let mut fused = Fused {
            fd: fd.as_fd(),
            deadline,
            until: None,
        };
        let filled = into.fill(&mut fused);
        let until = fused.until;
        if let Ok(false) = filled {
            (self.stdout, self.stdout_blocking) = (None, None);
        }
        Some((filled, until))
    }

    /// Reads what its stderr has now into `into`, without waiting; `false` once it is closed (at
    /// its end or on an error).
    pub fn read_stderr(&mut self, into: &mut LineBuffer) -> bool {
        let Some(stderr) = self.stderr.as_mut() else {
            return false;
        };
        let open = matches!(into.fill(stderr), Ok(true));
        if !open {
            self.stderr = None;
        }
        open
    }

    /// Whether its stderr is open.
    pub fn has_stderr(&self) -> bool {
        self.stderr.is_some()
    }

    /// How it ended, if it has (reaping it).
    pub fn try_wait(&mut self) -> Option<Ending> {
        let status = self.process.try_wait().ok().flatten()?;
        Some(self.ending(status))
    }

    /// How it ended, waiting up to `timeout` for its end (on its pidfd; polled now and then
    /// without one).
    pub fn wait_within(&mut self, timeout: Duration) -> Option<Ending> {
        if let Some(ending) = self.try_wait() {
            return Some(ending);
        }
        let deadline = Instant::now() + timeout;
        if let Some(pidfd) = &self.pidfd {
            if let Ok(timeout) = Timespec::try_from(timeout) {
                let mut fds = [PollFd::new(pidfd, PollFlags::IN)];
                while let Err(rustix::io::Errno::INTR) = poll(&mut fds, Some(&timeout)) {}
            }
            return self.try_wait();
        }
        crate::engine::sys::poll_ended(deadline, || self.try_wait())
    }

    /// `status` as every platform says it: bubblewrap passes a sandboxed engine's death by
    /// signal N on as exit code 128 + N.
    fn ending(&self, status: ExitStatus) -> Ending {
        match status.code() {
            Some(code @ 129..=192) if self.sandboxed => Ending::Signal(code - 128),
            _ => crate::engine::sys::ending(status),
        }
    }

    /// Kills its process group and whatever it started that left it (its cgroup), closes its
    /// input, and takes its group off the referee's list.
    pub fn kill(&mut self) {
        // The human seat leads no group: the process alone.
        let _ = match self.own_group {
            true => killpg(self.group, Signal::SIGKILL),
            false => kill(self.group, Signal::SIGKILL),
        };
        if let Some(cgroup) = &self.cgroup {
            cgroup.kill();
        }
        self.stdin = None;
    }

    /// Takes its group off the referee's list once it is reaped or given up on.
    pub fn forget(&self) {
        super::process::forget(self.group.as_raw());
    }

    /// Lets its cgroup go (once its processes are reaped).
    pub fn release(&mut self) {
        self.cgroup = None;
    }

    /// Whether it can be frozen (it has a cgroup).
    pub fn freezable(&self) -> bool {
        self.cgroup.is_some()
    }

    /// Freezes (or thaws) everything it started; whether it is frozen now.
    pub fn freeze(&self, frozen: bool) -> bool {
        self.cgroup.as_ref().is_some_and(|c| c.freeze(frozen))
    }

    /// The CPU time all its processes have used so far, where it has a cgroup.
    pub fn cpu_time(&self) -> Option<Duration> {
        self.cgroup.as_ref()?.cpu_usage()
    }
}

/// The engine's output read through [`super::fuse::read`]: a read not made is `WouldBlock`.
struct Fused<'a> {
    fd: std::os::fd::BorrowedFd<'a>,
    deadline: Instant,
    /// When the fuse of the read made was due.
    until: Option<Instant>,
}

impl io::Read for Fused<'_> {
    fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
        match super::fuse::read(self.fd, into, self.deadline) {
            Some((read, until)) => {
                self.until = Some(until);
                read
            }
            None => Err(io::ErrorKind::WouldBlock.into()),
        }
    }
}

/// Whether `fd` is ready for `flags` now, without waiting.
fn poll_now(fd: BorrowedFd<'_>, flags: PollFlags) -> bool {
    let mut fds = [PollFd::from_borrowed_fd(fd, flags)];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    poll(&mut fds, Some(&now)).is_ok_and(|_| !fds[0].revents().is_empty())
}
