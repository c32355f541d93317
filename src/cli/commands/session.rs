//! `referee session` (the rules as a protocol session on stdin and stdout) and `referee moves`.

use std::io::{self, Write};

use crate::cli::args::MovesArgs;
use crate::cli::error::{CommandResult, Ended};
use crate::protocol::{Framing, NewGame};

/// `referee session`: GTP-framed, or with `plain` only the answers (errors on stderr, status 1
/// after any).
pub fn session(plain: bool, stdout: io::StdoutLock<'_>) -> CommandResult {
    if !plain {
        crate::session::run(io::stdin().lock(), stdout, Framing::Gtp)?;
        return Ok(Ended::Done);
    }
    let mut stderr = io::stderr().lock();
    let framing = Framing::Plain {
        errors: &mut stderr,
    };
    match crate::session::run(io::stdin().lock(), stdout, framing)? {
        0 => Ok(Ended::Done),
        _ => Ok(Ended::Invalid),
    }
}

/// `referee moves`: the legal moves after the given ones, one per line.
pub fn moves(args: MovesArgs, stdout: &mut dyn Write) -> CommandResult {
    let mut options = vec![("seed".to_owned(), args.seed.to_string())];
    options.extend(args.seats.map(|n| ("seats".to_owned(), n.to_string())));
    options.extend(args.setup.map(|token| ("setup".to_owned(), token)));
    let new = NewGame {
        game: args.game,
        variant: args.variant,
        options,
    };
    for mv in crate::session::legal_after(&new, &args.moves)? {
        writeln!(stdout, "{mv}")?;
    }
    Ok(Ended::Done)
}
