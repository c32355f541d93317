//! Knockout: a bracket seeded in the engines' order (the first is seed 1), each tie a mini-match
//! of two seats, its winner going on. Written in docs/tournaments.md's terms:
//! - The bracket has the next power of two of places; seed `s` of `P` places meets seed
//!   `P + 1 - s` in the first round, placed so that seeds 1 and 2 can meet only in the final (the
//!   usual order: 1, 8, 4, 5, 2, 7, 3, 6 for 8). Places without an engine are byes.
//! - A tie is `per_tie` games, seats alternating (the higher seed in seat 0 first). Level on
//!   points after them, it goes on in pairs of games (one in each seat), up to `per_tie` more games
//!   (at least one pair), until a pair leaves one ahead; still level, the higher seed goes on.
//! - Game numbers: each tie has a fixed block of the most games it can take, round after round,
//!   tie after tie, so a resumed run finds every game where the first run put it.

/// The bracket of a knockout of `engines` engines with ties of `per_tie` games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    per_tie: usize,
    /// The first round's places: each an engine (its seed less one) or a bye.
    places: Vec<Option<usize>>,
}

/// Where a tie stands after some of its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tie {
    /// Decided: this engine goes on.
    Won(usize),
    /// These games (numbers within the tie) are to be played next.
    Play(usize, usize),
}

impl Bracket {
    /// The bracket for `engines` engines (seeded in their order) and ties of `per_tie` games.
    pub fn new(engines: usize, per_tie: usize) -> Bracket {
        let size = engines.max(2).next_power_of_two();
        let mut order = vec![1usize];
        while order.len() < size {
            let next = order.len() * 2;
            order = order.iter().flat_map(|&s| [s, next + 1 - s]).collect();
        }
        let places = order
            .into_iter()
            .map(|seed| (seed <= engines).then(|| seed - 1))
            .collect();
        Bracket {
            per_tie: per_tie.max(1),
            places,
        }
    }

    /// The first round's places.
    pub fn places(&self) -> &[Option<usize>] {
        &self.places
    }

    /// Tie-break games a tie may take: pairs, at least one.
    fn tie_break(&self) -> usize {
        2 * (self.per_tie / 2).max(1)
    }

    /// The block of game numbers each tie has.
    pub fn block(&self) -> usize {
        self.per_tie + self.tie_break()
    }

    /// The most games the whole bracket can take: a block for each of its ties.
    pub fn most_games(&self) -> usize {
        self.places.len().saturating_sub(1) * self.block()
    }

    /// The number of tie `tie` of round `round`'s first game: the blocks of earlier ties first.
    pub fn first_game(&self, round: usize, tie: usize) -> usize {
        let earlier: usize = (0..round).map(|r| self.places.len() >> (r + 1)).sum();
        (earlier + tie) * self.block()
    }

    /// The game of a tie between `a` and `b` (engines) numbered `game` within the tie: the higher
    /// seed (the lower engine number) in seat 0 in its even games.
    pub fn seats(a: usize, b: usize, game: usize) -> Vec<usize> {
        let (high, low) = (a.min(b), a.max(b));
        match game % 2 {
            0 => vec![high, low],
            _ => vec![low, high],
        }
    }

    /// Where a tie between `a` and `b` stands, given `points` (`a`'s, `b`'s) after `played` of
    /// its games.
    pub fn tie(&self, a: usize, b: usize, played: usize, points: (f64, f64)) -> Tie {
        let ahead = |(pa, pb): (f64, f64)| {
            if pa > pb {
                Some(a)
            } else if pb > pa {
                Some(b)
            } else {
                None
            }
        };
        if played < self.per_tie {
            return Tie::Play(played, self.per_tie);
        }
        if let Some(winner) = ahead(points) {
            return Tie::Won(winner);
        }
        if played < self.block() {
            return Tie::Play(played, played + 2);
        }
        Tie::Won(a.min(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_meet_in_the_usual_order_with_byes_for_the_top() {
        let eight = Bracket::new(8, 2);
        let seeds: Vec<usize> = eight.places().iter().map(|p| p.unwrap() + 1).collect();
        assert_eq!(seeds, [1, 8, 4, 5, 2, 7, 3, 6]);
        // Six engines: seeds 1 and 2 get byes (places 7 and 8 are empty).
        let six = Bracket::new(6, 2);
        assert_eq!(
            six.places(),
            [
                Some(0),
                None,
                Some(3),
                Some(4),
                Some(1),
                None,
                Some(2),
                Some(5)
            ]
        );
        assert_eq!(six.most_games(), 7 * 4);
        assert_eq!(six.first_game(0, 3), 12);
        assert_eq!(six.first_game(1, 0), 16);
        assert_eq!(six.first_game(2, 0), 24);
    }

    #[test]
    fn ties_go_to_points_then_pairs_then_the_higher_seed() {
        let bracket = Bracket::new(4, 2);
        assert_eq!(bracket.tie(0, 3, 0, (0.0, 0.0)), Tie::Play(0, 2));
        assert_eq!(bracket.tie(0, 3, 2, (0.5, 1.5)), Tie::Won(3));
        assert_eq!(bracket.tie(0, 3, 2, (1.0, 1.0)), Tie::Play(2, 4));
        assert_eq!(bracket.tie(0, 3, 4, (2.0, 2.0)), Tie::Won(0));
        assert_eq!(
            bracket.tie(3, 0, 4, (2.0, 2.0)),
            Tie::Won(0),
            "the higher seed"
        );
        // The seats alternate, the higher seed first.
        assert_eq!(Bracket::seats(3, 0, 0), [0, 3]);
        assert_eq!(Bracket::seats(3, 0, 1), [3, 0]);
        // One-game ties break with one pair.
        assert_eq!(Bracket::new(4, 1).block(), 3);
    }
}
