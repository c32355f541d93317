//! `referee bot`: a built-in engine on stdin and stdout, or the human seat's terminal.

use std::io;

use crate::bots::Strategy;
use crate::cli::args::StrategyArg;
use crate::cli::error::{CommandResult, Ended, Error};

/// Runs the bot of `strategy` for `game`; the human seat speaks the protocol on descriptors 3
/// and 4, which the referee opens for it, and keeps the terminal on 0 and 1.
pub fn run(
    game: &str,
    strategy: StrategyArg,
    (seed, nodes): (u64, Option<u64>),
    stdout: io::StdoutLock<'static>,
) -> CommandResult {
    let strategy = match strategy {
        StrategyArg::Random => Strategy::Random,
        StrategyArg::Search => Strategy::Search,
        StrategyArg::Human => Strategy::Human,
    };
    if strategy != Strategy::Human {
        crate::bots::run(
            game,
            strategy,
            (seed, nodes),
            io::stdin().lock(),
            stdout,
            None,
        )?;
        return Ok(Ended::Done);
    }
    let protocol = |fd: u8, write: bool| {
        std::fs::OpenOptions::new()
            .read(!write)
            .write(write)
            .open(format!("/dev/fd/{fd}"))
            .map_err(|e| {
                Error::Usage(format!(
                    "the human seat is started by the referee (`referee play`, or \
                     `--engine human`), which speaks to it on descriptor {fd}: {e}"
                ))
            })
    };
    let (commands, answers) = (protocol(3, false)?, protocol(4, true)?);
    let terminal = crate::bots::human::Terminal::new(
        Box::new(io::stdin().lock()) as Box<dyn io::BufRead>,
        Box::new(stdout) as Box<dyn io::Write>,
    );
    crate::bots::run(
        game,
        strategy,
        (seed, None),
        io::BufReader::new(commands),
        answers,
        Some(terminal),
    )?;
    Ok(Ended::Done)
}
