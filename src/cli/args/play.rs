//! The flags of the commands that play engines: `match`, `tournament`, `play` and
//! `check-engine`.

use std::path::PathBuf;

use clap::ValueEnum;

use crate::play::config::{DEFAULT_LOG_LIMIT, DEFAULT_MARGIN_MS, DEFAULT_STARTUP_MS, DEFAULT_TC};

/// The flags of `check-engine`.
#[derive(Debug, clap::Args)]
pub struct CheckEngineArgs {
    /// The game.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::rules::GAMES))]
    pub game: String,
    /// Only this variant (default: every variant of the game).
    #[arg(long)]
    pub variant: Option<String>,
    /// Only this number of seats (default: every number the game allows).
    #[arg(long)]
    pub seats: Option<usize>,
    /// Milliseconds the engine may take to start and answer the handshake or `newgame`.
    #[arg(long, default_value_t = DEFAULT_STARTUP_MS, value_name = "MS")]
    pub startup: u64,
    /// Keep the games' transcripts in this directory (default: a temporary one, removed).
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// Print one JSON object: `passed`, `failed` and each check's `name`, `passed`, `detail` and
    /// `lines`.
    #[arg(long)]
    pub json: bool,
    /// The engine's command and its arguments, after `--`; or an engine spec as `match
    /// --engine` takes it (`proto=codecup cmd='./prima {time_ms}'`).
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// The flags of `play`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  referee play --game dvonn                           you against the built-in search bot
  referee play --game double --seats 4 --seat 2 --tc 300+5
  referee play --game pegs --engine ./mybot --games 2 --out games.jsonl")]
pub struct HumanArgs {
    /// The game.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::rules::GAMES))]
    pub game: String,
    /// The variant, for games that have them.
    #[arg(long)]
    pub variant: Option<String>,
    /// The number of seats (3 for three-player Double Dutch, 2 to 6 for DOUBLE).
    #[arg(long, default_value_t = 2, value_parser = at_least_1)]
    pub seats: usize,
    /// Your seat in the first game, from 0 (seats rotate from game to game).
    #[arg(long, default_value_t = 0)]
    pub seat: usize,
    /// An engine for the other seats, a shell-like command or `--engine` keys as in `match`;
    /// once for all of them, or once per other seat in seat order.
    #[arg(long = "engine", value_name = "ENGINE")]
    pub engines: Vec<String>,
    /// Time control, as in `match`; `inf` (no clock) allows `undo`.
    #[arg(long, default_value = "inf")]
    pub tc: String,
    /// A fixed time per move in milliseconds, instead of --tc.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// How many games.
    #[arg(long, default_value_t = 1, value_parser = at_least_1)]
    pub games: usize,
    /// The seed of the games (deals, racks) and of the built-in bot.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Append each finished game's record to this file.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The flags of `match`.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// Engines, game, clocks and the rest, shared with `tournament`.
    #[command(flatten)]
    pub play: PlayArgs,
    /// How many games (default 10); with --rounds, the games of each round, as cutechess-cli's
    /// `-rounds R -games G` plays R × G.
    #[arg(long, value_parser = at_least_1)]
    pub games: Option<usize>,
    /// Times the engines meet in every arrangement of seats (two games with --repeat and two
    /// seats); with --games, rounds of that many games each.
    #[arg(long, value_parser = at_least_1)]
    pub rounds: Option<usize>,
    /// Append each finished game's record to this file, one JSON line each; it is the match's
    /// state for --resume. Without it a match keeps no records (a tournament always does).
    #[arg(short = 'o', long, visible_alias = "output", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Resuming, sharding and stopping early, shared with `tournament`.
    #[command(flatten)]
    pub run: RunArgs,
}

/// The flags of `tournament`.
#[derive(Debug, clap::Args)]
pub struct TournamentArgs {
    /// Engines, game, clocks and the rest, shared with `match`.
    #[command(flatten)]
    pub play: PlayArgs,
    /// Who plays whom: every table of engines, the first engine against all the others, Swiss
    /// rounds (engines of equal score meet; no repeat while avoidable; seats balanced; byes), or
    /// a knockout bracket seeded in --engine order (ties of --games games, two seats).
    #[arg(long, value_enum, default_value_t = FormatArg::RoundRobin)]
    pub format: FormatArg,
    /// Times each table (pairing) is played; for a Swiss, how many rounds.
    #[arg(long, default_value_t = 1, value_parser = at_least_1)]
    pub rounds: usize,
    /// Games of each knockout tie (default 2), before any tie-break.
    #[arg(long, value_parser = at_least_1)]
    pub games: Option<usize>,
    /// The records file: each finished game is appended as one JSON line; it is the tournament's
    /// state for --resume. Without it, a new file TOURNAMENT-GAME-N.jsonl (the first N not yet
    /// taken) in the current directory, named on stderr as the run starts.
    #[arg(short = 'o', long, visible_alias = "output", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Resuming, sharding and stopping early, shared with `match`.
    #[command(flatten)]
    pub run: RunArgs,
}

/// What `match` and `tournament` share about a run's state and its end.
#[derive(Debug, Default, clap::Args)]
pub struct RunArgs {
    /// Read --out, drop a torn last line, and play only the games still missing (more games
    /// or rounds than before extend the run). Without --seed, the run's own seed is read from its
    /// records. Without --resume, a non-empty --out is refused.
    #[arg(long)]
    pub resume: bool,
    /// Play only the K-th of N disjoint slices of the schedule (K from 1), e.g. 2/8. Every shard
    /// needs the same --seed (or the same --secret file).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Every shard's records file, {shard} for its number (e.g. results/shard-{shard}.jsonl;
    /// this shard's is its --out). Needed by a sharded Swiss or knockout, whose rounds are drawn
    /// from the results of all the shards, read from their files as they grow: run all the
    /// shards at once, on a file system they share. Other formats do not read them.
    #[arg(long, value_name = "PATTERN")]
    pub peers: Option<String>,
    /// Stop when a sequential test decides between two Elo differences of the first engine
    /// against the other(s), e.g. --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 (alpha and beta are
    /// 0.05 when left out; model=normalized takes the bounds in normalized Elo, as fastchess and
    /// fishtest do). With --repeat it counts game pairs (the pentanomial model), otherwise games.
    #[arg(long, num_args = 1..=5, value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
    /// Serve the run's live page at ADDR while it plays (as `referee serve` does; e.g.
    /// 127.0.0.1:8080): needs --out; the live file is --live, or OUT.live.
    #[arg(long, value_name = "ADDR")]
    pub serve: Option<String>,
    /// Append each game's start, plies and end to FILE as they happen, one JSON line each, for
    /// `referee serve --live FILE` to show the games in progress (emptied as the run starts; mode
    /// 0600 and hidden from sandboxed engines, since it holds every card dealt).
    #[arg(long, value_name = "FILE")]
    pub live: Option<PathBuf>,
    /// Keep FILE up to date with the run's progress, one JSON object replaced whole as games
    /// finish (games done and in all, the state); `referee stats --progress` sums shards' files.
    #[arg(long, value_name = "FILE")]
    pub progress: Option<PathBuf>,
    /// For games with hidden information (DOUBLE) played without --seed: the file of the run's
    /// secret, which deals every game and which no engine may read (made, mode 0600, if missing;
    /// give every shard the same file). Default: OUT.secret beside --out; without --out, a secret
    /// drawn for this run alone.
    #[arg(long, value_name = "FILE")]
    pub secret: Option<PathBuf>,
    /// Print the score so far every N games, as cutechess-cli's -ratinginterval: for two engines
    /// its `Score of` and `Elo difference` lines, for more the standings table.
    #[arg(long, value_name = "N")]
    pub ratinginterval: Option<usize>,
    /// The event's name, as cutechess-cli's -event: the headline of the live page (--serve),
    /// each record's `tags.event`, and the PGN export's Event
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
}

/// Flags common to `match` and `tournament`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// The game.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::rules::GAMES))]
    pub game: String,
    /// The variant, for games that have them.
    #[arg(long)]
    pub variant: Option<String>,
    /// The number of seats (3 for three-player Double Dutch, 2 to 6 for DOUBLE).
    #[arg(long)]
    pub seats: Option<usize>,
    /// An engine: a shell-like command, or `name=NAME cmd='COMMAND'` and any of `dir=DIR`,
    /// `tc=TC`, `movetime=MS`, `st=SECONDS`, `proto=codecup` (a CodeCup program; `{time_ms}` in its command is
    /// its time for the game), limits `mem=256M cpu=SECONDS files=N procs=N fsize=64M`,
    /// `user=NAME|UID[:GID]` (run as that user; the referee must be root), `sandbox=bwrap` (each
    /// engine as a user of its own when the referee is root), `env=VAR,VAR` (variables a sandboxed engine keeps), `ponder=yes` (a contained engine may
    /// think while it owes no answer; it is frozen then otherwise). The
    /// keys may be one argument or several (`--engine name=a cmd=./a tc=5+0.1`, as cutechess).
    /// `--engine human` is you, at the terminal (see `referee play`); `--engine search` and
    /// `--engine random` are the built-in bots, and `--engine level=1` to `level=4` the built-in
    /// ladder (random; search with 300 and 10,000 positions a move; search for its whole clock),
    /// which takes keys of its own (`--engine level=2 name=weak tc=5+0.1`). A match given one
    /// engine plays it against the built-in search bot (and random bots in any
    /// further seat).
    #[arg(long = "engine", value_name = "ENGINE", num_args = 1.., action = clap::ArgAction::Append)]
    pub engines: Vec<String>,
    /// The words of each `--engine`, one list per occurrence (filled by [`super::Cli::parse_args`]).
    #[arg(skip)]
    pub engine_words: Vec<Vec<String>>,
    /// Keys for every engine, as in --engine but without `name` and `cmd`, in one argument or
    /// several (`--each tc=5+0.1 mem=256M`, as cutechess); an engine's own keys win: `--each
    /// 'mem=512M cpu=300 procs=64 sandbox=bwrap'`.
    #[arg(long, value_name = "KEYS", num_args = 1.., action = clap::ArgAction::Append)]
    pub each: Vec<String>,
    /// Where each sandboxed engine process gets its own scratch directory (NAME-N), kept after
    /// the run; without it, its scratch is its private, size-limited /tmp, gone when it ends.
    #[arg(long, value_name = "DIR")]
    pub scratch_dir: Option<PathBuf>,
    /// Play each seed once for every rotation of the seats (twice for two seats, four times for
    /// four), so the luck of a deal cancels out: duplicate play.
    #[arg(long, visible_alias = "duplicate")]
    pub repeat: bool,
    /// Begin every game with the moves of one line of FILE: moves separated by spaces, or a JSON
    /// record whose plies are taken; `#` starts a comment. Options: `plies=N` keeps the first N
    /// plies, `order=random` shuffles the lines (seeded), `start=K` begins at the K-th. Each
    /// opening is played once per seat rotation with --repeat. Not for Wyx and DOUBLE, which
    /// draw what may be played from each game's seed: use --random-plies there.
    #[arg(long, num_args = 1..=4, value_name = "FILE [KEY=VALUE]")]
    pub openings: Vec<String>,
    /// Begin every game with N random legal plies, drawn from the game's seed (the same for the
    /// games that share a seed, so with --repeat both engines play both sides of each).
    #[arg(long, value_name = "N", conflicts_with = "openings")]
    pub random_plies: Option<usize>,
    /// The seed of the schedule and every game's seed: the same seed gives the same games. Drawn
    /// at random if absent; records store it. For DOUBLE, whose hands it deals, leave it out of a
    /// competition: the games are then dealt from a secret (see --secret).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Time control in seconds: BASE+INC (`60+0.5`) or MOVES/BASE[+INC] (`40/60`), or `inf` for
    /// no clock at all.
    #[arg(long, default_value = DEFAULT_TC)]
    pub tc: String,
    /// A fixed time per move in milliseconds, instead of --tc.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// What the clocks charge: `wall`, the time that passes; or `cpu`, the CPU time of all the
    /// engine's processes (read from a cgroup of its own, so Linux with cgroup v2), so that a busy
    /// machine makes nobody lose on time. Under `cpu`, an engine that waits instead of thinking
    /// loses by stall after 10 times its time has passed. Records say `tags.clock` `cpu`.
    #[arg(long, value_enum, default_value_t = ClockArg::Wall)]
    pub clock: ClockArg,
    /// Milliseconds an answer may come late and still count (cutechess's -timemargin), for the
    /// jitter of a busy machine; how late it was is recorded. Later answers lose on time.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub timemargin: u64,
    /// Milliseconds past its time an engine may stay silent before it is killed (it loses on time
    /// if it answers late, by stall if not at all).
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_MARGIN_MS)]
    pub margin: u64,
    /// Milliseconds an engine may take to start and answer the handshake or `newgame`.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_STARTUP_MS, value_parser = clap::value_parser!(u64).range(1..))]
    pub startup: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = at_least_1)]
    pub concurrency: usize,
    /// Pin each game to a CPU of its own: the Nth game played at once, the referee's side and
    /// its engines, runs on the Nth CPU of the list (`0-3,8`; with no list, the CPUs this
    /// process may use), where engine and referee wake each other at least cost. As
    /// fastchess's and cutechess-cli's `-use-affinity`.
    #[arg(long, value_name = "CPUS", num_args = 0..=1, default_missing_value = "all")]
    pub use_affinity: Option<String>,
    /// What a fault does in a game of three or more seats: `forfeit` ends it (the faulty seat
    /// loses), `substitute` has the referee play random legal moves for the faulty seat, which
    /// cannot win. Two-seat games always forfeit.
    #[arg(long, value_enum, default_value_t = OnFaultArg::Forfeit)]
    pub on_fault: OnFaultArg,
    /// Write each game's engine traffic and stderr, timestamped, to DIR/game-NNNNN.log.
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// The most bytes of engine traffic one game's transcript keeps; later lines are counted in
    /// a note at its end instead.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_LOG_LIMIT)]
    pub log_limit: u64,
    /// Print the summary as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

impl PlayArgs {
    /// The flags of a run of `game` at their defaults, as clap gives them for `--game GAME`
    /// alone: for `play`, which fills in its own.
    pub fn new(game: &str) -> PlayArgs {
        PlayArgs {
            game: game.to_owned(),
            variant: None,
            seats: None,
            engines: Vec::new(),
            engine_words: Vec::new(),
            each: Vec::new(),
            scratch_dir: None,
            repeat: false,
            openings: Vec::new(),
            random_plies: None,
            seed: None,
            tc: DEFAULT_TC.to_owned(),
            movetime: None,
            clock: ClockArg::Wall,
            timemargin: 0,
            margin: DEFAULT_MARGIN_MS,
            startup: DEFAULT_STARTUP_MS,
            concurrency: 1,
            use_affinity: None,
            on_fault: OnFaultArg::Forfeit,
            log_dir: None,
            log_limit: DEFAULT_LOG_LIMIT,
            json: false,
        }
    }
}

/// Tournament formats.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    /// Every table of engines.
    RoundRobin,
    /// The first engine against every table of the others.
    Gauntlet,
    /// Rounds of tables of engines with equal scores, each paired from the results so far.
    Swiss,
    /// A bracket: each tie a mini-match, its winner goes on.
    Knockout,
}

/// `--on-fault` choices.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum OnFaultArg {
    /// End the game; the faulty seat loses.
    Forfeit,
    /// Play on with random moves for the faulty seat, which cannot win.
    Substitute,
}

/// Built-in strategies.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum StrategyArg {
    /// A uniformly random legal move.
    Random,
    /// Alpha-beta search within the clock (Monte Carlo tree search for three seats, information-set
    /// Monte Carlo tree search for DOUBLE): about a thirtieth of what is left a move, plus most of
    /// the increment; a DVONN stack move spreads what is left over the moves the stacks still
    /// allow, and a placement gets an eighth, so the stack moves get the clock.
    Search,
    /// A person at the terminal: the referee starts it for `--engine human`, with the protocol on
    /// descriptors 3 and 4 and the terminal on standard input and output.
    Human,
}

/// A count that must be at least 1 (`--games 0` would do nothing, `--concurrency 0` never start).
pub(super) fn at_least_1(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// What a run's clocks charge (`--clock`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ClockArg {
    /// The time that passes.
    Wall,
    /// The CPU time of the engine's processes.
    Cpu,
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::PlayArgs;
    use crate::cli::args::{Cli, Command, Deferred};

    #[test]
    fn a_run_at_its_defaults_is_what_clap_gives_for_the_game_alone() {
        for game in crate::rules::GAMES {
            let cli = Cli::try_parse_from(["referee", "match", "--game", game]).unwrap();
            let Command::Match(Deferred(args)) = cli.command else {
                panic!("not a match: {:?}", cli.command);
            };
            assert_eq!(
                format!("{:?}", args.play),
                format!("{:?}", PlayArgs::new(game))
            );
        }
    }
}
