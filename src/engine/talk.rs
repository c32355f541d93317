//! An engine process seen from the game's thread: commands written whole, answers read by waiting
//! on its pipes with the caller's deadline as the timeout, in bounded buffers, its stderr drained
//! and kept (its end is in `end.rs`).

use std::collections::VecDeque;

use std::io::ErrorKind;
use std::time::{Duration, Instant};

use crate::engine::command::{EngineCommand, EngineError};
use crate::engine::ending::Ending;
use crate::engine::limits::Limits;
use crate::engine::pipes::{LineBuffer, MAX_LINE};
use crate::engine::sys::{Child, Want, process};
use crate::engine::transcript::Transcript;
use crate::protocol::{Info, Response, is_info};

/// The most lines one answer may take, blank lines before it included.
pub const MAX_ANSWER_LINES: usize = 256;
/// The most bytes one answer may take, blank lines before it included.
pub const MAX_ANSWER_BYTES: usize = 256 * 1024;
/// The most `info` lines that may come before one answer.
pub const MAX_INFO_LINES: usize = 10_000;
/// How many of an engine's last stderr lines are kept, and their most bytes, for a fault's detail.
pub const STDERR_TAIL_LINES: usize = 20;
/// See [`STDERR_TAIL_LINES`].
pub const STDERR_TAIL_BYTES: usize = 4096;
/// How long a command may wait for room in an engine's input pipe: an engine that leaves 64 KiB
/// of commands unread has stopped reading.
const WRITE_GRACE: Duration = Duration::from_secs(1);
/// How late past its time a wake-up of the referee may come before the lateness is the referee's
/// own delay (a stopped or frozen referee, a host that stalled it), which no engine is charged for.
pub const OWN_DELAY_TOLERANCE: Duration = Duration::from_millis(20);
/// The longest single wait on an engine's pipes: a referee stopped in the middle of one is seen
/// within this much of when the stop began.
const WAIT_SLICE: Duration = Duration::from_millis(50);

/// A command sent whose answer is still to be read.
pub(super) struct Pending {
    id: u64,
    /// The line as sent: the id, a space, the command and a newline.
    line: String,
    /// Whether a `?` answer is a fault (required commands) or accepted (informational ones).
    required: bool,
}

impl Pending {
    /// The command, without its id.
    fn command(&self) -> &str {
        let line = self.line.trim_end_matches('\n');
        line.split_once(' ').map_or(line, |(_, command)| command)
    }
}

/// A running engine.
pub struct Engine {
    pub(super) name: String,
    /// Its process and pipes, as the platform has them.
    pub(super) child: Child,
    pub(super) out: LineBuffer,
    pub(super) err: LineBuffer,
    pub(super) stderr_tail: VecDeque<String>,
    pub(super) exited: Option<Ending>,
    pub(super) next_id: u64,
    pub(super) pending: VecDeque<Pending>,
    pub(super) log: Option<Transcript>,
    pub(super) killed: bool,
    /// The referee's own delay since the last command was written: every deadline given since
    /// then is moved on by it.
    pub(super) own_delay: Duration,
    pub(super) limits: Limits,
    /// Lines of answered commands, kept for the next ones: no allocation per command.
    pub(super) spare_lines: Vec<String>,
    /// The answer being read, reused from answer to answer.
    pub(super) answer: String,
    /// Commands held to go out with the next one ([`Engine::hold`]), in one write, and the id of
    /// the first of them.
    pub(super) outbox: String,
    pub(super) outbox_from: u64,
    /// The id of the first command of the last write: answers to earlier ones are likely in.
    pub(super) last_write_from: u64,
    /// The one CPU it runs on, if pinned.
    pub(super) cpu: Option<usize>,
    /// Its last `info` line before the answer read last.
    pub(super) info: Option<Info>,
    /// Whether it may think while no command of the referee's waits for its answer (`ponder=`);
    /// otherwise its cgroup, where it has one, is frozen then.
    pub(super) ponder: bool,
    /// Whether its cgroup is frozen now.
    pub(super) frozen: bool,
    /// Under a CPU clock, its CPU time when the wait for its answer began and how much more it
    /// may use: past that, the wait ends as a timeout.
    pub(super) cpu_limit: Option<(Duration, Duration)>,
}

/// How many spare command lines an engine keeps (more are never pending at once in a game).
const SPARE_LINES: usize = 8;

impl Engine {
    /// The engine `command` started as `child`, its traffic and stderr going to `log`.
    pub(in crate::engine) fn new(
        command: &EngineCommand,
        child: Child,
        log: Option<Transcript>,
    ) -> Engine {
        Engine {
            name: command.name.clone(),
            child,
            out: LineBuffer::default(),
            err: LineBuffer::default(),
            stderr_tail: VecDeque::new(),
            exited: None,
            next_id: 1,
            pending: VecDeque::new(),
            log,
            killed: false,
            own_delay: Duration::ZERO,
            limits: command.limits,
            spare_lines: Vec::new(),
            answer: String::new(),
            info: None,
            outbox: String::new(),
            outbox_from: 1,
            last_write_from: 1,
            cpu: command.cpu,
            ponder: command.ponder,
            frozen: false,
            cpu_limit: None,
        }
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The one CPU it runs on, if pinned (`--use-affinity`).
    pub fn cpu(&self) -> Option<usize> {
        self.cpu
    }

    /// Sends later traffic (and stderr) to `transcript`, or nowhere; what the engine wrote to
    /// stderr so far goes to the old one first.
    pub fn set_transcript(&mut self, transcript: Option<Transcript>) {
        self.drain_stderr();
        self.log = transcript;
    }

    /// The engine's last stderr lines (at most [`STDERR_TAIL_LINES`] and [`STDERR_TAIL_BYTES`]),
    /// for the detail of a fault: a traceback usually says why an engine failed.
    pub fn stderr_tail(&mut self) -> Vec<String> {
        self.drain_stderr();
        self.stderr_tail.iter().cloned().collect()
    }

    fn note(&self, mark: char, text: &str) {
        if let Some(log) = &self.log {
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

    /// Sends a required command with the next one, in the same write: the `play` an engine about
    /// to be asked for its move hears with its `genmove`, so one wake-up serves both. Any later
    /// command, or a wait for answers, sends it.
    pub fn hold(&mut self, command: &str) -> Result<u64, EngineError> {
        Ok(self.queue(command, true))
    }

    /// Holds an informational command (as [`Engine::inform`] sends one) for the next write.
    pub fn hold_inform(&mut self, command: &str) -> Result<u64, EngineError> {
        Ok(self.queue(command, false))
    }

    /// Writes the commands held, if any, in one write; a frozen engine keeps them for its next
    /// command, so that the plies of others do not wake it (see `Engine::rest`).
    pub fn send_held(&mut self) -> Result<(), EngineError> {
        if self.frozen {
            return Ok(());
        }
        self.flush()
    }

    fn send_as(&mut self, command: &str, required: bool) -> Result<u64, EngineError> {
        let id = self.queue(command, required);
        self.flush()?;
        Ok(id)
    }

    /// Puts a command in the outbox and notes it in the transcript; returns its id.
    fn queue(&mut self, command: &str, required: bool) -> u64 {
        self.start_timing();
        let id = self.next_id;
        self.next_id += 1;
        let mut line = self.spare_lines.pop().unwrap_or_default();
        line.clear();
        line.push_str(itoa::Buffer::new().format(id));
        line.push(' ');
        line.push_str(command);
        line.push('\n');
        self.note('<', line.trim_end_matches('\n'));
        if self.outbox.is_empty() {
            self.outbox_from = id;
        }
        self.outbox.push_str(&line);
        self.pending.push_back(Pending { id, line, required });
        id
    }

    /// Writes `bytes` to the engine's input, waiting at most [`WRITE_GRACE`] for room in the pipe.
    fn write_all(&mut self, mut bytes: &[u8]) -> Result<(), EngineError> {
        let mut deadline = None;
        while !bytes.is_empty() {
            match self.child.write(bytes) {
                Ok(0) => return Err(EngineError::Protocol("its input is closed".into())),
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    let deadline = *deadline.get_or_insert_with(|| Instant::now() + WRITE_GRACE);
                    if !self.wait(deadline, Want::Room)? {
                        return Err(EngineError::Protocol(format!(
                            "left {} KiB of commands unread for {} ms",
                            64,
                            WRITE_GRACE.as_millis()
                        )));
                    }
                }
                Err(e) => return Err(EngineError::Protocol(e.to_string())),
            }
        }
        Ok(())
    }

    /// Reads the answers to every command sent so far; each must be a success. Returns the last
    /// answer's payload (empty when nothing was pending).
    pub fn settle(&mut self, deadline: Instant) -> Result<String, EngineError> {
        self.flush()?;
        let mut last = String::new();
        while let Some(pending) = self.pending.pop_front() {
            // The answer to a command written before the last write is most likely in already.
            let ready = !self.pending.is_empty() && pending.id < self.last_write_from;
            let response = self.read_response(deadline, ready)?;
            if response.id != Some(pending.id) {
                return Err(EngineError::Protocol(format!(
                    "answered id {} to command {} `{}`",
                    response.id.map_or("none".to_owned(), |i| i.to_string()),
                    pending.id,
                    shorten(pending.command())
                )));
            }
            match response.body {
                Ok(payload) => last = payload,
                Err(_) if !pending.required => {}
                Err(message) => {
                    return Err(EngineError::Protocol(format!(
                        "refused `{}`: {}",
                        shorten(pending.command()),
                        shorten(&message)
                    )));
                }
            }
            if self.spare_lines.len() < SPARE_LINES {
                self.spare_lines.push(pending.line);
            }
        }
        self.rest();
        Ok(last)
    }

    /// Writes one line as it is, with no id and no answer due (protocols other than the
    /// referee's own).
    pub fn write_line(&mut self, line: &str) -> Result<(), EngineError> {
        self.start_timing();
        self.note('<', line);
        self.outbox.push_str(line);
        self.outbox.push('\n');
        self.flush()
    }

    /// A new command: the referee's own delay is counted afresh.
    fn start_timing(&mut self) {
        self.own_delay = Duration::ZERO;
    }

    /// How long the referee itself was held up (stopped, frozen, not scheduled, each time for
    /// more than [`OWN_DELAY_TOLERANCE`]) since the last command was written to this engine: time
    /// the engine is not charged for, and by which its deadlines were moved on.
    pub fn own_delay(&self) -> Duration {
        self.own_delay
    }

    /// `deadline` moved on by the referee's own delay.
    fn extended(&self, deadline: Instant) -> Instant {
        deadline + self.own_delay
    }

    /// Counts the time since `began` (the start of a wait on the pipes) as the referee's own
    /// delay if it passed more than [`OWN_DELAY_TOLERANCE`] beyond `expected` (the time the wait
    /// was allowed): a wait returns early when there is something to read, never late, unless the
    /// referee itself was held up.
    fn note_delay(&mut self, began: Instant, expected: Duration) {
        let late = began.elapsed().saturating_sub(expected);
        if late > OWN_DELAY_TOLERANCE {
            self.own_delay += late;
        }
    }

    /// The CPU time all its processes have used so far, where it has a cgroup.
    pub fn cpu_time(&self) -> Option<Duration> {
        self.child.cpu_time()
    }

    /// Under a CPU clock, ends the waits for its answers as timeouts once it has used `budget`
    /// more CPU time than now (`None` lifts the limit).
    pub fn limit_cpu(&mut self, budget: Option<Duration>) {
        self.cpu_limit = budget.and_then(|b| Some((self.cpu_time()?, b)));
    }

    /// Whether it has used up the CPU time [`Engine::limit_cpu`] gave it.
    fn cpu_spent(&self) -> bool {
        self.cpu_limit.is_some_and(|(from, budget)| {
            self.cpu_time()
                .is_some_and(|now| now.saturating_sub(from) > budget)
        })
    }

    /// Freezes the engine, everything it started included, while it owes the referee no answer
    /// and may not ponder: it gets no CPU until its next command (see [`Engine::wake`]), so its
    /// helpers cannot take the CPU of an opponent that is thinking. Only an engine with a cgroup.
    fn rest(&mut self) {
        if !self.ponder && !self.frozen && self.pending.is_empty() && self.child.freezable() {
            self.frozen = self.child.freeze(true);
        }
    }

    /// Thaws a frozen engine, before a command is written to it.
    fn wake(&mut self) {
        if self.frozen {
            self.child.freeze(false);
        }
        self.frozen = false;
    }

    /// Writes the outbox in one write; an engine that cannot take it has its input closed.
    fn flush(&mut self) -> Result<(), EngineError> {
        if self.outbox.is_empty() {
            return Ok(());
        }
        self.wake();
        // Its stderr is read whenever the referee waits on it, for its answers or for room in
        // its input pipe, so an engine blocked writing there holds up only itself.
        let outbox = std::mem::take(&mut self.outbox);
        self.last_write_from = self.outbox_from;
        let written = self.write_all(outbox.as_bytes());
        self.outbox = outbox;
        self.outbox.clear();
        let Err(e) = written else {
            return Ok(());
        };
        self.child.close_input();
        Err(match e {
            EngineError::Protocol(text) => self.dead_or(EngineError::Protocol(format!(
                "stopped reading its input ({text})"
            ))),
            other => other,
        })
    }

    /// The next line that is not blank, by the deadline (protocols other than the referee's
    /// own); at most [`MAX_ANSWER_LINES`] blank lines may come before it.
    pub fn read_plain_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        for _ in 0..MAX_ANSWER_LINES {
            // Lines already read must not let a flood run past the deadline.
            if Instant::now() > self.extended(deadline) {
                return Err(EngineError::Timeout);
            }
            let mut line = String::new();
            self.read_line(deadline, false, &mut line)?;
            if !line.trim().is_empty() {
                self.rest();
                return Ok(line);
            }
        }
        Err(EngineError::Protocol(format!(
            "sent more than {MAX_ANSWER_LINES} blank lines for one move"
        )))
    }

    /// Writes `line` (a protocol's goodbye, such as CodeCup's `Quit`) unless the engine has
    /// ended, gives it half a second to exit, then kills its process group.
    pub fn quit_with(&mut self, line: &str) {
        if !self.is_dead() && self.write_line(line).is_ok() {
            self.child.close_input();
            let _ = self.dead_or(EngineError::ClosedOutput);
        }
        self.kill();
    }

    /// What the engine said of its thinking in its last `info` line before the last answer.
    pub fn take_info(&mut self) -> Option<Info> {
        self.info.take()
    }

    /// Sends `command` and returns its answer's payload, reading earlier answers first.
    pub fn request(&mut self, command: &str, deadline: Instant) -> Result<String, EngineError> {
        self.send(command)?;
        self.settle(deadline)
    }

    /// Reads one answer: a `=` or `?` line and its continuation lines, up to an empty line. Blank
    /// lines before it and the lines of the answer together may take at most
    /// [`MAX_ANSWER_LINES`] lines and [`MAX_ANSWER_BYTES`] bytes.
    fn read_response(&mut self, deadline: Instant, ready: bool) -> Result<Response, EngineError> {
        // Lines already read must not let a flood run past the deadline: every answer is
        // bounded, and each starts within it.
        if Instant::now() > self.extended(deadline) {
            return Err(EngineError::Timeout);
        }
        // The answer's lines are read straight into it, each after a newline but the first.
        let mut text = std::mem::take(&mut self.answer);
        text.clear();
        let (mut lines, mut bytes, mut infos) = (0, 0, 0);
        self.info = None;
        loop {
            let mark = text.len();
            if mark > 0 {
                text.push('\n');
            }
            // An answer's later lines come right after its first.
            self.read_line(deadline, ready || mark > 0, &mut text)?;
            let start = mark + usize::from(mark > 0);
            lines += 1;
            bytes += text.len() - start + 1;
            // Answers are framed as commands are: control characters and comments go, and a
            // line that held nothing else is ignored (an empty line still ends the answer).
            if crate::protocol::needs_cleaning(&text[start..]) {
                let cleaned = crate::protocol::clean_answer_line(&text[start..]);
                text.truncate(start);
                if cleaned.is_empty() {
                    text.truncate(mark);
                    continue;
                }
                text.push_str(&cleaned);
            }
            let line = &text[start..];
            if lines > MAX_ANSWER_LINES || bytes > MAX_ANSWER_BYTES {
                return Err(EngineError::Protocol(format!(
                    "sent more than {MAX_ANSWER_LINES} lines or {MAX_ANSWER_BYTES} bytes for one answer"
                )));
            }
            if mark == 0 && is_info(line) {
                // Thinking aloud: the last line is kept, none is held, and a flood is bounded
                // by a count and by the deadline.
                (lines, bytes, infos) = (lines - 1, bytes - (text.len() - start + 1), infos + 1);
                if infos > MAX_INFO_LINES {
                    return Err(EngineError::Protocol(format!(
                        "sent more than {MAX_INFO_LINES} info lines before one answer"
                    )));
                }
                // One that cannot be read is dropped here; check-engine names it.
                if let Ok(info) = line.parse::<Info>() {
                    self.info = Some(info);
                }
                text.truncate(mark);
                if Instant::now() > self.extended(deadline) {
                    return Err(EngineError::Timeout);
                }
                continue;
            }
            if mark == 0 {
                if !line.is_empty() && !line.starts_with(['=', '?']) {
                    return Err(EngineError::Protocol(format!(
                        "said `{}` where an answer (`=` or `?`) was due",
                        shorten(line)
                    )));
                }
            } else if line.is_empty() {
                text.truncate(mark);
                break;
            }
        }
        let response = text.parse::<Response>();
        let response = response
            .map_err(|_| EngineError::Protocol(format!("malformed answer `{}`", shorten(&text))));
        self.answer = text;
        response
    }

    /// Appends the next line of output, without its newline, to `into`, by the deadline, however
    /// much the engine prints. `ready` says the line is likely there already (the acknowledgement
    /// of a `play` sent a move ago): one read then saves waiting on the pipes; otherwise waiting
    /// comes first, which saves a read that would find nothing.
    fn read_line(
        &mut self,
        deadline: Instant,
        ready: bool,
        into: &mut String,
    ) -> Result<(), EngineError> {
        let mut looked = !ready;
        let mut fused = false;
        loop {
            if let Some(bytes) = self.out.take_line(!self.child.has_output()) {
                // The buffer holds more than one line's worth: a long line may arrive whole.
                if bytes.len() > MAX_LINE {
                    return Err(EngineError::Protocol(format!(
                        "sent a line longer than {MAX_LINE} bytes"
                    )));
                }
                return match std::str::from_utf8(bytes) {
                    Ok(line) => {
                        let line = line.strip_suffix('\r').unwrap_or(line);
                        if let Some(log) = &self.log {
                            log.line(&self.name, '>', line);
                        }
                        into.push_str(line);
                        Ok(())
                    }
                    Err(_) => {
                        let lossy = String::from_utf8_lossy(bytes).into_owned();
                        self.note('>', &lossy);
                        Err(EngineError::Protocol(format!(
                            "sent invalid UTF-8: `{}`",
                            shorten(&lossy)
                        )))
                    }
                };
            }
            if self.out.pending() > MAX_LINE {
                return Err(EngineError::Protocol(format!(
                    "sent a line longer than {MAX_LINE} bytes"
                )));
            }
            if !self.child.has_output() {
                return Err(self.dead_or(EngineError::ClosedOutput));
            }
            if !looked {
                looked = true;
                let before = self.out.pending();
                self.fill_output()?;
                if self.out.pending() > before || !self.child.has_output() {
                    continue;
                }
            }
            // The cheapest wait for a quick answer: a blocking read under the fuse; past it,
            // the pipes are polled (which also drains stderr and sees an exit).
            if !fused {
                fused = true;
                if self.read_fused(deadline)? {
                    continue;
                }
            }
            if !self.wait(deadline, Want::Output)? {
                return Err(EngineError::Timeout);
            }
        }
    }

    /// Waits until the engine's output can be read (or its input written), draining its stderr
    /// meanwhile; `Ok(false)` at the deadline. Reading output fills the line buffer. An exit seen
    /// with no output left to read is `Err(Exited)`.
    fn wait(&mut self, deadline: Instant, want: Want) -> Result<bool, EngineError> {
        loop {
            if process::stopping() {
                return Err(EngineError::Stopping);
            }
            let began = Instant::now();
            let left = self.extended(deadline).saturating_duration_since(began);
            if left.is_zero() {
                return Ok(false);
            }
            // A slice at a time, so that a referee stopped while it waits sees how long it was.
            let slice = left.min(WAIT_SLICE);
            let ready = self.child.ready(want, slice);
            self.note_delay(began, slice);
            let (main_ready, err_ready, exited) = match ready {
                Ok(Some(ready)) => (ready.main, ready.err, ready.exited),
                Ok(None) => return Ok(true),
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(EngineError::Protocol(format!(
                        "cannot wait on its pipes: {e}"
                    )));
                }
            };
            if err_ready {
                self.drain_stderr();
            }
            if main_ready {
                if want == Want::Room {
                    return Ok(true);
                }
                self.fill_output()?;
                return Ok(true);
            }
            if exited {
                // Exited with nothing left to read (a child of its may hold the pipe open).
                self.drain_stderr();
                let status = self.reap();
                return Err(status.map_or(EngineError::ClosedOutput, |s| self.exited_with(s)));
            }
            if want == Want::Output && self.cpu_spent() {
                return Ok(false);
            }
        }
    }

    /// One blocking read of the output under the thread's fuse: `Ok(true)` when it brought
    /// output or the output's end, `Ok(false)` when the caller is to wait on the pipes instead
    /// (the fuse burned, or would burn past `deadline`, or the platform has no fused reads).
    fn read_fused(&mut self, deadline: Instant) -> Result<bool, EngineError> {
        let began = Instant::now();
        let before = self.out.pending();
        let deadline = self.extended(deadline);
        let Some((filled, until)) = self.child.read_output_fused(&mut self.out, deadline) else {
            return Ok(false);
        };
        if let Some(until) = until {
            self.note_delay(began, until.saturating_duration_since(began));
        }
        match filled {
            Ok(true) => Ok(self.out.pending() > before),
            Ok(false) => Ok(true),
            Err(e) => Err(EngineError::Protocol(format!(
                "cannot read its output: {e}"
            ))),
        }
    }

    /// Reads what the engine's output has now, without waiting; notes its end.
    fn fill_output(&mut self) -> Result<(), EngineError> {
        match self.child.read_output(&mut self.out) {
            Ok(_) => Ok(()),
            Err(e) => Err(EngineError::Protocol(format!(
                "cannot read its output: {e}"
            ))),
        }
    }

    /// Reads what the engine wrote to stderr so far, without waiting, into the transcript and the
    /// kept tail; at most a few chunks a call, so a flood cannot hold the referee here.
    pub(super) fn drain_stderr(&mut self) {
        for _ in 0..4 {
            if !self.child.has_stderr() {
                return;
            }
            let before = self.err.pending();
            let open = self.child.read_stderr(&mut self.err);
            if open && self.err.pending() == before {
                break;
            }
            let at_end = !open || self.err.pending() > MAX_LINE;
            while let Some(line) = self.err.take_line(at_end) {
                let text = String::from_utf8_lossy(line);
                let text = shorten(text.trim_end());
                self.note('!', &text);
                self.keep_stderr(text);
            }
        }
    }

    fn keep_stderr(&mut self, line: String) {
        self.stderr_tail.push_back(line);
        while self.stderr_tail.len() > STDERR_TAIL_LINES
            || self.stderr_tail.iter().map(String::len).sum::<usize>() > STDERR_TAIL_BYTES
        {
            self.stderr_tail.pop_front();
        }
    }
}

/// At most 200 characters of `text`, for messages quoting what an engine said.
fn shorten(text: &str) -> String {
    crate::protocol::shorten(text, 200)
}
