//! Strings in messages: quoted, with what could break a line or hide escaped,
//! and cut short so a message never grows with what it is about.
//!
//! The quoting is written here rather than taken from `{:?}`, whose Unicode
//! tables (which characters are printable) would add about 10 KB to the wasm
//! module; it escapes as `{:?}` does for every character a name or colour
//! can hold, and every control character.

use std::fmt::Write;

/// Characters of a string an error message shows at most.
pub const ECHO_CHARS: usize = 40;

/// `text` in double quotes: `"`, `\` and the control characters escaped
/// (`\n`, `\t`, `\r`, `\0`, otherwise `\u{7f}`), every other character as is.
pub fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            '\r' => quoted.push_str("\\r"),
            '\0' => quoted.push_str("\\0"),
            c if c.is_control() => {
                let _ = write!(quoted, "\\u{{{:x}}}", c as u32);
            }
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// `text` quoted for a message, cut after [`ECHO_CHARS`] characters: a message
/// never grows with what it is about. `length` is the length of the whole
/// string (in the caller's unit: JavaScript counts UTF-16 units) when `text`
/// is only its beginning; a cut string ends in `…` and states the length.
pub fn quoted(text: &str, length: usize) -> String {
    let shown: String = text.chars().take(ECHO_CHARS).collect();
    if shown.len() == text.len() && length <= shown.chars().count() {
        quote(&shown)
    } else {
        format!("{}… ({length} characters)", quote(&shown))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_as_debug_does() {
        for text in [
            "",
            "colored",
            "a \"b\" \\ c",
            "tab\there\nnew\r\0",
            "\u{7f}\u{1b}",
            "é ü 中 😀",
            "it's",
        ] {
            assert_eq!(quote(text), format!("{text:?}"));
        }
    }

    #[test]
    fn cuts_long_strings() {
        let long = "x".repeat(50);
        assert_eq!(
            quoted(&long, 50),
            format!("\"{}\"… (50 characters)", "x".repeat(40))
        );
        assert_eq!(quoted("abc", 3), "\"abc\"");
        assert_eq!(quoted("abc", 9), "\"abc\"… (9 characters)");
    }

    /// Arbitrary inputs (proptest runs natively only).
    #[cfg(not(target_arch = "wasm32"))]
    mod arbitrary {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn ascii_and_letters_quote_as_debug_does(text in "[ -~\\t\\n\\r\\x00-\\x1f\\x7fa-zA-Zéü中😀]{0,60}") {
                prop_assert_eq!(quote(&text), format!("{text:?}"));
            }
        }
    }
}
