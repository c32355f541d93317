//! The `referee` binary: parses the command line, calls the command in the library, and exits
//! with the status `referee::error` maps its result to.

mod cli;

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use cli::{
    CheckEngineArgs, Cli, Command, FormatArg, HumanArgs, ImportFormat, MatchArgs, OnFaultArg,
    PlayArgs, RunArgs, StrategyArg, TournamentArgs,
};
use referee::bots::Strategy;
use referee::error::{CommandResult, Ended, Error, exit_status};
use referee::play::arena::{MatchConfig, OnFault};
use referee::play::clock::TimeControl;
use referee::play::openings::{BookSpec, Generate, Openings};
use referee::play::run::{Tournament, run};
use referee::play::schedule::Format;
use referee::play::secret::Secret;
use referee::play::spec::{
    EngineSpec, builtin_command, builtin_engine, builtin_engines, human_engine, root_check,
    unique_names,
};
use referee::records::import::Source;
use referee::rules::game::Setup;
use referee::rules::{AnyGame, Game};
use referee::stats::elo::Sprt;

/// The most characters of any one quoted text (`...`) in an error the referee prints.
const QUOTE_LIMIT: usize = 400;

fn main() -> ExitCode {
    let result = dispatch(Cli::parse_args());
    if let Err(error) = &result
        && !error.is_closed_output()
    {
        // Errors quote what they were given, and a hostile file may give megabytes.
        let text = referee::protocol::shorten_quotes(&error.to_string(), QUOTE_LIMIT);
        eprintln!("referee: {text}");
    }
    ExitCode::from(exit_status(&result))
}

fn dispatch(cli: Cli) -> CommandResult {
    let mut stdout = io::stdout().lock();
    match cli.command {
        Command::Session { plain: false } => {
            let framing = referee::protocol::Framing::Gtp;
            referee::session::run(io::stdin().lock(), stdout, framing)?;
            Ok(Ended::Done)
        }
        Command::Session { plain: true } => {
            let mut stderr = io::stderr().lock();
            let framing = referee::protocol::Framing::Plain {
                errors: &mut stderr,
            };
            match referee::session::run(io::stdin().lock(), stdout, framing)? {
                0 => Ok(Ended::Done),
                _ => Ok(Ended::Invalid),
            }
        }
        Command::Moves {
            game,
            variant,
            seats,
            seed,
            setup,
            moves,
        } => {
            use std::io::Write;
            let mut options = vec![("seed".to_owned(), seed.to_string())];
            options.extend(seats.map(|n| ("seats".to_owned(), n.to_string())));
            options.extend(setup.map(|token| ("setup".to_owned(), token)));
            let new = referee::protocol::NewGame {
                game,
                variant,
                options,
            };
            for mv in referee::session::legal_after(&new, &moves)? {
                writeln!(stdout, "{mv}")?;
            }
            Ok(Ended::Done)
        }
        Command::Validate { files, json } => {
            referee::records::validate::run(&files, json, &mut stdout)
        }
        Command::Import { from, file, output } => {
            let source = match from {
                ImportFormat::Codecup => Source::CodeCup,
                ImportFormat::Littlegolem => Source::LittleGolem,
            };
            referee::records::import::run(source, &file, output.as_deref(), &mut stdout)
        }
        Command::Bot {
            game,
            strategy,
            seed,
        } => {
            let strategy = match strategy {
                StrategyArg::Random => Strategy::Random,
                StrategyArg::Search => Strategy::Search,
                StrategyArg::Human => Strategy::Human,
            };
            if strategy != Strategy::Human {
                referee::bots::run(&game, strategy, seed, io::stdin().lock(), stdout, None)?;
                return Ok(Ended::Done);
            }
            // The referee gives the human seat the protocol on 3 and 4, the terminal on 0 and 1.
            let protocol = |fd: u8, write: bool| {
                std::fs::OpenOptions::new()
                    .read(!write)
                    .write(write)
                    .open(format!("/dev/fd/{fd}"))
                    .map_err(|e| {
                        Error::Usage(format!(
                            "the human seat is started by the referee (`referee play`, or \
                             `--engine human`), which speaks to it on descriptor {fd}: {e}"
                        ))
                    })
            };
            let (commands, answers) = (protocol(3, false)?, protocol(4, true)?);
            let terminal = referee::bots::human::Terminal::new(
                Box::new(io::stdin().lock()) as Box<dyn io::BufRead>,
                Box::new(stdout) as Box<dyn io::Write>,
            );
            referee::bots::run(
                &game,
                strategy,
                seed,
                io::BufReader::new(commands),
                answers,
                Some(terminal),
            )?;
            Ok(Ended::Done)
        }
        Command::CheckEngine(args) => check_engine(args, &mut stdout),
        Command::Play(args) => match Cli::parse_args_from(human_match(args)?).command {
            Command::Match(args) => play_match(args, &mut stdout),
            _ => unreachable!("human_match builds a match"),
        },
        Command::Match(args) => play_match(args, &mut stdout),
        Command::Tournament(args) => play_tournament(args, &mut stdout),
        Command::Stats {
            files,
            progress,
            json,
        } => referee::stats::results::run(&files, &progress, json, &mut stdout),
        Command::Render {
            file,
            index,
            ply,
            seat,
            output,
        } => referee::render::picture::run(&file, index, ply, seat, output.as_deref(), &mut stdout),
        Command::Openings {
            game,
            variant,
            seats,
            plies,
            count,
            max_lead,
            seed,
            output,
        } => {
            let options = Generate {
                game,
                setup: Setup {
                    variant,
                    seats,
                    ..Setup::default()
                },
                plies,
                count,
                max_lead,
                seed,
            };
            referee::play::openings::generate(&options, output.as_deref(), &mut stdout)
        }
        Command::View { files, output } => referee::render::viewer::run(&files, &output),
        Command::Report {
            files,
            output,
            sprt,
        } => {
            let sprt = Sprt::parse_option(&sprt)?;
            referee::render::report::run(&files, &output, sprt.as_ref())
        }
        Command::Rules { game } => {
            use std::io::Write;
            let text = match game.as_deref() {
                None => referee::rules::docs::INDEX,
                Some(id) => referee::rules::docs::page(id)
                    .ok_or_else(|| Error::Usage(format!("no rules for game {id}")))?,
            };
            stdout.write_all(text.as_bytes())?;
            Ok(Ended::Done)
        }
        Command::Schema => {
            use std::io::Write;
            writeln!(stdout, "{}", referee::records::schema())?;
            Ok(Ended::Done)
        }
        Command::Completions { shell } => {
            use clap::CommandFactory;
            clap_complete::generate(shell, &mut Cli::command(), "referee", &mut stdout);
            Ok(Ended::Done)
        }
        Command::Man { subcommand } => {
            use clap::CommandFactory;
            let mut top = Cli::command();
            // Built, so that the `help` subcommand the top page lists is there too.
            top.build();
            let page = match subcommand {
                None => clap_mangen::Man::new(top),
                Some(name) => {
                    let Some(sub) = top.find_subcommand(&name) else {
                        return Err(Error::Usage(format!(
                            "no subcommand `{name}` (`referee --help` lists them)"
                        )));
                    };
                    // The name the top page gives it: referee-match(1).
                    clap_mangen::Man::new(sub.clone()).title(format!("referee-{name}"))
                }
            };
            page.render(&mut stdout)?;
            Ok(Ended::Done)
        }
    }
}

/// One `--engine` value from its words: a single word as it is (`'name=a cmd=./a'`), several
/// (`name=a cmd=./a`, as cutechess users type them) quoted back into one.
fn engine_text(words: &[String]) -> Result<String, Error> {
    match words {
        [one] => Ok(one.clone()),
        _ => shlex::try_join(words.iter().map(String::as_str))
            .map_err(|_| Error::Usage(format!("--engine {words:?} cannot be quoted"))),
    }
}

/// This program's path, quoted for a shell: the built-in bots run as its `bot` command.
fn this_program() -> Result<String, Error> {
    let exe = std::env::current_exe()?;
    shlex::try_quote(&exe.to_string_lossy())
        .map(|quoted| quoted.into_owned())
        .map_err(|_| Error::Usage("this program's path cannot be quoted".into()))
}

/// `referee check-engine`: the engine's command and the checks' settings.
fn check_engine(args: CheckEngineArgs, stdout: &mut dyn io::Write) -> CommandResult {
    let spec = EngineSpec::parse(&engine_text(&args.command)?)?;
    // A temporary directory only when none is given; removed when it goes out of scope.
    let temporary;
    let log_dir = match args.log_dir {
        Some(dir) => {
            std::fs::create_dir_all(&dir).map_err(|e| Error::write(&dir, e))?;
            dir
        }
        None => {
            temporary = tempfile::Builder::new()
                .prefix("referee-check-")
                .tempdir()?;
            temporary.path().to_owned()
        }
    };
    let config = referee::play::check::CheckConfig {
        game: args.game,
        variant: args.variant,
        seats: args.seats,
        command: spec.command,
        proto: spec.proto,
        startup: Duration::from_millis(args.startup),
        exe: this_program()?,
        log_dir,
    };
    referee::play::check::command(&config, args.json, stdout)
}

/// The `match` command line `play` stands for: `human` in the person's seat, the engines (or
/// the built-in search bot) in the others.
fn human_match(args: HumanArgs) -> Result<Vec<String>, Error> {
    if args.seat >= args.seats {
        return Err(Error::Usage(format!(
            "--seat {} is not a seat of {} (seats are numbered from 0)",
            args.seat, args.seats
        )));
    }
    let others = args.seats - 1;
    let engines = match args.engines.len() {
        0 => {
            let seed = args.seed.unwrap_or(0);
            let command = builtin_command(&this_program()?, &args.game, "search", seed);
            let quoted = shlex::try_quote(&command)
                .map_err(|e| Error::Usage(format!("cannot quote {command}: {e}")))?;
            let bot = format!("name=search cmd={quoted}");
            vec![bot; others]
        }
        1 => vec![args.engines[0].clone(); others],
        n if n == others => args.engines,
        n => {
            return Err(Error::Usage(format!(
                "{n} --engine values for {others} other seats: give one for all, or one per seat"
            )));
        }
    };
    let mut seats = engines;
    seats.insert(args.seat, "human".to_owned());
    let mut argv = vec!["referee".to_owned(), "match".to_owned()];
    let mut flag = |name: &str, value: String| argv.extend([format!("--{name}"), value]);
    flag("game", args.game);
    if let Some(variant) = args.variant {
        flag("variant", variant);
    }
    for engine in seats {
        flag("engine", engine);
    }
    match args.movetime {
        Some(ms) => flag("movetime", ms.to_string()),
        None => flag("tc", args.tc),
    }
    flag("games", args.games.to_string());
    if let Some(seed) = args.seed {
        flag("seed", seed.to_string());
    }
    if let Some(out) = args.out {
        flag("out", out.display().to_string());
    }
    Ok(argv)
}

/// The match configuration `play` asks for: its engines (the built-in bots when none is given),
/// clocks, seed (drawn when not given), and openings, checked for games of `seats` seats.
fn play_config(play: PlayArgs, seats: Option<usize>) -> Result<MatchConfig, Error> {
    let seed = match play.seed {
        Some(seed) => seed,
        None => getrandom::u64().map_err(|e| Error::Usage(format!("cannot draw a seed: {e}")))?,
    };
    let mut engines = if play.engine_words.is_empty() {
        builtin_engines(
            &this_program()?,
            &play.game,
            seats.unwrap_or(2),
            seed,
            &play.each,
        )?
    } else {
        play.engine_words
            .iter()
            .enumerate()
            .map(|(i, words)| match words.as_slice() {
                [human] if human == "human" => Ok(human_engine(&this_program()?, &play.game)?),
                // The built-in bots by name, each seeded from the run's seed and its place.
                [bot] if bot == "search" || bot == "random" => Ok(builtin_engine(
                    &this_program()?,
                    &play.game,
                    bot,
                    seed.wrapping_add(i as u64),
                    &play.each,
                )?),
                _ => Ok(EngineSpec::parse_with(&engine_text(words)?, &play.each)?),
            })
            .collect::<Result<_, Error>>()?
    };
    unique_names(&mut engines);
    if play.concurrency > 1 && engines.iter().any(|e| e.command.terminal) {
        return Err(Error::Usage(
            "a human seat plays one game at a time: leave out --concurrency".into(),
        ));
    }
    for warning in root_check(&engines, nix::unistd::geteuid().is_root()).map_err(Error::Usage)? {
        eprintln!("referee: warning: {warning}");
    }
    let tc = match play.movetime {
        Some(ms) => TimeControl::MoveTime(Duration::from_millis(ms)),
        None => play.tc.parse()?,
    };
    let openings = if let Some(plies) = play.random_plies {
        Openings::Random(plies)
    } else if !play.openings.is_empty() {
        let setup = Setup {
            variant: play.variant.clone(),
            seats,
            ..Setup::default()
        };
        Openings::Book(BookSpec::parse(&play.openings)?.load(&play.game, &setup, seed)?)
    } else {
        Openings::None
    };
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
        startup: Duration::from_millis(play.startup),
        concurrency: play.concurrency,
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
    };
    referee::play::codecup::check(&config, seats).map_err(Error::Usage)?;
    Ok(config)
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
    Ok(Tournament {
        format,
        rounds,
        games,
        seats,
        out,
        resume: run.resume,
        shard: run.shard.as_deref().map(str::parse).transpose()?,
        sprt: Sprt::parse_option(&run.sprt)?,
        progress: run.progress,
        rating_interval: run.ratinginterval,
    })
}

fn play_match(mut args: MatchArgs, stdout: &mut dyn io::Write) -> CommandResult {
    let json = args.play.json;
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
    let (rounds, games) = match args.rounds {
        Some(rounds) => (rounds, None),
        // Enough rounds for the games; the schedule stops after them.
        None => (args.games, Some(args.games)),
    };
    let tournament = tournament_of(args.run, Format::RoundRobin, rounds, games, seats, args.out)?;
    keep_private(&mut config, seed_given, secret_file, &tournament)?;
    announce_containment(&config);
    run(&config, &tournament, json, stdout)
}

fn play_tournament(args: TournamentArgs, stdout: &mut dyn io::Write) -> CommandResult {
    let json = args.play.json;
    let format = match args.format {
        FormatArg::RoundRobin => Format::RoundRobin,
        FormatArg::Gauntlet => Format::Gauntlet,
    };
    let seats = args.play.seats;
    let seed_given = args.play.seed.is_some();
    let secret_file = args.run.secret.clone();
    let tournament = tournament_of(args.run, format, args.rounds, None, seats, Some(args.out))?;
    let mut config = play_config(args.play, seats)?;
    keep_private(&mut config, seed_given, secret_file, &tournament)?;
    announce_containment(&config);
    run(&config, &tournament, json, stdout)
}

/// Says, before a run with sandboxed engines starts, what holds them: an organiser should not have
/// to read the source to know.
fn announce_containment(config: &MatchConfig) {
    let sandboxed: Vec<&str> = (config.engines.iter())
        .filter(|e| e.command.sandbox)
        .map(|e| e.command.name.as_str())
        .collect();
    if sandboxed.is_empty() {
        return;
    }
    let user = match nix::unistd::geteuid().is_root() {
        true => "nobody unless user= says otherwise",
        false => "the referee's own user",
    };
    eprintln!(
        "referee: containment: {} in bubblewrap, as {user}: own session, pid, network and mount \
         namespaces, seccomp, private size-limited /tmp; nothing outlives a game or the referee. \
         No cgroup: processes are bounded by procs=, memory by mem= per process.",
        sandboxed.join(", ")
    );
}

/// Hides the run's files (records, progress, secret) from sandboxed engines, and gives a run of a
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
