//! A game as one seat follows it through the protocol (`newgame`, every `play`, every `event`):
//! the whole position in the games without hidden information, the seat's own view in DOUBLE.

use crate::bots::double_view;
use crate::protocol::{GameKeys, NewGame, RoundEnd};
use crate::rules::double::Double;
use crate::rules::game::{Actor, Game, Seat, Setup};
use crate::rules::{AnyGame, AnyMove};

/// The game one seat plays, kept from what the protocol tells it.
///
/// In DOUBLE the seat sees its own hand and everything public; the cards it cannot see are
/// filled in with guesses, so [`SeatView::game`]'s legal moves are exactly the seat's own when it
/// is to act, and its picture for [`Viewer::Seat`](crate::rules::game::Viewer::Seat) is true.
///
/// ```
/// use referee::bots::SeatView;
/// use referee::protocol::{Command, Request};
/// use referee::rules::Game;
///
/// let newgame = "1 newgame pegs seats=2 seat=1 seed=9 tc=inf".parse::<Request>().unwrap();
/// let Command::NewGame(new) = newgame.command else { unreachable!() };
/// let mut view = SeatView::start(&new).unwrap();
/// let ply = view.follow(Some(0), "C2C3").unwrap(); // `play 0 C2C3`
/// assert_eq!(ply, "c2c3"); // as the game writes it
/// assert_eq!(view.seat(), 1);
/// assert_eq!(view.game().ply(), 1);
/// assert!(view.follow(Some(1), "c2c3").is_err()); // not a move of seat 1 here
/// ```
#[derive(Clone, Debug)]
pub struct SeatView {
    game: AnyGame,
    seat: Seat,
}

impl SeatView {
    /// The game `newgame` starts, for the seat its `seat=` names (seat 0 without one): its
    /// variant, `seats=` and `setup=` (the Wyx rack). Other keys are ignored, as engines must.
    pub fn start(new: &NewGame) -> Result<SeatView, String> {
        let keys = GameKeys::read(&new.options).map_err(|e| e.to_string())?;
        let seat = keys.seat.unwrap_or(0);
        let setup = Setup {
            variant: new.variant.clone(),
            seats: keys.seats,
            // A seat is never told the game's seed; the public layout comes as `setup=`.
            seed: 0,
            layout: keys.setup,
        };
        let game = AnyGame::create(&new.game, &setup).map_err(|e| e.to_string())?;
        if seat >= game.seats() {
            return Err(format!(
                "seat={seat} is not a seat of a {}-seat game",
                game.seats()
            ));
        }
        let game = match game {
            AnyGame::Double(_) => AnyGame::Double(Double::seen_by(game.seats() as u8, seat as u8)),
            other => other,
        };
        Ok(SeatView { game, seat })
    }

    /// The game as this seat knows it.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The legal moves of this seat when it is to act (in DOUBLE its guesses of other hands
    /// never enter them); none otherwise.
    pub fn my_moves(&self) -> Vec<AnyMove> {
        let mut moves = Vec::new();
        if self.game.to_move() == Some(Actor::Seat(self.seat)) {
            self.game.legal_moves(&mut moves);
        }
        moves
    }

    /// Applies what the seat was told: `play SEAT MOVE` as `follow(Some(SEAT), MOVE)`, or a chance
    /// event (`event TEXT`, DOUBLE only) as `follow(None, TEXT)`. A round's scores
    /// (`event round ...`) set the seats' totals. Returns the ply as the game writes it (DOUBLE's
    /// as told). Refuses, leaving the view as it was, a move that does not parse or is illegal,
    /// or an event this view did not expect.
    pub fn follow(&mut self, actor: Option<Seat>, text: &str) -> Result<String, String> {
        if actor.is_none() && text.starts_with("round ") {
            let round =
                RoundEnd::parse(text).ok_or_else(|| format!("`{text}`: not a round's end"))?;
            // The hands shown score as the table says, not as the view's guesses of them would.
            if let AnyGame::Double(view) = &mut self.game {
                view.told_totals(&round.totals)?;
            }
            return Ok(text.to_owned());
        }
        match &mut self.game {
            AnyGame::Double(view) => {
                // `follow` may have moved guessed cards before it refuses: keep the view whole.
                let mut next = view.clone();
                double_view::follow(&mut next, actor, text)?;
                *view = next;
                Ok(text.to_owned())
            }
            game => {
                let Some(actor) = actor else {
                    return Err(format!("`{text}`: {} has no chance events", game.id()));
                };
                let mv = game.parse_move(text).map_err(|e| e.to_string())?;
                if game.to_move() != Some(Actor::Seat(actor)) {
                    return Err(format!("`{text}`: seat {actor} is not to move"));
                }
                game.try_play(&mv).map_err(|e| e.to_string())?;
                Ok(mv.to_string())
            }
        }
    }
}
