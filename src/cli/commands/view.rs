//! `referee view`: one self-contained page that replays the games of record files.

use std::collections::BTreeMap;
use std::io::{Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, mpsc};

use crate::cli::error::{CommandResult, Ended, Error};
use crate::records::Record;
use crate::records::file::read_all;
use crate::render::viewer::{Packed, Packer, PageError, PageWriter};

/// Games read ahead of the page being written: what bounds memory beside the largest game.
const IN_FLIGHT: usize = 8;

/// The page for every record of `files` (each game once), written to `output` one game at a time.
pub fn run(files: &[PathBuf], output: &Path) -> CommandResult {
    let read = |each: &mut dyn FnMut(Record)| {
        let count = read_all(files, &mut std::io::stderr(), each).map_err(Error::from)?;
        Ok((count, String::new()))
    };
    write_page(output, read).map(|_| Ended::Done)
}

/// Writes the page from the records `read` passes to its argument, with the HTML it returns
/// (with the count of records) above the games: a report of the records can be built in the same
/// pass. Each core packs games (drawing every position is the work), the page is written in the
/// records' order, and at most [`IN_FLIGHT`] games wait at a time. The games go into a temporary
/// file, and then the page, with its head, into another beside `output`, which replaces `output`
/// only when the page is whole: a record that does not replay leaves no half page behind.
pub fn write_page(
    output: &Path,
    read: impl FnOnce(&mut dyn FnMut(Record)) -> Result<(usize, String), Error> + Send,
) -> Result<usize, Error> {
    let dir = (output.parent())
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // Unnamed: gone when closed, whatever happens.
    let games = tempfile::tempfile_in(dir).map_err(|e| Error::write(output, e))?;
    let mut writer = PageWriter::games_apart(std::io::BufWriter::new(games));
    let workers = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let (records, to_pack) = mpsc::sync_channel::<(usize, Record)>(IN_FLIGHT);
    let (packed_games, packed) =
        mpsc::sync_channel::<(usize, Result<Packed, PageError>)>(IN_FLIGHT);
    let to_pack = Mutex::new(to_pack);
    // A ticket per game between its reading and its writing: at most IN_FLIGHT of them at once,
    // however slow one game is and however fast the others.
    let (tickets, ticket) = mpsc::sync_channel::<()>(IN_FLIGHT);
    for _ in 0..IN_FLIGHT {
        let _ = tickets.send(());
    }
    let parts = writer.parts();
    let (count, written) = std::thread::scope(|scope| {
        for _ in 0..workers {
            let (to_pack, packed_games, parts) = (&to_pack, packed_games.clone(), &parts);
            scope.spawn(move || {
                let mut packer = Packer::default();
                loop {
                    let next = to_pack.lock().map(|r| r.recv());
                    let Ok(Ok((number, record))) = next else {
                        break;
                    };
                    if packed_games
                        .send((number, packer.pack(number, &record, parts)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(packed_games);
        let reader = scope.spawn(move || {
            let mut number = 0;
            read(&mut |record| {
                // Closed channels mean the page failed: the rest is read and dropped.
                if ticket.recv().is_ok() {
                    let _ = records.send((number, record));
                }
                number += 1;
            })
        });
        // Written in order: games packed early wait here for the ones before them.
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        let mut failed: Result<(), PageError> = Ok(());
        for (number, game) in packed {
            waiting.insert(number, game);
            while let Some(game) = waiting.remove(&next) {
                next += 1;
                if failed.is_ok() {
                    failed = game.and_then(|g| writer.write(g));
                }
                let _ = tickets.send(());
            }
        }
        let count = reader
            .join()
            .unwrap_or_else(|_| Err(Error::Usage("the reader failed".into())));
        (count, failed)
    });
    let (count, report) = count?;
    written?;
    if count == 0 {
        return Err(Error::Usage("no records to show".into()));
    }
    let write_error = |e: PageError| match e {
        PageError::Write(e) => Error::write(output, e),
        other => Error::from(other),
    };
    let (games, around) = writer.end_apart().map_err(write_error)?;
    let mut games = games.get_ref();
    games
        .seek(SeekFrom::Start(0))
        .map_err(|e| Error::write(output, e))?;
    let file = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::write(output, e))?;
    let mut page = std::io::BufWriter::new(file);
    around
        .write(&report, &mut games, &mut page)
        .map_err(write_error)?;
    let file = page
        .into_inner()
        .map_err(|e| Error::write(output, e.into_error()))?;
    file.persist(output)
        .map_err(|e| Error::write(output, e.error))?;
    Ok(count)
}
