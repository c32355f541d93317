//! `referee.SeatView`: a game as one seat follows it through the protocol, DOUBLE's hidden
//! hands included: the same view the referee's built-in bots keep.

use pyo3::prelude::*;
use rules::bots::{self, double_view};
use rules::protocol::NewGame;
use rules::rules::AnyGame;
use rules::rules::Game as _;
use rules::rules::game::{Actor, Outcome, Viewer};

use crate::game::{Game, move_error};
use crate::{IllegalMove, SetupError, brief};

/// One seat's view of a game, kept from what the engine protocol tells that seat: `play SEAT
/// MOVE` lines are `follow(SEAT, MOVE)`, `event TEXT` lines (DOUBLE's deals and draws, as the
/// seat is told them) are `follow(None, TEXT)`. In DOUBLE the cards the seat cannot see are
/// guesses, so `legal_moves()` are exactly its own moves when it is to act.
#[pyclass(module = "referee")]
pub struct SeatView {
    view: bots::SeatView,
}

#[pymethods]
impl SeatView {
    /// The view of `seat` of the game `newgame` would start: the game's id, variant, seats and
    /// (Wyx) the public rack as `newgame`'s `setup=` gives it.
    #[new]
    #[pyo3(signature = (game_id, variant=None, seats=None, seat=0, setup=None))]
    fn new(
        game_id: &str,
        variant: Option<String>,
        seats: Option<usize>,
        seat: usize,
        setup: Option<String>,
    ) -> PyResult<SeatView> {
        let mut options = vec![("seat".to_owned(), seat.to_string())];
        options.extend(seats.map(|n| ("seats".to_owned(), n.to_string())));
        options.extend(setup.map(|s| ("setup".to_owned(), s)));
        let new = NewGame {
            game: game_id.to_owned(),
            variant,
            options,
        };
        let view = bots::SeatView::start(&new).map_err(|e| SetupError::new_err(brief(e)))?;
        Ok(SeatView { view })
    }

    /// The seat whose view this is.
    #[getter]
    fn seat(&self) -> usize {
        self.view.seat()
    }

    /// Applies what the seat was told: a seat's move (`seat` a number) or a chance event (`seat`
    /// None). Returns the ply as the game writes it. Raises ParseError for a move that is no move
    /// of the game, IllegalMove for one that cannot be played here or an event not expected;
    /// the view is then unchanged.
    #[pyo3(signature = (seat, text))]
    fn follow(&mut self, seat: Option<usize>, text: &str) -> PyResult<String> {
        if seat.is_some() {
            // Told apart first: a text that is no move at all is not an illegal move.
            (self.view.game().parse_move(text))
                .map_err(|e| move_error(rules::rules::game::MoveError::Parse(e)))?;
        }
        self.view
            .follow(seat, text)
            .map_err(|e| IllegalMove::new_err(brief(e)))
    }

    /// This seat's legal moves when it is to act; empty otherwise.
    fn legal_moves(&self) -> Vec<String> {
        self.view
            .my_moves()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The seat to act, None for a chance event or when the game is over.
    fn to_move(&self) -> Option<usize> {
        match self.view.game().to_move() {
            Some(Actor::Seat(seat)) => Some(seat),
            _ => None,
        }
    }

    /// Whether a chance event (an `event` line) is due before a seat acts.
    fn chance_due(&self) -> bool {
        self.view.game().to_move() == Some(Actor::Chance)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.view.game().outcome() != Outcome::Ongoing
    }

    /// A copy of the game as this seat knows it, to search from. In DOUBLE the cards it cannot
    /// see are guesses: the view's own, or, given a `seed`, dealt anew from it (a different guess
    /// for each seed, as a determinized search wants); the copy's chance events come from `seed`
    /// (0 when None).
    #[pyo3(signature = (seed=None))]
    fn game(&self, seed: Option<u64>) -> Game {
        use rand::SeedableRng;
        let game = match (self.view.game(), seed) {
            (AnyGame::Double(view), Some(seed)) => {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                AnyGame::Double(double_view::redeal_hidden(view, self.view.seat(), &mut rng))
            }
            (AnyGame::Double(view), None) => AnyGame::Double(view.possible_world()),
            (game, _) => game.clone(),
        };
        Game::from_any(game, seed.unwrap_or(0))
    }

    /// The position as this seat sees it.
    fn render(&self) -> String {
        self.view.game().render(Viewer::Seat(self.view.seat()))
    }
}
