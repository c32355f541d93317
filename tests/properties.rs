//! Property tests over random playouts of every game: legality, undo, records, validation.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

use proptest::prelude::*;
use referee::records::Record;
use referee::records::replay::Replay;
use referee::records::validate::{ProblemKind, check_record};
use referee::rules::AnyMove;
use referee::rules::game::{Game, Outcome, Setup};

/// Every game and variant: (id, variant, seats).
const GAMES: [(&str, Option<&str>, usize); 10] = [
    ("dvonn", None, 2),
    ("double-dutch", None, 2),
    ("double-dutch", None, 3),
    ("pegs", Some("standard"), 2),
    ("pegs", Some("turbo"), 2),
    ("wyx", None, 2),
    ("wyx", Some("double"), 2),
    ("double", None, 2),
    ("double", None, 4),
    ("double", None, 6),
];

/// Game `which`'s id and its setup from `seed`.
fn setup_of(which: usize, seed: u64) -> (&'static str, Setup) {
    let (id, variant, seats) = GAMES[which];
    let setup = Setup {
        variant: variant.map(str::to_owned),
        seats: Some(seats),
        seed,
        layout: None,
    };
    (id, setup)
}

fn new_game(which: usize, seed: u64) -> Replay {
    let (id, setup) = setup_of(which, seed);
    let mut replay = Replay::new(id, &setup).unwrap();
    replay.settle_chance();
    replay
}

/// Plays `choices[i] % n` at ply i until the game ends or the choices run out.
fn playout(which: usize, seed: u64, choices: &[u16]) -> Replay {
    let mut replay = new_game(which, seed);
    for &choice in choices {
        let mut moves = Vec::new();
        replay.game().legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(choice) % moves.len()].to_string();
        replay.play(&mv).unwrap();
        // Cards leave the stock as the seed says, so the records validate.
        replay.settle_chance();
    }
    replay
}

/// `replay` with plies taken back until `ply` plies remain.
fn taken_back_to(replay: &Replay, ply: usize) -> Replay {
    let mut before = replay.clone();
    while before.game().ply() > ply {
        before.undo();
    }
    before
}

fn legal_texts(replay: &Replay) -> Vec<String> {
    let mut moves: Vec<AnyMove> = Vec::new();
    replay.game().legal_moves(&mut moves);
    moves.iter().map(ToString::to_string).collect()
}

/// Move-shaped texts of every game, legal or not somewhere, and garbage.
fn candidate_texts() -> Vec<String> {
    let mut texts = Vec::new();
    for c in 'a'..='k' {
        for r in 1..=7 {
            texts.push(format!("{c}{r}"));
            texts.push(format!("{}{}", c.to_ascii_uppercase(), r));
        }
    }
    let cells = texts.clone();
    for (i, from) in cells.iter().enumerate() {
        texts.push(format!("{from}{}", cells[(i * 7 + 3) % cells.len()]));
    }
    texts.extend((0..=9).map(|n| n.to_string()));
    texts.extend(["PASS", "pass", "Z9", "", "B4E", "D2D2D2", "resign"].map(str::to_owned));
    texts
}

/// `cases` cases, unless `PROPTEST_CASES` asks for another number (CI may raise it).
fn config(cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = cases;
    }
    config
}

proptest! {
    // Each case plays one complete game of every game and variant: 300 of each by default.
    #![proptest_config(config(300))]

    #[test]
    fn random_playouts_of_every_game_stay_legal_and_end(
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 2000),
    ) {
        for which in 0..GAMES.len() {
            complete_game(which, seed, &choices)?;
        }
    }
}

/// Plays game `which` to its end by `choices`, checking every position's moves.
fn complete_game(which: usize, seed: u64, choices: &[u16]) -> Result<(), TestCaseError> {
    {
        let mut replay = new_game(which, seed);
        // A DOUBLE match runs for rounds: cycle through the choices.
        for &choice in choices.iter().cycle().take(200_000) {
            let game = replay.game();
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            prop_assert_eq!(moves.len(), game.count_legal());
            if moves.is_empty() {
                prop_assert!(game.to_move().is_none());
                break;
            }
            for mv in &moves {
                prop_assert_eq!(game.check(mv), Ok(()));
            }
            let mv = moves[usize::from(choice) % moves.len()].to_string();
            prop_assert!(replay.play(&mv).is_ok());
            replay.settle_chance();
        }
        prop_assert!(
            replay.game().to_move().is_none(),
            "{} did not end",
            GAMES[which].0
        );
        prop_assert_ne!(replay.game().outcome(), Outcome::Ongoing);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn undo_restores_the_exact_state(
        which in 0..GAMES.len(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 0..150),
        back in 0usize..20,
    ) {
        let mut replay = playout(which, seed, &choices);
        let record = replay.record(&[], None);
        let plies = record.moves.len();
        let back = back.min(plies);
        // The same game played ply by ply (chance plies included) to `back` plies before the end.
        let (id, variant, seats) = GAMES[which];
        let setup = Setup { variant: variant.map(str::to_owned), seats: Some(seats), seed, layout: None };
        let mut target = Replay::new(id, &setup).unwrap();
        for ply in &record.moves[..plies - back] {
            target.play(&ply.mv).unwrap();
        }
        for _ in 0..back {
            prop_assert!(replay.undo());
        }
        prop_assert_eq!(replay.game(), target.game());
        prop_assert_eq!(replay.record(&[], None), target.record(&[], None));
    }

    #[test]
    fn records_round_trip_and_validate(
        which in 0..GAMES.len(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 0..300),
    ) {
        let replay = playout(which, seed, &choices);
        let record = replay.record(&["a".into(), "b".into(), "c".into()], None);
        let json = serde_json::to_string(&record).unwrap();
        let read: Record = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&read, &record);
        prop_assert_eq!(check_record(&read), Ok(replay.game().ply()));
    }

    #[test]
    fn a_changed_move_fails_at_its_ply(
        which in 0..GAMES.len(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 1..300),
        at in any::<prop::sample::Index>(),
        pick in any::<prop::sample::Index>(),
    ) {
        let replay = playout(which, seed, &choices);
        let mut record = replay.record(&[], None);
        prop_assume!(!record.moves.is_empty());
        let ply = at.index(record.moves.len());
        let legal = legal_texts(&taken_back_to(&replay, ply));
        let candidates = candidate_texts();
        let start = pick.index(candidates.len());
        // Compare case-insensitively: `d2` and `D2` are the same DVONN move.
        let replacement = candidates[start..]
            .iter()
            .chain(&candidates[..start])
            .find(|text| !legal.iter().any(|l| l.eq_ignore_ascii_case(text)))
            .expect("some candidate is always illegal")
            .clone();
        record.moves[ply].mv = replacement;
        let problem = check_record(&record).unwrap_err();
        prop_assert_eq!(problem.ply, Some(ply));
        prop_assert!(
            matches!(problem.kind, ProblemKind::IllegalMove | ProblemKind::UnparseableMove),
            "{:?}", problem
        );
    }

    /// A seat's move replaced by a move of the same game that is legal elsewhere in it but not
    /// here: well-formed, so the problem is an illegal move, never a parse error.
    #[test]
    fn a_well_formed_move_from_elsewhere_is_illegal_not_unparseable(
        which in 0..GAMES.len(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 1..300),
        at in any::<prop::sample::Index>(),
        pick in any::<prop::sample::Index>(),
    ) {
        let replay = playout(which, seed, &choices);
        let mut record = replay.record(&[], None);
        let seat_plies: Vec<usize> = (0..record.moves.len())
            .filter(|&p| record.moves[p].seat.is_some())
            .collect();
        prop_assume!(!seat_plies.is_empty());
        let ply = seat_plies[at.index(seat_plies.len())];
        // Every move legal at some position of this game.
        let mut elsewhere = Vec::new();
        let mut walk = replay.clone();
        loop {
            elsewhere.extend(legal_texts(&walk));
            if !walk.undo() {
                break;
            }
        }
        let legal = legal_texts(&taken_back_to(&replay, ply));
        elsewhere.retain(|text| !legal.iter().any(|l| l.eq_ignore_ascii_case(text)));
        elsewhere.sort();
        elsewhere.dedup();
        prop_assume!(!elsewhere.is_empty());
        record.moves[ply].mv = elsewhere[pick.index(elsewhere.len())].clone();
        let problem = check_record(&record).unwrap_err();
        prop_assert_eq!(problem.ply, Some(ply));
        prop_assert_eq!(problem.kind, ProblemKind::IllegalMove, "{:?}", problem);
    }
}

#[test]
fn a_changed_setup_fails_validation() {
    let replay = playout(5, 42, &[1, 2, 3]);
    let mut record = replay.record(&[], None);
    let rack = record.setup.clone().unwrap();
    let columns: Vec<&str> = rack.split('/').collect();
    let swapped = [columns[1], columns[0]]
        .iter()
        .chain(&columns[2..])
        .copied()
        .collect::<Vec<_>>()
        .join("/");
    record.setup = Some(swapped);
    let problem = check_record(&record).unwrap_err();
    assert_eq!(problem.kind, ProblemKind::Setup);
    assert!(
        problem.message.contains("is not the one seed 42 draws"),
        "{}",
        problem.message
    );
}

/// Lines a script might send, right or wrong.
fn session_line() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "newgame",
        "dvonn",
        "double-dutch",
        "pegs",
        "wyx",
        "double",
        "turbo",
        "seats=3",
        "seed=5",
        "setup=x",
        "play",
        "legal_moves",
        "undo",
        "to_move",
        "showboard",
        "score",
        "result",
        "perft",
        "1",
        "2",
        "0",
        "record",
        "genmove",
        "known_command",
        "D2",
        "d4g4",
        "c2c3",
        "3",
        "PASS",
        "#",
        "\t",
        "=",
        "?",
    ]);
    prop_oneof![
        prop::collection::vec(words, 0..5).prop_map(|w| w.join(" ")),
        "[ -~]{0,20}",
        any::<String>().prop_map(|s| s.chars().filter(|&c| c != '\n').take(30).collect()),
    ]
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn any_session_input_gets_one_answer_per_command(lines in prop::collection::vec(session_line(), 0..40)) {
        let input = lines.join("\n");
        let mut output = Vec::new();
        let errors = referee::session::run(input.as_bytes(), &mut output, referee::protocol::Framing::Gtp).unwrap();
        let text = String::from_utf8(output).unwrap();
        // The count of failed commands (`session --plain`'s exit status) is the count of `?` answers.
        let failed = text.split_terminator("\n\n").filter(|answer| answer.starts_with('?')).count();
        prop_assert_eq!(errors, failed, "{}", text);
        let commands: Vec<String> = lines.iter().filter_map(|l| referee::protocol::clean_line(l)).collect();
        let answers = text.split_terminator("\n\n").count();
        // A `quit` ends the session early; otherwise every command is answered.
        let until_quit = commands
            .iter()
            .position(|c| c.parse::<referee::protocol::Request>().is_ok_and(|r| r.command == referee::protocol::Command::Quit))
            .map_or(commands.len(), |i| i + 1);
        prop_assert_eq!(answers, until_quit, "{}", text);
    }
}

proptest! {
    #![proptest_config(config(100))]

    #[test]
    fn a_changed_chance_event_fails_at_its_ply(
        // The DOUBLE entries of GAMES: 2, 4 and 6 seats.
        which in prop::sample::select(vec![7usize, 8, 9]),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 1..200),
        at in any::<prop::sample::Index>(),
        pick in any::<prop::sample::Index>(),
    ) {
        let replay = playout(which, seed, &choices);
        let mut record = replay.record(&[], None);
        let chance: Vec<usize> = (0..record.moves.len()).filter(|&i| record.moves[i].seat.is_none()).collect();
        let ply = chance[at.index(chance.len())];
        // Another card that could legally leave the stock there.
        let mut before = replay.clone();
        while before.game().ply() > ply {
            before.undo();
        }
        let others: Vec<String> = legal_texts(&before).into_iter().filter(|t| *t != record.moves[ply].mv).collect();
        prop_assume!(!others.is_empty());
        record.moves[ply].mv = others[pick.index(others.len())].clone();
        let problem = check_record(&record).unwrap_err();
        prop_assert_eq!(problem.ply, Some(ply));
        prop_assert_eq!(problem.kind, ProblemKind::Chance);
    }
}

proptest! {
    // Each case plays every game and variant for up to 3,000 plies: 30 of each by default.
    #![proptest_config(config(30))]

    #[test]
    fn every_legal_move_is_in_the_games_move_space(
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 500),
    ) {
        for which in 0..GAMES.len() {
            within_move_space(which, seed, &choices)?;
        }
    }
}

proptest! {
    // Each case plays every game and variant to its end: 20 of each by default.
    #![proptest_config(config(20))]

    #[test]
    fn every_game_ends_within_its_max_plies(
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 500),
    ) {
        use referee::rules::AnyGame;
        for which in 0..GAMES.len() {
            let (id, setup) = setup_of(which, seed);
            let mut game = AnyGame::create(id, &setup).unwrap();
            let most = game.max_plies();
            let mut moves = Vec::new();
            for &choice in choices.iter().cycle().take(most + 1) {
                moves.clear();
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[usize::from(choice) % moves.len()];
                game.play_unchecked(&mv);
            }
            prop_assert!(game.to_move().is_none(), "{} {:?} goes on past {} plies", id, setup.variant, most);
            prop_assert!(game.ply() <= most, "{}: {} plies", id, game.ply());
        }
    }
}

/// Plays game `which` by `choices`, checking that its move space holds each text once (seats'
/// moves and chance's apart) and that every position's legal moves are in it: a seat's among the
/// seats' moves, chance's among its outcomes.
fn within_move_space(which: usize, seed: u64, choices: &[u16]) -> Result<(), TestCaseError> {
    use referee::rules::AnyGame;
    use referee::rules::game::Actor;
    use std::collections::HashSet;
    let (id, setup) = setup_of(which, seed);
    let mut game = AnyGame::create(id, &setup).unwrap();
    let space = game.move_space();
    let texts =
        |moves: &[AnyMove]| -> HashSet<String> { moves.iter().map(ToString::to_string).collect() };
    let (seat_texts, chance_texts) = (texts(&space.seats), texts(&space.chance));
    prop_assert_eq!(seat_texts.len(), space.seats.len(), "{} repeats a move", id);
    prop_assert_eq!(
        chance_texts.len(),
        space.chance.len(),
        "{} repeats an outcome",
        id
    );
    prop_assert!(seat_texts.is_disjoint(&chance_texts), "{}", id);
    for &choice in choices.iter().cycle().take(3000) {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let (within, whose) = match game.to_move() {
            Some(Actor::Chance) => (&chance_texts, "chance's outcomes"),
            _ => (&seat_texts, "the seats' moves"),
        };
        for mv in &moves {
            prop_assert!(
                within.contains(&mv.to_string()),
                "{}: {} is not among {}",
                id,
                mv,
                whose
            );
        }
        let mv = moves[usize::from(choice) % moves.len()];
        game.play_unchecked(&mv);
    }
    Ok(())
}

proptest! {
    // Each case plays every game and variant to its end: 10 of each by default.
    #![proptest_config(config(10))]

    /// A seat's tensor holds only what the seat is told: it is the same in the game, in the
    /// seat's view kept from the protocol's lines, and (DOUBLE) in a world whose hidden cards
    /// are dealt anew.
    #[test]
    fn a_seats_tensor_is_what_it_was_told(
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 500),
    ) {
        for which in 0..GAMES.len() {
            tensors_follow_what_seats_are_told(which, seed, &choices)?;
        }
    }
}

/// Plays game `which` by `choices` (chance from `seed`), each seat's view following the lines
/// its engine would be told, and compares each seat's tensor at every position in the game, in
/// the view and in a world re-dealt from the seat's knowledge.
fn tensors_follow_what_seats_are_told(
    which: usize,
    seed: u64,
    choices: &[u16],
) -> Result<(), TestCaseError> {
    use rand::SeedableRng;
    use referee::bots::{SeatView, double_view::redeal_hidden};
    use referee::features::Features;
    use referee::protocol::{NewGame, RoundEnd};
    use referee::rules::AnyGame;
    use referee::rules::game::{Actor, Viewer};
    let (id, setup) = setup_of(which, seed);
    let mut game = AnyGame::create(id, &setup).unwrap();
    let seats = game.seats();
    let mut views = Vec::new();
    for seat in 0..seats {
        let mut options = vec![
            ("seats".to_owned(), seats.to_string()),
            ("seat".to_owned(), seat.to_string()),
        ];
        options.extend(game.public_setup().map(|s| ("setup".to_owned(), s)));
        let new = NewGame {
            game: id.to_owned(),
            variant: setup.variant.clone(),
            options,
        };
        views.push(SeatView::start(&new).unwrap());
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut truth, mut seen, mut moves) = (Vec::new(), Vec::new(), Vec::new());
    // Up to the last position: a view never ends DOUBLE's match itself but is told its end, so
    // it deals a round that the game does not.
    for &choice in choices.iter().cycle() {
        if game.to_move().is_none() {
            return Ok(());
        }
        for (seat, view) in views.iter().enumerate() {
            game.features(seat, &mut truth);
            view.game().features(seat, &mut seen);
            prop_assert!(
                truth == seen,
                "{} ply {}: seat {}'s view differs at {:?}",
                id,
                game.ply(),
                seat,
                differences(&truth, &seen)
            );
            if let AnyGame::Double(double) = &game {
                let world = AnyGame::Double(redeal_hidden(double, seat, &mut rng));
                world.features(seat, &mut seen);
                prop_assert!(
                    truth == seen,
                    "{} ply {}: seat {} re-dealt differs at {:?}",
                    id,
                    game.ply(),
                    seat,
                    differences(&truth, &seen)
                );
            }
        }
        let mv = match game.to_move() {
            Some(Actor::Chance) => game.seeded_chance(seed).unwrap(),
            _ => {
                moves.clear();
                game.legal_moves(&mut moves);
                moves[usize::from(choice) % moves.len()]
            }
        };
        for (seat, view) in views.iter_mut().enumerate() {
            let told = match game.to_move() {
                Some(Actor::Seat(mover)) => view.follow(Some(mover), &mv.to_string()),
                _ => view.follow(None, &game.visible_text(&mv, Viewer::Seat(seat))),
            };
            prop_assert!(
                told.is_ok(),
                "{} ply {}: seat {}: {:?}",
                id,
                game.ply(),
                seat,
                told
            );
        }
        let (rounds, before) = (game.rounds_finished(), game.scores());
        game.play_unchecked(&mv);
        if game.rounds_finished() != rounds {
            let round = RoundEnd::new(game.rounds_finished(), &before, &game.scores());
            for view in &mut views {
                prop_assert!(view.follow(None, &round.to_string()).is_ok(), "{}", round);
            }
        }
    }
    Ok(())
}

/// Where two tensors differ: each place, and the values there.
fn differences(a: &[f32], b: &[f32]) -> Vec<(usize, f32, f32)> {
    let mut found: Vec<(usize, f32, f32)> = a
        .iter()
        .zip(b)
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, (x, y))| (i, *x, *y))
        .collect();
    if a.len() != b.len() {
        found.push((a.len().min(b.len()), a.len() as f32, b.len() as f32));
    }
    found
}
