//! The `referee` Python module: the referee's own rules of DVONN, Double Dutch, Pegs, Wyx and
//! DOUBLE (nothing re-implemented), a game to search from, a seat's view of DOUBLE, and records
//! replayed.

mod game;
mod seat_view;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    referee,
    RefereeError,
    PyValueError,
    "Anything the referee refuses: the base of ParseError, IllegalMove and SetupError."
);
create_exception!(
    referee,
    ParseError,
    RefereeError,
    "A text that is no move of the game at all, wherever it is played."
);
create_exception!(
    referee,
    IllegalMove,
    RefereeError,
    "A move of the game that the rules forbid here; the message says why."
);
create_exception!(
    referee,
    SetupError,
    RefereeError,
    "A game that cannot be set up as asked: unknown game, variant or seat count."
);

/// The most bytes of an error's message kept whole: past it, its start and its length.
const MAX_MESSAGE: usize = 400;

/// `message`, or its start and its length when it is long (it may quote a hostile input whole: a
/// move of ten megabytes).
pub fn brief(message: impl Into<String>) -> String {
    let mut message = message.into();
    if message.len() > MAX_MESSAGE {
        let total = message.len();
        let mut cut = MAX_MESSAGE;
        while !message.is_char_boundary(cut) {
            cut -= 1;
        }
        message.truncate(cut);
        message.push_str(&format!("... ({total} bytes in all)"));
    }
    message
}

/// The ids of the games, as `Game` takes them.
#[pyfunction]
fn games() -> Vec<&'static str> {
    rules::rules::GAMES.to_vec()
}

/// The rules of a game in words, as `referee rules GAME` prints them.
#[pyfunction]
fn rules_text(game_id: &str) -> PyResult<&'static str> {
    rules::rules::docs::page(game_id).ok_or_else(|| {
        SetupError::new_err(brief(format!("no game {game_id} (games() lists them)")))
    })
}

#[pymodule]
fn _referee(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("RefereeError", py.get_type::<RefereeError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("IllegalMove", py.get_type::<IllegalMove>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add_class::<game::Game>()?;
    m.add_class::<seat_view::SeatView>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(rules_text, m)?)?;
    Ok(())
}
