//! Starting an engine: its command (run directly, or under bubblewrap with its seccomp programs),
//! its pipes, its cgroup, and the process itself.

use std::io::{self, ErrorKind, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::PathBuf;

use super::cgroup::{self, EngineCgroup};
use super::child::Child;
use super::process;
use super::sandbox::{Sandbox, SandboxedEngine};
use super::spawn::{Launch, pipe};
use crate::engine::command::{EngineCommand, EngineError};
use crate::engine::talk::Engine;
use crate::engine::transcript::Transcript;

/// Moves `fd` above 9, so that it is none of the numbers the engine's descriptors become.
fn high(fd: OwnedFd) -> io::Result<OwnedFd> {
    rustix::io::fcntl_dupfd_cloexec(fd, 10).map_err(io::Error::from)
}

/// The descriptors on which bubblewrap reads the two seccomp programs.
const SECCOMP_FDS: [RawFd; 2] = [5, 6];

/// A pipe holding `bytes` (a seccomp program, far below a pipe's capacity), its write end closed:
/// the read end, for bubblewrap to read to its end.
fn program_pipe(bytes: &[u8]) -> io::Result<OwnedFd> {
    let (read, write) = pipe()?;
    let mut write = std::fs::File::from(write);
    write.write_all(bytes)?;
    Ok(read)
}

/// An engine whose process a starter thread is starting (see [`Engine::begin`]).
pub struct Begun {
    command: EngineCommand,
    pending: process::Pending,
    /// Descriptors the process gets besides its standard ones, held until it has exec'd.
    passed: Vec<(OwnedFd, RawFd)>,
    terminal_pipes: Option<(OwnedFd, OwnedFd)>,
    cgroup: Option<EngineCgroup>,
    sandboxed: bool,
    transcript: Option<Transcript>,
}

impl Engine {
    /// Starts `command` in a new process group, as its user, under its limits, and in `sandbox`
    /// (the run's, with the engine's spec number) when it asks for one; its traffic and stderr
    /// go to `transcript`. Does not wait for the process to exec: [`Begun::finish`] waits, so
    /// that a game's engines start side by side from one thread.
    pub fn begin(
        command: &EngineCommand,
        sandbox: Option<(&Sandbox, usize)>,
        transcript: Option<Transcript>,
    ) -> Result<Begun, EngineError> {
        let failed = |source| spawn_error(command, source);
        let words = crate::sys::words::split(&command.command)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| failed(io::Error::other("unbalanced quotes or no command")))?;
        // Descriptors the process gets besides its standard ones: the human seat's protocol
        // pipes, the sandbox's seccomp programs. Ours are moved above 9 first, so that none is
        // already one of the numbers they become.
        let mut passed: Vec<(OwnedFd, RawFd)> = Vec::new();
        let sandboxed = sandbox.filter(|_| command.sandbox);
        let user = match sandboxed {
            Some((sandbox, spec)) => sandbox.run_as(spec, command.user).map_err(failed)?,
            None => command.user,
        };
        let mut launch = match sandboxed {
            Some(sandboxed) => sandboxed_command(command, &words, sandboxed, user, &mut passed),
            None => plain_command(command, &words),
        }
        .map_err(failed)?;
        let terminal_pipes = match command.terminal {
            true => Some(terminal_pipes(&mut passed).map_err(failed)?),
            false => None,
        };
        launch.piped = terminal_pipes.is_none();
        // A contained engine (a sandbox, a user or a limit: a stranger's) runs in a cgroup of its
        // own where the machine gives one (see `cgroup::describe`, which the run announces). An
        // engine its owner runs as it is gets none: the kernel's accounting for every cgroup
        // level costs time at every ply (docs/speed.md).
        let contained =
            command.sandbox || command.user.is_some() || command.limits.any() || command.cgroup;
        let cgroup = match contained.then(cgroup::cgroups) {
            Some(Ok(cgroups)) => Some(cgroups.engine(&command.limits).map_err(failed)?),
            _ => None,
        };
        let fds = passed
            .iter()
            .map(|(fd, to)| (fd.as_raw_fd(), *to))
            .collect();
        let how = process::Start {
            limits: command.limits,
            fds,
            terminal: command.terminal,
            user,
            cgroup: cgroup.as_ref().map(EngineCgroup::procs_fd),
            cpu: command.cpu,
        };
        let sandboxed = sandboxed.is_some();
        let pending =
            process::begin(launch, how).map_err(|e| start_error(command, sandboxed, e))?;
        Ok(Begun {
            command: command.clone(),
            pending,
            passed,
            terminal_pipes,
            cgroup,
            sandboxed,
            transcript,
        })
    }
}

impl Begun {
    /// The engine, once its process has exec'd, or why it did not start.
    pub fn finish(self) -> Result<Engine, EngineError> {
        let started = self.pending.wait();
        // The process holds its own copies now.
        drop(self.passed);
        let command = &self.command;
        let spawned = started.map_err(|e| start_error(command, self.sandboxed, e))?;
        let pipes = match self.terminal_pipes {
            Some((to_engine, from_engine)) => (Some(to_engine), Some(from_engine)),
            None => (spawned.stdin, spawned.stdout),
        };
        let streams = (pipes, spawned.stderr);
        let (terminal, sandboxed) = (command.terminal, self.sandboxed);
        let child = Child::new(spawned.process, streams, terminal, sandboxed, self.cgroup)
            .map_err(|source| spawn_error(command, source))?;
        Ok(Engine::new(command, child, self.transcript))
    }
}

/// `command` did not start, for `source`.
fn spawn_error(command: &EngineCommand, source: io::Error) -> EngineError {
    EngineError::Spawn {
        command: command.command.clone(),
        source,
    }
}

/// Why `command` did not start, from the error of its start (`sandboxed` under bubblewrap): the
/// causes an organiser can fix are named.
fn start_error(command: &EngineCommand, sandboxed: bool, error: io::Error) -> EngineError {
    let failed = |source| spawn_error(command, source);
    match error.kind() {
        ErrorKind::Interrupted => EngineError::Stopping,
        ErrorKind::NotFound if sandboxed => failed(io::Error::new(
            ErrorKind::NotFound,
            "sandbox=bwrap needs bubblewrap: install the `bubblewrap` package (no `bwrap` found)",
        )),
        ErrorKind::PermissionDenied
            if command.user.is_some() && !nix::unistd::geteuid().is_root() =>
        {
            failed(io::Error::new(
                ErrorKind::PermissionDenied,
                "user= needs the referee to run as root",
            ))
        }
        _ => failed(error),
    }
}

/// The command that runs `words` (the engine's command line) as it is, in the engine's directory.
fn plain_command(command: &EngineCommand, words: &[String]) -> io::Result<Launch> {
    Launch::new(
        words[0].as_ref(),
        words[1..].iter().map(std::convert::AsRef::as_ref),
        command.dir.as_deref(),
    )
}

/// The human seat's protocol pipes: its ends are added to `passed` as its descriptors 3
/// (commands in) and 4 (answers out); ours are returned, to write commands and read answers.
fn terminal_pipes(passed: &mut Vec<(OwnedFd, RawFd)>) -> io::Result<(OwnedFd, OwnedFd)> {
    let high_pipe = || -> io::Result<(OwnedFd, OwnedFd)> {
        let (read, write) = pipe()?;
        Ok((high(read)?, high(write)?))
    };
    let (commands, to_engine) = high_pipe()?;
    let (from_engine, answers) = high_pipe()?;
    passed.push((commands, 3));
    passed.push((answers, 4));
    Ok((to_engine, from_engine))
}

/// The command that runs `words` (the engine's command line) in `sandbox` as engine `spec` of the
/// run, as `user`; the seccomp programs it reads are added to `passed`.
fn sandboxed_command(
    command: &EngineCommand,
    words: &[String],
    (sandbox, spec): (&Sandbox, usize),
    user: Option<(u32, u32)>,
    passed: &mut Vec<(OwnedFd, RawFd)>,
) -> io::Result<Launch> {
    let cwd = match &command.dir {
        Some(dir) => dir.clone(),
        None => std::env::current_dir()?,
    };
    let scratch = sandbox.scratch(&command.name, user)?;
    let programs = super::seccomp::programs().map_err(io::Error::other)?;
    for (program, to) in programs.iter().zip(SECCOMP_FDS) {
        passed.push((program_pipe(program).and_then(high)?, to));
    }
    let cwd = std::path::absolute(cwd)?;
    let files: Vec<PathBuf> = (words.iter().map(|word| cwd.join(word)))
        .filter(|path| path.is_file())
        .collect();
    let env_files: Vec<PathBuf> = (command.pass_env.iter().filter_map(std::env::var_os))
        .map(PathBuf::from)
        .filter(|path| path.is_absolute() && path.is_file())
        .collect();
    let engine = SandboxedEngine {
        spec,
        cwd: &cwd,
        dir: command.dir.is_some().then_some(cwd.as_path()),
        files: &files,
        env_files: &env_files,
        scratch: &scratch,
        limits: command.limits,
        pass_env: &command.pass_env,
    };
    let args = sandbox.bwrap_args(&engine, SECCOMP_FDS)?;
    Launch::new(
        super::sandbox::BWRAP.as_ref(),
        (args.iter().map(std::convert::AsRef::as_ref))
            .chain(words.iter().map(std::convert::AsRef::as_ref)),
        None,
    )
}
