//! DVONN in the CodeCup 2011 notation: placement, stack moves, the DVONN-contact rule, scoring.
//!
//! The board lives in `u64` bitboards with cell (X, Y) at bit `11 * Y + X`: one neighbour direction
//! is then one shift, and the contact rule is a flood fill of shifts from the DVONN pieces.
//! Only the top piece of a stack and whether it holds a DVONN piece ever matter to the rules, so
//! a stack is its height, its top colour and its DVONN flag.

use std::fmt::{self, Write as _};

use crate::rules::game::{
    Actor, Allowed, Game, IllegalMove, MoveSpace, Outcome, ParseMoveError, Seat, Setup, SetupError,
    Viewer, cell_pairs, check_setup,
};

/// For each row Y (row digit Y + 1), the first and last column X.
const ROWS: [(u8, u8); 5] = [(0, 8), (0, 9), (0, 10), (1, 10), (2, 10)];
/// The six neighbour directions (dX, dY); (+1,-1) and (-1,+1) are not neighbours.
const DIRECTIONS: [(i8, i8); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];
/// Columns and rows of the bit layout.
const WIDTH: u8 = 11;
const HEIGHT: u8 = 5;
/// Placements before the movement phase; the first three place the DVONN pieces.
const PLACEMENTS: u16 = 49;
const DVONN_PLACEMENTS: u16 = 3;

const fn bit(x: u8, y: u8) -> u64 {
    1 << (y * WIDTH + x)
}

const fn board_mask() -> u64 {
    let mut mask = 0;
    let mut y = 0;
    while y < HEIGHT {
        let mut x = ROWS[y as usize].0;
        while x <= ROWS[y as usize].1 {
            mask |= bit(x, y);
            x += 1;
        }
        y += 1;
    }
    mask
}

const fn column_mask(x: u8) -> u64 {
    let mut mask = 0;
    let mut y = 0;
    while y < HEIGHT {
        mask |= bit(x, y);
        y += 1;
    }
    mask
}

/// Every cell of the board.
const BOARD: u64 = board_mask();
/// Shifts that raise X must not wrap into column 0, those that lower it not into column 10.
const NOT_FIRST_COLUMN: u64 = BOARD & !column_mask(0);
const NOT_LAST_COLUMN: u64 = BOARD & !column_mask(WIDTH - 1);

/// The cells next to any cell of `cells`, by one shift per direction.
const fn spread(cells: u64) -> u64 {
    let w = WIDTH as u32;
    ((cells << 1) & NOT_FIRST_COLUMN)
        | ((cells >> 1) & NOT_LAST_COLUMN)
        | ((cells << w) & BOARD)
        | ((cells >> w) & BOARD)
        | ((cells << (w + 1)) & NOT_FIRST_COLUMN)
        | ((cells >> (w + 1)) & NOT_LAST_COLUMN)
}

const fn neighbour_table() -> [u64; 64] {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 64 {
        if BOARD & (1 << i) != 0 {
            table[i] = spread(1 << i);
        }
        i += 1;
    }
    table
}

/// The neighbours of each cell.
const NEIGHBOURS: [u64; 64] = neighbour_table();

/// A cell of the board, as its bit index `11 * Y + X`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at column `x`, row `y` (both from 0), if it is on the board.
    pub fn new(x: u8, y: u8) -> Option<Cell> {
        (x < WIDTH && y < HEIGHT && BOARD & bit(x, y) != 0).then(|| Cell(y * WIDTH + x))
    }

    /// Its column, from 0 (A).
    pub fn x(self) -> u8 {
        self.0 % WIDTH
    }

    /// Its row, from 0 (1).
    pub fn y(self) -> u8 {
        self.0 / WIDTH
    }

    fn mask(self) -> u64 {
        1 << self.0
    }

    /// Its bit in [`Bits`]' sets.
    pub fn bit(self) -> u64 {
        self.mask()
    }

    /// Every cell, row by row from A1.
    pub fn all() -> impl Iterator<Item = Cell> {
        cells(BOARD)
    }

    /// Its neighbours on the board: six, or fewer at the edge.
    pub fn neighbours(self) -> impl Iterator<Item = Cell> {
        cells(NEIGHBOURS[self.0 as usize])
    }

    /// The fewest steps between it and `other` along the board's lines.
    pub fn distance(self, other: Cell) -> u8 {
        // The lines are x, y and x = y: a step changes x, y or both by one, the same way.
        let dx = i16::from(other.x()) - i16::from(self.x());
        let dy = i16::from(other.y()) - i16::from(self.y());
        let steps = if dx.signum() * dy.signum() >= 0 {
            dx.abs().max(dy.abs())
        } else {
            dx.abs() + dy.abs()
        };
        steps as u8
    }

    /// The cell `distance` steps away in direction `(dx, dy)`, if it is on the board.
    fn step(self, (dx, dy): (i8, i8), distance: u8) -> Option<Cell> {
        let x = self.x() as i32 + dx as i32 * distance as i32;
        let y = self.y() as i32 + dy as i32 * distance as i32;
        let x = u8::try_from(x).ok()?;
        let y = u8::try_from(y).ok()?;
        Cell::new(x, y)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char((b'A' + self.x()) as char)?;
        f.write_char((b'1' + self.y()) as char)
    }
}

/// The cells of a bitboard, lowest bit first.
fn cells(set: u64) -> impl Iterator<Item = Cell> {
    super::game::bits(set).map(Cell)
}

/// One DVONN ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put the next piece on an empty cell.
    Place(Cell),
    /// Move the stack on `from` onto the stack on `to`.
    Step {
        /// The moving stack.
        from: Cell,
        /// The stack it lands on.
        to: Cell,
    },
    /// No legal move: the turn passes.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(cell) => write!(f, "{cell}"),
            Move::Step { from, to } => write!(f, "{from}{to}"),
            Move::Pass => f.write_str("PASS"),
        }
    }
}

/// The two colours; seat 0 is White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Colour {
    White = 0,
    Black = 1,
}

impl Colour {
    fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }
}

/// A DVONN position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dvonn {
    occupied: u64,
    /// Stacks topped by each colour, indexed by `Colour`; the rest of `occupied` are lone DVONN pieces.
    tops: [u64; 2],
    /// Stacks holding a DVONN piece.
    dvonn: u64,
    height: [u8; 64],
    ply: u16,
    to_move: Colour,
    over: bool,
    removed_by_last_move: u8,
}

impl Dvonn {
    /// The empty board, White to place the first DVONN piece.
    pub fn start() -> Dvonn {
        Dvonn {
            occupied: 0,
            tops: [0; 2],
            dvonn: 0,
            height: [0; 64],
            ply: 0,
            to_move: Colour::White,
            over: false,
            removed_by_last_move: 0,
        }
    }

    /// Pieces removed by the DVONN-contact rule after the last ply.
    pub fn removed_by_last_move(&self) -> u32 {
        self.removed_by_last_move.into()
    }

    /// Whether pieces are still being placed (the first 49 plies).
    pub fn placing(&self) -> bool {
        self.ply < PLACEMENTS
    }

    /// Stacks that may not move because all six neighbours exist and are occupied.
    fn surrounded(&self, cell: Cell) -> bool {
        let around = NEIGHBOURS[cell.0 as usize];
        around.count_ones() == 6 && self.occupied & around == around
    }

    /// Calls `found` with every stack move of `colour` until it returns `true`.
    fn each_step(&self, colour: Colour, mut found: impl FnMut(Cell, Cell) -> bool) -> bool {
        for from in cells(self.tops[colour as usize]) {
            if self.surrounded(from) {
                continue;
            }
            let distance = self.height[from.0 as usize];
            for direction in DIRECTIONS {
                if let Some(to) = from.step(direction, distance)
                    && self.occupied & to.mask() != 0
                    && found(from, to)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Calls `found` with every stack move `seat` would have if it were to move (for
    /// evaluations): the cell it leaves and the cell it lands on.
    pub fn each_stack_move(&self, seat: Seat, mut found: impl FnMut(Cell, Cell)) {
        let colour = if seat == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        self.each_step(colour, |from, to| {
            found(from, to);
            false
        });
    }

    fn has_step(&self, colour: Colour) -> bool {
        self.each_step(colour, |_, _| true)
    }

    /// The seat to act after a movement-phase ply by `mover`, or none when neither can move.
    fn settle_turn(&mut self, next: Colour) {
        self.to_move = next;
        self.over = !self.has_step(next) && !self.has_step(next.other());
    }

    /// Removes every stack cut off from all DVONN pieces; returns how many pieces went.
    fn remove_isolated(&mut self) -> u32 {
        let mut alive = self.dvonn & self.occupied;
        loop {
            let grown = alive | (spread(alive) & self.occupied);
            if grown == alive {
                break;
            }
            alive = grown;
        }
        let dead = self.occupied & !alive;
        let mut removed = 0;
        for cell in cells(dead) {
            removed += u32::from(std::mem::take(&mut self.height[cell.0 as usize]));
        }
        self.occupied &= alive;
        self.tops[0] &= alive;
        self.tops[1] &= alive;
        removed
    }

    fn illegal(mv: &Move, reason: impl Into<String>) -> IllegalMove {
        IllegalMove {
            text: mv.to_string(),
            reason: reason.into(),
        }
    }

    fn check_step(&self, mv: &Move, from: Cell, to: Cell) -> Result<(), IllegalMove> {
        let mover = self.to_move;
        let height = self.height[from.0 as usize];
        if self.occupied & from.mask() == 0 {
            return Err(Self::illegal(mv, format!("there is no stack on {from}")));
        }
        if self.tops[mover as usize] & from.mask() == 0 {
            let whose = if self.tops[mover.other() as usize] & from.mask() != 0 {
                format!("the stack on {from} has a {} top", mover.other().name())
            } else {
                format!("{from} holds a lone DVONN piece, which never moves")
            };
            return Err(Self::illegal(mv, whose));
        }
        if self.surrounded(from) {
            return Err(Self::illegal(
                mv,
                format!("the stack on {from} is surrounded on all six sides"),
            ));
        }
        let dx = i16::from(to.x()) - i16::from(from.x());
        let dy = i16::from(to.y()) - i16::from(from.y());
        let distance = if dy == 0 || dx == 0 || dx == dy {
            dx.abs().max(dy.abs())
        } else {
            return Err(Self::illegal(
                mv,
                format!("{to} is not in a straight line from {from}"),
            ));
        };
        if distance != i16::from(height) {
            return Err(Self::illegal(
                mv,
                format!(
                    "the stack on {from} is {height} high and must move exactly that far, not {distance}"
                ),
            ));
        }
        if self.occupied & to.mask() == 0 {
            return Err(Self::illegal(mv, format!("{to} is empty")));
        }
        Ok(())
    }

    /// The board drawn with row 5 on top, each cell at horizontal position X - Y/2: a cell is six
    /// characters wide, so rows shift by three per half cell. Each row ends with its cell range.
    fn draw(&self) -> String {
        let mut text = String::new();
        for y in (0..HEIGHT).rev() {
            let (first, last) = ROWS[y as usize];
            let indent = 3 * (2 * usize::from(first) + 2 - usize::from(y));
            let mut row = format!("{}{:indent$}", y + 1, "");
            for x in first..=last {
                let _ = write!(row, " {:<5}", self.stack_text(Cell(y * WIDTH + x)));
            }
            let range = format!("{}-{}", Cell(y * WIDTH + first), Cell(y * WIDTH + last));
            let _ = writeln!(text, "{row:<70}{range}");
        }
        // Each letter under its column's cell of row 1 (J and K, which start higher, where it
        // would be): a column slants up to the left from there, half a cell a row.
        let mut letters = " ".repeat(3);
        for x in 0..WIDTH {
            let _ = write!(letters, "{:>6}", char::from(b'A' + x));
        }
        let _ = writeln!(text, "{letters}");
        text
    }

    /// `.` for an empty cell, else top colour (`W`, `B`, `D` for a lone DVONN piece), height and `*`
    /// when the stack holds a DVONN piece, as in the fixtures' `final_stacks`.
    fn stack_text(&self, cell: Cell) -> String {
        let index = cell.0 as usize;
        if self.occupied & cell.mask() == 0 {
            return ".".to_owned();
        }
        let top = if self.tops[0] & cell.mask() != 0 {
            'W'
        } else if self.tops[1] & cell.mask() != 0 {
            'B'
        } else {
            return "D1".to_owned();
        };
        let star = if self.dvonn & cell.mask() != 0 {
            "*"
        } else {
            ""
        };
        format!("{top}{}{star}", self.height[index])
    }

    /// Every stack as `CELL:TOPHEIGHT[*]`, in the fixtures' `final_stacks` form.
    pub fn stacks(&self) -> String {
        cells(self.occupied)
            .map(|cell| format!("{cell}:{}", self.stack_text(cell)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The cell a letter and a digit name (the letter in either case), if they name one.
fn quick_cell(letter: u8, digit: u8) -> Option<Cell> {
    if !letter.is_ascii_alphabetic() || !digit.is_ascii_digit() {
        return None;
    }
    Cell::new(letter.to_ascii_uppercase() - b'A', digit.wrapping_sub(b'1'))
}

fn parse_cell(text: &str, whole: &str) -> Result<Cell, ParseMoveError> {
    let bytes = text.as_bytes();
    let fail = |reason: String| ParseMoveError {
        text: whole.to_owned(),
        reason,
    };
    let [letter, digit] = bytes else {
        return Err(fail(format!("`{text}` is not a cell")));
    };
    if !letter.is_ascii_alphabetic() || !digit.is_ascii_digit() {
        return Err(fail(format!(
            "`{text}` is not a cell (a column A-K and a row 1-5)"
        )));
    }
    quick_cell(*letter, *digit)
        .ok_or_else(|| fail(format!("{} is not on the board", text.to_uppercase())))
}

/// What stands on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stack {
    /// Its pieces, 1 or more.
    pub height: u8,
    /// The seat its top piece belongs to (0: White), or `None` when a DVONN piece is on top
    /// (then the stack is that one piece).
    pub top: Option<Seat>,
    /// Whether a DVONN piece is in it, on top or below.
    pub holds_dvonn: bool,
}

impl Dvonn {
    /// The stack on `cell`, if the cell is not empty.
    pub fn stack(&self, cell: Cell) -> Option<Stack> {
        let mask = cell.mask();
        (self.occupied & mask != 0).then(|| Stack {
            height: self.height[cell.0 as usize],
            top: (0..2).find(|&seat| self.tops[seat] & mask != 0),
            holds_dvonn: self.dvonn & mask != 0,
        })
    }
}

/// The board as sets of cells, one bit a cell (bit `11 * Y + X`, as [`Cell`] numbers them): for
/// evaluations that look at every stack at every position of a search.
#[derive(Clone, Copy, Debug)]
pub struct Bits {
    /// Cells with a stack.
    pub occupied: u64,
    /// Stacks topped by each seat's colour (0: White); the rest of `occupied` are lone DVONN pieces.
    pub tops: [u64; 2],
    /// Stacks holding a DVONN piece.
    pub dvonn: u64,
}

impl Bits {
    /// The cells next to any cell of `cells`.
    pub fn around(cells: u64) -> u64 {
        spread(cells)
    }
}

impl Dvonn {
    /// The board as bit sets.
    pub fn bits(&self) -> Bits {
        Bits {
            occupied: self.occupied,
            tops: self.tops,
            dvonn: self.dvonn,
        }
    }
}

impl Dvonn {
    /// The variants and seat counts it allows.
    pub const ALLOWED: Allowed = Allowed {
        game: "dvonn",
        variants: &[],
        seats: &[2],
        seats_in_words: "2",
    };
}

impl Game for Dvonn {
    type Move = Move;

    fn move_space(&self) -> MoveSpace<Move> {
        let places = Cell::all().map(Move::Place);
        let steps = cell_pairs(Cell::all())
            .into_iter()
            .map(|(from, to)| Move::Step { from, to });
        let seats = places.chain(steps).chain([Move::Pass]).collect();
        MoveSpace::new(seats, Vec::new())
    }

    /// 49 placements; each step joins two stacks, so at most 48 steps; a pass is followed by a
    /// step (when neither seat can step the game is over), so at most one pass before each step
    /// and one after the last.
    fn max_plies(&self) -> usize {
        let cells = usize::from(PLACEMENTS);
        cells + (cells - 1) + cells
    }

    fn new(setup: &Setup) -> Result<Self, SetupError> {
        crate::rules::game::refuse_layout("dvonn", setup)?;
        check_setup(setup, &Self::ALLOWED)?;
        Ok(Dvonn::start())
    }

    fn id(&self) -> &'static str {
        "dvonn"
    }

    fn variant(&self) -> Option<&'static str> {
        None
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_colour(&self, seat: Seat) -> Option<&'static str> {
        [Colour::White, Colour::Black].get(seat).map(|c| c.name())
    }

    fn ply(&self) -> usize {
        self.ply.into()
    }

    fn to_move(&self) -> Option<Actor> {
        (!self.over).then_some(Actor::Seat(self.to_move as usize))
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        // The usual text first (a record's moves are read by the thousand): one or two cells,
        // nothing to trim. Anything else, errors included, the long way.
        match *text.as_bytes() {
            [letter, digit] => {
                if let Some(cell) = quick_cell(letter, digit) {
                    return Ok(Move::Place(cell));
                }
            }
            [from_letter, from_digit, to_letter, to_digit] => {
                if let (Some(from), Some(to)) = (
                    quick_cell(from_letter, from_digit),
                    quick_cell(to_letter, to_digit),
                ) {
                    return Ok(Move::Step { from, to });
                }
            }
            _ => {}
        }
        let trimmed = text.trim();
        if trimmed.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        if !trimmed.is_ascii() {
            return Err(ParseMoveError {
                text: text.to_owned(),
                reason: "a move is a cell like D2, a stack move like B4E4, or PASS".to_owned(),
            });
        }
        match trimmed.len() {
            2 => Ok(Move::Place(parse_cell(trimmed, text)?)),
            4 => Ok(Move::Step {
                from: parse_cell(&trimmed[..2], text)?,
                to: parse_cell(&trimmed[2..], text)?,
            }),
            _ => Err(ParseMoveError {
                text: text.to_owned(),
                reason: "a move is a cell like D2, a stack move like B4E4, or PASS".to_owned(),
            }),
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.over {
            return;
        }
        if self.placing() {
            out.extend(cells(BOARD & !self.occupied).map(Move::Place));
            return;
        }
        let before = out.len();
        self.each_step(self.to_move, |from, to| {
            out.push(Move::Step { from, to });
            false
        });
        if out.len() == before {
            out.push(Move::Pass);
        }
    }

    fn count_legal(&self) -> usize {
        if self.over {
            return 0;
        }
        if self.placing() {
            return (BOARD & !self.occupied).count_ones() as usize;
        }
        let mut count = 0;
        self.each_step(self.to_move, |_, _| {
            count += 1;
            false
        });
        count.max(1)
    }

    fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        if self.over {
            return Err(Self::illegal(mv, "the game is over"));
        }
        match *mv {
            Move::Place(cell) if self.placing() => {
                if self.occupied & cell.mask() != 0 {
                    return Err(Self::illegal(mv, format!("{cell} is occupied")));
                }
                Ok(())
            }
            Move::Place(_) => Err(Self::illegal(
                mv,
                "all 49 pieces are placed; move a stack (like B4E4)",
            )),
            _ if self.placing() => Err(Self::illegal(
                mv,
                format!(
                    "placement {} of 49: place a piece on an empty cell",
                    self.ply + 1
                ),
            )),
            Move::Step { from, to } => self.check_step(mv, from, to),
            Move::Pass => match self.has_step(self.to_move) {
                true => Err(Self::illegal(
                    mv,
                    format!(
                        "PASS is allowed only without a legal move, and there are {}",
                        self.count_legal()
                    ),
                )),
                false => Ok(()),
            },
        }
    }

    fn play_unchecked(&mut self, mv: &Move) {
        let mover = self.to_move;
        self.removed_by_last_move = 0;
        match *mv {
            Move::Place(cell) => {
                self.occupied |= cell.mask();
                self.height[cell.0 as usize] = 1;
                if self.ply < DVONN_PLACEMENTS {
                    self.dvonn |= cell.mask();
                } else {
                    self.tops[mover as usize] |= cell.mask();
                }
                self.ply += 1;
                // White makes the last placement and then the first stack move.
                if self.ply == PLACEMENTS {
                    self.settle_turn(Colour::White);
                } else {
                    self.to_move = mover.other();
                }
            }
            Move::Step { from, to } => {
                let (f, t) = (from.0 as usize, to.0 as usize);
                self.height[t] += std::mem::take(&mut self.height[f]);
                self.occupied &= !from.mask();
                self.tops[0] &= !(from.mask() | to.mask());
                self.tops[1] &= !(from.mask() | to.mask());
                self.tops[mover as usize] |= to.mask();
                if self.dvonn & from.mask() != 0 {
                    self.dvonn = (self.dvonn & !from.mask()) | to.mask();
                }
                // At most 48 pieces can go at once, so the count fits a byte.
                self.removed_by_last_move = self.remove_isolated() as u8;
                self.ply += 1;
                self.settle_turn(mover.other());
            }
            Move::Pass => {
                self.ply += 1;
                self.settle_turn(mover.other());
            }
        }
    }

    fn scores(&self) -> Vec<i64> {
        self.tops
            .iter()
            .map(|&top| {
                cells(top)
                    .map(|c| i64::from(self.height[c.0 as usize]))
                    .sum()
            })
            .collect()
    }

    fn outcome(&self) -> Outcome {
        if !self.over {
            return Outcome::Ongoing;
        }
        let scores = self.scores();
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners = (0..2).filter(|&s| scores[s] == best).collect();
        Outcome::from_winners(winners, 2)
    }

    fn render(&self, _viewer: Viewer) -> String {
        let scores = self.scores();
        let mover = self.to_move.name();
        let status = match self.to_move() {
            None => format!("game over, {}", self.outcome()),
            Some(_) if self.ply < DVONN_PLACEMENTS => format!("{mover} to place a DVONN piece"),
            Some(_) if self.placing() => format!("{mover} to place a piece"),
            Some(_) => format!("{mover} to move"),
        };
        format!(
            "dvonn ply {}: {status}\n{}white {}  black {}",
            self.ply,
            self.draw(),
            scores[0],
            scores[1]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> Dvonn {
        let mut game = Dvonn::start();
        for text in moves.split_whitespace() {
            let mv = game.parse_move(text).expect("test moves parse");
            game.try_play(&mv).expect("test moves are legal");
        }
        game
    }

    #[test]
    fn the_drawn_board_has_a_letter_under_each_cell_of_row_1() {
        let text = Dvonn::start().render(Viewer::Everyone);
        let lines: Vec<&str> = text.lines().collect();
        let row_1 = lines.iter().find(|l| l.starts_with('1')).unwrap();
        let letters = lines
            .iter()
            .find(|l| l.trim_start().starts_with("A "))
            .unwrap();
        let cells: Vec<usize> = (row_1.char_indices())
            .filter(|&(_, c)| c == '.')
            .map(|(i, _)| i)
            .collect();
        for (k, &at) in cells.iter().enumerate() {
            assert_eq!(
                letters.chars().nth(at),
                Some(char::from(b'A' + k as u8)),
                "{text}"
            );
        }
        assert!(letters.trim_end().ends_with('K'), "{text}");
    }

    #[test]
    fn board_has_49_cells_in_rows_of_9_10_11_10_9() {
        assert_eq!(BOARD.count_ones(), 49);
        let per_row: Vec<u32> = (0..HEIGHT)
            .map(|y| (BOARD & (0x7ff << (y * WIDTH))).count_ones())
            .collect();
        assert_eq!(per_row, [9, 10, 11, 10, 9]);
    }

    #[test]
    fn neighbours_follow_the_six_directions() {
        let cases = [
            ("A1", "A2 B1 B2"),
            ("F3", "E2 E3 F2 F4 G3 G4"),
            ("K5", "J4 J5 K4"),
            ("A3", "A2 B3 B4"),
            ("K3", "J2 J3 K4"),
        ];
        for (cell, expected) in cases {
            let game = Dvonn::start();
            let Move::Place(c) = game.parse_move(cell).unwrap() else {
                panic!("{cell} is a placement");
            };
            let mut names: Vec<String> = cells(NEIGHBOURS[c.0 as usize])
                .map(|n| n.to_string())
                .collect();
            names.sort();
            assert_eq!(names.join(" "), expected, "neighbours of {cell}");
        }
    }

    #[test]
    fn parse_errors_are_not_illegal_moves() {
        let game = Dvonn::start();
        for bad in ["", "Z1", "A6", "A5", "K1", "B4E", "B4E4X", "pas", "é1"] {
            assert!(game.parse_move(bad).is_err(), "{bad:?} must not parse");
        }
        assert_eq!(game.parse_move("pass").unwrap(), Move::Pass);
        assert_eq!(game.parse_move("d2").unwrap().to_string(), "D2");
        assert_eq!(game.parse_move("b4e4").unwrap().to_string(), "B4E4");
    }

    #[test]
    fn placement_order_gives_white_two_turns_at_the_switch() {
        let mut game = Dvonn::start();
        let mut seats = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..49 {
            seats.push(game.to_move());
            moves.clear();
            game.legal_moves(&mut moves);
            game.try_play(&moves[0]).unwrap();
        }
        assert!(seats.iter().step_by(2).all(|s| *s == Some(Actor::Seat(0))));
        assert!(
            seats
                .iter()
                .skip(1)
                .step_by(2)
                .all(|s| *s == Some(Actor::Seat(1)))
        );
        assert_eq!(game.to_move(), Some(Actor::Seat(0)));
        assert_eq!(game.dvonn.count_ones(), 3);
        assert_eq!(game.tops.map(u64::count_ones), [23, 23]);
    }

    #[test]
    fn illegal_moves_say_which_rule() {
        // The balanced board of the rules file, White to move.
        let game = game(
            "J5 F3 B1 D5 C5 E5 G5 F5 H5 I5 D4 K5 E4 B4 F4 C4 I4 G4 E3 H4 H3 J4 I3 K4 J3 A3 K3 \
             B3 A2 C3 B2 D3 D2 G3 E2 C2 I2 F2 J2 G2 A1 H2 C1 D1 F1 E1 G1 I1 H1",
        );
        let cases = [
            ("D2", "all 49 pieces are placed"),
            ("D5D4", "has a black top"),
            ("F3F4", "lone DVONN piece"),
            ("E3E4", "surrounded on all six sides"),
            ("C5C3", "1 high and must move exactly that far, not 2"),
            ("A1B3", "not in a straight line"),
            ("PASS", "there are 41"),
        ];
        for (text, reason) in cases {
            let mv = game.parse_move(text).unwrap();
            let err = game.check(&mv).expect_err(text);
            assert!(err.reason.contains(reason), "{text}: {}", err.reason);
        }
        assert_eq!(game.count_legal(), 41);
    }

    /// Distances agree with a breadth-first walk over neighbours, for every pair of cells.
    #[test]
    fn distance_is_the_fewest_steps_between_neighbours() {
        for start in Cell::all() {
            let mut steps = std::collections::HashMap::from([(start, 0u8)]);
            let mut frontier = vec![start];
            while !frontier.is_empty() {
                let mut next = Vec::new();
                for cell in frontier {
                    for near in cell.neighbours() {
                        if !steps.contains_key(&near) {
                            steps.insert(near, steps[&cell] + 1);
                            next.push(near);
                        }
                    }
                }
                frontier = next;
            }
            assert_eq!(steps.len(), 49);
            for (cell, walked) in steps {
                assert_eq!(start.distance(cell), walked, "{start} to {cell}");
            }
        }
    }
}
