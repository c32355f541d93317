//! Clocks: time controls and pure arithmetic on `Duration`; the match loop passes elapsed time in.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::protocol::GameKeys;

/// How much time a seat gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `base` to start with, `increment` added after each move; with `moves`, the base is added
    /// again after every `moves` moves (`40/60` is 40 moves in 60 seconds).
    Fischer {
        /// Time on the clock at the start of each period.
        base: Duration,
        /// Time added after each move.
        increment: Duration,
        /// Moves per period, if the base comes back.
        moves: Option<u32>,
    },
    /// A fixed time for every move; nothing carries over.
    MoveTime(Duration),
    /// No clock at all (`--tc inf`): an engine may think as long as it likes.
    Infinite,
}

/// How long "no limit" waits: ten years, far past any game, yet a deadline like any other.
pub const NO_LIMIT: Duration = Duration::from_secs(10 * 365 * 24 * 3600);

/// A time control that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad time control `{0}`: expected BASE[+INC] or MOVES/BASE[+INC] in seconds, e.g. 60+0.5 or \
     40/60 (BASE also as minutes:seconds, 1:30+1), or inf for no clock"
)]
pub struct TimeControlError(String);

fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.parse().ok()?;
    (0.0..1e9)
        .contains(&value)
        .then(|| Duration::from_secs_f64(value))
}

/// A base time: seconds, or minutes and seconds as cutechess-cli writes them (`1:30`).
fn base_time(text: &str) -> Option<Duration> {
    match text.split_once(':') {
        Some((minutes, secs)) => {
            let minutes: u32 = minutes.parse().ok().filter(|&m| m < 1_000_000)?;
            Some(Duration::from_secs(u64::from(minutes) * 60) + seconds(secs)?)
        }
        None => seconds(text),
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads `60+0.5`, `10`, `40/60`, `40/60+1` (seconds, decimals allowed), the base also as
    /// minutes and seconds (`0:10+0.1`, `40/1:30`, as cutechess-cli writes it), or `inf`.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = || TimeControlError(text.to_owned());
        if text == "inf" {
            return Ok(TimeControl::Infinite);
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (
                Some(
                    moves
                        .parse::<u32>()
                        .ok()
                        .filter(|&m| m > 0)
                        .ok_or_else(error)?,
                ),
                rest,
            ),
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, inc)) => (
                base_time(base).ok_or_else(error)?,
                seconds(inc).ok_or_else(error)?,
            ),
            None => (base_time(rest).ok_or_else(error)?, Duration::ZERO),
        };
        if base.is_zero() && increment.is_zero() {
            return Err(error());
        }
        Ok(TimeControl::Fischer {
            base,
            increment,
            moves,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Fischer {
                base,
                increment,
                moves,
            } => {
                if let Some(moves) = moves {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", base.as_secs_f64())?;
                if !increment.is_zero() {
                    write!(f, "+{}", increment.as_secs_f64())?;
                }
                Ok(())
            }
            TimeControl::MoveTime(time) => write!(f, "{} ms/move", time.as_millis()),
            TimeControl::Infinite => write!(f, "inf"),
        }
    }
}

/// A duration in whole milliseconds, as the protocol writes times (as u64: formatting a u128
/// costs several times more).
pub fn millis(time: Duration) -> u64 {
    u64::try_from(time.as_millis()).unwrap_or(u64::MAX)
}

impl TimeControl {
    /// How `newgame` tells it: `tc=60+0.5`, `tc=40/60`, `movetime=100` (milliseconds), `tc=inf`;
    /// written into `keys`.
    pub fn tell(&self, keys: &mut GameKeys) {
        match self {
            TimeControl::MoveTime(time) => keys.movetime = Some(millis(*time)),
            other => keys.tc = Some(other.to_string()),
        }
    }
}

/// A move that came after the seat's time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// How long the seat had.
    pub allowed: Duration,
    /// How long it took.
    pub used: Duration,
}

impl fmt::Display for Overrun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "answered after {} ms with {} ms allowed (over by {} ms)",
            self.used.as_millis(),
            self.allowed.as_millis(),
            self.used.saturating_sub(self.allowed).as_millis()
        )
    }
}

/// One seat's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    remaining: Duration,
    moves_made: u32,
}

impl Clock {
    /// A full clock.
    pub fn new(control: TimeControl) -> Clock {
        let remaining = match control {
            TimeControl::Fischer { base, .. } => base,
            TimeControl::MoveTime(time) => time,
            TimeControl::Infinite => NO_LIMIT,
        };
        Clock {
            control,
            remaining,
            moves_made: 0,
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// How long the seat may take for its next move.
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// The increment after each move (zero for a fixed move time).
    pub fn increment(&self) -> Duration {
        match self.control {
            TimeControl::Fischer { increment, .. } => increment,
            TimeControl::MoveTime(_) | TimeControl::Infinite => Duration::ZERO,
        }
    }

    /// Whether a clock runs at all.
    pub fn runs(&self) -> bool {
        self.control != TimeControl::Infinite
    }

    /// Moves until the base comes back, for `moves/base` controls.
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.control {
            TimeControl::Fischer { moves: Some(m), .. } => Some(m - self.moves_made % m),
            _ => None,
        }
    }

    /// Charges a move that took `used`. A move late by at most `tolerance` (`--timemargin`) is
    /// accepted as if it had used exactly the time left, and how late it was is returned; a later
    /// one is an overrun, which leaves the clock at zero.
    pub fn spend(&mut self, used: Duration, tolerance: Duration) -> Result<Duration, Overrun> {
        if self.control == TimeControl::Infinite {
            return Ok(Duration::ZERO);
        }
        if used > self.remaining + tolerance {
            let overrun = Overrun {
                allowed: self.remaining,
                used,
            };
            self.remaining = Duration::ZERO;
            return Err(overrun);
        }
        let late = used.saturating_sub(self.remaining);
        let used = used.min(self.remaining);
        self.moves_made += 1;
        match self.control {
            TimeControl::Fischer {
                base,
                increment,
                moves,
            } => {
                self.remaining = self.remaining.saturating_sub(used) + increment;
                if moves.is_some_and(|m| self.moves_made.is_multiple_of(m)) {
                    self.remaining += base;
                }
            }
            TimeControl::MoveTime(time) => self.remaining = time,
            TimeControl::Infinite => {}
        }
        Ok(late)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_parse() {
        let fischer = |base, inc, moves| TimeControl::Fischer {
            base: ms(base),
            increment: ms(inc),
            moves,
        };
        let cases = [
            ("60+0.5", fischer(60_000, 500, None)),
            ("10", fischer(10_000, 0, None)),
            ("40/60", fischer(60_000, 0, Some(40))),
            ("40/60+1", fischer(60_000, 1000, Some(40))),
            ("0+0.1", fischer(0, 100, None)),
            ("inf", TimeControl::Infinite),
            // cutechess-cli's minutes:seconds.
            ("0:10+0.1", fischer(10_000, 100, None)),
            ("1:30", fischer(90_000, 0, None)),
            ("40/2:00+1", fischer(120_000, 1000, Some(40))),
        ];
        for (text, expected) in cases {
            assert_eq!(text.parse::<TimeControl>(), Ok(expected), "{text}");
        }
        for bad in [
            "", "x", "0", "60+", "+1", "0/60", "-1", "1/2/3", "infinite", "1e99", "1:", ":5",
            "1:x", "0:0", "-1:30",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn fischer_adds_the_increment_and_flags_overruns() {
        let mut clock = Clock::new("1+0.1".parse().unwrap());
        assert_eq!(clock.spend(ms(300), ms(0)), Ok(ms(0)));
        assert_eq!(clock.remaining(), ms(800));
        assert_eq!(
            clock.spend(ms(801), ms(0)),
            Err(Overrun {
                allowed: ms(800),
                used: ms(801)
            })
        );
        assert_eq!(clock.remaining(), Duration::ZERO);
    }

    #[test]
    fn moves_per_period_bring_the_base_back() {
        let mut clock = Clock::new("2/10".parse().unwrap());
        assert_eq!(clock.moves_to_go(), Some(2));
        clock.spend(ms(4000), ms(0)).unwrap();
        assert_eq!(clock.moves_to_go(), Some(1));
        clock.spend(ms(4000), ms(0)).unwrap();
        assert_eq!(clock.remaining(), ms(12_000));
        assert_eq!(clock.moves_to_go(), Some(2));
    }

    #[test]
    fn move_time_resets_every_move() {
        let mut clock = Clock::new(TimeControl::MoveTime(ms(100)));
        clock.spend(ms(99), ms(0)).unwrap();
        assert_eq!(clock.remaining(), ms(100));
        assert!(clock.spend(ms(101), ms(0)).is_err());
    }

    #[test]
    fn a_time_margin_accepts_a_little_lateness_and_notes_it() {
        let mut clock = Clock::new(TimeControl::MoveTime(ms(100)));
        assert_eq!(clock.spend(ms(105), ms(20)), Ok(ms(5)));
        assert_eq!(clock.spend(ms(120), ms(20)), Ok(ms(20)));
        assert!(clock.spend(ms(121), ms(20)).is_err());
        // Fischer: a late move empties the clock; the increment still comes.
        let mut clock = Clock::new("1+0.1".parse().unwrap());
        assert_eq!(clock.spend(ms(1010), ms(20)), Ok(ms(10)));
        assert_eq!(clock.remaining(), ms(100));
        // No clock: nothing is ever late.
        let mut clock = Clock::new(TimeControl::Infinite);
        assert!(!clock.runs());
        assert_eq!(
            clock.spend(Duration::from_secs(1_000_000), ms(0)),
            Ok(ms(0))
        );
    }

    #[test]
    fn newgame_tells_the_time_control() {
        let told = |control: TimeControl| {
            let mut keys = GameKeys::default();
            control.tell(&mut keys);
            keys.to_string()
        };
        let tc = |text: &str| told(text.parse::<TimeControl>().unwrap());
        assert_eq!(tc("60+0.5"), "tc=60+0.5");
        assert_eq!(tc("40/60"), "tc=40/60");
        assert_eq!(tc("inf"), "tc=inf");
        assert_eq!(told(TimeControl::MoveTime(ms(100))), "movetime=100");
    }
}
