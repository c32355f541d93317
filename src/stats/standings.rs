//! The printed standings: a line per finished game as it finishes, and a run's summary, both in
//! the style of chess match runners.

use std::fmt;

use crate::records::{End, Record};
use crate::stats::elo::{Sprt, SprtState, elo_bound, normalized_elo_of, pair_elo};
use crate::stats::results::Results;

/// `Started game 3 of 10 (alpha vs beta)`, as cutechess-cli writes it. `index` counts from 0.
pub fn start_line(index: usize, names: &[String], total: usize) -> String {
    format!(
        "Started game {} of {total} ({})",
        index + 1,
        names.join(" vs ")
    )
}

/// `Finished game 3 (alpha vs beta): 1-0 {normal end, scores 23 17}`, as cutechess-cli writes it;
/// with more than two seats the result is the winning seats. `index` counts from 0.
pub fn game_line(index: usize, record: &Record) -> String {
    let names: Vec<&str> = record.seats.iter().map(|s| s.name.as_str()).collect();
    let name = |seat: usize| record.seat_name(seat);
    let score = match &record.result {
        None => "*".to_owned(),
        Some(r) if names.len() == 2 && r.winners.len() == 2 => "1/2-1/2".to_owned(),
        Some(r) if names.len() == 2 && r.winners == [0] => "1-0".to_owned(),
        Some(r) if names.len() == 2 && r.winners == [1] => "0-1".to_owned(),
        Some(r) => {
            let winners: Vec<&str> = r.winners.iter().map(|&s| name(s)).collect();
            format!("won by {}", winners.join(" and "))
        }
    };
    let how = match &record.end {
        None => "unfinished".to_owned(),
        Some(End::Normal {}) => {
            let scores = record.result.as_ref().map(|r| &r.scores[..]).unwrap_or(&[]);
            let scores: Vec<String> = scores.iter().map(ToString::to_string).collect();
            format!("normal end, scores {}", scores.join(" "))
        }
        Some(End::Resignation { seat }) => format!("{} resigns", name(*seat)),
        Some(End::Verdict {
            seat,
            verdict,
            detail,
        }) => format!("{} loses by {}: {detail}", name(*seat), verdict.name()),
    };
    // Seats the referee took over show too, though the game then ended normally.
    let substitutes = record.substitutions();
    format!(
        "Finished game {} ({}): {score} {{{how}{substitutes}}}",
        index + 1,
        names.join(" vs ")
    )
}

/// A run's summary: for two engines, `Score of A vs B: W - L - D [score] n` and the Elo line
/// from the first engine's side, then how the games ended; for more, the full [`Results`].
pub struct Standings<'a> {
    /// Everything counted.
    pub results: &'a Results,
    /// The engines in the order given.
    pub engines: &'a [String],
}

impl Standings<'_> {
    /// The score so far, as cutechess-cli prints it every `-ratinginterval` games: for two
    /// engines the `Score of` and `Elo difference` lines, for more the standings table.
    pub fn so_far(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = match self.engines {
            [a, b] => self.score_lines(&mut text, a, b),
            _ => fmt::Write::write_fmt(&mut text, format_args!("{}\n", self.results)),
        };
        text
    }

    /// The `Score of A vs B: ...` line and, when there are games, the Elo line.
    fn score_lines(&self, f: &mut impl fmt::Write, a: &str, b: &str) -> fmt::Result {
        let t = self.results.tally_of(a, b).unwrap_or_default();
        let estimate = t.estimate();
        let score = estimate.map_or(0.0, |e| e.score);
        writeln!(
            f,
            "Score of {a} vs {b}: {} - {} - {} [{score:.3}] {}",
            t.wins,
            t.losses,
            t.draws,
            t.games()
        )?;
        if let Some(e) = estimate {
            // Exactly cutechess-cli's line, which scripts parse, infinities and all; where the
            // interval is not `X +/- Y`, what it is follows on a line of its own.
            writeln!(
                f,
                "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %",
                as_cutechess(e.elo),
                as_cutechess(e.elo_error),
                e.los * 100.0,
                e.draw_ratio * 100.0
            )?;
            if let Some(bound) = elo_bound(&t) {
                writeln!(f, "Elo difference, 95%: {bound}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Standings<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.engines else {
            return write!(f, "{}", self.results);
        };
        self.score_lines(f, a, b)?;
        let pairs = self.results.pentanomial_against_field(a);
        if pairs.iter().any(|&n| n > 0) {
            writeln!(
                f,
                "Game pairs (0, 1/2, 1, 3/2, 2 points for {a}): {pairs:?}"
            )?;
        }
        write!(f, "{}", self.results.summary_line())
    }
}

/// `x` as cutechess-cli (Qt) prints a number: one decimal, or `inf`, `-inf`, `nan`.
fn as_cutechess(x: f64) -> String {
    match x {
        x if x.is_nan() => "nan".to_owned(),
        f64::INFINITY => "inf".to_owned(),
        f64::NEG_INFINITY => "-inf".to_owned(),
        x => format!("{x:.1}"),
    }
}

/// The summary fastchess prints for two engines, whose lines its users' scripts parse (fishtest
/// reads `Games:` and `Ptnml(0-2):`): `Results of A vs B (TC, NULL, NULL, BOOK):`, then Elo and
/// nElo and LOS (of game pairs where there are pairs, else of games), the draw ratio and pairs ratio
/// (of pairs: a drawn pair is one that gave each engine a point), the games, and the pentanomial
/// counts. Engine threads and hash, which fastchess sets, are `NULL` here, as fastchess writes
/// what it does not know; so is the book without `--openings`.
pub fn fastchess_lines(results: &Results, (a, b): (&str, &str), tc: &str, book: &str) -> String {
    let t = results.tally_of(a, b).unwrap_or_default();
    let pentanomial = results.pentanomial_against_field(a);
    let pairs: u32 = pentanomial.iter().sum();
    let games = t.games();
    let points = f64::from(t.wins) + f64::from(t.draws) / 2.0;
    let (elo, los) = match pairs {
        0 => (
            t.estimate().map(|e| (e.elo, e.elo_error)),
            t.estimate().map_or(0.5, |e| e.los),
        ),
        _ => {
            let paired = pair_elo(&pentanomial);
            (
                paired.map(|(elo, error, _)| (elo, error)),
                paired.map_or(0.5, |(_, _, los)| los),
            )
        }
    };
    let nelo = normalized_elo_of(&t, &pentanomial);
    let los = los * 100.0;
    let pm = |x: Option<(f64, f64)>| match x {
        Some((v, e)) => format!("{} +/- {}", fixed(v), fixed(e)),
        None => "nan +/- nan".to_owned(),
    };
    let (draws, ratio) = match pairs {
        0 => (f64::from(t.draws) / f64::from(games.max(1)), f64::NAN),
        _ => (
            f64::from(pentanomial[2]) / f64::from(pairs),
            f64::from(pentanomial[3] + pentanomial[4]) / f64::from(pentanomial[0] + pentanomial[1]),
        ),
    };
    format!(
        "Results of {a} vs {b} ({tc}, NULL, NULL, {book}):\n\
         Elo: {}, nElo: {}\n\
         LOS: {los:.2} %, DrawRatio: {:.2} %, PairsRatio: {}\n\
         Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({:.2} %)\n\
         Ptnml(0-2): [{}, {}, {}, {}, {}]",
        pm(elo),
        pm(nelo),
        draws * 100.0,
        fixed(ratio),
        t.wins,
        t.losses,
        t.draws,
        points / f64::from(games.max(1)) * 100.0,
        pentanomial[0],
        pentanomial[1],
        pentanomial[2],
        pentanomial[3],
        pentanomial[4],
    )
}

/// `x` with two decimals, or `inf`, `-inf`, `nan` as C++ streams print them.
fn fixed(x: f64) -> String {
    match x.is_finite() {
        true => format!("{x:.2}"),
        false => as_cutechess(x),
    }
}

/// The SPRT's state as cutechess-cli and fastchess print it, for the scripts that parse them:
/// `SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted` and `LLR: 2.95 (100.2%)
/// (-2.94, 2.94) [0.00, 5.00]`.
pub fn sprt_tool_lines(sprt: &Sprt, llr: f64, state: SprtState) -> String {
    let (lower, upper) = sprt.bounds();
    let verdict = match state {
        SprtState::H0 => " - H0 was accepted",
        SprtState::H1 => " - H1 was accepted",
        SprtState::Continue => "",
    };
    // fastchess's share of the way to the bound the LLR is heading for.
    let toward = if llr >= 0.0 { upper } else { -lower };
    format!(
        "SPRT: llr {} ({:.1}%), lbound {}, ubound {}{verdict}\nLLR: {llr:.2} ({:.1}%) \
         ({lower:.2}, {upper:.2}) [{:.2}, {:.2}]",
        general(llr),
        llr / upper * 100.0,
        general(lower),
        general(upper),
        llr / toward * 100.0,
        sprt.elo0,
        sprt.elo1
    )
}

/// `x` as C's `%.3g` (and Qt's `'g', 3`) writes it: three significant digits, trailing zeros
/// dropped, an exponent below 1e-4 or from 1e3.
fn general(x: f64) -> String {
    if !x.is_finite() {
        return as_cutechess(x);
    }
    if x == 0.0 {
        return "0".to_owned();
    }
    // The exponent after rounding to three digits, as `%e` finds it.
    let scientific = format!("{x:.2e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let trim = |text: String| match text.contains('.') {
        true => text.trim_end_matches('0').trim_end_matches('.').to_owned(),
        false => text,
    };
    if !(-4..3).contains(&exponent) {
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{}e{sign}{:02}", trim(mantissa.to_owned()), exponent.abs());
    }
    trim(format!("{x:.*}", (2 - exponent) as usize))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::finished_record;
    use crate::stats::elo::SprtModel;
    use crate::stats::results::results;

    #[test]
    fn fastchess_summary_matches_what_fastchess_printed_for_the_same_games() {
        // A summary fastchess printed for 16 games in 8 pairs (a public log): 3 pairs of a loss
        // and a draw, one of a win and a loss, two of two draws, two of a win and a draw.
        let mut records = Vec::new();
        let mut seed = 0;
        let mut pair = |first: &[usize], second: &[usize]| {
            seed += 1;
            records.push(finished_record(&["base", "test"], first, seed));
            records.push(finished_record(&["test", "base"], second, seed));
        };
        for _ in 0..3 {
            pair(&[1], &[0, 1]);
        }
        pair(&[0], &[0]);
        for _ in 0..2 {
            pair(&[0, 1], &[0, 1]);
        }
        for _ in 0..2 {
            pair(&[0], &[0, 1]);
        }
        let text = fastchess_lines(&results(&records), ("base", "test"), "10+0.1", "NULL");
        assert_eq!(
            text,
            "Results of base vs test (10+0.1, NULL, NULL, NULL):\n\
             Elo: -21.74 +/- 96.80, nElo: -39.34 +/- 170.24\n\
             LOS: 32.53 %, DrawRatio: 37.50 %, PairsRatio: 0.67\n\
             Games: 16, Wins: 3, Losses: 4, Draws: 9, Points: 7.5 (46.88 %)\n\
             Ptnml(0-2): [0, 3, 3, 2, 0]"
        );
    }

    #[test]
    fn numbers_read_as_printf_general_and_the_sprt_lines_as_the_tools_print_them() {
        let cases = [
            (2.9512, "2.95"),
            (-2.944, "-2.94"),
            (11.092, "11.1"),
            (123.4, "123"),
            (999.6, "1e+03"),
            (1234.5, "1.23e+03"),
            (0.5, "0.5"),
            (0.000_12, "0.00012"),
            (0.000_012_34, "1.23e-05"),
            (0.0, "0"),
        ];
        for (x, text) in cases {
            assert_eq!(general(x), text, "{x}");
        }
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Logistic,
        };
        assert_eq!(
            sprt_tool_lines(&sprt, 2.9512, SprtState::H1),
            "SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted\n\
             LLR: 2.95 (100.2%) (-2.94, 2.94) [0.00, 5.00]"
        );
        let line = sprt_tool_lines(&sprt, -0.5, SprtState::Continue);
        assert!(
            line.ends_with("\nLLR: -0.50 (-17.0%) (-2.94, 2.94) [0.00, 5.00]"),
            "{line}"
        );
        assert!(line.starts_with("SPRT: llr -0.5 (-17.0%), lbound -2.94, ubound 2.94\n"));
    }
}
