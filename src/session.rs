//! The scriptable session: GTP-framed commands in, answers out, over any `BufRead`/`Write` pair.

use std::io::{self, BufRead, Write};

use crate::bots::SeatView;
use crate::protocol::{Answerer, Command, Framing, GameKeys, NewGame};
use crate::records::replay::Replay;
use crate::rules::game::{Actor, Game, Seat, Setup, Viewer};
use crate::rules::{AnyGame, perft_within};

/// The deepest `perft` the session runs: deeper counts take minutes to hours.
pub const MAX_PERFT_DEPTH: u32 = 6;
/// The most positions one `perft` expands before it gives up: about 4 s of DVONN on the 2-core
/// test machine. It counts work, not time, so a count stops at the same place everywhere.
pub const PERFT_BUDGET: u64 = 30_000_000;

/// What the session holds between commands.
#[derive(Default)]
struct Session {
    table: Option<Table>,
}

/// The game a session keeps.
enum Table {
    /// The whole game: every ply, chance events drawn from the seed.
    Whole(Replay),
    /// One seat's view of a game with hidden hands (`newgame double seat=K`), told its cards by
    /// `event` lines as an engine is: the oracle of an engine that keeps a session.
    Seat(SeatView),
}

impl Table {
    fn game(&self) -> &AnyGame {
        match self {
            Table::Whole(replay) => replay.game(),
            Table::Seat(view) => view.game(),
        }
    }
}

/// Runs a session until `quit` or the end of `input`. A closed output ends it cleanly too.
/// Returns how many commands were answered with an error.
pub fn run(input: impl BufRead, output: impl Write, framing: Framing) -> io::Result<usize> {
    let mut session = Session::default();
    crate::protocol::serve(input, output, framing, |command, _| {
        session.answer_one(command)
    })
}

/// Why `referee moves` has no answer.
#[derive(Debug, thiserror::Error)]
pub enum MovesError {
    /// The game cannot be set up as asked.
    #[error("{0}")]
    Setup(String),
    /// A move does not parse or is illegal where it is given (the message says which, with the ply
    /// and seat).
    #[error("{0}")]
    Move(String),
}

/// `referee moves`: the legal moves after `moves` are played from the start of `new` (chance
/// events play themselves, from the seed), sorted; none when the game is over.
pub fn legal_after(new: &NewGame, moves: &[String]) -> Result<Vec<String>, MovesError> {
    let mut session = Session::default();
    session.start(new).map_err(MovesError::Setup)?;
    for mv in moves {
        session.play(None, mv).map_err(MovesError::Move)?;
    }
    Ok(session.legal_moves().unwrap_or_default())
}

impl Session {
    fn table(&self) -> Result<&Table, String> {
        self.table.as_ref().ok_or_else(no_game)
    }

    fn table_mut(&mut self) -> Result<&mut Table, String> {
        self.table.as_mut().ok_or_else(no_game)
    }

    fn game(&self) -> Result<&AnyGame, String> {
        self.table().map(Table::game)
    }

    /// The whole game, for the commands a seat's view cannot answer.
    fn whole(&mut self, command: &str) -> Result<&mut Replay, String> {
        match self.table_mut()? {
            Table::Whole(replay) => Ok(replay),
            Table::Seat(_) => Err(format!(
                "{command}: this session is one seat's view, which knows only what the seat was told"
            )),
        }
    }

    /// Starts the game `new` asks for: its first chance events played from the seed, or, for
    /// `seat=K` in a game with hidden hands, seat K's view.
    fn start(&mut self, new: &NewGame) -> Result<(), String> {
        let mut replay = new_game(new)?;
        self.table = Some(match new.option("seat") {
            // Its value is read (and checked) by the seat's view.
            Some(_) if replay.game().hides_information() => Table::Seat(SeatView::start(new)?),
            _ => {
                replay.settle_chance();
                Table::Whole(replay)
            }
        });
        Ok(())
    }

    /// The legal moves, sorted.
    fn legal_moves(&self) -> Result<Vec<String>, String> {
        let mut moves = Vec::new();
        match self.table()? {
            Table::Whole(replay) => replay.game().legal_moves(&mut moves),
            Table::Seat(view) => {
                let game = view.game();
                match game.to_move() {
                    Some(Actor::Seat(seat)) if seat != view.seat() => {
                        return Err(format!(
                            "seat {seat} is to act, whose hand seat {}'s view cannot see",
                            view.seat()
                        ));
                    }
                    Some(Actor::Chance) => {
                        return Err("a card is due first: tell it with event".into());
                    }
                    _ => moves = view.my_moves(),
                }
            }
        }
        let mut texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
        texts.sort();
        Ok(texts)
    }

    /// The legal moves as one line: separated by spaces, or by commas where a move holds one
    /// (DOUBLE's actions, `left c31:RYB`).
    fn legal_moves_line(&self) -> Result<String, String> {
        let texts = self.legal_moves()?;
        let separator = if texts.iter().any(|t| t.contains(' ')) {
            ", "
        } else {
            " "
        };
        Ok(texts.join(separator))
    }

    /// The board as text or SVG, seen by `seat` or by everyone; a seat's view shows only its
    /// own.
    fn show_board(&self, seat: Option<Seat>, svg: bool) -> Result<String, String> {
        let table = self.table()?;
        let game = table.game();
        let viewer = match (seat, table) {
            (Some(seat), Table::Seat(view)) if seat != view.seat() => {
                return Err(format!("this session is seat {}'s view", view.seat()));
            }
            (_, Table::Seat(view)) => Viewer::Seat(view.seat()),
            (None, _) => Viewer::Everyone,
            (Some(seat), _) => Viewer::Seat(check_seat(seat, game.seats())?),
        };
        Ok(match svg {
            true => crate::render::board::Picture::svg(game, viewer),
            false => game.render(viewer),
        })
    }

    /// The number of move sequences `depth` plies deep, within [`PERFT_BUDGET`] positions.
    fn perft(&mut self, depth: u32) -> Result<String, String> {
        perft_within(
            self.whole("perft")?.game(),
            depth,
            &mut PERFT_BUDGET.clone(),
        )
        .map(|count| count.to_string())
        .ok_or_else(|| {
            format!(
                "perft {depth} stopped after expanding {PERFT_BUDGET} positions: too many from \
                 here; try a smaller depth"
            )
        })
    }

    fn answer_one(&mut self, command: Command) -> Result<String, String> {
        if let Some(answer) = Answerer::Session.handshake(&command, "referee") {
            return Ok(answer);
        }
        match command {
            Command::NewGame(new) => self.start(&new).map(|()| String::new()),
            Command::LegalMoves => self.legal_moves_line(),
            Command::Play { seat, mv } => self.play(seat, &mv),
            Command::Undo => match self.whole("undo")?.undo_seat_ply() {
                true => Ok(String::new()),
                false => Err("nothing to undo".into()),
            },
            Command::ToMove => Ok(match self.game()?.to_move() {
                Some(Actor::Seat(seat)) => seat.to_string(),
                Some(Actor::Chance) => "chance".into(),
                None => "none".into(),
            }),
            Command::ShowBoard { seat, svg } => self.show_board(seat, svg),
            Command::Score => Ok(join(self.game()?.scores())),
            Command::Result => Ok(self.game()?.outcome().to_string()),
            Command::Perft(depth) if depth > MAX_PERFT_DEPTH => Err(format!(
                "perft depth {depth} would take too long; the most is {MAX_PERFT_DEPTH}"
            )),
            Command::Perft(depth) => self.perft(depth),
            Command::Event(text) => match self.table_mut()? {
                Table::Seat(view) => view.follow(None, &text).map(|_| String::new()),
                Table::Whole(_) => Err(
                    "event tells a seat's view its cards (newgame double seat=K); this \
                          session draws them itself"
                        .into(),
                ),
            },
            Command::GenMove { .. } => Err("genmove is sent to engines, not to the session".into()),
            Command::Record => {
                let record = self.whole("record")?.record(&[], None);
                serde_json::to_string(&record).map_err(|e| format!("cannot write the record: {e}"))
            }
            // Answered by the handshake above.
            Command::ProtocolVersion
            | Command::Name
            | Command::Version
            | Command::ListCommands
            | Command::KnownCommand(_)
            | Command::Quit => Ok(String::new()),
        }
    }

    fn play(&mut self, seat: Option<Seat>, text: &str) -> Result<String, String> {
        let table = self.table_mut()?;
        let game = table.game();
        let ply = game.ply();
        let actor = match game.to_move() {
            None => return Err(format!("ply {ply}: the game is over")),
            Some(Actor::Chance) => return Err(format!("ply {ply}: a chance event is next")),
            Some(Actor::Seat(actor)) => actor,
        };
        if let Some(seat) = seat.filter(|&s| s != actor) {
            return Err(format!(
                "ply {ply}: seat {seat} is not to move; seat {actor} is"
            ));
        }
        // The error's own text says whether the move could not be parsed or is illegal.
        let error = |e: String| format!("ply {ply} (seat {actor}): {e}");
        match table {
            Table::Whole(replay) => {
                replay.play(text).map_err(|e| error(e.to_string()))?;
                replay.settle_chance();
            }
            Table::Seat(view) => {
                view.follow(Some(actor), text).map_err(error)?;
            }
        }
        Ok(String::new())
    }
}

fn new_game(new: &NewGame) -> Result<Replay, String> {
    let keys = GameKeys::read(&new.options).map_err(|e| e.to_string())?;
    // What an engine's `newgame` line adds, its seat and its clock, does not change the rules, so
    // an engine can forward that line here; anything else is a mistake.
    if let Some((key, _)) = keys.others.first() {
        return Err(format!(
            "unknown option `{key}` (known: seats, seed, setup; seat, tc and movetime are \
             accepted and ignored)"
        ));
    }
    let setup = Setup {
        variant: new.variant.clone(),
        seats: keys.seats,
        // An unseeded game still gets a seed, which its record stores.
        seed: match keys.seed {
            Some(seed) => seed,
            None => getrandom::u64().map_err(|e| format!("cannot draw a seed: {e}"))?,
        },
        layout: keys.setup,
    };
    Replay::new(&new.game, &setup).map_err(|e| e.to_string())
}

fn no_game() -> String {
    "no game: start one with newgame, e.g. newgame dvonn".to_owned()
}

fn check_seat(seat: Seat, seats: usize) -> Result<Seat, String> {
    if seat < seats {
        Ok(seat)
    } else {
        Err(format!("no seat {seat}: seats are 0 to {}", seats - 1))
    }
}

fn join(values: Vec<i64>) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::{Framing, NewGame, legal_after, run};

    fn session(input: &str) -> String {
        let mut output = Vec::new();
        run(input.as_bytes(), &mut output, Framing::Gtp).unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn answers_are_framed_and_keep_ids() {
        let out = session("1 name\n\n# comment\nprotocol_version\n2 legal_moves\nquit\nname\n");
        assert_eq!(
            out,
            "=1 referee\n\n= 2\n\n?2 no game: start one with newgame, e.g. newgame dvonn\n\n=\n\n"
        );
    }

    #[test]
    fn the_newgame_line_an_engine_receives_is_accepted() {
        let out =
            session("newgame dvonn seats=2 seat=1 seed=5 tc=10+0.1\nnewgame pegs movetime=50\n");
        assert_eq!(out, "=\n\n=\n\n");
        let out = session("newgame dvonn colour=white\n");
        assert!(out.starts_with("? unknown option `colour`"), "{out}");
    }

    #[test]
    fn invalid_utf8_gets_an_error_not_a_crash() {
        let mut output = Vec::new();
        run(&b"\xff\xfe play\nname\n"[..], &mut output, Framing::Gtp).unwrap();
        let out = String::from_utf8(output).unwrap();
        assert!(out.starts_with("? unknown command"), "{out}");
        assert!(out.ends_with("= referee\n\n"), "{out}");
    }

    #[test]
    fn plain_answers_are_bodies_and_errors_go_apart_with_their_line() {
        let (mut output, mut errors) = (Vec::new(), Vec::new());
        let input = "newgame pegs\n# a comment\nplay c2c4\nto_move\n1 play c2c3\nscore\n";
        let framing = Framing::Plain {
            errors: &mut errors,
        };
        let count = run(input.as_bytes(), &mut output, framing).unwrap();
        assert_eq!(count, 1);
        assert_eq!(String::from_utf8(output).unwrap(), "0\n11 11\n");
        let errors = String::from_utf8(errors).unwrap();
        assert!(
            errors.starts_with("referee: line 3: ply 0 (seat 0): illegal move c2c4"),
            "{errors}"
        );
    }

    /// A session that is one seat's view of DOUBLE, told exactly what the referee tells an
    /// engine in that seat (`play`, and `event` with other seats' cards hidden), lists that
    /// seat's true legal moves whenever it is to act, and refuses what a view cannot know.
    #[test]
    fn a_seats_view_lists_the_seats_true_moves() {
        use crate::protocol::Request;
        use crate::rules::game::{Actor, Game, Outcome, Viewer};
        use rand::{RngExt, SeedableRng};
        let mut turns = 0;
        for (number, seats) in (0..30u64).map(|g| (g, 2 + (g % 5) as usize)) {
            let viewer = (number as usize) % seats;
            let mut truth = crate::rules::double::Double::start(seats as u8);
            let mut view = super::Session::default();
            let mut tell = |line: String| -> Result<String, String> {
                let request: Request = line.parse().map_err(|e| format!("{line}: {e}"))?;
                view.answer_one(request.command)
            };
            tell(format!(
                "newgame double seats={seats} seat={viewer} seed=1 tc=inf"
            ))
            .unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(number);
            while let Some(actor) = truth.to_move() {
                let mut moves = Vec::new();
                truth.legal_moves(&mut moves);
                let mut texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
                texts.sort();
                let asked = tell("legal_moves".into());
                let mv = match actor {
                    Actor::Chance => {
                        assert!(asked.is_err(), "a card is due: {asked:?}");
                        let mv = truth.seeded_chance(number).unwrap();
                        let text = truth.visible_text(&mv, Viewer::Seat(viewer));
                        tell(format!("event {text}")).unwrap();
                        mv
                    }
                    Actor::Seat(seat) => {
                        if seat == viewer {
                            assert_eq!(asked, Ok(texts.join(", ")), "game {number}");
                            turns += 1;
                        } else {
                            assert!(asked.is_err(), "another seat's hand: {asked:?}");
                        }
                        let mv = moves[rng.random_range(0..moves.len())];
                        tell(format!("play {seat} {mv}")).unwrap();
                        mv
                    }
                };
                truth.try_play(&mv).unwrap();
                // A view never ends the match: the other seats' penalties are hidden from it.
                if truth.outcome() != Outcome::Ongoing {
                    break;
                }
            }
            for refused in [
                "record",
                "undo",
                "perft 1",
                &format!("showboard {}", (viewer + 1) % seats),
            ] {
                assert!(tell(refused.into()).is_err(), "{refused}");
            }
        }
        assert!(turns > 1000, "{turns} turns of the viewer checked");
    }

    #[test]
    fn legal_after_tells_a_parse_error_from_an_illegal_move() {
        let pegs = NewGame {
            game: "pegs".into(),
            variant: None,
            options: vec![],
        };
        let moves = legal_after(&pegs, &["c2c3".into()]).unwrap();
        assert!(moves.contains(&"c6c5".to_owned()), "{moves:?}");
        let unparsed = legal_after(&pegs, &["c2c3".into(), "zz".into()]).unwrap_err();
        assert!(
            unparsed.to_string().contains("ply 1 (seat 1)"),
            "{unparsed}"
        );
        let illegal = legal_after(&pegs, &["c2c4".into()]).unwrap_err();
        assert!(illegal.to_string().contains("illegal move"), "{illegal}");
        assert!(!unparsed.to_string().contains("illegal"), "{unparsed}");
    }
}
