//! A game being played or replayed: its state, its plies, undo, and the record it makes.

use std::fmt::Write as _;
use std::time::Duration;

use crate::records::{End, FORMAT, GameResult, Ply, Record, SeatFault, SeatInfo, VERSION};
use crate::rules::game::{Actor, Game, MoveError, Outcome, Seat, Setup, SetupError};
use crate::rules::{AnyGame, AnyMove};

/// How many plies a game has room for when it starts.
const PLIES_RESERVED: usize = 128;

/// How many bytes a move's text has room for before it grows.
const MOVE_RESERVED: usize = 16;

/// A game with its history, so plies can be taken back and the game written as a record.
#[derive(Clone, Debug)]
pub struct Replay {
    game: AnyGame,
    /// The position before the first ply: a ply is taken back by playing the plies before it
    /// again from here, so a ply costs no copy of the position.
    start: Box<AnyGame>,
    seed: u64,
    plies: Vec<Ply>,
    /// Seats the referee plays for, after their faults.
    faults: Vec<SeatFault>,
    /// How many first plies were the opening.
    opening: Option<usize>,
}

impl Replay {
    /// Sets up game `id` as `setup` asks.
    pub fn new(id: &str, setup: &Setup) -> Result<Replay, SetupError> {
        let game = AnyGame::create(id, setup)?;
        Ok(Replay {
            start: Box::new(game.clone()),
            game,
            seed: setup.seed,
            // Room for a whole game of most kinds: no copies of the plies as it grows.
            plies: Vec::with_capacity(PLIES_RESERVED),
            faults: Vec::new(),
            opening: None,
        })
    }

    /// The seed of the game's random choices.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The current position.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// Parses `text` and plays it for the actor to move; on error nothing changes.
    pub fn play(&mut self, text: &str) -> Result<AnyMove, MoveError> {
        let mv = self.game.parse_move(text)?;
        self.game.check(&mv)?;
        let mv = self.game.resolve(&mv);
        let seat = match self.game.to_move() {
            Some(Actor::Seat(seat)) => Some(seat),
            _ => None,
        };
        // The move's words written once, into room enough for any ordinary move.
        let mut text = String::with_capacity(MOVE_RESERVED);
        let _ = write!(text, "{mv}");
        let ply = Ply {
            ply: self.game.ply(),
            seat,
            mv: text,
            time_ms: None,
            clock_ms: None,
            overrun_ms: None,
            referee_delay_ms: None,
            info: None,
        };
        self.game.play_unchecked(&mv);
        self.plies.push(ply);
        Ok(mv)
    }

    /// Takes the game back to its start for an undo: returns the plies before `seat`'s last ply
    /// (which, and everything after it, is dropped), to be played again with
    /// [`Replay::play_again`]; `None`, with nothing changed, when `seat` played no ply from ply
    /// `from` on.
    pub fn rewind_before_last_of(&mut self, seat: Seat, from: usize) -> Option<Vec<Ply>> {
        let last = self
            .plies
            .iter()
            .rposition(|ply| ply.seat == Some(seat))
            .filter(|&last| last >= from)?;
        let kept = self.plies[..last].to_vec();
        self.keep_plies(0);
        self.opening = None;
        Some(kept)
    }

    /// Plays a ply taken back by [`Replay::rewind_before_last_of`] again, with its times.
    pub fn play_again(&mut self, ply: &Ply) -> Result<AnyMove, MoveError> {
        let mv = self.play(&ply.mv)?;
        if let Some(again) = self.plies.last_mut() {
            again.time_ms = ply.time_ms;
            again.clock_ms = ply.clock_ms;
            again.overrun_ms = ply.overrun_ms;
        }
        Ok(mv)
    }

    /// Notes the time the last ply took, the clock left after it (when a clock runs), how late it
    /// was if the time margin let it count, and how long the referee itself was held up meanwhile.
    pub fn time_last_ply(
        &mut self,
        time: Duration,
        clock: Option<Duration>,
        late: Duration,
        referee_delay: Duration,
    ) {
        if let Some(ply) = self.plies.last_mut() {
            ply.time_ms = Some(milliseconds(time));
            ply.clock_ms = clock.map(milliseconds);
            ply.overrun_ms = (!late.is_zero()).then(|| milliseconds(late));
            ply.referee_delay_ms = (!referee_delay.is_zero()).then(|| milliseconds(referee_delay));
        }
    }

    /// How many plies have been played.
    pub fn plies(&self) -> usize {
        self.plies.len()
    }

    /// Ply `index` (from 0), as the record will hold it.
    pub fn ply(&self, index: usize) -> Option<&Ply> {
        self.plies.get(index)
    }

    /// The last ply played.
    pub fn last_ply(&self) -> Option<&Ply> {
        self.plies.last()
    }

    /// Keeps what the last ply's engine said of its thinking.
    pub fn inform_last_ply(&mut self, info: Option<crate::protocol::Info>) {
        if let Some(ply) = self.plies.last_mut() {
            ply.info = info;
        }
    }

    /// Notes that the plies so far were the game's opening.
    pub fn end_opening(&mut self) {
        self.opening = Some(self.plies.len());
    }

    /// Notes that the referee plays for `seat` from now on.
    pub fn substitute(&mut self, seat: Seat, verdict: crate::records::Verdict, detail: String) {
        self.faults.push(SeatFault {
            seat,
            ply: self.game.ply(),
            verdict,
            detail,
        });
    }

    /// Whether the referee plays for `seat`.
    pub fn is_substituted(&self, seat: Seat) -> bool {
        self.faults.iter().any(|f| f.seat == seat)
    }

    /// Plays the chance plies due now, as the seed dictates, until a seat is to move or the game is
    /// over.
    pub fn settle_chance(&mut self) {
        while self.game.to_move() == Some(Actor::Chance) {
            let Some(mv) = self.game.seeded_chance(self.seed) else {
                return;
            };
            let text = mv.to_string();
            if self.play(&text).is_err() {
                debug_assert!(false, "the seeded chance ply {text} is legal");
                return;
            }
        }
    }

    /// Takes back the last seat's ply and the chance plies after it; `false` when there is none.
    pub fn undo_seat_ply(&mut self) -> bool {
        let last_seat_ply = self.plies.iter().rposition(|ply| ply.seat.is_some());
        match last_seat_ply {
            Some(index) => {
                self.keep_plies(index);
                true
            }
            None => false,
        }
    }

    /// Takes back the last ply; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        match self.plies.len() {
            0 => false,
            plies => {
                self.keep_plies(plies - 1);
                true
            }
        }
    }

    /// Keeps the first `kept` plies: the position is theirs, played again from the start.
    fn keep_plies(&mut self, kept: usize) {
        self.plies.truncate(kept);
        self.game = (*self.start).clone();
        for ply in &self.plies {
            let mv = self.game.parse_move(&ply.mv);
            debug_assert!(mv.is_ok(), "a ply played before parses: {}", ply.mv);
            if let Ok(mv) = mv {
                self.game.play_unchecked(&mv);
            }
        }
        self.opening = self.opening.map(|opening| opening.min(kept));
    }

    /// The record of the game so far, ended by `end` if the referee ended it; a game the rules
    /// ended gets `End::Normal` by itself.
    pub fn record(&self, names: &[String], end: Option<End>) -> Record {
        self.record_of(names, end, self.plies.clone())
    }

    /// The record of the game, as [`Replay::record`] makes it, taking the plies rather than
    /// copying them.
    pub fn into_record(mut self, names: &[String], end: Option<End>) -> Record {
        let plies = std::mem::take(&mut self.plies);
        self.record_of(names, end, plies)
    }

    fn record_of(&self, names: &[String], end: Option<End>, moves: Vec<Ply>) -> Record {
        let end =
            end.or_else(|| (self.game.outcome() != Outcome::Ongoing).then_some(End::Normal {}));
        Record {
            format: FORMAT.to_owned(),
            version: VERSION,
            game: self.game.id().to_owned(),
            variant: self.game.variant().map(str::to_owned),
            seats: (0..self.game.seats())
                .map(|seat| SeatInfo {
                    name: names
                        .get(seat)
                        .cloned()
                        .unwrap_or_else(|| format!("seat{seat}")),
                })
                .collect(),
            seed: self.seed,
            setup: self.start.public_setup(),
            tags: Default::default(),
            moves,
            opening: self.opening,
            result: end
                .as_ref()
                .map(|end| result_of(&self.game, end, &self.faults)),
            faults: self.faults.clone(),
            end,
        }
    }
}

/// A duration in milliseconds to the microsecond, as records keep it.
fn milliseconds(time: Duration) -> f64 {
    time.as_micros() as f64 / 1000.0
}

/// Why a record does not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// Its game cannot be set up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// Fewer plies than asked for.
    #[error("the game has {moves} plies, not {asked}")]
    Plies {
        /// The plies it has.
        moves: usize,
        /// The plies asked for.
        asked: usize,
    },
    /// A ply that does not parse or is illegal.
    #[error("ply {ply}: {error}")]
    Move {
        /// The ply's number.
        ply: usize,
        /// Why.
        error: MoveError,
    },
}

/// Replays `record` up to `plies` plies (all of them when `None`); the moves must be legal.
pub fn replay_record(record: &Record, plies: Option<usize>) -> Result<AnyGame, ReplayError> {
    let upto = plies.unwrap_or(record.moves.len());
    if upto > record.moves.len() {
        return Err(ReplayError::Plies {
            moves: record.moves.len(),
            asked: upto,
        });
    }
    replay_steps(&record.moves[..upto], record, |_, _| ())
}

/// Replays `plies` of `record`, showing `each` every position in turn with the ply about to be
/// played from it and its move (`None` at the last position, which is returned).
pub fn replay_steps(
    plies: &[Ply],
    record: &Record,
    mut each: impl FnMut(&AnyGame, Option<(&Ply, &AnyMove)>),
) -> Result<AnyGame, ReplayError> {
    let setup = Setup {
        variant: record.variant.clone(),
        seats: Some(record.seats.len()),
        seed: record.seed,
        layout: record.setup.clone(),
    };
    let mut game = AnyGame::create(&record.game, &setup)?;
    for ply in plies {
        let error = |error: MoveError| ReplayError::Move {
            ply: ply.ply,
            error,
        };
        let mv = game
            .parse_move(&ply.mv)
            .map_err(|e| error(MoveError::Parse(e)))?;
        game.check(&mv).map_err(|e| error(MoveError::Illegal(e)))?;
        each(&game, Some((ply, &mv)));
        game.try_play(&mv)
            .map_err(|e| error(MoveError::Illegal(e)))?;
    }
    each(&game, None);
    Ok(game)
}

/// The result a game ended by `end` must have: the rules' result for a normal end, otherwise a
/// win for every seat but the one that resigned or was at fault. Seats in `faults` never win: if
/// the rules' winners are all among them, every other seat shares the win.
pub fn result_of<G: Game>(game: &G, end: &End, faults: &[SeatFault]) -> GameResult {
    let seats = game.seats();
    let faulted = |s: &Seat| faults.iter().any(|f| f.seat == *s);
    let mut winners = match end {
        End::Normal {} => game.outcome().winners(seats),
        End::Resignation { seat } | End::Verdict { seat, .. } => game.forfeit_winners(*seat),
    };
    winners.retain(|s| !faulted(s));
    if winners.is_empty() && !faults.is_empty() {
        winners = (0..seats).filter(|s| !faulted(s)).collect();
    }
    GameResult {
        winners,
        scores: game.scores(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_restores_and_record_lists_plies() {
        let setup = Setup {
            seed: 9,
            ..Setup::default()
        };
        let mut replay = Replay::new("dvonn", &setup).unwrap();
        replay.play("d2").unwrap();
        replay.play("C1").unwrap();
        assert!(replay.play("D2").is_err());
        let record = replay.record(&[], None);
        assert_eq!(record.moves.len(), 2);
        assert_eq!(record.moves[1].seat, Some(1));
        assert_eq!(record.moves[0].mv, "D2");
        assert_eq!(record.end, None);
        assert!(replay.undo() && replay.undo() && !replay.undo());
        assert_eq!(replay.game().ply(), 0);
    }

    /// Undo plays the kept plies again from the start: every position it goes back to must be
    /// the one the game had, chance plies included (DOUBLE's deals and draws).
    #[test]
    fn undo_goes_back_to_each_position_played() {
        for &id in crate::rules::GAMES {
            for seats in [None, Some(3)] {
                let setup = Setup {
                    seats,
                    seed: 5,
                    ..Setup::default()
                };
                let Ok(mut replay) = Replay::new(id, &setup) else {
                    continue;
                };
                let mut positions = vec![replay.game().clone()];
                let mut moves = Vec::new();
                let mut pick = 0usize;
                while replay.game().to_move().is_some() && positions.len() < 120 {
                    replay.game().legal_moves(&mut moves);
                    pick = pick.wrapping_mul(31).wrapping_add(7);
                    let mv = moves[pick % moves.len()].to_string();
                    moves.clear();
                    replay.play(&mv).unwrap();
                    positions.push(replay.game().clone());
                }
                positions.pop();
                while let Some(before) = positions.pop() {
                    assert!(replay.undo(), "{id}");
                    assert!(
                        *replay.game() == before,
                        "{id} after undo to ply {}",
                        before.ply()
                    );
                    assert_eq!(replay.plies(), positions.len(), "{id}");
                }
                assert!(!replay.undo());
            }
        }
    }
}
