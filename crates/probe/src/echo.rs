//! Input repeated in messages: cut to a readable length, so that an error about a huge or
//! hostile input stays one short line.

use std::borrow::Cow;

/// How many characters of someone's input an error message repeats: enough to recognise it,
/// and a 50 MB line does not come back as 50 MB of message.
pub const ECHO_CHARS: usize = 60;

/// `input` cut to [`ECHO_CHARS`] characters, ending in `…` when something was cut. Every message
/// that repeats input goes through here (or [`echo`]).
pub fn cut(input: &str) -> Cow<'_, str> {
    match input.char_indices().nth(ECHO_CHARS) {
        None => Cow::Borrowed(input),
        Some((end, _)) => Cow::Owned(format!("{}…", &input[..end])),
    }
}

/// `input` cut as by [`cut`], in quotes with escapes, as error messages show it: `"K*2b"`.
pub fn echo(input: &str) -> String {
    format!("{:?}", cut(input))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_cut_with_an_ellipsis_and_quoted_with_escapes() {
        assert_eq!(cut("K*2b"), "K*2b");
        let long = "é".repeat(ECHO_CHARS + 5);
        assert_eq!(cut(&long), format!("{}…", "é".repeat(ECHO_CHARS)));
        assert_eq!(echo("a\"b\n"), "\"a\\\"b\\n\"");
    }
}
