//! Games of more than two seats kept in a file once they outgrow memory: written in sorted runs
//! as the pool receives them, merged into one sorted list when the pool is rated, and read again
//! for each pass of the fit. Tables drawn at random from many engines are each a kind of their
//! own: without this the pool's memory would grow with the games.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};

use super::Kind;

/// One seat of a kind: engine, place and seat number.
type Seat = (u32, u32, u32);

/// The most seats one kind in the file may have: a check on reading it back, far above any game.
const MOST_SEATS: usize = 1024;

/// Bytes of one seat in the file: engine, place and seat number.
const SEAT_BYTES: usize = 12;

/// Bytes of a kind's head: its number of seats and its count.
const HEAD_BYTES: usize = 12;

/// A file of kinds, each with its count, in runs.
#[derive(Debug)]
pub struct Spill {
    file: File,
    /// Each run's first byte and number of kinds.
    runs: Vec<(u64, u64)>,
    /// Where the next run starts.
    end: u64,
}

impl Spill {
    /// A spill into `file`, which must be empty, readable and writable (a temporary file).
    pub fn new(file: File) -> Spill {
        Spill {
            file,
            runs: Vec::new(),
            end: 0,
        }
    }

    /// How many kinds the file holds (a kind in two runs counted twice).
    pub fn kinds(&self) -> u64 {
        self.runs.iter().map(|&(_, kinds)| kinds).sum()
    }

    /// Appends a run of `kinds`, each with its count: the number of seats and the count, then
    /// each seat's engine, place and seat number, all as little-endian 32-bit numbers (the count
    /// as two). A merge takes each run to be in order.
    pub fn write<K: AsRef<[Seat]>>(
        &mut self,
        kinds: impl Iterator<Item = (K, u64)>,
    ) -> io::Result<()> {
        (&self.file).seek(SeekFrom::Start(self.end))?;
        let mut out = BufWriter::with_capacity(1 << 16, &self.file);
        let (mut written, mut bytes) = (0, 0);
        for (kind, count) in kinds {
            let kind = kind.as_ref();
            let seats = u32::try_from(kind.len())
                .ok()
                .filter(|&s| s as usize <= MOST_SEATS)
                .ok_or_else(|| invalid("a kind of too many seats"))?;
            out.write_all(&seats.to_le_bytes())?;
            out.write_all(&count.to_le_bytes())?;
            for &(engine, place, seat) in kind {
                for value in [engine, place, seat] {
                    out.write_all(&value.to_le_bytes())?;
                }
            }
            written += 1;
            bytes += (HEAD_BYTES + SEAT_BYTES * kind.len()) as u64;
        }
        out.flush()?;
        self.runs.push((self.end, written));
        self.end += bytes;
        Ok(())
    }

    /// Calls `each` with every kind in the file and its count, run after run, in the order
    /// they were written.
    pub fn read(&self, each: &mut dyn FnMut(&[Seat], u64)) -> io::Result<()> {
        let mut kind = Vec::new();
        for &run in &self.runs {
            let mut reader = RunReader::new(&self.file, run, 1 << 16);
            while let Some(count) = reader.next(&mut kind)? {
                each(&kind, count);
            }
        }
        Ok(())
    }

    /// One run in `into` of every kind of the file's runs and of `memory`, its engines numbered
    /// anew by `new` (which keeps each kind's order and the runs'), in order, each once with its
    /// counts summed. `memory` is in order, numbered anew already.
    pub fn merge<'a>(
        &self,
        new: &[u32],
        memory: impl Iterator<Item = (&'a Kind, u64)>,
        into: File,
    ) -> io::Result<Spill> {
        let renumber = |kind: &mut Kind| -> io::Result<()> {
            for seat in kind.iter_mut() {
                seat.0 = *new
                    .get(seat.0 as usize)
                    .ok_or_else(|| invalid("an engine out of range"))?;
            }
            Ok(())
        };
        // Each run's reader, with a share of 4 MiB to read ahead (at least 16 KiB).
        let share = ((4 << 20) / self.runs.len().max(1)).max(16 << 10);
        let mut readers: Vec<RunReader> = (self.runs.iter())
            .map(|&run| RunReader::new(&self.file, run, share))
            .collect();
        let mut heads = BinaryHeap::new();
        for (r, reader) in readers.iter_mut().enumerate() {
            let mut kind = Vec::new();
            if let Some(count) = reader.next(&mut kind)? {
                renumber(&mut kind)?;
                heads.push(Reverse((kind, r, count)));
            }
        }
        let mut memory = memory.peekable();
        let mut merged = Spill::new(into);
        let mut failed = None;
        let mut next = || -> io::Result<Option<(Kind, u64)>> {
            let from_file = heads.peek().map(|Reverse((kind, _, _))| kind);
            let memory_first = match (memory.peek(), from_file) {
                (Some((m, _)), Some(f)) => *m <= f,
                (Some(_), None) => true,
                (None, _) => false,
            };
            if memory_first {
                return Ok(memory.next().map(|(kind, count)| (kind.clone(), count)));
            }
            let Some(Reverse((kind, r, count))) = heads.pop() else {
                return Ok(None);
            };
            let mut following = Vec::new();
            if let Some(next) = readers[r].next(&mut following)? {
                renumber(&mut following)?;
                heads.push(Reverse((following, r, next)));
            }
            Ok(Some((kind, count)))
        };
        let mut current: Option<(Kind, u64)> = None;
        let kinds = std::iter::from_fn(|| {
            loop {
                let read = match next() {
                    Ok(read) => read,
                    Err(e) => {
                        failed = Some(e);
                        None
                    }
                };
                match (read, &mut current) {
                    (Some((kind, count)), Some((same, sum))) if kind == *same => {
                        *sum += count;
                    }
                    (Some(read), _) => {
                        if let Some(done) = current.replace(read) {
                            return Some(done);
                        }
                    }
                    (None, _) => return current.take(),
                }
            }
        });
        merged.write(kinds)?;
        match failed {
            Some(e) => Err(e),
            None => Ok(merged),
        }
    }
}

/// Reads one run of a [`Spill`] kind by kind, a buffer's worth of the file at a time.
struct RunReader<'a> {
    file: &'a File,
    /// The next byte of the file to read into the buffer.
    offset: u64,
    /// Kinds of the run not yet read.
    left: u64,
    buffer: Vec<u8>,
    /// The next byte of the buffer to read.
    at: usize,
    capacity: usize,
}

impl<'a> RunReader<'a> {
    fn new(file: &'a File, (start, kinds): (u64, u64), capacity: usize) -> RunReader<'a> {
        RunReader {
            file,
            offset: start,
            left: kinds,
            buffer: Vec::new(),
            at: 0,
            capacity,
        }
    }

    /// The buffer's next `n` bytes, reading on in the file when it holds fewer.
    fn take(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.buffer.len() - self.at < n {
            self.buffer.drain(..self.at);
            self.at = 0;
            let have = self.buffer.len();
            self.buffer.resize(have.max(self.capacity).max(n), 0);
            self.file.seek(SeekFrom::Start(self.offset))?;
            let mut filled = have;
            while filled < n {
                let read = self.file.read(&mut self.buffer[filled..])?;
                if read == 0 {
                    return Err(invalid("a run cut short"));
                }
                filled += read;
            }
            self.buffer.truncate(filled);
            self.offset += (filled - have) as u64;
        }
        self.at += n;
        Ok(&self.buffer[self.at - n..self.at])
    }

    /// The run's next kind into `kind`, and its count; `None` at the run's end.
    fn next(&mut self, kind: &mut Kind) -> io::Result<Option<u64>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let head = self.take(HEAD_BYTES)?;
        let seats = word(head, 0) as usize;
        let count = u64::from(word(head, 4)) | (u64::from(word(head, 8)) << 32);
        if seats > MOST_SEATS {
            return Err(invalid("a kind of too many seats"));
        }
        let bytes = self.take(seats * SEAT_BYTES)?;
        kind.clear();
        kind.extend((bytes.chunks_exact(SEAT_BYTES)).map(|s| (word(s, 0), word(s, 4), word(s, 8))));
        Ok(Some(count))
    }
}

/// The little-endian 32-bit number at `at` of `bytes` (which holds it).
fn word(bytes: &[u8], at: usize) -> u32 {
    let mut four = [0; 4];
    four.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(four)
}

/// An error of a file that does not hold what was written to it.
fn invalid(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("ratings' spill file: {what}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file in the system's temporary folder, and its path to remove.
    fn temporary(name: &str) -> (File, std::path::PathBuf) {
        let path = std::env::temp_dir().join(format!("referee-{name}-{}", std::process::id()));
        let file = File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .unwrap();
        (file, path)
    }

    fn read_all(spill: &Spill) -> Vec<(Kind, u64)> {
        let mut seen = Vec::new();
        spill.read(&mut |k, c| seen.push((k.to_vec(), c))).unwrap();
        seen
    }

    #[test]
    fn runs_read_back_as_written_and_merge_in_order_once_each() {
        let (file, path) = temporary("spill");
        let mut spill = Spill::new(file);
        let a: Kind = vec![(0, 0, 1), (3, 2, 2), (7, 1, 0)];
        let b: Kind = vec![(1, 5, 5); 6];
        let c: Kind = vec![(2, 0, 0), (4, 1, 1), (5, 2, 2)];
        // In order as numbered anew below (b's engine 1 will be 0, a's 0 will be 1).
        spill
            .write([(&b, u32::MAX as u64 + 2), (&a, 3)].into_iter())
            .unwrap();
        assert_eq!(
            read_all(&spill),
            [(b.clone(), u32::MAX as u64 + 2), (a.clone(), 3)]
        );
        // Reading moved the file's cursor: a later run still follows the first.
        spill.write([(&a, 1), (&c, 2)].into_iter()).unwrap();
        assert_eq!(spill.kinds(), 4);
        assert_eq!(read_all(&spill).len(), 4);
        // Numbered anew (0 <-> 1 swapped, the rest kept: each kind's order holds), merged with
        // a kind in memory, the same kinds summed.
        let new = [1, 0, 2, 3, 4, 5, 6, 7];
        let b_new: Kind = vec![(0, 5, 5); 6];
        let a_new: Kind = vec![(1, 0, 1), (3, 2, 2), (7, 1, 0)];
        let memory: Kind = vec![(0, 9, 9), (2, 0, 0), (3, 0, 0)];
        let (into, merged_path) = temporary("merged");
        let merged = spill
            .merge(&new, [(&memory, 5), (&c, 1)].into_iter(), into)
            .unwrap();
        assert_eq!(
            read_all(&merged),
            [
                (b_new, u32::MAX as u64 + 2),
                (memory, 5),
                (a_new, 4),
                (c, 3)
            ]
        );
        drop((spill, merged));
        std::fs::remove_file(path).unwrap();
        std::fs::remove_file(merged_path).unwrap();
    }

    #[test]
    fn a_file_that_lost_its_end_is_an_error_not_a_list() {
        let (file, path) = temporary("short");
        let mut spill = Spill::new(file);
        let a: Kind = vec![(0, 0, 0), (1, 1, 1), (2, 2, 2)];
        spill.write(std::iter::once((&a, 1))).unwrap();
        spill.file.set_len(20).unwrap();
        assert!(spill.read(&mut |_, _| {}).is_err());
        drop(spill);
        std::fs::remove_file(path).unwrap();
    }
}
