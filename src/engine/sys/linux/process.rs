//! Engine processes' lives: started from one long-lived thread with a parent-death signal, listed
//! while they run so that a stop kills them all and none starts after it, and the orphans they
//! leave behind killed and reaped.

// The system room: its `unsafe` blocks each say why they are sound.
#![allow(unsafe_code)]

use std::io;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use nix::errno::Errno;
use nix::sys::signal::{Signal, kill, killpg};
use nix::sys::wait::{Id, WaitPidFlag, waitid, waitpid};
use nix::unistd::Pid;

use super::cgroup;
use super::spawn::{Launch, Spawned, spawn};
use crate::engine::limits::Limits;
use crate::engine::sys::stop;

/// What a process runs before its exec (see [`spawn`]).
type Setup = Box<dyn FnMut() -> io::Result<()> + Send>;

type Request = (Launch, Setup, Sender<io::Result<Spawned>>);

/// The threads every engine is started from. A parent-death signal is sent when the *thread*
/// that started a process ends, not the process; engines outlive the game threads that use them,
/// so they are all started from these, which live as long as the referee. There are several, so
/// that a game's engines start side by side (a start waits for its process to exec); each is
/// made when a start finds none free, up to [`SPAWNERS`].
struct Spawners {
    requests: Sender<Request>,
    /// The queue the starter threads take from.
    queue: Mutex<mpsc::Receiver<Request>>,
    /// The threads made, and how many of them are free: waiting, with no request sent to them.
    threads: Mutex<(usize, usize)>,
}

static SPAWNER_POOL: OnceLock<Spawners> = OnceLock::new();

/// At most how many threads start engines.
const SPAWNERS: usize = 4;

/// Hands `request` to a starter thread, making one if none is free.
fn send_to_spawner(request: Request) -> io::Result<()> {
    let spawners = SPAWNER_POOL.get_or_init(|| {
        let (requests, queue) = mpsc::channel::<Request>();
        Spawners {
            requests,
            queue: Mutex::new(queue),
            threads: Mutex::new((0, 0)),
        }
    });
    let lock = |m: &'static Mutex<(usize, usize)>| m.lock().unwrap_or_else(PoisonError::into_inner);
    {
        let mut threads = lock(&spawners.threads);
        let (made, free) = &mut *threads;
        if *free > 0 {
            *free -= 1;
        } else if *made < SPAWNERS {
            // The new thread's first request is this one.
            *made += 1;
            let (queue, threads) = (&spawners.queue, &spawners.threads);
            std::thread::spawn(move || {
                loop {
                    let next = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
                    let Ok((launch, mut setup, reply)) = next else {
                        break;
                    };
                    let _ = reply.send(start_now(&launch, &mut setup));
                    lock(threads).1 += 1;
                }
            });
        }
    }
    (spawners.requests.send(request))
        .map_err(|_| io::Error::other("the engine starter thread is gone"))
}

pub use crate::engine::sys::stop::{
    begin_draining, draining, forget, stop_all, stopped_by, stopped_with_engine, stopping,
};

/// Kills the process group `group` leads.
pub(in crate::engine::sys) fn kill_group(group: i32) {
    let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
}

/// Kills what left the engines' process groups and sessions (their cgroups), at a stop.
pub(in crate::engine::sys) fn kill_escaped() {
    cgroup::kill_all();
}

/// The error of a start refused because the referee is stopping.
fn stopping_error() -> io::Error {
    io::Error::new(io::ErrorKind::Interrupted, "the referee is stopping")
}

/// Starts `launch` (whose `setup` must make its own process group) unless the referee is
/// stopping, and lists its group. The stop is looked at again, with the registry locked, once
/// the process is started: a stop either lists it to kill (it came after), or is seen here and
/// the process killed at once (it came while the process started), so nothing started outlives
/// a stop.
fn start_now(launch: &Launch, setup: &mut Setup) -> io::Result<Spawned> {
    if stop::refusing() {
        return Err(stopping_error());
    }
    let mut spawned = spawn(launch, setup)?;
    let group = i32::try_from(spawned.process.id()).map_err(io::Error::other)?;
    if !stop::list(group) {
        kill_group(group);
        spawned.process.kill();
        let _ = spawned.process.wait();
        return Err(stopping_error());
    }
    Ok(spawned)
}

/// How an engine process starts, besides its command.
pub struct Start {
    /// The limits it runs under.
    pub limits: Limits,
    /// Each `(from, to)` becomes descriptor `to` of the process; every `from` must be above
    /// every `to`.
    pub fds: Vec<(RawFd, RawFd)>,
    /// Whether it is the human seat, which keeps the referee's terminal.
    pub terminal: bool,
    /// The user and group it runs as, if not the referee's.
    pub user: Option<(u32, u32)>,
    /// The `cgroup.procs` of the cgroup it runs in (see [`super::cgroup`]), if any.
    pub cgroup: Option<RawFd>,
    /// The one CPU it runs on (`--use-affinity`), if any.
    pub cpu: Option<usize>,
}

/// Starts `command` in a process group of its own (which the referee kills whole) without a
/// controlling terminal to push input into (see `leave_terminal`), in its cgroup, as its user,
/// under its limits, with SIGKILL as its parent-death signal, so that a referee killed outright
/// (SIGKILL, the OOM killer) takes its engines with it.
///
/// The human seat (`terminal`) stays in the referee's session and process group instead, so that
/// it may read the terminal the referee was started from.
///
/// The start is handed to a starter thread and not waited for: [`Pending::wait`] gives the
/// process once it has exec'd, so that the caller may begin other starts meanwhile. A pending
/// start dropped unwaited leaves its process running, listed, until a stop or the referee's end.
pub fn begin(launch: Launch, how: Start) -> io::Result<Pending> {
    let referee = nix::unistd::getpid();
    let Start {
        limits,
        fds,
        terminal,
        user,
        cgroup,
        cpu,
    } = how;
    let cpus = cpu.map(only_cpu).transpose()?;
    // Runs in the child before its exec, sharing the referee's memory (see `spawn`): system
    // calls only (open, ioctl, setpgid or setsid, write, close_range or fcntl, dup2, setgroups,
    // setgid, setuid, setrlimit, prctl, getppid, sched_setaffinity), no allocation, no lock; the
    // user changes are raw system calls, since glibc's would signal the referee's threads.
    let setup: Setup = Box::new(move || {
        if !terminal {
            leave_terminal()?;
        }
        // First, before the descriptors below are moved into place, one of which may take the
        // number of the cgroup's; and before the change of user: the cgroup is the referee's to
        // move processes into.
        if let Some(procs) = cgroup {
            cgroup::join(procs)?;
        }
        // Nothing the referee holds or inherited (another engine's pipe, the run's files,
        // a descriptor its own caller left open) reaches the engine: every descriptor past
        // stderr closes at exec, but those handed over just below.
        close_from_at_exec(3);
        for &(fd, to) in &fds {
            // SAFETY: dup2 takes plain integers.
            if unsafe { nix::libc::dup2(fd, to) } < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        if let Some((uid, gid)) = user {
            // The referee's supplementary groups (root's) must not stay with the engine.
            // SAFETY: plain system calls on integers and a null list.
            let changed = unsafe {
                use nix::libc::{SYS_setgid, SYS_setgroups, SYS_setuid, syscall};
                syscall(SYS_setgroups, 0, std::ptr::null::<nix::libc::gid_t>()) == 0
                    && syscall(SYS_setgid, gid) == 0
                    && syscall(SYS_setuid, uid) == 0
            };
            if !changed {
                return Err(io::Error::last_os_error());
            }
        }
        apply(&limits)?;
        if let Some(cpus) = &cpus {
            nix::sched::sched_setaffinity(nix::unistd::Pid::from_raw(0), cpus)?;
        }
        // After the change of user, which clears the parent-death signal.
        nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
        // The referee may have died between the clone and the prctl: then no signal comes.
        if nix::unistd::getppid() != referee {
            return Err(io::Error::from_raw_os_error(nix::libc::ESRCH));
        }
        Ok(())
    });
    let (reply, answer) = mpsc::channel();
    send_to_spawner((launch, setup, reply))?;
    Ok(Pending(answer))
}

/// Gives up the controlling terminal and the referee's process group, but not its session.
///
/// A session of the engine's own (`setsid`) would do both at once, but the kernel's autogroups
/// (on in most distributions) make every session a scheduling group of its own: on a busy
/// machine each hand-off to an engine would then wait behind the machine's other sessions. So the
/// engine stays in the referee's session and drops the terminal with `TIOCNOTTY`, which, for a
/// process that does not lead its session, detaches that process alone and signals nobody; once
/// detached it cannot take the terminal back, nor can what it starts. Where the terminal cannot
/// be opened to detach from (no `/dev/tty` in a container), a session of its own after all.
/// System calls only.
fn leave_terminal() -> io::Result<()> {
    use nix::libc::{O_CLOEXEC, O_NOCTTY, O_RDWR, TIOCNOTTY, close, ioctl, open};
    // SAFETY: a static NUL-terminated path, plain integers.
    let tty = unsafe { open(c"/dev/tty".as_ptr(), O_RDWR | O_NOCTTY | O_CLOEXEC) };
    if tty >= 0 {
        // SAFETY: as above.
        let detached = unsafe { ioctl(tty, TIOCNOTTY) } == 0;
        let failure = io::Error::last_os_error();
        // SAFETY: as above; the descriptor is this function's.
        unsafe { close(tty) };
        if !detached {
            return Err(failure);
        }
    } else if io::Error::last_os_error().raw_os_error() != Some(nix::libc::ENXIO) {
        // ENXIO: no controlling terminal, nothing to leave; any other failure leaves it unknown.
        nix::unistd::setsid()?;
        return Ok(());
    }
    let own = nix::unistd::Pid::from_raw(0);
    nix::unistd::setpgid(own, own)?;
    Ok(())
}

/// A process [`begin`] handed to a starter thread.
pub struct Pending(mpsc::Receiver<io::Result<Spawned>>);

impl Pending {
    /// The process, once it has exec'd, or why it did not start.
    pub fn wait(self) -> io::Result<Spawned> {
        (self.0.recv()).map_err(|_| io::Error::other("the engine starter thread is gone"))?
    }
}

/// Sets `limits` on the calling process. Runs in the engine's child before its exec: it makes
/// only `setrlimit` calls, which allocate nothing and take no lock.
fn apply(limits: &Limits) -> io::Result<()> {
    use nix::sys::resource::{Resource, setrlimit};
    let set = |resource, soft: u64, hard: u64| setrlimit(resource, soft, hard);
    if let Some(bytes) = limits.memory {
        set(Resource::RLIMIT_AS, bytes, bytes)?;
    }
    if let Some(seconds) = limits.cpu {
        // The soft limit sends SIGXCPU; the hard one, a second later, SIGKILL.
        set(Resource::RLIMIT_CPU, seconds, seconds.saturating_add(1))?;
    }
    if let Some(files) = limits.files {
        set(Resource::RLIMIT_NOFILE, files, files)?;
    }
    if let Some(procs) = limits.procs {
        set(Resource::RLIMIT_NPROC, procs, procs)?;
    }
    if let Some(bytes) = limits.file_size {
        set(Resource::RLIMIT_FSIZE, bytes, bytes)?;
    }
    Ok(())
}

/// Marks every descriptor from `first` on close-on-exec (the child's copies of the referee's ends
/// of its pipes among them). System calls only.
fn close_from_at_exec(first: u32) {
    // SAFETY: close_range takes plain integers and touches no memory.
    let marked = unsafe {
        nix::libc::syscall(
            nix::libc::SYS_close_range,
            first,
            u32::MAX,
            nix::libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if marked != 0 {
        // A kernel before 5.11: one by one, as far as descriptors are commonly numbered.
        for fd in first..FALLBACK_FDS {
            // SAFETY: fcntl on a number that may not be open only fails.
            unsafe { nix::libc::fcntl(fd as i32, nix::libc::F_SETFD, nix::libc::FD_CLOEXEC) };
        }
    }
}

/// How far [`close_from_at_exec`] looks where the kernel has no `close_range`.
const FALLBACK_FDS: u32 = 65_536;

/// The set of CPUs that holds `cpu` alone.
fn only_cpu(cpu: usize) -> io::Result<nix::sched::CpuSet> {
    let mut set = nix::sched::CpuSet::new();
    set.set(cpu)?;
    Ok(set)
}

/// The CPUs the calling thread may run on, in order.
pub fn usable_cpus() -> io::Result<Vec<usize>> {
    let allowed = nix::sched::sched_getaffinity(Pid::from_raw(0))?;
    Ok((0..nix::sched::CpuSet::count())
        .filter(|&cpu| allowed.is_set(cpu).unwrap_or(false))
        .collect())
}

/// Runs the calling thread on `cpu` alone from now on (`--use-affinity`); the engines it starts
/// are pinned by [`Start::cpu`].
pub fn run_on(cpu: usize) -> io::Result<()> {
    Ok(nix::sched::sched_setaffinity(
        Pid::from_raw(0),
        &only_cpu(cpu)?,
    )?)
}

/// Makes this process the reaper of its engines' orphaned children, which would otherwise go to
/// init (in some containers init never reaps, leaving zombies); [`reap_orphans`] then ends them.
pub fn adopt_orphans() {
    // Without it orphans go to init as usual; nothing else depends on it.
    let _ = nix::sys::prctl::set_child_subreaper(true);
    // Without the flag, `reap_ended_orphans` looks every time.
    if signal_hook::flag::register(signal_hook::consts::SIGCHLD, Arc::clone(child_ended())).is_err()
    {
        child_ended().store(true, Ordering::SeqCst);
    }
}

/// Set when a child may have ended (SIGCHLD), so that looking for ended orphans costs nothing
/// while none did.
fn child_ended() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(true)))
}

/// Kills and reaps every child of this process that is not a listed engine: the orphans adopted
/// from engines (a grandchild that called `setsid` leaves its engine's process group, so killing the
/// group misses it). Killing an orphan hands its own children to this process in turn, so it looks
/// again until a look finds none (a bounded number of times: a process that forks faster than it
/// is killed is still held by its limits). Children are found in `/proc`; without it, nothing is
/// done.
pub fn reap_orphans() {
    const LOOKS: usize = 64;
    // No child at all, running or ended (the usual case once a game's engines are reaped): no
    // orphan either, and no need to read `/proc`.
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    if waitid(Id::All, flags) == Err(Errno::ECHILD) {
        return;
    }
    // Killed but not given back: a process another holds as its tracer.
    let mut held = Vec::new();
    for _ in 0..LOOKS {
        let mut orphans = orphans();
        orphans.retain(|pid| !held.contains(pid));
        if orphans.is_empty() {
            return;
        }
        for pid in orphans {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            if !reap_within(pid, ORPHAN_WAIT) {
                held.push(pid);
            }
        }
    }
}

/// How long a killed orphan is waited for before it counts as held by a tracer.
const ORPHAN_WAIT: Duration = Duration::from_millis(200);

/// Reaps child `pid` once it has ended, waiting at most `within`; whether it was reaped (or is
/// gone). A killed process whose tracer (another engine of the same user) does not let it go
/// cannot be reaped until the tracer ends: no wait for it may hold the referee up, so it is left
/// to [`reap_ended_orphans`], which reaps it once it is free.
pub fn reap_within(pid: i32, within: Duration) -> bool {
    let deadline = std::time::Instant::now() + within;
    loop {
        match waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG)) {
            Ok(nix::sys::wait::WaitStatus::StillAlive) => {}
            Err(Errno::EINTR) => continue,
            _ => return true,
        }
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The children of this process that are not listed engines.
fn orphans() -> Vec<i32> {
    let children = children().unwrap_or_else(children_by_scan);
    let registry = stop::registry();
    children
        .into_iter()
        .filter(|pid| !registry.groups.contains(pid) && Some(*pid) != cgroup::janitor())
        .collect()
}

/// The children of this process, from each of its threads' `children` file in `/proc`: as many
/// reads as the referee has threads, whatever else runs on the machine. `None` where the kernel
/// has no such files.
fn children() -> Option<Vec<i32>> {
    let mut pids = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let text = match std::fs::read_to_string(task.path().join("children")) {
            Ok(text) => text,
            // A thread that is there without the file: this kernel has no such files.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && task.path().exists() => {
                return None;
            }
            // A thread that ended since the listing has no children left.
            Err(_) => continue,
        };
        pids.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<i32>().ok()),
        );
    }
    Some(pids)
}

/// The children of this process, found by reading the parent of every process in `/proc`.
fn children_by_scan() -> Vec<i32> {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| parent_of(*pid).is_some_and(|parent| parent == me))
        .collect()
}

/// Reaps the orphans that have already ended, without waiting and without reading `/proc`: cheap
/// enough for every game. An ended engine is left to its own handle.
pub fn reap_ended_orphans() {
    use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
    let flag = child_ended();
    if !flag.swap(false, Ordering::SeqCst) {
        return;
    }
    let peek = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    while let Ok(status) = waitid(Id::All, peek) {
        let Some(pid) = status.pid().filter(|_| status != WaitStatus::StillAlive) else {
            return;
        };
        if stop::registry().groups.contains(&pid.as_raw()) {
            // An engine not yet reaped by its handle hides what ended after it: look again later.
            flag.store(true, Ordering::SeqCst);
            return;
        }
        let _ = waitpid(pid, None);
    }
}

/// The parent process id in `/proc/PID/stat` (the field after the state, which follows the
/// command name in parentheses; the name itself may hold spaces and parentheses).
fn parent_of(pid: i32) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_are_found_without_scanning_every_process() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let listed = children().expect("this kernel lists children");
        assert!(listed.contains(&pid), "{listed:?}");
        assert!(children_by_scan().contains(&pid));
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn the_parent_of_this_process_is_read_from_proc() {
        let me = std::process::id() as i32;
        let parent = nix::unistd::getppid().as_raw().to_string();
        assert_eq!(parent_of(me), Some(parent));
        assert_eq!(parent_of(-5), None);
    }
}
