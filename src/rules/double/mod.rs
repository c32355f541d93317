//! DOUBLE, the card game for 2 to 6 seats: hidden hands, a shuffled stock, multi-card turns, rounds
//! until a seat has 50 penalty points.
//!
//! Every card that leaves the stock (the deal, the start card, every draw) is a chance ply whose
//! outcome the driver takes from [`Double::seeded_chance`]: the round's deck order, shuffled by a
//! ChaCha8 generator seeded with the game's seed on stream `round`. The state itself knows only
//! which cards are in the stock, so a record replays from its chance plies alone.

mod cards;
mod text;

use std::collections::VecDeque;
use std::fmt;

use cards::{CARDS, DECK, Kind, matches, parse_card, sectors};
pub use cards::{Card, Laid, Side};

use crate::rules::game::{
    Actor, Allowed, Game, IllegalMove, MoveSpace, Outcome, ParseMoveError, Places, Seat, Setup,
    SetupError, Viewer, check_setup,
};

/// Cards dealt to each seat, the total that ends the match, and the most seats.
const HAND: usize = 6;
const MATCH_POINTS: u32 = 50;
const MAX_SEATS: usize = 6;

/// One ply: a chance event (a card leaving the stock) or a seat's action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Chance: `seat` is dealt `card`.
    Deal {
        /// Who gets it.
        seat: u8,
        /// The card.
        card: Card,
    },
    /// Chance: `card` is turned as the start of the snake (a special card goes under the stock).
    Start {
        /// The card.
        card: Card,
    },
    /// Chance: `seat` draws `card`.
    Draw {
        /// Who draws.
        seat: u8,
        /// The card.
        card: Card,
    },
    /// Double cover of `side` with `card` laid as `sectors`.
    Cover {
        /// Which end.
        side: Side,
        /// The card.
        card: Card,
        /// Whether it is turned round.
        turned: bool,
    },
    /// Single cover, which draws a card and ends the turn.
    Single {
        /// Which end.
        side: Side,
        /// The card.
        card: Card,
        /// Whether it is turned round.
        turned: bool,
    },
    /// A cover named by the card's number alone (`left c31`, `single left c31`): which way round
    /// it is laid is worked out from the position, and it is legal only when exactly one way is.
    Unsaid {
        /// A single cover rather than a double one.
        single: bool,
        /// Which end.
        side: Side,
        /// The card.
        card: Card,
    },
    /// Take one card (none after a penalty) and end the turn.
    TakeCard,
    /// End the turn after at least one double cover.
    Stop,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let full = |card: &Card, turned: bool| format!("{card}:{}", sectors(card.laid(turned)));
        match self {
            Move::Deal { seat, card } => write!(f, "deal {seat} {}", full(card, false)),
            Move::Start { card } => write!(f, "start {}", full(card, false)),
            Move::Draw { seat, card } => write!(f, "draw {seat} {}", full(card, false)),
            Move::Cover { side, card, turned } => {
                write!(f, "{} {}", side.name(), full(card, *turned))
            }
            Move::Single { side, card, turned } => {
                write!(f, "single {} {}", side.name(), full(card, *turned))
            }
            Move::Unsaid { single, side, card } => {
                let single = if *single { "single " } else { "" };
                write!(f, "{single}{} {card}", side.name())
            }
            Move::TakeCard => f.write_str("draw"),
            Move::Stop => f.write_str("stop"),
        }
    }
}

/// Why a card is queued to leave the stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    /// Dealt to a seat.
    Deal(u8),
    /// Turned as the start of the snake.
    Start,
    /// Drawn by a seat.
    Draw(u8),
}

/// What happens when the queue of chance plies is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Then {
    /// The dealer begins the round's first turn.
    FirstTurn,
    /// The seat to move acts.
    Act,
    /// The turn ends.
    EndTurn,
}

/// A DOUBLE match: rounds until a seat reaches 50 penalty points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Double {
    seats: u8,
    round: u16,
    dealer: u8,
    totals: [u32; MAX_SEATS],
    hands: [Vec<Card>; MAX_SEATS],
    /// Cards in the stock; `under` are those put under it (special start cards), drawn last.
    stock: u128,
    under: VecDeque<Card>,
    /// Cards taken from the top of the round's deck order so far.
    from_top: u8,
    ends: Option<[Laid; 2]>,
    pending: VecDeque<Pending>,
    then: Then,
    to_move: u8,
    played_this_turn: bool,
    covers_this_turn: u8,
    /// Hatched ends the seat must double cover before anything else.
    obliged: [bool; 2],
    penalty_drawn: bool,
    began_empty: bool,
    /// Turns in a row that began with an empty stock and played nothing.
    quiet_turns: u8,
    ply: u32,
    over: bool,
    /// The seat whose view this is (see [`Double::seen_by`]), if it is one: other seats' hands
    /// are guesses, so their hatched-end obligations and penalty draws, and the end of the match,
    /// are not worked out but told.
    seen_by: Option<u8>,
}

impl Double {
    /// A match for `seats` seats; the first round's deal is the first chance plies.
    pub fn start(seats: u8) -> Double {
        let mut game = Double {
            seats,
            round: 0,
            dealer: 0,
            totals: [0; MAX_SEATS],
            hands: Default::default(),
            stock: 0,
            under: VecDeque::new(),
            from_top: 0,
            ends: None,
            pending: VecDeque::new(),
            then: Then::FirstTurn,
            to_move: 0,
            played_this_turn: false,
            covers_this_turn: 0,
            obliged: [false; 2],
            penalty_drawn: false,
            began_empty: false,
            quiet_turns: 0,
            ply: 0,
            over: false,
            seen_by: None,
        };
        game.deal_round();
        game
    }

    /// Cards in the deck.
    pub const DECK: usize = DECK;
    /// The total that ends the match.
    pub const MATCH_POINTS: u32 = MATCH_POINTS;

    /// The cards left in the stock.
    pub fn stock_size(&self) -> usize {
        self.stock.count_ones() as usize
    }

    /// The cards in `seat`'s hand, which only that seat may see while the game goes on; none
    /// for a seat that is not in the game.
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands.get(seat).map_or(&[], Vec::as_slice)
    }

    /// `seat`'s points so far, lowest best (0 for a seat that is not in the game).
    pub fn total(&self, seat: Seat) -> u32 {
        self.totals.get(seat).copied().unwrap_or(0)
    }

    /// The snake's left and right ends, once it is started.
    pub fn ends(&self) -> Option<[Laid; 2]> {
        self.ends
    }

    /// Queues a card for `seat` to draw.
    fn queue_draw(&mut self, seat: u8) {
        self.pending.push_back(Pending::Draw(seat));
    }

    /// Whether this is a seat's view and `seat`'s hand is hidden from it.
    fn hides_hand_of(&self, seat: u8) -> bool {
        self.seen_by.is_some_and(|viewer| viewer != seat)
    }

    /// Turns the start card: a special one goes under the stock (the next card is turned then).
    fn turn_start_card(&mut self, card: Card) {
        self.take_from_stock(card);
        if card.info().kind == Kind::Normal {
            let laid = Laid {
                card,
                sectors: card.laid(false),
            };
            self.ends = Some([laid, laid]);
        } else {
            self.stock |= card.bit();
            self.under.push_back(card);
        }
    }

    fn deal_round(&mut self) {
        self.stock = (1u128 << DECK) - 1;
        self.under.clear();
        self.from_top = 0;
        self.ends = None;
        for hand in &mut self.hands {
            hand.clear();
        }
        for i in 0..HAND * usize::from(self.seats) {
            let seat = (usize::from(self.dealer) + i) % usize::from(self.seats);
            self.pending.push_back(Pending::Deal(seat as u8));
        }
        self.pending.push_back(Pending::Start);
        self.then = Then::FirstTurn;
        self.quiet_turns = 0;
    }

    /// The stock's cards not under it, as bits.
    fn stock_top(&self) -> u128 {
        let under: u128 = self.under.iter().map(|c| c.bit()).fold(0, |a, b| a | b);
        self.stock & !under
    }

    /// Cards that may leave the stock now: those not under it, or the first one under it when
    /// nothing else is left.
    pub(crate) fn drawable(&self) -> Vec<Card> {
        let top = self.stock_top();
        if top != 0 {
            (0..DECK as u8)
                .map(Card)
                .filter(|c| top & c.bit() != 0)
                .collect()
        } else {
            self.under.front().copied().into_iter().collect()
        }
    }

    /// Whether `card` is one of [`Double::drawable`] (without listing them: a record's replay
    /// asks once a card dealt or drawn).
    fn may_draw(&self, card: Card) -> bool {
        match self.stock_top() {
            0 => self.under.front() == Some(&card),
            top => top & card.bit() != 0,
        }
    }

    /// Whether `mv` is one of [`Game::chance_moves`].
    fn is_chance_move(&self, mv: &Move) -> bool {
        match (self.pending.front(), *mv) {
            (Some(&Pending::Deal(due)), Move::Deal { seat, card })
            | (Some(&Pending::Draw(due)), Move::Draw { seat, card }) => {
                seat == due && self.may_draw(card)
            }
            (Some(&Pending::Start), Move::Start { card }) => self.may_draw(card),
            _ => false,
        }
    }

    fn take_from_stock(&mut self, card: Card) {
        self.stock &= !card.bit();
        if self.under.front() == Some(&card) {
            self.under.pop_front();
        } else {
            self.from_top += 1;
        }
    }

    fn end_card(&self, side: Side) -> Option<Laid> {
        self.ends.map(|ends| ends[side.index()])
    }

    /// Whether `sectors` double covers `side`.
    fn fits_double(&self, side: Side, s: [u8; 3]) -> bool {
        let Some(end) = self.end_card(side) else {
            return false;
        };
        let e = end.sectors;
        match side {
            Side::Right => matches(s[0], e[1]) && matches(s[1], e[2]),
            Side::Left => matches(s[1], e[0]) && matches(s[2], e[1]),
        }
    }

    fn fits_single(&self, side: Side, s: [u8; 3]) -> bool {
        let Some(end) = self.end_card(side) else {
            return false;
        };
        match side {
            Side::Right => matches(s[0], end.sectors[2]),
            Side::Left => matches(s[2], end.sectors[0]),
        }
    }

    /// Each distinct way (card, orientation) `seat` can lay a card on `side`: by double cover when
    /// `double`, else by single.
    fn ways(&self, seat: u8, side: Side, double: bool) -> Vec<(Card, bool)> {
        let mut ways = Vec::new();
        for &card in &self.hands[usize::from(seat)] {
            for turned in [false, true] {
                let s = card.laid(turned);
                if turned && s == card.laid(false) {
                    continue;
                }
                let fits = if double {
                    self.fits_double(side, s)
                } else {
                    self.fits_single(side, s)
                };
                if fits {
                    ways.push((card, turned));
                }
            }
        }
        ways
    }

    fn can_double(&self, seat: u8, side: Side) -> bool {
        !self.ways(seat, side, true).is_empty()
    }

    fn hatched_end(&self, side: Side) -> bool {
        self.end_card(side)
            .is_some_and(|end| end.card.info().kind == Kind::Hatched)
    }

    fn begin_turn(&mut self, seat: u8) {
        self.to_move = seat;
        self.played_this_turn = false;
        self.covers_this_turn = 0;
        self.penalty_drawn = false;
        self.began_empty = self.stock == 0;
        self.obliged = [false; 2];
        // A hidden hand's obligations and penalties are not known: what it does is told.
        if self.hides_hand_of(seat) {
            self.then = Then::Act;
            return;
        }
        // Both ends are tested together, before any penalty card is drawn.
        for side in [Side::Left, Side::Right] {
            if self.hatched_end(side) {
                if self.can_double(seat, side) {
                    self.obliged[side.index()] = true;
                } else {
                    self.queue_draw(seat);
                    self.penalty_drawn = true;
                }
            }
        }
        self.then = Then::Act;
    }

    fn end_turn(&mut self) {
        let quiet = self.began_empty && !self.played_this_turn;
        self.quiet_turns = if quiet { self.quiet_turns + 1 } else { 0 };
        if self.stock == 0 && self.quiet_turns >= self.seats {
            self.end_round();
        } else {
            self.begin_turn((self.to_move + 1) % self.seats);
        }
    }

    fn end_round(&mut self) {
        for seat in 0..usize::from(self.seats) {
            let penalty: u32 = self.hands[seat]
                .iter()
                .map(|c| u32::from(c.info().value))
                .sum();
            self.totals[seat] += penalty;
        }
        self.pending.clear();
        if self.seen_by.is_none() && self.totals.iter().any(|&t| t >= MATCH_POINTS) {
            self.over = true;
            return;
        }
        self.round += 1;
        self.dealer = (self.dealer + 1) % self.seats;
        self.deal_round();
    }

    /// Runs what follows on its own: empty-stock draws are skipped, turns begin and end.
    fn settle(&mut self) {
        while !self.over {
            match self.pending.front() {
                Some(Pending::Draw(_) | Pending::Deal(_)) if self.stock == 0 => {
                    self.pending.pop_front();
                }
                Some(_) => return,
                None => match self.then {
                    Then::FirstTurn => self.begin_turn(self.dealer),
                    Then::Act => return,
                    Then::EndTurn => self.end_turn(),
                },
            }
        }
    }

    /// After a card leaves `seat`'s hand: +1 draws for the others, or the end of the round.
    /// Returns `false` when the round ended.
    fn after_laying(&mut self, seat: u8, card: Card) -> bool {
        self.played_this_turn = true;
        if self.hands[usize::from(seat)].is_empty() {
            self.end_round();
            return false;
        }
        let others = usize::from(self.seats) - 1;
        if card.info().kind == Kind::PlusOne && self.stock_size() >= others {
            for k in 1..self.seats {
                self.queue_draw((seat + k) % self.seats);
            }
        }
        true
    }

    fn lay(&mut self, seat: u8, side: Side, card: Card, turned: bool) {
        let hand = &mut self.hands[usize::from(seat)];
        hand.retain(|&c| c != card);
        let laid = Laid {
            card,
            sectors: card.laid(turned),
        };
        if let Some(ends) = self.ends.as_mut() {
            ends[side.index()] = laid;
        }
    }

    fn cover(single: bool, side: Side, card: Card, turned: bool) -> Move {
        match single {
            true => Move::Single { side, card, turned },
            false => Move::Cover { side, card, turned },
        }
    }

    /// The legal actions a cover named by its card alone may be.
    fn unsaid_candidates(&self, single: bool, side: Side, card: Card) -> Vec<Move> {
        let ways = [
            Self::cover(single, side, card, false),
            Self::cover(single, side, card, true),
        ];
        self.actions()
            .into_iter()
            .filter(|m| ways.contains(m))
            .collect()
    }

    fn illegal(mv: &Move, reason: impl Into<String>) -> IllegalMove {
        IllegalMove {
            text: mv.to_string(),
            reason: reason.into(),
        }
    }

    /// Whether `mv` is one of [`Double::actions`], found without listing them (a record's replay
    /// asks once a ply).
    fn is_action(&self, mv: &Move) -> bool {
        let seat = self.to_move;
        let obligation = self.obliged.contains(&true);
        match *mv {
            Move::Cover { side, card, turned } => {
                (!obligation || self.obliged[side.index()])
                    && self.ways(seat, side, true).contains(&(card, turned))
            }
            Move::Single { side, card, turned } => {
                !obligation
                    && !self.can_double(seat, Side::Left)
                    && !self.can_double(seat, Side::Right)
                    && self.ways(seat, side, false).contains(&(card, turned))
            }
            Move::TakeCard => !obligation && !self.played_this_turn,
            Move::Stop => !obligation && self.covers_this_turn > 0,
            _ => false,
        }
    }

    /// The seat's legal actions, one per distinct string.
    fn actions(&self) -> Vec<Move> {
        let seat = self.to_move;
        let mut out = Vec::new();
        let obligation = self.obliged.contains(&true);
        for side in [Side::Left, Side::Right] {
            if obligation && !self.obliged[side.index()] {
                continue;
            }
            for (card, turned) in self.ways(seat, side, true) {
                out.push(Move::Cover { side, card, turned });
            }
        }
        if obligation {
            return out;
        }
        if out.is_empty() {
            for side in [Side::Left, Side::Right] {
                for (card, turned) in self.ways(seat, side, false) {
                    out.push(Move::Single { side, card, turned });
                }
            }
        }
        if !self.played_this_turn {
            out.push(Move::TakeCard);
        }
        if self.covers_this_turn > 0 {
            out.push(Move::Stop);
        }
        out
    }

    fn chance_moves(&self) -> Vec<Move> {
        let Some(&pending) = self.pending.front() else {
            return Vec::new();
        };
        self.drawable()
            .into_iter()
            .map(|card| match pending {
                Pending::Deal(seat) => Move::Deal { seat, card },
                Pending::Start => Move::Start { card },
                Pending::Draw(seat) => Move::Draw { seat, card },
            })
            .collect()
    }
}

/// Where a card is, as far as the rules are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// In the stock, not under it.
    Stock,
    /// In a seat's hand.
    Hand(usize),
}

/// What a seat's view needs of the table (the view itself is the bots' business, in
/// `bots/double_view.rs`).
impl Double {
    /// The match as `viewer` follows it: its own hand and everything public are exact, other hands
    /// and the stock are guesses (cards the viewer cannot tell apart), so another seat's
    /// hatched-end obligations and penalty draws are not worked out but told, and the match never
    /// ends on the guessed totals.
    pub(crate) fn seen_by(seats: u8, viewer: u8) -> Double {
        let mut game = Double::start(seats);
        game.seen_by = Some(viewer);
        game
    }

    /// The seat whose view this is.
    pub(crate) fn viewer(&self) -> Option<u8> {
        self.seen_by
    }

    /// The seat to act (when no card is due).
    pub(crate) fn seat_to_act(&self) -> u8 {
        self.to_move
    }

    /// The card due to leave the stock next, if one is.
    pub(crate) fn due(&self) -> Option<Pending> {
        self.pending.front().copied()
    }

    /// `seat`, to act, was told to draw `card` when no card was due: a penalty the view could not
    /// foresee, since it depends on the seat's hidden hand.
    pub(crate) fn told_penalty(&mut self, seat: u8, card: Card) {
        self.ply += 1;
        self.take_from_stock(card);
        self.hands[usize::from(seat)].push(card);
        self.penalty_drawn = true;
        self.settle();
    }

    /// The seats' totals as the table told them when a round ended (the view worked them out
    /// from its guesses of the hands shown): one per seat, each at most a match's worth.
    pub(crate) fn told_totals(&mut self, totals: &[i64]) -> Result<(), String> {
        let seats = usize::from(self.seats);
        let most = i64::from(MATCH_POINTS) + 7 * DECK as i64;
        if totals.len() != seats || totals.iter().any(|t| !(0..=most).contains(t)) {
            return Err(format!("totals {totals:?} are not {seats} seats' totals"));
        }
        for (slot, &total) in self.totals.iter_mut().zip(totals) {
            *slot = total as u32;
        }
        Ok(())
    }

    /// Where `card` is: in the stock (not under it), in a hand, or neither (laid, or under).
    pub(crate) fn place_of(&self, card: Card) -> Option<Place> {
        let under = self.under.contains(&card);
        if self.stock & card.bit() != 0 && !under {
            return Some(Place::Stock);
        }
        (0..usize::from(self.seats))
            .find(|&s| self.hands[s].contains(&card))
            .map(Place::Hand)
    }

    /// Swaps the places of two cards that are each in the stock or a hand.
    pub(crate) fn exchange(&mut self, a: Card, b: Card) {
        let (Some(pa), Some(pb)) = (self.place_of(a), self.place_of(b)) else {
            return;
        };
        self.remove(a, pa);
        self.remove(b, pb);
        self.put(a, pb);
        self.put(b, pa);
    }

    fn remove(&mut self, card: Card, place: Place) {
        match place {
            Place::Stock => self.stock &= !card.bit(),
            Place::Hand(s) => self.hands[s].retain(|&c| c != card),
        }
    }

    fn put(&mut self, card: Card, place: Place) {
        match place {
            Place::Stock => self.stock |= card.bit(),
            Place::Hand(s) => self.hands[s].push(card),
        }
    }

    /// A copy in which the cards `viewer` cannot see (other hands, the stock but for the cards
    /// under it) are dealt again in the order `shuffle` leaves them in; what the viewer knows stays.
    pub(crate) fn redealt(&self, viewer: usize, shuffle: impl FnOnce(&mut [Card])) -> Double {
        let mut copy = self.possible_world();
        let under: u128 = self.under.iter().map(|c| c.bit()).fold(0, |a, b| a | b);
        let mut unknown: Vec<Card> = (0..DECK as u8)
            .map(Card)
            .filter(|c| self.stock & !under & c.bit() != 0)
            .collect();
        for s in (0..usize::from(self.seats)).filter(|&s| s != viewer) {
            unknown.extend(&self.hands[s]);
        }
        shuffle(&mut unknown);
        let mut next = unknown.into_iter();
        for s in (0..usize::from(self.seats)).filter(|&s| s != viewer) {
            for slot in &mut copy.hands[s] {
                if let Some(card) = next.next() {
                    *slot = card;
                }
            }
        }
        copy.stock = next.map(cards::Card::bit).fold(under, |a, b| a | b);
        copy
    }

    /// A view as a whole game: its guesses of the cards its seat cannot see taken for the cards,
    /// so that it ends as a real game does (the match at 50 points; a view waits to be told).
    /// What a search plays out from.
    pub fn possible_world(&self) -> Double {
        let mut world = self.clone();
        world.seen_by = None;
        world
    }

    /// The seat whose turn it is (chance may act first: the deal, a draw), None once the match
    /// is over. Unlike `to_move`, it is the same in every seat's view: whether a card must be
    /// drawn first can hang on a hand the viewer cannot see.
    pub fn turn(&self) -> Option<Seat> {
        (!self.over).then_some(usize::from(self.seat_to_act()))
    }

    /// The round being played, from 0.
    pub fn round(&self) -> u16 {
        self.round
    }

    /// Each seat's penalty points in hand now.
    pub fn hand_points(&self) -> Vec<u32> {
        (0..usize::from(self.seats))
            .map(|s| {
                self.hands[s]
                    .iter()
                    .map(|c| u32::from(c.info().value))
                    .sum()
            })
            .collect()
    }
}

impl Double {
    /// The variants and seat counts it allows.
    pub const ALLOWED: Allowed = Allowed {
        game: "double",
        variants: &[],
        seats: &[2, 3, 4, 5, 6],
        seats_in_words: "2 to 6",
    };
}

impl Game for Double {
    type Move = Move;

    const PLACES: Places = Places::LowestScoreFirst;

    fn move_space(&self) -> MoveSpace<Move> {
        let cards = || (0..DECK as u8).map(Card);
        let mut seats = Vec::new();
        for card in cards() {
            for side in [Side::Left, Side::Right] {
                for turned in [false, true] {
                    seats.push(Move::Cover { side, card, turned });
                    seats.push(Move::Single { side, card, turned });
                }
            }
        }
        seats.extend([Move::TakeCard, Move::Stop]);
        let mut chance: Vec<Move> = cards().map(|card| Move::Start { card }).collect();
        for seat in 0..self.seats() as u8 {
            chance.extend(cards().map(|card| Move::Deal { seat, card }));
            chance.extend(cards().map(|card| Move::Draw { seat, card }));
        }
        MoveSpace::new(seats, chance)
    }

    /// A round: a card leaves the stock at most 72 times, plus once for each of the 20 special
    /// cards turned as the start card and put back under; a seat lays only cards it was given,
    /// so as many covers. A turn lays a card, or takes one (drawn, or a penalty card), or,
    /// once the stock is empty, is one of fewer than `seats` idle turns in a row; each turn has
    /// at most one ply besides its covers. Every round gives every seat but one at least 1 point
    /// (each card is worth 1 or more), and a match ends once a seat reaches 50, so it has at most
    /// 49 x seats / (seats - 1) rounds and one more.
    fn max_plies(&self) -> usize {
        let seats = self.seats();
        let cards = DECK + CARDS.iter().filter(|c| c.kind != Kind::Normal).count();
        let turns = cards + cards + (cards + 1) * seats;
        let round = cards + cards + turns;
        let points = MATCH_POINTS as usize - 1;
        (points * seats / (seats - 1) + 1) * round
    }

    fn new(setup: &Setup) -> Result<Self, SetupError> {
        crate::rules::game::refuse_layout("double", setup)?;
        let (_, seats) = check_setup(setup, &Self::ALLOWED)?;
        Ok(Double::start(seats as u8))
    }

    fn id(&self) -> &'static str {
        "double"
    }

    fn variant(&self) -> Option<&'static str> {
        None
    }

    fn seats(&self) -> usize {
        self.seats.into()
    }

    fn ply(&self) -> usize {
        self.ply as usize
    }

    fn to_move(&self) -> Option<Actor> {
        if self.over {
            None
        } else if self.pending.is_empty() {
            Some(Actor::Seat(self.to_move.into()))
        } else {
            Some(Actor::Chance)
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let fail = |reason: &str| ParseMoveError {
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        let seat_of = |w: &str| {
            w.parse::<u8>()
                .ok()
                .filter(|&s| s < self.seats)
                .ok_or_else(|| fail("not a seat of this game"))
        };
        let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
        let (single, side, card_text) = match lower.as_slice() {
            ["draw"] => return Ok(Move::TakeCard),
            ["stop"] => return Ok(Move::Stop),
            ["deal", seat, card] => {
                let (card, _) = parse_card(card, text)?;
                return Ok(Move::Deal {
                    seat: seat_of(seat)?,
                    card,
                });
            }
            ["draw", seat, card] => {
                let (card, _) = parse_card(card, text)?;
                return Ok(Move::Draw {
                    seat: seat_of(seat)?,
                    card,
                });
            }
            ["start", card] => {
                return Ok(Move::Start {
                    card: parse_card(card, text)?.0,
                });
            }
            ["left", card] => (false, Side::Left, *card),
            ["right", card] => (false, Side::Right, *card),
            ["single", "left", card] => (true, Side::Left, *card),
            ["single", "right", card] => (true, Side::Right, *card),
            _ => {
                return Err(fail(
                    "an action is `left|right CARD`, `single left|right CARD`, `draw` or `stop`, \
                     with CARD like c31:RYB",
                ));
            }
        };
        let (card, laid) = parse_card(card_text, text)?;
        Ok(match laid {
            Some(laid) => Self::cover(single, side, card, laid != card.laid(false)),
            None => Move::Unsaid { single, side, card },
        })
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        match self.to_move() {
            None => {}
            Some(Actor::Chance) => out.extend(self.chance_moves()),
            Some(Actor::Seat(_)) => out.extend(self.actions()),
        }
    }

    fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        let chance = matches!(
            mv,
            Move::Deal { .. } | Move::Start { .. } | Move::Draw { .. }
        );
        match self.to_move() {
            None => return Err(Self::illegal(mv, "the game is over")),
            Some(Actor::Chance) if !chance => {
                return Err(Self::illegal(mv, "a card leaves the stock first"));
            }
            Some(Actor::Seat(_)) if chance => {
                return Err(Self::illegal(mv, "no card leaves the stock now"));
            }
            _ => {}
        }
        if chance {
            return match self.is_chance_move(mv) {
                true => Ok(()),
                false => Err(Self::illegal(
                    mv,
                    "not the kind of event due, or the card is not in the stock",
                )),
            };
        }
        if let Move::Unsaid { single, side, card } = *mv {
            return match self.unsaid_candidates(single, side, card).as_slice() {
                [_] => Ok(()),
                [] => self
                    .check(&Self::cover(single, side, card, false))
                    .map_err(|e| Self::illegal(mv, e.reason)),
                _ => Err(Self::illegal(
                    mv,
                    format!(
                        "{card} fits either way round: say {card}:{} or {card}:{}",
                        sectors(card.laid(false)),
                        sectors(card.laid(true))
                    ),
                )),
            };
        }
        if self.is_action(mv) {
            return Ok(());
        }
        let seat = usize::from(self.to_move);
        let reason = match *mv {
            Move::Cover { card, .. } | Move::Single { card, .. }
                if !self.hands[seat].contains(&card) =>
            {
                format!("{card} is not in seat {seat}'s hand")
            }
            Move::Cover { side, .. }
                if self.obliged.contains(&true) && !self.obliged[side.index()] =>
            {
                "the hatched end must be double covered first".to_owned()
            }
            Move::Cover { side, .. } => format!("it does not double cover the {} end", side.name()),
            Move::Single { .. } if self.obliged.contains(&true) => {
                "the hatched end must be double covered first".to_owned()
            }
            Move::Single { side, .. }
                if !self.ways(self.to_move, Side::Left, true).is_empty()
                    || !self.ways(self.to_move, Side::Right, true).is_empty() =>
            {
                let _ = side;
                "a single cover is allowed only when no double cover is possible".to_owned()
            }
            Move::Single { side, .. } => {
                format!("it does not single cover the {} end", side.name())
            }
            Move::TakeCard if self.obliged.contains(&true) => {
                "the hatched end must be double covered first".to_owned()
            }
            Move::TakeCard => "draw only when nothing was played this turn; use stop".to_owned(),
            Move::Stop if self.obliged.contains(&true) => {
                "the hatched end must be double covered first".to_owned()
            }
            Move::Stop => "stop only after a double cover; use draw".to_owned(),
            _ => "not legal now".to_owned(),
        };
        Err(Self::illegal(mv, reason))
    }

    fn play_unchecked(&mut self, mv: &Move) {
        self.ply += 1;
        match self.resolve(mv) {
            Move::Deal { seat, card } | Move::Draw { seat, card } => {
                self.pending.pop_front();
                self.take_from_stock(card);
                self.hands[usize::from(seat)].push(card);
            }
            Move::Start { card } => {
                self.turn_start_card(card);
                if card.info().kind == Kind::Normal {
                    self.pending.pop_front();
                }
            }
            Move::Cover { side, card, turned } => {
                let seat = self.to_move;
                self.lay(seat, side, card, turned);
                self.covers_this_turn += 1;
                if self.after_laying(seat, card) {
                    self.obliged[side.index()] = false;
                    // The other hatched end, if still due, may have lost its only cover.
                    for other in [Side::Left, Side::Right] {
                        if self.obliged[other.index()] && !self.can_double(seat, other) {
                            self.obliged[other.index()] = false;
                            self.queue_draw(seat);
                            self.penalty_drawn = true;
                        }
                    }
                }
            }
            Move::Single { side, card, turned } => {
                let seat = self.to_move;
                self.lay(seat, side, card, turned);
                if self.after_laying(seat, card) {
                    self.queue_draw(seat);
                    self.then = Then::EndTurn;
                }
            }
            Move::TakeCard => {
                if !self.penalty_drawn {
                    self.queue_draw(self.to_move);
                }
                self.then = Then::EndTurn;
            }
            Move::Stop => self.then = Then::EndTurn,
            // Resolved above to a cover; one that fits no way is laid as printed.
            Move::Unsaid { .. } => {}
        }
        self.settle();
    }

    /// A cover named by its card alone becomes the one legal way to lay it (as printed when
    /// none or both are legal: `check` refuses it then).
    fn resolve(&self, mv: &Move) -> Move {
        match *mv {
            Move::Unsaid { single, side, card } => {
                match self.unsaid_candidates(single, side, card).as_slice() {
                    [one] => *one,
                    _ => Self::cover(single, side, card, false),
                }
            }
            other => other,
        }
    }

    fn scores(&self) -> Vec<i64> {
        self.totals[..usize::from(self.seats)]
            .iter()
            .map(|&t| i64::from(t))
            .collect()
    }

    fn outcome(&self) -> Outcome {
        if !self.over {
            return Outcome::Ongoing;
        }
        let totals = &self.totals[..usize::from(self.seats)];
        let best = totals.iter().copied().min().unwrap_or(0);
        let winners = (0..totals.len()).filter(|&s| totals[s] == best).collect();
        Outcome::from_winners(winners, self.seats())
    }

    fn render(&self, viewer: Viewer) -> String {
        self.text(viewer)
    }

    fn drawn_from_seed(&self) -> bool {
        true
    }

    fn hides_information(&self) -> bool {
        true
    }

    fn rounds_finished(&self) -> usize {
        usize::from(self.round) + usize::from(self.over)
    }

    /// The next card of the round's deck order: the 72 cards shuffled by stream `round` of the
    /// generator keyed by `seed` (see `seeded`); the cards put under the stock come after them.
    fn seeded_chance(&self, seed: u64) -> Option<Move> {
        let pending = *self.pending.front()?;
        let card = if usize::from(self.from_top) < DECK {
            let mut order: Vec<u8> = (0..DECK as u8).collect();
            crate::rules::seeded::Stream::new(seed, u64::from(self.round)).shuffle(&mut order);
            Card(order[usize::from(self.from_top)])
        } else {
            *self.under.front()?
        };
        Some(match pending {
            Pending::Deal(seat) => Move::Deal { seat, card },
            Pending::Start => Move::Start { card },
            Pending::Draw(seat) => Move::Draw { seat, card },
        })
    }

    /// A match stopped by a fault: of the other seats, the lowest totals so far win.
    fn forfeit_winners(&self, loser: Seat) -> Vec<Seat> {
        let others: Vec<Seat> = (0..self.seats()).filter(|&s| s != loser).collect();
        let best = others.iter().map(|&s| self.totals[s]).min().unwrap_or(0);
        others
            .into_iter()
            .filter(|&s| self.totals[s] == best)
            .collect()
    }

    /// Another seat's card leaving the stock is hidden (from a spectator, every seat's): `deal 2`,
    /// `draw 2`.
    fn visible_text(&self, mv: &Move, viewer: Viewer) -> String {
        let hidden = |seat: u8| match viewer {
            Viewer::Everyone => false,
            Viewer::Seat(v) => usize::from(seat) != v,
            Viewer::Spectator => true,
        };
        match *mv {
            Move::Deal { seat, .. } if hidden(seat) => format!("deal {seat}"),
            Move::Draw { seat, .. } if hidden(seat) => format!("draw {seat}"),
            _ => mv.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::cards::CARDS;
    use super::*;

    /// Calls `visit` at every position of matches of these seat counts and seeds, played by a
    /// fixed choice among the legal moves (at most 3,000 plies each).
    fn each_position(matches: &[(usize, u64)], mut visit: impl FnMut(&Double)) {
        for &(seats, seed) in matches {
            let setup = Setup {
                seats: Some(seats),
                seed,
                ..Setup::default()
            };
            let mut game = Double::new(&setup).unwrap();
            for step in 0..3000usize {
                if game.to_move().is_none() {
                    break;
                }
                visit(&game);
                let mut moves = Vec::new();
                game.legal_moves(&mut moves);
                let mv = moves[step.wrapping_mul(7919) % moves.len()];
                game.play_unchecked(&mv);
            }
        }
    }

    /// `check` tells a seat's move without listing the seat's moves: it accepts one exactly when
    /// the list has it (every card either way round on either end, single and double, drawing
    /// and stopping, at every seat's turn of three played matches).
    #[test]
    fn a_seat_move_is_accepted_exactly_when_it_is_listed() {
        let mut turns = 0;
        each_position(&[(2, 4), (4, 6), (5, 9)], |game| {
            if game.to_move() == Some(Actor::Chance) {
                return;
            }
            turns += 1;
            let listed = game.actions();
            let mut candidates = vec![Move::TakeCard, Move::Stop];
            for card in (0..DECK as u8).map(Card) {
                for side in [Side::Left, Side::Right] {
                    for turned in [false, true] {
                        candidates.push(Move::Cover { side, card, turned });
                        candidates.push(Move::Single { side, card, turned });
                    }
                }
            }
            for mv in candidates {
                assert_eq!(game.is_action(&mv), listed.contains(&mv), "{mv}");
            }
        });
        assert!(turns > 200, "{turns} turns");
    }

    /// `check` tells a card dealt or drawn without listing the chance moves: it accepts one
    /// exactly when the list has it (every seat, every card, each kind, at every chance node of
    /// three played matches).
    #[test]
    fn a_chance_move_is_accepted_exactly_when_it_is_listed() {
        let mut nodes = 0;
        each_position(&[(2, 3), (3, 5), (6, 8)], |game| {
            if game.to_move() != Some(Actor::Chance) {
                return;
            }
            nodes += 1;
            let listed = game.chance_moves();
            for card in (0..DECK as u8).map(Card) {
                for seat in 0..game.seats() as u8 {
                    for mv in [
                        Move::Deal { seat, card },
                        Move::Draw { seat, card },
                        Move::Start { card },
                    ] {
                        assert_eq!(game.check(&mv).is_ok(), listed.contains(&mv), "{mv}");
                    }
                }
            }
        });
        assert!(nodes > 200, "{nodes} chance nodes");
    }

    #[test]
    fn the_deck_has_72_cards_with_the_table_values() {
        assert_eq!(CARDS.len(), 72);
        // Every colour appears on 50 sectors.
        for colour in [b'R', b'Y', b'B', b'G'] {
            let n: usize = CARDS
                .iter()
                .map(|c| c.face.iter().filter(|&&s| s == colour).count())
                .sum();
            assert_eq!(n, 50, "{}", colour as char);
        }
        assert_eq!(CARDS[0].value, 1);
        assert_eq!(CARDS[6].value, 7);
        assert_eq!(CARDS[7].value, 1);
        assert_eq!(sectors(CARDS[60].face), "RHY");
        assert_eq!(sectors(CARDS[61].face), "RHY");
        assert_eq!((CARDS[60].value, CARDS[71].value), (1, 6));
        assert_eq!((CARDS[52].kind, CARDS[52].value), (Kind::Wild, 7));
        assert_eq!((CARDS[56].kind, CARDS[56].value), (Kind::PlusOne, 6));
    }

    fn card(text: &str) -> Card {
        parse_card(text, text).unwrap().0
    }

    fn laid(text: &str) -> Laid {
        let (card, shown) = parse_card(text, text).unwrap();
        Laid {
            card,
            sectors: shown.unwrap_or(card.laid(false)),
        }
    }

    /// A table mid-round: these hands, these ends, these cards in the stock; seat 0 begins its
    /// turn (hatched obligations and penalties are worked out as the rules say).
    fn table(hands: &[&str], left: &str, right: &str, stock: &[&str]) -> Double {
        let mut g = Double::start(hands.len() as u8);
        g.pending.clear();
        for (seat, hand) in hands.iter().enumerate() {
            g.hands[seat] = hand.split_whitespace().map(card).collect();
        }
        g.stock = stock.iter().map(|c| card(c).bit()).fold(0, |a, b| a | b);
        g.from_top = (DECK - stock.len()) as u8;
        g.ends = Some([laid(left), laid(right)]);
        g.begin_turn(0);
        g.settle();
        g
    }

    fn actions(g: &Double) -> Vec<String> {
        let mut texts: Vec<String> = g.actions().iter().map(ToString::to_string).collect();
        texts.sort();
        texts
    }

    fn play(g: &mut Double, text: &str) {
        let mv = g.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
        g.try_play(&mv).unwrap_or_else(|e| panic!("{e}"));
    }

    /// Plays the pending chance plies with these cards, in order.
    fn draw(g: &mut Double, cards: &[&str]) {
        for c in cards {
            let mv = match *g.pending.front().expect("a card is due") {
                Pending::Draw(seat) => Move::Draw {
                    seat,
                    card: card(c),
                },
                Pending::Deal(seat) => Move::Deal {
                    seat,
                    card: card(c),
                },
                Pending::Start => Move::Start { card: card(c) },
            };
            g.try_play(&mv).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    fn reason(g: &Double, text: &str) -> String {
        g.check(&g.parse_move(text).unwrap()).unwrap_err().reason
    }

    #[test]
    fn double_covers_match_two_sectors_and_jokers_match_anything() {
        // Right end c31 RYB: a card laid [a b c] needs a~Y and b~B. Left end: b~R and c~Y.
        let g = table(
            &["c04 c53 c37", "c10"],
            "c31:RYB",
            "c31:RYB",
            &["c40", "c41"],
        );
        // c04 YBG fits the right end as laid; c53 JRY turned (YRJ) fits the left end: R on R, J
        // on Y; laid as printed (JRY) it fits the right end too: J on Y, R on B? no. c37 RYR fits
        // neither as a double.
        let got = actions(&g);
        assert!(got.contains(&"right c04:YBG".to_owned()), "{got:?}");
        assert!(got.contains(&"left c53:YRJ".to_owned()), "{got:?}");
        assert!(!got.iter().any(|a| a.contains("c37")), "{got:?}");
        assert!(reason(&g, "right c37:RYR").contains("does not double cover"));
    }

    #[test]
    fn a_single_cover_only_when_no_double_cover_exists_then_it_draws_and_ends_the_turn() {
        // Ends RYB: c37 RYR single covers the left end (its c on R); c42 YGY fits nowhere.
        let mut g = table(&["c37 c42", "c10"], "c31:RYB", "c31:RYB", &["c40", "c41"]);
        assert_eq!(actions(&g), ["draw", "single left c37:RYR"]);
        play(&mut g, "single left c37");
        assert_eq!(
            g.pending.front(),
            Some(&Pending::Draw(0)),
            "it draws one card"
        );
        draw(&mut g, &["c40"]);
        assert_eq!(g.to_move(), Some(Actor::Seat(1)), "and the turn is over");
        // With a double cover in hand, the single cover is refused.
        let h = table(&["c37 c04", "c10"], "c31:RYB", "c31:RYB", &["c40"]);
        assert!(reason(&h, "single left c37:RYR").contains("only when no double cover"));
    }

    #[test]
    fn plus_one_makes_every_other_seat_draw_in_order_unless_it_was_the_last_card() {
        // c58 is +1 YBG: it double covers the right end of RYB.
        let mut g = table(
            &["c58 c44", "c10", "c11"],
            "c31:RYB",
            "c31:RYB",
            &["c40", "c41", "c42"],
        );
        play(&mut g, "right c58:YBG");
        assert_eq!(g.pending, [Pending::Draw(1), Pending::Draw(2)]);
        draw(&mut g, &["c40", "c41"]);
        assert_eq!(g.to_move(), Some(Actor::Seat(0)), "then the player goes on");
        assert_eq!(actions(&g), ["stop"]);
        // As the last card: the round ends at once and nobody draws.
        let mut last = table(
            &["c58", "c10", "c11"],
            "c31:RYB",
            "c31:RYB",
            &["c40", "c41", "c42"],
        );
        play(&mut last, "right c58:YBG");
        assert_eq!(last.round, 1, "the round ended");
        // With fewer cards in the stock than other seats, nobody draws either.
        let mut short = table(&["c58 c44", "c10", "c11"], "c31:RYB", "c31:RYB", &["c40"]);
        play(&mut short, "right c58:YBG");
        assert!(short.pending.is_empty());
    }

    #[test]
    fn a_plus_one_single_cover_lets_the_others_draw_first() {
        // c57 +1 RYB: single cover on the right end of ..G (R on G? no); use left end Y..: c on l1.
        let mut g = table(&["c57 c44", "c10"], "c39:RGR", "c39:RGR", &["c40", "c41"]);
        assert_eq!(
            actions(&g),
            ["draw", "single left c57:BYR", "single right c57:RYB"]
        );
        play(&mut g, "single right c57:RYB");
        assert_eq!(g.pending, [Pending::Draw(1), Pending::Draw(0)]);
    }

    #[test]
    fn an_open_hatched_end_must_be_covered_first_or_costs_a_penalty_card() {
        // The right end is hatched RHY (c61): H matches anything, so a cover needs b ~ Y. c31
        // RYB fits either way round and c37 RYR once; they may only cover that end for now.
        let g = table(&["c31 c37", "c10"], "c40:YRY", "c61:RHY", &["c41", "c42"]);
        assert!(g.pending.is_empty(), "no penalty: it can cover");
        assert_eq!(
            actions(&g),
            ["right c31:BYR", "right c31:RYB", "right c37:RYR"]
        );
        assert!(reason(&g, "draw").contains("hatched end must be double covered first"));
        assert!(
            reason(&g, "single left c37:RYR").contains("hatched end must be double covered first")
        );
        // c10 BRG (middle R) covers neither end: one penalty card at once, then `draw` takes
        // nothing.
        let mut p = table(&["c10", "c11"], "c40:YRY", "c61:RHY", &["c41", "c42"]);
        assert_eq!(p.pending, [Pending::Draw(0)]);
        draw(&mut p, &["c41"]);
        play(&mut p, "draw");
        assert_eq!(p.hands[0].len(), 2, "no second card");
        // Seat 1 now faces the same open end, and cannot cover it either (c11 BRG).
        assert_eq!(p.pending, [Pending::Draw(1)]);
    }

    #[test]
    fn two_open_hatched_ends_and_no_cover_draw_two() {
        // Left RHB needs a middle ~ R, right RHY a middle ~ Y; c04 YBG has B in the middle.
        let g = table(&["c04", "c10"], "c63:RHB", "c61:RHY", &["c41", "c42"]);
        assert_eq!(g.pending, [Pending::Draw(0), Pending::Draw(0)]);
    }

    #[test]
    fn covering_one_end_with_the_only_card_for_both_costs_a_penalty_for_the_other() {
        // Left RHB needs a middle ~ R, right RHG a middle ~ G: only the hatched c67 YHB fits
        // both (its H matches anything); c37 RYR fits neither.
        let mut g = table(&["c67 c37", "c10"], "c63:RHB", "c65:RHG", &["c41", "c42"]);
        assert!(g.obliged == [true, true] && g.pending.is_empty());
        play(&mut g, "right c67:YHB");
        assert_eq!(
            g.pending,
            [Pending::Draw(0)],
            "the left end now costs one card"
        );
    }

    #[test]
    fn an_empty_stock_turns_draws_into_nothing_and_quiet_turns_end_the_round() {
        let mut g = table(&["c37", "c38"], "c40:YRY", "c40:YRY", &[]);
        play(&mut g, "draw");
        assert_eq!(g.hands[0].len(), 1, "nothing to take");
        assert_eq!(g.to_move(), Some(Actor::Seat(1)));
        play(&mut g, "draw");
        // Both turns began with an empty stock and played nothing: the round is over.
        assert_eq!(g.round, 1);
        // Penalties: c37 RYR is card 37, value 37 % 7 + 1 = 2... (index 36: 36 % 7 + 1 = 2).
        assert_eq!(g.scores(), [2, 3]);
    }

    #[test]
    fn the_match_ends_at_50_and_the_lowest_total_wins() {
        let mut g = table(&["c37", "c38"], "c40:YRY", "c40:YRY", &[]);
        g.totals[0] = 48;
        g.totals[1] = 47;
        play(&mut g, "draw");
        play(&mut g, "draw");
        assert_eq!(g.scores(), [50, 50]);
        assert_eq!(
            g.outcome(),
            Outcome::Draw,
            "equal lowest totals share the win"
        );
        let mut h = table(&["c37", "c38"], "c40:YRY", "c40:YRY", &[]);
        h.totals = [49, 10, 0, 0, 0, 0];
        play(&mut h, "draw");
        play(&mut h, "draw");
        assert_eq!(h.outcome(), Outcome::Winners(vec![1]));
    }

    #[test]
    fn the_deal_goes_round_from_the_dealer_and_a_special_start_card_goes_under() {
        let g = Double::start(3);
        let order: Vec<Pending> = g.pending.iter().copied().take(4).collect();
        assert_eq!(
            order,
            [
                Pending::Deal(0),
                Pending::Deal(1),
                Pending::Deal(2),
                Pending::Deal(0)
            ]
        );
        assert_eq!(g.pending.len(), 3 * 6 + 1);
        let mut s = Double::start(2);
        let deals: Vec<&str> = vec![
            "c01", "c02", "c03", "c04", "c05", "c06", "c07", "c08", "c09", "c10", "c11", "c12",
        ];
        draw(&mut s, &deals);
        draw(&mut s, &["c61"]);
        assert_eq!(
            s.under,
            [card("c61")],
            "a hatched start card goes under the stock"
        );
        assert_eq!(
            s.to_move(),
            Some(Actor::Chance),
            "and the next one is turned"
        );
        draw(&mut s, &["c20"]);
        assert_eq!(s.end_card(Side::Left).map(|l| l.card), Some(card("c20")));
        assert_eq!(s.to_move(), Some(Actor::Seat(0)), "the dealer plays first");
    }

    #[test]
    fn one_action_per_distinct_string_and_the_number_alone_when_unique() {
        // Two copies of RYR (c37, c49), symmetric, on ends YRY: one action per card and end.
        let g = table(&["c37 c49", "c10"], "c40:YRY", "c40:YRY", &["c41"]);
        let expected = [
            "draw",
            "left c37:RYR",
            "left c49:RYR",
            "right c37:RYR",
            "right c49:RYR",
        ];
        assert_eq!(actions(&g), expected);
        // The number alone parses anywhere; here it names one legal action, played in full.
        let short = g.parse_move("right c37").unwrap();
        assert_eq!(g.check(&short), Ok(()));
        assert_eq!(g.resolve(&short).to_string(), "right c37:RYR");
        // c31 RYB fits the hatched end RHY either way round: the number alone is a well-formed
        // action, ambiguous here, so an illegal move that says why.
        let mut h = table(&["c31 c10", "c11"], "c40:YRY", "c61:RHY", &["c41"]);
        let ambiguous = h.parse_move("right c31").unwrap();
        assert!(reason(&h, "right c31").contains("either way round"));
        assert!(h.try_play(&ambiguous).is_err());
        // A card not in the hand is illegal with its reason, whether named in full or not.
        assert!(reason(&h, "left c37").contains("not in seat 0's hand"));
        assert!(reason(&h, "left c37:RYR").contains("not in seat 0's hand"));
        // Sectors the card does not have are not a move at all, anywhere.
        assert!(h.parse_move("right c31:XYZ").is_err());
        assert!(g.parse_move("right c31:XYZ").is_err());
    }

    #[test]
    fn a_forfeit_ranks_the_others_by_their_totals_so_far() {
        let mut g = Double::start(4);
        g.totals = [30, 12, 12, 20, 0, 0];
        assert_eq!(
            g.forfeit_winners(1),
            [2],
            "seat 1 is out; seat 2 has the lowest total"
        );
        assert_eq!(g.forfeit_winners(0), [1, 2], "equal lowest totals share");
    }
}
