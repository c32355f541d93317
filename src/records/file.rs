//! Records files: read one record at a time in memory bounded by the largest record, each with
//! its line; a torn last line told apart from a bad one; the same game found twice; and an output
//! file opened for appending only when it holds records, locked against a second run.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hash};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::bounded::{self, Line};
use crate::records::Record;

/// The longest record line read; a longer line is reported, not held in memory.
pub const MAX_RECORD_BYTES: usize = 64 << 20;

/// The bytes of `.jsonl` lines [`Reader::next_piece`] reads at once (more for a longer line).
pub const BLOCK_BYTES: usize = 256 << 10;

/// Why one entry of a records file is not a record.
#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    /// Not JSON, or JSON that is not a record.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// A line longer than [`MAX_RECORD_BYTES`].
    #[error("a line longer than {MAX_RECORD_BYTES} bytes")]
    TooLong,
    /// The file's last line, cut short with no newline: a write stopped by a kill.
    #[error("a torn last line (cut short while it was written): {0}")]
    Torn(serde_json::Error),
}

/// One entry of a records file: the line it starts on (from 1) and the record, or why not.
pub type Entry = (usize, Result<Record, EntryError>);

/// Reads the records of one file: `.jsonl` line by line, anything else as a sequence of JSON
/// values (a pretty-printed `.json` record, say).
pub struct Reader<R> {
    input: BufReader<R>,
    /// The current line, reused from line to line.
    buffer: Vec<u8>,
    lines: bool,
    line: usize,
    done: bool,
    /// The longest line kept ([`MAX_RECORD_BYTES`] but in tests).
    max_line: usize,
    /// The bytes of lines a block is read in ([`BLOCK_BYTES`] but in tests).
    block: usize,
    /// The start of a line read with the block before, not yet ended.
    carry: Vec<u8>,
    /// Blocks' buffers given back, to be read into again.
    spare: Vec<Vec<u8>>,
}

impl Reader<File> {
    /// Opens `path`: `.jsonl` line by line, anything else as JSON values; `-` is standard input,
    /// read as `.jsonl`.
    pub fn open(path: &Path) -> io::Result<Reader<Box<dyn Read>>> {
        if path.as_os_str() == "-" {
            return Ok(Reader::new(Box::new(io::stdin()) as Box<dyn Read>, true));
        }
        let lines = path.extension().is_some_and(|e| e == "jsonl");
        let mut file = File::open(path)?;
        if file.metadata()?.is_file() {
            let mut head = Vec::with_capacity(8);
            (&mut file).take(8).read_to_end(&mut head)?;
            file.rewind()?;
            if let Some(kind) = packed(&head) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "{kind} file, not records: unpack it, or give its records on standard \
                         input as `-` (`zcat FILE | referee validate -`)"
                    ),
                ));
            }
        }
        Ok(Reader::new(Box::new(file) as Box<dyn Read>, lines))
    }
}

/// The compression a file's first bytes show (`a gzip`), if any: such a file holds no record as
/// it is.
fn packed(head: &[u8]) -> Option<&'static str> {
    const MAGIC: [(&[u8], &str); 4] = [
        (b"\x1f\x8b", "a gzip"),
        (b"\x28\xb5\x2f\xfd", "a zstd"),
        (b"\xfd7zXZ\x00", "an xz"),
        (b"BZh", "a bzip2"),
    ];
    (MAGIC.iter())
        .find(|(magic, _)| head.starts_with(magic))
        .map(|&(_, kind)| kind)
}

impl<R: Read> Reader<R> {
    /// Reads `input`, one record per line when `lines`.
    pub fn new(input: R, lines: bool) -> Reader<R> {
        Reader {
            input: BufReader::with_capacity(1 << 16, input),
            buffer: Vec::new(),
            lines,
            line: 0,
            done: false,
            max_line: MAX_RECORD_BYTES,
            block: BLOCK_BYTES,
            carry: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// Skips white space, counting lines; `false` at the end of the input.
    fn skip_space(&mut self) -> io::Result<bool> {
        loop {
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                return Ok(false);
            }
            let space = chunk.iter().take_while(|b| b.is_ascii_whitespace()).count();
            self.line += chunk[..space].iter().filter(|&&b| b == b'\n').count();
            let rest = space < chunk.len();
            self.input.consume(space);
            if rest {
                return Ok(true);
            }
        }
    }

    /// The next entry; `Err` when the input cannot be read.
    pub fn next_entry(&mut self) -> io::Result<Option<Entry>> {
        Ok(self.next_raw()?.map(|(line, raw)| (line, raw.parse())))
    }

    /// The next entry, a `.jsonl` line not yet parsed; `Err` when the input cannot be read.
    pub fn next_raw(&mut self) -> io::Result<Option<(usize, RawEntry<'_>)>> {
        if self.done {
            return Ok(None);
        }
        if self.lines {
            loop {
                let Some(end) =
                    bounded::read_line(&mut self.input, &mut self.buffer, self.max_line)?
                else {
                    return Ok(None);
                };
                self.line += 1;
                let line = self.line;
                let whole = match end {
                    Line::Whole { newline } => newline,
                    Line::TooLong => {
                        return Ok(Some((
                            line,
                            RawEntry::Parsed(Box::new(Err(EntryError::TooLong))),
                        )));
                    }
                };
                if self.buffer.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let text = &self.buffer[..];
                return Ok(Some((line, RawEntry::Line { text, whole })));
            }
        }
        if !self.skip_space()? {
            return Ok(None);
        }
        let line = self.line + 1;
        let mut counted = LineCounter {
            inner: &mut self.input,
            newlines: 0,
        };
        let mut deserializer = serde_json::Deserializer::from_reader(&mut counted);
        let parsed = Record::deserialize(&mut deserializer);
        self.line += counted.newlines;
        if parsed.is_err() {
            // After a syntax error the next value's start cannot be found.
            self.done = true;
        }
        Ok(Some((
            line,
            RawEntry::Parsed(Box::new(parsed.map_err(EntryError::from))),
        )))
    }
}

impl<R: Read> Reader<R> {
    /// The next piece: in a `.jsonl` file, a block of whole lines (about [`BLOCK_BYTES`]) to be
    /// split where it is checked, or a line too long to keep; in any other file, the next
    /// entry. `Err` when the input cannot be read.
    ///
    /// Lines read this way are copied once, from the input into the block, which a worker then
    /// splits; [`Reader::next_raw`] copies each line again, into a buffer of its own.
    pub fn next_piece(&mut self) -> io::Result<Option<Piece>> {
        if !self.lines {
            let entry = self.next_raw()?;
            return Ok(entry.map(|(line, raw)| Piece::Entry(line, Box::new(raw.parse()))));
        }
        if self.done {
            return Ok(None);
        }
        let first_line = self.line + 1;
        // Zeroed once, when first made: a buffer is read into again and again.
        let mut buffer = self.spare.pop().unwrap_or_default();
        let mut len = self.carry.len();
        // At most a line and its newline: so every line a block holds is within the bound.
        buffer.resize(self.block.max(2 * len).min(self.max_line + 1), 0);
        buffer[..len].copy_from_slice(&self.carry);
        self.carry.clear();
        loop {
            if len == buffer.len() {
                if let Some(last) = memchr::memrchr(b'\n', &buffer[..len]) {
                    self.carry.extend_from_slice(&buffer[last + 1..len]);
                    return Ok(Some(Piece::Lines(self.block_of(
                        buffer,
                        last + 1,
                        first_line,
                    ))));
                }
                // One line fills the buffer (a block starts a line): too long, or read on.
                if len > self.max_line {
                    return self.skip_long_line(buffer, first_line).map(Some);
                }
                buffer.resize((2 * len).min(self.max_line + 1), 0);
            }
            let read = self.fill(&mut buffer[len..])?;
            if read == 0 {
                self.done = true;
                if len == 0 {
                    self.recycle(buffer);
                    return Ok(None);
                }
                return Ok(Some(Piece::Lines(self.block_of(buffer, len, first_line))));
            }
            len += read;
        }
    }

    /// Gives a block's buffer back, to be read into again.
    pub fn recycle(&mut self, buffer: Vec<u8>) {
        // Those a long line grew are let go; the rest are as many as were out at once.
        if buffer.len() <= 2 * self.block && self.spare.len() < 64 {
            self.spare.push(buffer);
        }
    }

    /// The block of `buffer`'s first `len` bytes, its lines counted.
    fn block_of(&mut self, buffer: Vec<u8>, len: usize, first_line: usize) -> Block {
        let text = &buffer[..len];
        self.line += memchr::memchr_iter(b'\n', text).count();
        self.line += usize::from(text.last() != Some(&b'\n'));
        Block {
            first_line,
            buffer,
            len,
        }
    }

    /// Reads through the rest of a line longer than the bound, which `buffer` holds the start
    /// of: its end is found as [`Reader::next_raw`] finds it (keeping nothing), and what follows
    /// it stays in the buffered reader, which [`Reader::fill`] reads first.
    fn skip_long_line(&mut self, buffer: Vec<u8>, line: usize) -> io::Result<Piece> {
        self.recycle(buffer);
        self.line += 1;
        bounded::read_line(&mut self.input, &mut Vec::new(), 0)?;
        Ok(Piece::Entry(line, Box::new(Err(EntryError::TooLong))))
    }

    /// Reads into `dest`: what the buffered reader holds first, then (for a `dest` at least as
    /// large as its buffer, as a block's is) straight from the input.
    fn fill(&mut self, dest: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.input.read(dest) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }
}

/// What [`Reader::next_piece`] reads: a block of lines, or one entry.
pub enum Piece {
    /// Whole lines of a `.jsonl` file.
    Lines(Block),
    /// An entry on the line given: a JSON value of another file, or a line too long to keep.
    Entry(usize, Box<Result<Record, EntryError>>),
}

/// Whole lines of a `.jsonl` file read in one piece; only the file's last may lack a newline.
pub struct Block {
    /// The line the block starts on, from 1.
    pub first_line: usize,
    buffer: Vec<u8>,
    len: usize,
}

impl Block {
    /// Its bytes.
    pub fn text(&self) -> &[u8] {
        &self.buffer[..self.len]
    }

    /// Its lines that are not blank, each with its number and whether a newline ended it, as
    /// [`Reader::next_raw`] gives them.
    pub fn lines(&self) -> impl Iterator<Item = (usize, &[u8], bool)> {
        let text = self.text();
        let (mut start, mut line) = (0, self.first_line);
        std::iter::from_fn(move || {
            while start < text.len() {
                let (end, whole) = match memchr::memchr(b'\n', &text[start..]) {
                    Some(at) => (start + at, true),
                    None => (text.len(), false),
                };
                let this = &text[start..end];
                let number = line;
                (start, line) = (end + 1, line + 1);
                if !this.iter().all(u8::is_ascii_whitespace) {
                    return Some((number, this, whole));
                }
            }
            None
        })
    }

    /// Its buffer, for [`Reader::recycle`].
    pub fn into_buffer(self) -> Vec<u8> {
        self.buffer
    }
}

/// One entry as read: a `.jsonl` line, or a value already parsed from any other file.
pub enum RawEntry<'r> {
    /// A line of a `.jsonl` file, without its newline.
    Line {
        /// The line.
        text: &'r [u8],
        /// Whether a newline ended it (else it is the file's last line, perhaps torn).
        whole: bool,
    },
    /// A record, or why not (boxed: a record is large beside a line).
    Parsed(Box<Result<Record, EntryError>>),
}

impl RawEntry<'_> {
    /// The record, or why it is not one.
    pub fn parse(self) -> Result<Record, EntryError> {
        match self {
            RawEntry::Line { text, whole } => {
                // A power loss may leave the last blocks written as NUL bytes: the last line is
                // then a record cut short, or nothing, followed by NULs.
                let text = match whole {
                    true => text,
                    false => without_trailing_nuls(text),
                };
                match serde_json::from_slice::<Record>(text) {
                    Err(e) if !whole && e.is_eof() => Err(EntryError::Torn(e)),
                    other => other.map_err(EntryError::from),
                }
            }
            RawEntry::Parsed(parsed) => *parsed,
        }
    }
}

/// Counts the newlines read through it.
struct LineCounter<'a, R> {
    inner: &'a mut R,
    newlines: usize,
}

impl<R: Read> Read for LineCounter<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.newlines += buf[..n].iter().filter(|&&b| b == b'\n').count();
        Ok(n)
    }
}

/// Finds the same game twice: records of one run with the same game number. The key is the
/// game, variant, seed, seat names and the tags `tournament`, `match_seed` and `game`; records
/// without a `game` tag (imports, hand-made) are never duplicates. Each key is kept as a 64-bit
/// hash with where it was first seen.
#[derive(Default)]
pub struct Duplicates {
    seen: HashMap<u64, (usize, usize)>,
    hasher: std::hash::RandomState,
}

impl Duplicates {
    /// Notes `record`, found in file number `file` at `line`; returns where it was seen first if
    /// it was.
    pub fn first_seen(
        &mut self,
        record: &Record,
        file: usize,
        line: usize,
    ) -> Option<(usize, usize)> {
        let key = self.keys().key(record)?;
        self.note(key, file, line)
    }

    /// What makes the keys, for threads that read records apart from the one that notes them.
    pub fn keys(&self) -> DuplicateKeys {
        DuplicateKeys(self.hasher.clone())
    }

    /// Notes the record of `key` (from [`DuplicateKeys::key`]) at `line` of file number `file`;
    /// returns where it was seen first if it was.
    pub fn note(&mut self, key: u64, file: usize, line: usize) -> Option<(usize, usize)> {
        match self.seen.get(&key) {
            Some(&first) => Some(first),
            None => {
                self.seen.insert(key, (file, line));
                None
            }
        }
    }
}

/// The key of a record for [`Duplicates`], made on any thread.
#[derive(Clone)]
pub struct DuplicateKeys(std::hash::RandomState);

impl DuplicateKeys {
    /// The key of `record`, or `None` when it has no `game` tag and is never a duplicate.
    pub fn key(&self, record: &Record) -> Option<u64> {
        let number = record.tags.get("game")?;
        let mut hasher = self.0.build_hasher();
        (
            &record.game,
            &record.variant,
            record.seed,
            record.seats.iter().map(|s| &s.name).collect::<Vec<_>>(),
            record.tags.get("tournament"),
            record.tags.get("match_seed"),
            number,
        )
            .hash(&mut hasher);
        Some(std::hash::Hasher::finish(&hasher))
    }
}

/// Why records files cannot be read through.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A file cannot be opened or read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A line that is not a record (and not a torn last line).
    #[error("{path}:{line}: not a record: {reason}")]
    NotRecord {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// Why.
        reason: EntryError,
    },
}

/// Reads every record of `paths` in order, skipping a torn last line and games seen before (each
/// noted on `notes`); a line that is not a record is an error naming the file and line. Returns
/// how many records were passed to `each`.
pub fn read_all(
    paths: &[PathBuf],
    notes: &mut dyn Write,
    mut each: impl FnMut(Record),
) -> Result<usize, ReadError> {
    read_all_located(paths, notes, |_, _, record| each(record))
}

/// As [`read_all`], telling `each` the file and line (from 1) of every record.
pub fn read_all_located(
    paths: &[PathBuf],
    notes: &mut dyn Write,
    mut each: impl FnMut(&Path, usize, Record),
) -> Result<usize, ReadError> {
    let mut duplicates = Duplicates::default();
    let mut count = 0;
    for (index, path) in paths.iter().enumerate() {
        let io_error = |source| ReadError::Io {
            path: path.clone(),
            source,
        };
        let mut reader = Reader::open(path).map_err(io_error)?;
        while let Some((line, entry)) = reader.next_entry().map_err(io_error)? {
            match entry {
                Ok(record) => {
                    if let Some((file, first)) = duplicates.first_seen(&record, index, line) {
                        let _ = writeln!(
                            notes,
                            "{}:{line}: skipped game {} seen before at {}:{first}",
                            path.display(),
                            record.tags.get("game").map_or("?", String::as_str),
                            paths[file].display()
                        );
                        continue;
                    }
                    count += 1;
                    each(path, line, record);
                }
                Err(EntryError::Torn(_)) => {
                    let _ = writeln!(notes, "{}:{line}: skipped a torn last line", path.display());
                }
                Err(reason) => {
                    return Err(ReadError::NotRecord {
                        path: path.clone(),
                        line,
                        reason,
                    });
                }
            }
        }
    }
    Ok(count)
}

/// Why a records file cannot be opened for appending.
#[derive(Debug, thiserror::Error)]
pub enum OutError {
    /// It cannot be opened, read or written.
    #[error("cannot use {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Another run holds its lock.
    #[error(
        "{path} is being written by another run (it is locked); wait for it, or use another file"
    )]
    Locked {
        /// The file.
        path: PathBuf,
    },
    /// It holds something other than records; it was left untouched.
    #[error("{path}:{line}: not a record ({reason}); not a records file, so it was left untouched")]
    NotRecords {
        /// The file.
        path: PathBuf,
        /// The first line that is not a record.
        line: usize,
        /// Why.
        reason: String,
    },
    /// Another program cut it or wrote to it while a run had it.
    #[error(
        "{path} changed while the run wrote it ({what}): another program cut it or wrote to it, \
         so games may be lost or a line damaged (every game played since was still appended); \
         `referee validate {path}` shows what it holds"
    )]
    Changed {
        /// The file.
        path: PathBuf,
        /// How it changed.
        what: String,
    },
    /// A record the caller refused (of another tournament, say); the file was left untouched.
    #[error("{path}:{line}: {reason}")]
    Refused {
        /// The file.
        path: PathBuf,
        /// The record's line.
        line: usize,
        /// Why.
        reason: String,
    },
}

impl OutError {
    /// The error of I/O on `path`, for `map_err`.
    fn io(path: &Path) -> impl Fn(io::Error) -> OutError + Copy + '_ {
        |source| OutError::Io {
            path: path.to_owned(),
            source,
        }
    }
}

/// A records file open for appending, locked for as long as it is open, and watched: another
/// program that cuts or writes to it while the run writes it is found out.
pub struct RecordsOut {
    file: File,
    path: PathBuf,
    /// Its length as this run last left it.
    length: u64,
    /// How it was first found changed under the run, if it was.
    changed: Option<String>,
}

/// What [`RecordsOut::open`] found in the file.
#[derive(Debug, Default)]
pub struct Opened {
    /// The records it holds, in order, duplicates left out.
    pub records: usize,
    /// Games found twice (their later copies are not passed on).
    pub duplicates: Vec<String>,
    /// What was repaired: a torn last line cut, or a missing last newline added.
    pub repaired: Option<String>,
}

impl RecordsOut {
    /// Opens `path` (created if missing) for appending, after taking an exclusive lock and
    /// checking that every line is a record: each is given to `each` with its line, except games
    /// already seen, which are listed in [`Opened::duplicates`]. Nothing is changed unless the
    /// whole file reads as records; then a torn last line (a write stopped by a kill) is cut and a
    /// last line missing only its newline gets one.
    pub fn open(
        path: &Path,
        mut each: impl FnMut(usize, &Record) -> Result<(), String>,
    ) -> Result<(RecordsOut, Opened), OutError> {
        let io_error = OutError::io(path);
        let mut file = open_locked(path)?;
        let mut opened = Opened::default();
        let mut duplicates = Duplicates::default();
        let mut reader = Reader::new(&file, true);
        let mut torn = None;
        while let Some((line, entry)) = reader.next_entry().map_err(io_error)? {
            let not_records = |reason: String| OutError::NotRecords {
                path: path.to_owned(),
                line,
                reason,
            };
            match entry {
                Ok(record) => {
                    if let Some((_, first)) = duplicates.first_seen(&record, 0, line) {
                        opened.duplicates.push(format!(
                            "{}:{line}: game {} again (first at line {first}): counted once",
                            path.display(),
                            record.tags.get("game").map_or("?", String::as_str)
                        ));
                        continue;
                    }
                    each(line, &record).map_err(|reason| OutError::Refused {
                        path: path.to_owned(),
                        line,
                        reason,
                    })?;
                    opened.records += 1;
                }
                // A torn record starts like one; anything else is not a records file.
                Err(EntryError::Torn(e)) => torn = Some((line, e)),
                Err(e) => return Err(not_records(e.to_string())),
            }
        }
        drop(reader);
        opened.repaired = repair_end(&mut file, path, torn)?;
        let length = file.metadata().map_err(io_error)?.len();
        let out = RecordsOut {
            file,
            path: path.to_owned(),
            length,
            changed: None,
        };
        Ok((out, opened))
    }

    /// Appends `record` as one line, written whole and flushed. Where the file is not as the run
    /// left it (see [`RecordsOut::check`]), the record still goes in, on a line of its own.
    pub fn append(&mut self, record: &Record) -> Result<(), OutError> {
        let io_error = OutError::io(&self.path);
        let mut line = serde_json::to_vec(record).map_err(|e| io_error(io::Error::other(e)))?;
        line.push(b'\n');
        let now = self.file.metadata().map_err(io_error)?.len();
        if now != self.length {
            (self.changed).get_or_insert_with(|| changed(now, self.length));
            if whole_length(&mut self.file, now).map_err(io_error)? < now {
                line.insert(0, b'\n');
            }
        }
        self.file.write_all(&line).map_err(io_error)?;
        self.file.flush().map_err(io_error)?;
        self.length = now + line.len() as u64;
        Ok(())
    }

    /// Whether the file is as the run left it: an error if another program cut it or wrote to
    /// it while the run had it (games may be lost, a line damaged).
    pub fn check(&self) -> Result<(), OutError> {
        let io_error = OutError::io(&self.path);
        let now = self.file.metadata().map_err(io_error)?.len();
        let what = (self.changed.clone())
            .or_else(|| (now != self.length).then(|| changed(now, self.length)));
        match what {
            None => Ok(()),
            Some(what) => Err(OutError::Changed {
                path: self.path.clone(),
                what,
            }),
        }
    }
}

/// How a file's length differs from the one a run left it at.
fn changed(now: u64, left: u64) -> String {
    format!("{now} bytes where the run had left {left}")
}

/// Opens `path` (created if missing) to read and append, under an exclusive lock.
fn open_locked(path: &Path) -> Result<File, OutError> {
    let io_error = OutError::io(path);
    // Only the referee's user may read a run's records while it runs: a record holds the seed
    // that dealt its game's cards.
    let file = crate::sys::owner_only(&mut OpenOptions::new())
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(io_error)?;
    // A run killed outright may leave an engine it was starting between its clone and its exec,
    // holding a copy of the locked file until the exec closes it: a lock still held after
    // LOCK_PATIENCE is another run's.
    let patience = std::time::Instant::now() + LOCK_PATIENCE;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < patience => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(OutError::Locked {
                    path: path.to_owned(),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io_error(e)),
        }
    }
}

/// How long a run waits for the lock of its records file before it says another run has it.
const LOCK_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);

/// Repairs the end of a file that reads as records: a `torn` last line (its line and error) cut,
/// or a last newline added; says what was done.
fn repair_end(
    file: &mut File,
    path: &Path,
    torn: Option<(usize, serde_json::Error)>,
) -> Result<Option<String>, OutError> {
    let io_error = OutError::io(path);
    let length = file.seek(SeekFrom::End(0)).map_err(io_error)?;
    let whole = whole_length(file, length).map_err(io_error)?;
    if let Some((line, error)) = torn {
        if !starts_a_record(file, whole).map_err(io_error)? {
            return Err(OutError::NotRecords {
                path: path.to_owned(),
                line,
                reason: error.to_string(),
            });
        }
        file.set_len(whole).map_err(io_error)?;
        return Ok(Some(format!(
            "{}:{line}: cut a torn last line ({} bytes; a run stopped while writing it)",
            path.display(),
            length - whole
        )));
    }
    if whole < length {
        file.write_all(b"\n").map_err(io_error)?;
        return Ok(Some(format!(
            "{}: added the newline missing after its last record",
            path.display()
        )));
    }
    Ok(None)
}

/// The length of `file` up to and including its last newline.
fn whole_length(file: &mut File, length: u64) -> io::Result<u64> {
    let mut end = length;
    let mut block = [0u8; 4096];
    while end > 0 {
        let start = end.saturating_sub(block.len() as u64);
        let part = &mut block[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(part)?;
        if let Some(i) = part.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Whether the text at `offset` begins like a record line (`{"`), or is the NUL bytes a power
/// loss leaves.
fn starts_a_record(file: &mut File, offset: u64) -> io::Result<bool> {
    let mut head = [0u8; 2];
    file.seek(SeekFrom::Start(offset))?;
    let n = file.read(&mut head)?;
    Ok(head[..n] == *b"{\"" || head[..n] == *b"{" || head[..n].first() == Some(&0))
}

/// `text` without the NUL bytes that end it.
fn without_trailing_nuls(text: &[u8]) -> &[u8] {
    let end = text.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    &text[..end]
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Every entry of `input` with its line, read line by line.
    fn by_line(input: &[u8], max_line: usize) -> Vec<(usize, String)> {
        let mut reader = Reader::new(input, true);
        reader.max_line = max_line;
        let mut entries = Vec::new();
        while let Some((line, raw)) = reader.next_raw().unwrap() {
            entries.push(match raw {
                RawEntry::Line { text, whole } => (line, describe(text, whole)),
                RawEntry::Parsed(parsed) => {
                    assert!(matches!(*parsed, Err(EntryError::TooLong)));
                    (line, "too long".to_owned())
                }
            });
        }
        entries
    }

    /// Every entry of `input` with its line, read in blocks of `block` bytes.
    fn by_block(input: &[u8], max_line: usize, block: usize) -> Vec<(usize, String)> {
        let mut reader = Reader::new(input, true);
        (reader.max_line, reader.block) = (max_line, block);
        let mut entries = Vec::new();
        while let Some(piece) = reader.next_piece().unwrap() {
            match piece {
                Piece::Lines(block) => {
                    let lines = block.lines();
                    entries.extend(lines.map(|(l, text, whole)| (l, describe(text, whole))));
                    reader.recycle(block.into_buffer());
                }
                Piece::Entry(line, parsed) => {
                    assert!(matches!(*parsed, Err(EntryError::TooLong)));
                    entries.push((line, "too long".to_owned()));
                }
            }
        }
        entries
    }

    /// A line's text and whether a newline ended it.
    fn describe(text: &[u8], whole: bool) -> String {
        format!("{whole} {}", String::from_utf8_lossy(text))
    }

    proptest! {
        #![proptest_config(crate::proptest_cases::config(3000))]

        /// Read in blocks of any size, a file gives the lines read one by one: the same lines,
        /// numbers, last newline, blank lines skipped and long lines refused.
        #[test]
        fn blocks_give_the_lines_one_by_one_gives(
            input in prop::collection::vec(prop::sample::select(b"ab \n\n\r\t{".to_vec()), 0..200),
            max_line in 1usize..40,
            block in 1usize..50,
        ) {
            prop_assert_eq!(by_block(&input, max_line, block), by_line(&input, max_line));
        }
    }
}
