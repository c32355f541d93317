//! `referee report`: the HTML report of a run.

use std::path::{Path, PathBuf};

use crate::cli::commands::view::write_page;
use crate::cli::error::{CommandResult, Ended, Error};
use crate::records::Record;
use crate::records::file::read_all;
use crate::render::report::{SeriesBuilder, report_html};
use crate::stats::elo::Sprt;

/// The report page for every record of `files` (each game once), written to `output`: the files
/// are read once, the statistics gathered as the games are drawn, and the report written above
/// them when all are read.
pub fn run(files: &[PathBuf], output: &Path, sprt: &[String]) -> CommandResult {
    let sprt = Sprt::parse_option(sprt)?;
    let read = |each: &mut dyn FnMut(Record)| {
        let mut series = SeriesBuilder::default();
        let count = read_all(files, &mut std::io::stderr(), |record| {
            series.add(&record);
            each(record);
        })?;
        if count == 0 {
            return Err(Error::Usage("no records to report".into()));
        }
        // The run's own test when none is given: its records say which.
        let sprt = match (sprt, series.recorded_sprt()) {
            (Some(given), _) => Some(given),
            (None, Some(words)) => {
                let words: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
                Sprt::parse(&words).ok()
            }
            (None, None) => None,
        };
        let mut html = report_html(&series.finish(sprt.as_ref()), sprt.as_ref());
        html.push_str("<p>The games are listed on the left; pick one to replay it.</p>");
        Ok((count, html))
    };
    write_page(output, read)?;
    Ok(Ended::Done)
}
