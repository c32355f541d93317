//! Starting an engine with the standard library: its command run directly, in its directory, in
//! a process group of its own on Unix, with its three pipes. What needs Linux is refused by name.

use std::io::{self, ErrorKind};
use std::process::{Command, Stdio};

use super::child::Child;
use super::job::Job;
use super::sandbox::Sandbox;
use crate::engine::command::{EngineCommand, EngineError};
use crate::engine::sys::stop;
use crate::engine::talk::Engine;
use crate::engine::transcript::Transcript;

/// An engine whose process has started (see [`Engine::begin`]).
pub struct Begun {
    command: EngineCommand,
    started: io::Result<(std::process::Child, Job)>,
    transcript: Option<Transcript>,
}

impl Engine {
    /// Starts `command` in a process group of its own (Unix), in its directory; its traffic and
    /// stderr go to `transcript`. What it asks for that needs Linux is refused. The process
    /// runs when this returns; [`Begun::finish`] makes it an engine.
    pub fn begin(
        command: &EngineCommand,
        _sandbox: Option<(&Sandbox, usize)>,
        transcript: Option<Transcript>,
    ) -> Result<Begun, EngineError> {
        let failed = |source| EngineError::Spawn {
            command: command.command.clone(),
            source,
        };
        if let Some(refused) = refusal(command) {
            return Err(failed(io::Error::new(ErrorKind::Unsupported, refused)));
        }
        let words = crate::sys::words::split(&command.command)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| failed(io::Error::other("unbalanced quotes or no command")))?;
        let mut process = command_of(&words);
        if let Some(dir) = &command.dir {
            process.current_dir(dir);
        }
        process
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut process, 0);
        Ok(Begun {
            command: command.clone(),
            started: start_listed(&mut process),
            transcript,
        })
    }
}

/// The process that runs `words` (not empty). On Windows, where a script is not a program, a
/// Python script (`bot.py`) is run by `python` (a batch file, `.bat` or `.cmd`, the standard
/// library runs by `cmd.exe` itself).
fn command_of(words: &[String]) -> Command {
    let python_script = cfg!(windows)
        && std::path::Path::new(&words[0])
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("py"));
    let mut process = Command::new(if python_script { "python" } else { &words[0] });
    process.args(&words[usize::from(!python_script)..]);
    process
}

/// Why `command` cannot be run here: what it asks for that only Linux gives, if anything.
pub fn refusal(command: &EngineCommand) -> Option<String> {
    let what = needs_linux(command)?;
    Some(format!(
        "{what} needs Linux; {} cannot offer it",
        super::PLATFORM
    ))
}

/// What `command` asks for that only Linux gives, if anything.
fn needs_linux(command: &EngineCommand) -> Option<&'static str> {
    [
        (command.sandbox, "sandbox=bwrap"),
        (command.user.is_some(), "user="),
        (
            command.limits.any(),
            "a resource limit (mem=, cpu=, files=, procs=, fsize=)",
        ),
        (command.terminal, "the human seat"),
        (command.cpu.is_some(), "--use-affinity"),
        (command.cgroup, "--clock cpu"),
    ]
    .into_iter()
    .find_map(|(asked, what)| asked.then_some(what))
}

/// Starts `process` unless the referee is stopping, in a job of its own on Windows, and lists
/// it; one started as a stop came, or whose job cannot be made, is killed at once, so nothing
/// started outlives a stop or a game.
fn start_listed(process: &mut Command) -> io::Result<(std::process::Child, Job)> {
    let stopping = || io::Error::new(ErrorKind::Interrupted, "the referee is stopping");
    if stop::refusing() {
        return Err(stopping());
    }
    let mut child = process.spawn()?;
    let listed =
        Job::enclose(&child).and_then(|job| match stop::list(super::group_of(child.id())) {
            true => Ok(job),
            false => Err(stopping()),
        });
    match listed {
        Ok(job) => Ok((child, job)),
        Err(e) => {
            super::kill_tree(&mut child);
            let _ = child.wait();
            Err(e)
        }
    }
}

impl Begun {
    /// The engine, or why it did not start.
    pub fn finish(self) -> Result<Engine, EngineError> {
        let command = &self.command;
        let failed = |source: io::Error| match source.kind() {
            ErrorKind::Interrupted => EngineError::Stopping,
            _ => EngineError::Spawn {
                command: command.command.clone(),
                source,
            },
        };
        let child = self
            .started
            .and_then(|(process, job)| Child::new(process, job))
            .map_err(failed)?;
        Ok(Engine::new(command, child, self.transcript))
    }
}
