//! `referee view`: one self-contained page that replays the games of record files.

use std::path::{Path, PathBuf};

use crate::cli::error::{CommandResult, Ended, Error};
use crate::records::file::read_all;
use crate::render::viewer::{PageError, PageWriter};

/// The page for every record of `files` (each game once), written to `output` one game at a time.
pub fn run(files: &[PathBuf], output: &Path) -> CommandResult {
    write_page(output, "", |each| {
        read_all(files, &mut std::io::stderr(), each).map_err(Error::from)
    })
    .map(|_| Ended::Done)
}

/// Writes the page with `report` above it: the records `read` passes to its argument go into a
/// temporary file beside `output`, which replaces `output` only when the page is whole, so a
/// record that does not replay leaves no half page behind.
pub fn write_page(
    output: &Path,
    report: &str,
    read: impl FnOnce(&mut dyn FnMut(crate::records::Record)) -> Result<usize, Error>,
) -> Result<usize, Error> {
    let dir = output
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::write(output, e))?;
    let mut writer = PageWriter::start(std::io::BufWriter::new(file), report)?;
    let mut failed: Option<PageError> = None;
    let count = read(&mut |record| {
        if failed.is_none() {
            failed = writer.add(&record).err();
        }
    })?;
    if let Some(error) = failed {
        return Err(error.into());
    }
    if count == 0 {
        return Err(Error::Usage("no records to show".into()));
    }
    let file = (writer.finish()?.into_inner()).map_err(|e| Error::write(output, e.into_error()))?;
    file.persist(output)
        .map_err(|e| Error::write(output, e.error))?;
    Ok(count)
}
