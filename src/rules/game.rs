//! The `Game` trait that every game implements, and the small types all games share.
//!
//! # How the five games map onto this trait
//!
//! A game is a pure state machine: `to_move` names who acts next, `legal_moves` lists what they may
//! do, `try_play` applies one ply. Everything a later issue needs is expressed through three ideas:
//!
//! * **Plies, not turns.** Every action is one ply with one actor. A seat that acts several times in
//!   a row simply stays `to_move` for several plies: DVONN's White makes the 49th placement and the
//!   first stack move; a DOUBLE turn of several cards is several plies of one seat.
//! * **Chance at setup is a public layout.** A game whose start is shuffled (the Wyx rack) draws
//!   it from `Setup::seed` in `new` and shows it as [`Game::public_setup`]: one token that engines
//!   receive with `newgame` and records store, and that `Setup::layout` gives back to `new`. So a
//!   record replays from its stored layout, and the layout is checked against the seed apart.
//! * **Chance during play is an actor.** When the next thing to happen is random (a card drawn),
//!   `to_move` returns [`Actor::Chance`] and `legal_moves` lists the possible outcomes (the
//!   identities of the unseen cards). The driver, not the game, picks one with a generator seeded
//!   from the record's seed and plays it like any move; the record stores it as a ply with no seat.
//!   So a record replays without the generator, and the generator's choices can be checked against
//!   the seed separately. A hidden deal is a run of chance plies, one per card.
//! * **Views.** [`Viewer`] says whose eyes a rendering is for: `Viewer::Everyone` sees the whole truth,
//!   `Viewer::Seat(k)` only what seat k may know. Perfect-information games render the same text for
//!   both; DOUBLE hides other hands and the stock.
//!
//! The games, seat 0 first:
//!
//! | game | seats | variants | turn shape | chance | hidden |
//! |---|---|---|---|---|---|
//! | `dvonn` | 2 | none | placements then stack moves; White twice at ply 48/49; forced `PASS` | none | none |
//! | `double-dutch` | 2, 3 | none | one placement per ply, a seat with no supply passes | none | none |
//! | `pegs` | 2 | `standard`, `turbo` | one move or capture sequence per ply | none | none |
//! | `wyx` | 2 | none, `double` (two rounds, colours swapped) | one rack column per ply | the rack, a public layout drawn from the seed | none |
//! | `double` | 2..6 | none | several card plies per turn, then an explicit end of turn | the deal and every draw | hands, stock |

use std::fmt;

/// The indices of the set bits of a bitboard, lowest first: the cells of a set, for the games
/// that keep their boards in a `u64`.
pub fn bits(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let index = set.trailing_zeros() as u8;
            set &= set - 1;
            index
        })
    })
}

/// Every ordered pair of two different cells of `cells` (from, to), `from` by `from` in the
/// order given: the moves from one cell to another that a move space lists.
pub fn cell_pairs<C: Copy + PartialEq>(cells: impl Iterator<Item = C>) -> Vec<(C, C)> {
    let cells: Vec<C> = cells.collect();
    (cells.iter())
        .flat_map(|&from| {
            cells
                .iter()
                .filter(move |&&to| to != from)
                .map(move |&to| (from, to))
        })
        .collect()
}

/// A seat at the table, numbered from 0 in the rulebook's order.
pub type Seat = usize;

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A seat chooses the next ply.
    Seat(Seat),
    /// The next ply is a random event, drawn by the driver from the seeded generator.
    Chance,
}

/// Whose view of the game a rendering is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The whole truth: every hand, the stock order if the game has one.
    Everyone,
    /// Only what this seat may know.
    Seat(Seat),
    /// Only what every seat may know: someone watching the table, who sees no hand.
    Spectator,
}

/// How a game stands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Not over yet.
    Ongoing,
    /// Over, and every seat shares the result.
    Draw,
    /// Over, won by these seats (one, or several sharing a win), in seat order.
    Winners(Vec<Seat>),
}

impl Outcome {
    /// The outcome in which `winners` share the win among `seats` seats: a draw when all share it.
    pub fn from_winners(mut winners: Vec<Seat>, seats: usize) -> Self {
        winners.sort_unstable();
        winners.dedup();
        if winners.len() == seats {
            Outcome::Draw
        } else {
            Outcome::Winners(winners)
        }
    }

    /// The winning seats; every seat for a draw, none while ongoing.
    pub fn winners(&self, seats: usize) -> Vec<Seat> {
        match self {
            Outcome::Ongoing => Vec::new(),
            Outcome::Draw => (0..seats).collect(),
            Outcome::Winners(w) => w.clone(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("ongoing"),
            Outcome::Draw => f.write_str("draw"),
            Outcome::Winners(w) if w.len() == 1 => write!(f, "winner {}", w[0]),
            Outcome::Winners(w) => {
                f.write_str("winners")?;
                w.iter().try_for_each(|s| write!(f, " {s}"))
            }
        }
    }
}

/// What a new game is asked to be; each game validates it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// The variant's name, if one was asked for.
    pub variant: Option<String>,
    /// The number of seats, if one was asked for; each game has a default.
    pub seats: Option<usize>,
    /// The seed of every random choice the game needs.
    pub seed: u64,
    /// A public layout to start from instead of drawing one from the seed (see
    /// [`Game::public_setup`]); games without one refuse it.
    pub layout: Option<String>,
}

/// The most characters of a move's text an error quotes: a hostile record or engine may send
/// megabytes, and a message stays readable.
pub const MAX_QUOTED: usize = 400;

/// `text` as an error quotes it: whole, or its first [`MAX_QUOTED`] characters and `...`.
fn quoted(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_QUOTED) {
        Some((cut, _)) => format!("{}...", &text[..cut]).into(),
        None => text.into(),
    }
}

/// A move text that is not a move of this game at all, whatever the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot parse move `{}`: {reason}", quoted(.text))]
pub struct ParseMoveError {
    /// The offending text.
    pub text: String,
    /// Why it is not a move.
    pub reason: String,
}

/// A well-formed move that the rules forbid in this position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {}: {reason}", quoted(.text))]
pub struct IllegalMove {
    /// The move, as the game prints it.
    pub text: String,
    /// Which rule it breaks.
    pub reason: String,
}

/// Why a move text could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move.
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    /// The move is not legal here.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

/// A game that cannot be set up as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// No game has this id.
    #[error("unknown game `{0}` (known: {known})", known = crate::rules::GAMES.join(", "))]
    UnknownGame(String),
    /// The game has no such variant.
    #[error("{game} has no variant `{variant}`")]
    Variant {
        /// The game's id.
        game: &'static str,
        /// The variant asked for.
        variant: String,
    },
    /// The layout cannot be read, or the game has none.
    #[error("bad setup for {game}: {reason}")]
    Layout {
        /// The game's id.
        game: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The game is not played with this many seats.
    #[error("{game} is played by {allowed} seats, not {asked}")]
    Seats {
        /// The game's id.
        game: &'static str,
        /// The seat counts the game allows, in words.
        allowed: &'static str,
        /// The seat count asked for.
        asked: usize,
    },
}

/// What a game allows of a setup.
pub struct Allowed {
    /// The game's id.
    pub game: &'static str,
    /// Its named variants; a setup naming none gets the default game.
    pub variants: &'static [&'static str],
    /// Its seat counts, the default first.
    pub seats: &'static [usize],
    /// The seat counts in words, for errors.
    pub seats_in_words: &'static str,
}

/// What a finished game says of its seats' places beyond who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Places {
    /// Only who won: the rules put the other seats in no order.
    Winners,
    /// Every seat has a place by its score, the lowest first; equal scores share a place.
    LowestScoreFirst,
}

impl Places {
    /// Each seat's place (0 the first, equal scores equal places, the places numbered without
    /// gaps) from a finished game's `scores`, when the rules give every seat one and the
    /// `winners` are exactly the seats in first place; `None` otherwise (a fault decided the
    /// game, or the rules name only the winners).
    pub fn of(self, scores: &[i64], winners: &[usize]) -> Option<Vec<usize>> {
        let Places::LowestScoreFirst = self else {
            return None;
        };
        let mut distinct = scores.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        let places: Vec<usize> = (scores.iter())
            .map(|s| distinct.partition_point(|d| d < s))
            .collect();
        let first: Vec<usize> = (0..places.len()).filter(|&s| places[s] == 0).collect();
        (first == winners).then_some(places)
    }
}

/// Checks the variant and seat count of `setup`: the index of the variant named (if any) in
/// `allowed.variants`, and the seat count.
pub fn check_setup(setup: &Setup, allowed: &Allowed) -> Result<(Option<usize>, usize), SetupError> {
    let variant =
        match &setup.variant {
            None => None,
            Some(name) => Some(allowed.variants.iter().position(|v| v == name).ok_or_else(
                || SetupError::Variant {
                    game: allowed.game,
                    variant: name.clone(),
                },
            )?),
        };
    let seats = setup.seats.unwrap_or(allowed.seats[0]);
    if !allowed.seats.contains(&seats) {
        return Err(SetupError::Seats {
            game: allowed.game,
            allowed: allowed.seats_in_words,
            asked: seats,
        });
    }
    Ok((variant, seats))
}

/// Refuses a layout for a game that has none.
pub fn refuse_layout(game: &'static str, setup: &Setup) -> Result<(), SetupError> {
    match setup.layout {
        Some(_) => Err(SetupError::Layout {
            game,
            reason: "this game has no setup to give".to_owned(),
        }),
        None => Ok(()),
    }
}

/// Every move a game can ever list, each once, in a fixed order: what a seat may play, and the
/// outcomes of chance (none where chance acts only at setup). Every position's legal moves are
/// among them (a move may be in the space and never legal). It is the numbered action space of
/// the AI toolkits (OpenSpiel, PettingZoo), which need one size for a whole game: a move's number
/// is its place in its list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSpace<M> {
    /// What a seat may play.
    pub seats: Vec<M>,
    /// What chance may draw.
    pub chance: Vec<M>,
}

impl<M: fmt::Display> MoveSpace<M> {
    /// The space of these moves, each text kept once where several moves write the same (a card
    /// that reads the same turned round).
    pub fn new(seats: Vec<M>, chance: Vec<M>) -> MoveSpace<M> {
        let mut seen = std::collections::HashSet::new();
        let mut once = |moves: Vec<M>| -> Vec<M> {
            (moves.into_iter())
                .filter(|m| seen.insert(m.to_string()))
                .collect()
        };
        let seats = once(seats);
        let chance = once(chance);
        MoveSpace { seats, chance }
    }
}

/// The rules of one game: a pure state machine over plies.
///
/// Shaped like shakmaty's `Position`: parsing a move and checking its legality are separate steps
/// with separate errors, and `try_play` leaves the state untouched when it refuses a move.
pub trait Game: Clone + fmt::Debug {
    /// One ply.
    type Move: Clone + PartialEq + fmt::Debug + fmt::Display;

    /// What a finished game says of its seats' places beyond its winners.
    const PLACES: Places = Places::Winners;

    /// Sets up the start position.
    fn new(setup: &Setup) -> Result<Self, SetupError>;

    /// Every move this game, as set up, can ever list (see [`MoveSpace`]).
    fn move_space(&self) -> MoveSpace<Self::Move>;

    /// An upper bound on the plies, chance plies included, of any game from this setup's start,
    /// worked out from the rules (each game says how): the finite horizon a framework such as
    /// OpenSpiel asks for.
    fn max_plies(&self) -> usize;

    /// The game's id, as typed after `newgame`.
    fn id(&self) -> &'static str;

    /// The variant being played, if the game has variants.
    fn variant(&self) -> Option<&'static str>;

    /// How many seats play.
    fn seats(&self) -> usize;

    /// The colour `seat` plays, where the game names one (DVONN's white and black).
    fn seat_colour(&self, seat: Seat) -> Option<&'static str> {
        let _ = seat;
        None
    }

    /// How many plies have been played.
    fn ply(&self) -> usize;

    /// Who acts next, or `None` when the game is over.
    fn to_move(&self) -> Option<Actor>;

    /// Reads a move in this game's notation, case-insensitively. Knows nothing of legality.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// Appends every legal move of the actor to move to `out` (nothing when the game is over).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// How many legal moves there are; games may count faster than they list.
    fn count_legal(&self) -> usize {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len()
    }

    /// Whether `mv` is legal here, and if not, which rule it breaks.
    fn check(&self, mv: &Self::Move) -> Result<(), IllegalMove>;

    /// Plays a move already known to be legal.
    fn play_unchecked(&mut self, mv: &Self::Move);

    /// Plays `mv` if it is legal; otherwise leaves the state unchanged and says why.
    fn try_play(&mut self, mv: &Self::Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Each seat's score in seat order (DVONN: pieces controlled).
    fn scores(&self) -> Vec<i64>;

    /// The result so far.
    fn outcome(&self) -> Outcome;

    /// A text picture of the position as `viewer` may see it; lines are never empty.
    fn render(&self, viewer: Viewer) -> String;

    /// Whether the seed changes what the seats may play: a layout drawn at setup (the Wyx rack) or
    /// cards drawn (DOUBLE). A fixed list of moves fits every game only when it does not.
    fn drawn_from_seed(&self) -> bool {
        false
    }

    /// Whether a seat may not see everything (DOUBLE's hands): then a deal must reach no seat
    /// twice through one engine process.
    fn hides_information(&self) -> bool {
        false
    }

    /// How many scoring rounds are over (DOUBLE's rounds, the last one included once the match
    /// ends); games of one round say 0. The scores after a round are [`Game::scores`].
    fn rounds_finished(&self) -> usize {
        0
    }

    /// The public layout drawn at setup (the Wyx rack), as one token without spaces; `None` for
    /// games without one.
    fn public_setup(&self) -> Option<String> {
        None
    }

    /// The move `mv` stands for here, in full: a move given in short (a DOUBLE card named by its
    /// number alone, without the way round it is laid) becomes the one legal move it names, so
    /// records and engines are told the full text. By default the move itself.
    fn resolve(&self, mv: &Self::Move) -> Self::Move {
        mv.clone()
    }

    /// At a chance node, the outcome the game's `seed` dictates (the next card of the shuffled
    /// deck); `None` elsewhere, or for games without chance.
    fn seeded_chance(&self, _seed: u64) -> Option<Self::Move> {
        None
    }

    /// The winners when `loser` resigns or is ruled out: by default every other seat.
    fn forfeit_winners(&self, loser: Seat) -> Vec<Seat> {
        (0..self.seats()).filter(|&s| s != loser).collect()
    }

    /// The text of `mv` as `viewer` may see it (another seat's drawn card is hidden).
    fn visible_text(&self, mv: &Self::Move, _viewer: Viewer) -> String {
        mv.to_string()
    }
}

/// The number of legal ply sequences of exactly `depth` plies from `game`.
///
/// A forced `PASS` is one ply; a finished game has no sequences; at a chance node every possible
/// outcome counts as one ply.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    let mut endless = u64::MAX;
    perft_within(game, depth, &mut endless).expect("an endless budget does not run out")
}

/// [`perft`] that expands at most `budget` positions (each position whose moves are listed counts
/// one), taking what it uses from `budget`; `None` when the budget ran out first. The budget
/// counts work, not time, so the same count stops at the same place on every machine.
pub fn perft_within<G: Game>(game: &G, depth: u32, budget: &mut u64) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    *budget = budget.checked_sub(1)?;
    if depth == 1 {
        return Some(game.count_legal() as u64);
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut total = 0;
    for mv in &moves {
        let mut next = game.clone();
        next.play_unchecked(mv);
        total += perft_within(&next, depth - 1, budget)?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::Outcome;

    #[test]
    fn outcome_text() {
        let cases = [
            (Outcome::Ongoing, "ongoing"),
            (Outcome::from_winners(vec![1, 0], 2), "draw"),
            (Outcome::from_winners(vec![1], 2), "winner 1"),
            (Outcome::from_winners(vec![2, 0, 2], 3), "winners 0 2"),
        ];
        for (outcome, text) in cases {
            assert_eq!(outcome.to_string(), text);
        }
    }
}

#[cfg(test)]
mod places_tests {
    use super::Places;

    #[test]
    fn places_come_from_scores_only_where_the_winners_agree() {
        let lowest = Places::LowestScoreFirst;
        assert_eq!(lowest.of(&[7, 2, 9, 2], &[1, 3]), Some(vec![1, 0, 2, 0]));
        assert_eq!(lowest.of(&[4, 4], &[0, 1]), Some(vec![0, 0]));
        // A fault's winner, not the lowest score: no order from the scores.
        assert_eq!(lowest.of(&[7, 2, 9], &[0]), None);
        assert_eq!(Places::Winners.of(&[7, 2, 9], &[1]), None);
    }
}
