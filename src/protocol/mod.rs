//! The GTP-like line protocol: commands, responses, and the GTP version 2 line framing.

mod command;
mod response;

pub use command::{COMMANDS, Command, CommandError, ENGINE_COMMANDS, NewGame, Request};
pub use response::{Response, ResponseError};

use std::io::{self, BufRead, Write};

/// Answers commands read from `input` on `output` until `quit` (answered first) or the end of
/// input; a closed output ends it cleanly too. Bad lines are answered `?` without reaching
/// `answer`. Both the session and the built-in engines serve this way.
pub fn serve(
    mut input: impl BufRead,
    mut output: impl Write,
    mut answer: impl FnMut(Command) -> Result<String, String>,
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        // Invalid UTF-8 becomes replacement characters, so it is answered like any bad command.
        let Some(text) = clean_line(&String::from_utf8_lossy(&line)) else {
            continue;
        };
        let (response, quit) = match text.parse::<Request>() {
            Ok(request) => {
                let quit = request.command == Command::Quit;
                let body = answer(request.command);
                (
                    Response {
                        id: request.id,
                        body,
                    },
                    quit,
                )
            }
            Err(error) => (Response::error(error.id, error.message), false),
        };
        match write!(output, "{response}").and_then(|()| output.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            result => result?,
        }
        if quit {
            return Ok(());
        }
    }
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

#[cfg(test)]
mod tests {
    use super::clean_line;

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
}
