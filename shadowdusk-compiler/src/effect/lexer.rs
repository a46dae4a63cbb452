//! A small HLSL-aware tokenizer shared by the effect parser and the lowering stage.
//!
//! Input: expanded text. Output: [`Token`]s with byte ranges into that text. Comments and
//! whitespace produce no tokens; a `#` directive line that survived preprocessing (`#pragma`,
//! `#line`) becomes one [`TokenKind::Directive`] token so callers can skip it.
//!
//! Refused: characters HLSL has no use for outside strings and comments (`@`, `$`, backtick,
//! control characters, non-ASCII) → FX0011, reported as a list of offsets so the parser can
//! attach spans (fx-pipeline.md §10).

use std::ops::Range;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// Identifier or keyword (`float4`, `technique`, `_x1`).
    Ident,
    /// Numeric literal, suffix included (`1.0f`, `.5`, `1e-3`, `0xFF`, `2u`).
    Number,
    /// String literal, quotes included.
    Str,
    /// One punctuation character (`{`, `<`, `|`, ...). Multi-character operators are split
    /// into single characters; nothing at effect level needs them joined.
    Punct,
    /// A whole `#...` line.
    Directive,
}

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Kind.
    pub kind: TokenKind,
    /// Byte range in the source text.
    pub range: Range<usize>,
}

impl Token {
    /// The token's text.
    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.range.clone()]
    }
}

/// Tokens plus the offsets of characters the lexer could not classify.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    /// Tokens in order.
    pub tokens: Vec<Token>,
    /// Byte ranges of unclassifiable characters (FX0011).
    pub bad_chars: Vec<Range<usize>>,
}

/// Tokenizes `src`. Never fails: unterminated comments and strings run to the end of the text
/// (the preprocessor already rejected those in user files).
pub fn tokenize(src: &str) -> Lexed {
    let b = src.as_bytes();
    let mut out = Lexed::default();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                i += 1;
            }
            i = (i + 2).min(b.len());
            continue;
        }
        let start = i;
        let was_line_start = line_start;
        line_start = false;
        let kind = if c == b'#' && was_line_start {
            while i < b.len() && b[i] != b'\n' {
                // A directive continued with a backslash spans the next line too.
                if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                i += 1;
            }
            TokenKind::Directive
        } else if c == b'_' || c.is_ascii_alphabetic() {
            while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            TokenKind::Ident
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i = scan_number(b, i);
            TokenKind::Number
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(b.len());
            TokenKind::Str
        } else if c.is_ascii_punctuation() && !matches!(c, b'@' | b'$' | b'`' | b'\\') {
            i += 1;
            TokenKind::Punct
        } else {
            // Step over a whole UTF-8 character so ranges stay on char boundaries.
            i += 1;
            while i < b.len() && (b[i] & 0xC0) == 0x80 {
                i += 1;
            }
            // One range per run of unknown characters: hostile input costs O(1) memory here.
            match out.bad_chars.last_mut() {
                Some(run) if run.end == start => run.end = i,
                _ => out.bad_chars.push(start..i),
            }
            continue;
        };
        out.tokens.push(Token {
            kind,
            range: start..i,
        });
    }
    out
}

fn scan_number(b: &[u8], mut i: usize) -> usize {
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) {
        i += 2;
        while i < b.len() && b[i].is_ascii_hexdigit() {
            i += 1;
        }
    } else {
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
            i += 1;
        }
        if i < b.len() && matches!(b[i], b'e' | b'E') {
            let mut j = i + 1;
            if j < b.len() && matches!(b[j], b'+' | b'-') {
                j += 1;
            }
            if j < b.len() && b[j].is_ascii_digit() {
                i = j;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
        }
    }
    // Suffixes: f, h, l, u, F, H, L, U (any combination HLSL allows).
    while i < b.len() && matches!(b[i], b'f' | b'F' | b'h' | b'H' | b'l' | b'L' | b'u' | b'U') {
        i += 1;
    }
    i
}

/// Parses a numeric literal token's text as f64 (`1.0f`, `.5`, `1e-3`, `0x10`, `3u`).
pub fn number_value(text: &str) -> Option<f64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        let hex = hex.trim_end_matches(['u', 'U', 'l', 'L']);
        return u64::from_str_radix(hex, 16).ok().map(|v| v as f64);
    }
    let t = text.trim_end_matches(['f', 'F', 'h', 'H', 'l', 'L', 'u', 'U']);
    t.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<&str> {
        tokenize(src).tokens.iter().map(|t| t.text(src)).collect()
    }

    #[test]
    fn numbers_with_suffixes_exponents_and_hex() {
        assert_eq!(
            texts("1.0f .5 1e-3 0xFF 2u 3.5E+2h"),
            ["1.0f", ".5", "1e-3", "0xFF", "2u", "3.5E+2h"]
        );
        assert_eq!(number_value("1.0f"), Some(1.0));
        assert_eq!(number_value(".5"), Some(0.5));
        assert_eq!(number_value("1e-3"), Some(0.001));
        assert_eq!(number_value("0xFF"), Some(255.0));
        assert_eq!(number_value("2u"), Some(2.0));
    }

    #[test]
    fn comments_strings_and_directives() {
        let src = "#pragma x\nfloat a; // c @\n/* $ */ \"s @\" b.x";
        assert_eq!(
            texts(src),
            ["#pragma x", "float", "a", ";", "\"s @\"", "b", ".", "x"]
        );
        assert!(tokenize(src).bad_chars.is_empty());
    }

    #[test]
    fn bad_characters_are_reported() {
        let l = tokenize("a @ b $ `");
        assert_eq!(l.bad_chars, vec![2..3, 6..7, 8..9]);
        assert_eq!(tokenize("a @@$ b").bad_chars, vec![2..5]);
        assert_eq!(l.tokens.len(), 2);
    }

    #[test]
    fn hash_inside_a_line_is_punctuation() {
        let src = "a # b";
        assert_eq!(tokenize(src).tokens[1].kind, TokenKind::Punct);
    }
}
