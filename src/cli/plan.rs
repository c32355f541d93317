//! The one checked plan of a run: the flags of `match`, `tournament` or `play` turned, once, into
//! the match configuration and the tournament's plan, with the game created once for what the
//! rest needs of it (its seats, whether it hides information, whether a CodeCup program can play
//! it).

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::args::{
    ClockArg, FormatArg, MatchArgs, OnFaultArg, PlayArgs, RunArgs, TournamentArgs,
};
use crate::cli::error::Error;
use crate::cli::run::Tournament;
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

/// A run, checked: what its games are played with and what it plays.
pub struct RunPlan {
    /// The engines, clocks, openings, seed and the rest of each game's set-up.
    pub config: MatchConfig,
    /// Who meets whom, how often, and the run's files.
    pub tournament: Tournament,
    /// Whether the summary is JSON.
    pub json: bool,
}

impl RunPlan {
    /// A `match`: the tournament of one table, every engine at every game. One engine given
    /// plays the built-in bots: the search bot, then random ones in any further seat.
    pub fn of_match(mut args: MatchArgs) -> Result<RunPlan, Error> {
        keep_seed(&mut args.play, &args.run, args.out.as_deref())?;
        let engines = args.play.engine_words.len();
        if let Some(seats) = args.play.seats.filter(|&s| engines > 1 && s != engines) {
            return Err(Error::Usage(format!(
                "--seats {seats} needs {seats} --engine values, not {engines} (a tournament plays \
                 more engines than seats)"
            )));
        }
        let seats = args.play.seats.or((engines > 1).then_some(engines));
        let game = args.play.start(seats)?;
        if engines == 1 {
            for seat in 1..game.seats() {
                let strategy = if seat == 1 { "search" } else { "random" };
                args.play.engine_words.push(vec![strategy.to_owned()]);
            }
        }
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
        let shape = (Format::RoundRobin, rounds, games);
        RunPlan::of(args.play, args.run, shape, args.out, &game)
    }

    /// A `tournament`, whose records go to a file of their own unless `--out` names one.
    pub fn of_tournament(mut args: TournamentArgs) -> Result<RunPlan, Error> {
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
                    "--games is the games of a knockout tie; a round robin, gauntlet or Swiss \
                     plays --rounds (and --repeat plays every seat of each table)"
                        .into(),
                ));
            }
        };
        let game = args.play.start(args.play.seats)?;
        let fresh =
            (args.out.is_none() && !args.run.resume).then(|| fresh_records(&args.play.game));
        let out = args.out.or(fresh.clone());
        let plan = RunPlan::of(args.play, args.run, (format, rounds, None), out, &game)?;
        if let Some(fresh) = fresh {
            let shown = fresh.display();
            eprintln!(
                "referee: records go to {shown} (--out FILE names the file; --resume --out \
                 {shown} goes on with this run if it stops)"
            );
        }
        Ok(plan)
    }

    /// The plan of `game` from the flags `play` and `run`, the run's `(format, rounds, games)`
    /// and its records file: the run's files hidden from sandboxed engines, and its secret where
    /// `game` hides information.
    fn of(
        play: PlayArgs,
        run: RunArgs,
        (format, rounds, games): (Format, usize, Option<usize>),
        out: Option<PathBuf>,
        game: &AnyGame,
    ) -> Result<RunPlan, Error> {
        let (seed_given, json) = (play.seed.is_some(), play.json);
        let mut config = play_config(play, game)?;
        let secret_file = run.secret.clone();
        let tournament = tournament_of(run, format, rounds, games, game.seats(), out)?;
        let hides = game.hides_information();
        keep_private(&mut config, seed_given, hides, secret_file, &tournament)?;
        Ok(RunPlan {
            config,
            tournament,
            json,
        })
    }
}

impl PlayArgs {
    /// The game these flags ask for, with `seats` seats (its default when `None`): created once,
    /// for the plan to read its seats and what it hides.
    fn start(&self, seats: Option<usize>) -> Result<AnyGame, Error> {
        Ok(AnyGame::create(&self.game, &self.setup(seats))?)
    }

    /// The set-up these flags ask for, with `seats` seats (the game's default when `None`).
    fn setup(&self, seats: Option<usize>) -> Setup {
        Setup {
            variant: self.variant.clone(),
            seats,
            ..Setup::default()
        }
    }
}

/// The engines `play` names (the built-in bots when none is given), `--each` applied.
fn engines_of(play: &PlayArgs, seats: usize, seed: u64) -> Result<Vec<EngineSpec>, Error> {
    let each = &match play.each.as_slice() {
        [] => String::new(),
        words => engine_text(words)?,
    };
    if play.engine_words.is_empty() {
        return Ok(builtin_engines(
            &this_program()?,
            &play.game,
            seats,
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
fn openings_of(play: &PlayArgs, seats: usize, seed: u64) -> Result<Openings, Error> {
    if let Some(plies) = play.random_plies {
        return Ok(Openings::Random(plies));
    }
    if play.openings.is_empty() {
        return Ok(Openings::None);
    }
    let setup = play.setup(Some(seats));
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
/// clocks, seed (drawn when not given), and openings, checked for `game`.
fn play_config(play: PlayArgs, game: &AnyGame) -> Result<MatchConfig, Error> {
    let seats = game.seats();
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
    for warning in root_check(&engines, crate::sys::is_root())? {
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
    crate::play::codecup::check(&config, game)?;
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
    seats: usize,
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

/// `tournament-GAME-N.jsonl` in the current directory, the first N not yet taken: a tournament
/// run twice without `--out` keeps two files instead of refusing the second run.
fn fresh_records(game: &str) -> PathBuf {
    (1..)
        .map(|n| PathBuf::from(format!("tournament-{game}-{n}.jsonl")))
        .find(|path| std::fs::symlink_metadata(path).is_err())
        .unwrap_or_else(|| PathBuf::from(format!("tournament-{game}.jsonl")))
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
    hides: bool,
    file: Option<PathBuf>,
    tournament: &Tournament,
) -> Result<(), Error> {
    config.private.extend(tournament.out.clone());
    config.private.extend(tournament.progress.clone());
    open_live(config, tournament)?;
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
