//! Property tests over random DVONN playouts: legality, undo, records, validation.

use proptest::prelude::*;
use referee::game::{Game, Setup};
use referee::games::AnyMove;
use referee::record::Record;
use referee::replay::Replay;
use referee::validate::{ProblemKind, check_record};

/// Plays the game choosing move `choices[i] % n` at ply i, until the game ends or choices run out.
fn playout(choices: &[u16]) -> Replay {
    let setup = Setup {
        seed: 11,
        ..Setup::default()
    };
    let mut replay = Replay::new("dvonn", &setup).unwrap();
    for &choice in choices {
        let mut moves = Vec::new();
        replay.game().legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(choice) % moves.len()].to_string();
        replay.play(&mv).unwrap();
    }
    replay
}

fn legal_texts(replay: &Replay) -> Vec<String> {
    let mut moves: Vec<AnyMove> = Vec::new();
    replay.game().legal_moves(&mut moves);
    moves.iter().map(ToString::to_string).collect()
}

/// Move-shaped texts, legal or not somewhere: every placement, some stack moves, a pass, garbage.
fn candidate_texts() -> Vec<String> {
    let cells: Vec<String> = ('A'..='K')
        .flat_map(|c| (1..=5).map(move |r| format!("{c}{r}")))
        .collect();
    let mut texts = cells.clone();
    for (i, from) in cells.iter().enumerate() {
        texts.push(format!("{from}{}", cells[(i * 7 + 3) % cells.len()]));
    }
    texts.extend(["PASS", "Z9", "", "B4E", "D2D2D2"].map(str::to_owned));
    texts
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_playouts_stay_legal_and_end(choices in prop::collection::vec(any::<u16>(), 150)) {
        let mut replay = Replay::new("dvonn", &Setup::default()).unwrap();
        for &choice in &choices {
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
        }
        // 49 placements and at most 48 stack moves and passes between them: 150 plies always end it.
        prop_assert!(replay.game().to_move().is_none());
        prop_assert_ne!(replay.game().outcome(), referee::game::Outcome::Ongoing);
    }

    #[test]
    fn undo_restores_the_exact_state(
        choices in prop::collection::vec(any::<u16>(), 0..120),
        back in 0usize..20,
    ) {
        let mut replay = playout(&choices);
        let plies = replay.game().ply();
        let back = back.min(plies);
        let target = playout(&choices[..plies - back]);
        for _ in 0..back {
            prop_assert!(replay.undo());
        }
        prop_assert_eq!(replay.game(), target.game());
        prop_assert_eq!(replay.record(&[], None), target.record(&[], None));
    }

    #[test]
    fn records_round_trip_and_validate(choices in prop::collection::vec(any::<u16>(), 0..150)) {
        let replay = playout(&choices);
        let record = replay.record(&["a".into(), "b".into()], None);
        let json = serde_json::to_string(&record).unwrap();
        let read: Record = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&read, &record);
        prop_assert_eq!(check_record(&read), Ok(replay.game().ply()));
    }

    #[test]
    fn a_changed_move_fails_at_its_ply(
        choices in prop::collection::vec(any::<u16>(), 1..150),
        at in any::<prop::sample::Index>(),
        pick in any::<prop::sample::Index>(),
    ) {
        let replay = playout(&choices);
        let mut record = replay.record(&[], None);
        let ply = at.index(record.moves.len());
        let mut before = replay.clone();
        while before.game().ply() > ply {
            before.undo();
        }
        let legal = legal_texts(&before);
        let candidates = candidate_texts();
        let start = pick.index(candidates.len());
        let replacement = candidates[start..]
            .iter()
            .chain(&candidates[..start])
            .find(|text| !legal.contains(text))
            .expect("PASS or a placement is always illegal somewhere")
            .clone();
        record.moves[ply].mv = replacement;
        let problem = check_record(&record).unwrap_err();
        prop_assert_eq!(problem.ply, Some(ply));
        prop_assert!(
            matches!(problem.kind, ProblemKind::IllegalMove | ProblemKind::UnparseableMove),
            "{:?}", problem
        );
    }
}
