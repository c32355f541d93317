//! `referee.Game`: a position of any game, its moves as the protocol's strings, and play.

use pyo3::prelude::*;
use rules::bots::double_view;
use rules::features::Features;
use rules::protocol::{Command, NewGame, PlayLine};
use rules::records::replay::{ReplayError, replay_steps};
use rules::records::{End, FORMAT, GameResult, Ply, Record, SeatInfo, VERSION};
use rules::render::board::Picture;
use rules::rules::game::{Actor, MoveError, Outcome, Setup, Viewer};
use rules::rules::{AnyGame, AnyMove, Game as _, perft_within};

use crate::{IllegalMove, ParseError, RefereeError, SetupError, brief};

/// A game of DVONN, Double Dutch, Pegs, Wyx or DOUBLE, from its start or a record.
///
/// Chance events (Wyx's rack, DOUBLE's deal and draws) come from `seed` and are played as soon
/// as they are due, so a seat is always to move until the game is over; unless
/// `explicit_chance`, when the caller plays DOUBLE's cards itself. `copy()` is cheap: search by
/// copying, playing, and throwing the copy away.
#[pyclass(module = "referee", from_py_object)]
#[derive(Clone)]
pub struct Game {
    game: AnyGame,
    seed: u64,
    /// Whether chance plies wait for `play` instead of coming from the seed.
    explicit_chance: bool,
    /// How the game was set up and every ply since (chance plies too), to pickle it by; no
    /// plies for a game whose history is not known (a seat's guess).
    setup: Setup,
    plies: Option<Vec<AnyMove>>,
}

/// The most positions [`Game::perft`] expands unless told otherwise: a bound on work, not time,
/// so it stops at the same place on every machine.
const PERFT_BUDGET: u64 = 200_000_000;

/// The exception for a move's error: a text that is no move, or one the rules forbid.
pub fn move_error(error: MoveError) -> PyErr {
    match error {
        MoveError::Parse(e) => ParseError::new_err(brief(e.to_string())),
        MoveError::Illegal(e) => IllegalMove::new_err(brief(e.to_string())),
    }
}

impl Game {
    /// Plays the chance plies that are due, as the seed draws them (none with explicit chance),
    /// adding to `told` what each seat is told of them.
    fn settle(&mut self, mut told: Option<&mut Vec<String>>) {
        while !self.explicit_chance && self.game.to_move() == Some(Actor::Chance) {
            let Some(mv) = self.game.seeded_chance(self.seed) else {
                return;
            };
            if self.game.check(&mv).is_err() {
                return;
            }
            self.apply(&mv, told.as_deref_mut());
        }
    }

    /// Plays `mv`, legal here, adding to `told` (one text per seat) the lines the referee sends
    /// each seat's engine of it: the ply as the seat may see it, and the round's scores when it
    /// ends one.
    fn apply(&mut self, mv: &AnyMove, told: Option<&mut Vec<String>>) {
        if let Some(plies) = &mut self.plies {
            plies.push(*mv);
        }
        let Some(told) = told else {
            self.game.play_unchecked(mv);
            return;
        };
        let seats = self.game.seats();
        let (rounds, before) = (self.game.rounds_finished(), self.game.scores());
        let lines: Vec<String> = match self.game.to_move() {
            Some(Actor::Seat(seat)) => {
                let line = PlayLine {
                    seat: Some(seat),
                    mv: &mv.to_string(),
                }
                .to_string();
                vec![line; seats]
            }
            _ => (0..seats)
                .map(|seat| Command::Event(self.game.visible_text(mv, Viewer::Seat(seat))))
                .map(|event| event.to_string())
                .collect(),
        };
        self.game.play_unchecked(mv);
        told.resize(seats, String::new());
        for (text, line) in told.iter_mut().zip(lines) {
            push_line(text, &line);
        }
        if self.game.rounds_finished() != rounds {
            let event =
                Command::round_event(self.game.rounds_finished(), &before, &self.game.scores());
            let line = event.to_string();
            told.iter_mut().for_each(|text| push_line(text, &line));
        }
    }

    /// Checks and plays `text` for whoever is to act, then any chance plies due.
    fn play_text(&mut self, text: &str, mut told: Option<&mut Vec<String>>) -> PyResult<String> {
        let mv = (self.game.parse_move(text)).map_err(|e| move_error(MoveError::Parse(e)))?;
        self.game
            .check(&mv)
            .map_err(|e| move_error(MoveError::Illegal(e)))?;
        let mv = self.game.resolve(&mv);
        self.apply(&mv, told.as_deref_mut());
        self.settle(told);
        Ok(mv.to_string())
    }

    /// A game whose history is not known (a seat's guess), its chance plies from `seed`.
    pub fn from_any(game: AnyGame, seed: u64) -> Game {
        let mut game = Game {
            game,
            seed,
            explicit_chance: false,
            setup: Setup::default(),
            plies: None,
        };
        game.settle(None);
        game
    }

    /// A new game set up as `setup` says.
    fn set_up(game_id: &str, setup: Setup, explicit_chance: bool) -> PyResult<Game> {
        let game = AnyGame::create(game_id, &setup)
            .map_err(|e| SetupError::new_err(brief(e.to_string())))?;
        let mut game = Game {
            game,
            seed: setup.seed,
            explicit_chance,
            setup,
            plies: Some(Vec::new()),
        };
        game.settle(None);
        Ok(game)
    }
}

/// What `pickle` keeps of a game: its class, the arguments that set it up (game, variant, seats,
/// seed, layout, explicit chance), and the state `__setstate__` replays (explicit chance, plies).
type Pickled<'py> = (
    Bound<'py, PyAny>,
    (
        &'static str,
        Option<String>,
        usize,
        u64,
        Option<String>,
        bool,
    ),
    (bool, Vec<String>),
);

/// Appends `line` to `text`, a line after the ones before.
fn push_line(text: &mut String, line: &str) {
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(line);
}

#[pymethods]
impl Game {
    /// Sets up `game_id` (`games()` lists them) with its variant, number of seats, the seed of
    /// its chance events, and (Wyx) the public rack as records store it in `setup`.
    #[new]
    #[pyo3(signature = (game_id, variant=None, seats=None, seed=0, setup=None, explicit_chance=false))]
    fn new(
        game_id: &str,
        variant: Option<String>,
        seats: Option<usize>,
        seed: u64,
        setup: Option<String>,
        explicit_chance: bool,
    ) -> PyResult<Game> {
        let setup = Setup {
            variant,
            seats,
            seed,
            layout: setup,
        };
        Game::set_up(game_id, setup, explicit_chance)
    }

    /// The position of a record (one line of a `--out` file, as text) after `plies` plies (all
    /// when None), every ply checked; a ply that does not replay raises with its number.
    #[staticmethod]
    #[pyo3(signature = (record, plies=None))]
    fn from_record(record: &str, plies: Option<usize>) -> PyResult<Game> {
        let parsed: Record = serde_json::from_str(record)
            .map_err(|e| RefereeError::new_err(brief(format!("not a record: {e}"))))?;
        let moves = parsed.moves.len();
        if let Some(asked) = plies.filter(|&asked| asked > moves) {
            let error = ReplayError::Plies { moves, asked };
            return Err(SetupError::new_err(brief(error.to_string())));
        }
        let mut played = Vec::new();
        let game = replay_steps(
            &parsed.moves[..plies.unwrap_or(moves)],
            &parsed,
            |_, ply| {
                played.extend(ply.map(|(_, mv)| *mv));
            },
        );
        let game = game.map_err(|e| match e {
            ReplayError::Move { ply, error } => {
                let text = format!("ply {ply}: {error}");
                match error {
                    MoveError::Parse(_) => ParseError::new_err(brief(text)),
                    MoveError::Illegal(_) => IllegalMove::new_err(brief(text)),
                }
            }
            other => SetupError::new_err(brief(other.to_string())),
        })?;
        let mut game = Game {
            game,
            seed: parsed.seed,
            explicit_chance: false,
            setup: Setup {
                variant: parsed.variant.clone(),
                seats: Some(parsed.seats.len()),
                seed: parsed.seed,
                layout: parsed.setup.clone(),
            },
            plies: Some(played),
        };
        game.settle(None);
        Ok(game)
    }

    /// How `pickle` rebuilds the game: set up anew with its chance waiting, then every ply
    /// replayed (`__setstate__`). A seat's guess (`SeatView.game`) has no history to pickle.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Pickled<'py>> {
        let this = slf.borrow();
        let Some(plies) = &this.plies else {
            return Err(RefereeError::new_err(
                "a seat's guess (SeatView.game) has no known history to pickle",
            ));
        };
        let setup = &this.setup;
        let args = (
            this.game.id(),
            setup.variant.clone(),
            this.game.seats(),
            setup.seed,
            setup.layout.clone(),
            true,
        );
        let texts = plies.iter().map(ToString::to_string).collect();
        Ok((
            slf.get_type().into_any(),
            args,
            (this.explicit_chance, texts),
        ))
    }

    /// The game so far as a record (one line of a `--out` file, as JSON text) that `referee
    /// validate`, `ratings`, `view` and `Game.from_record` read: its seats named `names` (`seat
    /// 0`, ... when None), `tags` kept as they are, every ply with the seat that played it (none
    /// for chance), and the result once the game is over. Its chance plies replay from the seed
    /// when they came from it (not with explicit chance, unless they followed `seeded_chance()`).
    /// A seat's guess (`SeatView.game`) has no known history to record.
    #[pyo3(signature = (names=None, tags=None))]
    fn record(
        &self,
        names: Option<Vec<String>>,
        tags: Option<std::collections::BTreeMap<String, String>>,
    ) -> PyResult<String> {
        let Some(plies) = &self.plies else {
            return Err(RefereeError::new_err(
                "a seat's guess (SeatView.game) has no known history to record",
            ));
        };
        let seats = self.game.seats();
        let names = names.unwrap_or_else(|| (0..seats).map(|s| format!("seat {s}")).collect());
        if names.len() != seats {
            let error = format!("{} names for a game of {seats} seats", names.len());
            return Err(RefereeError::new_err(error));
        }
        let mut game = AnyGame::create(self.game.id(), &self.setup)
            .map_err(|e| SetupError::new_err(brief(e.to_string())))?;
        let mut moves = Vec::with_capacity(plies.len());
        for (ply, mv) in plies.iter().enumerate() {
            let seat = match game.to_move() {
                Some(Actor::Seat(seat)) => Some(seat),
                _ => None,
            };
            moves.push(Ply {
                ply,
                seat,
                mv: mv.to_string(),
                time_ms: None,
                clock_ms: None,
                overrun_ms: None,
                referee_delay_ms: None,
                info: None,
            });
            game.play_unchecked(mv);
        }
        let over = self.game.outcome() != Outcome::Ongoing;
        let record = Record {
            format: FORMAT.to_owned(),
            version: VERSION,
            game: self.game.id().to_owned(),
            variant: self.game.variant().map(str::to_owned),
            seats: names.into_iter().map(|name| SeatInfo { name }).collect(),
            seed: self.setup.seed,
            setup: self.game.public_setup(),
            tags: tags.unwrap_or_default(),
            moves,
            opening: None,
            faults: Vec::new(),
            result: over.then(|| GameResult {
                winners: self.winners(),
                scores: self.game.scores(),
            }),
            end: over.then_some(End::Normal {}),
        };
        serde_json::to_string(&record).map_err(|e| RefereeError::new_err(e.to_string()))
    }

    /// Replays the plies of a pickled game (see `__reduce__`).
    fn __setstate__(&mut self, state: (bool, Vec<String>)) -> PyResult<()> {
        let (explicit_chance, plies) = state;
        for text in &plies {
            self.play_text(text, None)?;
        }
        self.explicit_chance = explicit_chance;
        self.settle(None);
        Ok(())
    }

    /// The game's id.
    #[getter]
    fn id(&self) -> &'static str {
        self.game.id()
    }

    /// The variant, or None.
    #[getter]
    fn variant(&self) -> Option<&'static str> {
        self.game.variant()
    }

    /// The number of seats.
    #[getter]
    fn seats(&self) -> usize {
        self.game.seats()
    }

    /// Plies played so far, chance plies included.
    #[getter]
    fn ply(&self) -> usize {
        self.game.ply()
    }

    /// The seed of the chance events.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether the game is played with explicit chance (see `chance_due`).
    #[getter]
    fn explicit_chance(&self) -> bool {
        self.explicit_chance
    }

    /// Whether a chance ply is due (only with `explicit_chance`): then `to_move()` is None,
    /// `legal_moves()` lists the cards that may leave the stock, each as likely as any other, and
    /// `play()` plays the one drawn.
    fn chance_due(&self) -> bool {
        self.game.to_move() == Some(Actor::Chance)
    }

    /// The chance ply the game's seed draws here (None when none is due): the card a match of
    /// the referee's with this seed would play, so a game of explicit chance can follow it.
    fn seeded_chance(&self) -> Option<String> {
        if self.game.to_move() != Some(Actor::Chance) {
            return None;
        }
        self.game.seeded_chance(self.seed).map(|mv| mv.to_string())
    }

    /// An upper bound on the plies (chance plies included) of any game from this one's start,
    /// worked out from the rules: the horizon OpenSpiel's `max_game_length` asks for.
    fn max_plies(&self) -> usize {
        self.game.max_plies()
    }

    /// The seat to move (from 0), or None when the game is over.
    fn to_move(&self) -> Option<usize> {
        match self.game.to_move() {
            Some(Actor::Seat(seat)) => Some(seat),
            _ => None,
        }
    }

    /// Every move the game, as set up, can ever list, each once in a fixed order: the seats'
    /// moves, and chance's outcomes (empty where chance acts only at setup). Every position's
    /// legal moves are among them; a move's number is its place in its list (the numbered
    /// action space of OpenSpiel and PettingZoo).
    fn move_space(&self) -> (Vec<String>, Vec<String>) {
        let space = self.game.move_space();
        let texts = |moves: Vec<AnyMove>| moves.iter().map(ToString::to_string).collect();
        (texts(space.seats), texts(space.chance))
    }

    /// The legal moves of the seat to move, as the protocol writes them (a pass is `pass`).
    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        moves.iter().map(ToString::to_string).collect()
    }

    /// Plays `move` (any case) for the seat to move and returns it as the game writes it.
    /// Raises ParseError for a text that is no move of the game, IllegalMove (with the reason)
    /// for a move the rules forbid here; either way the game is unchanged.
    fn play(&mut self, r#move: &str) -> PyResult<String> {
        self.play_text(r#move, None)
    }

    /// Plays `move` as `play` does, and returns what the referee tells each seat's engine of it
    /// (and of the chance plies that follow it from the seed), in seat order, one text of lines
    /// per seat: `play 1 C1`; `event draw 0 c31:RYB` to seat 0 but `event draw 0` to the others;
    /// `event round N points=.. totals=..` when a round of DOUBLE ends.
    fn tell(&mut self, r#move: &str) -> PyResult<Vec<String>> {
        let mut told = vec![String::new(); self.game.seats()];
        self.play_text(r#move, Some(&mut told))?;
        Ok(told)
    }

    /// The `newgame` line the referee sends `seat`'s engine at the start, without its seed and
    /// clock: the game, variant, seats, the seat, and the public setup (Wyx's rack).
    fn newgame_line(&self, seat: usize) -> PyResult<String> {
        self.check_seat(seat)?;
        let mut options = vec![
            ("seats".to_owned(), self.game.seats().to_string()),
            ("seat".to_owned(), seat.to_string()),
        ];
        options.extend(self.game.public_setup().map(|s| ("setup".to_owned(), s)));
        let newgame = NewGame {
            game: self.game.id().to_owned(),
            variant: self.game.variant().map(str::to_owned),
            options,
        };
        Ok(Command::NewGame(newgame).to_string())
    }

    /// A copy in which the cards `seat` cannot see (DOUBLE: the other hands and the stock) are
    /// dealt anew from `seed`, what `seat` knows unchanged: a world a determinized or
    /// information-set search samples. Other games are copied as they are. The copy keeps this
    /// game's explicit chance and has no known history (it cannot be pickled or recorded).
    fn resample(&self, seat: usize, seed: u64) -> PyResult<Game> {
        use rand::SeedableRng;
        let seat = self.check_seat(seat)?;
        let game = match &self.game {
            AnyGame::Double(double) => {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                AnyGame::Double(double_view::redeal_hidden(double, seat, &mut rng))
            }
            other => other.clone(),
        };
        let mut copy = Game {
            game,
            seed: self.seed,
            explicit_chance: self.explicit_chance,
            setup: self.setup.clone(),
            plies: None,
        };
        copy.settle(None);
        Ok(copy)
    }

    /// An independent copy, to search from.
    fn copy(&self) -> Game {
        self.clone()
    }

    /// An independent copy (`copy.copy`).
    fn __copy__(&self) -> Game {
        self.clone()
    }

    /// An independent copy (`copy.deepcopy`).
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.outcome() != Outcome::Ongoing
    }

    /// The winning seats (several share a win; all of them for a draw); empty while it goes on.
    fn winners(&self) -> Vec<usize> {
        match self.game.outcome() {
            Outcome::Ongoing => Vec::new(),
            Outcome::Draw => (0..self.game.seats()).collect(),
            Outcome::Winners(seats) => seats,
        }
    }

    /// The result in words (`ongoing`, `draw`, `seat 1 wins`, ...).
    fn outcome(&self) -> String {
        self.game.outcome().to_string()
    }

    /// Each seat's score by the rules, in seat order (DVONN: pieces controlled; DOUBLE: points
    /// so far, lowest best).
    fn scores(&self) -> Vec<i64> {
        self.game.scores()
    }

    /// The number of move paths `depth` plies deep (chance plies count as moves), expanding at
    /// most `budget` positions (RefereeError past it). It runs without the interpreter lock, so
    /// other threads run meanwhile, and Ctrl-C stops it between the first ply's moves.
    #[pyo3(signature = (depth, budget=PERFT_BUDGET))]
    fn perft(&self, py: Python<'_>, depth: u32, budget: u64) -> PyResult<u64> {
        let spent = || {
            RefereeError::new_err(format!(
                "perft({depth}) needs more than its budget of {budget} positions expanded"
            ))
        };
        if depth <= 1 {
            let mut left = budget;
            return perft_within(&self.game, depth, &mut left).ok_or_else(spent);
        }
        let mut left = budget.checked_sub(1).ok_or_else(spent)?;
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        let mut total = 0;
        for mv in &moves {
            let mut next = self.game.clone();
            next.play_unchecked(mv);
            let counted = py.detach(|| perft_within(&next, depth - 1, &mut left));
            py.check_signals()?;
            total += counted.ok_or_else(spent)?;
        }
        Ok(total)
    }

    /// The position as text, as everyone sees it or (DOUBLE) as `seat` does.
    #[pyo3(signature = (seat=None))]
    fn render(&self, seat: Option<usize>) -> PyResult<String> {
        Ok(self.game.render(self.viewer(seat)?))
    }

    /// The shape of `observation()`'s tensor, the same at every position of the game as set up:
    /// planes, rows and columns for the board games, one length for DOUBLE.
    fn observation_shape(&self) -> Vec<usize> {
        self.game.shape()
    }

    /// The position as numbers from 0 to 1, as `seat` may see it, flat in the order of
    /// `observation_shape()` (last index fastest): for learning agents. Seats are counted from
    /// `seat`, its own first; in DOUBLE it shows `seat`'s hand and only the size of the others.
    /// python/README.md gives each game's layout.
    fn observation(&self, seat: usize) -> PyResult<Vec<f32>> {
        let mut values = Vec::new();
        self.game.features(self.check_seat(seat)?, &mut values);
        Ok(values)
    }

    /// The position as an SVG picture, as everyone sees it or (DOUBLE) as `seat` does.
    #[pyo3(signature = (seat=None))]
    fn svg(&self, seat: Option<usize>) -> PyResult<String> {
        Ok(self.game.svg(self.viewer(seat)?))
    }

    /// The public layout drawn at setup (Wyx's rack, as records store it), or None.
    fn public_setup(&self) -> Option<String> {
        self.game.public_setup()
    }

    fn __str__(&self) -> String {
        self.game.render(Viewer::Everyone)
    }

    fn __repr__(&self) -> String {
        let variant = self
            .game
            .variant()
            .map(|v| format!(" {v}"))
            .unwrap_or_default();
        format!(
            "<referee.Game {}{variant}, {} seats, ply {}, {}>",
            self.game.id(),
            self.game.seats(),
            self.game.ply(),
            self.game.outcome()
        )
    }
}

impl Game {
    /// `seat`, when the game has it.
    fn check_seat(&self, seat: usize) -> PyResult<usize> {
        match seat < self.game.seats() {
            true => Ok(seat),
            false => Err(RefereeError::new_err(format!(
                "no seat {seat} in a game of {} seats",
                self.game.seats()
            ))),
        }
    }

    /// Everyone, or `seat` when the game has it.
    fn viewer(&self, seat: Option<usize>) -> PyResult<Viewer> {
        Ok(match seat {
            None => Viewer::Everyone,
            Some(seat) => Viewer::Seat(self.check_seat(seat)?),
        })
    }

    /// The game inside.
    pub fn inner(&self) -> &AnyGame {
        &self.game
    }
}
