//! `referee view`: one self-contained page that replays the games of record files.

use std::path::{Path, PathBuf};

use crate::cli::error::{CommandResult, Ended, Error};
use crate::records::file::read_all;
use crate::render::viewer::page;

/// The page for every record of `files` (each game once), written to `output`.
pub fn run(files: &[PathBuf], output: &Path) -> CommandResult {
    let mut records = Vec::new();
    read_all(files, &mut std::io::stderr(), |record| records.push(record))?;
    if records.is_empty() {
        return Err(Error::Usage("no records to show".into()));
    }
    std::fs::write(output, page(&records)?).map_err(|e| Error::write(output, e))?;
    Ok(Ended::Done)
}
