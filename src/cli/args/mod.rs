//! The command line's types (clap): each subcommand and its flags.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

mod deferred;
mod play;

pub use deferred::Deferred;
use play::at_least_1;
pub use play::*;

/// A scriptable referee for DVONN, Double Dutch, Pegs, Wyx and DOUBLE.
///
/// Plays matches and tournaments between engine processes under its own clocks, speaks a
/// GTP-like protocol (see protocol.md), writes, checks and draws JSON game records.
#[derive(Debug, Parser)]
#[command(
    name = "referee",
    version,
    about,
    after_help = "Examples:
  referee match --game dvonn --games 4 --movetime 100     the built-in bots, four games
  referee match --game pegs --engine ./mine --engine ./theirs --games 100 --out games.jsonl
  referee validate games.jsonl
  referee completions bash > /etc/bash_completion.d/referee"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses the command line (exiting with clap's message and status 2 when it cannot), keeping
    /// the words of each `--engine` together: the derive flattens them.
    pub fn parse_args() -> Cli {
        Cli::parse_args_from(std::env::args_os())
    }

    /// As [`Cli::parse_args`], from `args` (the program's name first).
    pub fn parse_args_from<T: Into<std::ffi::OsString> + Clone>(
        args: impl IntoIterator<Item = T>,
    ) -> Cli {
        use clap::{CommandFactory, FromArgMatches};
        let command = Cli::command();
        let args = args.into_iter().map(Into::into).collect();
        let args = super::spellings::cutechess_spellings(args, &command);
        let matches = command.get_matches_from(args);
        let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
        let play = match &mut cli.command {
            Command::Match(Deferred(args)) => &mut args.play,
            Command::Tournament(Deferred(args)) => &mut args.play,
            _ => return cli,
        };
        let sub = matches.subcommand().map(|(_, sub)| sub);
        if let Some(Some(groups)) = sub.map(|m| m.get_occurrences::<String>("engines")) {
            play.engine_words = groups.map(|words| words.cloned().collect()).collect();
        }
        cli
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read protocol commands on stdin and answer on stdout, for scripts.
    ///
    /// Answers are GTP-framed (`= ANSWER` or `? ERROR`, then a blank line); with --plain, for
    /// shell scripts, only the answers are printed, errors go to stderr as `referee: line N: ...`,
    /// and the exit status is 1 if any command failed.
    ///
    /// Example: printf 'newgame dvonn\nplay D2\nlegal_moves\n' | referee session
    Session(Deferred<SessionArgs>),
    /// Print the legal moves after the given moves, one per line (none when the game is over).
    ///
    /// The moves are played from the start; chance events (Wyx's rack, DOUBLE's deal and draws)
    /// come from --seed. A move that does not parse or is illegal is reported on stderr with its
    /// ply and seat, exit status 1.
    ///
    /// Example: referee moves --game dvonn D2 C1
    Moves(Deferred<MovesArgs>),
    /// Replay game records against the rules; exit 0 only when all are valid.
    ///
    /// Each problem is printed as FILE:LINE: ply N (seat S): what is wrong. Exit status: 0 all
    /// valid, 1 a record is invalid, 2 a file could not be read.
    ///
    /// Example: referee validate games.jsonl shard-*.jsonl
    Validate(Deferred<ValidateArgs>),
    /// Turn real DVONN transcripts into records, one JSON line per game.
    ///
    /// Example: referee import --from codecup games.txt -o games.jsonl
    Import(Deferred<ImportArgs>),
    /// Print the rules of a game as the referee enforces them, every decision with its reason.
    ///
    /// Without a game, the list of games. The same pages are docs/rules/ in the repository.
    ///
    /// Example: referee rules pegs | less
    Rules(Deferred<RulesArgs>),
    /// Print the JSON Schema of game records.
    ///
    /// Example: referee schema > record.schema.json
    Schema,
    /// Print a shell completion script.
    ///
    /// Example: referee completions bash > ~/.local/share/bash-completion/completions/referee
    Completions(Deferred<CompletionsArgs>),
    /// Print a manual page (roff): referee's, or one subcommand's (each page the top one lists).
    ///
    /// Example: referee man > referee.1 && referee man match > referee-match.1 && man ./referee.1
    Man(Deferred<ManArgs>),
    /// Run a built-in engine that speaks the engine protocol on stdin/stdout.
    ///
    /// The ladder `--engine level=N` seats in `match` and `tournament`: level 1 is `--strategy
    /// random`; 2 and 3 are `--strategy search --nodes 300` and `--nodes 10000` (in DOUBLE
    /// `--nodes 30` and `--nodes 300`); 4 is `--strategy search`, for as long as its clock
    /// allows. Each level's Elo against the one below (levels 2, 3 and 4; 60 games at 2+0.02,
    /// DOUBLE 200, with the 95% interval or bound): DVONN at least +516, +325 ± 151, +199 ± 107;
    /// Double Dutch at least +516, +372, +516; Pegs at least +427, +372, then +417 ± 200; Wyx at
    /// least +516, then +512 ± 254, +207 ± 102; DOUBLE +676 ± 367, +196 ± 57, +70 ± 50. DVONN's
    /// level 4 scored 26-13-1 against PrimaDvonna, a CodeCup program, at 10+0
    /// (docs/bot-authors.md, "Sparring partners").
    ///
    /// Example: referee match --game dvonn --engine 'referee bot --game dvonn --strategy search'
    /// --engine 'referee bot --game dvonn'
    Bot(Deferred<BotArgs>),
    /// Walk an engine through every situation the protocol defines for a game and say, check by
    /// check, what it got wrong, with the lines exchanged.
    ///
    /// The checks: the handshake and its deadline; an informational command it does not know
    /// (`event`), which it must answer, with `?` if it likes; `quit`, answered and the process gone
    /// within 300 ms; then games against the built-in random bot, in every seat in turn, with each
    /// clock form of `genmove` (time/inc/clocks, movestogo, movetime, none), from a position
    /// where a seat must pass (DVONN, Double Dutch), in every variant and seat count (or those
    /// given), in one process from game to game, with a key it does not know in every `newgame`
    /// and `genmove`. Each game says what it went through: turns of several plies (DVONN's 48/49,
    /// DOUBLE's), passes answered and told. Exit status 0 when every check passed, 1 when one
    /// failed. A CodeCup program (`proto=codecup cmd=...` after `--`) plays the games only, as
    /// far as its protocol goes.
    ///
    /// Example: referee check-engine --game dvonn -- python3 examples/random_bot.py
    CheckEngine(Deferred<CheckEngineArgs>),
    /// Play a game yourself, at the terminal, against engines: a `match` with you in one seat.
    ///
    /// You see the position as your seat may (in DOUBLE, only your own hand), the other seats'
    /// moves, and the clock when one runs. Type a move in any case; `?` lists the legal moves,
    /// `undo` takes back your last move (only without a clock, the default here), `resign` gives
    /// up, `help` says so. A move that is not a move of the game and one the rules forbid are
    /// told apart, and you are asked again. The other seats are the --engine commands in seat
    /// order (one --engine plays every other seat), or the built-in search bot. `--engine human`
    /// in `match` and `tournament` seats you the same way.
    Play(Deferred<HumanArgs>),
    /// Play games between engine processes, one per seat, and report the standings.
    ///
    /// Without --engine, the built-in `search` bot plays built-in `random` bots. Seats rotate
    /// from game to game. Each finished game is appended to --out as one JSON line. A match is a
    /// tournament of one table: --resume, --shard and --sprt work the same.
    #[command(after_help = "Examples:
  referee match --game dvonn
  referee match --game dvonn --engine ./mybot --engine 'name=py cmd=\"python3 bot.py\" tc=5+0.05' --games 100 --concurrency 2 --out games.jsonl
  referee match --game dvonn --engine ./new --engine ./old --repeat --games 2000 --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --out sprt.jsonl")]
    Match(Deferred<MatchArgs>),
    /// Play a tournament of two or more engines; resumable, shardable.
    ///
    /// Every pairing (or table of seats) is scheduled deterministically from --seed. The records
    /// file (--out) is the state: --resume plays only the missing games; --shard K/N plays one of
    /// N disjoint slices, to spread over machines; `referee stats` merges the files.
    #[command(after_help = "Examples:
  referee tournament --game dvonn --engine ./a --engine ./b --engine ./c --rounds 10 --repeat
  referee tournament --game dvonn --engine ./a --engine ./b --engine ./c --shard 2/8 --out shard-2.jsonl
  referee stats shard-*.jsonl")]
    Tournament(Deferred<TournamentArgs>),
    /// Draw a position of a record as SVG: after ply N (default: the end).
    ///
    /// Example: referee render games.jsonl --index 3 --ply 49 -o board.svg
    Render(Deferred<RenderArgs>),
    /// Serve a page that follows a run as it is played: standings, ratings and curves from its
    /// records, its games in progress drawn live from its live files (`--live` of match and
    /// tournament), and every finished game in the replay viewer. Loopback only unless --bind
    /// says otherwise; read-only; a game in progress never shows a hidden card.
    #[command(after_help = "Example:
  referee tournament --game dvonn --engine ./a --engine ./b --engine ./c --out t.jsonl --live t.live &
  referee serve t.jsonl --live t.live      # then open http://127.0.0.1:8080/")]
    Serve(Deferred<ServeArgs>),
    /// Write one self-contained HTML page that replays the games of record files.
    ///
    /// Buttons and the arrow keys step through a game; `#game=2&ply=10` in the address opens a
    /// position. The page needs no network and no other file.
    ///
    /// Example: referee view games.jsonl -o games.html
    View(Deferred<ViewArgs>),
    /// Write one self-contained HTML report of a run: standings, crosstable, Elo as games
    /// accumulate, the SPRT's LLR, and every game in the replay viewer.
    ///
    /// The Elo plot shows each engine's Elo against the field (mean points per game in games of
    /// three or more seats) with its 95% interval after each stretch of games, in the order of the
    /// files. A run with --sprt names its test in its records, and the report plots the LLR of
    /// the first record's seat 0 engine (the challenger) with the test's bounds; --sprt plots
    /// another.
    ///
    /// Example: referee report sprt.jsonl --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -o report.html
    Report(Deferred<ReportArgs>),
    /// Write a file of openings for --openings: distinct random openings, one per line.
    ///
    /// Openings after which the game is over, or a seat leads by more than --max-lead points,
    /// are left out. The same seed gives the same file.
    #[command(after_help = "Example:
  referee openings --game dvonn --plies 10 --count 200 -o dvonn-10.txt
  referee match --game dvonn --engine ./new --engine ./old --repeat --games 400 --openings dvonn-10.txt")]
    Openings(Deferred<OpeningsArgs>),
    /// Write the results of record files for other tools: PGN for Ordo and BayesElo.
    ///
    /// Each finished two-seat game becomes a PGN game with no moves: seat 0 is White, seat 1
    /// Black, the result, and the game, variant, seed and the record's file and line as tags.
    /// Games of more seats, and unfinished ones, are left out (and counted on stderr).
    ///
    /// Example: referee export --format pgn games.jsonl -o games.pgn && ordo -p games.pgn
    Export(Deferred<ExportArgs>),
    /// One rating list for every engine of any set of record files: Elo with 95% intervals.
    ///
    /// A maximum-likelihood fit to every game at once (the Elo model for two seats; for more, a
    /// Luce choice of the winner among the seats at the table), so engines that never met are
    /// compared through the others: old tournaments plus a new gauntlet make one ladder. An
    /// engine that won (lost) every game against the rated ones gets a 95% bound (>=, <=);
    /// engines not linked to the rest, or with too few games, are named, not rated. Records of
    /// one game (and variant) only.
    #[command(after_help = "Examples:
  referee ratings league-*.jsonl
  referee ratings old.jsonl gauntlet.jsonl --anchor v1=0 --min-games 20 --json")]
    Ratings(Deferred<RatingsArgs>),
    /// Standings, crosstable and pairing statistics of any set of record files, merged.
    ///
    /// Example: referee stats shard-*.jsonl --progress shard-*.progress.json
    Stats(Deferred<StatsArgs>),
}

/// Transcript styles `import` reads.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ImportFormat {
    /// CodeCup 2011: `game N: D2 C1 ... PASS`, one game per line.
    Codecup,
    /// Little Golem: lower case, numbered (`25. a2b2 b3b2`), 49th placement omitted, `resign`.
    Littlegolem,
}

/// The flags of `moves`.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    /// The game's id.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::rules::GAMES))]
    pub game: String,
    /// The variant (pegs: standard or turbo; wyx: double).
    #[arg(long)]
    pub variant: Option<String>,
    /// The number of seats, where the game allows several.
    #[arg(long)]
    pub seats: Option<u32>,
    /// The seed of the game's chance events.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The public setup token, as records store it (Wyx's rack).
    #[arg(long)]
    pub setup: Option<String>,
    /// The moves, each one argument (quote DOUBLE's: 'left c31:RYB').
    pub moves: Vec<String>,
}

/// The flags of `render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// A record file (`.json`, or `.jsonl` with --index to pick one).
    pub file: PathBuf,
    /// Which record of the file, from 1.
    #[arg(long, default_value_t = 1, value_parser = at_least_1)]
    pub index: usize,
    /// Draw the position after this many plies (default: all).
    #[arg(long)]
    pub ply: Option<usize>,
    /// Draw only what this seat may see (DOUBLE hides the other hands); default: everything.
    #[arg(long)]
    pub seat: Option<usize>,
    /// Write the SVG here instead of stdout.
    #[arg(
        short = 'o',
        long = "out",
        visible_alias = "output",
        value_name = "FILE"
    )]
    pub output: Option<PathBuf>,
}

/// The flags of `openings`.
#[derive(Debug, clap::Args)]
pub struct OpeningsArgs {
    /// The game.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::rules::GAMES))]
    pub game: String,
    /// The variant, for games that have them.
    #[arg(long)]
    pub variant: Option<String>,
    /// The number of seats.
    #[arg(long)]
    pub seats: Option<usize>,
    /// Plies per opening.
    #[arg(long, value_parser = at_least_1)]
    pub plies: usize,
    /// How many openings.
    #[arg(long, value_parser = at_least_1)]
    pub count: usize,
    /// The most points one seat may lead another by after the opening.
    #[arg(long, default_value_t = 2)]
    pub max_lead: i64,
    /// The seed of the random plies.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the openings here instead of stdout.
    #[arg(
        short = 'o',
        long = "out",
        visible_alias = "output",
        value_name = "FILE"
    )]
    pub output: Option<PathBuf>,
}

/// Whether `ratings` fits the seats' advantages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SeatAdvantageArg {
    /// Fit each seat's advantage over the first.
    Fit,
    /// Every seat is the same.
    None,
}

/// The flags of `ratings`.
#[derive(Debug, clap::Args)]
pub struct RatingsArgs {
    /// Record files (`.jsonl`; each game is counted once), or PGN files (`.pgn`: White, Black and
    /// Result of each game, as a chess list is kept; streamed, unfinished games left out).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Fix this engine's rating (default: the rated engines average 0), e.g. --anchor v1=1500.
    #[arg(long, value_name = "NAME=ELO", value_parser = anchor)]
    pub anchor: Option<(String, f64)>,
    /// Engines with fewer finished games are named, not rated, and their games left out.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_games: u32,
    /// Print a JSON list (name, rating, error, games, points, bound, unrated) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also print the likelihood of superiority of each rated engine over each other: the
    /// probability that it is the stronger, from the ratings and their covariance (in JSON, each
    /// rated engine's `los`, by opponent).
    #[arg(long)]
    pub los: bool,
    /// Also print each pair's results: wins, losses and draws of the first, its score, Elo and
    /// LOS, and the game pairs by points (pentanomial); in JSON, each engine's `head_to_head`,
    /// by opponent, with `pairs` counted.
    #[arg(long)]
    pub head_to_head: bool,
    /// Fit only who won each game. By default a game whose rules place every seat (DOUBLE: by
    /// points, the fewest first) counts its whole finishing order: the winners chosen from all
    /// the seats, the next place from those left, and so on (Plackett-Luce).
    #[arg(long)]
    pub winner_only: bool,
    /// `fit`: fit each seat's advantage over the first seat along with the ratings (the first
    /// mover's edge in DVONN or Pegs, the seats of DOUBLE) and print it with its interval; the
    /// ratings are then of the engines with the seats' advantages taken out. `none`: every seat
    /// is the same, as Ordo has it without -W.
    #[arg(long, value_enum, default_value_t = SeatAdvantageArg::None)]
    pub seat_advantage: SeatAdvantageArg,
    /// About how many megabytes the games of three or more seats may take in memory; beyond it
    /// they are kept in a temporary file (in the system's temporary folder, TMPDIR on Unix; it
    /// has no name and is gone when the command ends) and read from it for each step of the
    /// fit, so that a list of millions of games at tables drawn at random fits a small machine.
    /// The list is the same either way.
    #[arg(long, value_name = "MB", default_value_t = 256,
          value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub memory: u64,
}

/// `NAME=ELO`: split at the last `=`, so that a name may hold one.
fn anchor(text: &str) -> Result<(String, f64), String> {
    let (name, elo) = text
        .rsplit_once('=')
        .ok_or_else(|| format!("`{text}` is not NAME=ELO"))?;
    let elo: f64 = elo
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite())
        .ok_or_else(|| format!("`{elo}` is not a rating (a number, like 1500)"))?;
    match name.is_empty() {
        true => Err(format!("`{text}` names no engine")),
        false => Ok((name.to_owned(), elo)),
    }
}

/// The flags of `export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The format to write.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// Record files (`.jsonl`); each game is written once.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write here instead of stdout.
    #[arg(
        short = 'o',
        long = "out",
        visible_alias = "output",
        value_name = "FILE"
    )]
    pub output: Option<PathBuf>,
}

/// What `export` writes.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ExportFormat {
    /// PGN tag pairs and the result, as the chess rating tools read them.
    Pgn,
}

/// The flags of `session`.
#[derive(Debug, clap::Args)]
pub struct SessionArgs {
    /// Answers without framing, errors on stderr, exit status 1 after any error.
    #[arg(long)]
    pub plain: bool,
}

/// The flags of `validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// Record files: `.jsonl` holds one record per line, `.json` one record (or several in a
    /// row); `-` reads JSON lines from stdin.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print a machine-readable JSON report instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The flags of `import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The transcript's style.
    #[arg(long, value_enum)]
    pub from: ImportFormat,
    /// The transcript file (`-` for stdin).
    pub file: PathBuf,
    /// Write the records here instead of stdout.
    #[arg(
        short = 'o',
        long = "out",
        visible_alias = "output",
        value_name = "FILE"
    )]
    pub output: Option<PathBuf>,
}

/// The flags of `rules`.
#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// The game's id.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(crate::rules::GAMES))]
    pub game: Option<String>,
}

/// The flags of `completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The flags of `man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// The subcommand whose page to print (`match` for referee-match(1)).
    pub subcommand: Option<String>,
}

/// The flags of `bot`.
#[derive(Debug, clap::Args)]
pub struct BotArgs {
    /// The game it plays.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::rules::GAMES))]
    pub game: String,
    /// How it chooses its moves.
    #[arg(long, value_enum, default_value_t = StrategyArg::Random)]
    pub strategy: StrategyArg,
    /// The seed of its random choices; the same seed and game give the same moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The search looks at most at N positions (alpha-beta) or playouts (Monte Carlo) a move,
    /// within its clock: the same moves on any machine while the clock allows (a `nodes=`
    /// key in `newgame` overrides it). Default: as many as its clock allows.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
}

/// The flags of `serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The run's records files (they need not exist yet).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// A live file of the run (`--live FILE` of match or tournament); repeat for shards.
    #[arg(long, value_name = "FILE")]
    pub live: Vec<PathBuf>,
    /// A progress file of the run (`--progress FILE`); repeat for shards: how far it is.
    #[arg(long, value_name = "FILE")]
    pub progress: Vec<PathBuf>,
    /// Show the games in progress whole, every hidden card included: only for a run no
    /// engine is playing (a replay of live files, a demonstration).
    #[arg(long)]
    pub reveal: bool,
    /// The address and port to listen on (port 0: any free port, named on stderr).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    pub bind: String,
    /// The SPRT the report draws (default: the one the records name).
    #[arg(long, num_args = 1..=5, value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
    /// A name the page may be asked for by (`scoreboard.lan`), besides its address and
    /// `localhost`: requests that name the server otherwise are refused (403), so that no website
    /// can make its own name point here and read the page (DNS rebinding). Repeat for more.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
}

/// The flags of `view`.
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    /// Record files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The HTML file to write.
    #[arg(
        short = 'o',
        long = "out",
        visible_alias = "output",
        value_name = "FILE",
        default_value = "games.html"
    )]
    pub output: PathBuf,
}

/// The flags of `report`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// Record files (`-` for standard input, read as `.jsonl`); read once.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The HTML file to write.
    #[arg(
        short = 'o',
        long = "out",
        visible_alias = "output",
        value_name = "FILE",
        default_value = "report.html"
    )]
    pub output: PathBuf,
    /// An SPRT to plot, e.g. --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05; by default the one
    /// the run stopped on, which its records name.
    #[arg(long, num_args = 1..=5, value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
}

/// The flags of `stats`.
#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// Record files (`.jsonl`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Progress files of the run's shards (written by --progress of match and tournament):
    /// show how far the whole run is, shard by shard. Give them after the record files.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub progress: Vec<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}
