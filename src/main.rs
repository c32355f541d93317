//! The `referee` binary: parses the command line, calls the library, maps errors to exit codes.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;

use cli::{
    Cli, Command, FormatArg, ImportFormat, MatchArgs, OnFaultArg, PlayArgs, StrategyArg,
    TournamentArgs,
};
use referee::bots::Strategy;
use referee::play::arena::{EngineSpec, MatchConfig, OnFault};
use referee::play::clock::TimeControl;
use referee::play::engine::EngineCommand;
use referee::play::schedule::{Format, Plan, Shard, schedule};
use referee::records::file::{Opened, RecordsOut};
use referee::records::import::{self, Source};
use referee::stats::elo::{Sprt, SprtState, Tally};
use referee::stats::results::{Counter, Results};
use referee::stats::standings::{Standings, game_line};

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
            let report = referee::records::validate::validate_files(&files);
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
                .any(|p| p.kind == referee::records::validate::ProblemKind::Unreadable);
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
        Command::Tournament(args) => run_tournament(args),
        Command::Stats { files, json } => run_stats(&files, json),
        Command::Render {
            file,
            game,
            ply,
            seat,
            output,
        } => {
            let mut found = None;
            let mut seen = 0;
            read_records(std::slice::from_ref(&file), |record| {
                seen += 1;
                if seen == game {
                    found = Some(record);
                }
                Ok(())
            })?;
            let record = found
                .as_ref()
                .with_context(|| format!("{} has no game {game}", file.display()))?;
            let position =
                referee::records::replay::replay_record(record, ply).map_err(anyhow::Error::msg)?;
            let viewer = match seat {
                Some(seat) if seat < record.seats.len() => referee::rules::game::Viewer::Seat(seat),
                Some(seat) => anyhow::bail!("no seat {seat} in a game of {}", record.seats.len()),
                None => referee::rules::game::Viewer::Everyone,
            };
            let svg = referee::rules::game::Game::render_svg(&position, viewer);
            match output {
                Some(path) => std::fs::write(&path, svg + "\n")
                    .with_context(|| format!("cannot write {}", path.display()))?,
                None => writeln!(io::stdout().lock(), "{svg}")?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::View { files, output } => {
            let mut records = Vec::new();
            read_records(&files, |record| {
                records.push(record);
                Ok(())
            })?;
            if records.is_empty() {
                anyhow::bail!("no records to show");
            }
            let page = referee::render::viewer::page(&records).map_err(anyhow::Error::msg)?;
            std::fs::write(&output, page)
                .with_context(|| format!("cannot write {}", output.display()))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Schema => {
            writeln!(io::stdout().lock(), "{}", referee::records::schema())?;
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

/// The match configuration `play` asks for (engines, clocks, the seed: drawn when not given).
fn play_config(play: PlayArgs, games: usize) -> anyhow::Result<MatchConfig> {
    let seed = match play.seed {
        Some(seed) => seed,
        None => getrandom::u64().context("cannot draw a seed")?,
    };
    let mut engines = if play.engines.is_empty() {
        builtin_engines(&play.game, play.seats.unwrap_or(2), seed)?
    } else {
        play.engines
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
    let tc = match play.movetime {
        Some(ms) => TimeControl::MoveTime(std::time::Duration::from_millis(ms)),
        None => play.tc.parse()?,
    };
    Ok(MatchConfig {
        game: play.game,
        variant: play.variant,
        engines,
        games,
        repeat: play.repeat,
        seed,
        tc,
        margin: std::time::Duration::from_millis(play.margin),
        startup: std::time::Duration::from_millis(play.startup),
        concurrency: play.concurrency,
        on_fault: match play.on_fault {
            OnFaultArg::Forfeit => OnFault::Forfeit,
            OnFaultArg::Substitute => OnFault::Substitute,
        },
        log_dir: play.log_dir,
        log_limit: play.log_limit,
    })
}

/// Stops the run on INT, TERM, HUP or QUIT: engines killed, no new one started, the games under
/// way not recorded.
fn kill_engines_on_interrupt() -> anyhow::Result<()> {
    referee::play::process::stop_on_signals().context("cannot install the signal handlers")
}

/// The exit status of a run a signal stopped: 128 + the signal, as a shell reports it.
fn interrupted() -> ExitCode {
    let signal = referee::play::process::stopped_by().unwrap_or(2);
    ExitCode::from(u8::try_from(128 + signal).unwrap_or(130))
}

/// Opens `--out` for appending: refused when it is not a records file or another run holds it;
/// a repair (a torn last line cut) is told on stderr.
fn open_out(
    path: &std::path::Path,
    each: impl FnMut(usize, &referee::records::Record) -> Result<(), String>,
) -> anyhow::Result<(RecordsOut, Opened)> {
    let (out, opened) = RecordsOut::open(path, each)?;
    for note in opened.repaired.iter().chain(&opened.duplicates) {
        eprintln!("referee: {note}");
    }
    Ok((out, opened))
}

/// The outcome of the arena: `Ok(true)` when a signal stopped it (the standings so far are still
/// printed), with a closed output kept as an I/O error (a reader that went away).
fn arena_outcome(outcome: Result<(), referee::play::arena::MatchError>) -> anyhow::Result<bool> {
    match outcome {
        Ok(()) => Ok(false),
        Err(referee::play::arena::MatchError::Interrupted) => Ok(true),
        Err(referee::play::arena::MatchError::Output(io)) => Err(anyhow::Error::from(io)),
        Err(other) => Err(other.into()),
    }
}

/// The end of a run: its exit status, with a note when a signal stopped it.
fn run_end(stopped: bool) -> ExitCode {
    if stopped {
        eprintln!("referee: interrupted: the games under way were not recorded");
        interrupted()
    } else {
        ExitCode::SUCCESS
    }
}

fn run_match(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let json = args.play.json;
    let engines = args.play.engines.len();
    if let Some(seats) = args.play.seats.filter(|&s| engines > 0 && s != engines) {
        anyhow::bail!("--seats {seats} needs {seats} --engine values, not {engines}");
    }
    let config = play_config(args.play, args.games)?;
    let seed = config.seed;
    let mut out = match args.out.as_deref() {
        Some(path) => Some(open_out(path, |_, _| Ok(()))?.0),
        None => None,
    };
    kill_engines_on_interrupt()?;
    let mut standings = Standings::new(
        config
            .engines
            .iter()
            .map(|e| e.command.name.clone())
            .collect(),
    );
    let total = config.games;
    let schedule = referee::play::arena::match_schedule(&config);
    let outcome = referee::play::arena::run(&config, schedule, |mut finished| {
        finished
            .record
            .tags
            .insert("match_seed".into(), seed.to_string());
        if let Some(file) = out.as_mut() {
            file.append(&finished.record)?;
        }
        standings.add(&finished);
        if !json {
            writeln!(io::stdout().lock(), "{}", game_line(&finished, total))?;
        }
        Ok(true)
    });
    let stopped = arena_outcome(outcome)?;
    let mut stdout = io::stdout().lock();
    if json {
        writeln!(stdout, "{}", standings.to_json())?;
    } else {
        writeln!(stdout, "{standings}")?;
    }
    Ok(run_end(stopped))
}

fn run_tournament(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    let json = args.play.json;
    let sprt = match args.sprt.is_empty() {
        true => None,
        false => Some(Sprt::parse(&args.sprt).map_err(anyhow::Error::msg)?),
    };
    let shard = args
        .shard
        .as_deref()
        .map(str::parse::<Shard>)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let seats_asked = args.play.seats;
    let config = play_config(args.play, 0)?;
    if config.engines.len() < 3 {
        anyhow::bail!("a tournament needs three engines or more (use `match` for two)");
    }
    let setup = referee::rules::game::Setup {
        variant: config.variant.clone(),
        seats: seats_asked,
        ..Default::default()
    };
    let seats =
        referee::rules::game::Game::seats(&referee::rules::AnyGame::create(&config.game, &setup)?);
    if seats > config.engines.len() {
        anyhow::bail!(
            "{} seats need as many engines, not {}",
            seats,
            config.engines.len()
        );
    }
    let plan = Plan {
        format: match args.format {
            FormatArg::RoundRobin => Format::RoundRobin,
            FormatArg::Gauntlet => Format::Gauntlet,
        },
        engines: config.engines.len(),
        seats,
        rounds: args.rounds,
        repeat: config.repeat,
        seed: config.seed,
    };
    let names: Vec<String> = config
        .engines
        .iter()
        .map(|e| e.command.name.clone())
        .collect();
    // What identifies the tournament, so --resume never mixes in another one's records.
    let fingerprint = format!(
        "{}{} {:?} rounds={} repeat={} seed={} engines={}",
        config.game,
        config
            .variant
            .as_deref()
            .map(|v| format!(" {v}"))
            .unwrap_or_default(),
        plan.format,
        plan.rounds,
        plan.repeat,
        plan.seed,
        names.join(",")
    );
    if !args.resume && std::fs::metadata(&args.out).is_ok_and(|m| m.len() > 0) {
        anyhow::bail!(
            "{} already holds records: use --resume to go on, or another --out",
            args.out.display()
        );
    }
    // The records file is the tournament's state: what it holds is counted, not played again.
    let mut counter = Counter::default();
    let mut played = std::collections::HashSet::new();
    let (mut file, opened) = open_out(&args.out, |_, record| {
        let found = record.tags.get("tournament").map_or("", String::as_str);
        if found != fingerprint {
            return Err(format!(
                "a record of another tournament ({found}), not {fingerprint}"
            ));
        }
        if let Some(game) = record
            .tags
            .get("game")
            .and_then(|g| g.parse::<usize>().ok())
        {
            played.insert(game);
        }
        counter.add(record);
        Ok(())
    })?;
    let done = opened.records;
    // Counted without making the schedule, which may be long.
    let in_shard = |index: usize| shard.is_none_or(|s| s.holds(index));
    let games = plan.games();
    let to_play = shard.map_or(games, |s| s.count_of(games))
        - played
            .iter()
            .filter(|&&g| g >= 1 && g <= games && in_shard(g - 1))
            .count();
    let total = done + to_play;
    let schedule = schedule(&plan)
        .filter(move |g| in_shard(g.index))
        .filter(|g| !played.contains(&(g.index + 1)));
    kill_engines_on_interrupt()?;
    let progress = Progress::new(total as u64, done as u64);
    let mut decided = None;
    let outcome = referee::play::arena::run(&config, schedule, |mut finished| {
        finished
            .record
            .tags
            .insert("tournament".into(), fingerprint.clone());
        file.append(&finished.record)?;
        counter.add(&finished.record);
        let results = counter.results();
        progress.advance(&results);
        if let Some(sprt) = &sprt {
            let state = sprt.state(&first_engine_tally(&results, &names[0]));
            if state != SprtState::Continue {
                decided = Some(state);
                return Ok(false);
            }
        }
        Ok(true)
    });
    let stopped = arena_outcome(outcome)?;
    progress.finish();
    let results = counter.results();
    let mut stdout = io::stdout().lock();
    if json {
        let mut value = serde_json::to_value(&results)?;
        if let Some(sprt) = &sprt {
            let tally = first_engine_tally(&results, &names[0]);
            value["sprt"] = serde_json::json!({
                "test": sprt, "llr": sprt.llr(&tally), "bounds": sprt.bounds(),
                "state": decided.unwrap_or(sprt.state(&tally)),
            });
        }
        writeln!(stdout, "{value}")?;
    } else {
        writeln!(stdout, "{results}")?;
        if let Some(sprt) = &sprt {
            let tally = first_engine_tally(&results, &names[0]);
            let (lower, upper) = sprt.bounds();
            let state = decided.unwrap_or(sprt.state(&tally));
            writeln!(
                stdout,
                "SPRT {} vs the others, elo0={} elo1={}: LLR {:.3} [{lower:.3}, {upper:.3}], {}",
                names[0],
                sprt.elo0,
                sprt.elo1,
                sprt.llr(&tally),
                match state {
                    SprtState::H0 => "H0 accepted",
                    SprtState::H1 => "H1 accepted",
                    SprtState::Continue => "undecided",
                }
            )?;
        }
    }
    Ok(run_end(stopped))
}

/// The first engine's two-seat results against everyone, for the SPRT.
fn first_engine_tally(results: &Results, name: &str) -> Tally {
    results
        .engines
        .iter()
        .find(|e| e.name == name)
        .map(|e| e.tally)
        .unwrap_or_default()
}

/// Progress on stderr: a bar with games done, ETA and the leader when stderr is a terminal, a
/// plain line per game otherwise.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: u64,
    done: std::cell::Cell<u64>,
}

impl Progress {
    fn new(total: u64, done: u64) -> Progress {
        let bar = std::io::IsTerminal::is_terminal(&io::stderr()).then(|| {
            let bar = indicatif::ProgressBar::new(total);
            let style = indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games, ETA {eta} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            bar.set_style(style);
            bar.set_position(done);
            bar
        });
        Progress {
            bar,
            total,
            done: std::cell::Cell::new(done),
        }
    }

    fn advance(&self, results: &Results) {
        self.done.set(self.done.get() + 1);
        let leader = results
            .engines
            .first()
            .map(|e| format!("leader {} {:.1}/{}", e.name, e.points, e.games))
            .unwrap_or_default();
        match &self.bar {
            Some(bar) => {
                bar.set_message(leader);
                bar.inc(1);
            }
            None => eprintln!("{}/{} games done, {leader}", self.done.get(), self.total),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Reads every record of `files`, one at a time; a torn last line or a game seen before is
/// skipped with a note on stderr.
fn read_records(
    files: &[std::path::PathBuf],
    each: impl FnMut(referee::records::Record) -> Result<(), String>,
) -> anyhow::Result<usize> {
    referee::records::file::read_all(files, &mut io::stderr(), each).map_err(anyhow::Error::msg)
}

fn run_stats(files: &[std::path::PathBuf], json: bool) -> anyhow::Result<ExitCode> {
    let mut counter = Counter::default();
    read_records(files, |record| {
        counter.add(&record);
        Ok(())
    })?;
    let results = counter.results();
    let mut stdout = io::stdout().lock();
    if json {
        writeln!(stdout, "{}", serde_json::to_value(&results)?)?;
    } else {
        writeln!(stdout, "{results}")?;
    }
    Ok(ExitCode::SUCCESS)
}
