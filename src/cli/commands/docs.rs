//! What the program prints about itself: `rules`, `schema`, `completions` and `man`.

use std::io::Write;

use clap::CommandFactory;

use crate::cli::args::Cli;
use crate::cli::error::{CommandResult, Ended, Error};

/// `referee rules [GAME]`: a game's rules page, or the list of games.
pub fn rules(game: Option<&str>, stdout: &mut dyn Write) -> CommandResult {
    let text = match game {
        None => crate::rules::docs::INDEX,
        Some(id) => crate::rules::docs::page(id)
            .ok_or_else(|| Error::Usage(format!("no rules for game {id}")))?,
    };
    stdout.write_all(text.as_bytes())?;
    Ok(Ended::Done)
}

/// `referee schema`: the JSON Schema of records.
pub fn schema(stdout: &mut dyn Write) -> CommandResult {
    writeln!(stdout, "{}", crate::records::schema())?;
    Ok(Ended::Done)
}

/// `referee completions SHELL`.
pub fn completions(shell: clap_complete::Shell, stdout: &mut dyn Write) -> CommandResult {
    clap_complete::generate(shell, &mut Cli::command(), "referee", stdout);
    Ok(Ended::Done)
}

/// `referee man [SUBCOMMAND]`: the top page, or a subcommand's as the top page names it.
pub fn man(subcommand: Option<&str>, stdout: &mut dyn Write) -> CommandResult {
    let mut top = Cli::command();
    // Built, so that the `help` subcommand the top page lists is there too.
    top.build();
    let page = match subcommand {
        None => clap_mangen::Man::new(top),
        Some(name) => {
            let Some(sub) = top.find_subcommand(name) else {
                return Err(Error::Usage(format!(
                    "no subcommand `{name}` (`referee --help` lists them)"
                )));
            };
            // The name the top page gives it: referee-match(1).
            clap_mangen::Man::new(sub.clone()).title(format!("referee-{name}"))
        }
    };
    page.render(stdout)?;
    Ok(Ended::Done)
}
