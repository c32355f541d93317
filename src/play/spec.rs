//! Engine specs: an `--engine` value read into a command, a name and an optional time control,
//! and the built-in bots as engines.

use std::path::PathBuf;
use std::time::Duration;

use crate::play::clock::TimeControl;
use crate::play::engine::EngineCommand;

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// How to start it.
    pub command: EngineCommand,
    /// Its own time control, if not the match's.
    pub tc: Option<TimeControl>,
}

/// An `--engine` value that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad engine `{text}`: {reason}")]
pub struct EngineSpecError {
    text: String,
    reason: String,
}

impl EngineSpec {
    /// Reads `CMD`, or `key=value` words with shell quoting: `name=alpha cmd='./bot -x' dir=bots
    /// tc=10+0.1 movetime=500`. Without a name, the file name of the command's first word that looks
    /// like a path (`python3 bots/alpha.py` is `alpha.py`), else of its first word.
    pub fn parse(text: &str) -> Result<EngineSpec, EngineSpecError> {
        let error = |reason: &str| EngineSpecError {
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        let words = shlex::split(text).ok_or_else(|| error("unbalanced quotes"))?;
        let pairs: Option<Vec<(&str, &str)>> = words.iter().map(|w| w.split_once('=')).collect();
        let is_keyed = pairs
            .as_ref()
            .is_some_and(|p| p.iter().any(|(k, _)| *k == "cmd"));
        let mut spec = EngineSpec {
            command: EngineCommand {
                name: String::new(),
                command: text.trim().to_owned(),
                dir: None,
            },
            tc: None,
        };
        if is_keyed {
            for (key, value) in pairs.unwrap_or_default() {
                match key {
                    "cmd" => spec.command.command = value.to_owned(),
                    "name" => spec.command.name = value.to_owned(),
                    "dir" => spec.command.dir = Some(PathBuf::from(value)),
                    "tc" => {
                        spec.tc = Some(value.parse().map_err(
                            |e: crate::play::clock::TimeControlError| error(&e.to_string()),
                        )?)
                    }
                    "movetime" => {
                        let ms: u64 = value
                            .parse()
                            .map_err(|_| error("movetime is whole milliseconds"))?;
                        spec.tc = Some(TimeControl::MoveTime(Duration::from_millis(ms)));
                    }
                    _ => {
                        return Err(error(&format!(
                            "unknown key `{key}` (known: name, cmd, dir, tc, movetime)"
                        )));
                    }
                }
            }
        }
        if spec.command.command.is_empty() {
            return Err(error("no command"));
        }
        if spec.command.name.is_empty() {
            let words = shlex::split(&spec.command.command).unwrap_or_default();
            let word = words
                .iter()
                .find(|w| w.contains(['/', '.']))
                .or(words.first())
                .map_or("", String::as_str);
            spec.command.name = word.rsplit('/').next().unwrap_or(word).to_owned();
        }
        Ok(spec)
    }
}

/// The built-in bots as engines, run as processes of the program `exe`: `search` in the first
/// seat, `random` in every other; each its own seed drawn from `seed`.
pub fn builtin_engines(exe: &str, game: &str, seats: usize, seed: u64) -> Vec<EngineSpec> {
    (0..seats.max(1))
        .map(|i| {
            let strategy = if i == 0 { "search" } else { "random" };
            EngineSpec {
                command: EngineCommand {
                    name: strategy.to_owned(),
                    command: format!(
                        "{exe} bot --game {game} --strategy {strategy} --seed {}",
                        seed.wrapping_add(i as u64)
                    ),
                    dir: None,
                },
                tc: None,
            }
        })
        .collect()
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
        for bad in [
            "",
            "cmd='x",
            "cmd=x colour=red",
            "cmd=x tc=fast",
            "cmd=x movetime=1.5",
        ] {
            assert!(EngineSpec::parse(bad).is_err(), "{bad}");
        }
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
