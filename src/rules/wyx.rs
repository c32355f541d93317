//! Wyx and Double Wyx: knights jump by dominoes taken from a face-up rack and drop pawns.
//!
//! Square (file f, rank r, both from 0) is bit `8 * r + f`. The rack is 8 columns of 8 dominoes,
//! shuffled from the seed at setup; a move takes the foot domino of a column.

use std::fmt::{self, Write as _};

use crate::rules::game::{
    Actor, Allowed, Game, IllegalMove, MoveSpace, Outcome, ParseMoveError, Seat, Setup, SetupError,
    Viewer, check_setup,
};

/// Strong squares and the pawns each receives.
const STRONG: [(&str, u8); 12] = [
    ("b2", 3),
    ("g2", 3),
    ("b7", 3),
    ("g7", 3),
    ("d1", 2),
    ("e1", 2),
    ("d8", 2),
    ("e8", 2),
    ("a4", 2),
    ("a5", 2),
    ("h4", 2),
    ("h5", 2),
];
/// Knight start squares, White's first.
const KNIGHT_START: [&str; 2] = ["d4", "e5"];
/// Pawns per player.
const PAWNS: u8 = 32;
/// Dominoes per colour, and the rack's shape.
const PER_COLOUR: usize = 16;
/// Columns of the rack.
pub const COLUMNS: usize = 8;
/// Dominoes in each column of the rack at the start.
pub const PER_COLUMN: usize = 8;
/// Colour names, in seat order of round 1.
const COLOURS: [&str; 2] = ["white", "black"];

/// A jump: files right (negative: left) and ranks up (negative: down).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Domino {
    right: i8,
    up: i8,
}

/// The 16 dominoes of each rack colour, in a fixed order: colour 1 is left+up (U1..U4, then
/// L1..L3 with U1..U4), colour 2 left+down, colour 3 right+down, colour 4 right+up; each colour is
/// the previous one turned a quarter.
fn colour_dominoes(colour: usize) -> [Domino; PER_COLOUR] {
    // Colour 4, right+up: R1..R4, then R1..R4 with U1..U3.
    let mut right_up: Vec<(i8, i8)> = (1..=4).map(|r| (r, 0)).collect();
    right_up.extend((1..=4).flat_map(|r| (1..=3).map(move |u| (r, u))));
    // A quarter turn clockwise maps (right, up) to (up, -right): right+up -> right+down (colour 3)
    // -> left+down (colour 2) -> left+up (colour 1).
    // `colour` counts from 0: colour 1 takes three turns, colour 4 none.
    let turns = 3 - colour;
    right_up
        .into_iter()
        .map(|(mut right, mut up)| {
            for _ in 0..turns {
                (right, up) = (up, -right);
            }
            Domino { right, up }
        })
        .collect::<Vec<_>>()
        .try_into()
        .expect("4 + 4 * 3 dominoes per colour")
}

impl Domino {
    /// Squares the knight jumps right (negative: left) and up (negative: down), each -4 to 4.
    pub fn jump(self) -> (i8, i8) {
        (self.right, self.up)
    }
}

impl fmt::Display for Domino {
    /// Horizontal part first: `R2D3`, `L1U4`, `R3`, `U2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.right != 0 {
            let side = if self.right > 0 { 'R' } else { 'L' };
            write!(f, "{side}{}", self.right.abs())?;
        }
        if self.up != 0 {
            let side = if self.up > 0 { 'U' } else { 'D' };
            write!(f, "{side}{}", self.up.abs())?;
        }
        Ok(())
    }
}

fn parse_domino(text: &str) -> Option<Domino> {
    let upper = text.to_ascii_uppercase();
    if !upper.is_ascii() {
        return None;
    }
    // One part: a side letter and 1 to 4 squares.
    let part = |s: &str| -> Option<(u8, i8)> {
        let [side, n] = s.as_bytes() else {
            return None;
        };
        let n = (*n as char).to_digit(10)? as i8;
        (1..=4).contains(&n).then_some((*side, n))
    };
    let horizontal = |s: &str| match part(s)? {
        (b'R', n) => Some(n),
        (b'L', n) => Some(-n),
        _ => None,
    };
    let vertical = |s: &str| match part(s)? {
        (b'U', n) => Some(n),
        (b'D', n) => Some(-n),
        _ => None,
    };
    let (right, up) = match upper.len() {
        2 => horizontal(&upper)
            .map(|r| (r, 0))
            .or_else(|| vertical(&upper).map(|u| (0, u)))?,
        4 => (horizontal(&upper[..2])?, vertical(&upper[2..])?),
        _ => return None,
    };
    Some(Domino { right, up })
}

/// A square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Square(u8);

impl Square {
    /// Every square, rank by rank from a1.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Its file, from 0 (a).
    pub fn file(self) -> i8 {
        (self.0 % 8) as i8
    }

    /// Its rank, from 0 (1).
    pub fn rank(self) -> i8 {
        (self.0 / 8) as i8
    }

    fn mask(self) -> u64 {
        1 << self.0
    }

    fn jump(self, d: Domino) -> Option<Square> {
        let (f, r) = (self.file() + d.right, self.rank() + d.up);
        ((0..8).contains(&f) && (0..8).contains(&r)).then(|| Square((r * 8 + f) as u8))
    }

    fn parse(text: &str) -> Option<Square> {
        let [f, r] = text.as_bytes() else {
            return None;
        };
        let (f, r) = (f.wrapping_sub(b'a'), r.wrapping_sub(b'1'));
        (f < 8 && r < 8).then_some(Square(r * 8 + f))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char((b'a' + self.0 % 8) as char)?;
        f.write_char((b'1' + self.0 / 8) as char)
    }
}

/// Pawns a strong square receives, or 1 for an ordinary square.
pub fn pawns_for(square: Square) -> u8 {
    STRONG
        .iter()
        .find(|(name, _)| Square::parse(name) == Some(square))
        .map_or(1, |&(_, n)| n)
}

/// Whether `square` is strong: a knight landing there places 2 or 3 pawns.
pub fn is_strong(square: Square) -> bool {
    pawns_for(square) > 1
}

/// One ply: take the foot domino of a column (1..8), or pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Take the foot domino of this column, numbered from 0.
    Column(u8),
    /// No column is legal.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Column(c) => write!(f, "{}", c + 1),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// The rack: 8 columns, each listed from its foot.
type Rack = [[Domino; PER_COLUMN]; COLUMNS];

/// A Wyx position (or a Double Wyx match of two rounds).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Wyx {
    double: bool,
    rack: Rack,
    /// Dominoes taken from each column.
    taken: [u8; COLUMNS],
    /// Knight squares by colour (0 white, 1 black).
    knights: [Square; 2],
    /// Squares holding each colour's pawns, and how many pawns stand on each square.
    pawns: [u64; 2],
    count: [u8; 64],
    /// Pawns in each colour's supply.
    supply: [u8; 2],
    /// The colour to move.
    to_move: u8,
    /// 0 or 1; in round 1 seat 1 plays White.
    round: u8,
    /// Each seat's pawns on the board at the end of round 1 (Double Wyx).
    first_round: [i64; 2],
    ply: u16,
    over: bool,
}

impl Wyx {
    /// A new game on `rack`.
    pub fn with_rack(rack: Rack, double: bool) -> Wyx {
        let knight = |i: usize| Square::parse(KNIGHT_START[i]).expect("start squares are squares");
        Wyx {
            double,
            rack,
            taken: [0; COLUMNS],
            knights: [knight(0), knight(1)],
            pawns: [0; 2],
            count: [0; 64],
            supply: [PAWNS; 2],
            to_move: 0,
            round: 0,
            first_round: [0; 2],
            ply: 0,
            over: false,
        }
    }

    /// The rack a seed draws: each colour's 16 dominoes shuffled by stream 0 of the generator keyed
    /// by `seed` (colours in order, one stream; see `seeded`), the first 8 in the colour's first
    /// column, foot first.
    pub fn rack_from_seed(seed: u64) -> Rack {
        let mut stream = crate::rules::seeded::Stream::new(seed, 0);
        let mut rack = [[Domino { right: 0, up: 0 }; PER_COLUMN]; COLUMNS];
        for colour in 0..4 {
            let mut dominoes = colour_dominoes(colour);
            stream.shuffle(&mut dominoes);
            for (i, domino) in dominoes.into_iter().enumerate() {
                rack[2 * colour + i / PER_COLUMN][i % PER_COLUMN] = domino;
            }
        }
        rack
    }

    /// Reads a rack: 8 columns separated by `/`, each 8 dominoes foot first, separated by `,`;
    /// each column holds dominoes of its colour only, each colour's 16 exactly once.
    pub fn parse_rack(text: &str) -> Result<Rack, RackError> {
        let columns: Vec<&str> = text.split('/').collect();
        if columns.len() != COLUMNS {
            return Err(RackError::Columns(columns.len()));
        }
        let mut rack = [[Domino { right: 0, up: 0 }; PER_COLUMN]; COLUMNS];
        for (c, column) in columns.iter().enumerate() {
            let dominoes: Vec<&str> = column.split(',').collect();
            if dominoes.len() != PER_COLUMN {
                return Err(RackError::Dominoes {
                    column: c + 1,
                    count: dominoes.len(),
                });
            }
            for (i, text) in dominoes.iter().enumerate() {
                rack[c][i] =
                    parse_domino(text).ok_or_else(|| RackError::NotADomino((*text).to_owned()))?;
            }
        }
        for colour in 0..4 {
            let mut expected = colour_dominoes(colour);
            let mut found: Vec<Domino> = rack[2 * colour..2 * colour + 2].concat();
            let key = |d: &Domino| (d.right, d.up);
            expected.sort_by_key(key);
            found.sort_by_key(key);
            if found != expected {
                return Err(RackError::Colour(colour + 1));
            }
        }
        Ok(rack)
    }

    fn rack_text(&self) -> String {
        let columns: Vec<String> = self
            .rack
            .iter()
            .map(|column| {
                column
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        columns.join("/")
    }

    /// The seat playing colour `colour` this round.
    fn seat_of(&self, colour: u8) -> u8 {
        colour ^ self.round
    }

    fn foot(&self, column: usize) -> Option<Domino> {
        let taken = usize::from(self.taken[column]);
        (taken < PER_COLUMN).then(|| self.rack[column][taken])
    }

    /// Where `colour`'s knight lands with column `column`'s foot domino, or why it may not.
    fn target(&self, colour: u8, column: usize) -> Result<Square, Blocked> {
        let domino = self.foot(column).ok_or(Blocked::Empty(column + 1))?;
        let from = self.knights[colour as usize];
        let to = from.jump(domino).ok_or(Blocked::OffBoard(domino, from))?;
        if to == self.knights[1 - colour as usize] {
            return Err(Blocked::Knight(domino, from));
        }
        if is_strong(to) && self.count[to.0 as usize] > 0 {
            return Err(Blocked::Strong(domino, from, to));
        }
        Ok(to)
    }

    fn columns_for(&self, colour: u8) -> impl Iterator<Item = usize> + '_ {
        (0..COLUMNS).filter(move |&c| self.target(colour, c).is_ok())
    }

    fn on_board(&self, colour: usize) -> i64 {
        i64::from(PAWNS - self.supply[colour])
    }

    /// Whether the round is over: all pawns of a colour placed, the rack empty, or no column for
    /// either colour.
    fn round_over(&self) -> bool {
        self.supply.contains(&0)
            || self.taken.iter().all(|&t| usize::from(t) == PER_COLUMN)
            || (self.columns_for(0).next().is_none() && self.columns_for(1).next().is_none())
    }

    fn illegal(mv: &Move, reason: impl Into<String>) -> IllegalMove {
        IllegalMove {
            text: mv.to_string(),
            reason: reason.into(),
        }
    }

    /// `N`/`n` for the white/black knight, then `W2`/`B1` for pawns, `+3` for an empty strong
    /// square, `.` for an empty ordinary one.
    fn square_text(&self, square: Square) -> String {
        let knight = match self.knights.iter().position(|&k| k == square) {
            Some(0) => "N",
            Some(_) => "n",
            None => "",
        };
        let n = self.count[square.0 as usize];
        let pawns = match (0..2).find(|&c| self.pawns[c] & square.mask() != 0) {
            Some(c) => format!("{}{n}", ['W', 'B'][c]),
            None if !knight.is_empty() => String::new(),
            None if is_strong(square) => format!("+{}", pawns_for(square)),
            None => ".".to_owned(),
        };
        format!("{knight}{pawns}")
    }
}

impl Wyx {
    /// The colour (0: white) and number of the pawns on `square`, if any stand there.
    pub fn pawns(&self, square: Square) -> Option<(usize, u8)> {
        (0..2)
            .find(|&colour| self.pawns[colour] & square.mask() != 0)
            .map(|colour| (colour, self.count[square.0 as usize]))
    }

    /// The colour (0: white, 1: black) `seat` plays this round (Double Wyx swaps them).
    pub fn colour_of(&self, seat: Seat) -> usize {
        (seat & 1) ^ usize::from(self.round)
    }

    /// The pawns left in `colour`'s supply, and how many each supply starts with.
    pub fn supply(&self, colour: usize) -> (u8, u8) {
        (self.supply[colour & 1], PAWNS)
    }

    /// Whether the second round of Double Wyx is being played.
    pub fn second_round(&self) -> bool {
        self.round == 1
    }

    /// The square of `colour`'s knight (0: white, 1: black).
    pub fn knight(&self, colour: usize) -> Square {
        self.knights[colour & 1]
    }

    /// The dominoes left in rack column `column` (from 0), foot first; none for a column that
    /// is not there.
    pub fn rack_column(&self, column: usize) -> &[Domino] {
        match (self.rack.get(column), self.taken.get(column)) {
            (Some(dominoes), Some(&taken)) => &dominoes[usize::from(taken)..],
            _ => &[],
        }
    }

    /// The squares the mover's knight jumps from and to with the foot domino of `column` (from
    /// 0), if that jump is legal.
    pub fn jump(&self, column: usize) -> Option<(Square, Square)> {
        let from = self.knights[self.to_move as usize];
        let to = self.target(self.to_move, column).ok()?;
        Some((from, to))
    }
}

impl Wyx {
    /// The variants and seat counts it allows.
    pub const ALLOWED: Allowed = Allowed {
        game: "wyx",
        variants: &["double"],
        seats: &[2],
        seats_in_words: "2",
    };
}

/// A rack that cannot be read (`Setup::layout`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RackError {
    /// Not 8 columns.
    #[error("{0} columns, not 8")]
    Columns(usize),
    /// A column without 8 dominoes.
    #[error("column {column} has {count} dominoes, not 8")]
    Dominoes {
        /// The column, from 1.
        column: usize,
        /// Its dominoes.
        count: usize,
    },
    /// A word that is not a domino.
    #[error("`{0}` is not a domino")]
    NotADomino(String),
    /// A colour's two columns without its 16 dominoes once each.
    #[error("columns {first} and {second} must hold colour {colour}'s 16 dominoes once each", first = 2 * .0 - 1, second = 2 * .0, colour = .0)]
    Colour(usize),
}

/// Why a column's foot domino cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
enum Blocked {
    /// The column (from 1) is empty.
    #[error("column {0} is empty")]
    Empty(usize),
    /// The jump leaves the board.
    #[error("{0} from {1} leaves the board")]
    OffBoard(Domino, Square),
    /// The jump lands on the other knight.
    #[error("{0} from {1} lands on the other knight")]
    Knight(Domino, Square),
    /// The jump lands on a strong square that holds pawns.
    #[error("{0} from {1} lands on {2}, a strong square already holding pawns")]
    Strong(Domino, Square, Square),
}

impl Game for Wyx {
    type Move = Move;

    fn move_space(&self) -> MoveSpace<Move> {
        let columns = (0..COLUMNS as u8).map(Move::Column);
        MoveSpace::new(columns.chain([Move::Pass]).collect(), Vec::new())
    }

    /// Every ply but a pass takes one of the rack's 64 dominoes; a seat passes only while the
    /// other has a column, so a domino is taken after each pass: at most 64 + 65 plies a round,
    /// and Double Wyx plays two rounds.
    fn max_plies(&self) -> usize {
        let dominoes = COLUMNS * PER_COLUMN;
        let rounds = if self.double { 2 } else { 1 };
        rounds * (dominoes + dominoes + 1)
    }

    fn new(setup: &Setup) -> Result<Self, SetupError> {
        let double = check_setup(setup, &Self::ALLOWED)?.0 == Some(0);
        let rack = match &setup.layout {
            Some(text) => Wyx::parse_rack(text).map_err(|reason| SetupError::Layout {
                game: "wyx",
                reason: reason.to_string(),
            })?,
            None => Wyx::rack_from_seed(setup.seed),
        };
        Ok(Wyx::with_rack(rack, double))
    }

    fn id(&self) -> &'static str {
        "wyx"
    }

    fn variant(&self) -> Option<&'static str> {
        self.double.then_some("double")
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_colour(&self, seat: usize) -> Option<&'static str> {
        COLOURS.get(seat).copied()
    }

    fn ply(&self) -> usize {
        self.ply.into()
    }

    fn to_move(&self) -> Option<Actor> {
        (!self.over).then(|| Actor::Seat(self.seat_of(self.to_move).into()))
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let trimmed = text.trim();
        if trimmed.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        match trimmed.parse::<u8>() {
            Ok(column @ 1..=8) => Ok(Move::Column(column - 1)),
            _ => Err(ParseMoveError {
                text: text.to_owned(),
                reason: "a move is a rack column 1 to 8, or pass".to_owned(),
            }),
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.over {
            return;
        }
        let before = out.len();
        out.extend(
            self.columns_for(self.to_move)
                .map(|c| Move::Column(c as u8)),
        );
        if out.len() == before {
            out.push(Move::Pass);
        }
    }

    fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        if self.over {
            return Err(Self::illegal(mv, "the game is over"));
        }
        match *mv {
            Move::Column(c) => self
                .target(self.to_move, c.into())
                .map(|_| ())
                .map_err(|why| Self::illegal(mv, why.to_string())),
            Move::Pass => match self.columns_for(self.to_move).next() {
                Some(c) => Err(Self::illegal(
                    mv,
                    format!(
                        "pass is allowed only without a legal column, and column {} is legal",
                        c + 1
                    ),
                )),
                None => Ok(()),
            },
        }
    }

    fn play_unchecked(&mut self, mv: &Move) {
        let colour = self.to_move as usize;
        if let Move::Column(c) = *mv {
            let to = self
                .target(self.to_move, c.into())
                .expect("a checked column has a target");
            self.taken[c as usize] += 1;
            // A pawn on the target (only on an ordinary square) goes back to its owner.
            for owner in 0..2 {
                if self.pawns[owner] & to.mask() != 0 {
                    self.supply[owner] += self.count[to.0 as usize];
                    self.pawns[owner] &= !to.mask();
                }
            }
            let placed = pawns_for(to).min(self.supply[colour]);
            self.count[to.0 as usize] = placed;
            if placed > 0 {
                self.pawns[colour] |= to.mask();
            }
            self.supply[colour] -= placed;
            self.knights[colour] = to;
        }
        self.ply += 1;
        self.to_move = 1 - self.to_move;
        if self.round_over() {
            if self.double && self.round == 0 {
                // Round 2: the same initial rack, colours swapped, White (now seat 1) first.
                self.first_round = [0, 1].map(|seat| self.on_board(seat));
                let ply = self.ply;
                *self = Wyx {
                    round: 1,
                    first_round: self.first_round,
                    ply,
                    ..Wyx::with_rack(self.rack, true)
                };
            } else {
                self.over = true;
            }
        }
    }

    fn scores(&self) -> Vec<i64> {
        (0..2u8)
            .map(|seat| {
                self.first_round[seat as usize] + self.on_board(self.colour_of(seat.into()))
            })
            .collect()
    }

    fn outcome(&self) -> Outcome {
        if !self.over {
            return Outcome::Ongoing;
        }
        let scores = self.scores();
        let best = scores.iter().copied().max().unwrap_or(0);
        Outcome::from_winners((0..2).filter(|&s| scores[s] == best).collect(), 2)
    }

    fn render(&self, _viewer: Viewer) -> String {
        let round = if self.double {
            format!(" round {}", self.round + 1)
        } else {
            String::new()
        };
        let status = match self.to_move() {
            None => format!("game over, {}", self.outcome()),
            Some(Actor::Seat(seat)) => {
                format!("{} (seat {seat}) to move", COLOURS[self.to_move as usize])
            }
            Some(Actor::Chance) => "chance".to_owned(),
        };
        let mut text = format!("wyx{round} ply {}: {status}\n", self.ply);
        for rank in (0..8u8).rev() {
            let _ = write!(text, "{}", rank + 1);
            for file in 0..8u8 {
                let _ = write!(text, " {:<3}", self.square_text(Square(rank * 8 + file)));
            }
            text.truncate(text.trim_end().len());
            text.push('\n');
        }
        text.push_str("  a   b   c   d   e   f   g   h   (N white knight, n black, W2 two white pawns, +3 strong square)\n");
        for c in 0..COLUMNS {
            let left: Vec<String> = self.rack[c][usize::from(self.taken[c])..]
                .iter()
                .map(ToString::to_string)
                .collect();
            let _ = writeln!(
                text,
                "column {}: {}",
                c + 1,
                if left.is_empty() {
                    "-".to_owned()
                } else {
                    left.join(" ")
                }
            );
        }
        let scores = self.scores();
        let _ = write!(
            text,
            "seat 0 {} pawns, seat 1 {} pawns; supply white {} black {}",
            scores[0], scores[1], self.supply[0], self.supply[1]
        );
        text
    }

    fn drawn_from_seed(&self) -> bool {
        true
    }

    fn public_setup(&self) -> Option<String> {
        Some(self.rack_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn domino(text: &str) -> Domino {
        parse_domino(text).unwrap()
    }

    #[test]
    fn the_64_dominoes_are_four_quarter_turned_colours() {
        let all: Vec<Domino> = (0..4).flat_map(colour_dominoes).collect();
        let mut unique = all.clone();
        unique.sort_by_key(|d| (d.right, d.up));
        unique.dedup();
        assert_eq!(unique.len(), 64);
        // Colour 1 is left+up, 2 left+down, 3 right+down, 4 right+up, each owning one axis.
        let quadrant = |c: usize| {
            colour_dominoes(c)
                .iter()
                .map(|d| (d.right.signum(), d.up.signum()))
                .collect::<std::collections::BTreeSet<_>>()
        };
        assert_eq!(quadrant(0), [(-1, 1), (0, 1)].into());
        assert_eq!(quadrant(1), [(-1, -1), (-1, 0)].into());
        assert_eq!(quadrant(2), [(0, -1), (1, -1)].into());
        assert_eq!(quadrant(3), [(1, 0), (1, 1)].into());
        // The rulebook's examples.
        assert!(colour_dominoes(2).contains(&domino("R2D3")));
        assert!(colour_dominoes(0).contains(&domino("L1U4")));
        assert!(colour_dominoes(3).contains(&domino("R3")));
        for d in &all {
            assert_eq!(parse_domino(&d.to_string()), Some(*d));
        }
    }

    #[test]
    fn a_seed_draws_a_valid_rack_and_the_text_round_trips() {
        let game = Wyx::with_rack(Wyx::rack_from_seed(7), false);
        let text = game.public_setup().unwrap();
        assert_eq!(Wyx::parse_rack(&text), Ok(game.rack));
        assert_ne!(Wyx::rack_from_seed(8), game.rack);
        assert!(Wyx::parse_rack(&text.replacen("U1", "U2", 1)).is_err());
    }

    fn square(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    /// A game whose column `c` (from 0) has `foot` as its next domino.
    fn with_feet(feet: &[(usize, &str)]) -> Wyx {
        let mut game = Wyx::with_rack(Wyx::rack_from_seed(1), false);
        for &(column, text) in feet {
            game.rack[column][0] = domino(text);
        }
        game
    }

    fn reason(game: &Wyx, column: u8) -> String {
        game.check(&Move::Column(column)).unwrap_err().reason
    }

    fn put(game: &mut Wyx, colour: usize, name: &str, n: u8) {
        let sq = square(name);
        game.pawns[colour] |= sq.mask();
        game.count[sq.0 as usize] = n;
        game.supply[colour] -= n;
    }

    #[test]
    fn forbidden_columns_say_why() {
        // White's knight on d4, black's on e5.
        let mut game = with_feet(&[(0, "L4U1"), (1, "R1U1"), (2, "L4D3"), (3, "L2D3")]);
        assert!(reason(&game, 0).contains("L4U1 from d4 leaves the board"));
        assert!(reason(&game, 1).contains("other knight"));
        assert!(reason(&game, 2).contains("leaves the board"));
        // b1 is ordinary; put pawns on the strong square a5 and aim there.
        game.rack[0][0] = domino("L3U1");
        put(&mut game, 1, "a5", 2);
        assert!(reason(&game, 0).contains("strong square already holding pawns"));
        assert!(game.check(&Move::Column(3)).is_ok());
    }

    #[test]
    fn an_ordinary_square_pawn_is_captured_even_ones_own() {
        let mut game = with_feet(&[(0, "R1")]);
        put(&mut game, 1, "e4", 1);
        game.try_play(&Move::Column(0)).unwrap();
        assert_eq!(
            game.supply,
            [PAWNS - 1, PAWNS],
            "black's pawn went home, white's is placed"
        );
        assert_eq!(game.knights[0], square("e4"));
        assert!(
            game.pawns[0] & square("e4").mask() != 0 && game.pawns[1] & square("e4").mask() == 0
        );
        // Own pawn: captured and replaced.
        let mut own = with_feet(&[(0, "R1")]);
        put(&mut own, 0, "e4", 1);
        own.try_play(&Move::Column(0)).unwrap();
        assert_eq!(own.supply[0], PAWNS - 1);
    }

    #[test]
    fn strong_squares_take_two_or_three_or_all_that_remain() {
        // d4 + L2D2 = b2, a 3-pawn square.
        let mut game = with_feet(&[(3, "L2D2")]);
        game.try_play(&Move::Column(3)).unwrap();
        assert_eq!(game.count[square("b2").0 as usize], 3);
        assert_eq!(game.supply[0], PAWNS - 3);
        let mut short = with_feet(&[(3, "L2D2")]);
        short.supply[0] = 2;
        short.try_play(&Move::Column(3)).unwrap();
        assert_eq!(
            (short.count[square("b2").0 as usize], short.supply[0]),
            (2, 0)
        );
        // White has all 32 on the board: the game ends, and white has more.
        assert_eq!(short.outcome(), Outcome::Winners(vec![0]));
    }

    #[test]
    fn pass_only_without_a_legal_column() {
        let mut game = with_feet(&[]);
        assert!(reason_pass(&game).contains("only without a legal column"));
        // Put white's knight in the corner a8 with only left/up feet: nothing is legal for white.
        game.knights[0] = square("a8");
        for c in 0..COLUMNS {
            game.rack[c][0] = domino("L1U1");
        }
        assert_eq!(game.check(&Move::Pass), Ok(()));
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        assert_eq!(moves, [Move::Pass]);
    }

    fn reason_pass(game: &Wyx) -> String {
        game.check(&Move::Pass).unwrap_err().reason
    }

    #[test]
    fn the_game_ends_when_no_column_serves_either_player_or_the_rack_is_empty() {
        let mut game = with_feet(&[]);
        game.knights = [square("a8"), square("h8")];
        // Every foot jumps up, off the top rank, except white's first: a8 to b8.
        for c in 0..COLUMNS {
            game.rack[c][0] = domino("U1");
            game.rack[c][1] = domino("U1");
        }
        game.rack[1][0] = domino("R1");
        assert_eq!(game.to_move(), Some(Actor::Seat(0)));
        game.try_play(&Move::Column(1)).unwrap();
        assert_eq!(
            game.to_move(),
            None,
            "no column for black on h8 nor white on b8"
        );
        assert_eq!(
            game.outcome(),
            Outcome::Winners(vec![0]),
            "one pawn to none"
        );
        let mut empty = with_feet(&[]);
        empty.taken = [8, 8, 8, 8, 8, 8, 8, 7];
        empty.rack[7][7] = domino("R1");
        empty.try_play(&Move::Column(7)).unwrap();
        assert_eq!(empty.to_move(), None, "all 64 dominoes taken");
    }

    #[test]
    fn double_wyx_plays_a_second_round_with_colours_swapped_and_adds_them() {
        let mut game = with_feet(&[(3, "L2D2")]);
        game.double = true;
        game.supply[0] = 3;
        game.try_play(&Move::Column(3)).unwrap();
        // White (seat 0) placed all its pawns: round 1 is over with 32 to 0, round 2 begins.
        assert_eq!(game.round, 1);
        assert_eq!(game.first_round, [32, 0]);
        assert_eq!(
            game.to_move(),
            Some(Actor::Seat(1)),
            "seat 1 plays white and starts"
        );
        assert_eq!(game.taken, [0; COLUMNS], "the same initial rack");
        assert_eq!(game.scores(), [32, 0]);
        game.try_play(&Move::Column(3)).unwrap();
        assert_eq!(
            game.scores(),
            [32, 3],
            "seat 1's white pawns count for seat 1"
        );
    }
}
