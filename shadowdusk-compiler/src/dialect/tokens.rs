//! A small GLSL tokenizer: enough to replace identifiers on token boundaries and to find
//! matching brackets. Input: GLSL text. Output: tokens that concatenate back to the input
//! exactly (whitespace, comments and preprocessor lines are tokens too).

/// Token kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `[A-Za-z_][A-Za-z0-9_]*`
    Ident,
    /// A numeric literal (with suffixes and exponents).
    Number,
    /// An operator or punctuation (multi-character operators are one token).
    Punct,
    /// Spaces, tabs, newlines.
    Space,
    /// `//` or `/* */`.
    Comment,
    /// A whole `#...` line, without its newline.
    Preproc,
    /// Any other character (non-ASCII included); the validator refuses these.
    Other,
}

/// One token; `text` is a slice of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// Kind.
    pub kind: Kind,
    /// The exact source text.
    pub text: &'a str,
}

const PUNCT3: [&str; 3] = ["<<=", ">>=", "..."];
const PUNCT2: [&str; 19] = [
    "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^", "+=", "-=", "*=", "/=", "%=",
    "&=", "|=", "^=",
];

/// Splits `src` into tokens.
pub fn tokenize(src: &str) -> Vec<Token<'_>> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let start = i;
        let c = b[i];
        let kind = if c == b'\n' || c == b' ' || c == b'\t' || c == b'\r' {
            while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
                if b[i] == b'\n' {
                    line_start = true;
                }
                i += 1;
            }
            out.push(Token {
                kind: Kind::Space,
                text: &src[start..i],
            });
            continue;
        } else if c == b'#' && line_start {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            Kind::Preproc
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            Kind::Comment
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                i += 1;
            }
            i = (i + 2).min(b.len());
            Kind::Comment
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit()
            || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            while i < b.len() {
                let d = b[i];
                let exp_sign = (d == b'+' || d == b'-')
                    && i > start
                    && matches!(b[i - 1], b'e' | b'E')
                    && !src[start..i].starts_with("0x");
                if d.is_ascii_alphanumeric() || d == b'.' || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            Kind::Number
        } else if c.is_ascii() {
            let rest = &src[i..];
            let n = if PUNCT3.iter().any(|p| rest.starts_with(p)) {
                3
            } else if PUNCT2.iter().any(|p| rest.starts_with(p)) {
                2
            } else {
                1
            };
            i += n;
            Kind::Punct
        } else {
            let ch = src[i..].chars().next().map_or(1, char::len_utf8);
            i += ch;
            Kind::Other
        };
        line_start = false;
        out.push(Token {
            kind,
            text: &src[start..i],
        });
    }
    out
}

/// Index of the bracket closing the one at `open` (`(`/`[`/`{`), skipping nested ones.
pub fn matching(tokens: &[Token<'_>], open: usize) -> Option<usize> {
    let (o, c) = match tokens.get(open)?.text {
        "(" => ("(", ")"),
        "[" => ("[", "]"),
        "{" => ("{", "}"),
        _ => return None,
    };
    let mut depth = 0usize;
    for (j, t) in tokens.iter().enumerate().skip(open) {
        if t.kind != Kind::Punct {
            continue;
        }
        if t.text == o {
            depth += 1;
        } else if t.text == c {
            depth -= 1;
            if depth == 0 {
                return Some(j);
            }
        }
    }
    None
}

/// Index of the next token after `i` that is not whitespace or a comment.
pub fn next_significant(tokens: &[Token<'_>], i: usize) -> Option<usize> {
    (i + 1..tokens.len()).find(|&j| !matches!(tokens[j].kind, Kind::Space | Kind::Comment))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_splits_on_word_boundaries() {
        let src = "#version 110\nuniform vec4 sd_ub0[5];\nvoid main() { x_1 = a<<=2 && 1.5e-3 + .5; /* c */ }\n";
        let t = tokenize(src);
        assert_eq!(t.iter().map(|t| t.text).collect::<String>(), src);
        assert_eq!(
            t[0],
            Token {
                kind: Kind::Preproc,
                text: "#version 110"
            }
        );
        assert!(t
            .iter()
            .any(|t| t.kind == Kind::Number && t.text == "1.5e-3"));
        assert!(t.iter().any(|t| t.kind == Kind::Punct && t.text == "<<="));
        assert!(t
            .iter()
            .any(|t| t.kind == Kind::Ident && t.text == "sd_ub0"));
        let open = t.iter().position(|t| t.text == "{").unwrap();
        assert_eq!(t[matching(&t, open).unwrap()].text, "}");
    }
}
