//! The CodeCup protocol (`proto=codecup`), seen from the referee: one process per game, `Start` to
//! the seat that moves first, then only the other seat's moves, one per line; the engine answers
//! each with its own move. Which games and runs it fits, and the `{time_ms}` placeholder.

use std::time::{Duration, Instant};

use crate::engine::EngineError;
use crate::play::clock::TimeControl;
use crate::play::config::MatchConfig;
use crate::play::player::Player;
use crate::play::spec::{EngineSpec, Proto};
use crate::rules::AnyGame;
use crate::rules::game::Game;

/// The placeholder in a CodeCup engine's command for its time for the whole game.
pub const TIME_MS: &str = "{time_ms}";

/// The referee's side of one CodeCup engine in one game: the other seat's moves not yet written.
#[derive(Debug, Default)]
pub struct CodeCupSeat {
    unheard: Vec<String>,
    spoken: bool,
}

impl CodeCupSeat {
    /// Notes a move of the other seat, written before the engine's next move is read.
    pub fn hear(&mut self, mv: &str) {
        self.unheard.push(mv.to_owned());
    }

    /// Writes `Start` (the engine's first message, when it moves first) or the other seat's moves
    /// since its last move, one per line, and reads its move by `deadline`. When it moves twice
    /// in a row (DVONN's 49th placement and first move), nothing is written in between.
    pub(crate) fn ask(
        &mut self,
        engine: &mut impl Player,
        deadline: Instant,
    ) -> Result<String, EngineError> {
        if !self.spoken && self.unheard.is_empty() {
            self.unheard.push("Start".to_owned());
        }
        self.spoken = true;
        for line in self.unheard.drain(..) {
            engine.write_line(&line)?;
        }
        engine.read_plain_line(deadline)
    }
}

/// The time a CodeCup engine is told it has for the whole game (`{time_ms}`): the clock it
/// starts with, or the time per move; `None` without a clock.
pub fn budget(tc: TimeControl) -> Option<Duration> {
    match tc {
        TimeControl::Fischer { base, .. } => Some(base),
        TimeControl::MoveTime(time) => Some(time),
        TimeControl::Infinite => None,
    }
}

/// The command of a CodeCup engine for one game: `{time_ms}` replaced by its budget in ms.
pub fn command_for(spec: &EngineSpec, tc: TimeControl) -> String {
    let ms = budget(tc).map_or(0, |b| b.as_millis());
    spec.command.command.replace(TIME_MS, &ms.to_string())
}

/// Whether the protocol can play `game`: two seats, nothing hidden, nothing drawn from the seed.
pub fn fits(game: &impl Game) -> bool {
    game.seats() == 2 && !game.drawn_from_seed() && !game.hides_information()
}

/// What is said of a game the protocol cannot play.
pub fn unfit(game: &str) -> String {
    format!(
        "proto=codecup plays games of two seats with nothing hidden or drawn from the seed \
         (DVONN, Pegs, two-seat Double Dutch), not {game}"
    )
}

/// Why a run cannot have its CodeCup engines.
#[derive(Debug, thiserror::Error)]
pub enum CodeCupRefusal {
    /// The game is not one the protocol can play.
    #[error("engine {engine}: {}", unfit(.game))]
    Game {
        /// The CodeCup engine's name.
        engine: String,
        /// The game asked for.
        game: String,
    },
    /// Openings were asked for.
    #[error(
        "engine {0}: proto=codecup cannot begin from an opening (the protocol cannot tell an \
         engine moves of its own it did not choose)"
    )]
    Opening(String),
    /// Its command has the time placeholder but the run has no clock.
    #[error("engine {0}: {TIME_MS} needs a clock, not --tc inf")]
    NoClock(String),
}

/// Whether a run can have its CodeCup engines: the protocol knows two seats, moves and nothing
/// else, so no setup, no hidden or drawn information, and no opening plies (it cannot tell an
/// engine moves of its own it did not choose).
pub fn check(config: &MatchConfig, game: &AnyGame) -> Result<(), CodeCupRefusal> {
    let Some(engine) = config.engines.iter().find(|e| e.proto == Proto::CodeCup) else {
        return Ok(());
    };
    let engine = &engine.command.name;
    if !fits(game) {
        return Err(CodeCupRefusal::Game {
            engine: engine.clone(),
            game: config.game.clone(),
        });
    }
    if !matches!(config.openings, crate::play::openings::Openings::None) {
        return Err(CodeCupRefusal::Opening(engine.clone()));
    }
    for spec in config.engines.iter().filter(|e| e.proto == Proto::CodeCup) {
        let tc = spec.tc.unwrap_or(config.tc);
        if spec.command.command.contains(TIME_MS) && budget(tc).is_none() {
            return Err(CodeCupRefusal::NoClock(spec.command.name.clone()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_placeholder_is_the_time_for_the_game() {
        let spec = EngineSpec::parse("name=p proto=codecup cmd='./p --ms {time_ms}'").unwrap();
        let fischer = "30+0.5".parse().unwrap();
        assert_eq!(command_for(&spec, fischer), "./p --ms 30000");
        let per_move = TimeControl::MoveTime(Duration::from_millis(250));
        assert_eq!(command_for(&spec, per_move), "./p --ms 250");
        assert_eq!(budget(TimeControl::Infinite), None);
    }
}
