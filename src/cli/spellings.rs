//! cutechess-cli's and fastchess's spellings, read as the referee's or refused with what to type.

/// cutechess-cli's and fastchess's options that the referee spells otherwise or has no use for,
/// whose they are, and what to type instead.
const CUTECHESS_ONLY: [(&[&str], &str, &str); 25] = [
    (
        &["tournament"],
        "cutechess-cli's and fastchess's",
        "`referee tournament --format round-robin` (or gauntlet, swiss, knockout); `referee \
         match` plays one table",
    ),
    (
        &["site"],
        "cutechess-cli's and fastchess's",
        "records name their run in tags.tournament; the PGN export writes Site \"?\"",
    ),
    (
        &["maxmoves"],
        "cutechess-cli's and fastchess's",
        "games end by their own rules (every game here has an end); the referee adjudicates \
         nothing else",
    ),
    (
        &["debug", "log"],
        "cutechess-cli's and fastchess's",
        "--log-dir DIR keeps every line to and from each engine, a file per game",
    ),
    (
        &["outcomeinterval"],
        "cutechess-cli's",
        "-ratinginterval N prints the score every N games",
    ),
    (
        &["epdout"],
        "cutechess-cli's and fastchess's",
        "--out FILE keeps every game as a JSON record; `referee render FILE --ply N` draws a \
         position",
    ),
    (
        &["livepgnout"],
        "cutechess-cli's",
        "--live FILE writes every ply as it is played, and --serve ADDR shows the games live",
    ),
    (
        &["tb", "tbpieces", "tbignore50"],
        "cutechess-cli's",
        "the games are not chess: no tablebases",
    ),
    (
        &["seeds"],
        "cutechess-cli's",
        "a knockout (--format knockout) seeds its engines in --engine order",
    ),
    (
        &["pgnout"],
        "cutechess-cli's and fastchess's",
        "--out FILE keeps every game as a JSON record (referee view/report read it), and \
         `referee export --format pgn FILE` writes its results as PGN for Ordo and BayesElo",
    ),
    (
        &["wait"],
        "cutechess-cli's",
        "engines are started when a game needs them; no wait is needed",
    ),
    (
        &["recover"],
        "cutechess-cli's and fastchess's",
        "a crashed engine is restarted for the next game already",
    ),
    (
        &["reverse"],
        "cutechess-cli's and fastchess's",
        "--repeat plays every seat rotation of each pairing",
    ),
    (
        &["noswap"],
        "cutechess-cli's and fastchess's",
        "seats rotate from game to game; --repeat pairs each deal with every rotation",
    ),
    (
        &["resign"],
        "cutechess-cli's and fastchess's",
        "engines resign by answering `resign`; the referee adjudicates nothing else",
    ),
    (
        &["draw"],
        "cutechess-cli's and fastchess's",
        "the rules decide draws; the referee adjudicates nothing else",
    ),
    (
        &["randomseed"],
        "fastchess's",
        "without --seed the seed is drawn at random already, and kept in the records",
    ),
    (
        &["report"],
        "fastchess's",
        "games played in pairs (--repeat) are counted as pairs (pentanomial) already",
    ),
    (
        &["config"],
        "fastchess's",
        "the command line is the whole run; --resume goes on from the records file (--out)",
    ),
    (
        &["autosaveinterval"],
        "fastchess's",
        "every game is written to the records file (--out) as it ends; --resume goes on from it",
    ),
    (
        &["crc32"],
        "fastchess's",
        "records are JSON lines: `sha256sum` the file, `referee validate` replays it",
    ),
    (
        &["force-concurrency"],
        "fastchess's",
        "--concurrency N is taken as given",
    ),
    (
        &["quick"],
        "fastchess's",
        "`referee match --game G --engine A --engine B --tc 10+0.1 --games N`",
    ),
    (
        &["show-latency"],
        "fastchess's",
        "each ply's time_ms, and overrun_ms or referee_delay_ms where there was one, are in the \
         records",
    ),
    (
        &["scoreinterval"],
        "fastchess's",
        "-ratinginterval N prints the score every N games",
    ),
];

/// The command line with the spellings of cutechess-cli and fastchess a user types out of habit
/// read as the referee's: a long option or alias with one dash (`-engine`, `-each`, `-rounds`,
/// `-output`) is that option, in every subcommand of `cli`; in `match` and `tournament`, `-srand N`
/// is `--seed N`, and an option those tools have and the referee does not is refused with what to
/// type instead (exit status 2). Any other word of lower-case letters (and digits) after one dash
/// is refused too, never read as `-o` and a value (`-output` once wrote the records to a file
/// `utput`).
pub fn cutechess_spellings(
    args: Vec<std::ffi::OsString>,
    cli: &clap::Command,
) -> Vec<std::ffi::OsString> {
    let Some(sub) = (args.get(1).and_then(|a| a.to_str())).and_then(|s| cli.find_subcommand(s))
    else {
        return args;
    };
    let runs = matches!(sub.get_name(), "match" | "tournament");
    // The subcommand's flags, built only when a word has one dash: building them costs a start
    // (see `args::Deferred`).
    let mut longs: Option<Vec<String>> = None;
    let mut out = Vec::with_capacity(args.len());
    let mut args = args.into_iter().peekable();
    while let Some(arg) = args.next() {
        let name = arg
            .to_str()
            .and_then(|a| a.strip_prefix('-'))
            .filter(|a| a.len() > 1 && !a.starts_with('-'))
            .filter(|a| a.starts_with(|c: char| c.is_ascii_lowercase()))
            .filter(|a| {
                (a.bytes()).all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            });
        let Some(name) = name else {
            out.push(arg);
            continue;
        };
        let longs = longs.get_or_insert_with(|| {
            let mut built = sub.clone();
            built.build();
            (built.get_arguments())
                .filter_map(clap::Arg::get_long_and_visible_aliases)
                .flatten()
                .map(str::to_owned)
                .collect()
        });
        let known = longs.iter().any(|long| long == name);
        // fastchess's `-output format=cutechess`: its lines are cutechess's here already.
        let format = args
            .peek()
            .and_then(|a| a.to_str())
            .filter(|a| a.starts_with("format="));
        if let (true, "output", Some(format)) = (runs, name, format) {
            eprintln!(
                "referee: -output {format} is fastchess's; here the lines on stdout are \
                 cutechess-cli's already, and -output FILE is --out FILE"
            );
            std::process::exit(2);
        }
        if known {
            out.push(format!("--{name}").into());
        } else if runs && name == "srand" {
            out.push("--seed".into());
        } else if let Some((_, whose, instead)) =
            (CUTECHESS_ONLY.iter()).find(|(names, _, _)| runs && names.contains(&name))
        {
            eprintln!("referee: -{name} is {whose}; here {instead}");
            std::process::exit(2);
        } else {
            eprintln!(
                "referee: unknown option -{name}: `referee {} --help` lists the options (two \
                 dashes: --out); for -o and a value, put a space between them",
                sub.get_name()
            );
            std::process::exit(2);
        }
    }
    out
}
