//! The GTP-like line protocol: commands, responses, and the GTP version 2 line framing.

mod answer;
mod command;
mod info;
mod keys;
mod response;
mod round;

pub use answer::MoveAnswer;
pub use command::{
    Answerer, Command, CommandError, GenmoveLine, NewGame, PlayLine, Request, SPECS, Spec, value_of,
};
pub use info::{Info, InfoError, MAX_INFO_LINE, is_info};
pub use keys::{ClockKeys, GameKeys, KeyError};
pub use response::{Response, ResponseError};
pub use round::RoundEnd;

use std::io::{self, BufRead, Write};

use crate::bounded::Line;

/// How answers are written.
pub enum Framing<'a> {
    /// GTP's: `=ID BODY` or `?ID MESSAGE`, then a blank line.
    Gtp,
    /// For shell scripts: a success's body alone, as its lines (nothing for an empty one); an
    /// error as `referee: line N: MESSAGE` on `errors`, N counting every input line from 1.
    Plain {
        /// Where errors go (standard error).
        errors: &'a mut dyn Write,
    },
}

/// Answers commands read from `input` on `output` until `quit` (answered first) or the end of
/// input; a closed output ends it cleanly too. Bad lines are answered `?` without reaching
/// `answer`, which may also leave an `info` line to go before its answer (GTP framing only).
/// Both the session and the built-in engines serve this way. Returns how many answers were
/// errors.
pub fn serve(
    mut input: impl BufRead,
    mut output: impl Write,
    mut framing: Framing,
    mut answer: impl FnMut(Command, &mut Option<Info>) -> Result<String, String>,
) -> io::Result<usize> {
    let mut line = Vec::new();
    let (mut number, mut errors) = (0usize, 0usize);
    let mut info = None;
    loop {
        let Some(end) = crate::bounded::read_line(&mut input, &mut line, MAX_LINE)? else {
            return Ok(errors);
        };
        number += 1;
        let (response, quit) = if end == Line::TooLong {
            let message = format!("a command line is at most {MAX_LINE} bytes");
            (Response::error(None, message), false)
        } else {
            // Invalid UTF-8 becomes replacement characters, so it is answered like any bad command.
            let Some(text) = clean_line(&String::from_utf8_lossy(&line)) else {
                continue;
            };
            match text.parse::<Request>() {
                Ok(request) => {
                    let quit = request.command == Command::Quit;
                    // Errors quote what they were given: a short prefix of it is enough.
                    let body = answer(request.command, &mut info).map_err(|e| shorten(&e, 400));
                    (
                        Response {
                            id: request.id,
                            body,
                        },
                        quit,
                    )
                }
                Err(error) => (
                    Response::error(error.id, shorten(&error.message, 400)),
                    false,
                ),
            }
        };
        errors += usize::from(response.body.is_err());
        let written = match (&mut framing, &response.body, info.take()) {
            (Framing::Gtp, _, Some(info)) => write!(output, "{info}\n{response}"),
            (Framing::Gtp, _, None) => write!(output, "{response}"),
            (Framing::Plain { .. }, Ok(body), _) if body.is_empty() => Ok(()),
            (Framing::Plain { .. }, Ok(body), _) => writeln!(output, "{body}"),
            (Framing::Plain { errors }, Err(message), _) => {
                writeln!(errors, "referee: line {number}: {message}")
            }
        };
        match written.and_then(|()| output.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(errors),
            result => result?,
        }
        if quit {
            return Ok(errors);
        }
    }
}

/// The longest command line read; the rest of a longer one is skipped and the line answered
/// with an error.
pub const MAX_LINE: usize = 64 * 1024;

/// At most `max` characters of `text`, marked `...` where cut: errors quote what they were given,
/// and a short prefix says enough.
pub fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

/// `text` with every quoted part (between backticks) longer than `max` characters cut to its
/// first `max` and `...`; an unclosed quote runs to the end. Text outside quotes is kept.
pub fn shorten_quotes(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(4 * max));
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        match i % 2 {
            1 => out.push_str(&shorten(part, max)),
            _ => out.push_str(part),
        }
    }
    out
}

/// `text` (from an engine or a file) made safe to show on a terminal: every control character
/// but newline and tab (C0, DEL and the C1 controls U+0080 to U+009F, which start escape
/// sequences: clear the screen, move the cursor, set the window title, write the clipboard) is
/// shown as `\u{..}` instead of being sent; other text is kept as it is.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match unsafe_char(c) {
            true => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            false => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Cleans one input line as GTP version 2 does: control characters other than tab go, tabs become
/// spaces, a `#` starts a comment. Returns `None` for a line left empty, which is ignored.
pub fn clean_line(line: &str) -> Option<String> {
    let without_comment = line.split('#').next().unwrap_or("");
    let cleaned: String = without_comment
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let trimmed = cleaned.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

/// Whether an answer line holds something [`clean_answer_line`] removes: a control character
/// other than tab (C0, DEL or C1) or a `#`. Cheap, so that clean lines cost nothing more.
pub fn needs_cleaning(line: &str) -> bool {
    line.bytes()
        .any(|b| (b < 0x20 && b != b'\t') || b == 0x7f || b == b'#' || b == 0xc2)
}

/// One line of an engine's answer cleaned as [`clean_line`] cleans a command, but keeping its
/// leading spaces (a multi-line payload may be drawn) and its tabs (the answer's parser reads
/// them as spaces); an empty result means the line held only a comment or control characters.
pub fn clean_answer_line(line: &str) -> String {
    let without_comment = line.split('#').next().unwrap_or("");
    let cleaned: String = without_comment
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .collect();
    cleaned.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::{clean_answer_line, clean_line, needs_cleaning, shorten_quotes, terminal_safe};

    #[test]
    fn long_quotes_are_cut_and_the_rest_is_kept() {
        let long = "x".repeat(1000);
        let text = format!("game 1: unknown game `{long}` (known: `dvonn`, `pegs`)");
        let cut = shorten_quotes(&text, 400);
        assert_eq!(
            cut,
            format!(
                "game 1: unknown game `{}...` (known: `dvonn`, `pegs`)",
                &long[..400]
            )
        );
        assert_eq!(shorten_quotes("no quotes", 3), "no quotes");
        assert!(shorten_quotes(&format!("open `{long}"), 10).ends_with("`xxxxxxxxxx..."));
    }

    #[test]
    fn answer_lines_are_cleaned_like_commands_but_keep_their_indent() {
        for (line, expected) in [
            ("=4 E\u{0}2", "=4 E2"),
            ("=4 E2 # c", "=4 E2"),
            ("# only a comment", ""),
            ("  drawn\u{85} row", "  drawn row"),
            ("=4\tE2\u{7f}", "=4\tE2"),
        ] {
            assert!(needs_cleaning(line), "{line:?}");
            assert_eq!(clean_answer_line(line), expected, "{line:?}");
        }
        assert!(!needs_cleaning("=12 B4E4"));
        assert!(!needs_cleaning("=3 left c31:RGB"));
    }

    #[test]
    fn lines_are_cleaned_like_gtp() {
        let cases = [
            ("", None),
            ("   ", None),
            ("# a comment", None),
            ("play D2 # first", Some("play D2")),
            ("1\tplay\tD2\r", Some("1 play D2")),
            ("na\x07me", Some("name")),
        ];
        for (line, expected) in cases {
            assert_eq!(clean_line(line).as_deref(), expected, "{line:?}");
        }
    }

    #[test]
    fn escape_sequences_are_shown_not_sent() {
        assert_eq!(
            terminal_safe("plain text\n\tindented"),
            "plain text\n\tindented"
        );
        // Clear the screen, a window title, a clipboard write, an 8-bit CSI, a bell, DEL.
        let hostile = "\u{1b}[2J\u{1b}]0;owned\u{7}\u{1b}]52;c;ZXZpbA==\u{7}\u{9b}31m\u{7f}\r";
        let safe = terminal_safe(hostile);
        assert!(!safe.chars().any(char::is_control), "{safe}");
        assert_eq!(
            safe,
            "\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{1b}]52;c;ZXZpbA==\\u{7}\\u{9b}31m\\u{7f}\\u{d}"
        );
        assert_eq!(terminal_safe("é, ü, 日本"), "é, ü, 日本");
    }
}
