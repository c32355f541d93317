//! The `referee` binary: parses the command line, calls the library, maps errors to exit codes.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;

use cli::{Cli, Command, ImportFormat, MatchArgs, OnFaultArg, StrategyArg};
use referee::arena::{EngineSpec, MatchConfig, OnFault};
use referee::bots::Strategy;
use referee::clock::TimeControl;
use referee::engine::EngineCommand;
use referee::import::{self, Source};
use referee::standings::{Standings, game_line};

/// Exit status when records are invalid or a transcript does not replay.
const INVALID: u8 = 1;
/// Exit status when the work could not be done at all (unreadable input, I/O error).
const FAILURE: u8 = 2;

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        // A reader that went away (`referee match | head`) is no failure.
        Err(error)
            if error
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("referee: {error:#}");
            ExitCode::from(FAILURE)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Session => {
            referee::session::run(io::stdin().lock(), io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Validate { files, json } => {
            let report = referee::validate::validate_files(&files);
            let mut out = io::stdout().lock();
            if json {
                serde_json::to_writer(&mut out, &report)?;
                writeln!(out)?;
            } else {
                writeln!(out, "{report}")?;
            }
            let unreadable = report
                .problems
                .iter()
                .any(|p| p.kind == referee::validate::ProblemKind::Unreadable);
            Ok(match (report.ok(), unreadable) {
                (true, _) => ExitCode::SUCCESS,
                (false, true) => ExitCode::from(FAILURE),
                (false, false) => ExitCode::from(INVALID),
            })
        }
        Command::Import { from, file, output } => {
            let text = if file.as_os_str() == "-" {
                io::read_to_string(io::stdin())
            } else {
                std::fs::read_to_string(&file)
            }
            .with_context(|| format!("cannot read {}", file.display()))?;
            let source = match from {
                ImportFormat::Codecup => Source::CodeCup,
                ImportFormat::Littlegolem => Source::LittleGolem,
            };
            let mut lines = String::new();
            let mut failed = false;
            for result in import::import(source, &text) {
                match result {
                    Ok(record) => {
                        lines.push_str(&serde_json::to_string(&record)?);
                        lines.push('\n');
                    }
                    Err(e) => {
                        eprintln!("{}:{e}", file.display());
                        failed = true;
                    }
                }
            }
            match output {
                Some(path) => std::fs::write(&path, lines)
                    .with_context(|| format!("cannot write {}", path.display()))?,
                None => io::stdout().lock().write_all(lines.as_bytes())?,
            }
            Ok(if failed {
                ExitCode::from(INVALID)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Bot {
            game,
            strategy,
            seed,
        } => {
            let strategy = match strategy {
                StrategyArg::Random => Strategy::Random,
                StrategyArg::Search => Strategy::Search,
            };
            referee::bots::run(
                &game,
                strategy,
                seed,
                io::stdin().lock(),
                io::stdout().lock(),
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Match(args) => run_match(args),
        Command::Schema => {
            writeln!(io::stdout().lock(), "{}", referee::record::schema())?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The built-in bots, run as processes of this very program: `search` against `random` in every
/// other seat.
fn builtin_engines(game: &str, seats: usize, seed: u64) -> anyhow::Result<Vec<EngineSpec>> {
    let exe = std::env::current_exe().context("cannot find this program to run its bots")?;
    let exe = exe.to_string_lossy();
    let exe = shlex::try_quote(&exe).context("this program's path cannot be quoted")?;
    Ok((0..seats.max(1))
        .map(|i| {
            let strategy = if i == 0 { "search" } else { "random" };
            EngineSpec {
                command: EngineCommand {
                    name: strategy.to_owned(),
                    command: format!(
                        "{exe} bot --game {game} --strategy {strategy} --seed {}",
                        seed.wrapping_add(i as u64)
                    ),
                    dir: None,
                },
                tc: None,
            }
        })
        .collect())
}

fn run_match(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let seed = match args.seed {
        Some(seed) => seed,
        None => getrandom::u64().context("cannot draw a seed")?,
    };
    if let Some(seats) = args
        .seats
        .filter(|&s| !args.engines.is_empty() && s != args.engines.len())
    {
        anyhow::bail!(
            "--seats {seats} needs {seats} --engine values, not {}",
            args.engines.len()
        );
    }
    let mut engines = if args.engines.is_empty() {
        builtin_engines(&args.game, args.seats.unwrap_or(2), seed)?
    } else {
        args.engines
            .iter()
            .map(|text| EngineSpec::parse(text))
            .collect::<Result<_, _>>()?
    };
    // Two engines of the same name would merge in the standings.
    for i in 1..engines.len() {
        let name = engines[i].command.name.clone();
        if engines[..i].iter().any(|e| e.command.name == name) {
            engines[i].command.name = format!("{name}#{}", i + 1);
        }
    }
    let tc = match args.movetime {
        Some(ms) => TimeControl::MoveTime(std::time::Duration::from_millis(ms)),
        None => args.tc.parse()?,
    };
    let config = MatchConfig {
        game: args.game,
        variant: args.variant,
        engines,
        games: args.games,
        repeat: args.repeat,
        seed,
        tc,
        margin: std::time::Duration::from_millis(args.margin),
        startup: std::time::Duration::from_millis(args.startup),
        concurrency: args.concurrency,
        on_fault: match args.on_fault {
            OnFaultArg::Forfeit => OnFault::Forfeit,
            OnFaultArg::Substitute => OnFault::Substitute,
        },
        log_dir: args.log_dir,
    };
    let mut out = match &args.out {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open {}", path.display()))?,
        ),
        None => None,
    };
    // An interrupted match must not leave engines behind.
    ctrlc::set_handler(|| {
        referee::engine::kill_all();
        std::process::exit(130);
    })
    .context("cannot install the interrupt handler")?;
    let mut standings = Standings::new(
        config
            .engines
            .iter()
            .map(|e| e.command.name.clone())
            .collect(),
    );
    let total = config.games;
    let json = args.json;
    let schedule = referee::arena::match_schedule(&config);
    referee::arena::run(&config, &schedule, |mut finished| {
        finished
            .record
            .tags
            .insert("match_seed".into(), seed.to_string());
        if let Some(file) = out.as_mut() {
            // One write per record keeps every line whole.
            let mut line = serde_json::to_string(&finished.record).map_err(io::Error::other)?;
            line.push('\n');
            file.write_all(line.as_bytes())?;
            file.flush()?;
        }
        standings.add(&finished);
        if !json {
            writeln!(io::stdout().lock(), "{}", game_line(&finished, total))?;
        }
        Ok(())
    })
    .map_err(|e| match e {
        referee::arena::MatchError::Output(io) => anyhow::Error::from(io),
        other => other.into(),
    })?;
    let mut stdout = io::stdout().lock();
    if json {
        writeln!(stdout, "{}", standings.to_json())?;
    } else {
        writeln!(stdout, "{standings}")?;
    }
    Ok(ExitCode::SUCCESS)
}
