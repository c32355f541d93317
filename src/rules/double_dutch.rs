//! Double Dutch for 2 or 3 seats: an opening placement each, then slides that drop a new piece.
//!
//! Cells `a1`..`g7` in 7 rows of 7 pointy-top hexagons, even rows shifted half a cell right; cell
//! (column c, row r, both from 0) is bit `7 * r + c`. Pieces are bitboards per seat plus the set of
//! flipped pieces, which block but never move.

use std::fmt::{self, Write as _};

use crate::rules::game::{
    Actor, Allowed, Game, IllegalMove, MoveSpace, Outcome, ParseMoveError, Seat, Setup, SetupError,
    Viewer, cell_pairs, check_setup,
};

/// Columns and rows.
const SIZE: u8 = 7;
/// Pieces in each seat's supply, by seat count.
const SUPPLY_TWO: u8 = 26;
const SUPPLY_THREE: u8 = 20;

/// The pieces each seat's supply starts with at a table of `seats`.
fn start_supply(seats: u8) -> u8 {
    if seats == 2 { SUPPLY_TWO } else { SUPPLY_THREE }
}
/// Seat names, in seat order.
const SEAT_NAMES: [&str; 3] = ["light", "dark", "red"];
/// Neighbour offsets (d column, d row) on rows with an even 1-based number (2, 4, 6; shifted right)
/// and on odd ones, in the order E, W, NE, NW, SE, SW.
const EVEN_ROW_STEPS: [(i8, i8); 6] = [(1, 0), (-1, 0), (1, 1), (0, 1), (1, -1), (0, -1)];
const ODD_ROW_STEPS: [(i8, i8); 6] = [(1, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (-1, -1)];
/// No cell, in the step table.
const NONE: u8 = u8::MAX;

const fn step_table() -> [[u8; 6]; 49] {
    let mut table = [[NONE; 6]; 49];
    let mut cell = 0;
    while cell < 49 {
        let (c, r) = ((cell % 7) as i8, (cell / 7) as i8);
        // Row r (from 0) is the 1-based row r + 1: odd r means an even row number.
        let steps = if r % 2 == 1 {
            EVEN_ROW_STEPS
        } else {
            ODD_ROW_STEPS
        };
        let mut d = 0;
        while d < 6 {
            let (nc, nr) = (c + steps[d].0, r + steps[d].1);
            if nc >= 0 && nc < SIZE as i8 && nr >= 0 && nr < SIZE as i8 {
                table[cell][d] = (nr * 7 + nc) as u8;
            }
            d += 1;
        }
        cell += 1;
    }
    table
}

/// The next cell in each direction from each cell.
const STEPS: [[u8; 6]; 49] = step_table();

/// A cell, as its bit index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell(u8);

impl Cell {
    /// Every cell, row by row from a1.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..SIZE * SIZE).map(Cell)
    }

    /// Its column, from 0 (a).
    pub fn column(self) -> u8 {
        self.0 % SIZE
    }

    /// Its row, from 0 (1).
    pub fn row(self) -> u8 {
        self.0 / SIZE
    }

    fn mask(self) -> u64 {
        1 << self.0
    }

    fn step(self, direction: usize) -> Option<Cell> {
        let next = STEPS[self.0 as usize][direction];
        (next != NONE).then_some(Cell(next))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char((b'a' + self.0 % SIZE) as char)?;
        f.write_char((b'1' + self.0 / SIZE) as char)
    }
}

fn cells(set: u64) -> impl Iterator<Item = Cell> {
    super::game::bits(set).map(Cell)
}

/// One Double Dutch ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// An opening placement.
    Place(Cell),
    /// A slide from `from` to its forced end `to`, dropping a new piece on the first cell crossed.
    Slide {
        /// The sliding piece.
        from: Cell,
        /// Where the slide ends.
        to: Cell,
    },
    /// No legal move.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(cell) => write!(f, "{cell}"),
            Move::Slide { from, to } => write!(f, "{from}{to}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// A slide: its end, the first cell crossed, and its length in cells.
struct Slide {
    to: Cell,
    first: Cell,
    length: u8,
}

/// A Double Dutch position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DoubleDutch {
    seats: u8,
    /// Each seat's pieces on the board.
    pieces: [u64; 3],
    /// Pieces flipped round side down: they never move again.
    flipped: u64,
    supply: [u8; 3],
    ply: u16,
    to_move: u8,
    last_regular: Option<u8>,
    over: bool,
}

impl DoubleDutch {
    /// The empty board for `seats` (2 or 3) seats.
    pub fn start(seats: u8) -> DoubleDutch {
        let supply = start_supply(seats);
        DoubleDutch {
            seats,
            pieces: [0; 3],
            flipped: 0,
            supply: [supply, supply, if seats == 3 { supply } else { 0 }],
            ply: 0,
            to_move: 0,
            last_regular: None,
            over: false,
        }
    }

    fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1] | self.pieces[2]
    }

    fn opening(&self) -> bool {
        self.ply < u16::from(self.seats)
    }

    /// Where a piece on `from` slides in `direction`, if it covers at least two cells.
    fn slide(&self, from: Cell, direction: usize) -> Option<Slide> {
        let occupied = self.occupied();
        let first = from.step(direction).filter(|c| occupied & c.mask() == 0)?;
        let (mut to, mut length) = (first, 1);
        while let Some(next) = to.step(direction).filter(|c| occupied & c.mask() == 0) {
            to = next;
            length += 1;
        }
        (length >= 2).then_some(Slide { to, first, length })
    }

    /// Calls `found` with each regular move of `seat` until it returns `true`.
    fn each_slide(&self, seat: u8, mut found: impl FnMut(Cell, Cell) -> bool) -> bool {
        if self.supply[seat as usize] == 0 {
            return false;
        }
        for from in cells(self.pieces[seat as usize] & !self.flipped) {
            for direction in 0..6 {
                if let Some(slide) = self.slide(from, direction)
                    && found(from, slide.to)
                {
                    return true;
                }
            }
        }
        false
    }

    /// How many regular moves `seat` would have if it were to move (for evaluations).
    pub fn slide_count(&self, seat: usize) -> usize {
        let mut count = 0;
        self.each_slide(seat as u8, |_, _| {
            count += 1;
            false
        });
        count
    }

    fn can_slide(&self, seat: u8) -> bool {
        self.each_slide(seat, |_, _| true)
    }

    /// The slide from `from` that ends on `to`, if there is one.
    fn slide_to(&self, from: Cell, to: Cell) -> Option<Slide> {
        (0..6)
            .filter_map(|d| self.slide(from, d))
            .find(|slide| slide.to == to)
    }

    fn illegal(mv: &Move, reason: impl Into<String>) -> IllegalMove {
        IllegalMove {
            text: mv.to_string(),
            reason: reason.into(),
        }
    }

    fn seat_name(seat: u8) -> &'static str {
        SEAT_NAMES[seat as usize]
    }

    fn check_slide(&self, mv: &Move, from: Cell, to: Cell) -> Result<(), IllegalMove> {
        let seat = self.to_move as usize;
        if self.pieces[seat] & from.mask() == 0 {
            return Err(Self::illegal(
                mv,
                format!("no {} piece on {from}", Self::seat_name(self.to_move)),
            ));
        }
        if self.flipped & from.mask() != 0 {
            return Err(Self::illegal(
                mv,
                format!("the piece on {from} is flipped and never moves"),
            ));
        }
        if self.supply[seat] == 0 {
            return Err(Self::illegal(
                mv,
                "no pieces left in supply to place after the slide",
            ));
        }
        if self.slide_to(from, to).is_some() {
            return Ok(());
        }
        let ends: Vec<String> = (0..6)
            .filter_map(|d| self.slide(from, d))
            .map(|s| s.to.to_string())
            .collect();
        let reason = if ends.is_empty() {
            format!("the piece on {from} cannot slide two cells in any direction")
        } else {
            format!(
                "a slide from {from} must go as far as it can and cover two cells: it can end on {}",
                ends.join(", ")
            )
        };
        Err(Self::illegal(mv, reason))
    }

    /// After a ply: the next seat in turn, and the end when no seat has a regular move.
    fn advance(&mut self) {
        self.ply += 1;
        self.to_move = (self.to_move + 1) % self.seats;
        if !self.opening() {
            self.over = !(0..self.seats).any(|s| self.can_slide(s));
        }
    }

    fn piece_text(&self, cell: Cell) -> char {
        let seat = (0..3).find(|&s| self.pieces[s] & cell.mask() != 0);
        let flipped = self.flipped & cell.mask() != 0;
        match (seat, flipped) {
            (None, _) => '.',
            (Some(s), false) => ['L', 'D', 'R'][s],
            (Some(s), true) => ['l', 'd', 'r'][s],
        }
    }
}

fn parse_cell(text: &str, whole: &str) -> Result<Cell, ParseMoveError> {
    let fail = |reason: String| ParseMoveError {
        text: whole.to_owned(),
        reason,
    };
    let [column, row] = text.as_bytes() else {
        return Err(fail(format!("`{text}` is not a cell")));
    };
    let c = column.to_ascii_lowercase().wrapping_sub(b'a');
    let r = row.wrapping_sub(b'1');
    if c < SIZE && r < SIZE {
        Ok(Cell(r * SIZE + c))
    } else {
        Err(fail(format!(
            "`{text}` is not a cell (columns a-g, rows 1-7)"
        )))
    }
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its seat.
    pub seat: Seat,
    /// Flipped round side down: it never moves again.
    pub flipped: bool,
}

impl DoubleDutch {
    /// The piece on `cell`, if any.
    pub fn piece(&self, cell: Cell) -> Option<Piece> {
        let mask = cell.mask();
        (0..3)
            .find(|&s| self.pieces[s] & mask != 0)
            .map(|seat| Piece {
                seat,
                flipped: self.flipped & mask != 0,
            })
    }

    /// The pieces left in `seat`'s supply (0 for a seat that is not in the game), and how many
    /// each seat's supply starts with.
    pub fn supply(&self, seat: Seat) -> (u8, u8) {
        let left = self.supply.get(seat).copied().unwrap_or(0);
        (left, start_supply(self.seats))
    }
}

impl DoubleDutch {
    /// The variants and seat counts it allows.
    pub const ALLOWED: Allowed = Allowed {
        game: "double-dutch",
        variants: &[],
        seats: &[2, 3],
        seats_in_words: "2 or 3",
    };
}

impl Game for DoubleDutch {
    type Move = Move;

    fn move_space(&self) -> MoveSpace<Move> {
        let places = Cell::all().map(Move::Place);
        let slides = cell_pairs(Cell::all())
            .into_iter()
            .map(|(from, to)| Move::Slide { from, to });
        let seats = places.chain(slides).chain([Move::Pass]).collect();
        MoveSpace::new(seats, Vec::new())
    }

    /// Every ply but a pass places a piece: an opening placement each, then one from a supply.
    /// A seat passes only while another can move, so fewer than `seats` passes come in a row.
    fn max_plies(&self) -> usize {
        let seats = usize::from(self.seats);
        let placing = seats * usize::from(start_supply(self.seats));
        placing + (placing + 1) * (seats - 1)
    }

    fn new(setup: &Setup) -> Result<Self, SetupError> {
        crate::rules::game::refuse_layout("double-dutch", setup)?;
        let (_, seats) = check_setup(setup, &Self::ALLOWED)?;
        Ok(DoubleDutch::start(seats as u8))
    }

    fn id(&self) -> &'static str {
        "double-dutch"
    }

    fn variant(&self) -> Option<&'static str> {
        None
    }

    fn seats(&self) -> usize {
        self.seats.into()
    }

    fn seat_colour(&self, seat: Seat) -> Option<&'static str> {
        SEAT_NAMES
            .get(seat)
            .copied()
            .filter(|_| seat < self.seats())
    }

    fn ply(&self) -> usize {
        self.ply.into()
    }

    fn to_move(&self) -> Option<Actor> {
        (!self.over).then_some(Actor::Seat(self.to_move.into()))
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let trimmed = text.trim();
        if trimmed.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let shape = || ParseMoveError {
            text: text.to_owned(),
            reason: "a move is a cell like d4, a slide like d4g4, or pass".to_owned(),
        };
        if !trimmed.is_ascii() {
            return Err(shape());
        }
        match trimmed.len() {
            2 => Ok(Move::Place(parse_cell(trimmed, text)?)),
            4 => Ok(Move::Slide {
                from: parse_cell(&trimmed[..2], text)?,
                to: parse_cell(&trimmed[2..], text)?,
            }),
            _ => Err(shape()),
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.over {
            return;
        }
        if self.opening() {
            out.extend(cells(!self.occupied() & ((1 << 49) - 1)).map(Move::Place));
            return;
        }
        let before = out.len();
        self.each_slide(self.to_move, |from, to| {
            out.push(Move::Slide { from, to });
            false
        });
        if out.len() == before {
            out.push(Move::Pass);
        }
    }

    fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        if self.over {
            return Err(Self::illegal(mv, "the game is over"));
        }
        match *mv {
            Move::Place(cell) if self.opening() => {
                if self.occupied() & cell.mask() != 0 {
                    return Err(Self::illegal(mv, format!("{cell} is occupied")));
                }
                Ok(())
            }
            Move::Place(_) => Err(Self::illegal(
                mv,
                "the opening placements are over; slide a piece (like d4g4)",
            )),
            _ if self.opening() => Err(Self::illegal(
                mv,
                "opening: place a piece on an empty cell; an opening placement cannot be passed",
            )),
            Move::Slide { from, to } => self.check_slide(mv, from, to),
            Move::Pass if self.can_slide(self.to_move) => Err(Self::illegal(
                mv,
                "pass is allowed only without a legal move",
            )),
            Move::Pass => Ok(()),
        }
    }

    fn play_unchecked(&mut self, mv: &Move) {
        let seat = self.to_move as usize;
        match *mv {
            Move::Place(cell) => {
                self.pieces[seat] |= cell.mask();
                self.supply[seat] -= 1;
            }
            Move::Slide { from, to } => {
                let slide = self.slide_to(from, to).expect("a checked slide exists");
                self.pieces[seat] = (self.pieces[seat] & !from.mask()) | to.mask();
                if slide.length >= 3 {
                    self.flipped |= to.mask();
                }
                self.pieces[seat] |= slide.first.mask();
                self.supply[seat] -= 1;
                self.last_regular = Some(self.to_move);
            }
            Move::Pass => {}
        }
        self.advance();
    }

    fn scores(&self) -> Vec<i64> {
        (0..self.seats as usize)
            .map(|s| i64::from(self.pieces[s].count_ones()))
            .collect()
    }

    fn outcome(&self) -> Outcome {
        match (self.over, self.last_regular) {
            (false, _) => Outcome::Ongoing,
            (true, Some(seat)) => Outcome::from_winners(vec![seat.into()], self.seats()),
            // Nobody ever made a regular move: nobody made the last one.
            (true, None) => Outcome::Draw,
        }
    }

    fn render(&self, _viewer: Viewer) -> String {
        let mut text = String::new();
        let status = match self.to_move() {
            None => format!("game over, {}", self.outcome()),
            Some(_) if self.opening() => format!("{} to place", Self::seat_name(self.to_move)),
            Some(_) => format!("{} to move", Self::seat_name(self.to_move)),
        };
        let _ = writeln!(text, "double-dutch ply {}: {status}", self.ply);
        for row in (0..SIZE).rev() {
            let indent = if row % 2 == 1 { "  " } else { "" };
            let _ = write!(text, "{} {indent}", row + 1);
            for column in 0..SIZE {
                let _ = write!(text, " {:<3}", self.piece_text(Cell(row * SIZE + column)));
            }
            text.truncate(text.trim_end().len());
            text.push('\n');
        }
        let _ = writeln!(
            text,
            "    a   b   c   d   e   f   g   (upper case flat, lower case flipped)"
        );
        let parts: Vec<String> = (0..self.seats)
            .map(|s| {
                format!(
                    "{} {} on board, {} in supply",
                    Self::seat_name(s),
                    self.pieces[s as usize].count_ones(),
                    self.supply[s as usize]
                )
            })
            .collect();
        text.push_str(&parts.join("; "));
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(seats: u8, moves: &str) -> DoubleDutch {
        let mut game = DoubleDutch::start(seats);
        for text in moves.split_whitespace() {
            let mv = game.parse_move(text).unwrap();
            game.try_play(&mv).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
        game
    }

    fn cell(name: &str) -> Cell {
        parse_cell(name, name).unwrap()
    }

    #[test]
    fn neighbours_follow_the_offset_rows() {
        let neighbours = |name: &str| {
            let mut names: Vec<String> = (0..6)
                .filter_map(|d| cell(name).step(d))
                .map(|c| c.to_string())
                .collect();
            names.sort();
            names.join(" ")
        };
        // The rules file's example.
        assert_eq!(neighbours("d4"), "c4 d3 d5 e3 e4 e5");
        assert_eq!(neighbours("d3"), "c2 c3 c4 d2 d4 e3");
        assert_eq!(neighbours("a1"), "a2 b1");
        assert_eq!(neighbours("g2"), "f2 g1 g3");
    }

    #[test]
    fn a_slide_goes_to_the_end_and_drops_a_piece_on_the_first_cell() {
        // Light on a1, dark on g1: light slides east from a1 and must stop on f1.
        let mut g = game(2, "a1 g1");
        let err = g.check(&g.parse_move("a1d1").unwrap()).unwrap_err();
        assert!(
            err.reason.contains("must go as far as it can"),
            "{}",
            err.reason
        );
        g.try_play(&g.parse_move("a1f1").unwrap()).unwrap();
        assert_eq!(g.piece_text(cell("f1")), 'l', "five cells: flipped");
        assert_eq!(
            g.piece_text(cell("b1")),
            'L',
            "the new piece on the first cell crossed"
        );
        assert_eq!(g.piece_text(cell("a1")), '.');
        assert_eq!(g.supply[0], SUPPLY_TWO - 2);
    }

    #[test]
    fn exactly_two_cells_keeps_the_piece_flat_and_one_is_not_a_move() {
        // Dark on d1 blocks: light's a1 slides east over b1, c1 and stays flat on c1.
        let mut g = game(2, "a1 d1");
        g.try_play(&g.parse_move("a1c1").unwrap()).unwrap();
        assert_eq!(g.piece_text(cell("c1")), 'L');
        // Now b1 holds light, c1 light, d1 dark: b1 cannot slide east (c1 is next to it).
        let east_from_b1 = g.slide(cell("b1"), 0);
        assert!(east_from_b1.is_none());
    }

    #[test]
    fn flipped_pieces_block_but_never_move() {
        let mut g = game(2, "a1 g7");
        g.try_play(&g.parse_move("a1g1").unwrap()).unwrap();
        g.try_play(&g.parse_move("g7a7").unwrap()).unwrap();
        let err = g.check(&g.parse_move("g1g3").unwrap()).unwrap_err();
        assert!(err.reason.contains("flipped"), "{}", err.reason);
    }

    #[test]
    fn three_seats_take_turns_and_the_last_regular_mover_wins() {
        let g = game(3, "a1 c1 e1");
        assert_eq!(g.to_move(), Some(Actor::Seat(0)));
        assert_eq!(g.supply, [SUPPLY_THREE - 1; 3]);
        let err = g.check(&Move::Pass).unwrap_err();
        assert!(err.reason.contains("only without a legal move"));
    }

    #[test]
    fn a_seat_without_supply_passes_and_pass_is_its_only_move() {
        let mut g = game(2, "a1 g7");
        g.supply[0] = 0;
        assert!(!g.can_slide(0), "a move must end with a placement");
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert_eq!(moves, [Move::Pass]);
        let err = g.check(&g.parse_move("a1f1").unwrap()).unwrap_err();
        assert!(
            err.reason.contains("no pieces left in supply"),
            "{}",
            err.reason
        );
        g.try_play(&Move::Pass).unwrap();
        assert_eq!(g.to_move(), Some(Actor::Seat(1)), "dark can still slide");
    }

    #[test]
    fn the_game_ends_when_nobody_can_slide_and_the_last_slider_wins() {
        // Dark has a single flat piece left and no supply beyond one piece; light has none.
        let mut g = game(2, "a1 c1");
        g.supply = [0, 1, 0];
        g.to_move = 1;
        // Dark slides c1 east to g1 (4 cells: flipped); it drops its last piece on d1.
        g.try_play(&g.parse_move("c1g1").unwrap()).unwrap();
        assert_eq!(
            g.to_move(),
            None,
            "no seat has a regular move: the game ends at once"
        );
        assert_eq!(
            g.outcome(),
            Outcome::Winners(vec![1]),
            "dark made the last regular move"
        );
        assert_eq!(g.scores(), [1, 2]);
    }
}
