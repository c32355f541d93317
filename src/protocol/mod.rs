//! The GTP-like line protocol: commands, responses, and the GTP version 2 line framing.

mod command;
mod response;

pub use command::{COMMANDS, Command, CommandError, ENGINE_COMMANDS, NewGame, Request};
pub use response::{Response, ResponseError};

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
