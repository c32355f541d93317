//! The printed standings: a line per finished game as it finishes, and a run's summary, both in
//! the style of chess match runners.

use std::fmt;

use crate::records::{End, Record};
use crate::stats::elo::{Sprt, SprtState, elo_bound};
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

/// The SPRT's state as cutechess-cli and fastchess print it, for the scripts that parse them:
/// `SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted` and `LLR: 2.95 (-2.94,
/// 2.94) [0.00, 5.00]`.
pub fn sprt_tool_lines(sprt: &Sprt, llr: f64, state: SprtState) -> String {
    let (lower, upper) = sprt.bounds();
    let verdict = match state {
        SprtState::H0 => " - H0 was accepted",
        SprtState::H1 => " - H1 was accepted",
        SprtState::Continue => "",
    };
    format!(
        "SPRT: llr {} ({:.1}%), lbound {}, ubound {}{verdict}\nLLR: {llr:.2} ({lower:.2}, \
         {upper:.2}) [{:.2}, {:.2}]",
        general(llr),
        llr / upper * 100.0,
        general(lower),
        general(upper),
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
    use crate::stats::elo::SprtModel;

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
             LLR: 2.95 (-2.94, 2.94) [0.00, 5.00]"
        );
        let line = sprt_tool_lines(&sprt, -0.5, SprtState::Continue);
        assert!(line.starts_with("SPRT: llr -0.5 (-17.0%), lbound -2.94, ubound 2.94\n"));
    }
}
