//! `referee check-engine`: an engine walked through the situations the protocol defines for a
//! game (handshake, every variant, seat count and seat, every clock form, a forced pass, keys and
//! commands it does not know, games in a row, quit), each reported as passed or failed with the
//! lines exchanged.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::engine::{Engine, EngineCommand, Transcript};
use crate::play::arena::{self, MatchConfig};
use crate::play::clock::TimeControl;
use crate::play::codecup;
use crate::play::openings::{Book, Openings};
use crate::play::schedule::{Format, Plan, schedule};
use crate::play::spec::{EngineSpec, Proto, builtin_engines, unique_names};
use crate::protocol::{Info, is_info, shorten};
use crate::records::{End, Record};
use crate::rules::AnyGame;
use crate::rules::game::{Actor, Allowed, Game, Setup};

/// How long an engine may take to quit and exit.
const QUIT_LIMIT: Duration = Duration::from_millis(300);

/// The lines of a failed check's exchange that are shown.
const LINES_SHOWN: usize = 16;

/// The clock forms `genmove` can carry: the time control, as `--tc` writes it, and the keys it
/// sends.
const CLOCK_FORMS: [(TimeControl, &str, &str); 4] = [
    (
        TimeControl::Fischer {
            base: Duration::from_secs(10),
            increment: Duration::from_millis(100),
            moves: None,
        },
        "10+0.1",
        "time, inc, clocks",
    ),
    (
        TimeControl::Fischer {
            base: Duration::from_secs(10),
            increment: Duration::ZERO,
            moves: Some(40),
        },
        "40/10+0",
        "time, inc, movestogo, clocks",
    ),
    (
        TimeControl::MoveTime(Duration::from_secs(1)),
        "movetime=1000",
        "movetime",
    ),
    (TimeControl::Infinite, "inf", "no clock keys"),
];

/// What to check.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// The game.
    pub game: String,
    /// Only this variant (all of the game's when `None`).
    pub variant: Option<String>,
    /// Only this seat count (all of the game's when `None`).
    pub seats: Option<usize>,
    /// The engine.
    pub command: EngineCommand,
    /// The protocol it speaks: a CodeCup program has no handshake, informational commands or
    /// `quit`, and plays two-seat games from their start only.
    pub proto: Proto,
    /// How long it may take to start and answer the handshake or `newgame`.
    pub startup: Duration,
    /// This program, quoted for a shell: the built-in random bots in the other seats.
    pub exe: String,
    /// Where the games' transcripts go (a temporary directory).
    pub log_dir: PathBuf,
}

/// One check and how it went.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// What was checked.
    pub name: String,
    /// Whether the engine did as the protocol says.
    pub passed: bool,
    /// What happened.
    pub detail: String,
    /// The last lines exchanged with the engine, when it failed (`<` to it, `>` from it, `!`
    /// its stderr).
    pub lines: Vec<String>,
}

impl Check {
    fn new(name: impl Into<String>, outcome: Result<String, String>, lines: Vec<String>) -> Check {
        let passed = outcome.is_ok();
        Check {
            name: name.into(),
            passed,
            detail: outcome.unwrap_or_else(|e| e),
            lines: if passed { Vec::new() } else { lines },
        }
    }
}

/// The last lines of the transcript at `path` that are the engine `name`'s.
fn lines_of(path: &Path, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let ours = format!(" {name} ");
    let lines: Vec<String> = text
        .lines()
        .filter(|l| l.contains(&ours) || l.contains(" referee # "))
        .map(|l| l.trim_start().to_owned())
        .collect();
    lines[lines.len().saturating_sub(LINES_SHOWN)..].to_vec()
}

/// Runs every check; the handshake failing ends them.
pub fn run(config: &CheckConfig, mut report: impl FnMut(&Check)) -> Vec<Check> {
    let mut checks = Vec::new();
    let mut add = |check: Check| {
        report(&check);
        checks.push(check);
    };
    if config.proto == Proto::CodeCup {
        game_checks(config).into_iter().for_each(add);
        return checks;
    }
    let direct = config.log_dir.join("handshake.log");
    let (handshake, engine) = handshake(config, &direct);
    add(handshake);
    let Some(mut engine) = engine else {
        return checks;
    };
    add(Check::new(
        "an informational command it does not know",
        unknown_command(&mut engine, config.startup),
        Vec::new(),
    ));
    let quit = quit(engine);
    add(Check::new(
        "quit",
        quit,
        lines_of(&direct, &config.command.name),
    ));
    for check in game_checks(config) {
        add(check);
    }
    if let Some(check) = info_check(&config.log_dir, &config.command.name) {
        add(check);
    }
    checks
}

/// The `info` lines the engine `name` sent in the games' transcripts under `log_dir`, when it sent
/// any: each must read as the protocol says (an engine that sends none is not checked for them).
fn info_check(log_dir: &Path, name: &str) -> Option<Check> {
    let ours = format!(" {name} > ");
    let mut transcripts: Vec<PathBuf> = (std::fs::read_dir(log_dir).ok()?.flatten())
        .filter(|dir| dir.file_name().to_string_lossy().starts_with("situation-"))
        .flat_map(|dir| {
            std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|file| file.path())
        .collect();
    transcripts.sort();
    let (mut sent, mut last) = (0usize, String::new());
    for path in &transcripts {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let said = text
            .lines()
            .filter_map(|l| l.split_once(&ours))
            .map(|(_, said)| said);
        for line in said.filter(|said| is_info(said)) {
            sent += 1;
            if let Err(e) = line.parse::<Info>() {
                let detail = format!("`{}` in {}: {e}", shorten(line, 200), path.display());
                return Some(Check::new("info lines", Err(detail), vec![line.to_owned()]));
            }
            last = line.to_owned();
        }
    }
    (sent > 0).then(|| {
        let detail = format!(
            "{sent} info lines, each readable; the last: {}",
            shorten(&last, 200)
        );
        Check::new("info lines", Ok(detail), Vec::new())
    })
}

/// Starts the engine and asks `protocol_version` and `name`.
fn handshake(config: &CheckConfig, log: &Path) -> (Check, Option<Engine>) {
    let transcript = Transcript::create(log, 1 << 20);
    let start = Instant::now();
    let deadline = start + config.startup;
    let outcome =
        Engine::start(&config.command, None, Some(transcript.clone())).and_then(|mut e| {
            e.request("protocol_version", deadline)?;
            let name = e.request("name", deadline)?;
            Ok((e, name))
        });
    let (outcome, engine) = match outcome {
        Ok((engine, name)) => (
            Ok(format!(
                "`protocol_version` and `name` answered in {} ms (name `{name}`)",
                start.elapsed().as_millis()
            )),
            Some(engine),
        ),
        Err(e) => (
            Err(format!(
                "no proper answers within {} ms: {e}",
                config.startup.as_millis()
            )),
            None,
        ),
    };
    let _ = transcript.finish();
    let lines = lines_of(log, &config.command.name);
    (Check::new("handshake", outcome, lines), engine)
}

/// `event check-engine`, which it may not know: `=` or `? unknown command` both do.
fn unknown_command(engine: &mut Engine, limit: Duration) -> Result<String, String> {
    engine
        .inform("event check-engine")
        .and_then(|_| engine.settle(Instant::now() + limit))
        .map(|_| "`event check-engine` answered".to_owned())
        .map_err(|e| format!("`event check-engine`: {e} (an engine answers `? unknown command`)"))
}

/// `quit`: answered, and the process gone within [`QUIT_LIMIT`].
fn quit(mut engine: Engine) -> Result<String, String> {
    let start = Instant::now();
    let deadline = start + QUIT_LIMIT;
    engine
        .request("quit", deadline)
        .map_err(|e| format!("`quit`: {e}"))?;
    if engine.exits_by(deadline) {
        Ok(format!(
            "answered and exited in {} ms",
            start.elapsed().as_millis()
        ))
    } else {
        Err(format!(
            "answered but still running {} ms later",
            QUIT_LIMIT.as_millis()
        ))
    }
}

/// One match to play: the engine in every seat in turn against the built-in random bot.
struct Situation {
    name: String,
    variant: Option<String>,
    seats: usize,
    tc: TimeControl,
    /// Plies the referee plays first, told to every seat as ordinary plies.
    opening: Vec<String>,
}

/// The random playouts searched for a forced pass.
const PASS_SEARCH_GAMES: u64 = 200;

/// The plies from the start of `game` to a position where the seat to move can only pass, from
/// seeded random playouts, so the same every run; `None` when none was met, or when the game
/// draws from its seed what the seats may play (a fixed list of plies does not fit it).
fn opening_to_a_pass(game: &str, variant: Option<&str>, seats: usize) -> Option<Vec<String>> {
    use rand::{RngExt, SeedableRng};
    let setup = Setup {
        variant: variant.map(str::to_owned),
        seats: Some(seats),
        ..Setup::default()
    };
    let start = AnyGame::create(game, &setup).ok()?;
    if start.drawn_from_seed() {
        return None;
    }
    (0..PASS_SEARCH_GAMES).find_map(|seed| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut position, mut plies, mut moves) = (start.clone(), Vec::new(), Vec::new());
        while let Some(Actor::Seat(_)) = position.to_move() {
            moves.clear();
            position.legal_moves(&mut moves);
            if let [only] = moves.as_slice()
                && is_pass(&only.to_string())
            {
                return Some(plies);
            }
            let mv = moves[rng.random_range(0..moves.len())];
            plies.push(mv.to_string());
            position.play_unchecked(&mv);
        }
        None
    })
}

/// Whether a move's text is a pass (`PASS` in DVONN, `pass` in Double Dutch and Wyx).
fn is_pass(text: &str) -> bool {
    text.eq_ignore_ascii_case("pass")
}

/// What a game put the engine through beyond one ply at a time, from its record: turns of
/// several plies (DVONN's 48/49, DOUBLE's actions), passes it answered and passes it was told.
fn what_it_went_through(record: &Record, ours: usize) -> String {
    let chosen_from = record.opening.unwrap_or(0);
    // The seats' plies only: DOUBLE's cards leave the stock between a seat's actions.
    let plies: Vec<(usize, usize, bool)> = (record.moves.iter().enumerate())
        .filter_map(|(i, p)| p.seat.map(|s| (i, s, is_pass(&p.mv))))
        .collect();
    let runs: Vec<usize> = plies
        .chunk_by(|a, b| a.1 == b.1)
        .filter(|run| run.len() > 1 && run[0].1 == ours && run[0].0 >= chosen_from)
        .map(|run| run[0].0)
        .collect();
    let answered = (plies.iter())
        .filter(|&&(i, s, pass)| pass && s == ours && i >= chosen_from)
        .count();
    let told = plies
        .iter()
        .filter(|&&(_, s, pass)| pass && s != ours)
        .count();
    let mut notes = Vec::new();
    if let Some(first) = runs.first() {
        notes.push(format!(
            "{} turn(s) of several plies in a row, the first at ply {first}",
            runs.len()
        ));
    }
    if answered > 0 {
        notes.push(format!("answered pass {answered} time(s)"));
    }
    if told > 0 {
        notes.push(format!("told of a pass {told} time(s)"));
    }
    notes.iter().map(|n| format!("; {n}")).collect()
}

/// The variants and seat counts to check: the ones asked for, or every one the game allows (for
/// a CodeCup program, only what its protocol carries).
fn variants_and_seats(
    config: &CheckConfig,
    allowed: &Allowed,
) -> Result<(Vec<Option<String>>, Vec<usize>), String> {
    let codecup = config.proto == Proto::CodeCup;
    let variants: Vec<Option<String>> = match &config.variant {
        Some(v) => vec![Some(v.clone())],
        // A CodeCup program is never told the variant: it plays the one it was written for.
        None if codecup => vec![None],
        None => {
            // The game without a variant named, when it is none of the named ones (single-round
            // Wyx; Pegs without one is `standard`).
            let unnamed = AnyGame::create(&config.game, &Setup::default())
                .map_err(|e| e.to_string())?
                .variant()
                .is_none()
                .then_some(None);
            let named = allowed.variants.iter().map(|v| Some(v.to_string()));
            unnamed.into_iter().chain(named).collect()
        }
    };
    let seat_counts: Vec<usize> = match config.seats {
        Some(n) => vec![n],
        None => allowed.seats.to_vec(),
    };
    // The CodeCup protocol plays two seats, and tells a clock only through `{time_ms}`.
    let seat_counts: Vec<usize> = (seat_counts.into_iter())
        .filter(|&n| !codecup || n == 2)
        .collect();
    if seat_counts.is_empty() {
        return Err("proto=codecup plays games of two seats".into());
    }
    Ok((variants, seat_counts))
}

/// The situations for the game: every clock form once (the default variant and seat count), a
/// forced pass where the game has one, then every variant and seat count asked for; for a
/// CodeCup program only what its protocol can carry.
fn situations(config: &CheckConfig) -> Result<Vec<Situation>, String> {
    let allowed =
        AnyGame::allowed(&config.game).ok_or_else(|| format!("unknown game `{}`", config.game))?;
    let codecup = config.proto == Proto::CodeCup;
    let (variants, seat_counts) = variants_and_seats(config, allowed)?;
    let timed = codecup && config.command.command.contains(codecup::TIME_MS);
    let mut list = Vec::new();
    for (tc, form, keys) in CLOCK_FORMS {
        // A time per move is beyond the CodeCup protocol, which tells a program only its time
        // for the whole game: such a program is not checked against one.
        if (timed && codecup::budget(tc).is_none())
            || (codecup && matches!(tc, TimeControl::MoveTime(_)))
        {
            continue;
        }
        let keys = if codecup {
            "{time_ms} in its command"
        } else {
            keys
        };
        list.push(Situation {
            name: format!("clock {form} (genmove with {keys})"),
            variant: variants[0].clone(),
            seats: seat_counts[0],
            tc,
            opening: Vec::new(),
        });
    }
    // A CodeCup program cannot be told an opening (nor answers a pass: it is never asked).
    let pass = (!codecup)
        .then(|| opening_to_a_pass(&config.game, variants[0].as_deref(), seat_counts[0]))
        .flatten();
    if let Some(opening) = pass {
        list.push(Situation {
            name: format!("a forced pass (pass at ply {})", opening.len()),
            variant: variants[0].clone(),
            seats: seat_counts[0],
            tc: CLOCK_FORMS[0].0,
            opening,
        });
    }
    for variant in &variants {
        for &seats in &seat_counts {
            list.push(Situation {
                name: format!(
                    "{}{} with {seats} seats",
                    config.game,
                    variant
                        .as_deref()
                        .map(|v| format!(" {v}"))
                        .unwrap_or_default()
                ),
                variant: variant.clone(),
                seats,
                tc: CLOCK_FORMS[0].0,
                opening: Vec::new(),
            });
        }
    }
    Ok(list)
}

/// Plays every situation: one game per seat, the engine's process kept from game to game; each
/// game is a check.
fn game_checks(config: &CheckConfig) -> Vec<Check> {
    let situations = match situations(config) {
        Ok(list) => list,
        Err(e) => return vec![Check::new("games", Err(e), Vec::new())],
    };
    let mut checks = Vec::new();
    for (number, situation) in situations.iter().enumerate() {
        let log_dir = config.log_dir.join(format!("situation-{}", number + 1));
        let mut engines = vec![EngineSpec {
            command: config.command.clone(),
            tc: None,
            proto: config.proto,
            newgame_keys: Vec::new(),
        }];
        match builtin_engines(&config.exe, &config.game, situation.seats, 7, "") {
            // The random bot in every seat but the engine's.
            Ok(bots) => engines.extend(bots.into_iter().skip(1)),
            Err(e) => {
                checks.push(Check::new(&situation.name, Err(e.to_string()), Vec::new()));
                continue;
            }
        }
        unique_names(&mut engines);
        let names: Vec<String> = engines.iter().map(|e| e.command.name.clone()).collect();
        let match_config = situation_config(config, situation, number, engines, &log_dir);
        let plan = Plan {
            format: Format::RoundRobin,
            engines: situation.seats,
            seats: situation.seats,
            rounds: situation.seats,
            limit: None,
            repeat: false,
            seed: number as u64 + 1,
            secret: None,
        };
        let mut results = Vec::new();
        let outcome = arena::run(&match_config, schedule(&plan), |finished| {
            let seat = finished.engine_of_seat.iter().position(|&e| e == 0);
            let record = &finished.record;
            let name = format!(
                "{}, seat {}",
                situation.name,
                seat.map_or("?".into(), |s| s.to_string())
            );
            let outcome = game_outcome(record, seat);
            let transcript = log_dir.join(format!("game-{:05}.log", finished.index + 1));
            results.push(Check::new(name, outcome, lines_of(&transcript, &names[0])));
            Ok(true)
        });
        if let Err(e) = outcome {
            results.push(Check::new(&situation.name, Err(e.to_string()), Vec::new()));
        }
        checks.extend(results);
    }
    checks
}

/// The match of one situation: the engine in seat order with the random bot in every other seat
/// (`engines`), the situation's variant, clock and opening, every `newgame` and `genmove` with the
/// key no engine knows.
fn situation_config(
    config: &CheckConfig,
    situation: &Situation,
    number: usize,
    engines: Vec<EngineSpec>,
    log_dir: &Path,
) -> MatchConfig {
    MatchConfig {
        variant: situation.variant.clone(),
        startup: config.startup,
        log_dir: Some(log_dir.to_owned()),
        openings: match situation.opening.is_empty() {
            true => Openings::None,
            false => Openings::Book(Book::of(
                situation.name.clone(),
                vec![situation.opening.clone()],
            )),
        },
        probe_keys: true,
        ..MatchConfig::new(&config.game, engines, number as u64 + 1, situation.tc)
    }
}

/// What one game of a situation says of the engine in `seat`: its fault, a bot's, or the game
/// played to its end and what it went through.
fn game_outcome(record: &Record, seat: Option<usize>) -> Result<String, String> {
    let plies = record.moves.len();
    match (&record.end, seat) {
        (
            Some(End::Verdict {
                seat: at,
                verdict,
                detail,
            }),
            Some(ours),
        ) if *at == ours => Err(format!("{} at ply {plies}: {detail}", verdict.name())),
        (
            Some(End::Verdict {
                seat: at,
                verdict,
                detail,
            }),
            _,
        ) => Err(format!(
            "the built-in bot in seat {at} failed ({}: {detail}); not the engine's \
             fault, but the game did not finish",
            verdict.name()
        )),
        _ => Ok(format!(
            "played to its end, {plies} plies{}",
            seat.map_or(String::new(), |s| what_it_went_through(record, s))
        )),
    }
}
