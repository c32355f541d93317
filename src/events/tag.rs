//! What a record's `tags.tournament` says of the run it belongs to, read back: `game=G
//! variant=V format=F seats=S repeat=B seed=N engines=A,B,C`, then ` random-plies=N` or
//! ` openings=...` and, for a knockout, ` games-per-tie=N` (written by the command layer's
//! `fingerprint`). Fields are read by name; the engines' list runs to the next of those fields, so
//! a name may hold spaces; a name holding a comma makes the list ambiguous, which
//! [`RunTag::entrants`] checks against the names the records seat.

use crate::events::Format;

/// The fields of a run's tag that say how its games were drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunTag {
    /// Who plays whom.
    pub format: Format,
    /// Seats per game.
    pub seats: usize,
    /// Every seed played in every rotation of its seats.
    pub repeat: bool,
    /// `seed=N`, or `None` for a secret's (`seed=secret-ID`).
    pub seed: Option<u64>,
    /// The engines as the run listed them (for a knockout, in seed order).
    pub engines: Vec<String>,
    /// A knockout's games per tie.
    pub games_per_tie: Option<usize>,
}

/// The fields written after the engines' list.
const AFTER_ENGINES: [&str; 3] = [" random-plies=", " openings=", " games-per-tie="];

impl RunTag {
    /// The tag's fields, or `None` when it is not of the current form (earlier releases' forms
    /// name no format this way).
    pub fn parse(text: &str) -> Option<RunTag> {
        let (head, list) = text.split_once(" engines=")?;
        let field = |name: &str| {
            head.split_whitespace()
                .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
        };
        let end = (AFTER_ENGINES.iter())
            .filter_map(|key| list.find(key))
            .min()
            .unwrap_or(list.len());
        let tail = &list[end..];
        let games_per_tie = tail
            .split_whitespace()
            .find_map(|w| w.strip_prefix("games-per-tie="))
            .map(str::parse)
            .transpose()
            .ok()?;
        Some(RunTag {
            format: Format::from_name(field("format")?)?,
            seats: field("seats")?.parse().ok()?,
            repeat: field("repeat")?.parse().ok()?,
            seed: field("seed").and_then(|s| s.parse().ok()),
            engines: list[..end].split(',').map(str::to_owned).collect(),
            games_per_tie,
        })
    }

    /// The engines entered, when the list read is exactly the run's: no name twice, and every
    /// name in `seated` among them (a name with a comma in it fails this).
    pub fn entrants<'a>(&self, mut seated: impl Iterator<Item = &'a str>) -> Option<&[String]> {
        let mut sorted: Vec<&String> = self.engines.iter().collect();
        sorted.sort();
        let distinct = sorted.windows(2).all(|w| w[0] != w[1]);
        let known = seated.all(|name| sorted.binary_search(&&name.to_owned()).is_ok());
        (distinct && known).then_some(&self.engines[..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_by_name_and_names_may_hold_spaces() {
        let tag = RunTag::parse(
            "game=pegs variant=- format=knockout seats=2 repeat=true seed=7 \
             engines=a b,c random-plies=4 games-per-tie=3",
        )
        .unwrap();
        assert_eq!(tag.format, Format::Knockout);
        assert_eq!((tag.seats, tag.repeat, tag.seed), (2, true, Some(7)));
        assert_eq!(tag.engines, ["a b", "c"]);
        assert_eq!(tag.games_per_tie, Some(3));
        let secret = "game=double variant=- format=swiss seats=4 repeat=false seed=secret-ab \
                      engines=w,x,y,z";
        assert_eq!(RunTag::parse(secret).unwrap().seed, None);
        assert_eq!(
            RunTag::parse("dvonn RoundRobin rounds=1 seed=5 engines=a,b"),
            None
        );
    }

    #[test]
    fn a_list_that_does_not_name_the_seated_engines_is_not_taken() {
        let tag = RunTag::parse("format=swiss seats=2 repeat=false seed=1 engines=a,b,c").unwrap();
        assert!(tag.entrants(["a", "c"].into_iter()).is_some());
        assert!(tag.entrants(["a", "x,y"].into_iter()).is_none());
        let twice = RunTag::parse("format=swiss seats=2 repeat=false seed=1 engines=a,a").unwrap();
        assert!(twice.entrants(["a"].into_iter()).is_none());
    }
}
