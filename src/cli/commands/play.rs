//! `referee match`, `referee tournament` and `referee play`: the flags turned into one checked
//! match configuration and the run's plan, then the run.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::args::{
    ClockArg, FormatArg, HumanArgs, MatchArgs, OnFaultArg, PlayArgs, RunArgs, TournamentArgs,
};
use crate::cli::error::{CommandResult, Error};
use crate::cli::run::{Tournament, run};
use crate::play::arena::{MatchConfig, OnFault};
use crate::play::clock::TimeControl;
use crate::play::live::LiveLog;
use crate::play::openings::{BookSpec, Openings};
use crate::play::schedule::Format;
use crate::play::secret::Secret;
use crate::play::spec::{
    EngineSpec, builtin_engine, builtin_engines, human_engine, level_engine_of, root_check,
    unique_names,
};
use crate::rules::game::Setup;
use crate::rules::{AnyGame, Game};
use crate::stats::elo::Sprt;

/// One `--engine` value from its words: a single word as it is (`'name=a cmd=./a'`) unless it
/// names a file, which is the engine's program, quoted (a path may hold spaces); several
/// (`name=a cmd=./a`, as cutechess users type them) quoted back into one.
pub fn engine_text(words: &[String]) -> Result<String, Error> {
    match words {
        [one] if Path::new(one).is_file() => crate::sys::words::quote(one)
            .ok_or_else(|| Error::Usage(format!("--engine {one:?} cannot be quoted"))),
        [one] => Ok(one.clone()),
        _ => crate::sys::words::join(words.iter().map(String::as_str))
            .ok_or_else(|| Error::Usage(format!("--engine {words:?} cannot be quoted"))),
    }
}

/// This program's path, quoted for a shell: the built-in bots run as its `bot` command.
pub fn this_program() -> Result<String, Error> {
    let exe = std::env::current_exe()?;
    crate::sys::words::quote(&exe.to_string_lossy())
        .ok_or_else(|| Error::Usage("this program's path cannot be quoted".into()))
}

/// `referee play`: a `match` with the person in one seat (`human`) and the engines, or the
/// built-in search bot, in the others.
pub fn human(args: HumanArgs, stdout: &mut dyn io::Write) -> CommandResult {
    if args.seat >= args.seats {
        return Err(Error::Usage(format!(
            "--seat {} is not a seat of {} (seats are numbered from 0)",
            args.seat, args.seats
        )));
    }
    let others = args.seats - 1;
    let words = |text: &String| vec![text.clone()];
    let mut engines = match args.engines.len() {
        0 => vec![vec!["search".to_owned()]; others],
        1 => vec![words(&args.engines[0]); others],
        n if n == others => args.engines.iter().map(words).collect(),
        n => {
            return Err(Error::Usage(format!(
                "{n} --engine values for {others} other seats: give one for all, or one per seat"
            )));
        }
    };
    engines.insert(args.seat, vec!["human".to_owned()]);
    let mut defaults = MatchDefaults::defaults(&args.game)?;
    let play = &mut defaults.args.play;
    play.variant = args.variant;
    play.engine_words = engines;
    (play.tc, play.movetime, play.seed) = (args.tc, args.movetime, args.seed);
    defaults.args.games = Some(args.games);
    defaults.args.out = args.out;
    one_match(defaults.args, stdout)
}

/// A `match`'s flags at their defaults, for `play` to fill in.
#[derive(clap::Parser)]
struct MatchDefaults {
    #[command(flatten)]
    args: MatchArgs,
}

impl MatchDefaults {
    fn defaults(game: &str) -> Result<MatchDefaults, Error> {
        use clap::Parser;
        MatchDefaults::try_parse_from(["referee", "--game", game])
            .map_err(|e| Error::Usage(e.to_string()))
    }
}

/// The engines `play` names (the built-in bots when none is given), `--each` applied.
fn engines_of(play: &PlayArgs, seats: Option<usize>, seed: u64) -> Result<Vec<EngineSpec>, Error> {
    let each = &match play.each.as_slice() {
        [] => String::new(),
        words => engine_text(words)?,
    };
    if play.engine_words.is_empty() {
        return Ok(builtin_engines(
            &this_program()?,
            &play.game,
            seats.unwrap_or(2),
            seed,
            each,
        )?);
    }
    (play.engine_words.iter().enumerate())
        .map(|(i, words)| match words.as_slice() {
            [human] if human == "human" => Ok(human_engine(&this_program()?, &play.game)?),
            // The built-in bots by name, each seeded from the run's seed and its place.
            [bot] if bot == "search" || bot == "random" => Ok(builtin_engine(
                &this_program()?,
                &play.game,
                bot,
                seed.wrapping_add(i as u64),
                each,
            )?),
            // A level of the built-in ladder (`level=N`, with keys of its own or none), or any
            // other engine.
            _ => {
                let text = engine_text(words)?;
                let seed = seed.wrapping_add(i as u64);
                match level_engine_of(&this_program()?, &play.game, &text, seed, each) {
                    Some(level) => Ok(level?),
                    None => Ok(EngineSpec::parse_with(&text, each)?),
                }
            }
        })
        .collect()
}

/// The openings `play` asks for: random plies, a book checked for games of `seats` seats, or
/// none.
fn openings_of(play: &PlayArgs, seats: Option<usize>, seed: u64) -> Result<Openings, Error> {
    if let Some(plies) = play.random_plies {
        return Ok(Openings::Random(plies));
    }
    if play.openings.is_empty() {
        return Ok(Openings::None);
    }
    let setup = Setup {
        variant: play.variant.clone(),
        seats,
        ..Setup::default()
    };
    Ok(Openings::Book(
        BookSpec::parse(&play.openings)?.load(&play.game, &setup, seed)?,
    ))
}

/// The CPUs of `--use-affinity LIST` (`0-3,8`, or `all`: those this process may use), one for
/// each of the `concurrency` games played at once; refused when a CPU is not one this process
/// may use or there are too few.
fn affinity(list: &str, concurrency: usize) -> Result<Vec<usize>, Error> {
    let usable = crate::engine::process::usable_cpus().map_err(|e| {
        Error::Usage(format!(
            "--use-affinity: cannot read this process's CPUs: {e}"
        ))
    })?;
    let shown = usable
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let cpus: Vec<usize> = match list {
        "all" => usable.clone(),
        _ => {
            let bad = || {
                Error::Usage(format!(
                    "--use-affinity {list}: expected CPU numbers and ranges such as 0-3,8"
                ))
            };
            let mut cpus = Vec::new();
            for part in list.split(',') {
                let (low, high) = part.split_once('-').unwrap_or((part, part));
                let (low, high): (usize, usize) = (
                    low.trim().parse().map_err(|_| bad())?,
                    high.trim().parse().map_err(|_| bad())?,
                );
                if low > high || high - low > 4096 {
                    return Err(bad());
                }
                cpus.extend(low..=high);
            }
            cpus
        }
    };
    if let Some(cpu) = cpus.iter().find(|cpu| !usable.contains(cpu)) {
        return Err(Error::Usage(format!(
            "--use-affinity: CPU {cpu} is not one this process may use ({shown})"
        )));
    }
    if cpus.len() < concurrency {
        return Err(Error::Usage(format!(
            "--use-affinity gives each of the {concurrency} games played at once a CPU of its \
             own, and {list} names {}",
            cpus.len()
        )));
    }
    Ok(cpus[..concurrency].to_vec())
}

/// The match configuration `play` asks for: its engines (the built-in bots when none is given),
/// clocks, seed (drawn when not given), and openings, checked for games of `seats` seats.
fn play_config(play: PlayArgs, seats: Option<usize>) -> Result<MatchConfig, Error> {
    let seed = match play.seed {
        Some(seed) => seed,
        None => getrandom::u64().map_err(|e| Error::Usage(format!("cannot draw a seed: {e}")))?,
    };
    let mut engines = engines_of(&play, seats, seed)?;
    unique_names(&mut engines);
    let cpu_clock = play.clock == ClockArg::Cpu;
    if cpu_clock {
        if let Err(why) = crate::engine::cgroup::cgroups() {
            return Err(Error::Usage(format!(
                "--clock cpu reads each engine's CPU time from a cgroup of its own, and there is \
                 none here ({why}); use the wall clock"
            )));
        }
        if let Some(human) = engines.iter().find(|e| e.command.terminal) {
            return Err(Error::Usage(format!(
                "--clock cpu: {} is a person, whose time is the time that passes",
                human.command.name
            )));
        }
        for engine in &mut engines {
            engine.command.cgroup = true;
        }
    }
    if play.concurrency > 1 && engines.iter().any(|e| e.command.terminal) {
        return Err(Error::Usage(
            "a human seat plays one game at a time: leave out --concurrency".into(),
        ));
    }
    for engine in &engines {
        if let Some(refused) = crate::engine::sys::refusal(&engine.command) {
            let name = &engine.command.name;
            return Err(Error::Usage(format!("engine {name}: {refused}")));
        }
    }
    for warning in root_check(&engines, crate::sys::is_root()).map_err(Error::Usage)? {
        eprintln!("referee: warning: {warning}");
    }
    let tc = match play.movetime {
        Some(ms) => TimeControl::MoveTime(Duration::from_millis(ms)),
        None => play.tc.parse()?,
    };
    let openings = openings_of(&play, seats, seed)?;
    let config = MatchConfig {
        game: play.game,
        variant: play.variant,
        engines,
        repeat: play.repeat,
        seed,
        secret: None,
        tc,
        margin: Duration::from_millis(play.margin.max(play.timemargin)),
        time_margin: Duration::from_millis(play.timemargin),
        cpu_clock,
        startup: Duration::from_millis(play.startup),
        concurrency: play.concurrency,
        affinity: match &play.use_affinity {
            Some(list) => affinity(list, play.concurrency)?,
            None => Vec::new(),
        },
        on_fault: match play.on_fault {
            OnFaultArg::Forfeit => OnFault::Forfeit,
            OnFaultArg::Substitute => OnFault::Substitute,
        },
        log_dir: play.log_dir,
        log_limit: play.log_limit,
        openings,
        scratch_dir: play.scratch_dir,
        private: Vec::new(),
        probe_keys: false,
        live: None,
    };
    crate::play::codecup::check(&config, seats)?;
    Ok(config)
}

/// The seed a run keeps: on `--resume` without `--seed`, the one its records hold, said on stderr.
/// Shards without `--seed` (or a shared `--secret`) would each draw a schedule of their own, so
/// they are refused.
fn keep_seed(play: &mut PlayArgs, run: &RunArgs, out: Option<&Path>) -> Result<(), Error> {
    if play.seed.is_some() {
        return Ok(());
    }
    if let (true, Some(out)) = (run.resume, out)
        && let Some(seed) = crate::cli::run::kept_seed(out)?
    {
        eprintln!("referee: --resume: the run's seed is {seed}, as its records say");
        play.seed = Some(seed);
        return Ok(());
    }
    if run.shard.is_some() && run.secret.is_none() {
        return Err(Error::Usage(
            "--shard needs --seed (or a --secret file the shards share): every shard must play \
             a slice of the same schedule"
                .into(),
        ));
    }
    Ok(())
}

/// The run's plan beyond the match configuration, from the flags both commands share.
fn tournament_of(
    run: RunArgs,
    format: Format,
    rounds: usize,
    games: Option<usize>,
    seats: Option<usize>,
    out: Option<PathBuf>,
) -> Result<Tournament, Error> {
    if run.resume && out.is_none() {
        return Err(Error::Usage(
            "--resume needs --out, the file to go on with".into(),
        ));
    }
    // The page of a run follows its records and its live file: OUT.live unless named.
    let live = match (&run.serve, run.live, &out) {
        (Some(_), None, None) => {
            return Err(Error::Usage(
                "--serve shows the run from its records: give --out".into(),
            ));
        }
        (Some(_), None, Some(out)) => {
            let mut live = out.clone().into_os_string();
            live.push(".live");
            Some(PathBuf::from(live))
        }
        (_, live, _) => live,
    };
    Ok(Tournament {
        format,
        rounds,
        games,
        seats,
        out,
        resume: run.resume,
        shard: run.shard.as_deref().map(str::parse).transpose()?,
        peers: run.peers,
        sprt: Sprt::parse_option(&run.sprt)?,
        progress: run.progress,
        live,
        serve: run.serve,
        rating_interval: run.ratinginterval,
        event: run.event,
    })
}

pub fn one_match(mut args: MatchArgs, stdout: &mut dyn io::Write) -> CommandResult {
    let json = args.play.json;
    keep_seed(&mut args.play, &args.run, args.out.as_deref())?;
    let seed_given = args.play.seed.is_some();
    // One engine plays the built-in bots: the search bot, then random ones in any further seat.
    if args.play.engine_words.len() == 1 {
        let setup = Setup {
            variant: args.play.variant.clone(),
            seats: args.play.seats,
            ..Setup::default()
        };
        let seats = AnyGame::create(&args.play.game, &setup)?.seats();
        for seat in 1..seats {
            let strategy = if seat == 1 { "search" } else { "random" };
            args.play.engine_words.push(vec![strategy.to_owned()]);
        }
    }
    let engines = args.play.engine_words.len();
    if let Some(seats) = args.play.seats.filter(|&s| engines > 0 && s != engines) {
        return Err(Error::Usage(format!(
            "--seats {seats} needs {seats} --engine values, not {engines} (a tournament plays \
             more engines than seats)"
        )));
    }
    let seats = args.play.seats.or((engines > 0).then_some(engines));
    let mut config = play_config(args.play, seats)?;
    // A match is the tournament of one table: every engine at every game.
    let seats = Some(config.engines.len());
    let secret_file = args.run.secret.clone();
    let (rounds, games) = match (args.rounds, args.games) {
        (Some(rounds), None) => (rounds, None),
        // cutechess-cli's `-rounds R -games G`: R × G games, in as many rounds as that takes.
        (Some(rounds), Some(games)) => {
            let total = rounds.saturating_mul(games);
            (total, Some(total))
        }
        // Enough rounds for the games; the schedule stops after them.
        (None, games) => (games.unwrap_or(10), Some(games.unwrap_or(10))),
    };
    let tournament = tournament_of(args.run, Format::RoundRobin, rounds, games, seats, args.out)?;
    keep_private(&mut config, seed_given, secret_file, &tournament)?;
    announce_containment(&config);
    run_and_serve(&config, &tournament, json, stdout)
}

pub fn tournament(mut args: TournamentArgs, stdout: &mut dyn io::Write) -> CommandResult {
    let json = args.play.json;
    keep_seed(&mut args.play, &args.run, args.out.as_deref())?;
    let format = match args.format {
        FormatArg::RoundRobin => Format::RoundRobin,
        FormatArg::Gauntlet => Format::Gauntlet,
        FormatArg::Swiss => Format::Swiss,
        FormatArg::Knockout => Format::Knockout,
    };
    // A knockout's plan carries the games of a tie where the others carry their rounds.
    let rounds = match (format, args.games) {
        (Format::Knockout, games) => games.unwrap_or(2),
        (_, None) => args.rounds,
        (_, Some(_)) => {
            return Err(Error::Usage(
                "--games is the games of a knockout tie; a round robin, gauntlet or Swiss plays \
                 --rounds (and --repeat plays every seat of each table)"
                    .into(),
            ));
        }
    };
    let seats = args.play.seats;
    let seed_given = args.play.seed.is_some();
    let secret_file = args.run.secret.clone();
    // A tournament always keeps its records: in a file of its own unless told which.
    let fresh = (args.out.is_none() && !args.run.resume).then(|| fresh_records(&args.play.game));
    let out = args.out.or(fresh.clone());
    let tournament = tournament_of(args.run, format, rounds, None, seats, out)?;
    let mut config = play_config(args.play, seats)?;
    if let Some(fresh) = fresh {
        let shown = fresh.display();
        eprintln!(
            "referee: records go to {shown} (--out FILE names the file; --resume --out {shown} \
             goes on with this run if it stops)"
        );
    }
    keep_private(&mut config, seed_given, secret_file, &tournament)?;
    announce_containment(&config);
    run_and_serve(&config, &tournament, json, stdout)
}

/// Plays the run, with its page served while it plays when `--serve` asks for it.
fn run_and_serve(
    config: &MatchConfig,
    tournament: &Tournament,
    json: bool,
    stdout: &mut dyn io::Write,
) -> CommandResult {
    let (Some(bind), Some(out), Some(live)) =
        (&tournament.serve, &tournament.out, &tournament.live)
    else {
        return run(config, tournament, json, stdout);
    };
    let (stop, page) = crate::cli::serve::serve_run(bind, out.clone(), live.clone())?;
    let result = run(config, tournament, json, stdout);
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = page.join();
    result
}

/// `tournament-GAME-N.jsonl` in the current directory, the first N not yet taken: a tournament
/// run twice without `--out` keeps two files instead of refusing the second run.
fn fresh_records(game: &str) -> PathBuf {
    (1..)
        .map(|n| PathBuf::from(format!("tournament-{game}-{n}.jsonl")))
        .find(|path| std::fs::symlink_metadata(path).is_err())
        .unwrap_or_else(|| PathBuf::from(format!("tournament-{game}.jsonl")))
}

/// Says, before a run that contains its engines (a sandbox, a user or limits) starts, what holds
/// them: an organiser should not have to read the source to know.
fn announce_containment(config: &MatchConfig) {
    let contained = (config.engines.iter())
        .any(|e| e.command.sandbox || e.command.user.is_some() || e.command.limits.any());
    if !contained {
        return;
    }
    let sandboxed: Vec<&str> = (config.engines.iter())
        .filter(|e| e.command.sandbox)
        .map(|e| e.command.name.as_str())
        .collect();
    if !sandboxed.is_empty() {
        let user = match crate::sys::is_root() {
            true => format!(
                "a user of its own each (from uid {}) unless user= says otherwise",
                crate::engine::users::FIRST_UID
            ),
            false => "the referee's own user".to_owned(),
        };
        eprintln!(
            "referee: containment: {} in bubblewrap, as {user}: own session, pid, network and \
             mount namespaces, seccomp, private size-limited /tmp; nothing outlives a game or the \
             referee.",
            sandboxed.join(", ")
        );
        if let Some(scratch) = &config.scratch_dir {
            eprintln!(
                "referee: containment: what sandboxed engines write to their scratch directories \
                 under {} is bounded per file (fsize=), not in all.",
                scratch.display()
            );
        }
    }
    eprintln!(
        "referee: containment: {}.",
        crate::engine::cgroup::describe()
    );
}

/// Opens the live file (`--live`), emptied, unless it is another of the run's files.
fn open_live(config: &mut MatchConfig, tournament: &Tournament) -> Result<(), Error> {
    let Some(live) = &tournament.live else {
        return Ok(());
    };
    let same = |other: &Path| other == live || crate::sys::same_file(other, live);
    if [&tournament.out, &tournament.progress]
        .into_iter()
        .flatten()
        .any(|f| same(f))
    {
        return Err(Error::Usage(format!(
            "--live {} is another of the run's files: the live file is emptied as the run starts",
            live.display()
        )));
    }
    let log = LiveLog::create(live).map_err(|e| Error::write(live, e))?;
    config.live = Some(std::sync::Arc::new(log));
    config.private.push(live.clone());
    Ok(())
}

/// Hides the run's files (records, progress, secret, live) from sandboxed engines, and gives a run of a
/// game with hidden information its secret (see `play::secret`): from `file`, or `OUT.secret`
/// beside the records, or drawn for this run alone. A seed given instead deals the cards from a
/// number someone may know or guess: allowed, for tests that must be repeatable, with a warning.
fn keep_private(
    config: &mut MatchConfig,
    seed_given: bool,
    file: Option<PathBuf>,
    tournament: &Tournament,
) -> Result<(), Error> {
    config.private.extend(tournament.out.clone());
    config.private.extend(tournament.progress.clone());
    open_live(config, tournament)?;
    let setup = Setup {
        variant: config.variant.clone(),
        seats: tournament.seats,
        ..Setup::default()
    };
    let hides = AnyGame::create(&config.game, &setup)?.hides_information();
    match (hides, seed_given, &file) {
        (false, _, Some(_)) => Err(Error::Usage(format!(
            "--secret is for games with hidden information, not {}",
            config.game
        ))),
        (false, _, None) => Ok(()),
        (true, true, Some(_)) => Err(Error::Usage(
            "--seed deals from a number, --secret from a secret file: give one of them".into(),
        )),
        (true, true, None) => {
            eprintln!(
                "referee: warning: --seed {} deals every hand of every game: an engine that knows \
                 or guesses it sees all cards. Leave --seed out when engines compete (a secret \
                 deals the games instead).",
                config.seed
            );
            Ok(())
        }
        (true, false, _) => {
            let file = file.or_else(|| {
                tournament.out.as_ref().map(|out| {
                    let mut name = out.as_os_str().to_owned();
                    name.push(".secret");
                    PathBuf::from(name)
                })
            });
            config.secret = Some(match &file {
                Some(path) => Secret::load_or_create(path)?,
                None => Secret::draw()
                    .map_err(|e| Error::Usage(format!("cannot draw a secret: {e}")))?,
            });
            config.private.extend(file);
            Ok(())
        }
    }
}
