//! Each contained engine's processes (see `start.rs`) in a cgroup (v2) of their own, where the
//! machine lets the referee make one: killed together (`cgroup.kill`) when the engine ends, when the referee stops, and when the
//! referee dies by any signal, SIGKILL included, whatever sessions they left; and bounded together
//! (`memory.max`, `pids.max`) where those controllers are on.
//!
//! The referee makes `referee-PID` under its own cgroup and one `engine-N` in it per engine. A
//! child process of its own, the janitor, waits on a pipe only the referee holds: the kernel closes
//! it when the referee dies, however it dies, and the janitor then kills `referee-PID` whole. A
//! later referee removes what a dead one left (`referee-PID` of a process that is gone).

// The system room: its `unsafe` blocks each say why they are sound.
#![allow(unsafe_code)]

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nix::libc;

use crate::engine::limits::Limits;

/// The referee's cgroup for its engines.
pub struct Cgroups {
    base: PathBuf,
    /// Whether the engines' cgroups have the memory controller (`memory.max`).
    memory: bool,
    /// Whether they have the pids controller (`pids.max`).
    pids: bool,
    next: AtomicU64,
    janitor: i32,
    /// The write end of the janitor's pipe, open for as long as the referee lives.
    _lifeline: OwnedFd,
}

static CGROUPS: OnceLock<Result<Cgroups, String>> = OnceLock::new();

/// The referee's cgroups, made on first use; `Err` says why there are none.
pub fn cgroups() -> Result<&'static Cgroups, &'static str> {
    CGROUPS
        .get_or_init(|| Cgroups::open().map_err(std::string::ToString::to_string))
        .as_ref()
        .map_err(String::as_str)
}

/// The janitor's process id, if there is one: it is the referee's child but no orphan.
pub fn janitor() -> Option<i32> {
    CGROUPS.get()?.as_ref().ok().map(|c| c.janitor)
}

/// What holds the engines' processes together, in a sentence for the start of a run.
pub fn describe() -> String {
    match cgroups() {
        Ok(c) => {
            let limits = match (c.memory, c.pids) {
                (true, true) => {
                    "mem= and procs= bound all its processes together (memory.max, pids.max)"
                }
                (true, false) => {
                    "mem= bounds all its processes together (memory.max); no pids controller, procs= counts per user"
                }
                (false, true) => {
                    "procs= bounds all its processes together (pids.max); no memory controller, mem= is per process"
                }
                (false, false) => {
                    "no memory or pids controller: mem= is per process, procs= per user"
                }
            };
            format!(
                "each engine in a cgroup of its own under {} (killed whole at game end and when the \
                 referee dies; frozen while it owes no answer, unless ponder=yes); {limits}",
                c.base.display()
            )
        }
        Err(why) => format!(
            "no cgroup ({why}): orphans are reaped by the referee; engines are not frozen while \
             others think; mem= is per process, procs= per user"
        ),
    }
}

/// Kills every engine process in the referee's cgroups (a stop).
pub fn kill_all() {
    if let Some(Ok(cgroups)) = CGROUPS.get() {
        kill(&cgroups.base);
    }
}

/// Kills what is left in the referee's cgroups and removes them, at the end of a run; the janitor,
/// with nothing left to do, is ended and reaped (left to exit by itself it would be a zombie
/// until init reaps it).
pub fn release() {
    if let Some(Ok(cgroups)) = CGROUPS.get() {
        discard(&cgroups.base, Duration::from_secs(1));
        let janitor = nix::unistd::Pid::from_raw(cgroups.janitor);
        let _ = nix::sys::signal::kill(janitor, nix::sys::signal::Signal::SIGKILL);
        let _ = nix::sys::wait::waitpid(janitor, None);
    }
}

/// One engine's cgroup.
pub struct EngineCgroup {
    dir: PathBuf,
    procs: OwnedFd,
    /// Its `cgroup.freeze`, open for the engine's life: written at every turn (see
    /// [`EngineCgroup::freeze`]); `None` on a kernel without it (before 5.2).
    freeze: Option<fs::File>,
    /// Its `cpu.stat`, open for the engine's life: the CPU time of all its processes.
    cpu_stat: Option<fs::File>,
}

impl EngineCgroup {
    /// A descriptor of its `cgroup.procs`: the engine's process writes `0` to it before it runs
    /// (see [`join`]), so that everything it starts is inside from the first instruction.
    pub fn procs_fd(&self) -> RawFd {
        self.procs.as_raw_fd()
    }

    /// Kills every process in it.
    pub fn kill(&self) {
        kill(&self.dir);
    }

    /// Freezes every process in it (`frozen`), or thaws them: a frozen process gets no CPU and
    /// makes no progress, whatever session it moved to, until thawed; a kill still ends it.
    /// Whether the kernel took the request.
    pub fn freeze(&self, frozen: bool) -> bool {
        use std::os::unix::fs::FileExt;
        let Some(file) = &self.freeze else {
            return false;
        };
        let byte: &[u8] = if frozen { b"1" } else { b"0" };
        file.write_at(byte, 0).is_ok_and(|n| n == 1)
    }

    /// The CPU time all its processes have used so far (`usage_usec` of `cpu.stat`, which the
    /// kernel keeps for every cgroup, with or without the cpu controller).
    pub fn cpu_usage(&self) -> Option<Duration> {
        use std::os::unix::fs::FileExt;
        let mut text = [0u8; 512];
        let n = self.cpu_stat.as_ref()?.read_at(&mut text, 0).ok()?;
        let text = std::str::from_utf8(text.get(..n)?).ok()?;
        let micros = text.lines().find_map(|l| l.strip_prefix("usage_usec "))?;
        micros.trim().parse().ok().map(Duration::from_micros)
    }
}

impl Drop for EngineCgroup {
    fn drop(&mut self) {
        // Killed processes leave the cgroup as they exit, a moment later; a directory still busy
        // then is removed with the rest at the end of the run.
        discard(&self.dir, Duration::from_millis(50));
    }
}

/// Moves the calling process into the cgroup whose `cgroup.procs` is open as `procs`. Runs in the
/// engine's child before its exec (see `spawn`): one `write`, no allocation.
pub fn join(procs: RawFd) -> io::Result<()> {
    // SAFETY: writes one byte from a static buffer to a descriptor the caller owns.
    match unsafe { libc::write(procs, b"0".as_ptr().cast(), 1) } {
        1 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

impl Cgroups {
    /// A cgroup for one engine, with `limits`' memory and process counts where the controllers
    /// are on.
    pub fn engine(&self, limits: &Limits) -> io::Result<EngineCgroup> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let dir = self.base.join(format!("engine-{n}"));
        fs::create_dir(&dir)?;
        let made = || -> io::Result<EngineCgroup> {
            if let (true, Some(bytes)) = (self.memory, limits.memory) {
                fs::write(dir.join("memory.max"), bytes.to_string())?;
                // Swap would let it hold more than the limit; not every kernel accounts it.
                let _ = fs::write(dir.join("memory.swap.max"), "0");
            }
            if let (true, Some(count)) = (self.pids, limits.procs) {
                fs::write(dir.join("pids.max"), count.to_string())?;
            }
            let procs = fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))?;
            let freeze = fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.freeze"))
                .ok();
            let cpu_stat = fs::File::open(dir.join("cpu.stat")).ok();
            Ok(EngineCgroup {
                dir: dir.clone(),
                procs: procs.into(),
                freeze,
                cpu_stat,
            })
        };
        made().inspect_err(|_| {
            let _ = fs::remove_dir(&dir);
        })
    }

    fn open() -> Result<Cgroups, &'static str> {
        let mount = cgroup2_mount().ok_or("no cgroup v2 hierarchy is mounted")?;
        let own = own_cgroup().ok_or("this process's cgroup v2 is not in /proc/self/cgroup")?;
        let parent = mount.join(own.trim_start_matches('/'));
        sweep(&parent);
        let base = parent.join(format!("referee-{}", std::process::id()));
        if base.exists() {
            // A dead referee's, whose process id this one was given.
            discard(&base, Duration::from_secs(1));
        }
        fs::create_dir(&base).map_err(|_| "the referee may not make a cgroup under its own")?;
        // The root cgroup has none, so this is asked of the new one.
        if !base.join("cgroup.kill").exists() {
            let _ = fs::remove_dir(&base);
            return Err("the kernel has no cgroup.kill (Linux 5.14 or later)");
        }
        let memory = delegate(&parent, &base, "memory");
        let pids = delegate(&parent, &base, "pids");
        let (janitor, lifeline) = start_janitor(&base).map_err(|_| {
            let _ = fs::remove_dir(&base);
            "the janitor process could not start"
        })?;
        Ok(Cgroups {
            base,
            memory,
            pids,
            next: AtomicU64::new(0),
            janitor,
            _lifeline: lifeline,
        })
    }
}

/// Turns `controller` on for the cgroups under `base` (and for `base` under `parent` if it is
/// not yet); whether it is on. A parent holding processes may refuse (cgroups' rule that only
/// leaves hold processes), and a parent not delegated to the referee's user always does.
fn delegate(parent: &Path, base: &Path, controller: &str) -> bool {
    let listed = |file: &Path| {
        fs::read_to_string(file).is_ok_and(|text| text.split_whitespace().any(|c| c == controller))
    };
    if !listed(&base.join("cgroup.controllers")) {
        if !listed(&parent.join("cgroup.controllers")) {
            return false;
        }
        let _ = fs::write(
            parent.join("cgroup.subtree_control"),
            format!("+{controller}"),
        );
    }
    listed(&base.join("cgroup.controllers"))
        && fs::write(
            base.join("cgroup.subtree_control"),
            format!("+{controller}"),
        )
        .is_ok()
}

/// Kills and removes the cgroups of referees that are gone, left by one that died.
fn sweep(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("referee-"))
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        if gone(pid) {
            discard(&entry.path(), Duration::from_millis(200));
        }
    }
}

/// Whether process `pid` has ended: there is none, or only its zombie.
fn gone(pid: i32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command's closing parenthesis.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z')),
        Err(e) => e.kind() == io::ErrorKind::NotFound,
    }
}

/// Kills every process in cgroup `dir` and the cgroups under it.
fn kill(dir: &Path) {
    let _ = fs::write(dir.join("cgroup.kill"), "1");
}

/// Kills cgroup `dir` whole and removes it, waiting up to `within` for its processes to leave.
fn discard(dir: &Path, within: Duration) {
    kill(dir);
    remove_tree(dir, Instant::now() + within);
}

/// Removes the cgroup `dir` and the ones under it (an engine running as root may make its own),
/// deepest first, trying again until `deadline` while killed processes are still leaving.
fn remove_tree(dir: &Path, deadline: Instant) {
    loop {
        if let Ok(entries) = fs::read_dir(dir) {
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    remove_tree(&entry.path(), deadline);
                }
            }
        }
        match fs::remove_dir(dir) {
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(2));
            }
            _ => return,
        }
    }
}

/// Where the cgroup v2 hierarchy is mounted, from `/proc/self/mountinfo`.
fn cgroup2_mount() -> Option<PathBuf> {
    let text = fs::read_to_string("/proc/self/mountinfo").ok()?;
    text.lines().find_map(|line| {
        // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER
        let (fields, rest) = line.split_once(" - ")?;
        (rest.split_whitespace().next()? == "cgroup2")
            .then(|| fields.split_whitespace().nth(4).map(unescape))?
    })
}

/// A mountinfo path: spaces, tabs, newlines and backslashes are written as `\ooo`.
fn unescape(text: &str) -> PathBuf {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes.get(i + 1..i + 4).and_then(|d| {
            std::str::from_utf8(d)
                .ok()
                .and_then(|d| u8::from_str_radix(d, 8).ok())
        });
        match (bytes[i], octal) {
            (b'\\', Some(byte)) => {
                out.push(byte);
                i += 4;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    PathBuf::from(std::ffi::OsStr::from_bytes(&out))
}

/// This process's cgroup v2 path, the `0::PATH` line of `/proc/self/cgroup`.
fn own_cgroup() -> Option<String> {
    let text = fs::read_to_string("/proc/self/cgroup").ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix("0::"))
        .map(str::to_owned)
}

/// Starts the janitor: a child that waits until the pipe whose write end is returned closes (the
/// referee's death, however it comes) and then kills the cgroup `base` whole. It leaves the
/// referee's session and blocks every signal it can, so that a stop sent to the referee's process
/// group or job does not end it before its work.
fn start_janitor(base: &Path) -> io::Result<(i32, OwnedFd)> {
    let kill_file = CString::new(base.join("cgroup.kill").as_os_str().as_bytes())
        .map_err(|_| io::Error::other("a cgroup path with a NUL byte"))?;
    let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
    let read_fd = read.as_raw_fd();
    // SAFETY: the child makes only async-signal-safe system calls (setsid, sigprocmask, dup2,
    // close_range, read, open, write, _exit) on memory prepared before the fork, so the other
    // threads' state, copied mid-flight, is never touched.
    match unsafe { libc::fork() } {
        -1 => Err(io::Error::last_os_error()),
        // SAFETY: the child's side of the fork above: async-signal-safe calls only, on memory
        // prepared before the fork.
        0 => unsafe {
            libc::setsid();
            let mut all: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut all);
            libc::sigprocmask(libc::SIG_SETMASK, &all, std::ptr::null_mut());
            libc::dup2(read_fd, 0);
            // Nothing of the referee's stays open here but the pipe, now its standard input.
            libc::syscall(libc::SYS_close_range, 1u32, u32::MAX, 0u32);
            let mut byte = 0u8;
            loop {
                match libc::read(0, (&raw mut byte).cast(), 1) {
                    0 => break,
                    n if n < 0 && *libc::__errno_location() == libc::EINTR => {}
                    n if n < 0 => break,
                    _ => {}
                }
            }
            let fd = libc::open(kill_file.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
            if fd >= 0 {
                libc::write(fd, b"1".as_ptr().cast(), 1);
            }
            libc::_exit(0)
        },
        pid => {
            drop(read);
            Ok((pid, write))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mountinfo_paths_are_unescaped() {
        assert_eq!(unescape(r"/sys/fs/cgroup"), PathBuf::from("/sys/fs/cgroup"));
        assert_eq!(unescape(r"/a\040b\134c"), PathBuf::from(r"/a b\c"));
        // A backslash not followed by three octal digits is itself.
        assert_eq!(unescape(r"/a\9"), PathBuf::from(r"/a\9"));
    }
}
