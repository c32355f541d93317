//! Built-in engines: strategies that choose moves, and the engine side of the protocol for them.

pub mod double_view;
mod evaluate;
pub mod human;
pub mod ismcts;
pub mod search;
mod seat_view;

pub use seat_view::SeatView;

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::protocol::{Answerer, ClockKeys, Command, GameKeys, Info};
use crate::rules::double::{self, Double};
use crate::rules::dvonn::Cell;
use crate::rules::game::{Actor, Game, Seat, Setup};
use crate::rules::{AnyGame, AnyMove};
use ismcts::Sampled;
use search::{Budget, search};

/// How a built-in bot chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// A uniformly random legal move.
    Random,
    /// Within the time the clock allows: alpha-beta search for two seats, Monte Carlo playouts
    /// for more.
    Search,
    /// A person at the terminal (see [`human`]).
    Human,
}

impl Strategy {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Search => "search",
            Strategy::Human => "human",
        }
    }
}

/// FNV-1a: a hash that, unlike std's, is fixed forever, so seeded choices stay reproducible.
fn fnv1a(seed: u64, texts: &[String]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325 ^ seed;
    for byte in texts.iter().flat_map(|t| t.bytes().chain([b' '])) {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Chooses a move for the seat to move. `history` is every ply so far, so a random choice depends
/// only on the seed and the game, not on which process or thread plays it.
pub fn choose(
    strategy: Strategy,
    game: &AnyGame,
    history: &[String],
    seed: u64,
    think: Duration,
) -> Option<AnyMove> {
    choose_and_tell(strategy, game, history, seed, (think, u64::MAX)).map(|(mv, _)| mv)
}

/// [`choose`] within `think` and at most `nodes` positions (search) or playouts (Monte Carlo),
/// with what the choice rests on, as an `info` line says it: a search's value of the move for
/// the seat (the evaluation's units), depth and nodes; Monte Carlo's expected share of the win
/// in hundredths and its playouts (as nodes); the time either took. Nothing for a random choice
/// or a move that was the only one.
pub fn choose_and_tell(
    strategy: Strategy,
    game: &AnyGame,
    history: &[String],
    seed: u64,
    (think, nodes): (Duration, u64),
) -> Option<(AnyMove, Option<Info>)> {
    let started = Instant::now();
    let sampled = |sampled: Sampled<AnyMove>| {
        let info = sampled.worth.map(|worth| Info {
            score: Some((worth * 100.0).round() as i64),
            nodes: Some(sampled.playouts),
            time: Some(started.elapsed().as_millis() as u64),
            ..Info::default()
        });
        (sampled.best, info)
    };
    match strategy {
        Strategy::Random => {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                return None;
            }
            let mut rng = ChaCha8Rng::seed_from_u64(fnv1a(seed, history));
            let index = rng.random_range(0..moves.len());
            Some((moves.swap_remove(index), None))
        }
        Strategy::Search if matches!(game, AnyGame::Double(_)) => {
            let AnyGame::Double(view) = game else {
                unreachable!("matched just above")
            };
            let deadline = Instant::now() + think;
            let found = double_search(view, (deadline, nodes), fnv1a(seed, history))?;
            Some(sampled(Sampled {
                best: AnyMove::Double(found.best),
                worth: found.worth,
                playouts: found.playouts,
            }))
        }
        Strategy::Search if game.seats() > 2 => {
            let deadline = Instant::now() + think;
            ismcts::perfect_information(game, deadline, nodes, fnv1a(seed, history)).map(sampled)
        }
        // A person chooses at the terminal, not here.
        Strategy::Human => None,
        Strategy::Search => {
            let budget = Budget {
                deadline: Instant::now() + phase_share(game, think),
                max_depth: 64,
                max_nodes: nodes,
            };
            let found = search(game, budget, fnv1a(seed, history))?;
            let info = found.score.map(|score| Info {
                score: Some(i64::from(score)),
                depth: Some(u64::from(found.depth)),
                nodes: Some(found.nodes),
                time: Some(started.elapsed().as_millis() as u64),
                ..Info::default()
            });
            Some((found.best, info))
        }
    }
}

/// Information-set Monte Carlo tree search for DOUBLE from the seat's own view ([`ismcts`]):
/// each iteration deals the cards the seat cannot see anew and plays to the end of the round;
/// a seat's reward is its share of the round's lowest penalty.
fn double_search(
    view: &Double,
    (deadline, iterations): (Instant, u64),
    seed: u64,
) -> Option<Sampled<double::Move>> {
    let Some(Actor::Seat(me)) = view.to_move() else {
        return None;
    };
    let (round, before) = (view.round(), view.scores());
    let rewards = move |g: &Double, won: &mut [f64]| {
        if g.round() == round && g.to_move().is_some() {
            return false;
        }
        let penalties: Vec<i64> = g.scores().iter().zip(&before).map(|(a, b)| a - b).collect();
        let lowest = penalties.iter().copied().min().unwrap_or(0);
        let sharing = penalties.iter().filter(|&&p| p == lowest).count();
        for (won, &penalty) in won.iter_mut().zip(&penalties) {
            *won = if penalty == lowest {
                1.0 / sharing as f64
            } else {
                0.0
            };
        }
        true
    };
    ismcts::ismcts(
        view,
        deadline,
        iterations,
        seed,
        |v, rng| double_view::redeal_hidden(v, me, rng),
        rewards,
        playout_rank,
    )
}

/// How DOUBLE's playouts choose (highest first): lay a card over two sectors while one can, which
/// empties the hand fastest; else over one (a card out, one in); else end the turn; draw last.
fn playout_rank(mv: &double::Move) -> u8 {
    match mv {
        double::Move::Cover { .. } => 3,
        double::Move::Single { .. } => 2,
        double::Move::Stop => 1,
        _ => 0,
    }
}

/// How long to think, from `genmove`'s clock facts (milliseconds) and the bot's guess of how
/// many moves it has left to play (`movestogo` when the clock says): a share of the time left
/// plus most of the increment, or under half a fixed move time; a second when no clock runs. The
/// rest is for the answer's trip, the process being scheduled, and unoptimised builds.
pub fn thinking_time(clock: &ClockKeys, moves_left: u64) -> Duration {
    let ms = if let Some(movetime) = clock.movetime {
        (movetime * 45 / 100).saturating_sub(2)
    } else if let Some(time) = clock.time {
        let moves = clock.movestogo.unwrap_or(moves_left).clamp(1, 30);
        let inc = clock.inc.unwrap_or(0);
        (time / (moves + 2) + inc * 8 / 10)
            .min(time * 3 / 10)
            .saturating_sub(2)
    } else {
        1000
    };
    Duration::from_millis(ms.max(1))
}

/// About how many more moves the seat to move will make: 30 where the game gives no better
/// guess. A DVONN stack move takes at least one stack off the board, and a seat makes about
/// two in five of the moves left, so the time left is spread over those (at a fixed 30, the
/// search bot used 4 s of a 10 s game and lost on the board to programs that used it all).
fn moves_left(game: &AnyGame) -> u64 {
    match game {
        AnyGame::Dvonn(dvonn) if !dvonn.placing() => {
            let stacks = Cell::all().filter(|&c| dvonn.stack(c).is_some()).count() as u64;
            (stacks * 2 / 5).clamp(4, 30)
        }
        _ => 30,
    }
}

/// The part of a move's thinking time `think` the search spends on the move at hand: all of it,
/// except that a DVONN placement gets an eighth. Placements are many (about 25 a side) and
/// decided by the stack moves that follow, so time spent on them is lost where it counts: at an
/// even share the search bot spent three quarters of a 10 s game placing.
fn phase_share(game: &AnyGame, think: Duration) -> Duration {
    match game {
        AnyGame::Dvonn(dvonn) if dvonn.placing() => think / 8,
        _ => think,
    }
}

/// What a built-in engine knows between commands.
struct BotState {
    game_id: String,
    strategy: Strategy,
    seed: u64,
    /// The bot's seed mixed with the seed `newgame` gave for this game.
    game_seed: u64,
    /// At most this many positions or playouts a move (`nodes=N` in `newgame`, else
    /// `default_nodes`, the bot's own `--nodes`).
    nodes: u64,
    default_nodes: u64,
    /// The game as its seat follows it, once `newgame` has started one.
    view: Option<SeatView>,
    history: Vec<String>,
    /// The person's terminal, for [`Strategy::Human`].
    terminal: Option<HumanTerminal>,
}

/// The human seat's terminal: the referee's standard input and output.
pub type HumanTerminal = human::Terminal<Box<dyn BufRead>, Box<dyn Write>>;

impl BotState {
    /// The answer to `command`; a move's `info` goes in `info`.
    fn answer(&mut self, command: Command, info: &mut Option<Info>) -> Result<String, String> {
        // Made only for `name`: every ply's commands pass here.
        let name = match (&command, self.strategy) {
            (Command::Name, Strategy::Human) => "human".to_owned(),
            (Command::Name, strategy) => format!("referee-{}", strategy.name()),
            _ => String::new(),
        };
        if let Some(answer) = Answerer::Engine.handshake(&command, &name) {
            return Ok(answer);
        }
        match command {
            Command::NewGame(new) => {
                if !new.game.eq_ignore_ascii_case(&self.game_id) {
                    return Err(format!("this bot plays {}, not {}", self.game_id, new.game));
                }
                let keys = GameKeys::read(&new.options).map_err(|e| e.to_string())?;
                self.game_seed = self.seed ^ keys.seed.unwrap_or(0);
                // `nodes=N` (an organiser's `--each nodes=N`): the same work a move whatever
                // the machine's load, within the clock.
                self.nodes = (new.option("nodes"))
                    .and_then(|n| n.parse::<u64>().ok())
                    .filter(|&n| n > 0)
                    .unwrap_or(self.default_nodes);
                let view = SeatView::start(&new)?;
                if let Some(terminal) = &mut self.terminal {
                    let names: Vec<String> = (new.option("names"))
                        .map(|n| n.split(',').map(str::to_owned).collect())
                        .unwrap_or_default();
                    terminal
                        .new_game(view.game(), view.seat(), names)
                        .map_err(|e| e.to_string())?;
                }
                self.view = Some(view);
                self.history.clear();
                Ok(String::new())
            }
            Command::Play { seat, mv } => self.follow(seat, mv),
            // A round's scores are public knowledge the bots do not use; a person sees them.
            Command::Event(text) if text.starts_with("round ") => match &mut self.terminal {
                Some(terminal) => terminal
                    .note(&text)
                    .map(|()| String::new())
                    .map_err(|e| e.to_string()),
                None => Ok(String::new()),
            },
            Command::Event(text) => self.follow(None, text),
            Command::GenMove { seat, options } => {
                let game = self.view.as_ref().ok_or("no game")?.game();
                if game.to_move() != Some(Actor::Seat(seat)) {
                    return Err(format!("seat {seat} is not to move"));
                }
                let clock = ClockKeys::read(&options);
                if let Some(terminal) = &mut self.terminal {
                    let clock = clock_text(&clock);
                    return (terminal.ask(game, seat, clock.as_deref()))
                        .map(|answer| answer.to_string())
                        .map_err(|e| e.to_string());
                }
                let think = thinking_time(&clock, moves_left(game));
                let budget = (think, self.nodes);
                let (mv, thought) =
                    choose_and_tell(self.strategy, game, &self.history, self.game_seed, budget)
                        .ok_or("no legal move")?;
                *info = thought;
                Ok(mv.to_string())
            }
            other => Err(format!("unknown command `{other}`")),
        }
    }
}

impl BotState {
    /// Applies a ply (`play`, with the seat that acted) or a chance event (`event`) to the game.
    fn follow(&mut self, actor: Option<Seat>, mv: String) -> Result<String, String> {
        let view = self.view.as_mut().ok_or("no game")?;
        // The history holds each ply as the game writes it, so seeded choices do not depend on
        // how a move was spelled.
        let ply = view.follow(actor, &mv)?;
        if let Some(terminal) = &mut self.terminal {
            terminal
                .heard(view.seat(), actor, &ply, view.game())
                .map_err(|e| e.to_string())?;
        }
        self.history.push(ply);
        Ok(String::new())
    }
}

/// What a person is told of the clocks from `genmove`'s keys; `None` when no clock runs.
fn clock_text(clock: &ClockKeys) -> Option<String> {
    let seconds = |ms: u64| format!("{}.{:01} s", ms / 1000, ms % 1000 / 100);
    if let Some(movetime) = clock.movetime {
        return Some(format!("time for this move: {}", seconds(movetime)));
    }
    let mut text = format!("your clock: {}", seconds(clock.time?));
    if let Some(inc) = clock.inc.filter(|&inc| inc != 0) {
        text.push_str(&format!(" (+{} a move)", seconds(inc)));
    }
    if let Some(moves) = clock.movestogo {
        text.push_str(&format!(", {moves} moves to go"));
    }
    if !clock.clocks.is_empty() {
        let all: Vec<String> = clock.clocks.iter().map(|&ms| seconds(ms)).collect();
        text.push_str(&format!("; every seat's: {}", all.join(", ")));
    }
    Some(text)
}

/// Runs a built-in engine for `game_id` over `input`/`output` until `quit` or end of input; a
/// [`Strategy::Human`] asks the person at `terminal`.
pub fn run(
    game_id: &str,
    strategy: Strategy,
    (seed, nodes): (u64, Option<u64>),
    input: impl BufRead,
    output: impl Write,
    terminal: Option<HumanTerminal>,
) -> io::Result<()> {
    AnyGame::create(game_id, &Setup::default())
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let mut state = BotState {
        game_id: game_id.to_owned(),
        strategy,
        seed,
        game_seed: seed,
        nodes: nodes.unwrap_or(u64::MAX),
        default_nodes: nodes.unwrap_or(u64::MAX),
        view: None,
        history: Vec::new(),
        terminal,
    };
    crate::protocol::serve(
        input,
        output,
        crate::protocol::Framing::Gtp,
        |command, info| state.answer(command, info),
    )
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dvonn_placement_gets_an_eighth_of_a_moves_time_and_nothing_else_is_cut() {
        let think = Duration::from_millis(800);
        let mut dvonn = AnyGame::create("dvonn", &Setup::default()).unwrap();
        assert_eq!(phase_share(&dvonn, think), Duration::from_millis(100));
        let mut moves = Vec::new();
        for _ in 0..49 {
            moves.clear();
            dvonn.legal_moves(&mut moves);
            dvonn.play_unchecked(&moves[0]);
        }
        assert_eq!(phase_share(&dvonn, think), think);
        let pegs = AnyGame::create("pegs", &Setup::default()).unwrap();
        assert_eq!(phase_share(&pegs, think), think);
    }

    fn play_game(strategies: [Strategy; 2], seed: u64, think: Duration) -> AnyGame {
        let mut game = AnyGame::create("dvonn", &Setup::default()).unwrap();
        let mut history = Vec::new();
        while let Some(Actor::Seat(seat)) = game.to_move() {
            let mv = choose(strategies[seat], &game, &history, seed + seat as u64, think).unwrap();
            game.try_play(&mv).unwrap();
            history.push(mv.to_string());
        }
        game
    }

    /// With `nodes=N` in `newgame`, the search looks at about N positions a move, however long
    /// its clock: the same answer every time.
    #[test]
    fn a_node_budget_makes_the_search_the_same_whatever_the_time() {
        let answer = || {
            let input =
                "newgame pegs seats=2 seat=0 seed=3 nodes=500\ngenmove 0 movetime=5000\nquit\n";
            let mut output = Vec::new();
            run(
                "pegs",
                Strategy::Search,
                (5, None),
                input.as_bytes(),
                &mut output,
                None,
            )
            .unwrap();
            String::from_utf8(output).unwrap()
        };
        let first = answer();
        let nodes: u64 = (first.split_whitespace())
            .find_map(|w| w.strip_prefix("nodes="))
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert!((500..520).contains(&nodes), "{first}");
        // The answer and the info but its time.
        let strip = |text: &str| {
            text.split_whitespace()
                .filter(|w| !w.starts_with("time="))
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(strip(&answer()), strip(&first));
    }

    /// DOUBLE's tree search with an iteration budget chooses the same move twice, after that
    /// many iterations, and a move the seat may make; another seed may choose another.
    #[test]
    fn a_double_search_with_a_budget_is_reproducible() {
        let mut game = AnyGame::create("double", &Setup::default()).unwrap();
        let mut moves = Vec::new();
        while game.to_move() == Some(Actor::Chance) {
            moves.clear();
            game.legal_moves(&mut moves);
            game.play_unchecked(&moves[0]);
        }
        let AnyGame::Double(table) = &game else {
            unreachable!()
        };
        // The whole table: the search deals what the seat cannot see anew for each iteration.
        let view = table.clone();
        let far = Instant::now() + Duration::from_secs(600);
        let found = double_search(&view, (far, 400), 7).unwrap();
        assert_eq!(found.playouts, 400);
        let again = double_search(&view, (far, 400), 7).unwrap();
        assert_eq!(found.best, again.best);
        assert_eq!(found.worth, again.worth);
        moves.clear();
        game.legal_moves(&mut moves);
        assert!(moves.contains(&AnyMove::Double(found.best)), "{found:?}");
    }

    #[test]
    fn random_choices_are_reproducible() {
        let a = play_game([Strategy::Random; 2], 7, Duration::ZERO);
        let b = play_game([Strategy::Random; 2], 7, Duration::ZERO);
        let c = play_game([Strategy::Random; 2], 8, Duration::ZERO);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    /// A seeded bot's choice depends on the plies, not on how they were spelled.
    #[test]
    fn a_move_spelled_differently_leads_to_the_same_choice() {
        let answers = |first: &str| {
            let input =
                format!("newgame pegs seats=2 seat=1 seed=3\nplay 0 {first}\ngenmove 1\nquit\n");
            let mut output = Vec::new();
            run(
                "pegs",
                Strategy::Random,
                (5, None),
                input.as_bytes(),
                &mut output,
                None,
            )
            .unwrap();
            String::from_utf8(output).unwrap()
        };
        assert_eq!(answers("C2C3"), answers("c2c3"));
    }

    #[test]
    fn thinking_time_follows_the_clock() {
        let clock = |text: &str| {
            let options: Vec<(String, String)> = (text.split_whitespace())
                .filter_map(|w| w.split_once('='))
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect();
            thinking_time(&ClockKeys::read(&options), 30)
        };
        assert_eq!(clock(""), Duration::from_secs(1));
        assert_eq!(clock("movetime=1000"), Duration::from_millis(448));
        assert_eq!(clock("time=32000 inc=100"), Duration::from_millis(1078));
        // Never more than 30% of what is left.
        assert_eq!(clock("time=100 inc=1000"), Duration::from_millis(28));
        assert_eq!(clock("movetime=3"), Duration::from_millis(1));
    }
}
