//! A complete engine for `referee match`, written on the `referee` crate's rules: it plays every
//! game the referee knows, DOUBLE from its own seat's view. It wins at once when it can, avoids a
//! move that lets the next seat win at once when it can see every piece, and otherwise plays a
//! random legal move drawn from the seed `newgame` gives it, so a game replays the same. Before
//! each move it says why in an `info` line, which the referee keeps in the game's record.
//!
//!     cargo build --release --example bot
//!     referee check-engine --game double -- target/release/examples/bot
//!     referee match --game pegs --engine target/release/examples/bot --engine 'referee bot --game pegs'

use std::io;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use referee::bots::SeatView;
use referee::protocol::{Answerer, Command, Framing, GameKeys, Info, serve};
use referee::rules::game::{Actor, Outcome, Seat};
use referee::rules::{AnyGame, AnyMove, Game};

/// What the engine keeps between commands: the game as its seat follows it, and its generator.
struct Bot {
    view: Option<SeatView>,
    rng: ChaCha8Rng,
}

impl Bot {
    /// One command's answer: `Ok` is sent as `=ID TEXT`, `Err` as `?ID TEXT`, after the `info`
    /// line left in `info`, if any.
    fn answer(&mut self, command: Command, info: &mut Option<Info>) -> Result<String, String> {
        // `protocol_version`, `name`, `version`, `list_commands`, `known_command`, `quit`.
        if let Some(answer) = Answerer::Engine.handshake(&command, "example-bot") {
            return Ok(answer);
        }
        match command {
            // `newgame GAME [VARIANT] seats=N seat=K seed=S TC [setup=T]`: unknown keys ignored.
            Command::NewGame(new) => {
                let keys = GameKeys::read(&new.options).map_err(|e| e.to_string())?;
                self.view = Some(SeatView::start(&new)?);
                self.rng = ChaCha8Rng::seed_from_u64(keys.seed.unwrap_or(0));
                Ok(String::new())
            }
            // Every ply, the engine's own too; and DOUBLE's cards as this seat may see them.
            Command::Play { seat, mv } => self.view()?.follow(seat, &mv).map(|_| String::new()),
            Command::Event(text) => self.view()?.follow(None, &text).map(|_| String::new()),
            // The clock keys (`time`, `inc`, `movetime`, ...) do not matter to a bot this quick.
            Command::GenMove { seat, .. } => {
                let view = self.view.as_ref().ok_or("no game")?;
                if seat != view.seat() {
                    return Err(format!("I play seat {}, not {seat}", view.seat()));
                }
                let (mv, why) = choose(view, &mut self.rng).ok_or("no legal move")?;
                *info = Some(why);
                Ok(mv.to_string())
            }
            other => Err(format!("unknown command `{other}`")),
        }
    }

    fn view(&mut self) -> Result<&mut SeatView, String> {
        self.view.as_mut().ok_or_else(|| "no game".into())
    }
}

/// A winning move if there is one; else a random move after which the next seat cannot win at
/// once (any random move if none is safe, or if hidden cards make the replies guesses). With it,
/// what the choice rests on: `score=100` for a win, the positions looked at, and in words.
fn choose(view: &SeatView, rng: &mut ChaCha8Rng) -> Option<(AnyMove, Info)> {
    let (game, me) = (view.game(), view.seat());
    // Each move with the position it leads to.
    let after: Vec<(AnyMove, AnyGame)> = (view.my_moves().into_iter())
        .map(|mv| {
            let mut next = game.clone();
            next.play_unchecked(&mv);
            (mv, next)
        })
        .collect();
    let mut info = Info {
        nodes: Some(after.len() as u64),
        ..Info::default()
    };
    if let Some((win, _)) = after.iter().find(|(_, next)| wins(next, me)) {
        info.score = Some(100);
        info.text = Some("a winning move".into());
        return Some((*win, info));
    }
    let safe: Vec<AnyMove> = (after.iter())
        .filter(|(_, next)| game.hides_information() || !next_seat_can_win(next, me))
        .map(|(mv, _)| *mv)
        .collect();
    info.text = Some(format!("{} of {} moves safe", safe.len(), after.len()));
    let pool: Vec<AnyMove> = match safe.is_empty() {
        true => after.iter().map(|(mv, _)| *mv).collect(),
        false => safe,
    };
    (!pool.is_empty()).then(|| (pool[rng.random_range(0..pool.len())], info))
}

/// Whether `seat` alone has won.
fn wins(game: &AnyGame, seat: Seat) -> bool {
    game.outcome() == Outcome::Winners(vec![seat])
}

/// Whether another seat, to move next, has a move that wins it the game at once.
fn next_seat_can_win(game: &AnyGame, me: Seat) -> bool {
    let Some(Actor::Seat(next)) = game.to_move().filter(|&a| a != Actor::Seat(me)) else {
        return false;
    };
    let mut replies = Vec::new();
    game.legal_moves(&mut replies);
    replies.iter().any(|reply| {
        let mut then = game.clone();
        then.play_unchecked(reply);
        wins(&then, next)
    })
}

fn main() -> io::Result<()> {
    let mut bot = Bot {
        view: None,
        rng: ChaCha8Rng::seed_from_u64(0),
    };
    // `serve` reads bounded lines, answers malformed ones with `?` itself, and frames the answers.
    serve(
        io::stdin().lock(),
        io::stdout().lock(),
        Framing::Gtp,
        |command, info| bot.answer(command, info),
    )
    .map(|_errors| ())
}
