//! Engine processes: each in its own process group, its output turned into events by threads, its
//! answers awaited against the caller's deadline, and the whole group killed when it is dropped.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::waitpid;
use nix::unistd::Pid;

use crate::protocol::Response;

/// The longest line read from an engine; a longer one is a protocol error, not a memory hazard.
pub const MAX_LINE: usize = 64 * 1024;
/// How long an engine whose output closed may take to exit before it counts as alive.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// How long `quit` may take before the process group is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    /// The name in records and standings.
    pub name: String,
    /// The command line: words split as a shell would (quotes, backslashes) and run directly, with
    /// no shell in between, so the engine's pipes are its own. Use `sh -c '...'` for shell syntax.
    pub command: String,
    /// The working directory, if not the referee's.
    pub dir: Option<PathBuf>,
}

/// How an exited engine ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exit(pub ExitStatus);

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.0.code(), self.0.signal()) {
            (Some(code), _) => write!(f, "exited with code {code}"),
            (_, Some(signal)) => {
                let name = Signal::try_from(signal).map_or("unknown", Signal::as_str);
                write!(f, "killed by signal {signal} ({name})")
            }
            _ => f.write_str("ended"),
        }
    }
}

/// What went wrong talking to an engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The process could not be started.
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        source: io::Error,
    },
    /// No complete answer by the deadline.
    #[error("no answer by the deadline")]
    Timeout,
    /// The process ended.
    #[error("{0}")]
    Exited(Exit),
    /// Its output closed while the process kept running.
    #[error("closed its output but kept running")]
    ClosedOutput,
    /// It said something that is not a proper answer.
    #[error("{0}")]
    Protocol(String),
}

/// What the engine's threads report.
enum Event {
    Line(Vec<u8>),
    Overlong,
    Eof,
    Exited(ExitStatus),
}

/// A timestamped transcript of one game's engine traffic, shared by the engines of the game.
#[derive(Clone)]
pub struct Transcript(Arc<Mutex<(Instant, BufWriter<File>)>>);

impl Transcript {
    /// Creates the transcript file.
    pub fn create(path: &Path) -> io::Result<Transcript> {
        let file = BufWriter::new(File::create(path)?);
        Ok(Transcript(Arc::new(Mutex::new((Instant::now(), file)))))
    }

    /// Appends `engine MARK text` with the time since the transcript began; `<` is sent to the
    /// engine, `>` came from it, `!` is its stderr, `#` is the referee's note.
    pub fn line(&self, engine: &str, mark: char, text: &str) {
        let mut inner = lock(&self.0);
        let ms = inner.0.elapsed().as_secs_f64() * 1e3;
        // A transcript is a debugging aid: failing to write one must not stop a game.
        let _ = writeln!(inner.1, "{ms:>12.3} {engine} {mark} {text}");
    }

    /// Writes what is buffered.
    pub fn flush(&self) -> io::Result<()> {
        lock(&self.0).1.flush()
    }
}

/// Locks a mutex even if a thread panicked while holding it: the data is append-only text.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Process groups of running engines, so an interrupt can kill them all.
static LIVE_GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Makes this process the reaper of its engines' orphaned children. Killed with their engine's
/// process group, they would otherwise be handed to init, which in some containers never reaps
/// them, leaving zombies.
pub fn adopt_orphans() {
    // Without it orphans go to init as usual; nothing else depends on it.
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// Kills and reaps every engine process group still running; for the interrupt handler, just
/// before the referee exits.
pub fn kill_all() {
    let groups = lock(&LIVE_GROUPS).clone();
    for &group in &groups {
        let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
    }
    // A waiter thread may reap an engine first; then this finds nothing left to wait for.
    for group in groups {
        while waitpid(Pid::from_raw(-group), None).is_ok() {}
    }
}

/// A running engine.
pub struct Engine {
    name: String,
    group: Pid,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    exited: Option<ExitStatus>,
    output_closed: bool,
    next_id: u64,
    /// Commands sent whose answers are still to be read, in order, and whether a `?` answer is
    /// a fault (required commands) or accepted (informational ones).
    pending: VecDeque<(u64, String, bool)>,
    log: Arc<Mutex<Option<Transcript>>>,
    threads: Vec<JoinHandle<()>>,
}

impl Engine {
    /// Starts `command` in a new process group, its traffic and stderr going to `transcript`.
    pub fn start(
        command: &EngineCommand,
        transcript: Option<Transcript>,
    ) -> Result<Engine, EngineError> {
        let spawn_error = |source| EngineError::Spawn {
            command: command.command.clone(),
            source,
        };
        let words = shlex::split(&command.command)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| spawn_error(io::Error::other("unbalanced quotes or no command")))?;
        let mut cmd = Command::new(&words[0]);
        cmd.args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        if let Some(dir) = &command.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(spawn_error)?;
        let pid = i32::try_from(child.id()).expect("process ids fit i32");
        lock(&LIVE_GROUPS).push(pid);
        let (sender, events) = mpsc::channel();
        let log = Arc::new(Mutex::new(transcript));
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stdin = child.stdin.take();
        let threads = vec![
            spawn_reader(stdout, sender.clone()),
            spawn_stderr(stderr, command.name.clone(), Arc::clone(&log)),
            spawn_waiter(child, sender),
        ];
        Ok(Engine {
            name: command.name.clone(),
            group: Pid::from_raw(pid),
            stdin,
            events,
            exited: None,
            output_closed: false,
            next_id: 1,
            pending: VecDeque::new(),
            log,
            threads,
        })
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends later traffic (and stderr) to `transcript`, or nowhere.
    pub fn set_transcript(&mut self, transcript: Option<Transcript>) {
        *lock(&self.log) = transcript;
    }

    fn note(&self, mark: char, text: &str) {
        if let Some(log) = lock(&self.log).as_ref() {
            log.line(&self.name, mark, text);
        }
    }

    /// Sends a required command without waiting for its answer; returns its id.
    pub fn send(&mut self, command: &str) -> Result<u64, EngineError> {
        self.send_as(command, true)
    }

    /// Sends an informational command: an engine that does not know it may answer `?`.
    pub fn inform(&mut self, command: &str) -> Result<u64, EngineError> {
        self.send_as(command, false)
    }

    fn send_as(&mut self, command: &str, required: bool) -> Result<u64, EngineError> {
        let id = self.next_id;
        self.next_id += 1;
        let line = format!("{id} {command}\n");
        self.note('<', line.trim_end());
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        };
        if let Err(e) = written {
            self.stdin = None;
            return Err(self.dead_or(EngineError::Protocol(format!(
                "stopped reading its input ({e})"
            ))));
        }
        self.pending.push_back((id, command.to_owned(), required));
        Ok(id)
    }

    /// Reads the answers to every command sent so far; each must be a success. Returns the last
    /// answer's payload (empty when nothing was pending).
    pub fn settle(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let mut last = String::new();
        while let Some((id, command, required)) = self.pending.pop_front() {
            let response = self.read_response(deadline)?;
            if response.id != Some(id) {
                return Err(EngineError::Protocol(format!(
                    "answered id {} to command {id} `{command}`",
                    response.id.map_or("none".to_owned(), |i| i.to_string())
                )));
            }
            match response.body {
                Ok(payload) => last = payload,
                Err(_) if !required => {}
                Err(message) => {
                    return Err(EngineError::Protocol(format!(
                        "refused `{command}`: {message}"
                    )));
                }
            }
        }
        Ok(last)
    }

    /// Sends `command` and returns its answer's payload, reading earlier answers first.
    pub fn request(&mut self, command: &str, deadline: Instant) -> Result<String, EngineError> {
        self.send(command)?;
        self.settle(deadline)
    }

    /// Reads one answer: a `=` or `?` line and its continuation lines, up to an empty line.
    fn read_response(&mut self, deadline: Instant) -> Result<Response, EngineError> {
        let mut text = String::new();
        loop {
            let line = self.read_line(deadline)?;
            if text.is_empty() {
                if line.is_empty() {
                    continue;
                }
                if !line.starts_with(['=', '?']) {
                    return Err(EngineError::Protocol(format!(
                        "said `{}` where an answer (`=` or `?`) was due",
                        shorten(&line)
                    )));
                }
            } else if line.is_empty() {
                break;
            } else {
                text.push('\n');
            }
            text.push_str(&line);
        }
        text.parse::<Response>()
            .map_err(|_| EngineError::Protocol(format!("malformed answer `{}`", shorten(&text))))
    }

    fn read_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let Some(event) = self.next_event(deadline) else {
            return Err(EngineError::Timeout);
        };
        match event {
            Event::Line(bytes) => match String::from_utf8(bytes) {
                Ok(mut line) => {
                    if line.ends_with('\r') {
                        line.pop();
                    }
                    self.note('>', &line);
                    Ok(line)
                }
                Err(e) => {
                    let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
                    self.note('>', &lossy);
                    Err(EngineError::Protocol(format!(
                        "sent invalid UTF-8: `{}`",
                        shorten(&lossy)
                    )))
                }
            },
            Event::Overlong => Err(EngineError::Protocol(format!(
                "sent a line longer than {MAX_LINE} bytes"
            ))),
            Event::Eof => {
                self.output_closed = true;
                Err(self.dead_or(EngineError::ClosedOutput))
            }
            Event::Exited(status) => {
                self.exited = Some(status);
                Err(EngineError::Exited(Exit(status)))
            }
        }
    }

    /// The next event, or `None` at the deadline. An exit seen earlier is reported again.
    fn next_event(&mut self, deadline: Instant) -> Option<Event> {
        if let Some(status) = self.exited {
            return Some(Event::Exited(status));
        }
        if self.output_closed {
            return Some(Event::Eof);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(event) => Some(event),
            Err(RecvTimeoutError::Timeout) => None,
            // Every sender gone: output closed and the process reaped.
            Err(RecvTimeoutError::Disconnected) => Some(Event::Eof),
        }
    }

    /// After its input or output closed: the exit if the process ends within a grace period,
    /// otherwise `alive`.
    fn dead_or(&mut self, alive: EngineError) -> EngineError {
        if let Some(status) = self.exited {
            return EngineError::Exited(Exit(status));
        }
        let deadline = Instant::now() + EXIT_GRACE;
        loop {
            match self
                .events
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(Event::Exited(status)) => {
                    self.exited = Some(status);
                    return EngineError::Exited(Exit(status));
                }
                Ok(Event::Eof) => self.output_closed = true,
                Ok(_) => {}
                Err(_) => return alive,
            }
        }
    }

    /// Whether the engine is known to have exited or closed its output.
    pub fn is_dead(&self) -> bool {
        self.exited.is_some() || self.output_closed || self.stdin.is_none()
    }

    /// Asks the engine to quit, then kills its process group whatever it did.
    pub fn quit(mut self) {
        if !self.is_dead() && self.send("quit").is_ok() {
            let _ = self.settle(Instant::now() + QUIT_GRACE);
        }
        // Dropping kills the group: it also takes any children the engine left behind.
    }

    /// Kills the engine's process group and reaps it; later commands fail as if it had exited.
    pub fn kill(&mut self) {
        let _ = killpg(self.group, Signal::SIGKILL);
        self.stdin = None;
        if self.exited.is_none() {
            // The waiter thread reaps the process; wait for it so no zombie is left.
            while let Ok(event) = self.events.recv_timeout(Duration::from_secs(5)) {
                if let Event::Exited(status) = event {
                    self.exited = Some(status);
                    break;
                }
            }
        }
        // With the engine reaped, what is left of its group are its children, adopted by this
        // process (see `adopt_orphans`): reap them too. Without adoption there are none to wait for.
        if self.exited.is_some() {
            let group = Pid::from_raw(-self.group.as_raw());
            while waitpid(group, None).is_ok() {}
        }
        lock(&LIVE_GROUPS).retain(|&g| g != self.group.as_raw());
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
        // The reader threads end once the group is dead and the pipes close; a process that left
        // the group and holds a pipe would keep one alive, so they are not joined.
        for thread in self.threads.drain(..) {
            if thread.is_finished() {
                let _ = thread.join();
            }
        }
    }
}

fn shorten(text: &str) -> String {
    const MAX: usize = 200;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

/// Turns stdout into `Line` events, one per line without its newline, then `Eof`.
fn spawn_reader(stdout: impl Read + Send + 'static, events: Sender<Event>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut reader = BufReader::with_capacity(64 * 1024, stdout);
        let mut line = Vec::new();
        let mut overlong = false;
        loop {
            let chunk = match reader.fill_buf() {
                Ok([]) | Err(_) => break,
                Ok(chunk) => chunk,
            };
            let (part, newline) = match chunk.iter().position(|&b| b == b'\n') {
                Some(end) => (&chunk[..end], true),
                None => (chunk, false),
            };
            if !overlong {
                line.extend_from_slice(part);
                if line.len() > MAX_LINE {
                    overlong = true;
                    line = Vec::new();
                    if events.send(Event::Overlong).is_err() {
                        return;
                    }
                }
            }
            let used = part.len() + usize::from(newline);
            reader.consume(used);
            if newline {
                if !overlong && events.send(Event::Line(std::mem::take(&mut line))).is_err() {
                    return;
                }
                overlong = false;
            }
        }
        if !line.is_empty() && !overlong {
            let _ = events.send(Event::Line(line));
        }
        let _ = events.send(Event::Eof);
    })
}

/// Drains stderr into the transcript, so an engine can never block on a full stderr pipe.
fn spawn_stderr(
    stderr: impl Read + Send + 'static,
    name: String,
    log: Arc<Mutex<Option<Transcript>>>,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stderr);
        let mut line = Vec::new();
        while let Ok(n) = reader
            .by_ref()
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut line)
        {
            if n == 0 {
                break;
            }
            if let Some(log) = lock(&log).as_ref() {
                log.line(&name, '!', String::from_utf8_lossy(&line).trim_end());
            }
            line.clear();
        }
    })
}

/// Waits for the process to end and reports how.
fn spawn_waiter(mut child: Child, events: Sender<Event>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        if let Ok(status) = child.wait() {
            let _ = events.send(Event::Exited(status));
        }
    })
}
