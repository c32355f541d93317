//! `referee report`: the HTML report of a run.

use std::path::{Path, PathBuf};

use crate::cli::error::{CommandResult, Ended, Error};
use crate::records::file::read_all;
use crate::render::report::report;
use crate::render::viewer::page_with;
use crate::stats::elo::Sprt;

/// The report page for every record of `files` (each game once), written to
/// `output`.
pub fn run(files: &[PathBuf], output: &Path, sprt: &[String]) -> CommandResult {
    let sprt = Sprt::parse_option(sprt)?;
    let mut records = Vec::new();
    read_all(files, &mut std::io::stderr(), |record| records.push(record))?;
    if records.is_empty() {
        return Err(Error::Usage("no records to report".into()));
    }
    let page = page_with(&records, &report(&records, sprt.as_ref()))?;
    std::fs::write(output, page).map_err(|e| Error::write(output, e))?;
    Ok(Ended::Done)
}
