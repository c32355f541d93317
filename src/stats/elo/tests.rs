//! The Elo, LOS and SPRT figures against values worked out by hand and against fastchess's
//! formulas, and their bounds where a score is perfect.

use super::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.05
}

#[test]
fn known_values() {
    // 55 - 45 - 0: score 0.55, 34.86 Elo; sd = 0.4975, interval 0.55 ± 0.0975 = 0.4525 to
    // 0.6475, which is -33.11 to 105.64 Elo: ± 69.37.
    let e = Tally {
        wins: 55,
        losses: 45,
        draws: 0,
    }
    .estimate()
    .unwrap();
    assert!(close(e.score, 0.55) && close(e.elo, 34.86), "{e:?}");
    assert!(close(e.elo_error, 69.37), "{e:?}");
    // erf(10 / sqrt(200)) = erf(0.7071) = 0.6827, so LOS = 0.8413.
    assert!((e.los - 0.8413).abs() < 1e-3, "{e:?}");
    let even = Tally {
        wins: 10,
        losses: 10,
        draws: 20,
    }
    .estimate()
    .unwrap();
    assert_eq!(
        (even.score, even.elo, even.los, even.draw_ratio),
        (0.5, 0.0, 0.5, 0.5)
    );
    let sweep = Tally {
        wins: 5,
        losses: 0,
        draws: 0,
    }
    .estimate()
    .unwrap();
    assert!(sweep.elo.is_infinite() && sweep.elo_error.is_infinite());
    let few = Tally {
        wins: 1,
        losses: 3,
        draws: 0,
    }
    .estimate()
    .unwrap();
    assert!(few.elo_error.is_infinite(), "{few:?}");
    assert_eq!(Tally::default().estimate(), None);
}

#[test]
fn sprt_decides_where_the_answer_is_known() {
    let sprt = Sprt::parse(&["elo0=0 elo1=20 alpha=0.05 beta=0.05".to_owned()]).unwrap();
    let (lower, upper) = sprt.bounds();
    assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-12 && (lower + upper).abs() < 1e-12);
    // A stream won 60 % of the time (about +70 Elo) is decided for H1 ...
    let mut tally = Tally::default();
    let mut states = Vec::new();
    for game in 0..2000 {
        if game % 5 < 3 {
            tally.wins += 1;
        } else {
            tally.losses += 1;
        }
        states.push(sprt.decide(sprt.llr(&tally)));
    }
    assert_eq!(states.last(), Some(&SprtState::H1));
    // ... and an even one (0 Elo, well under the midpoint of 10) for H0.
    let even = Tally {
        wins: 900,
        losses: 900,
        draws: 200,
    };
    assert_eq!(sprt.decide(sprt.llr(&even)), SprtState::H0);
    let early = Tally {
        wins: 3,
        losses: 2,
        draws: 0,
    };
    assert_eq!(sprt.decide(sprt.llr(&early)), SprtState::Continue);
    // A sweep has no variance of its own; it still decides, after enough games.
    let sweep = |n| Tally {
        wins: n,
        losses: 0,
        draws: 0,
    };
    assert_eq!(sprt.decide(sprt.llr(&sweep(5))), SprtState::Continue);
    assert_eq!(sprt.decide(sprt.llr(&sweep(200))), SprtState::H1);
    // LLR by hand for 60 wins, 40 losses: m = 0.6, v = 0.24, s0 = 0.5,
    // s1 = 1 / (1 + 10^(-0.05)) = 0.528751; LLR = 100 * 0.028751 * (1.2 - 1.028751) / 0.48.
    let by_hand = 100.0 * 0.028751 * (1.2 - 1.028751) / 0.48;
    let llr = sprt.llr(&Tally {
        wins: 60,
        losses: 40,
        draws: 0,
    });
    assert!((llr - by_hand).abs() < 1e-3, "{llr} vs {by_hand}");
    for bad in [
        "elo0=0 alpha=0.05",
        "elo0=0 elo1=5 alpha=0.6",
        "elo0=5 elo1=0 alpha=0.05 beta=0.05",
        "elo0=x",
    ] {
        assert!(Sprt::parse(&[bad.to_owned()]).is_err(), "{bad}");
    }
}

#[test]
fn perfect_and_near_perfect_scores_print_bounds_not_infinities() {
    let tally = |wins, losses, draws| Tally {
        wins,
        losses,
        draws,
    };
    // 20 wins: the exact one-sided bound is a score of 0.05^(1/20) = 0.860892, which is
    // -400 log10(1/0.860892 - 1) = +316.6 Elo (computed with Python's math module).
    assert_eq!(elo_text(&tally(20, 0, 0)), "> +316.6 (95%)");
    assert_eq!(elo_text(&tally(0, 20, 0)), "< -316.6 (95%)");
    // 1 win, 3 losses: score 0.25, sd sqrt(0.1875), interval 0.25 ± 0.4244; its upper end
    // 0.67434 is +126.4 Elo (Python), the lower end is past 0.
    assert_eq!(elo_text(&tally(1, 3, 0)), "-190.8 (95%: < +126.4)");
    assert_eq!(elo_text(&tally(3, 1, 0)), "190.8 (95%: > -126.4)");
    assert_eq!(elo_text(&tally(55, 45, 0)), "34.9 +/- 69.4");
    assert_eq!(elo_text(&Tally::default()), "-");
    for n in 1..200 {
        for t in [
            tally(n, 0, 0),
            tally(0, n, 0),
            tally(n, 1, 0),
            tally(1, 0, n),
        ] {
            assert!(!elo_text(&t).contains("inf"), "{t:?}: {}", elo_text(&t));
        }
    }
}

#[test]
fn sprt_error_rates_default_to_five_percent_and_unknown_keys_are_refused() {
    let short = Sprt::parse(&["elo0=0 elo1=5".to_owned()]).unwrap();
    let long = Sprt::parse(&["elo0=0 elo1=5 alpha=0.05 beta=0.05".to_owned()]).unwrap();
    assert_eq!(short, long);
    let one = Sprt::parse(&["elo0=0 elo1=5 alpha=0.01".to_owned()]).unwrap();
    assert_eq!((one.alpha, one.beta), (0.01, 0.05));
    assert!(Sprt::parse(&["elo1=5".to_owned()]).is_err());
    let typo = Sprt::parse(&["elo0=0 elo1=5 aplha=0.1".to_owned()]).unwrap_err();
    assert!(typo.to_string().contains("aplha"), "{typo}");
}

#[test]
fn pentanomial_llr_matches_the_fastchess_formula() {
    // Expected values: the pentanomial LLR of fastchess 0.x (src/matchmaking/sprt/sprt.cpp,
    // `SPRT::getLLR(penta...)` with logistic bounds), evaluated in Python 3 for elo0=0,
    // elo1=5: pair scores 0, 1/4, 1/2, 3/4, 1; LLR = (s1 - s0) (2m - s0 - s1) / (2 v / pairs).
    let sprt = Sprt::parse(&["elo0=0 elo1=5 alpha=0.05 beta=0.05".to_owned()]).unwrap();
    for (counts, expected) in [
        ([10, 40, 100, 60, 15], 0.8841871419409031),
        ([0, 2, 5, 3, 0], 0.0502832464739009),
        ([3, 20, 50, 25, 2], 0.0692121704955714),
    ] {
        let llr = sprt.llr_pentanomial(&counts);
        assert!(
            (llr - expected).abs() < 1e-9,
            "{counts:?}: {llr} vs {expected}"
        );
    }
    assert_eq!(sprt.llr_pentanomial(&[0; 5]), 0.0);
    // Pairs that all split 1-1 (two deterministic engines) decide nothing for H1 ...
    assert!(sprt.llr_pentanomial(&[0, 0, 500, 0, 0]) < 0.0);
    // ... and a sweep of pairs decides for H1.
    assert_eq!(
        sprt.decide(sprt.llr_pentanomial(&[0, 0, 0, 0, 200])),
        SprtState::H1
    );
    // A game pair counted as two independent games overstates the evidence of split pairs:
    // 100 pairs of one win and one loss each are 100 wins and 100 losses in the trinomial.
    let split = sprt.llr_pentanomial(&[0, 0, 100, 0, 0]);
    let games = sprt.llr(&Tally {
        wins: 100,
        losses: 100,
        draws: 0,
    });
    assert!(split < 0.0 && games < 0.0, "{split} {games}");
}

/// fastchess's and fishtest's own test values for the normalized model (fastchess
/// app/tests/sprt_test.cpp), which this code was written to and checked against.
#[test]
fn normalized_llr_matches_fastchess() {
    let sprt = |elo0: f64, elo1: f64| Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model: SprtModel::Normalized,
    };
    let tally = |wins, losses, draws| Tally {
        wins,
        losses,
        draws,
    };
    let close = |got: f64, want: f64| (got - want).abs() <= 0.01 * want.abs().max(1.0);
    for (got, want) in [
        (sprt(0.0, 2.0).llr(&tally(36433, 36027, 68692)), 0.92),
        (sprt(-1.75, 0.25).llr(&tally(10871, 10650, 20431)), 2.30),
        (sprt(0.0, 10.0).llr(&tally(4250, 0, 0)), 120.56),
        // Pairs: LL, LD, WL + DD, WD, WW.
        (
            sprt(0.0, 2.0).llr_pentanomial(&[365, 16618, 36029 + 200, 16974, 390]),
            2.25,
        ),
        (
            sprt(-1.75, 0.25).llr_pentanomial(&[127, 4883, 10311 + 401, 5150, 104]),
            3.01,
        ),
        (sprt(0.0, 5.0).llr_pentanomial(&[0, 0, 0, 0, 5550]), 111.82),
    ] {
        assert!(close(got, want), "{got} vs fastchess's {want}");
    }
    let parsed = Sprt::parse(&["elo0=0", "elo1=2", "model=normalized"].map(String::from));
    assert_eq!(parsed.unwrap().model, SprtModel::Normalized);
    assert!(Sprt::parse(&["elo0=0", "elo1=2", "model=bayes"].map(String::from)).is_err());
}

#[test]
fn normalized_elo_of_games_and_pairs() {
    // 3 wins, 1 loss: m = 3/4, sd = √(3/16); values worked out by hand (and in Python).
    let games = normalized_elo(&[1, 0, 3], &[0.0, 0.5, 1.0], 1.0).unwrap();
    assert!((games.0 - 200.5920).abs() < 1e-3, "{games:?}");
    assert!((games.1 - 340.4806).abs() < 1e-3, "{games:?}");
    let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
    let pairs = normalized_elo(&[0, 1, 2, 1, 4], &scores, 2f64.sqrt()).unwrap();
    assert!((pairs.0 - 219.7376).abs() < 1e-3, "{pairs:?}");
    assert!((pairs.1 - 170.2403).abs() < 1e-3, "{pairs:?}");
    assert_eq!(
        normalized_elo(&[0, 0, 5], &[0.0, 0.5, 1.0], 1.0),
        None,
        "a sweep"
    );
    assert_eq!(
        normalized_elo(&[0, 0, 1], &[0.0, 0.5, 1.0], 1.0),
        None,
        "one game"
    );
}
