//! A match or tournament run from start to end: the records file opened (and, for a tournament,
//! resumed), the games played, a line per game or a progress bar, the SPRT's stop, and the
//! standings at the end.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{CommandResult, Ended, Error};
use crate::play::arena::{self, MatchConfig, MatchError};
use crate::play::process;
use crate::play::progress::Progress;
use crate::play::schedule::{Format, Plan, Shard, match_schedule, schedule};
use crate::records::Record;
use crate::records::file::{Opened, OutError, RecordsOut};
use crate::rules::{AnyGame, Game, game::Setup};
use crate::stats::elo::{Sprt, SprtState};
use crate::stats::results::{Counter, Results};
use crate::stats::standings::{Standings, game_line};

/// What a tournament adds to a match's configuration.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Who plays whom.
    pub format: Format,
    /// Times each table is played.
    pub rounds: usize,
    /// Seats per game, when the game lets it vary.
    pub seats: Option<usize>,
    /// The records file, which is the tournament's only state.
    pub out: PathBuf,
    /// Go on with the games `out` does not hold yet.
    pub resume: bool,
    /// Play only this slice of the schedule.
    pub shard: Option<Shard>,
    /// Stop when this test decides for the first engine.
    pub sprt: Option<Sprt>,
}

/// Opens `out` for appending: refused when it is not a records file or another run holds it; a
/// repair (a torn last line cut) is told on stderr.
fn open_out(
    path: &Path,
    each: impl FnMut(usize, &Record) -> Result<(), String>,
) -> Result<(RecordsOut, Opened), OutError> {
    let (out, opened) = RecordsOut::open(path, each)?;
    for note in opened.repaired.iter().chain(&opened.duplicates) {
        eprintln!("referee: {note}");
    }
    Ok((out, opened))
}

/// How the arena ended: stopped by a signal or not; the stop is no error, since what finished
/// before it is kept and the standings so far are printed.
fn arena_end(outcome: Result<(), MatchError>) -> Result<Ended, Error> {
    match outcome {
        Ok(()) => Ok(Ended::Done),
        Err(MatchError::Interrupted) => {
            eprintln!("referee: interrupted: the games under way were not recorded");
            Ok(Ended::Stopped(process::stopped_by().unwrap_or(2)))
        }
        Err(other) => Err(other.into()),
    }
}

/// Installs the stop on INT, TERM, HUP and QUIT: engines killed, no new one started.
fn stop_on_signals() -> Result<(), Error> {
    process::stop_on_signals().map_err(Error::Io)
}

/// Plays a match: a line per game on `stdout` (unless `json`), each record appended to `out`,
/// the standings at the end.
pub fn run_match(
    config: &MatchConfig,
    out: Option<&Path>,
    json: bool,
    stdout: &mut dyn Write,
) -> CommandResult {
    let mut file = match out {
        Some(path) => Some(open_out(path, |_, _| Ok(()))?.0),
        None => None,
    };
    stop_on_signals()?;
    let names = engine_names(config);
    let mut counter = Counter::default();
    let total = config.games;
    let schedule = match_schedule(config.engines.len(), total, config.repeat, config.seed);
    let seed = config.seed.to_string();
    let outcome = arena::run(config, schedule, |mut finished| {
        let record = &mut finished.record;
        record.tags.insert("match_seed".into(), seed.clone());
        if let Some(file) = file.as_mut() {
            file.append(record)?;
        }
        counter.add(record);
        if !json {
            writeln!(stdout, "{}", game_line(finished.index, record, total))?;
        }
        Ok(true)
    });
    let ended = arena_end(outcome)?;
    let results = counter.results();
    if json {
        writeln!(stdout, "{}", results.to_json())?;
    } else {
        let standings = Standings {
            results: &results,
            engines: &names,
        };
        writeln!(stdout, "{standings}")?;
    }
    Ok(ended)
}

fn engine_names(config: &MatchConfig) -> Vec<String> {
    config
        .engines
        .iter()
        .map(|e| e.command.name.clone())
        .collect()
}

/// What identifies a tournament, stored in every record's `tags.tournament` so that `--resume`
/// never mixes in another one's records: `game=G variant=V format=F seats=S rounds=R repeat=B
/// seed=N engines=A,B,C` (`variant=-` when there is none). Built from these fields alone, so it
/// stays the same from version to version.
pub fn fingerprint(config: &MatchConfig, plan: &Plan) -> String {
    format!(
        "game={} variant={} format={} seats={} rounds={} repeat={} seed={} engines={}",
        config.game,
        config.variant.as_deref().unwrap_or("-"),
        format_name(plan.format),
        plan.seats,
        plan.rounds,
        plan.repeat,
        plan.seed,
        engine_names(config).join(",")
    )
}

/// The fingerprint the first releases wrote (`dvonn RoundRobin rounds=1 repeat=false seed=5
/// engines=a,b,c`), still accepted by `--resume`.
fn first_fingerprint(config: &MatchConfig, plan: &Plan) -> String {
    format!(
        "{}{} {} rounds={} repeat={} seed={} engines={}",
        config.game,
        config
            .variant
            .as_deref()
            .map(|v| format!(" {v}"))
            .unwrap_or_default(),
        match plan.format {
            Format::RoundRobin => "RoundRobin",
            Format::Gauntlet => "Gauntlet",
        },
        plan.rounds,
        plan.repeat,
        plan.seed,
        engine_names(config).join(",")
    )
}

fn format_name(format: Format) -> &'static str {
    match format {
        Format::RoundRobin => "round-robin",
        Format::Gauntlet => "gauntlet",
    }
}

/// The tournament's schedule plan: its engines fit its game's seats.
fn plan(config: &MatchConfig, tournament: &Tournament) -> Result<Plan, Error> {
    let engines = config.engines.len();
    if engines < 3 {
        return Err(Error::Usage(
            "a tournament needs three engines or more (use `match` for two)".into(),
        ));
    }
    let setup = Setup {
        variant: config.variant.clone(),
        seats: tournament.seats,
        ..Default::default()
    };
    let seats = AnyGame::create(&config.game, &setup)?.seats();
    if seats > engines {
        return Err(Error::Usage(format!(
            "{seats} seats need as many engines, not {engines}"
        )));
    }
    Ok(Plan {
        format: tournament.format,
        engines,
        seats,
        rounds: tournament.rounds,
        repeat: config.repeat,
        seed: config.seed,
    })
}

/// Plays a tournament, or the rest of one: the games its records file does not hold yet, in
/// schedule order, with a progress line per game on stderr and the standings at the end.
pub fn run_tournament(
    config: &MatchConfig,
    tournament: &Tournament,
    json: bool,
    stdout: &mut dyn Write,
) -> CommandResult {
    let plan = plan(config, tournament)?;
    let names = engine_names(config);
    let fingerprint = fingerprint(config, &plan);
    let first = first_fingerprint(config, &plan);
    let out = &tournament.out;
    if !tournament.resume && std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
        return Err(Error::Usage(format!(
            "{} already holds records: use --resume to go on, or another --out",
            out.display()
        )));
    }
    // The records file is the tournament's state: what it holds is counted, not played again.
    let mut counter = Counter::default();
    let mut played = HashSet::new();
    let (mut file, opened) = open_out(out, |_, record| {
        let found = record.tags.get("tournament").map_or("", String::as_str);
        if found != fingerprint && found != first {
            return Err(format!(
                "a record of another tournament ({found}), not {fingerprint}"
            ));
        }
        if let Some(game) = record.tags.get("game").and_then(|g| g.parse().ok()) {
            played.insert(game);
        }
        counter.add(record);
        Ok(())
    })?;
    // Counted without making the schedule, which may be long.
    let shard = tournament.shard;
    let in_shard = |index: usize| shard.is_none_or(|s| s.holds(index));
    let games = plan.games();
    let already = played
        .iter()
        .filter(|&&g: &&usize| g >= 1 && g <= games && in_shard(g - 1))
        .count();
    let to_play = shard.map_or(games, |s| s.count_of(games)) - already;
    let schedule = schedule(&plan)
        .filter(move |g| in_shard(g.index))
        .filter(|g| !played.contains(&(g.index + 1)));
    stop_on_signals()?;
    let progress = Progress::new((opened.records + to_play) as u64, opened.records as u64);
    let sprt = tournament.sprt;
    let mut decided = None;
    let outcome = arena::run(config, schedule, |mut finished| {
        let record = &mut finished.record;
        record.tags.insert("tournament".into(), fingerprint.clone());
        file.append(record)?;
        counter.add(record);
        let results = counter.results();
        progress.advance(&results);
        if let Some(sprt) = &sprt {
            let state = sprt.state(&results.tally_against_field(&names[0]));
            if state != SprtState::Continue {
                decided = Some(state);
                return Ok(false);
            }
        }
        Ok(true)
    });
    let ended = arena_end(outcome)?;
    progress.finish();
    let results = counter.results();
    let sprt = sprt.map(|sprt| {
        let tally = results.tally_against_field(&names[0]);
        (sprt, decided.unwrap_or(sprt.state(&tally)))
    });
    print_tournament(&results, sprt, &names[0], json, stdout)?;
    Ok(ended)
}

/// The tournament's standings, and the SPRT's verdict on `first` (the challenger) if one ran.
fn print_tournament(
    results: &Results,
    sprt: Option<(Sprt, SprtState)>,
    first: &str,
    json: bool,
    stdout: &mut dyn Write,
) -> std::io::Result<()> {
    let tally = results.tally_against_field(first);
    if json {
        let mut value = results.to_json();
        if let Some((sprt, state)) = &sprt {
            value["sprt"] = serde_json::json!({
                "test": sprt, "llr": sprt.llr(&tally), "bounds": sprt.bounds(), "state": state,
            });
        }
        return writeln!(stdout, "{value}");
    }
    writeln!(stdout, "{results}")?;
    if let Some((sprt, state)) = &sprt {
        let (lower, upper) = sprt.bounds();
        writeln!(
            stdout,
            "SPRT {first} vs the others, elo0={} elo1={}: LLR {:.3} [{lower:.3}, {upper:.3}], {}",
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::clock::TimeControl;
    use crate::play::spec::EngineSpec;

    fn config(variant: Option<&str>) -> MatchConfig {
        MatchConfig {
            game: "pegs".into(),
            variant: variant.map(str::to_owned),
            engines: ["a", "b", "c"]
                .iter()
                .map(|n| EngineSpec::parse(&format!("name={n} cmd=./{n}")).unwrap())
                .collect(),
            games: 0,
            repeat: true,
            seed: 7,
            tc: TimeControl::MoveTime(std::time::Duration::from_millis(10)),
            margin: Default::default(),
            startup: Default::default(),
            concurrency: 1,
            on_fault: Default::default(),
            log_dir: None,
            log_limit: 0,
        }
    }

    #[test]
    fn fingerprints_are_written_out_field_by_field() {
        let plan = Plan {
            format: Format::Gauntlet,
            engines: 3,
            seats: 2,
            rounds: 4,
            repeat: true,
            seed: 7,
        };
        assert_eq!(
            fingerprint(&config(Some("turbo")), &plan),
            "game=pegs variant=turbo format=gauntlet seats=2 rounds=4 repeat=true seed=7 \
             engines=a,b,c"
        );
        assert_eq!(
            fingerprint(&config(None), &plan),
            "game=pegs variant=- format=gauntlet seats=2 rounds=4 repeat=true seed=7 engines=a,b,c"
        );
        // The form of the first releases, as their records hold it.
        assert_eq!(
            first_fingerprint(&config(Some("turbo")), &plan),
            "pegs turbo Gauntlet rounds=4 repeat=true seed=7 engines=a,b,c"
        );
    }
}
