//! cutechess-cli's and fastchess's spellings, read as the referee's or refused with what to type.

use super::args::{MatchArgs, TournamentArgs};

/// cutechess-cli's and fastchess's options that the referee spells otherwise or has no use for,
/// with what to type instead.
const CUTECHESS_ONLY: [(&str, &str); 7] = [
    (
        "pgnout",
        "--out FILE keeps every game as a JSON record (referee view/report read it), and \
         `referee export --format pgn FILE` writes its results as PGN for Ordo and BayesElo",
    ),
    (
        "wait",
        "engines are started when a game needs them; no wait is needed",
    ),
    (
        "recover",
        "a crashed engine is restarted for the next game already",
    ),
    (
        "reverse",
        "--repeat plays every seat rotation of each pairing",
    ),
    (
        "noswap",
        "seats rotate from game to game; --repeat pairs each deal with every rotation",
    ),
    (
        "resign",
        "engines resign by answering `resign`; the referee adjudicates nothing else",
    ),
    (
        "draw",
        "the rules decide draws; the referee adjudicates nothing else",
    ),
];

/// The command line with the spellings of cutechess-cli and fastchess a user types out of habit
/// read as the referee's: in `match` and `tournament`, a long option with one dash (`-engine`,
/// `-each`, `-rounds`) is that option, and `-srand N` is `--seed N`. An option those tools have
/// and the referee does not is refused with what to type instead (exit status 2).
pub fn cutechess_spellings(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    use clap::Args;
    let augment: fn(clap::Command) -> clap::Command = match args.get(1).and_then(|a| a.to_str()) {
        Some("match") => MatchArgs::augment_args,
        Some("tournament") => TournamentArgs::augment_args,
        _ => return args,
    };
    // This subcommand's long options, built only when a word has one dash: building flags costs
    // every start.
    let mut longs: Option<Vec<String>> = None;
    let mut out = Vec::with_capacity(args.len());
    for arg in args {
        let name = arg
            .to_str()
            .and_then(|a| a.strip_prefix('-'))
            .filter(|a| a.len() > 1 && !a.starts_with('-'))
            .filter(|a| a.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'));
        let Some(name) = name else {
            out.push(arg);
            continue;
        };
        let longs = longs.get_or_insert_with(|| {
            let flags = augment(clap::Command::new(""));
            let longs = flags.get_arguments().filter_map(|a| a.get_long());
            longs.map(String::from).collect()
        });
        if longs.iter().any(|long| long == name) {
            out.push(format!("--{name}").into());
        } else if name == "srand" {
            out.push("--seed".into());
        } else if let Some((_, instead)) = CUTECHESS_ONLY.iter().find(|(n, _)| *n == name) {
            eprintln!("referee: -{name} is cutechess-cli's; here {instead}");
            std::process::exit(2);
        } else {
            out.push(arg);
        }
    }
    out
}
