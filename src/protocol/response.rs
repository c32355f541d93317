//! Responses: `=[id] payload` or `?[id] message`, each closed by one empty line.

use std::fmt;
use std::str::FromStr;

/// One answer to one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The id of the command answered, if it had one.
    pub id: Option<u64>,
    /// `Ok(payload)` for `=`, `Err(message)` for `?`.
    pub body: Result<String, String>,
}

impl Response {
    /// A success answer.
    pub fn ok(id: Option<u64>, payload: impl Into<String>) -> Response {
        Response {
            id,
            body: Ok(payload.into()),
        }
    }

    /// A failure answer.
    pub fn error(id: Option<u64>, message: impl Into<String>) -> Response {
        Response {
            id,
            body: Err(message.into()),
        }
    }
}

/// Text that is not a response.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a response: expected `=[id] payload` or `?[id] message`")]
pub struct ResponseError;

impl fmt::Display for Response {
    /// Writes the answer and its closing empty line; empty lines inside the payload are dropped,
    /// since an empty line ends the answer.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mark, text) = match &self.body {
            Ok(payload) => ('=', payload),
            Err(message) => ('?', message),
        };
        write!(f, "{mark}")?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        let mut lines = text.lines().filter(|line| !line.trim().is_empty());
        if let Some(first) = lines.next() {
            write!(f, " {first}")?;
        }
        lines.try_for_each(|line| write!(f, "\n{line}"))?;
        f.write_str("\n\n")
    }
}

impl FromStr for Response {
    type Err = ResponseError;

    /// Reads one answer: its lines, with or without the closing empty line. Tabs count as
    /// spaces, as GTP treats them.
    fn from_str(text: &str) -> Result<Response, ResponseError> {
        // Read at every ply, so by hand: a mark, digits, then nothing or a space and the rest.
        let text = text.trim_end_matches(['\n', '\r']);
        let ok = match text.as_bytes().first() {
            Some(b'=') => true,
            Some(b'?') => false,
            _ => return Err(ResponseError),
        };
        let rest = &text[1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let id = match digits {
            0 => None,
            _ => Some(rest[..digits].parse::<u64>().map_err(|_| ResponseError)?),
        };
        let payload = match rest.as_bytes().get(digits) {
            None => "",
            Some(b' ' | b'\t') => &rest[digits + 1..],
            Some(_) => return Err(ResponseError),
        };
        let payload = match payload.contains('\t') {
            true => payload.replace('\t', " "),
            false => payload.to_owned(),
        };
        Ok(Response {
            id,
            body: if ok { Ok(payload) } else { Err(payload) },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Response;

    #[test]
    fn responses_round_trip() {
        let cases = [
            Response::ok(None, ""),
            Response::ok(Some(3), "2"),
            Response::ok(Some(0), "line one\nline two"),
            Response::error(None, "illegal move D2: D2 is occupied"),
            Response::error(Some(17), "unknown command `x`"),
        ];
        for case in cases {
            let text = case.to_string();
            assert!(text.ends_with("\n\n") && !text[..text.len() - 2].contains("\n\n"));
            assert_eq!(text.parse::<Response>(), Ok(case), "{text:?}");
        }
    }

    #[test]
    fn framing_is_exact() {
        assert_eq!(Response::ok(None, "").to_string(), "=\n\n");
        assert_eq!(Response::ok(Some(4), "x y").to_string(), "=4 x y\n\n");
        assert_eq!(Response::error(Some(4), "bad").to_string(), "?4 bad\n\n");
        assert_eq!(Response::ok(None, "a\n\nb\n").to_string(), "= a\nb\n\n");
    }

    #[test]
    fn tabs_are_spaces() {
        assert_eq!("=4\tD2".parse(), Ok(Response::ok(Some(4), "D2")));
        assert_eq!(
            "=4\tleft\tc31".parse(),
            Ok(Response::ok(Some(4), "left c31"))
        );
        assert_eq!("?\tbad".parse(), Ok(Response::error(None, "bad")));
        assert_eq!("=7".parse(), Ok(Response::ok(Some(7), "")));
        assert_eq!("= ".parse(), Ok(Response::ok(None, "")));
        assert_eq!(
            "=18446744073709551615  D2\r\n".parse(),
            Ok(Response::ok(Some(u64::MAX), " D2"))
        );
    }

    #[test]
    fn garbage_is_not_a_response() {
        for text in [
            "",
            "x",
            "=x",
            "?12x",
            "!1 ok",
            "=99999999999999999999 D2",
            "=-1 D2",
        ] {
            assert!(text.parse::<Response>().is_err(), "{text:?}");
        }
    }
}
