//! Pegs (the Spielewerkstatt peg game) on the 33-hole cross, variants `standard` and `turbo`.
//!
//! Cell (column c, row r, both from 0) is bit `7 * r + c` of a 7x7 grid; the cross is a mask on it.
//! Seat 0 (South, red) moves up the rows, seat 1 (North, black) down.

use std::fmt::{self, Write as _};

use crate::rules::game::{
    Actor, Allowed, Game, IllegalMove, MoveSpace, Outcome, ParseMoveError, Seat, Setup, SetupError,
    Viewer, cell_pairs, check_setup,
};

const SIZE: i8 = 7;
/// The cross: columns c, d, e on every row; every column on rows 3, 4, 5.
const CROSS_ROWS: [&str; 7] = [
    "..###..", "..###..", "#######", "#######", "#######", "..###..", "..###..",
];
/// Start cells of each seat.
const START: [&str; 2] = [
    "c1 d1 e1 c2 d2 e2 a3 b3 d3 f3 g3",
    "c7 d7 e7 c6 d6 e6 a5 b5 d5 f5 g5",
];
/// Moves without progress that draw the game.
const NO_PROGRESS_LIMIT: u16 = 100;
/// Occurrences of a position that draw the game.
const REPETITIONS: usize = 3;
/// Seat names.
const SEAT_NAMES: [&str; 2] = ["south", "north"];
/// Directions (d column, d row) as South sees them (forward is +1 row; North's are mirrored):
/// forward and sideways, diagonally forward, and all five.
const STRAIGHT: &[(i8, i8)] = &[(0, 1), (1, 0), (-1, 0)];
const DIAGONAL: &[(i8, i8)] = &[(1, 1), (-1, 1)];
const FORWARD_ALL: &[(i8, i8)] = &[(0, 1), (1, 0), (-1, 0), (1, 1), (-1, 1)];

const fn cross() -> u64 {
    let mut mask = 0;
    let mut r = 0;
    while r < 7 {
        let row = CROSS_ROWS[r].as_bytes();
        let mut c = 0;
        while c < 7 {
            if row[c] == b'#' {
                mask |= 1 << (r * 7 + c);
            }
            c += 1;
        }
        r += 1;
    }
    mask
}

/// Every hole of the board.
const BOARD: u64 = cross();

/// The rules variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Steps forward or sideways; captures diagonally forward, and compulsory.
    Standard,
    /// Steps and jumps forward, sideways or diagonally forward; captures optional.
    Turbo,
}

/// A hole of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell(u8);

impl Cell {
    /// Every hole of the cross, row by row from c1.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..SIZE * SIZE).filter_map(|i| Cell::at(i % SIZE, i / SIZE))
    }

    /// The rulebook's coloured corner spaces: the four inside corners of the cross.
    pub fn is_corner_space(self) -> bool {
        matches!((self.column(), self.row()), (2 | 4, 2 | 4))
    }

    /// The hole at column `c` (0: a) and row `r` (0: 1), if the cross has one there.
    pub fn at(c: i8, r: i8) -> Option<Cell> {
        let inside = (0..SIZE).contains(&c) && (0..SIZE).contains(&r);
        // Only an inside cell has an index: out-of-range input must not reach the arithmetic.
        inside
            .then(|| Cell((r * SIZE + c) as u8))
            .filter(|cell| BOARD & cell.mask() != 0)
    }

    /// Its column, from 0 (a).
    pub fn column(self) -> i8 {
        (self.0 % 7) as i8
    }

    /// Its row, from 0 (1).
    pub fn row(self) -> i8 {
        (self.0 / 7) as i8
    }

    fn mask(self) -> u64 {
        1 << self.0
    }

    fn offset(self, (dc, dr): (i8, i8), times: i8) -> Option<Cell> {
        Cell::at(self.column() + dc * times, self.row() + dr * times)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char((b'a' + self.0 % 7) as char)?;
        f.write_char((b'1' + self.0 / 7) as char)
    }
}

fn cells(set: u64) -> impl Iterator<Item = Cell> {
    super::game::bits(set).map(Cell)
}

fn parse_cell(text: &str) -> Option<Cell> {
    let [c, r] = text.as_bytes() else {
        return None;
    };
    let c = c.to_ascii_lowercase().wrapping_sub(b'a') as i8;
    let r = r.wrapping_sub(b'1') as i8;
    Cell::at(c, r)
}

const fn start_mask(seat: usize) -> u64 {
    let text = START[seat].as_bytes();
    let mut mask = 0;
    let mut i = 0;
    while i + 1 < text.len() {
        let (c, r) = (text[i] - b'a', text[i + 1] - b'1');
        mask |= 1 << (r as u64 * 7 + c as u64);
        i += 3;
    }
    mask
}

/// One ply: a step, or a jump over the enemy peg between `from` and `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: Cell,
    to: Cell,
}

impl Move {
    /// The hole the peg leaves.
    pub fn from(self) -> Cell {
        self.from
    }

    /// The hole the peg lands in.
    pub fn to(self) -> Cell {
        self.to
    }

    fn is_jump(self) -> bool {
        (self.to.column() - self.from.column()).abs() == 2
            || (self.to.row() - self.from.row()).abs() == 2
    }

    fn jumped(self) -> Cell {
        Cell(u16::midpoint(self.from.0 as u16, self.to.0 as u16) as u8)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// A Pegs position, with the history the draw rules need.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pegs {
    variant: Variant,
    pegs: [u64; 2],
    to_move: u8,
    ply: u16,
    /// Plies in a row without progress (a capture or a change of row).
    quiet: u16,
    /// Positions (pegs and seat to move) since the last progress: no earlier one can come back,
    /// since pegs never move backward and captured pegs never return.
    seen: Vec<([u64; 2], u8)>,
    outcome: Outcome,
}

impl Pegs {
    /// The start position.
    pub fn start(variant: Variant) -> Pegs {
        let pegs = [start_mask(0), start_mask(1)];
        Pegs {
            variant,
            pegs,
            to_move: 0,
            ply: 0,
            quiet: 0,
            seen: vec![(pegs, 0)],
            outcome: Outcome::Ongoing,
        }
    }

    /// Rows the most advanced peg of `seat` has come from its own back row (for evaluations).
    pub fn best_advance(&self, seat: usize) -> i32 {
        cells(self.pegs[seat])
            .map(|c| {
                if seat == 0 {
                    c.row()
                } else {
                    SIZE - 1 - c.row()
                }
            })
            .max()
            .map_or(0, i32::from)
    }

    fn forward(seat: u8) -> i8 {
        if seat == 0 { 1 } else { -1 }
    }

    /// The opponent's back row, which `seat` wants to reach.
    fn goal_row(seat: u8) -> i8 {
        if seat == 0 { SIZE - 1 } else { 0 }
    }

    /// Directions a peg may step in, and may jump in, as South sees them.
    fn directions(&self) -> [&'static [(i8, i8)]; 2] {
        match self.variant {
            Variant::Standard => [STRAIGHT, DIAGONAL],
            Variant::Turbo => [FORWARD_ALL, FORWARD_ALL],
        }
    }

    /// Every move of the seat to move, before the compulsory-capture filter.
    fn all_moves(&self) -> (Vec<Move>, Vec<Move>) {
        let seat = self.to_move;
        let (own, enemy) = (self.pegs[seat as usize], self.pegs[1 - seat as usize]);
        let empty = |c: Cell| (own | enemy) & c.mask() == 0;
        let f = Self::forward(seat);
        let [step_dirs, jump_dirs] = self
            .directions()
            .map(|dirs| dirs.iter().map(move |&(dc, dr)| (dc, dr * f)));
        let (mut steps, mut jumps) = (Vec::new(), Vec::new());
        for from in cells(own) {
            for d in step_dirs.clone() {
                if let Some(to) = from.offset(d, 1).filter(|&c| empty(c)) {
                    steps.push(Move { from, to });
                }
            }
            for d in jump_dirs.clone() {
                if let (Some(over), Some(to)) = (from.offset(d, 1), from.offset(d, 2))
                    && enemy & over.mask() != 0
                    && empty(to)
                {
                    jumps.push(Move { from, to });
                }
            }
        }
        (steps, jumps)
    }

    fn legal(&self) -> Vec<Move> {
        if self.outcome != Outcome::Ongoing {
            return Vec::new();
        }
        let (mut steps, jumps) = self.all_moves();
        if self.variant == Variant::Standard && !jumps.is_empty() {
            return jumps;
        }
        steps.extend(jumps);
        steps
    }

    fn illegal(mv: &Move, reason: impl Into<String>) -> IllegalMove {
        IllegalMove {
            text: mv.to_string(),
            reason: reason.into(),
        }
    }

    /// Why `mv` is not among the legal moves.
    fn explain(&self, mv: &Move) -> String {
        let seat = self.to_move as usize;
        let (steps, jumps) = self.all_moves();
        if self.pegs[seat] & mv.from.mask() == 0 {
            return format!("no {} peg on {}", SEAT_NAMES[seat], mv.from);
        }
        if self.variant == Variant::Standard && steps.contains(mv) && !jumps.is_empty() {
            let list: Vec<String> = jumps.iter().map(ToString::to_string).collect();
            return format!("a capture is compulsory: {}", list.join(", "));
        }
        let dr = (mv.to.row() - mv.from.row()) * Self::forward(self.to_move);
        if dr < 0 {
            return "pegs never move backward".to_owned();
        }
        if mv.is_jump() {
            if self.pegs[1 - seat] & mv.jumped().mask() == 0 {
                return format!(
                    "a jump must go over an enemy peg, and {} holds none",
                    mv.jumped()
                );
            }
            if self.variant == Variant::Standard && (dr == 0 || mv.from.column() == mv.to.column())
            {
                return "in standard, captures go diagonally forward".to_owned();
            }
        } else if self.variant == Variant::Standard && dr != 0 && mv.from.column() != mv.to.column()
        {
            return "in standard, steps go forward or sideways".to_owned();
        }
        if (self.pegs[0] | self.pegs[1]) & mv.to.mask() != 0 {
            return format!("{} is occupied", mv.to);
        }
        "not a step to a neighbouring hole or a jump over one".to_owned()
    }

    /// The outcome after the ply just played by `mover` (checked in the rules' order).
    fn judge(&self, mover: u8, landed: Cell) -> Outcome {
        if landed.row() == Self::goal_row(mover) {
            return Outcome::Winners(vec![mover.into()]);
        }
        let now = (self.pegs, self.to_move);
        let occurrences = self.seen.iter().filter(|&&p| p == now).count();
        if occurrences >= REPETITIONS || self.quiet >= NO_PROGRESS_LIMIT {
            return Outcome::Draw;
        }
        if self.legal().is_empty() {
            return Outcome::Winners(vec![mover.into()]);
        }
        Outcome::Ongoing
    }
}

impl Pegs {
    /// The seat whose peg is in `cell` (0: South), if one is.
    pub fn peg(&self, cell: Cell) -> Option<Seat> {
        (0..2).find(|&seat| self.pegs[seat] & cell.mask() != 0)
    }

    /// Plies in a row without progress (a capture or a change of row), and how many draw.
    pub fn quiet_plies(&self) -> (u16, u16) {
        (self.quiet, NO_PROGRESS_LIMIT)
    }
}

impl Pegs {
    /// The variants and seat counts it allows.
    pub const ALLOWED: Allowed = Allowed {
        game: "pegs",
        variants: &["standard", "turbo"],
        seats: &[2],
        seats_in_words: "2",
    };
}

impl Game for Pegs {
    type Move = Move;

    fn move_space(&self) -> MoveSpace<Move> {
        let seats = (cell_pairs(Cell::all()).into_iter())
            .map(|(from, to)| Move { from, to })
            .collect();
        MoveSpace::new(seats, Vec::new())
    }

    /// A ply of progress captures a peg or moves one a row forward (pegs never go back), so there
    /// are at most (pegs x 6 rows) + pegs of them; at most 100 plies without progress come
    /// between two of them, before the first and after the last.
    fn max_plies(&self) -> usize {
        let pegs = (start_mask(0).count_ones() + start_mask(1).count_ones()) as usize;
        let progress = pegs * (SIZE as usize - 1) + pegs;
        progress + (progress + 1) * usize::from(NO_PROGRESS_LIMIT)
    }

    fn new(setup: &Setup) -> Result<Self, SetupError> {
        crate::rules::game::refuse_layout("pegs", setup)?;
        let variant = match check_setup(setup, &Self::ALLOWED)? {
            (Some(1), _) => Variant::Turbo,
            _ => Variant::Standard,
        };
        Ok(Pegs::start(variant))
    }

    fn id(&self) -> &'static str {
        "pegs"
    }

    fn variant(&self) -> Option<&'static str> {
        Some(match self.variant {
            Variant::Standard => "standard",
            Variant::Turbo => "turbo",
        })
    }

    fn seats(&self) -> usize {
        2
    }

    fn ply(&self) -> usize {
        self.ply.into()
    }

    fn to_move(&self) -> Option<Actor> {
        (self.outcome == Outcome::Ongoing).then_some(Actor::Seat(self.to_move.into()))
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let trimmed = text.trim();
        let fail = || ParseMoveError {
            text: text.to_owned(),
            reason: "a move is two holes of the cross, like c2c3 or b4d6".to_owned(),
        };
        if trimmed.len() != 4 || !trimmed.is_ascii() {
            return Err(fail());
        }
        match (parse_cell(&trimmed[..2]), parse_cell(&trimmed[2..])) {
            (Some(from), Some(to)) => Ok(Move { from, to }),
            _ => Err(fail()),
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.extend(self.legal());
    }

    fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        if self.outcome != Outcome::Ongoing {
            return Err(Self::illegal(mv, "the game is over"));
        }
        if self.legal().contains(mv) {
            Ok(())
        } else {
            Err(Self::illegal(mv, self.explain(mv)))
        }
    }

    fn play_unchecked(&mut self, mv: &Move) {
        let mover = self.to_move;
        let seat = mover as usize;
        let capture = mv.is_jump();
        self.pegs[seat] = (self.pegs[seat] & !mv.from.mask()) | mv.to.mask();
        if capture {
            self.pegs[1 - seat] &= !mv.jumped().mask();
        }
        let progress = capture || mv.from.row() != mv.to.row();
        self.ply += 1;
        self.to_move = 1 - mover;
        if progress {
            self.quiet = 0;
            self.seen.clear();
        } else {
            self.quiet += 1;
        }
        self.seen.push((self.pegs, self.to_move));
        self.outcome = self.judge(mover, mv.to);
    }

    fn scores(&self) -> Vec<i64> {
        self.pegs
            .iter()
            .map(|p| i64::from(p.count_ones()))
            .collect()
    }

    fn outcome(&self) -> Outcome {
        self.outcome.clone()
    }

    fn render(&self, _viewer: Viewer) -> String {
        let status = match self.to_move() {
            None => format!("game over, {}", self.outcome),
            Some(_) => format!("{} to move", SEAT_NAMES[self.to_move as usize]),
        };
        let mut text = format!(
            "pegs {} ply {}: {status}\n",
            self.variant().unwrap_or_default(),
            self.ply
        );
        for r in (0..SIZE).rev() {
            let _ = write!(text, "{} ", r + 1);
            for c in 0..SIZE {
                let symbol = match Cell::at(c, r) {
                    None => ' ',
                    Some(cell) if self.pegs[0] & cell.mask() != 0 => 'S',
                    Some(cell) if self.pegs[1] & cell.mask() != 0 => 'N',
                    Some(cell)
                        if matches!(cell.to_string().as_str(), "c3" | "e3" | "c5" | "e5") =>
                    {
                        '+'
                    }
                    Some(_) => '.',
                };
                let _ = write!(text, " {symbol}");
            }
            text.truncate(text.trim_end().len());
            text.push('\n');
        }
        let _ = write!(
            text,
            "   a b c d e f g   (S south, N north, + corner space)\nsouth {} pegs, north {} pegs, {} quiet plies",
            self.pegs[0].count_ones(),
            self.pegs[1].count_ones(),
            self.quiet
        );
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position with these pegs, `to_move` to move, as if it had just arisen.
    fn position(variant: Variant, south: &str, north: &str, to_move: u8) -> Pegs {
        let mask = |cells: &str| {
            cells
                .split_whitespace()
                .map(|c| parse_cell(c).unwrap().mask())
                .fold(0, |a, b| a | b)
        };
        let pegs = [mask(south), mask(north)];
        Pegs {
            variant,
            pegs,
            to_move,
            ply: 0,
            quiet: 0,
            seen: vec![(pegs, to_move)],
            outcome: Outcome::Ongoing,
        }
    }

    fn game_parse(text: &str) -> Result<Move, ParseMoveError> {
        Pegs::start(Variant::Standard).parse_move(&format!("{text}{text}"))
    }

    fn legal_texts(game: &Pegs) -> Vec<String> {
        let mut texts: Vec<String> = game.legal().iter().map(ToString::to_string).collect();
        texts.sort();
        texts
    }

    fn play(game: &mut Pegs, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = game.parse_move(text).unwrap();
            game.try_play(&mv).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }

    fn reason(game: &Pegs, text: &str) -> String {
        game.check(&game.parse_move(text).unwrap())
            .unwrap_err()
            .reason
    }

    #[test]
    fn the_cross_has_33_holes_and_22_pegs() {
        assert_eq!(BOARD.count_ones(), 33);
        let game = Pegs::start(Variant::Standard);
        assert_eq!(game.scores(), [11, 11]);
        assert_eq!(game.pegs[0] & game.pegs[1], 0);
        assert!(Cell::at(0, 0).is_none() && Cell::at(2, 0).is_some());
        // Far out of range: no cell, and no overflow on the way.
        assert!(Cell::at(i8::MAX, i8::MAX).is_none() && Cell::at(-7, 100).is_none());
        for text in ["Z9", "zz", "\u{7f}9", "~~"] {
            assert!(game_parse(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn standard_steps_forward_or_sideways_never_diagonally_or_back() {
        let game = Pegs::start(Variant::Standard);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
        texts.sort();
        // Worked out by hand from the start position: no capture exists yet.
        let expected = [
            "a3a4", "b3b4", "b3c3", "c2c3", "d3c3", "d3d4", "d3e3", "e2e3", "f3e3", "f3f4", "g3g4",
        ];
        assert_eq!(texts, expected);
        assert!(reason(&game, "b3c4").contains("forward or sideways"));
    }

    #[test]
    fn capture_is_compulsory_in_standard_only() {
        // South d3 can jump north's e4 diagonally to f5.
        let standard = position(Variant::Standard, "d3 a3", "e4 e7", 0);
        assert_eq!(legal_texts(&standard), ["d3f5"]);
        assert!(reason(&standard, "a3a4").contains("a capture is compulsory: d3f5"));
        let turbo = position(Variant::Turbo, "d3 a3", "e4 e7", 0);
        let moves = legal_texts(&turbo);
        assert!(moves.contains(&"d3f5".to_owned()) && moves.contains(&"a3a4".to_owned()));
    }

    #[test]
    fn capture_stays_compulsory_when_a_step_would_reach_the_goal() {
        // South c6 could step to c7 and win, but e5 can jump north's d6 to c7, so it must.
        let game = position(Variant::Standard, "e5 c6", "d6 a5", 0);
        assert_eq!(legal_texts(&game), ["e5c7"]);
        assert!(reason(&game, "c6c7").contains("compulsory"));
    }

    #[test]
    fn standard_captures_only_diagonally_forward_turbo_every_forward_way() {
        // North pegs ahead (d4) and beside (e3) south's d3.
        let standard = position(Variant::Standard, "d3", "d4 e3 c7", 0);
        assert!(reason(&standard, "d3d5").contains("diagonally forward"));
        assert!(reason(&standard, "d3f3").contains("diagonally forward"));
        let turbo = position(Variant::Turbo, "d3", "d4 e3 c7", 0);
        let moves = legal_texts(&turbo);
        assert!(moves.contains(&"d3d5".to_owned()) && moves.contains(&"d3f3".to_owned()));
        // Turbo steps diagonally forward too; standard never does.
        assert!(moves.contains(&"d3c4".to_owned()));
        assert!(reason(&standard, "d3c4").contains("forward or sideways"));
    }

    #[test]
    fn a_peg_never_jumps_its_own_and_never_moves_back() {
        let game = position(Variant::Turbo, "d3 d4", "c7", 0);
        assert!(reason(&game, "d3d5").contains("over an enemy peg"));
        assert!(reason(&game, "d3d2").contains("never move backward"));
        // Missing holes are no cells at all, so they block like the edge: a3 has no b2 to go to.
        assert!(game.parse_move("a3b2").is_err());
        let corner = position(Variant::Turbo, "a3", "c7", 0);
        assert_eq!(legal_texts(&corner), ["a3a4", "a3b3", "a3b4"]);
    }

    #[test]
    fn reaching_the_far_row_wins_at_once() {
        let mut game = position(Variant::Standard, "d6", "a5", 0);
        play(&mut game, "d6d7");
        assert_eq!(game.outcome(), Outcome::Winners(vec![0]));
        // North's e3 jumps south's d2 to c1, south's back row: north wins by the capture.
        let mut jump = position(Variant::Standard, "d2 a3", "e3", 1);
        play(&mut jump, "e3c1");
        assert_eq!(jump.outcome(), Outcome::Winners(vec![1]));
        assert_eq!(jump.scores(), [1, 1]);
    }

    #[test]
    fn a_seat_without_a_move_loses() {
        // North steps a5a4; then south's only peg, c1, is boxed in by c2, d1 and d2/e3.
        let mut game = position(Variant::Standard, "c1", "c2 d1 d2 e3 a5", 1);
        play(&mut game, "a5a4");
        assert_eq!(game.outcome(), Outcome::Winners(vec![1]));
    }

    #[test]
    fn the_third_occurrence_of_a_position_draws() {
        // Sideways shuffles: the start position (with south to move) counts as the first.
        let mut game = position(Variant::Standard, "a3", "g5", 0);
        play(&mut game, "a3b3 g5f5 b3a3 f5g5");
        assert_eq!(game.outcome(), Outcome::Ongoing, "second occurrence");
        play(&mut game, "a3b3 g5f5 b3a3");
        assert_eq!(game.outcome(), Outcome::Ongoing);
        play(&mut game, "f5g5");
        assert_eq!(game.outcome(), Outcome::Draw, "third occurrence");
    }

    #[test]
    fn a_hundred_plies_without_progress_draw_and_progress_resets_them() {
        let mut game = position(Variant::Standard, "a3 d3", "g5 d5", 0);
        game.quiet = 98;
        play(&mut game, "a3b3");
        assert_eq!((game.quiet, game.outcome()), (99, Outcome::Ongoing));
        play(&mut game, "g5f5");
        assert_eq!(game.outcome(), Outcome::Draw);
        let mut forward = position(Variant::Standard, "a3 d3", "g5 d5", 0);
        forward.quiet = 99;
        play(&mut forward, "a3a4");
        assert_eq!((forward.quiet, forward.outcome()), (0, Outcome::Ongoing));
    }
}
