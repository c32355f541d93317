//! A running engine process as the conversation sees it with the standard library alone: its
//! pipes are read and written by threads of their own into bounded buffers, and a wait on them is
//! a wait on a condition variable, so that no read or write of the referee's ever blocks.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::process::{ChildStderr, ChildStdin, ChildStdout};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::job::Job;
use crate::engine::ending::Ending;
use crate::engine::pipes::{CHUNK, LineBuffer};
use crate::engine::sys::{Ready, Want};

/// The most bytes waiting in each direction of a pipe: read from the engine and not yet taken, or
/// given to it and not yet written. An engine that leaves this much of its input unread has no
/// room left (as a full pipe).
const HELD: usize = 2 * CHUNK;

/// How often a wait looks whether the process has exited, which no pipe says while a child of its
/// holds them open.
const EXIT_LOOK: Duration = Duration::from_millis(10);

/// How long after its exit a wait still waits for the last of its output: the thread reading the
/// pipe may not have taken its last answer yet, and a child of the engine's may hold the pipe open
/// (then the exit is told after this).
const EXIT_DRAIN: Duration = Duration::from_millis(250);

/// One direction of a pipe, as its thread and the referee share it.
#[derive(Default)]
struct Stream {
    bytes: VecDeque<u8>,
    /// The pipe is closed: at its end (or broken), or given up by the referee.
    closed: bool,
    /// Bytes the writing thread has taken and not yet written (input only).
    writing: usize,
}

/// The three pipes and the signal that one of them changed.
#[derive(Default)]
struct Shared {
    pipes: Mutex<[Stream; 3]>,
    changed: Condvar,
}

const INPUT: usize = 0;
const OUTPUT: usize = 1;
const STDERR: usize = 2;

impl Shared {
    fn lock(&self) -> MutexGuard<'_, [Stream; 3]> {
        self.pipes.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for a change, at most `timeout`.
    fn wait<'a>(
        &self,
        pipes: MutexGuard<'a, [Stream; 3]>,
        timeout: Duration,
    ) -> MutexGuard<'a, [Stream; 3]> {
        let waited = self.changed.wait_timeout(pipes, timeout);
        waited.unwrap_or_else(PoisonError::into_inner).0
    }
}

/// An engine's process and the threads that carry its pipes.
pub struct Child {
    process: std::process::Child,
    shared: Arc<Shared>,
    /// Whether the referee still has each pipe: input, output, stderr.
    open: [bool; 3],
    ended: Option<Ending>,
    /// When its end was first seen.
    ended_at: Option<Instant>,
    /// Its process tree's job (Windows), closed with it.
    _job: Job,
}

impl Child {
    /// The engine run by `process` in `job`, whose pipes are taken and handed to threads.
    pub(super) fn new(mut process: std::process::Child, job: Job) -> io::Result<Child> {
        let shared = Arc::new(Shared::default());
        let missing = || io::Error::other("the engine's pipes were not made");
        let stdin = process.stdin.take().ok_or_else(missing)?;
        let stdout = process.stdout.take().ok_or_else(missing)?;
        let stderr = process.stderr.take().ok_or_else(missing)?;
        spawn_writer(stdin, Arc::clone(&shared))?;
        spawn_reader::<ChildStdout>(stdout, OUTPUT, Arc::clone(&shared))?;
        spawn_reader::<ChildStderr>(stderr, STDERR, Arc::clone(&shared))?;
        Ok(Child {
            process,
            shared,
            open: [true; 3],
            ended: None,
            ended_at: None,
            _job: job,
        })
    }

    /// Gives what the input has room for now to its thread; `WouldBlock` when it has none, 0
    /// once it is closed.
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut pipes = self.shared.lock();
        let input = &mut pipes[INPUT];
        if input.closed || !self.open[INPUT] {
            return Ok(0);
        }
        let room = HELD.saturating_sub(input.bytes.len() + input.writing);
        if room == 0 {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        let n = room.min(bytes.len());
        input.bytes.extend(&bytes[..n]);
        self.shared.changed.notify_all();
        Ok(n)
    }

    /// Whether its input is open.
    pub fn has_input(&self) -> bool {
        self.open[INPUT]
    }

    /// Whether its output is open (not yet read to its end).
    pub fn has_output(&self) -> bool {
        self.open[OUTPUT]
    }

    /// Whether its stderr is open.
    pub fn has_stderr(&self) -> bool {
        self.open[STDERR]
    }

    /// Closes its input (once what was given is written).
    pub fn close_input(&mut self) {
        self.open[INPUT] = false;
        self.shared.lock()[INPUT].closed = true;
        self.shared.changed.notify_all();
    }

    /// Waits up to `timeout` for `want`, its stderr or its exit: which of the three are ready, or
    /// `None` when the pipe `want` needs is closed.
    pub fn ready(&mut self, want: Want, timeout: Duration) -> io::Result<Option<Ready>> {
        let main = match want {
            Want::Output => OUTPUT,
            Want::Room => INPUT,
        };
        if !self.open[main] {
            return Ok(None);
        }
        let deadline = Instant::now() + timeout;
        loop {
            let ended = self.try_wait().is_some();
            let mut pipes = self.shared.lock();
            // An exit is told once its output is read to its end, or a while after, so that an
            // answer written just before it is not lost.
            let drained = pipes[OUTPUT].closed
                || (self.ended_at).is_some_and(|at| at.elapsed() >= EXIT_DRAIN);
            let exited = ended && drained;
            let has = |s: &Stream| !s.bytes.is_empty() || s.closed;
            let ready = Ready {
                main: match want {
                    Want::Output => has(&pipes[OUTPUT]),
                    Want::Room => {
                        let input = &pipes[INPUT];
                        input.closed || input.bytes.len() + input.writing < HELD
                    }
                },
                err: self.open[STDERR] && has(&pipes[STDERR]),
                exited,
            };
            let now = Instant::now();
            if ready.main || ready.err || ready.exited || now >= deadline {
                return Ok(Some(ready));
            }
            let slice = deadline.saturating_duration_since(now).min(EXIT_LOOK);
            pipes = self.shared.wait(pipes, slice);
            drop(pipes);
        }
    }

    /// Reads what its output has now into `into`, without waiting; at its end (`Ok(false)`) the
    /// output is closed.
    pub fn read_output(&mut self, into: &mut LineBuffer) -> io::Result<bool> {
        self.read(OUTPUT, into)
    }

    /// No fused reads here: the caller waits instead.
    pub fn read_output_fused(
        &mut self,
        _into: &mut LineBuffer,
        _deadline: Instant,
    ) -> Option<(io::Result<bool>, Option<Instant>)> {
        None
    }

    /// Reads what its stderr has now into `into`, without waiting; `false` once it is closed.
    pub fn read_stderr(&mut self, into: &mut LineBuffer) -> bool {
        matches!(self.read(STDERR, into), Ok(true))
    }

    fn read(&mut self, which: usize, into: &mut LineBuffer) -> io::Result<bool> {
        if !self.open[which] {
            return Ok(false);
        }
        let open = into.fill(&mut Taken {
            shared: &self.shared,
            which,
        })?;
        self.open[which] = open;
        Ok(open)
    }

    /// How it ended, if it has (reaping it).
    pub fn try_wait(&mut self) -> Option<Ending> {
        if self.ended.is_none() {
            let status = self.process.try_wait().ok().flatten()?;
            self.ended = Some(crate::engine::sys::ending(status));
            self.ended_at = Some(Instant::now());
        }
        self.ended
    }

    /// How it ended, waiting up to `timeout` for its end.
    pub fn wait_within(&mut self, timeout: Duration) -> Option<Ending> {
        crate::engine::sys::poll_ended(Instant::now() + timeout, || self.try_wait())
    }

    /// Kills its process group (the process alone where the platform has none) and closes its
    /// input. The group outlives its leader while a member lives, and its id is not reused
    /// meanwhile, so it is killed even when the engine has exited.
    pub fn kill(&mut self) {
        super::kill_tree(&mut self.process);
        self.close_input();
    }

    /// Takes it off the referee's list once it is reaped or given up on.
    pub fn forget(&self) {
        crate::engine::sys::stop::forget(super::group_of(self.process.id()));
    }

    /// Nothing to let go: it has no cgroup.
    pub fn release(&mut self) {}

    /// It cannot be frozen here.
    pub fn freezable(&self) -> bool {
        false
    }

    /// It cannot be frozen here: never frozen.
    pub fn freeze(&self, _frozen: bool) -> bool {
        false
    }

    /// Its CPU time is not known here.
    pub fn cpu_time(&self) -> Option<Duration> {
        None
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        // The threads end with their pipes; a reader held by something the engine left running
        // ends when that does.
        let mut pipes = self.shared.lock();
        for stream in pipes.iter_mut() {
            stream.closed = true;
            stream.bytes.clear();
        }
        self.shared.changed.notify_all();
    }
}

/// What a reading thread has put in `which`, taken as from a non-blocking pipe.
struct Taken<'a> {
    shared: &'a Shared,
    which: usize,
}

impl Read for Taken<'_> {
    fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
        let mut pipes = self.shared.lock();
        let stream = &mut pipes[self.which];
        if stream.bytes.is_empty() {
            return match stream.closed {
                true => Ok(0),
                false => Err(io::ErrorKind::WouldBlock.into()),
            };
        }
        let n = into.len().min(stream.bytes.len());
        for (to, from) in into.iter_mut().zip(stream.bytes.drain(..n)) {
            *to = from;
        }
        self.shared.changed.notify_all();
        Ok(n)
    }
}

/// Starts the thread that reads `pipe` into stream `which`, holding at most [`HELD`] bytes.
fn spawn_reader<P: Read + Send + 'static>(
    mut pipe: P,
    which: usize,
    shared: Arc<Shared>,
) -> io::Result<()> {
    let thread = std::thread::Builder::new().name("engine pipe".into());
    thread.spawn(move || {
        let mut chunk = vec![0; CHUNK];
        loop {
            let read = match pipe.read(&mut chunk) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                read => read.unwrap_or(0),
            };
            let mut pipes = shared.lock();
            while !pipes[which].closed && pipes[which].bytes.len() >= HELD {
                pipes = shared
                    .changed
                    .wait(pipes)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            let stream = &mut pipes[which];
            if read == 0 || stream.closed {
                stream.closed = true;
                shared.changed.notify_all();
                return;
            }
            stream.bytes.extend(&chunk[..read]);
            shared.changed.notify_all();
        }
    })?;
    Ok(())
}

/// Starts the thread that writes what is given to the engine's input, and closes it when asked.
fn spawn_writer(mut pipe: ChildStdin, shared: Arc<Shared>) -> io::Result<()> {
    let thread = std::thread::Builder::new().name("engine input".into());
    thread.spawn(move || {
        loop {
            let mut pipes = shared.lock();
            while pipes[INPUT].bytes.is_empty() && !pipes[INPUT].closed {
                pipes = shared
                    .changed
                    .wait(pipes)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            let input = &mut pipes[INPUT];
            if input.bytes.is_empty() {
                return;
            }
            let bytes: Vec<u8> = input.bytes.drain(..).collect();
            input.writing = bytes.len();
            drop(pipes);
            let written = pipe.write_all(&bytes).and_then(|()| pipe.flush());
            let mut pipes = shared.lock();
            pipes[INPUT].writing = 0;
            if written.is_err() {
                // A broken pipe: nothing more can be given.
                pipes[INPUT].closed = true;
                pipes[INPUT].bytes.clear();
            }
            shared.changed.notify_all();
            if written.is_err() {
                return;
            }
        }
    })?;
    Ok(())
}
