//! What an engine may answer to `genmove`: a move, `resign`, or `undo` (the human seat's), read
//! and written in this one place.

use std::fmt;
use std::str::FromStr;

/// An answer to `genmove`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveAnswer {
    /// A move, in the game's notation (whether the rules allow it is the game's business).
    Move(String),
    /// The seat resigns: every other seat wins.
    Resign,
    /// Take back the seat's last move and ask again (only where the game can start over).
    Undo,
}

impl FromStr for MoveAnswer {
    type Err = std::convert::Infallible;

    /// `resign` and `undo` in any case; anything else is a move, spaces around it dropped.
    fn from_str(text: &str) -> Result<MoveAnswer, Self::Err> {
        Ok(MoveAnswer::word(text).unwrap_or_else(|| MoveAnswer::Move(text.trim().to_owned())))
    }
}

impl MoveAnswer {
    /// `resign` or `undo` as [`MoveAnswer::from_str`] reads them; `None` for a move, which is
    /// not copied (the match loop reads every answer so).
    pub fn word(text: &str) -> Option<MoveAnswer> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("resign") {
            Some(MoveAnswer::Resign)
        } else if text.eq_ignore_ascii_case("undo") {
            Some(MoveAnswer::Undo)
        } else {
            None
        }
    }
}

impl fmt::Display for MoveAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveAnswer::Move(text) => f.write_str(text),
            MoveAnswer::Resign => f.write_str("resign"),
            MoveAnswer::Undo => f.write_str("undo"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MoveAnswer;

    #[test]
    fn answers_read_as_they_are_written() {
        for answer in [
            MoveAnswer::Move("B4E4".into()),
            MoveAnswer::Resign,
            MoveAnswer::Undo,
        ] {
            assert_eq!(answer.to_string().parse(), Ok(answer));
        }
        assert_eq!(" RESIGN ".parse(), Ok(MoveAnswer::Resign));
        assert_eq!("Undo".parse(), Ok(MoveAnswer::Undo));
        assert_eq!("d2".parse(), Ok(MoveAnswer::Move("d2".into())));
        assert_eq!(MoveAnswer::word(" d2 "), None);
        assert_eq!(MoveAnswer::word(" resign\t"), Some(MoveAnswer::Resign));
    }
}
