//! Engine specs: an `--engine` value read into a command, a name, the protocol it speaks, an
//! optional time control, and the limits and sandbox it runs under; `--each` keys for all of
//! them; and the built-in bots as engines.

use std::path::PathBuf;
use std::time::Duration;

use crate::engine::EngineCommand;
use crate::play::clock::TimeControl;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Proto {
    /// The referee's own line protocol (protocol.md): one process for many games.
    #[default]
    Native,
    /// The CodeCup protocol: `Start` or the opponent's move in, the engine's move out; one
    /// process per game.
    CodeCup,
}

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// How to start it.
    pub command: EngineCommand,
    /// Its own time control, if not the match's.
    pub tc: Option<TimeControl>,
    /// The protocol it speaks.
    pub proto: Proto,
    /// Keys the referee does not use itself but tells the engine in `newgame`, as cutechess-cli
    /// users give them: `nodes=`, `depth=`, `option.NAME=`.
    pub newgame_keys: Vec<(String, String)>,
}

/// An `--engine` (or `--each`) value that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad {flag} `{text}`: {reason}")]
pub struct EngineSpecError {
    flag: &'static str,
    text: String,
    reason: SpecReason,
}

/// What is wrong with an `--engine` or `--each` value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecReason {
    /// Its words are not shell words.
    #[error("unbalanced quotes")]
    Quotes,
    /// An `--each` word is not `KEY=VALUE`.
    #[error("expected KEY=VALUE words")]
    NotPairs,
    /// `--each` names what belongs to one engine.
    #[error("`{0}` belongs to one engine")]
    OneEngine(String),
    /// There is no command to run.
    #[error("no command")]
    NoCommand,
    /// A key no engine value has.
    #[error("unknown key `{0}` (known: {KEYS})")]
    UnknownKey(String),
    /// `tc=` is not a time control.
    #[error(transparent)]
    TimeControl(#[from] crate::play::clock::TimeControlError),
    /// `movetime=` is not whole milliseconds.
    #[error("movetime is whole milliseconds")]
    MoveTime,
    /// `st=` is not seconds above 0.
    #[error("st is seconds a move, above 0")]
    MoveSeconds,
    /// A key of a few words has another.
    #[error("{key} is {words}, not `{value}`")]
    NotOneOf {
        /// The key.
        key: &'static str,
        /// The words it takes.
        words: &'static str,
        /// The value given.
        value: String,
    },
    /// `nodes=` or `depth=` is not a whole number.
    #[error("{0} is a whole number")]
    NotWhole(String),
    /// `option.NAME=VALUE` with a name or value that is not one word.
    #[error("`{key}={value}`: an option's name and value are words")]
    OptionWords {
        /// The key.
        key: String,
        /// The value.
        value: String,
    },
    /// `env=` with something other than variable names.
    #[error("env takes variable names separated by commas, not `{0}`")]
    Env(String),
    /// A limit's value that cannot be read.
    #[error(transparent)]
    Limit(#[from] crate::engine::limits::LimitError),
    /// `user=` names no user.
    #[error("no user `{0}`")]
    NoUser(String),
    /// `user=` names root.
    #[error("user= is for running an engine as someone other than root")]
    Root,
    /// `user=UID:GID` with a group that is not a number.
    #[error("group `{0}` is not a number")]
    Group(String),
    /// A built-in level's keys cannot be quoted into one value.
    #[error("its keys cannot be quoted")]
    LevelKeys,
    /// A level the ladder does not have.
    #[error("the built-in levels are 1 to {0}")]
    Level(usize),
}

/// The keys an `--engine` value may hold.
const KEYS: &str = "name, cmd, dir, proto, tc, movetime, st, mem, cpu, files, procs, fsize, user, sandbox, ponder, env, \
     nodes, depth, option.NAME";

impl EngineSpec {
    /// Reads `CMD`, or `key=value` words with shell quoting: `name=alpha cmd='./bot -x' dir=bots
    /// tc=10+0.1 movetime=500 proto=codecup mem=256M cpu=60 sandbox=bwrap`. Without a name, the
    /// file name of the command's first word that looks like a path (`python3 bots/alpha.py` is
    /// `alpha.py`), else of its first word.
    pub fn parse(text: &str) -> Result<EngineSpec, EngineSpecError> {
        EngineSpec::parse_with(text, "")
    }

    /// As [`EngineSpec::parse`], with the keys of `each` (an `--each` value: any key but `name`
    /// and `cmd`) applied first, so the engine's own keys win.
    pub fn parse_with(text: &str, each: &str) -> Result<EngineSpec, EngineSpecError> {
        let mut spec = EngineSpec {
            command: EngineCommand {
                name: String::new(),
                command: text.trim().to_owned(),
                ..EngineCommand::default()
            },
            tc: None,
            proto: Proto::default(),
            newgame_keys: Vec::new(),
        };
        let each_error = |reason: SpecReason| EngineSpecError {
            flag: "--each",
            text: each.to_owned(),
            reason,
        };
        let each_pairs = crate::sys::words::split(each)
            .and_then(|words| pairs(&words))
            .ok_or_else(|| each_error(SpecReason::NotPairs))?;
        for (key, value) in each_pairs {
            if matches!(key.as_str(), "name" | "cmd") {
                return Err(each_error(SpecReason::OneEngine(key)));
            }
            spec.set(&key, &value).map_err(each_error)?;
        }
        let error = |reason: SpecReason| EngineSpecError {
            flag: "engine",
            text: text.to_owned(),
            reason,
        };
        let words = crate::sys::words::split(text).ok_or_else(|| error(SpecReason::Quotes))?;
        let own = pairs(&words).filter(|p| p.iter().any(|(k, _)| k == "cmd"));
        for (key, value) in own.unwrap_or_default() {
            spec.set(&key, &value).map_err(error)?;
        }
        if spec.command.command.is_empty() || words.is_empty() {
            return Err(error(SpecReason::NoCommand));
        }
        if spec.command.name.is_empty() {
            let words = crate::sys::words::split(&spec.command.command).unwrap_or_default();
            let word = words
                .iter()
                .find(|w| w.contains(['/', '.']))
                .or(words.first())
                .map_or("", String::as_str);
            spec.command.name = (word.rsplit(std::path::is_separator).next())
                .unwrap_or(word)
                .to_owned();
        }
        Ok(spec)
    }

    /// Sets one key; the error says why the value does not fit.
    fn set(&mut self, key: &str, value: &str) -> Result<(), SpecReason> {
        let command = &mut self.command;
        match key {
            "cmd" => command.command = value.to_owned(),
            "name" => command.name = value.to_owned(),
            "dir" => command.dir = Some(PathBuf::from(value)),
            "tc" => {
                self.tc = Some(value.parse()?);
            }
            "movetime" => {
                let ms: u64 = value.parse().map_err(|_| SpecReason::MoveTime)?;
                self.tc = Some(TimeControl::MoveTime(Duration::from_millis(ms)));
            }
            // cutechess-cli's seconds a move.
            "st" => {
                let secs: f64 = value
                    .parse()
                    .ok()
                    .filter(|s: &f64| *s > 0.0 && *s < 1e9)
                    .ok_or(SpecReason::MoveSeconds)?;
                self.tc = Some(TimeControl::MoveTime(Duration::from_secs_f64(secs)));
            }
            "proto" => {
                self.proto = match value {
                    "native" => Proto::Native,
                    "codecup" => Proto::CodeCup,
                    _ => return Err(not_one_of("proto", "native or codecup", value)),
                }
            }
            "sandbox" => {
                command.sandbox = match value {
                    "bwrap" => true,
                    "none" => false,
                    _ => return Err(not_one_of("sandbox", "bwrap or none", value)),
                }
            }
            "user" => command.user = Some(run_as(value)?),
            "ponder" => {
                command.ponder = match value {
                    "yes" => true,
                    "no" => false,
                    _ => return Err(not_one_of("ponder", "yes or no", value)),
                }
            }
            "nodes" | "depth" => {
                value
                    .parse::<u64>()
                    .map_err(|_| SpecReason::NotWhole(key.to_owned()))?;
                self.newgame_keys.push((key.to_owned(), value.to_owned()));
            }
            _ if key.starts_with("option.") => {
                let name = &key["option.".len()..];
                let word = |t: &str| !t.is_empty() && !t.contains(|c: char| c.is_whitespace());
                if !word(name) || !word(value) {
                    return Err(SpecReason::OptionWords {
                        key: key.to_owned(),
                        value: value.to_owned(),
                    });
                }
                self.newgame_keys.push((key.to_owned(), value.to_owned()));
            }
            "env" => {
                for name in value.split(',') {
                    let valid = !name.is_empty()
                        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                        && !name.as_bytes()[0].is_ascii_digit();
                    if !valid {
                        return Err(SpecReason::Env(value.to_owned()));
                    }
                    command.pass_env.push(name.to_owned());
                }
            }
            _ => {
                if !command.limits.set(key, value)? {
                    return Err(SpecReason::UnknownKey(key.to_owned()));
                }
            }
        }
        Ok(())
    }
}

/// A key's value that is not one of its few `words`.
fn not_one_of(key: &'static str, words: &'static str, value: &str) -> SpecReason {
    SpecReason::NotOneOf {
        key,
        words,
        value: value.to_owned(),
    }
}

/// The words as `key=value` pairs, or `None` if a word is not one.
fn pairs(words: &[String]) -> Option<Vec<(String, String)>> {
    words
        .iter()
        .map(|w| {
            let (k, v) = w.split_once('=')?;
            Some((k.to_owned(), v.to_owned()))
        })
        .collect()
}

/// `user=NAME`, `user=UID` or `user=UID:GID`: the user (and group) an engine runs as; a user's
/// group is its own from the password database, else the number of the user.
fn run_as(value: &str) -> Result<(u32, u32), SpecReason> {
    let (user, group) = match value.split_once(':') {
        Some((u, g)) => (u, Some(g)),
        None => (value, None),
    };
    let uid = match user.parse::<u32>() {
        Ok(uid) => uid,
        Err(_) => match crate::sys::uid_of(user) {
            Some(uid) => uid,
            None => return Err(SpecReason::NoUser(user.to_owned())),
        },
    };
    if uid == 0 {
        return Err(SpecReason::Root);
    }
    let gid = match group {
        Some(g) => g
            .parse::<u32>()
            .map_err(|_| SpecReason::Group(g.to_owned()))?,
        None => crate::sys::group_of(uid).unwrap_or(uid),
    };
    Ok((uid, gid))
}

/// The command line of the built-in bot `strategy` (`search`, `random`, `human`) for `game`, as
/// a process of the program `exe` (quoted for a shell).
pub fn builtin_command(exe: &str, game: &str, strategy: &str, seed: u64) -> String {
    format!("{exe} bot --game {game} --strategy {strategy} --seed {seed}")
}

/// The built-in bots as engines, run as processes of the program `exe` (quoted for a shell):
/// `search` in the first seat, `random` in every other; each its own seed drawn from `seed`, and
/// the keys of `each` (an `--each` value).
pub fn builtin_engines(
    exe: &str,
    game: &str,
    seats: usize,
    seed: u64,
    each: &str,
) -> Result<Vec<EngineSpec>, EngineSpecError> {
    (0..seats.max(1))
        .map(|i| {
            let strategy = if i == 0 { "search" } else { "random" };
            builtin_engine(exe, game, strategy, seed.wrapping_add(i as u64), each)
        })
        .collect()
}

/// The built-in bot `strategy` (`search`, `random`) as an engine named after it, run as a process
/// of the program `exe` (quoted for a shell) with `seed` and the keys of `each`.
pub fn builtin_engine(
    exe: &str,
    game: &str,
    strategy: &str,
    seed: u64,
    each: &str,
) -> Result<EngineSpec, EngineSpecError> {
    let mut spec = EngineSpec::parse_with(&builtin_command(exe, game, strategy, seed), each)?;
    spec.command.name = strategy.to_owned();
    Ok(spec)
}

/// The built-in ladder (`--engine level=N`): how level N (from 1) chooses, and at most how many
/// positions or playouts a move it looks at. Level 1 plays at random; 2 and 3 search with a fixed
/// budget, the same moves on any machine while their clock allows; 4 searches for as long as its
/// clock allows.
pub const LEVELS: [(&str, Option<u64>); 4] = [
    ("random", None),
    ("search", Some(300)),
    ("search", Some(10_000)),
    ("search", None),
];

/// DOUBLE's ladder: its tree search gains little past a few thousand iterations (10,000 played
/// level 4 even at 2+0.02), so its fixed budgets are smaller, each step a clear one.
pub const DOUBLE_LEVELS: [(&str, Option<u64>); 4] = [
    ("random", None),
    ("search", Some(30)),
    ("search", Some(300)),
    ("search", None),
];

/// The ladder of `game`.
pub fn ladder(game: &str) -> &'static [(&'static str, Option<u64>); 4] {
    match game {
        "double" => &DOUBLE_LEVELS,
        _ => &LEVELS,
    }
}

/// An `--engine` of KEY=VALUE words that names a level of the ladder instead of a command
/// (`level=2`, or `level=2 name=weak tc=5+0.1`): that level, run as a process of the program
/// `exe` (quoted for a shell) with `seed`, the other words as its own keys and those of `each`;
/// named `levelN` unless its keys give a name. `None` for any other engine.
pub fn level_engine_of(
    exe: &str,
    game: &str,
    text: &str,
    seed: u64,
    each: &str,
) -> Option<Result<EngineSpec, EngineSpecError>> {
    let keys = pairs(&crate::sys::words::split(text)?)?;
    let level = &keys.iter().find(|(k, _)| k == "level")?.1;
    if keys.iter().any(|(k, _)| k == "cmd") {
        return None;
    }
    Some(level_engine(exe, game, level, &keys, seed, each))
}

/// Level `level` with `keys` (its `level=` among them, left out) as its own keys: see
/// [`level_engine_of`].
fn level_engine(
    exe: &str,
    game: &str,
    level: &str,
    keys: &[(String, String)],
    seed: u64,
    each: &str,
) -> Result<EngineSpec, EngineSpecError> {
    let (number, command) = level_command(exe, game, level, seed)?;
    let own = keys.iter().filter(|(k, _)| k != "level");
    let mut words: Vec<String> = own.map(|(k, v)| format!("{k}={v}")).collect();
    words.push(format!("cmd={command}"));
    let text = crate::sys::words::join(words.iter().map(String::as_str)).ok_or_else(|| {
        EngineSpecError {
            flag: "--engine",
            text: format!("level={level}"),
            reason: SpecReason::LevelKeys,
        }
    })?;
    let mut spec = EngineSpec::parse_with(&text, each)?;
    if !keys.iter().any(|(k, _)| k == "name") {
        spec.command.name = format!("level{number}");
    }
    Ok(spec)
}

/// Level `level` of `game`'s [`ladder`]: its number and the command that runs it.
fn level_command(
    exe: &str,
    game: &str,
    level: &str,
    seed: u64,
) -> Result<(usize, String), EngineSpecError> {
    let known = || EngineSpecError {
        flag: "--engine",
        text: format!("level={level}"),
        reason: SpecReason::Level(LEVELS.len()),
    };
    let number: usize = level.parse().map_err(|_| known())?;
    let (strategy, nodes) = *number
        .checked_sub(1)
        .and_then(|i| ladder(game).get(i))
        .ok_or_else(known)?;
    let mut command = builtin_command(exe, game, strategy, seed);
    if let Some(nodes) = nodes {
        command.push_str(&format!(" --nodes {nodes}"));
    }
    Ok((number, command))
}

/// The human seat (`--engine human`): a person at the terminal the referee was started from,
/// through the built-in engine of the program `exe` (quoted for a shell) that asks them.
pub fn human_engine(exe: &str, game: &str) -> Result<EngineSpec, EngineSpecError> {
    let mut spec = EngineSpec::parse(&builtin_command(exe, game, "human", 0))?;
    spec.command.name = "human".to_owned();
    spec.command.terminal = true;
    Ok(spec)
}

/// `procs=` for an engine (named) that runs as root, whom the kernel does not limit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "engine {0}: procs= limits nothing for an engine running as root (the kernel exempts root): \
     add user=UID to run it as a user of its own"
)]
pub struct RootProcs(pub String);

/// What running `engines` as root (`root`) means for their limits: an error for `procs=` without
/// `user=` or a sandbox (the kernel never limits root's processes), and a warning for other limits
/// without either (an engine with root's capabilities may lift its own limits). A sandboxed engine
/// of a root referee runs as a user of its own (see `Sandbox::run_as`).
pub fn root_check(engines: &[EngineSpec], root: bool) -> Result<Vec<String>, RootProcs> {
    let mut warnings = Vec::new();
    for engine in engines.iter().filter(|_| root) {
        let command = &engine.command;
        if command.user.is_some() || command.sandbox {
            continue;
        }
        if command.limits.procs.is_some() {
            return Err(RootProcs(command.name.clone()));
        }
        if command.limits.any() {
            warnings.push(format!(
                "engine {} runs as root and could lift its own limits: add user=UID or \
                 sandbox=bwrap (which drops its capabilities)",
                command.name
            ));
        }
    }
    Ok(warnings)
}

/// Renames engines that share a name (`bot`, `bot#2`), since standings count by name.
pub fn unique_names(engines: &mut [EngineSpec]) {
    for i in 1..engines.len() {
        let name = engines[i].command.name.clone();
        if engines[..i].iter().any(|e| e.command.name == name) {
            engines[i].command.name = format!("{name}#{}", i + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse() {
        let plain = EngineSpec::parse("./bots/alpha --depth 3").unwrap();
        assert_eq!(plain.command.command, "./bots/alpha --depth 3");
        assert_eq!(plain.command.name, "alpha");
        let keyed = EngineSpec::parse("name=x cmd='python3 bot.py -v' dir=/tmp tc=5+0.1").unwrap();
        assert_eq!(keyed.command.command, "python3 bot.py -v");
        assert_eq!(keyed.command.name, "x");
        assert_eq!(keyed.command.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(keyed.tc, Some("5+0.1".parse().unwrap()));
        let script = EngineSpec::parse("python3 -u examples/random_bot.py").unwrap();
        assert_eq!(script.command.name, "random_bot.py");
        let timed = EngineSpec::parse("cmd=bot movetime=250").unwrap();
        assert_eq!(
            timed.tc,
            Some(TimeControl::MoveTime(Duration::from_millis(250)))
        );
        assert_eq!(timed.command.name, "bot");
        // cutechess-cli's seconds a move and minutes:seconds.
        let st = EngineSpec::parse("cmd=bot st=0.1").unwrap();
        assert_eq!(
            st.tc,
            Some(TimeControl::MoveTime(Duration::from_millis(100)))
        );
        let clock = EngineSpec::parse("cmd=bot tc=0:10+0.1").unwrap();
        assert_eq!(clock.tc, Some("10+0.1".parse().unwrap()));
        // Keys for the engine itself, told in `newgame`.
        let keys = EngineSpec::parse("cmd=bot nodes=1000 depth=8 option.Hash=64").unwrap();
        let told: Vec<(&str, &str)> = (keys.newgame_keys.iter())
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            told,
            [("nodes", "1000"), ("depth", "8"), ("option.Hash", "64")]
        );
        for bad in [
            "",
            "cmd=x nodes=many",
            "cmd=x option.=1",
            "cmd=x st=0",
            "cmd=x st=fast",
            "cmd='x",
            "cmd=x colour=red",
            "cmd=x tc=fast",
            "cmd=x movetime=1.5",
            "cmd=x proto=uci",
            "cmd=x mem=lots",
            "cmd=x cpu=0",
            "cmd=x sandbox=docker",
            "cmd=x user=0",
            "cmd=x user=no-such-user-here",
        ] {
            assert!(EngineSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_sets_what_an_engine_does_not() {
        let each = "mem=256M cpu=10 sandbox=bwrap proto=codecup user=64001:64002";
        let spec = EngineSpec::parse_with("name=a cmd=./a cpu=5 proto=native", each).unwrap();
        assert_eq!(spec.command.limits.memory, Some(256 << 20));
        assert_eq!(spec.command.limits.cpu, Some(5));
        assert!(spec.command.sandbox);
        assert_eq!(spec.proto, Proto::Native);
        assert_eq!(spec.command.user, Some((64001, 64002)));
        let plain = EngineSpec::parse_with("./b --fast", "files=32").unwrap();
        assert_eq!(plain.command.command, "./b --fast");
        assert_eq!(plain.command.limits.files, Some(32));
        for bad in ["name=x", "cmd=./y", "mem", "colour=red"] {
            assert!(EngineSpec::parse_with("./b", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn root_cannot_limit_processes_without_a_user_of_their_own() {
        let spec = |text: &str| EngineSpec::parse(text).unwrap();
        let procs = [spec("name=a cmd=./a procs=8")];
        assert!(
            root_check(&procs, true)
                .unwrap_err()
                .to_string()
                .contains("user=UID")
        );
        assert_eq!(root_check(&procs, false), Ok(vec![]));
        let mem = [spec("name=b cmd=./b mem=1G")];
        assert_eq!(root_check(&mem, true).unwrap().len(), 1);
        let safe = [
            spec("name=c cmd=./c mem=1G sandbox=bwrap"),
            spec("name=d cmd=./d procs=8 user=64001"),
            spec("name=e cmd=./e"),
        ];
        assert_eq!(root_check(&safe, true), Ok(vec![]));
    }

    #[test]
    fn engines_of_one_name_are_numbered() {
        let mut engines: Vec<EngineSpec> = ["./bot", "./bot", "x", "./bot"]
            .iter()
            .map(|t| EngineSpec::parse(t).unwrap())
            .collect();
        unique_names(&mut engines);
        let names: Vec<&str> = engines.iter().map(|e| e.command.name.as_str()).collect();
        assert_eq!(names, ["bot", "bot#2", "x", "bot#4"]);
    }
}
