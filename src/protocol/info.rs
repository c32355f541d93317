//! What an engine may say about its thinking before it answers `genmove`: an `info` line of
//! `key=value` words (evaluation, depth, nodes, expected line) and free text after `string`, read
//! and written in this one place.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

#[cfg(feature = "cli")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The longest `info` line kept; a longer one is a protocol error.
pub const MAX_INFO_LINE: usize = 4096;

/// The most keys an `info` line may carry besides those named here.
pub const MAX_OTHER_KEYS: usize = 16;

/// One `info` line: `info score=35 depth=8 nodes=120000 time=95 pv=D2,C1 string any text`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Info {
    /// The engine's evaluation of the position for its own seat, in its own units (by
    /// convention hundredths of a point, as a chess engine's centipawns): above 0 is good for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    /// How deep it searched, in plies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u64>,
    /// How many positions it looked at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// How long it thought, in milliseconds, by its own clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<u64>,
    /// The line it expects, as it writes it (moves separated by commas, by convention); not
    /// checked against the rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv: Option<String>,
    /// Keys the referee does not know, kept as they came.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub keys: BTreeMap<String, String>,
    /// Free text: everything after the word `string`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// Why a line is not an `info` line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InfoError(String);

/// Whether `line` is an `info` line (to be read as [`Info`]) rather than an answer.
pub fn is_info(line: &str) -> bool {
    line.strip_prefix("info")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
}

/// A key: letters, digits, `_`, `.` and `-`, as in `newgame`.
fn is_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

impl FromStr for Info {
    type Err = InfoError;

    fn from_str(line: &str) -> Result<Info, InfoError> {
        let bad = |why: String| Err(InfoError(why));
        if line.len() > MAX_INFO_LINE {
            return bad(format!("an info line is at most {MAX_INFO_LINE} bytes"));
        }
        let Some(rest) = line.strip_prefix("info").filter(|_| is_info(line)) else {
            return bad("an info line starts with `info`".into());
        };
        let mut info = Info::default();
        let mut rest = rest.trim_start_matches([' ', '\t']);
        while !rest.is_empty() {
            let (word, after) = rest.split_once([' ', '\t']).unwrap_or((rest, ""));
            if word == "string" {
                let text = after.trim_matches([' ', '\t']);
                info.text = (!text.is_empty()).then(|| text.to_owned());
                break;
            }
            let Some((key, value)) = word
                .split_once('=')
                .filter(|(k, v)| is_key(k) && !v.is_empty())
            else {
                return bad(format!(
                    "`{word}` is not KEY=VALUE (free text goes after `string`)"
                ));
            };
            let number = || {
                value
                    .parse::<u64>()
                    .map_err(|_| InfoError(format!("{key}={value}: not a whole number")))
            };
            let twice = match key {
                "score" => {
                    let score = value
                        .parse::<i64>()
                        .map_err(|_| InfoError(format!("score={value}: not a whole number")))?;
                    info.score.replace(score).is_some()
                }
                "depth" => info.depth.replace(number()?).is_some(),
                "nodes" => info.nodes.replace(number()?).is_some(),
                "time" => info.time.replace(number()?).is_some(),
                "pv" => info.pv.replace(value.to_owned()).is_some(),
                _ if info.keys.len() >= MAX_OTHER_KEYS && !info.keys.contains_key(key) => {
                    return bad(format!("more than {MAX_OTHER_KEYS} unknown keys"));
                }
                _ => info.keys.insert(key.to_owned(), value.to_owned()).is_some(),
            };
            if twice {
                return bad(format!("`{key}` given twice"));
            }
            rest = after.trim_start_matches([' ', '\t']);
        }
        Ok(info)
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(score) = self.score {
            write!(f, " score={score}")?;
        }
        for (key, value) in [
            ("depth", self.depth),
            ("nodes", self.nodes),
            ("time", self.time),
        ] {
            if let Some(value) = value {
                write!(f, " {key}={value}")?;
            }
        }
        if let Some(pv) = &self.pv {
            write!(f, " pv={pv}")?;
        }
        for (key, value) in &self.keys {
            write!(f, " {key}={value}")?;
        }
        if let Some(text) = &self.text {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_read_as_they_are_written() {
        let full = Info {
            score: Some(-35),
            depth: Some(8),
            nodes: Some(120_000),
            time: Some(95),
            pv: Some("D2,C1".into()),
            keys: [("hashfull".to_owned(), "12".to_owned())].into(),
            text: Some("book move, 3 left".into()),
        };
        for info in [Info::default(), full] {
            assert_eq!(info.to_string().parse(), Ok(info));
        }
        assert_eq!(
            "info\tdepth=3  string  a  b ".parse::<Info>(),
            Ok(Info {
                depth: Some(3),
                text: Some("a  b".into()),
                ..Info::default()
            })
        );
    }

    #[test]
    fn only_info_lines_are_info() {
        for line in ["info", "info depth=1", "info\tx=1"] {
            assert!(is_info(line), "{line}");
        }
        for line in ["=5 D2", "information", "infodepth=1", " info", ""] {
            assert!(!is_info(line), "{line}");
        }
    }

    #[test]
    fn malformed_info_says_why() {
        for (line, why) in [
            ("info depth", "`depth` is not KEY=VALUE"),
            ("info depth=", "`depth=` is not KEY=VALUE"),
            ("info =3", "`=3` is not KEY=VALUE"),
            ("info depth=-1", "depth=-1: not a whole number"),
            ("info score=1.5", "score=1.5: not a whole number"),
            ("info nodes=1 nodes=2", "`nodes` given twice"),
            ("info a=1 a=2", "`a` given twice"),
            ("info w\u{e9}=1", "is not KEY=VALUE"),
        ] {
            let error = line.parse::<Info>().unwrap_err().to_string();
            assert!(error.contains(why), "{line}: {error}");
        }
        let many: String = (0..=MAX_OTHER_KEYS).map(|k| format!(" k{k}=1")).collect();
        assert!(format!("info{many}").parse::<Info>().is_err());
        let long = format!("info string {}", "x".repeat(MAX_INFO_LINE));
        assert!(long.parse::<Info>().is_err());
    }
}
