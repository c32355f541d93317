//! `referee openings`: a file of distinct random openings for `--openings`.

use std::io::Write;

use crate::cli::args::OpeningsArgs;
use crate::cli::error::{CommandResult, Ended, Error};
use crate::play::openings::{Generate, generate};
use crate::rules::game::Setup;

/// The openings, one per line, to `--out` or `stdout`.
pub fn run(args: OpeningsArgs, stdout: &mut dyn Write) -> CommandResult {
    let options = Generate {
        game: args.game,
        setup: Setup {
            variant: args.variant,
            seats: args.seats,
            ..Setup::default()
        },
        plies: args.plies,
        count: args.count,
        max_lead: args.max_lead,
        seed: args.seed,
    };
    let text = generate(&options)?.join("\n") + "\n";
    match &args.output {
        Some(path) => std::fs::write(path, text).map_err(|e| Error::write(path, e))?,
        None => stdout.write_all(text.as_bytes())?,
    }
    Ok(Ended::Done)
}
