//! The turn loop with engines played in-process: no processes, no Python, no clock waits.

use super::*;
use crate::bots::SeatView;
use crate::engine::EngineError;
use crate::play::clock::TimeControl;
use crate::protocol::Request;
use crate::rules::game::{Outcome, Seat, Setup};
use std::time::Duration;

/// What a fake engine does when asked to move.
#[derive(Clone, Copy)]
enum Turn {
    /// Its seat's first legal move, in the game's order.
    Legal,
    /// The last move it heard (an occupied cell in DVONN's placement: illegal).
    Echo,
    /// This text.
    Say(&'static str),
    /// No answer by the deadline.
    Silent,
}

/// An engine played in-process: it follows the game through its seat's view, as the built-in
/// bots do, and answers each `genmove` as its script says (then [`Turn::Legal`]).
struct Fake {
    view: Option<SeatView>,
    script: VecDeque<Turn>,
    heard: Vec<String>,
    killed: bool,
    /// A CPU clock's reading, and the CPU time each move takes, where the fake has one.
    cpu: Option<(Duration, Duration)>,
    /// The CPU time its next answer may take (see `Player::limit_cpu`).
    cpu_budget: Option<Duration>,
}

impl Fake {
    fn new(script: &[Turn]) -> Fake {
        Fake {
            view: None,
            script: script.iter().copied().collect(),
            heard: Vec::new(),
            killed: false,
            cpu: None,
            cpu_budget: None,
        }
    }

    /// The fake, each of its moves taking `per_move` of CPU time.
    fn thinking(script: &[Turn], per_move: Duration) -> Fake {
        Fake {
            cpu: Some((Duration::ZERO, per_move)),
            ..Fake::new(script)
        }
    }

    fn answer(&mut self, line: &str) -> Result<String, EngineError> {
        if self.killed {
            return Err(EngineError::ClosedOutput);
        }
        self.heard.push(line.to_owned());
        let request: Request = line.parse().expect("the referee writes commands");
        let follow = |view: &mut Option<SeatView>, seat, text: &str| {
            let view = view.as_mut().expect("newgame came first");
            view.follow(seat, text)
                .expect("the referee tells legal plies");
        };
        match request.command {
            Command::NewGame(new) => self.view = Some(SeatView::start(&new).unwrap()),
            Command::Play { seat, mv } => follow(&mut self.view, seat, &mv),
            Command::Event(text) => follow(&mut self.view, None, &text),
            Command::GenMove { .. } => {
                if let Some((used, per_move)) = &mut self.cpu {
                    *used += *per_move;
                    if self.cpu_budget.is_some_and(|budget| *per_move > budget) {
                        return Err(EngineError::Timeout);
                    }
                }
                let view = self.view.as_ref().expect("newgame came first");
                let mut moves: Vec<String> =
                    view.my_moves().iter().map(ToString::to_string).collect();
                moves.sort();
                let last_heard = (self.heard.iter().rev())
                    .find_map(|l| l.strip_prefix("play ").and_then(|p| p.split(' ').nth(1)));
                return match self.script.pop_front().unwrap_or(Turn::Legal) {
                    Turn::Legal => Ok(moves[0].clone()),
                    Turn::Echo => Ok(last_heard.unwrap_or("none").to_owned()),
                    Turn::Say(text) => Ok(text.to_owned()),
                    Turn::Silent => Err(EngineError::Timeout),
                };
            }
            _ => {}
        }
        Ok(String::new())
    }

    fn count(&self, word: &str) -> usize {
        self.heard.iter().filter(|l| l.starts_with(word)).count()
    }
}

impl Player for Fake {
    fn hold(&mut self, command: &str) -> Result<u64, EngineError> {
        self.answer(command).map(|_| 0)
    }
    fn hold_inform(&mut self, command: &str) -> Result<u64, EngineError> {
        self.hold(command)
    }
    fn send_held(&mut self) -> Result<(), EngineError> {
        Ok(())
    }
    fn request(&mut self, command: &str, _: Instant) -> Result<String, EngineError> {
        self.answer(command)
    }
    fn write_line(&mut self, _: &str) -> Result<(), EngineError> {
        Err(EngineError::ClosedOutput)
    }
    fn read_plain_line(&mut self, _: Instant) -> Result<String, EngineError> {
        Err(EngineError::ClosedOutput)
    }
    fn own_delay(&self) -> Duration {
        Duration::ZERO
    }
    fn take_info(&mut self) -> Option<crate::protocol::Info> {
        None
    }
    fn kill(&mut self) {
        self.killed = true;
    }
    fn stderr_tail(&mut self) -> Vec<String> {
        vec!["a line on stderr".to_owned()]
    }
    fn cpu_time(&self) -> Option<Duration> {
        self.cpu.map(|(used, _)| used)
    }
    fn limit_cpu(&mut self, budget: Option<Duration>) {
        self.cpu_budget = budget;
    }
}

fn config(game: &str, seats: usize, on_fault: OnFault, human: bool) -> MatchConfig {
    let mut engines: Vec<EngineSpec> = (0..seats)
        .map(|s| EngineSpec::parse(&format!("name=e{s} cmd=none")).unwrap())
        .collect();
    engines[0].command.terminal = human;
    MatchConfig {
        margin: Duration::from_secs(1),
        startup: Duration::from_secs(1),
        on_fault,
        log_limit: 0,
        // No clock: an undo needs a game without one, and the fakes answer at once.
        ..MatchConfig::new(game, engines, 1, TimeControl::Infinite)
    }
}

/// Plays one game of `config` between fakes with `scripts`; the end, the game and the fakes.
fn play(config: &MatchConfig, scripts: &[&[Turn]]) -> (Result<(), End>, Replay, Vec<Fake>) {
    play_fakes(config, scripts.iter().map(|s| Fake::new(s)).collect())
}

/// Plays one game of `config` between `fakes`; the end, the game and the fakes.
fn play_fakes(config: &MatchConfig, mut fakes: Vec<Fake>) -> (Result<(), End>, Replay, Vec<Fake>) {
    let seats = fakes.len();
    let scheduled = Scheduled {
        index: 0,
        engines: (0..seats).collect(),
        group: 0,
        seed: 5,
    };
    let setup = Setup {
        seats: Some(seats),
        seed: scheduled.seed,
        ..Setup::default()
    };
    let mut replay = Replay::new(&config.game, &setup).unwrap();
    let mut healthy = vec![true; seats];
    let end = Table::new(config, &scheduled, &mut replay, &mut fakes, &mut healthy).play();
    (end, replay, fakes)
}

fn verdict(end: Result<(), End>) -> (Seat, Verdict, String) {
    match end {
        Err(End::Verdict {
            seat,
            verdict,
            detail,
        }) => (seat, verdict, detail),
        other => panic!("no verdict: {other:?}"),
    }
}

#[test]
fn every_engine_hears_the_game_from_newgame_to_the_last_ply() {
    let config = config("dvonn", 2, OnFault::Forfeit, false);
    let (end, replay, fakes) = play(&config, &[&[], &[]]);
    assert_eq!(end, Ok(()));
    assert_ne!(replay.game().outcome(), Outcome::Ongoing);
    let plies = replay.game().ply();
    for (seat, fake) in fakes.iter().enumerate() {
        let newgame = format!("newgame dvonn seats=2 seat={seat} seed=");
        assert!(fake.heard[0].starts_with(&newgame), "{}", fake.heard[0]);
        assert!(fake.heard[0].ends_with(" tc=inf"), "{}", fake.heard[0]);
        // Every ply, its own too; and a genmove for each of its own.
        assert_eq!(fake.count("play "), plies);
        assert_eq!(fake.count("genmove "), fake.count(&format!("play {seat} ")));
    }
}

#[test]
fn illegal_unparseable_and_silent_answers_are_the_seats_faults() {
    let config = config("dvonn", 2, OnFault::Forfeit, false);
    for (turn, expected) in [
        (Turn::Echo, Verdict::IllegalMove),
        (Turn::Say("nonsense"), Verdict::UnparseableMove),
        (Turn::Say("D2\nD3"), Verdict::ProtocolError),
        (Turn::Silent, Verdict::Stall),
    ] {
        let (end, replay, _) = play(&config, &[&[], &[turn]]);
        let (seat, verdict, detail) = verdict(end);
        assert_eq!((seat, verdict), (1, expected), "{detail}");
        // The fault ends the game where it happened: seat 0 had placed one piece.
        assert_eq!(replay.game().ply(), 1);
    }
    // A resignation is the seat's own end, not a fault.
    let (end, _, _) = play(&config, &[&[Turn::Legal, Turn::Say("resign")], &[]]);
    assert_eq!(end, Err(End::Resignation { seat: 0 }));
}

#[test]
fn a_faulty_seat_of_three_is_played_by_the_referee_when_asked() {
    let config = config("double-dutch", 3, OnFault::Substitute, false);
    let (end, replay, fakes) = play(&config, &[&[], &[], &[Turn::Legal, Turn::Silent]]);
    assert_eq!(end, Ok(()), "the game goes on without the faulty engine");
    assert!(replay.is_substituted(2));
    assert!(fakes[2].killed);
    // The others heard every ply, the substitute's included.
    let plies = replay.game().ply();
    assert!(plies > 6, "{plies}");
    assert_eq!(fakes[0].count("play "), plies);
    assert_eq!(fakes[1].count("play "), plies);
    // Without substitutes, the same fault ends the game against the seat.
    let config = self::config("double-dutch", 3, OnFault::Forfeit, false);
    let (end, _, _) = play(&config, &[&[], &[], &[Turn::Legal, Turn::Silent]]);
    assert_eq!(verdict(end).0, 2);
}

#[test]
fn a_human_seat_takes_its_move_back_and_the_game_starts_over_for_everyone() {
    let human = config("dvonn", 2, OnFault::Forfeit, true);
    let script: &[Turn] = &[Turn::Legal, Turn::Legal, Turn::Say("undo")];
    let (end, replay, fakes) = play(&human, &[script, &[]]);
    assert_eq!(end, Ok(()));
    // Both engines were told the game again, and the plies before the undone move.
    assert_eq!(fakes[0].count("newgame "), 2);
    assert_eq!(fakes[1].count("newgame "), 2);
    let (_, plain, _) = play(&human, &[&[], &[]]);
    // The seat played the same move again: the game is the one played without the undo.
    assert_eq!(replay.game().ply(), plain.game().ply());
    // Plies 0-3 were told before the undo (of ply 2, seat 0's second move, and ply 3 after
    // it); then plies 0-1 again, and the game on from ply 2.
    assert_eq!(fakes[0].count("play "), 4 + 2 + (plain.game().ply() - 2));
    // An engine that is not the human seat cannot undo: its `undo` is not a move.
    let engine = config("dvonn", 2, OnFault::Forfeit, false);
    let (end, _, _) = play(&engine, &[&[Turn::Legal, Turn::Say("undo")], &[]]);
    assert_eq!(verdict(end).1, Verdict::UnparseableMove);
}

#[test]
fn a_cpu_clock_charges_the_cpu_time_an_engine_used_and_ends_a_wait_when_it_is_spent() {
    let mut config = config("pegs", 2, OnFault::Forfeit, false);
    config.cpu_clock = true;
    config.tc = TimeControl::MoveTime(Duration::from_millis(100));
    let ms = Duration::from_millis;
    // 30 ms of CPU a move, answered at once: each ply is charged 30 ms, not the time that passed.
    let fakes = vec![Fake::thinking(&[], ms(30)), Fake::thinking(&[], ms(30))];
    let (end, replay, _) = play_fakes(&config, fakes);
    assert_eq!(end, Ok(()));
    for ply in (0..replay.plies())
        .filter_map(|i| replay.ply(i))
        .filter(|p| p.seat.is_some())
    {
        assert_eq!(ply.time_ms, Some(30.0), "{ply:?}");
    }
    // 200 ms of CPU for a move of 100 ms: a loss on time, though it answered at once.
    let fakes = vec![Fake::thinking(&[], ms(30)), Fake::thinking(&[], ms(200))];
    let (seat, lost, detail) = verdict(play_fakes(&config, fakes).0);
    assert_eq!((seat, lost), (1, Verdict::TimeLoss), "{detail}");
    // Past its time and the margin in CPU time, the wait ends: a stall, said in CPU time.
    let fakes = vec![Fake::thinking(&[], ms(30)), Fake::thinking(&[], ms(2000))];
    let (seat, stalled, detail) = verdict(play_fakes(&config, fakes).0);
    assert_eq!((seat, stalled), (1, Verdict::Stall), "{detail}");
    assert!(
        detail.starts_with("no answer within 1100 ms of CPU time"),
        "{detail}"
    );
    // The same engines on the wall clock are charged what passed: far less than 30 ms.
    config.cpu_clock = false;
    let fakes = vec![Fake::thinking(&[], ms(30)), Fake::thinking(&[], ms(2000))];
    let (end, replay, _) = play_fakes(&config, fakes);
    assert_eq!(end, Ok(()));
    assert!(
        replay
            .ply(1)
            .and_then(|p| p.time_ms)
            .is_some_and(|t| t < 30.0)
    );
}
