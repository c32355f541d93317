//! The command layer: the command line's types, one file per subcommand, the run of a match or
//! tournament (records file, resume, progress, signals), and every exit status. Only this layer
//! prints, writes `--out` or standard output, and picks how the program exits; everything below
//! returns data and its own typed error.

pub mod args;
pub(crate) mod commands;
pub mod error;
pub(crate) mod plan;
pub mod run;
pub(crate) mod serve;
mod spellings;

use std::io;

use args::{Cli, Command, Deferred};
use error::{CommandResult, exit_status};

/// The most characters of any one quoted text (`...`) in an error the referee prints.
const QUOTE_LIMIT: usize = 400;

/// The program: parses the command line, runs the subcommand, says why it failed (if it did) and
/// returns its exit status.
pub fn main() -> u8 {
    let result = dispatch(Cli::parse_args());
    // Every engine has ended by now; their cgroups go (a referee that dies instead leaves them to
    // its janitor and the next run).
    crate::engine::cgroup::release();
    if let Err(error) = &result
        && !error.is_closed_output()
    {
        // Errors quote what they were given, and a hostile file may give megabytes.
        let text = crate::protocol::shorten_quotes(&error.to_string(), QUOTE_LIMIT);
        eprintln!("referee: {}", crate::protocol::terminal_safe(&text));
    }
    exit_status(&result)
}

fn dispatch(cli: Cli) -> CommandResult {
    let mut stdout = io::stdout().lock();
    match cli.command {
        Command::Session(Deferred(args::SessionArgs { plain })) => {
            commands::session::session(plain, stdout)
        }
        Command::Moves(Deferred(args)) => commands::session::moves(args, &mut stdout),
        Command::Validate(Deferred(args::ValidateArgs { files, json })) => {
            commands::validate::run(&files, json, &mut stdout)
        }
        Command::Import(Deferred(args::ImportArgs { from, file, output })) => {
            commands::import::run(from, &file, output.as_deref(), &mut stdout)
        }
        Command::Bot(Deferred(args::BotArgs {
            game,
            strategy,
            seed,
            nodes,
        })) => commands::bot::run(&game, strategy, (seed, nodes), stdout),
        Command::CheckEngine(Deferred(args)) => commands::check_engine::run(args, &mut stdout),
        Command::Play(Deferred(args)) => commands::play::human(args, &mut stdout),
        Command::Match(Deferred(args)) => commands::play::one_match(args, &mut stdout),
        Command::Tournament(Deferred(args)) => commands::play::tournament(args, &mut stdout),
        Command::Stats(Deferred(args::StatsArgs {
            files,
            progress,
            json,
        })) => commands::stats::run(&files, &progress, json, &mut stdout),
        Command::Export(Deferred(args)) => commands::export::run(args, &mut stdout),
        Command::Ratings(Deferred(args)) => commands::ratings::run(args, &mut stdout),
        Command::Render(Deferred(args)) => commands::render::run(args, &mut stdout),
        Command::Openings(Deferred(args)) => commands::openings::run(args, &mut stdout),
        Command::View(Deferred(args::ViewArgs { files, output })) => {
            commands::view::run(&files, &output)
        }
        Command::Serve(Deferred(args::ServeArgs {
            files,
            live,
            progress,
            reveal,
            bind,
            sprt,
            allow_host,
        })) => serve::run(serve::ServeArgs {
            files: serve::Files {
                records: files,
                lives: live,
                progress,
                reveal,
            },
            bind,
            sprt,
            hosts: serve::Hosts::new(&allow_host),
        }),
        Command::Report(Deferred(args::ReportArgs {
            files,
            output,
            sprt,
        })) => commands::report::run(&files, &output, &sprt),
        Command::Rules(Deferred(args::RulesArgs { game })) => {
            commands::docs::rules(game.as_deref(), &mut stdout)
        }
        Command::Schema => commands::docs::schema(&mut stdout),
        Command::Completions(Deferred(args::CompletionsArgs { shell })) => {
            commands::docs::completions(shell, &mut stdout)
        }
        Command::Man(Deferred(args::ManArgs { subcommand })) => {
            commands::docs::man(subcommand.as_deref(), &mut stdout)
        }
    }
}
