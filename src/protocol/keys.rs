//! The `key=value` words of `newgame` and `genmove`, typed: the match loop writes them, and the
//! session, the built-in bots and the example engine read them, all through these two types.

use std::fmt;

use crate::protocol::command::value_of;

/// A key whose value is not what it must be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("option {key}={value}: expected a whole number")]
pub struct KeyError {
    key: String,
    value: String,
}

/// What `newgame` says besides the game and variant: `seats=N seat=K seed=S`, the clock
/// (`tc=...` or `movetime=MS`), `setup=TOKEN`, then any other keys (an engine's own options,
/// `probe=1`), in that order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameKeys {
    /// The seat count.
    pub seats: Option<usize>,
    /// The seat the engine plays.
    pub seat: Option<usize>,
    /// The seed of the engine's own random choices (the game's, in a session).
    pub seed: Option<u64>,
    /// The time control's text (`tc=10+0.1`, `tc=inf`).
    pub tc: Option<String>,
    /// A fixed time a move, in milliseconds (`movetime=`), in place of `tc=`.
    pub movetime: Option<u64>,
    /// The public setup drawn from the seed (the Wyx rack).
    pub setup: Option<String>,
    /// Every other key, in the order given.
    pub others: Vec<(String, String)>,
}

impl GameKeys {
    /// Reads `options`; the numbers must be whole numbers, other keys are kept in `others`.
    pub fn read(options: &[(String, String)]) -> Result<GameKeys, KeyError> {
        let mut keys = GameKeys::default();
        for (key, value) in options {
            let number = || {
                value.parse::<u64>().map_err(|_| KeyError {
                    key: key.clone(),
                    value: value.clone(),
                })
            };
            match key.as_str() {
                "seats" if keys.seats.is_none() => keys.seats = Some(whole(number()?)),
                "seat" if keys.seat.is_none() => keys.seat = Some(whole(number()?)),
                "seed" if keys.seed.is_none() => keys.seed = Some(number()?),
                "movetime" if keys.movetime.is_none() => keys.movetime = Some(number()?),
                "tc" if keys.tc.is_none() => keys.tc = Some(value.clone()),
                "setup" if keys.setup.is_none() => keys.setup = Some(value.clone()),
                _ => keys.others.push((key.clone(), value.clone())),
            }
        }
        Ok(keys)
    }
}

impl GameKeys {
    /// The keys as `newgame`'s options, in the order they are written.
    pub fn into_options(self) -> Vec<(String, String)> {
        let mut options = Vec::new();
        let mut put = |key: &str, value: Option<String>| {
            if let Some(value) = value {
                options.push((key.to_owned(), value));
            }
        };
        put("seats", self.seats.map(|n| n.to_string()));
        put("seat", self.seat.map(|n| n.to_string()));
        put("seed", self.seed.map(|n| n.to_string()));
        put("tc", self.tc);
        put("movetime", self.movetime.map(|n| n.to_string()));
        put("setup", self.setup);
        options.extend(self.others);
        options
    }
}

/// A count that does not fit this machine's `usize` is as unusable as any other too large one.
fn whole(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

impl fmt::Display for GameKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words = Words::new(f);
        words.key("seats", self.seats)?;
        words.key("seat", self.seat)?;
        words.key("seed", self.seed)?;
        words.key("tc", self.tc.as_deref())?;
        words.key("movetime", self.movetime)?;
        words.key("setup", self.setup.as_deref())?;
        for (key, value) in &self.others {
            words.key(key, Some(value))?;
        }
        Ok(())
    }
}

/// What `genmove` says of the clocks, in milliseconds: `movetime=MS` for a fixed time a move, or
/// `time=MS inc=MS [movestogo=N] clocks=MS,MS,...` (every seat's time left, in seat order);
/// nothing when no clock runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockKeys {
    /// A fixed time for this move.
    pub movetime: Option<u64>,
    /// The time left on the seat's clock.
    pub time: Option<u64>,
    /// The increment after each move.
    pub inc: Option<u64>,
    /// The moves until the next time control, where there is one.
    pub movestogo: Option<u64>,
    /// Every seat's time left, in seat order (empty when not given).
    pub clocks: Vec<u64>,
}

impl ClockKeys {
    /// Reads the clock keys of `options`, as an engine must: unknown keys and values that are not
    /// whole numbers are ignored.
    pub fn read(options: &[(String, String)]) -> ClockKeys {
        let get = |key: &str| value_of(options, key).and_then(|v| v.parse::<u64>().ok());
        ClockKeys {
            movetime: get("movetime"),
            time: get("time"),
            inc: get("inc"),
            movestogo: get("movestogo"),
            clocks: value_of(options, "clocks")
                .map(|list| list.split(',').filter_map(|v| v.parse().ok()).collect())
                .unwrap_or_default(),
        }
    }

    /// Whether any clock runs.
    pub fn any(&self) -> bool {
        self.movetime.is_some() || self.time.is_some()
    }
}

impl ClockKeys {
    /// Writes the keys into `out`: written at every ply, so into a `String` directly, with the
    /// numbers through `itoa`, not the formatting machinery.
    pub fn write_to<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        let mut words = Words::new(out);
        words.number("movetime", self.movetime)?;
        words.number("time", self.time)?;
        words.number("inc", self.inc)?;
        words.number("movestogo", self.movestogo)?;
        for (i, &ms) in self.clocks.iter().enumerate() {
            match i {
                0 => words.number("clocks", Some(ms))?,
                _ => {
                    words.f.write_char(',')?;
                    words.f.write_str(itoa::Buffer::new().format(ms))?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for ClockKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// `key=value` words separated by single spaces.
struct Words<'a, W: fmt::Write> {
    f: &'a mut W,
    first: bool,
}

impl<'a, W: fmt::Write> Words<'a, W> {
    fn new(f: &'a mut W) -> Self {
        Words { f, first: true }
    }

    fn key(&mut self, key: &str, value: Option<impl fmt::Display>) -> fmt::Result {
        let Some(value) = value else {
            return Ok(());
        };
        self.name(key)?;
        write!(self.f, "{value}")
    }

    /// `key=N`, the number written as [`Words::key`] would, faster.
    fn number(&mut self, key: &str, value: Option<u64>) -> fmt::Result {
        let Some(value) = value else {
            return Ok(());
        };
        self.name(key)?;
        self.f.write_str(itoa::Buffer::new().format(value))
    }

    /// The separating space and `key=`.
    fn name(&mut self, key: &str) -> fmt::Result {
        if !self.first {
            self.f.write_char(' ')?;
        }
        self.first = false;
        self.f.write_str(key)?;
        self.f.write_char('=')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(text: &str) -> Vec<(String, String)> {
        text.split_whitespace()
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    }

    #[test]
    fn newgame_keys_read_as_they_are_written() {
        let text = "seats=3 seat=1 seed=18446744073709551615 tc=10+0.1 setup=ABC nodes=5 probe=1";
        let keys = GameKeys::read(&options(text)).unwrap();
        assert_eq!(keys.seats, Some(3));
        assert_eq!(keys.seat, Some(1));
        assert_eq!(keys.seed, Some(u64::MAX));
        assert_eq!(keys.tc.as_deref(), Some("10+0.1"));
        assert_eq!(keys.setup.as_deref(), Some("ABC"));
        assert_eq!(keys.others, options("nodes=5 probe=1"));
        assert_eq!(keys.to_string(), text);
        assert_eq!(keys.into_options(), options(text));
        let fixed = "seats=2 seat=0 seed=4 movetime=100";
        assert_eq!(GameKeys::read(&options(fixed)).unwrap().to_string(), fixed);
    }

    #[test]
    fn newgame_numbers_must_be_whole_numbers() {
        let error = GameKeys::read(&options("seed=x")).unwrap_err();
        assert_eq!(error.to_string(), "option seed=x: expected a whole number");
        assert!(GameKeys::read(&options("seats=-1")).is_err());
        // The first of a key given twice counts; the second is kept with the others.
        let keys = GameKeys::read(&options("seat=1 seat=2")).unwrap();
        assert_eq!((keys.seat, keys.others), (Some(1), options("seat=2")));
    }

    #[test]
    fn genmove_clocks_read_as_they_are_written() {
        for text in [
            "movetime=250",
            "time=9000 inc=100 clocks=9000,8500",
            "time=60000 inc=0 movestogo=40 clocks=60000,1,2",
            "",
        ] {
            let keys = ClockKeys::read(&options(text));
            assert_eq!(keys.to_string(), text);
            assert_eq!(keys.any(), !text.is_empty());
        }
        // What an engine cannot read it ignores.
        let keys = ClockKeys::read(&options("time=x inc=5 clocks=1,y,3 nodes=9"));
        assert_eq!(keys.to_string(), "inc=5 clocks=1,3");
    }
}
