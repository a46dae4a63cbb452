//! `#if` / `#elif` expressions.
//!
//! Input: the directive's tokens after macro expansion (the caller has already replaced
//! `defined X` / `defined(X)` written in the directive; ones produced by a macro are resolved
//! here through `is_defined`). Output: the value as `i64`.
//! Supports integer literals (decimal, hex, octal, with `u`/`l` suffixes), character literals,
//! `! ~ - +` (unary), `* / % + - << >> < <= > >= == != & ^ | && || ?:` and parentheses; an
//! identifier left after expansion is `0`, as in C. A call of a name that is no function-like
//! macro (`#if foo(X)` with `foo` undefined) is `0` too, as mgfxc's preprocessor takes it, and
//! is listed in [`Evaluated::undefined_calls`] so the caller can warn.
//! Refused: anything else (a float, a string, a missing operand or `)`, division by zero) with
//! a message and the offending token's index.
//!
//! Implements fx-pipeline.md §2 (C11 6.10.1).

use super::lexer::Kind;
use super::token::Tok;

/// Why an expression could not be evaluated, and at which token (an index into the input;
/// `None` for "ended too early").
#[derive(Debug)]
pub(crate) struct ExprError {
    pub message: String,
    pub at: Option<usize>,
}

/// A value, and where the expression called something that is not a macro.
#[derive(Debug)]
pub(crate) struct Evaluated {
    pub value: i64,
    /// Token indices of the names called like functions that were not macros.
    pub undefined_calls: Vec<usize>,
}

/// Deepest parenthesis/operator nesting accepted.
const MAX_NEST: u32 = 128;

/// Evaluates an `#if` expression.
pub(crate) fn eval(
    toks: &[Tok],
    is_defined: &dyn Fn(&str) -> bool,
) -> Result<Evaluated, ExprError> {
    let idx: Vec<usize> = (0..toks.len())
        .filter(|&i| !toks[i].kind.is_space())
        .collect();
    let mut p = Parser {
        toks,
        idx,
        pos: 0,
        is_defined,
        nest: 0,
        undefined_calls: Vec::new(),
    };
    if p.idx.is_empty() {
        return Err(ExprError {
            message: "missing expression".into(),
            at: None,
        });
    }
    let v = p.conditional()?;
    if let Some(&i) = p.idx.get(p.pos) {
        return Err(ExprError {
            message: format!("unexpected `{}` after the expression", toks[i].text),
            at: Some(i),
        });
    }
    Ok(Evaluated {
        value: v,
        undefined_calls: p.undefined_calls,
    })
}

struct Parser<'a> {
    toks: &'a [Tok],
    idx: Vec<usize>,
    pos: usize,
    is_defined: &'a dyn Fn(&str) -> bool,
    undefined_calls: Vec<usize>,
    nest: u32,
}

/// Binary operators by precedence level, loosest first (below `?:`).
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<", "<=", ">", ">="],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.idx.get(self.pos).map(|&i| &self.toks[i])
    }

    fn here(&self) -> Option<usize> {
        self.idx.get(self.pos).copied()
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.peek().is_some_and(|t| t.is_punct(p)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, ExprError> {
        Err(ExprError {
            message: message.into(),
            at: self.here(),
        })
    }

    fn enter(&mut self) -> Result<(), ExprError> {
        self.nest += 1;
        if self.nest > MAX_NEST {
            return self.err("expression is nested too deeply");
        }
        Ok(())
    }

    fn conditional(&mut self) -> Result<i64, ExprError> {
        self.enter()?;
        let c = self.binary(0)?;
        let v = if self.eat("?") {
            let a = self.conditional()?;
            if !self.eat(":") {
                return self.err("expected `:` in `?:`");
            }
            let b = self.conditional()?;
            if c != 0 {
                a
            } else {
                b
            }
        } else {
            c
        };
        self.nest -= 1;
        Ok(v)
    }

    fn binary(&mut self, level: usize) -> Result<i64, ExprError> {
        if level >= LEVELS.len() {
            return self.unary();
        }
        let mut l = self.binary(level + 1)?;
        loop {
            let Some(op) = self.peek().and_then(|t| {
                (t.kind == Kind::Punct)
                    .then(|| LEVELS[level].iter().find(|o| ***o == *t.text))
                    .flatten()
            }) else {
                return Ok(l);
            };
            let at = self.here();
            self.pos += 1;
            let r = self.binary(level + 1)?;
            l = match *op {
                "||" => i64::from(l != 0 || r != 0),
                "&&" => i64::from(l != 0 && r != 0),
                "|" => l | r,
                "^" => l ^ r,
                "&" => l & r,
                "==" => i64::from(l == r),
                "!=" => i64::from(l != r),
                "<" => i64::from(l < r),
                "<=" => i64::from(l <= r),
                ">" => i64::from(l > r),
                ">=" => i64::from(l >= r),
                "<<" => l.wrapping_shl((r & 63) as u32),
                ">>" => l.wrapping_shr((r & 63) as u32),
                "+" => l.wrapping_add(r),
                "-" => l.wrapping_sub(r),
                "*" => l.wrapping_mul(r),
                "/" | "%" => {
                    if r == 0 {
                        return Err(ExprError {
                            message: "division by zero in `#if`".into(),
                            at,
                        });
                    }
                    if *op == "/" {
                        l.wrapping_div(r)
                    } else {
                        l.wrapping_rem(r)
                    }
                }
                _ => l,
            };
        }
    }

    fn unary(&mut self) -> Result<i64, ExprError> {
        self.enter()?;
        let v = if self.eat("!") {
            i64::from(self.unary()? == 0)
        } else if self.eat("~") {
            !self.unary()?
        } else if self.eat("-") {
            self.unary()?.wrapping_neg()
        } else if self.eat("+") {
            self.unary()?
        } else {
            self.primary()?
        };
        self.nest -= 1;
        Ok(v)
    }

    fn primary(&mut self) -> Result<i64, ExprError> {
        let Some(t) = self.peek().cloned() else {
            // At the operator left without an operand (the last token), not the directive.
            return Err(ExprError {
                message: "expression ends where an operand was expected".into(),
                at: self.idx.last().copied(),
            });
        };
        if t.is_punct("(") {
            let open = self.idx[self.pos];
            self.pos += 1;
            let v = self.conditional()?;
            if !self.eat(")") {
                // At the `(` left open when the line ends; at the stray token otherwise.
                return Err(ExprError {
                    message: "expected `)`".into(),
                    at: self.here().or(Some(open)),
                });
            }
            return Ok(v);
        }
        match t.kind {
            Kind::Number => {
                let v = parse_int(&t.text)
                    .map_or_else(|| self.err(format!("`{}` is not an integer", t.text)), Ok)?;
                self.pos += 1;
                Ok(v)
            }
            Kind::Char => {
                let v = parse_char(&t.text).map_or_else(
                    || self.err(format!("unsupported character literal {}", t.text)),
                    Ok,
                )?;
                self.pos += 1;
                Ok(v)
            }
            Kind::Ident if &*t.text == "defined" => {
                self.pos += 1;
                let paren = self.eat("(");
                let name = match self.peek() {
                    Some(n) if n.kind == Kind::Ident => n.text.clone(),
                    _ => return self.err("`defined` must be followed by a macro name"),
                };
                self.pos += 1;
                if paren && !self.eat(")") {
                    return self.err("expected `)` after `defined(NAME`");
                }
                Ok(i64::from((self.is_defined)(&name)))
            }
            // C: identifiers still present after expansion evaluate to 0; so does a call of one
            // (its arguments are skipped unevaluated).
            Kind::Ident => {
                let name_at = self.idx[self.pos];
                self.pos += 1;
                if self.peek().is_some_and(|n| n.is_punct("(")) {
                    let mut depth = 0u32;
                    while let Some(n) = self.peek() {
                        if n.is_punct("(") {
                            depth += 1;
                        } else if n.is_punct(")") {
                            depth -= 1;
                        }
                        self.pos += 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    if depth != 0 {
                        return self.err("expected `)`");
                    }
                    self.undefined_calls.push(name_at);
                }
                Ok(0)
            }
            _ => self.err(format!("`{}` cannot appear in an `#if` expression", t.text)),
        }
    }
}

/// An integer literal with an optional `u`/`l` suffix.
fn parse_int(s: &str) -> Option<i64> {
    let body = s.trim_end_matches(['u', 'U', 'l', 'L']);
    let (digits, radix) =
        if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (h, 16)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    if digits.is_empty() {
        return None;
    }
    u64::from_str_radix(digits, radix).ok().map(|v| v as i64)
}

/// A plain or simply escaped character literal (`'a'`, `'\n'`, `'\0'`).
fn parse_char(s: &str) -> Option<i64> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = inner.chars();
    let c = chars.next()?;
    let v = if c == '\\' {
        match chars.next()? {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            '0' => '\0',
            '\\' => '\\',
            '\'' => '\'',
            '"' => '"',
            _ => return None,
        }
    } else {
        c
    };
    if chars.next().is_some() {
        return None;
    }
    Some(v as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preprocess::lexer::lex;
    use crate::source::FileId;

    fn ev(s: &str) -> Result<i64, ExprError> {
        let toks: Vec<Tok> = lex(s)
            .unwrap_or_default()
            .iter()
            .map(|r| Tok::from_raw(r, s, FileId(0)))
            .collect();
        eval(&toks, &|n| n == "X").map(|e| e.value)
    }

    #[test]
    fn precedence_and_operators() {
        assert_eq!(ev("1 + 2 * 3").unwrap(), 7);
        assert_eq!(ev("(1 + 2) * 3").unwrap(), 9);
        assert_eq!(ev("1 << 4 | 1").unwrap(), 17);
        assert_eq!(ev("!0 && ~0 == -1").unwrap(), 1);
        assert_eq!(ev("2 > 1 ? 10 : 20").unwrap(), 10);
        assert_eq!(ev("0x10 + 010 + 1u").unwrap(), 25);
        assert_eq!(ev("7 % 4 - 10 / 3").unwrap(), 0);
        assert_eq!(ev("'A'").unwrap(), 65);
    }

    #[test]
    fn unknown_identifiers_are_zero_and_defined_works() {
        assert_eq!(ev("UNKNOWN").unwrap(), 0);
        assert_eq!(ev("defined(X) && !defined Y").unwrap(), 1);
    }

    #[test]
    fn errors_are_reported() {
        assert!(ev("1 +").is_err());
        assert!(ev("(1").is_err());
        assert!(ev("1 / 0").is_err());
        assert!(ev("1.5").is_err());
        assert!(ev("").is_err());
        assert!(ev("1 2").is_err());
        assert!(ev(&"(".repeat(10_000)).is_err());
    }
}
