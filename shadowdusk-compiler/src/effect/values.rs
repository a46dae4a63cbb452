//! The right-hand side of a state assignment (`= SrcAlpha;`, `= Red | Green;`, `= <Tex>;`,
//! `= -0.5f;`, `= 0xFF0000FF;`) and the helpers that read it as a boolean, number, enum or
//! flag set (fx-pipeline.md §3.1, §3.2).
//!
//! Value names match case-insensitively. A value that fits none of the shapes is kept as
//! [`Value::Other`] so the caller can report it with the list of valid values.

use super::lexer::{number_value, Token, TokenKind};

/// A parsed state value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// One identifier.
    Ident(String),
    /// A number, sign applied; `text` is the literal as written (for hex colors).
    Number {
        /// Value.
        value: f64,
        /// Literal text without the sign.
        text: String,
    },
    /// `a | b | c` (two or more terms).
    Flags(Vec<String>),
    /// `<Name>` or `(Name)`.
    Bracketed(String),
    /// Anything else, as written.
    Other(String),
}

/// Why a value or key was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueError {
    /// The key is not known; `valid` lists the keys.
    UnknownKey {
        /// Comma-separated list of valid keys.
        valid: String,
    },
    /// The value does not fit; `valid` lists what would.
    BadValue {
        /// What kind of value was expected.
        expected: &'static str,
        /// Comma-separated list (or description) of valid values.
        valid: String,
    },
}

impl Value {
    /// Builds a value from the tokens between `=` and `;`.
    pub fn from_tokens(src: &str, toks: &[Token]) -> Value {
        let t = |i: usize| toks[i].text(src);
        let raw = || match (toks.first(), toks.last()) {
            (Some(a), Some(b)) => src[a.range.start..b.range.end].to_string(),
            _ => String::new(),
        };
        match toks.len() {
            1 if toks[0].kind == TokenKind::Ident => return Value::Ident(t(0).to_string()),
            1 if toks[0].kind == TokenKind::Number => {
                if let Some(v) = number_value(t(0)) {
                    return Value::Number {
                        value: v,
                        text: t(0).to_string(),
                    };
                }
            }
            2 if (t(0) == "-" || t(0) == "+") && toks[1].kind == TokenKind::Number => {
                if let Some(v) = number_value(t(1)) {
                    return Value::Number {
                        value: if t(0) == "-" { -v } else { v },
                        text: t(1).to_string(),
                    };
                }
            }
            3 if toks[1].kind == TokenKind::Ident
                && ((t(0) == "<" && t(2) == ">") || (t(0) == "(" && t(2) == ")")) =>
            {
                return Value::Bracketed(t(1).to_string())
            }
            _ => {}
        }
        if toks.len() >= 3 && toks.len() % 2 == 1 {
            let terms_ok = toks
                .iter()
                .step_by(2)
                .all(|x| matches!(x.kind, TokenKind::Ident | TokenKind::Number));
            let seps_ok = toks.iter().skip(1).step_by(2).all(|x| x.text(src) == "|");
            if terms_ok && seps_ok {
                return Value::Flags(
                    toks.iter()
                        .step_by(2)
                        .map(|x| x.text(src).to_string())
                        .collect(),
                );
            }
        }
        Value::Other(raw())
    }

    /// Test helper: tokenizes `s` and builds the value.
    #[cfg(test)]
    pub fn parse_for_test(s: &str) -> Value {
        let lexed = super::lexer::tokenize(s);
        Value::from_tokens(s, &lexed.tokens)
    }
}

/// `true|false|0|1`, case-insensitive.
pub fn boolean(v: &Value) -> Result<bool, ValueError> {
    let err = || ValueError::BadValue {
        expected: "a boolean",
        valid: "true, false, 0, 1".into(),
    };
    match v {
        Value::Ident(s) if s.eq_ignore_ascii_case("true") => Ok(true),
        Value::Ident(s) if s.eq_ignore_ascii_case("false") => Ok(false),
        Value::Number { value, .. } if *value == 1.0 => Ok(true),
        Value::Number { value, .. } if *value == 0.0 => Ok(false),
        _ => Err(err()),
    }
}

/// A number (optional sign and `f` suffix).
pub fn number(v: &Value) -> Result<f64, ValueError> {
    match v {
        Value::Number { value, .. } => Ok(*value),
        _ => Err(ValueError::BadValue {
            expected: "a number",
            valid: "a decimal number such as 1, -0.5 or 2.0f".into(),
        }),
    }
}

/// One name from `table`, case-insensitive.
pub fn enumerated<T: Copy>(v: &Value, table: &[(&str, T)]) -> Result<T, ValueError> {
    if let Value::Ident(s) = v {
        if let Some((_, t)) = table.iter().find(|(n, _)| n.eq_ignore_ascii_case(s)) {
            return Ok(*t);
        }
    }
    Err(ValueError::BadValue {
        expected: "one of the listed names",
        valid: names(table),
    })
}

/// `A | B | ...` of names from `table` (or one name), ORed together.
pub fn flags(v: &Value, table: &[(&str, u8)]) -> Result<u8, ValueError> {
    let terms: Vec<String> = match v {
        Value::Ident(s) => vec![s.clone()],
        Value::Number { text, .. } => vec![text.clone()],
        Value::Flags(f) => f.clone(),
        _ => Vec::new(),
    };
    let err = || ValueError::BadValue {
        expected: "channel names joined by `|`",
        valid: names(table),
    };
    if terms.is_empty() || terms.len() > 4 {
        return Err(err());
    }
    let mut acc = 0;
    for t in &terms {
        let (_, bits) = table
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(t))
            .ok_or_else(err)?;
        acc |= bits;
    }
    Ok(acc)
}

fn names<T>(table: &[(&str, T)]) -> String {
    table.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        assert_eq!(Value::parse_for_test("Foo"), Value::Ident("Foo".into()));
        assert_eq!(
            Value::parse_for_test("-0.5f"),
            Value::Number {
                value: -0.5,
                text: "0.5f".into()
            }
        );
        assert_eq!(
            Value::parse_for_test("<Tex>"),
            Value::Bracketed("Tex".into())
        );
        assert_eq!(
            Value::parse_for_test("(Tex)"),
            Value::Bracketed("Tex".into())
        );
        assert_eq!(
            Value::parse_for_test("Red | Green"),
            Value::Flags(vec!["Red".into(), "Green".into()])
        );
        assert_eq!(Value::parse_for_test("a b"), Value::Other("a b".into()));
    }

    #[test]
    fn booleans() {
        assert_eq!(boolean(&Value::parse_for_test("TRUE")), Ok(true));
        assert_eq!(boolean(&Value::parse_for_test("0")), Ok(false));
        assert!(boolean(&Value::parse_for_test("yes")).is_err());
    }
}
