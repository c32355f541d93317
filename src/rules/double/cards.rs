//! DOUBLE's cards: the 72-card table (faces, kinds, penalty values), cards as laid, the two ends
//! of the snake, and the card notation `c31:RYB`.

use std::fmt;

use crate::rules::game::ParseMoveError;

/// Normal three-colour faces, three adjacent copies each: c01..c36.
const NORMAL_THREE: [&str; 12] = [
    "BYG", "YBG", "YGB", "BRG", "RBG", "RGB", "YRG", "RYG", "RGY", "YRB", "RYB", "RBY",
];
/// Normal two-colour faces, one copy each: c37..c48; then the extra copies c49..c52.
const NORMAL_TWO: [&str; 12] = [
    "RYR", "RBR", "RGR", "YRY", "YBY", "YGY", "BRB", "BYB", "BGB", "GRG", "GYG", "GBG",
];
const NORMAL_EXTRA: [&str; 4] = ["RYR", "YBY", "BGB", "GRG"];
/// WILD cards c53..c56 (value 7), +1 cards c57..c60 (value 6).
const WILD: [&str; 4] = ["JRY", "JYB", "JBG", "JGR"];
const PLUS_ONE: [&str; 4] = ["RYB", "YBG", "BGR", "GRY"];
/// Hatched-middle faces, two adjacent copies each: c61..c72, values 1 1 2 2 ... 6 6.
const HATCHED: [&str; 6] = ["RHY", "RHB", "RHG", "YHB", "YHG", "BHG"];
/// Value of each WILD and +1 card.
const WILD_VALUE: u8 = 7;
const PLUS_ONE_VALUE: u8 = 6;
/// Cards in the deck.
pub(crate) const DECK: usize = 72;

/// What a card does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Normal,
    Wild,
    PlusOne,
    Hatched,
}

/// One card of the table: its printed sectors, kind and penalty value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CardInfo {
    pub(crate) face: [u8; 3],
    pub(crate) kind: Kind,
    pub(crate) value: u8,
}

const fn face(text: &str) -> [u8; 3] {
    let b = text.as_bytes();
    [b[0], b[1], b[2]]
}

const fn card_table() -> [CardInfo; DECK] {
    let mut table = [CardInfo {
        face: [0; 3],
        kind: Kind::Normal,
        value: 0,
    }; DECK];
    let mut i = 0;
    while i < 52 {
        let face = if i < 36 {
            face(NORMAL_THREE[i / 3])
        } else if i < 48 {
            face(NORMAL_TWO[i - 36])
        } else {
            face(NORMAL_EXTRA[i - 48])
        };
        table[i] = CardInfo {
            face,
            kind: Kind::Normal,
            value: (i % 7) as u8 + 1,
        };
        i += 1;
    }
    while i < 56 {
        table[i] = CardInfo {
            face: face(WILD[i - 52]),
            kind: Kind::Wild,
            value: WILD_VALUE,
        };
        i += 1;
    }
    while i < 60 {
        table[i] = CardInfo {
            face: face(PLUS_ONE[i - 56]),
            kind: Kind::PlusOne,
            value: PLUS_ONE_VALUE,
        };
        i += 1;
    }
    while i < DECK {
        table[i] = CardInfo {
            face: face(HATCHED[(i - 60) / 2]),
            kind: Kind::Hatched,
            value: ((i - 60) / 2) as u8 + 1,
        };
        i += 1;
    }
    table
}

/// The 72 cards, `c01` first.
pub(crate) const CARDS: [CardInfo; DECK] = card_table();

/// A card, by its index 0..72 (`c01` is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(pub(crate) u8);

impl Card {
    /// Its index, 0 (`c01`) to 71 (`c72`).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub(crate) fn info(self) -> CardInfo {
        CARDS[self.0 as usize]
    }

    pub(crate) fn bit(self) -> u128 {
        1 << self.0
    }

    /// Its sectors as laid, left to right: as printed, or `turned` round. Each is a colour's
    /// letter (`R`, `Y`, `B`, `G`), `J` for a joker or `H` for a hatched sector.
    pub fn laid(self, turned: bool) -> [u8; 3] {
        let [a, b, c] = self.info().face;
        if turned { [c, b, a] } else { [a, b, c] }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{:02}", self.0 + 1)
    }
}

/// Sectors as text: `RYB`.
pub(crate) fn sectors(s: [u8; 3]) -> String {
    s.iter().map(|&b| b as char).collect()
}

/// Whether two sectors match: equal, or either is a joker or hatched.
pub(crate) fn matches(a: u8, b: u8) -> bool {
    a == b || a == b'J' || b == b'J' || a == b'H' || b == b'H'
}

/// An end of the snake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The left end.
    Left,
    /// The right end.
    Right,
}

impl Side {
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// A card as it lies on an end of the snake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Laid {
    /// The card.
    pub card: Card,
    /// Its sectors as they lie, left to right (see [`Card::laid`]).
    pub sectors: [u8; 3],
}

/// Reads `c31` or `c31:RYB` (the sectors as laid, either way round), `whole` being the move
/// text for the error.
pub(crate) fn parse_card(
    text: &str,
    whole: &str,
) -> Result<(Card, Option<[u8; 3]>), ParseMoveError> {
    let fail = |reason: String| ParseMoveError {
        text: whole.to_owned(),
        reason,
    };
    let (number, shown) = match text.split_once(':') {
        Some((n, s)) => (n, Some(s)),
        None => (text, None),
    };
    let n: usize = number
        .strip_prefix(['c', 'C'])
        .and_then(|n| n.parse().ok())
        .filter(|n| (1..=DECK).contains(n))
        .ok_or_else(|| fail(format!("`{number}` is not a card (c01 to c72)")))?;
    let card = Card((n - 1) as u8);
    let laid = match shown {
        None => None,
        Some(s) => {
            let s = s.to_ascii_uppercase();
            let bytes: [u8; 3] = s
                .as_bytes()
                .try_into()
                .map_err(|_| fail(format!("`{s}` is not three sectors")))?;
            if bytes != card.laid(false) && bytes != card.laid(true) {
                return Err(fail(format!(
                    "{card} is {}, which laid either way is not {s}",
                    sectors(card.laid(false))
                )));
            }
            Some(bytes)
        }
    };
    Ok((card, laid))
}
