//! A match or tournament run from start to end: the records file opened (and, for a tournament,
//! resumed), the games played, a line per game or a progress bar, the SPRT's stop, and the
//! standings at the end.

pub mod peers;
pub mod progress;
pub mod progress_file;
mod recorder;
mod results;
mod rounds;

use std::cell::RefCell;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::commands::stats::{add_ratings, write_ratings};
use crate::cli::error::{CommandResult, Ended, Error};
use crate::cli::run::progress::Progress;
use crate::cli::run::progress_file::{ProgressFile, RunProgress, RunState};
use crate::engine::process;
use crate::play::arena::{self, MatchConfig, MatchError};
use crate::play::schedule::{Format, Plan, Shard, schedule};
use crate::records::Record;
use crate::records::file::{Opened, OutError, RecordsOut};
use crate::stats::elo::{Sprt, SprtState};
use crate::stats::results::{Counter, Results};
use crate::stats::standings::{Standings, fastchess_lines, sprt_tool_lines};
use peers::{Peers, Share};
use recorder::Recorder;
use results::{GameResults, seat_names, seat_points};
use rounds::{knockout_rounds, swiss_rounds};

/// What a run plays beyond the match configuration: who meets whom and how often, its records
/// file, and when it stops. A match is the tournament of one table: as many engines as seats.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Who plays whom.
    pub format: Format,
    /// Times each table is played.
    pub rounds: usize,
    /// At most this many games, the schedule's first ones (`match --games`).
    pub games: Option<usize>,
    /// Seats per game.
    pub seats: usize,
    /// The records file, which is the run's only state.
    pub out: Option<PathBuf>,
    /// Go on with the games `out` does not hold yet.
    pub resume: bool,
    /// Play only this slice of the schedule.
    pub shard: Option<Shard>,
    /// A sharded Swiss or knockout: every shard's records file, `{shard}` for its number.
    pub peers: Option<String>,
    /// Stop when this test decides for the first engine.
    pub sprt: Option<Sprt>,
    /// Keep this progress file up to date.
    pub progress: Option<PathBuf>,
    /// Append the games in progress to this live file.
    pub live: Option<PathBuf>,
    /// Serve the run's page at this address while it plays.
    pub serve: Option<String>,
    /// Print the score so far every this many games (cutechess-cli's `-ratinginterval`).
    pub rating_interval: Option<usize>,
    /// The event's name (`--event`), for the page's headline and each record's `tags.event`.
    pub event: Option<String>,
}

/// Opens `out` for appending: refused when it is not a records file or another run holds it; a
/// repair (a torn last line cut) is told on stderr.
fn open_out(
    path: &Path,
    each: impl FnMut(usize, &Record) -> Result<(), String>,
) -> Result<(RecordsOut, Opened), OutError> {
    let (out, opened) = RecordsOut::open(path, each)?;
    for note in opened.repaired.iter().chain(&opened.duplicates) {
        eprintln!("referee: {}", crate::protocol::terminal_safe(note));
    }
    Ok((out, opened))
}

/// How the arena ended: stopped by a signal or not; the stop is no error, since what finished
/// before it is kept and the standings so far are printed.
fn arena_end(outcome: Result<(), MatchError>) -> Result<Ended, Error> {
    match outcome {
        // A first stop signal: the games under way were finished, and no other started.
        Ok(()) => match process::stopped_by() {
            Some(signal) => {
                eprintln!(
                    "referee: stopped by signal {signal}: the games under way were finished and \
                     recorded, no other was started"
                );
                Ok(Ended::Stopped(signal))
            }
            None => Ok(Ended::Done),
        },
        Err(MatchError::Interrupted) => {
            eprintln!("referee: interrupted: the games under way were not recorded");
            Ok(Ended::Stopped(process::stopped_by().unwrap_or(2)))
        }
        Err(other) => Err(other.into()),
    }
}

/// How long the referee may take, after a second stop signal, to finish writing and exit by
/// itself before the listener exits for it.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// Listens for the signals that end the referee (INT, TERM, HUP, QUIT). The first is a graceful
/// stop ([`process::begin_draining`]). The second calls [`process::stop_all`], so the run ends at
/// once without inventing a result, and exits with status 128 + the signal if the program has not
/// exited [`STOP_GRACE`] later; a third exits at once.
fn stop_on_signals() -> Result<(), Error> {
    crate::sys::on_stop_signals(|count, signal| match count {
        0 => process::begin_draining(signal),
        1 => {
            process::stop_all();
            std::thread::spawn(move || {
                std::thread::sleep(STOP_GRACE);
                std::process::exit(128 + signal);
            });
        }
        _ => std::process::exit(128 + signal),
    })?;
    Ok(())
}

fn engine_names(config: &MatchConfig) -> Vec<String> {
    config
        .engines
        .iter()
        .map(|e| e.command.name.clone())
        .collect()
}

/// What identifies a run, stored in every record's `tags.tournament` so that `--resume` never
/// mixes in another one's records: `game=G variant=V format=F seats=S repeat=B seed=N
/// engines=A,B,C` (`variant=-` when there is none). Built from these fields alone, so it stays the
/// same from version to version; openings add ` random-plies=N` or ` openings=FILE[:plies=N]
/// [:order=random][:start=K]`. The number of rounds or games is left out: a longer schedule
/// begins with a shorter one, so a run resumed with more games goes on where it stopped.
pub fn fingerprint(config: &MatchConfig, plan: &Plan) -> String {
    let mut text = format!(
        "game={} variant={} format={} seats={} repeat={} seed={} engines={}",
        config.game,
        config.variant.as_deref().unwrap_or("-"),
        plan.format.name(),
        plan.seats,
        plan.repeat,
        match &plan.secret {
            Some(secret) => format!("secret-{}", secret.id()),
            None => plan.seed.to_string(),
        },
        engine_names(config).join(",")
    );
    if let Some(openings) = config.openings.fingerprint() {
        text.push(' ');
        text.push_str(&openings);
    }
    // A knockout's game numbers depend on the games of a tie.
    if plan.format == Format::Knockout {
        text.push_str(&format!(" games-per-tie={}", plan.rounds));
    }
    text
}

/// The seed of the run whose records `out` holds, from its first record's fingerprint
/// (`seed=N` in `tags.tournament`), so that `--resume` without `--seed` goes on with the same
/// schedule. `None` when the file is missing or empty, or its run's seed is a secret's
/// (`seed=secret-ID`, which the secret file restores); an error when its first line is no record.
pub fn kept_seed(out: &std::path::Path) -> Result<Option<u64>, Error> {
    let file = match std::fs::File::open(out) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::read(out, e)),
    };
    let first = crate::records::file::Reader::new(file, true).next_entry();
    let record = match first.map_err(|e| Error::read(out, e))? {
        None => return Ok(None),
        Some((_, Ok(record))) => record,
        Some((_, Err(_))) => {
            return Err(Error::Usage(format!(
                "{}: its first line is not a record, so the run's seed cannot be read: give --seed",
                out.display()
            )));
        }
    };
    let fingerprint = record.tags.get("tournament").map_or("", String::as_str);
    Ok(fingerprint
        .split_whitespace()
        .find_map(|word| word.strip_prefix("seed="))
        .and_then(|seed| seed.parse().ok()))
}

/// The fingerprints earlier releases wrote, still accepted by `--resume`: the same fields with
/// `rounds=R` after `seats=S`, and the first form (`dvonn RoundRobin rounds=1 repeat=false seed=5
/// engines=a,b,c`).
fn earlier_fingerprints(current: &str, config: &MatchConfig, plan: &Plan) -> [String; 2] {
    let seats = format!("seats={} ", plan.seats);
    let with_rounds = current.replacen(&seats, &format!("{seats}rounds={} ", plan.rounds), 1);
    [with_rounds, first_fingerprint(config, plan)]
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
            Format::Swiss => "Swiss",
            Format::Knockout => "Knockout",
        },
        plan.rounds,
        plan.repeat,
        plan.seed,
        engine_names(config).join(",")
    )
}

/// The run's schedule plan: its engines fit its game's seats.
fn plan(config: &MatchConfig, tournament: &Tournament) -> Result<Plan, Error> {
    let engines = config.engines.len();
    let seats = tournament.seats;
    if seats > engines {
        return Err(Error::Usage(format!(
            "{seats} seats need as many engines, not {engines}"
        )));
    }
    check_peers(tournament)?;
    if tournament.format == Format::Knockout && seats != 2 {
        return Err(Error::Usage(format!(
            "a knockout tie is two engines; games of {} have {seats} seats",
            config.game
        )));
    }
    if tournament.sprt.is_some() && seats != 2 {
        return Err(Error::Usage(format!(
            "--sprt compares two engines in games of two seats; these games have {seats}"
        )));
    }
    Ok(Plan {
        format: tournament.format,
        engines,
        seats,
        rounds: tournament.rounds,
        limit: tournament.games,
        repeat: config.repeat,
        seed: config.seed,
        secret: config.secret,
    })
}

/// A sharded Swiss or knockout names every shard's records file (`--peers`), its own among them,
/// since a round is drawn from the results of every earlier one. Other sharded runs may name them
/// too (a deployment script passes it to every run) and do not read them.
fn check_peers(tournament: &Tournament) -> Result<(), Error> {
    let drawn = matches!(tournament.format, Format::Swiss | Format::Knockout);
    let (shard, pattern) = match (tournament.shard, &tournament.peers) {
        (Some(shard), Some(pattern)) => (shard, pattern),
        (Some(shard), None) if drawn => {
            return Err(Error::Usage(format!(
                "each round of a sharded {} is drawn from the results of the ones before, which \
                 the other shards play: name every shard's records file with --peers, e.g. \
                 --shard {shard} --out results/shard-{}.jsonl --peers 'results/shard-{}.jsonl', \
                 and run all the shards at once",
                tournament.format.name(),
                shard.k,
                peers::PLACEHOLDER
            )));
        }
        (_, None) => return Ok(()),
        (None, Some(_)) => {
            return Err(Error::Usage(
                "--peers names the records files of every shard of a sharded run: give --shard"
                    .into(),
            ));
        }
    };
    if !pattern.contains(peers::PLACEHOLDER) {
        return Err(Error::Usage(format!(
            "--peers {pattern}: put {} where each shard's number goes, e.g. results/shard-{}.jsonl",
            peers::PLACEHOLDER,
            peers::PLACEHOLDER
        )));
    }
    let own = &peers::shard_files(pattern, shard.n)[shard.k - 1];
    if tournament.out.as_deref() != Some(own.as_path()) {
        return Err(Error::Usage(format!(
            "--peers {pattern} makes shard {shard}'s records file {}: give it as --out",
            own.display()
        )));
    }
    Ok(())
}

/// What the records file held when the run began: it is the run's state, so what it holds is
/// counted, not played again.
struct Earlier {
    counter: Counter,
    /// The game numbers (from 1) already played.
    played: HashSet<usize>,
    results: GameResults,
    file: Option<RecordsOut>,
    /// How many records it held.
    before: usize,
}

/// Opens `--out` (refused when it holds records and `--resume` is not given) and reads what it
/// holds: every record must be of this run (its fingerprint, or one earlier releases wrote) and
/// replay.
fn read_earlier(
    config: &MatchConfig,
    plan: &Plan,
    tournament: &Tournament,
    fingerprint: &str,
) -> Result<Earlier, Error> {
    let earlier = earlier_fingerprints(fingerprint, config, plan);
    let mut counter = Counter::default();
    let mut played = HashSet::new();
    let mut results = GameResults::new();
    let Some(out) = &tournament.out else {
        return Ok(Earlier {
            counter,
            played,
            results,
            file: None,
            before: 0,
        });
    };
    if !tournament.resume && std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
        return Err(Error::Usage(format!(
            "{} is not empty: use --resume to go on with the run it holds, or another --out",
            out.display()
        )));
    }
    let (file, opened) = open_out(out, |_, record| {
        let found = record.tags.get("tournament").map_or("", String::as_str);
        if found != fingerprint && !earlier.iter().any(|e| e == found) {
            return Err(format!(
                "a record of another run ({found}), not {fingerprint}"
            ));
        }
        // A record that does not replay is no game played: counting it would count a false
        // result, and dropping it would lose what the file says.
        if let Err(problem) = crate::records::validate::check_record(record) {
            return Err(format!(
                "this record does not replay ({}): remove the line to play its game again",
                problem.message
            ));
        }
        let game = record
            .tags
            .get("game")
            .and_then(|g| g.parse::<usize>().ok());
        if let Some(game) = game {
            played.insert(game);
            if let Some(points) = seat_points(record) {
                results.insert(game - 1, (seat_names(record), points));
            }
        }
        counter.add(record);
        Ok(())
    })?;
    Ok(Earlier {
        counter,
        played,
        results,
        file: Some(file),
        before: opened.records,
    })
}

/// Plays a match or tournament, or the rest of one: the games its records file does not hold
/// yet, in schedule order, with a line per game on `stdout` (unless `json`), progress on stderr,
/// and the standings at the end.
pub fn run(
    config: &MatchConfig,
    tournament: &Tournament,
    json: bool,
    stdout: &mut dyn Write,
) -> CommandResult {
    let plan = plan(config, tournament)?;
    let names = engine_names(config);
    let fingerprint = fingerprint(config, &plan);
    let Earlier {
        counter,
        played,
        results,
        file,
        before,
    } = read_earlier(config, &plan, tournament, &fingerprint)?;
    // Each finished game's seats and points, by index: the results a Swiss round is paired from.
    let results = RefCell::new(results);
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
    let counts = RunProgress {
        tournament: fingerprint.clone(),
        shard: shard.map(|s| s.to_string()),
        games_done: already as u64,
        games_total: (already + to_play) as u64,
        schedule_games: games as u64,
        state: RunState::Running,
        updated: 0, // stamped when written
    };
    let progress_file = open_progress(tournament.progress.as_deref(), counts)?;
    if let Some(live) = &config.live {
        live.write(&run_line(
            config,
            tournament,
            &plan,
            (before, before + to_play),
        ));
    }
    let mut share = Share {
        shard,
        peers: (tournament.peers.as_deref().zip(shard)).map(|(pattern, shard)| {
            Peers::new(peers::shard_files(pattern, shard.n), shard, &fingerprint)
        }),
    };
    let human = config.engines.iter().any(|e| e.command.terminal);
    let book = match &config.openings {
        crate::play::openings::Openings::Book(book) => book.name.clone(),
        _ => "NULL".to_owned(),
    };
    let mut recorder = Recorder {
        conditions: (config.tc.to_string(), book),
        fingerprint,
        event: tournament.event.clone(),
        sprt: tournament.sprt,
        paired: plan.repeat && plan.seats == 2,
        json,
        games,
        rating_interval: tournament.rating_interval.unwrap_or(0),
        names: &names,
        results: &results,
        file,
        progress_file,
        counter,
        progress: Progress::new((before + to_play) as u64, before as u64, !human),
        decided: None,
        stdout,
    };
    let mut on_event = |event| recorder.on_event(event);
    let champion = std::cell::Cell::new(None);
    let state = (names.as_slice(), &played, &results);
    let outcome = match plan.format {
        Format::Swiss => swiss_rounds(config, &plan, state, &mut share, &mut on_event),
        Format::Knockout => {
            let share = (&mut share, &champion);
            knockout_rounds(config, &plan, state, share, &mut on_event)
        }
        _ => arena::run_events(config, schedule, &mut on_event),
    };
    finish(recorder, outcome, champion.get())
}

/// The live file's first line: what the run is, and its games (`done` of `games` held already).
fn run_line(
    config: &MatchConfig,
    tournament: &Tournament,
    plan: &Plan,
    (done, games): (usize, usize),
) -> crate::records::live::LiveEvent {
    let names = engine_names(config);
    let title = tournament
        .event
        .clone()
        .unwrap_or_else(|| match names.as_slice() {
            [a, b] if plan.format == Format::RoundRobin => format!("{a} vs {b}"),
            _ => format!("{} of {} engines", plan.format.name(), names.len()),
        });
    let started_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    crate::records::live::LiveEvent::Run {
        title,
        game: match &config.variant {
            Some(variant) => format!("{} {variant}", config.game),
            None => config.game.clone(),
        },
        tc: config.tc.to_string(),
        games,
        done,
        started_ms,
        sprt: (tournament.sprt).map(|sprt| (sprt.to_string(), names[0].clone())),
    }
}

/// Opens the `--progress` file, when there is one, with the run's counts.
fn open_progress(path: Option<&Path>, counts: RunProgress) -> Result<Option<ProgressFile>, Error> {
    path.map(|path| ProgressFile::create(path, counts).map_err(|e| Error::write(path, e)))
        .transpose()
}

/// The run's end: the progress file told how it ended, the stop (if any) said, and the standings
/// (with the SPRT's verdict and a knockout's winner) printed.
fn finish(
    mut recorder: Recorder,
    outcome: Result<(), MatchError>,
    champion: Option<usize>,
) -> CommandResult {
    let decided = recorder.decided;
    if let Some(progress_file) = recorder.progress_file.as_mut() {
        progress_file.end(match &outcome {
            Ok(()) if decided.is_some() => RunState::Decided,
            Ok(()) => RunState::Finished,
            Err(MatchError::Interrupted) => RunState::Stopped,
            Err(_) => RunState::Failed,
        });
    }
    let ended = arena_end(outcome)?;
    recorder.progress.finish();
    // Said after the standings: the games were played, the file holds them or says it may not.
    let checked = recorder.file.as_ref().map_or(Ok(()), RecordsOut::check);
    let (counter, paired, stdout) = (&recorder.counter, recorder.paired, recorder.stdout);
    let (names, json) = (recorder.names, recorder.json);
    let results = counter.results();
    let sprt = recorder.sprt.map(|sprt| {
        let llr = results.llr(&sprt, &names[0], paired);
        (sprt, llr, decided.unwrap_or(sprt.decide(llr)))
    });
    let conditions = &recorder.conditions;
    print_standings(counter, (names, conditions), sprt, paired, json, stdout)?;
    if let (Some(winner), false) = (champion, json) {
        writeln!(stdout, "Knockout won by {}", names[winner])?;
    }
    checked?;
    Ok(ended)
}

/// `leader a 7.5/10`: the engine with the most points per game so far.
fn leader(results: &Results) -> String {
    results
        .engines
        .first()
        .map(|e| format!("leader {} {:.1}/{}", e.name, e.points, e.games))
        .unwrap_or_default()
}

/// The standings, and the SPRT's verdict on the first engine (the challenger) if one ran.
fn print_standings(
    counter: &Counter,
    (names, (tc, book)): (&[String], &(String, String)),
    sprt: Option<(Sprt, f64, SprtState)>,
    paired: bool,
    json: bool,
    stdout: &mut dyn Write,
) -> std::io::Result<()> {
    let first = &names[0];
    let results = &counter.results();
    if json {
        let mut value = results.to_json();
        add_ratings(&mut value, counter);
        if let Some((sprt, llr, state)) = &sprt {
            value["sprt"] = serde_json::json!({
                "test": sprt, "llr": llr, "bounds": sprt.bounds(), "state": state,
                "model": if paired { "pentanomial" } else { "trinomial" },
            });
        }
        return writeln!(stdout, "{value}");
    }
    let standings = Standings {
        results,
        engines: names,
    };
    writeln!(stdout, "{standings}")?;
    if let [a, b] = names {
        writeln!(stdout, "{}", fastchess_lines(results, (a, b), tc, book))?;
    }
    write_ratings(stdout, counter)?;
    if let Some((sprt, llr, state)) = &sprt {
        let (lower, upper) = sprt.bounds();
        let others = match names {
            [_, second] => second.clone(),
            _ => "the others".to_owned(),
        };
        writeln!(
            stdout,
            "SPRT {first} vs {others}, elo0={} elo1={} alpha={} beta={}{}, on {}: LLR {llr:.3} \
             [{lower:.3}, {upper:.3}], {}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            match sprt.model {
                crate::stats::elo::SprtModel::Logistic => "",
                crate::stats::elo::SprtModel::Normalized => " model=normalized",
            },
            if paired { "game pairs" } else { "games" },
            match state {
                SprtState::H0 => "H0 accepted",
                SprtState::H1 => "H1 accepted",
                SprtState::Continue => "undecided",
            }
        )?;
        writeln!(stdout, "{}", sprt_tool_lines(sprt, *llr, *state))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::clock::TimeControl;
    use crate::play::spec::EngineSpec;

    fn config(variant: Option<&str>) -> MatchConfig {
        let engines = ["a", "b", "c"]
            .iter()
            .map(|n| EngineSpec::parse(&format!("name={n} cmd=./{n}")).unwrap())
            .collect();
        let tc = TimeControl::MoveTime(std::time::Duration::from_millis(10));
        MatchConfig {
            variant: variant.map(str::to_owned),
            repeat: true,
            ..MatchConfig::new("pegs", engines, 7, tc)
        }
    }

    #[test]
    fn fingerprints_are_written_out_field_by_field() {
        let plan = Plan {
            format: Format::Gauntlet,
            engines: 3,
            seats: 2,
            rounds: 4,
            limit: None,
            repeat: true,
            seed: 7,
            secret: None,
        };
        assert_eq!(
            fingerprint(&config(Some("turbo")), &plan),
            "game=pegs variant=turbo format=gauntlet seats=2 repeat=true seed=7 engines=a,b,c"
        );
        assert_eq!(
            fingerprint(&config(None), &plan),
            "game=pegs variant=- format=gauntlet seats=2 repeat=true seed=7 engines=a,b,c"
        );
        // The forms of earlier releases, as their records hold them.
        assert_eq!(
            earlier_fingerprints(
                &fingerprint(&config(Some("turbo")), &plan),
                &config(Some("turbo")),
                &plan
            ),
            [
                "game=pegs variant=turbo format=gauntlet seats=2 rounds=4 repeat=true seed=7 \
                 engines=a,b,c",
                "pegs turbo Gauntlet rounds=4 repeat=true seed=7 engines=a,b,c"
            ]
        );
    }
}
