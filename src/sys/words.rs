//! Command lines as words, the way the platform's users write them. On Unix a POSIX shell's rules
//! (quotes and backslash escapes); on Windows a backslash is a path's separator, so it is kept as
//! it is, and only quotes group: `'...'` or `"..."`, the quote marks dropped.

/// The words of `text`, or `None` if a quote is left open.
pub fn split(text: &str) -> Option<Vec<String>> {
    #[cfg(not(windows))]
    {
        shlex::split(text)
    }
    #[cfg(windows)]
    {
        windows_split(text)
    }
}

/// `word` quoted so that [`split`] gives it back as one word (as it is when nothing needs
/// quoting); `None` if it cannot be.
pub fn quote(word: &str) -> Option<String> {
    #[cfg(not(windows))]
    {
        shlex::try_quote(word)
            .ok()
            .map(std::borrow::Cow::into_owned)
    }
    #[cfg(windows)]
    {
        windows_quote(word)
    }
}

/// `words` joined into one line that [`split`] gives back as they are; `None` if one cannot be
/// quoted.
pub fn join<'a>(words: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let quoted: Option<Vec<String>> = words.into_iter().map(quote).collect();
    Some(quoted?.join(" "))
}

/// Windows' rule (see the module's doc).
#[cfg_attr(not(windows), allow(dead_code))]
fn windows_split(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut open: Option<char> = None;
    for c in text.chars() {
        match (open, c) {
            (Some(quote), c) if c == quote => open = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                open = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if open.is_some() {
        return None;
    }
    words.extend(word);
    Some(words)
}

/// Windows' quoting: in `'...'`, or `"..."` when the word holds a `'`.
#[cfg_attr(not(windows), allow(dead_code))]
fn windows_quote(word: &str) -> Option<String> {
    let plain =
        !word.is_empty() && !word.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"');
    if plain {
        return Some(word.to_owned());
    }
    ['\'', '"']
        .into_iter()
        .find(|q| !word.contains(*q))
        .map(|q| format!("{q}{word}{q}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_words_keep_backslashes_and_group_by_quotes() {
        let split = windows_split;
        assert_eq!(
            split(r#"C:\bots\a.exe --depth 3"#).unwrap(),
            [r"C:\bots\a.exe", "--depth", "3"]
        );
        assert_eq!(
            split(r#"name=a cmd='"C:\Program Files\b.exe" -x'"#).unwrap(),
            ["name=a", r#"cmd="C:\Program Files\b.exe" -x"#]
        );
        assert_eq!(split(r#"a "" 'b c'd"#).unwrap(), ["a", "", "b cd"]);
        assert_eq!(split("  ").unwrap(), Vec::<String>::new());
        assert_eq!(split("'open"), None);
        for word in [r"C:\x y\z.exe", "it's", r#"say "hi""#, "", "plain"] {
            let quoted = windows_quote(word).unwrap();
            assert_eq!(split(&quoted).unwrap(), [word], "{quoted}");
        }
        assert_eq!(windows_quote(r#"both ' and ""#), None);
    }
}
