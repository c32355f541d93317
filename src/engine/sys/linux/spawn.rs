//! Starting a process without copying the referee: the child shares the referee's memory (as
//! `posix_spawn` does) until it execs, and makes only system calls until then.
//!
//! A `fork` copies the page tables of the whole referee (its heap, every thread's stack), and
//! then every page the referee writes faults once: a cost per engine that shows in a one-game
//! match (the commit that made this file has the figure). `posix_spawn` does not copy but cannot
//! run the engine's own set-up (session, limits, user, cgroup, parent-death signal), so the child
//! here is made with `clone(CLONE_VM | CLONE_VFORK)`: the starting thread waits, the child runs on
//! a stack of its own, resets the signal handlers (a handler of the referee's must never run in
//! it), sets the process up and execs. Until the exec it may not allocate, take a lock, or call a C library
//! function that looks at threads (glibc's `setuid` would signal the referee's threads): the
//! set-up is raw system calls.

// The system room: its `unsafe` blocks each say why they are sound.
#![allow(unsafe_code)]

use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicI32, Ordering};

use nix::libc;

/// What to run: a program (looked up in `PATH` when it has no `/`), its arguments, and the
/// directory it starts in (the referee's when `None`). Its environment is the referee's.
pub struct Launch {
    pub program: CString,
    pub args: Vec<CString>,
    pub dir: Option<CString>,
    /// Whether its standard input and output are pipes to the referee; otherwise they are the
    /// referee's own (the human seat's terminal). Its stderr is always a pipe.
    pub piped: bool,
}

impl Launch {
    /// `program` with `args`, started in `dir`; an error if any holds a NUL byte.
    pub fn new<'a>(
        program: &OsStr,
        args: impl IntoIterator<Item = &'a OsStr>,
        dir: Option<&Path>,
    ) -> io::Result<Launch> {
        let text = |s: &OsStr| {
            CString::new(s.as_bytes())
                .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a command"))
        };
        Ok(Launch {
            program: text(program)?,
            args: args.into_iter().map(text).collect::<io::Result<_>>()?,
            dir: dir.map(|d| text(d.as_os_str())).transpose()?,
            piped: true,
        })
    }
}

/// A started process and the referee's ends of its pipes.
pub struct Spawned {
    pub process: Process,
    pub stdin: Option<OwnedFd>,
    pub stdout: Option<OwnedFd>,
    pub stderr: OwnedFd,
}

/// A child process of the referee, waited for by its id.
#[derive(Debug)]
pub struct Process {
    pid: libc::pid_t,
    status: Option<ExitStatus>,
}

impl Process {
    /// Its process id.
    pub fn id(&self) -> u32 {
        self.pid.unsigned_abs()
    }

    /// Its exit status, if it has ended (reaped now or before).
    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        self.wait_with(libc::WNOHANG)
    }

    /// Waits for it to end, and reaps it.
    pub fn wait(&mut self) -> io::Result<ExitStatus> {
        loop {
            if let Some(status) = self.wait_with(0)? {
                return Ok(status);
            }
        }
    }

    fn wait_with(&mut self, flags: libc::c_int) -> io::Result<Option<ExitStatus>> {
        if self.status.is_some() {
            return Ok(self.status);
        }
        let mut raw = 0;
        loop {
            // SAFETY: waitpid writes one int to a live local.
            match unsafe { libc::waitpid(self.pid, &mut raw, flags) } {
                0 => return Ok(None),
                pid if pid == self.pid => {
                    self.status = Some(ExitStatus::from_raw(raw));
                    return Ok(self.status);
                }
                _ => {
                    let error = io::Error::last_os_error();
                    if error.kind() != io::ErrorKind::Interrupted {
                        return Err(error);
                    }
                }
            }
        }
    }

    /// Sends it SIGKILL, unless it has been reaped (its id may then be another's).
    pub fn kill(&mut self) {
        if self.status.is_none() {
            // SAFETY: kill takes plain integers.
            unsafe { libc::kill(self.pid, libc::SIGKILL) };
        }
    }
}

/// A pipe (read end, write end) whose both ends close at exec: the referee's end stays so; a
/// child's end is moved onto the descriptor it is handed as (which clears the flag).
pub(super) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?)
}

/// How much stack the child has besides its arguments (the C library's `PATH` search and script
/// fallback put the file name and the arguments on the stack).
const CHILD_STACK: usize = 64 * 1024;

/// Starts `launch`, running `setup` in the child before the exec. `setup` runs in a child that
/// shares the referee's memory: it must make system calls only (no allocation, no lock, no
/// C library function that looks at other threads) and report failure as an OS error, which
/// becomes the error of this call (the child is then reaped).
pub fn spawn(launch: &Launch, setup: &mut dyn FnMut() -> io::Result<()>) -> io::Result<Spawned> {
    let (stdin_child, stdin) = launch.piped.then(pipe).transpose()?.unzip();
    let (stdout, stdout_child) = launch.piped.then(pipe).transpose()?.unzip();
    let (stderr, stderr_child) = pipe()?;
    let mut argv: Vec<*const libc::c_char> = std::iter::once(launch.program.as_ptr())
        .chain(launch.args.iter().map(|a| a.as_ptr()))
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    let argv_bytes: usize = launch.args.iter().map(|a| a.as_bytes().len() + 16).sum();
    // Memory for the child to use as its stack, not zeroed (nothing here reads it).
    let mut stack =
        Vec::<u8>::with_capacity(CHILD_STACK + argv_bytes + launch.program.as_bytes().len());
    let failure = AtomicI32::new(0);
    let mut child = Child {
        stdio: [
            stdin_child.as_ref().map(AsRawFd::as_raw_fd),
            stdout_child.as_ref().map(AsRawFd::as_raw_fd),
            Some(stderr_child.as_raw_fd()),
        ],
        dir: launch.dir.as_deref().map(std::ffi::CStr::as_ptr),
        program: launch.program.as_ptr(),
        argv: argv.as_mut_ptr(),
        setup,
        failure: &failure,
    };
    // The top of the stack, aligned as the ABI wants it.
    let top = (stack.as_mut_ptr() as usize + stack.capacity()) & !15;
    let pid = {
        // No signal reaches the child before it has reset the handlers it shares with us.
        let all = Mask::all()?;
        // SAFETY: the stack and everything `child` points to live until the clone returns, which
        // with CLONE_VFORK is after the child has exec'd or exited; `run_child` makes system
        // calls only.
        let pid = unsafe {
            libc::clone(
                run_child,
                top as *mut libc::c_void,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                (&mut child as *mut Child).cast(),
            )
        };
        let error = io::Error::last_os_error();
        drop(all);
        if pid < 0 {
            return Err(error);
        }
        pid
    };
    let mut process = Process { pid, status: None };
    match failure.load(Ordering::SeqCst) {
        0 => Ok(Spawned {
            process,
            stdin,
            stdout,
            stderr,
        }),
        errno => {
            let _ = process.wait();
            Err(io::Error::from_raw_os_error(errno))
        }
    }
}

/// The calling thread's signal mask set to block everything, restored on drop.
struct Mask(libc::sigset_t);

impl Mask {
    fn all() -> io::Result<Mask> {
        // SAFETY: sigset_t is plain data; the calls write into live locals.
        unsafe {
            let mut all: libc::sigset_t = std::mem::zeroed();
            let mut old: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut all);
            match libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old) {
                0 => Ok(Mask(old)),
                errno => Err(io::Error::from_raw_os_error(errno)),
            }
        }
    }
}

impl Drop for Mask {
    fn drop(&mut self) {
        // SAFETY: restores the mask saved by `all`.
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.0, std::ptr::null_mut()) };
    }
}

/// What the child reads (never writes, but for `failure`) of the referee's memory.
struct Child<'a> {
    /// The descriptors that become its 0, 1 and 2 (`None`: left as they are).
    stdio: [Option<RawFd>; 3],
    dir: Option<*const libc::c_char>,
    program: *const libc::c_char,
    argv: *mut *const libc::c_char,
    setup: &'a mut dyn FnMut() -> io::Result<()>,
    /// The errno of the step that failed, 0 while none has.
    failure: &'a AtomicI32,
}

/// The child's whole life: reset the signals, take its descriptors and directory, run the set-up,
/// exec; on failure, leave the errno for the parent and exit.
extern "C" fn run_child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `Child` the parent keeps alive until this process execs or exits.
    let child = unsafe { &mut *arg.cast::<Child>() };
    let errno = match prepare(child) {
        // SAFETY: the pointers are the parent's NUL-terminated strings and argv array.
        Ok(()) => unsafe {
            libc::execvp(child.program, child.argv.cast_const());
            io::Error::last_os_error().raw_os_error()
        },
        Err(error) => error.raw_os_error(),
    };
    child.failure.store(
        errno.filter(|&e| e != 0).unwrap_or(libc::EINVAL),
        Ordering::SeqCst,
    );
    // SAFETY: ends this process only, without running any of the referee's exit code.
    unsafe { libc::_exit(127) }
}

fn prepare(child: &mut Child) -> io::Result<()> {
    default_signals();
    for (to, from) in child.stdio.iter().enumerate() {
        let (Some(from), to) = (*from, to as RawFd) else {
            continue;
        };
        // SAFETY: dup2 and fcntl take plain integers.
        let done = unsafe {
            match from == to {
                // dup2 onto itself would leave the close-on-exec flag set.
                true => libc::fcntl(to, libc::F_SETFD, 0),
                false => libc::dup2(from, to),
            }
        };
        if done < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    if let Some(dir) = child.dir {
        // SAFETY: a NUL-terminated string the parent keeps alive.
        if unsafe { libc::chdir(dir) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    (child.setup)()?;
    // SAFETY: an empty set, then the mask the engine starts with.
    unsafe {
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
    }
    Ok(())
}

/// Every signal the referee handles goes back to its default action, and SIGPIPE (which the
/// referee ignores) too; the signals it ignores otherwise stay ignored, as across an exec, and
/// those already at their default are left alone (a system call saved each).
fn default_signals() {
    for signal in 1..=libc::SIGRTMAX() {
        if signal == libc::SIGKILL || signal == libc::SIGSTOP {
            continue;
        }
        // SAFETY: sigaction reads and writes plain structs in live locals.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &mut old) != 0 {
                continue;
            }
            let handled = !matches!(old.sa_sigaction, libc::SIG_IGN | libc::SIG_DFL);
            if handled || signal == libc::SIGPIPE {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(signal, &default, std::ptr::null_mut());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn output(launch: &Launch, setup: &mut dyn FnMut() -> io::Result<()>) -> (String, ExitStatus) {
        let mut spawned = spawn(launch, setup).expect("started");
        drop(spawned.stdin.take());
        let mut text = String::new();
        std::fs::File::from(spawned.stdout.take().expect("piped"))
            .read_to_string(&mut text)
            .expect("read");
        (text, spawned.process.wait().expect("reaped"))
    }

    fn launch(program: &str, args: &[&str], dir: Option<&Path>) -> Launch {
        Launch::new(
            program.as_ref(),
            args.iter().map(std::convert::AsRef::as_ref),
            dir,
        )
        .expect("no NUL")
    }

    /// The mask `name` of /proc/self/status in `status`.
    fn mask(status: &str, name: &str) -> u64 {
        let line = status.lines().find(|l| l.starts_with(name)).expect(name);
        u64::from_str_radix(line[name.len()..].trim(), 16).expect("hex")
    }

    #[test]
    fn the_child_blocks_nothing_and_does_not_ignore_sigpipe() {
        // The referee ignores SIGPIPE and blocks every signal around the clone: neither may reach
        // the engine, which would then never die of a closed pipe or never see a SIGTERM.
        let (status, exit) = output(&launch("cat", &["/proc/self/status"], None), &mut || Ok(()));
        assert!(exit.success());
        assert_eq!(mask(&status, "SigBlk:"), 0, "{status}");
        let sigpipe = 1 << (libc::SIGPIPE - 1);
        assert_eq!(mask(&status, "SigIgn:") & sigpipe, 0, "{status}");
    }

    #[test]
    fn the_child_starts_in_its_directory_and_sees_its_arguments() {
        let dir = std::env::temp_dir();
        let (text, _) = output(
            &launch("sh", &["-c", "pwd; echo \"$0\"", "a b"], Some(&dir)),
            &mut || Ok(()),
        );
        let real = std::fs::canonicalize(&dir).expect("dir");
        assert_eq!(text, format!("{}\na b\n", real.display()));
    }

    #[test]
    fn a_missing_program_or_a_failed_setup_is_the_error_of_the_start() {
        let missing = spawn(&launch("/no/such/engine", &[], None), &mut || Ok(()));
        assert_eq!(
            missing.err().map(|e| e.kind()),
            Some(io::ErrorKind::NotFound)
        );
        let refused = spawn(&launch("true", &[], None), &mut || {
            Err(io::Error::from_raw_os_error(libc::EPERM))
        });
        assert_eq!(
            refused.err().and_then(|e| e.raw_os_error()),
            Some(libc::EPERM)
        );
    }
}
