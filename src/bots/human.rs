//! The human seat's terminal: the position as its seat may see it, the other seats' moves, the
//! clock, and the moves a person types, checked before they are sent (parse errors and illegal
//! moves told apart), with `?`, `undo`, `resign` and `help`.

use std::io::{self, BufRead, Write};

use crate::rules::game::{Actor, Game, MoveError, Outcome, Seat, Viewer};
use crate::rules::{AnyGame, AnyMove};

/// The longest line a person's input may have.
const MAX_INPUT: usize = 4096;

const HELP: &str = "Type a move (any case), or:
  ?        the legal moves
  board    the position again
  undo     take back your last move (games without a clock)
  resign   give up the game
  help     this text";

/// What the person answered to `genmove`: a legal move, resign, or undo (take back the last own
/// move, which the referee allows only without a clock).
pub use crate::protocol::MoveAnswer as Answer;

/// A person at a terminal: lines in, text out.
pub struct Terminal<I, O> {
    input: I,
    output: O,
    /// Set after an `undo` is answered: the referee plays the game again to the engines, and the
    /// person need not see it again.
    quiet: bool,
    /// The person's moves in this game so far.
    mine: usize,
    /// The ply at which the person last asked to take a move back, until asked again.
    undo_asked_at: Option<usize>,
    line: Vec<u8>,
    /// Each seat as the person is told it: its colour or number, and its engine's name.
    seats: Vec<String>,
}

impl<I: BufRead, O: Write> Terminal<I, O> {
    /// A terminal reading `input` and writing `output`.
    pub fn new(input: I, output: O) -> Terminal<I, O> {
        Terminal {
            input,
            output,
            quiet: false,
            mine: 0,
            undo_asked_at: None,
            line: Vec::new(),
            seats: Vec::new(),
        }
    }

    /// A new game begins, `seat` is the person's; `names` are the engines' in seat order, when
    /// the referee tells them.
    pub fn new_game(&mut self, game: &AnyGame, seat: Seat, names: Vec<String>) -> io::Result<()> {
        self.mine = 0;
        self.seats = (0..game.seats())
            .map(|s| {
                let label = game
                    .seat_colour(s)
                    .map_or_else(|| format!("seat {s}"), str::to_owned);
                match names.get(s) {
                    Some(name) => format!("{label} ({name})"),
                    None => label,
                }
            })
            .collect();
        if self.quiet {
            return Ok(());
        }
        let variant = game
            .variant()
            .map(|v| format!(" ({v})"))
            .unwrap_or_default();
        let colour = game
            .seat_colour(seat)
            .map(|c| format!(", {c}"))
            .unwrap_or_default();
        let others: Vec<&str> = (self.seats.iter().enumerate())
            .filter(|&(s, _)| s != seat)
            .map(|(_, label)| label.as_str())
            .collect();
        writeln!(
            self.output,
            "\nNew game of {}{variant}, {} seats: you are seat {seat}{colour}, against {}. Type help \
             for the commands.",
            game.id(),
            game.seats(),
            others.join(", ")
        )?;
        self.output.flush()
    }

    /// Seat `seat` played `mv` (chance did, when `None`); `game` is after it.
    pub fn heard(
        &mut self,
        me: Seat,
        seat: Option<Seat>,
        mv: &str,
        game: &AnyGame,
    ) -> io::Result<()> {
        self.mine += usize::from(seat == Some(me));
        if self.quiet {
            return Ok(());
        }
        match seat {
            Some(seat) if seat == me => {}
            Some(seat) => match self.seats.get(seat) {
                Some(label) => writeln!(self.output, "{label} plays {mv}")?,
                None => writeln!(self.output, "seat {seat} plays {mv}")?,
            },
            // The deal is seen in the hand shown with the position.
            None if mv.starts_with("deal ") => {}
            None => writeln!(self.output, "{mv}")?,
        }
        // DOUBLE's view guesses the hidden cards, so its end and scores are not known here: the
        // round's end comes as a note, and the referee says when the game is over.
        if game.outcome() != Outcome::Ongoing && !matches!(game, AnyGame::Double(_)) {
            writeln!(self.output, "{}", game.render(Viewer::Seat(me)))?;
            let scores: Vec<String> = game.scores().iter().map(i64::to_string).collect();
            writeln!(
                self.output,
                "Game over: {} (scores {})",
                game.outcome(),
                scores.join(" : ")
            )?;
        }
        self.output.flush()
    }

    /// Shows a line the referee sent for everyone (a round's end).
    pub fn note(&mut self, text: &str) -> io::Result<()> {
        if !self.quiet {
            writeln!(self.output, "{text}")?;
        }
        self.output.flush()
    }

    /// Asks the person for `me`'s move in `game` until they give a legal one, resign or undo;
    /// `clock` describes the time left, if a clock runs. At the end of the input: resign.
    pub fn ask(&mut self, game: &AnyGame, me: Seat, clock: Option<&str>) -> io::Result<Answer> {
        self.quiet = false;
        // A move taken back starts the game over: asked at the same ply, nothing was.
        if self.undo_asked_at.take() == Some(game.ply()) {
            writeln!(
                self.output,
                "not taken back: an engine in this game cannot start over"
            )?;
        }
        self.show(game, me, clock)?;
        loop {
            write!(self.output, "your move (seat {me}, ply {})> ", game.ply())?;
            self.output.flush()?;
            let end = crate::bounded::read_line(&mut self.input, &mut self.line, MAX_INPUT)?;
            let text = match end {
                None => {
                    writeln!(self.output, "\n(end of input: you resign)")?;
                    return Ok(Answer::Resign);
                }
                Some(crate::bounded::Line::TooLong) => {
                    writeln!(self.output, "too long a line")?;
                    continue;
                }
                Some(_) => String::from_utf8_lossy(&self.line).trim().to_owned(),
            };
            match text.to_ascii_lowercase().as_str() {
                "" | "board" => self.show(game, me, clock)?,
                "?" => writeln!(self.output, "{}", legal_texts(game).join(" "))?,
                "help" => writeln!(self.output, "{HELP}")?,
                "resign" => return Ok(Answer::Resign),
                "undo" if clock.is_some() => {
                    writeln!(self.output, "no undo in a game with a clock")?;
                }
                "undo" if self.mine == 0 => writeln!(self.output, "no move of yours to take back")?,
                "undo" => {
                    writeln!(self.output, "taking back your last move")?;
                    self.quiet = true;
                    self.undo_asked_at = Some(game.ply());
                    return Ok(Answer::Undo);
                }
                _ => match checked(game, &text) {
                    Ok(mv) => return Ok(Answer::Move(mv)),
                    Err(why) => writeln!(self.output, "{why}")?,
                },
            }
        }
    }

    fn show(&mut self, game: &AnyGame, me: Seat, clock: Option<&str>) -> io::Result<()> {
        writeln!(self.output, "\n{}", game.render(Viewer::Seat(me)))?;
        if let Some(clock) = clock {
            writeln!(self.output, "{clock}")?;
        }
        Ok(())
    }
}

/// The legal moves' texts.
fn legal_texts(game: &AnyGame) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.iter().map(AnyMove::to_string).collect()
}

/// `text` as a legal move's text (letters in any case), or why it is not one: not a move of the
/// game, or a move the rules forbid here.
pub fn checked(game: &AnyGame, text: &str) -> Result<String, String> {
    if game.to_move().is_none_or(|actor| actor == Actor::Chance) {
        return Err("it is not your turn".to_owned());
    }
    if let Some(legal) = legal_texts(game)
        .into_iter()
        .find(|legal| legal.eq_ignore_ascii_case(text))
    {
        return Ok(legal);
    }
    let mut first = None;
    for form in [
        text.to_owned(),
        text.to_ascii_uppercase(),
        text.to_ascii_lowercase(),
    ] {
        let mut trial = game.clone();
        let played = trial
            .parse_move(&form)
            .map_err(MoveError::from)
            .and_then(|mv| {
                trial.try_play(&mv).map_err(MoveError::from)?;
                Ok(mv)
            });
        match played {
            // Another spelling the game reads (the list holds each move's one spelling).
            Ok(mv) => return Ok(mv.to_string()),
            Err(e @ MoveError::Illegal(_)) => return Err(format!("illegal: {e}")),
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    Err(match first {
        Some(e) => format!(
            "not a move of {}: {e} (type ? for the legal moves)",
            game.id()
        ),
        None => format!("not a move of {}: {text:?}", game.id()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Setup;

    #[test]
    fn moves_are_taken_in_any_case_and_errors_say_which_kind() {
        let game = AnyGame::create("dvonn", &Setup::default()).unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let first = moves[0].to_string();
        assert_eq!(
            checked(&game, &first.to_ascii_lowercase()),
            Ok(first.clone())
        );
        let unparseable = checked(&game, "xyzzy").unwrap_err();
        assert!(
            unparseable.starts_with("not a move of dvonn"),
            "{unparseable}"
        );
        // A DVONN placement on a cell taken is a move of the game, but illegal.
        let mut after = game.clone();
        after.try_play(&moves[0]).unwrap();
        let illegal = checked(&after, &first).unwrap_err();
        assert!(illegal.starts_with("illegal"), "{illegal}");
    }
}
