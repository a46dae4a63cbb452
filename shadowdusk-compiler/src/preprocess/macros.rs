//! Macro definitions: parsing `#define` bodies into [`Macro`]s.
//!
//! Input: the tokens after `#define`. Output: the macro's name and definition, with the body
//! normalized for substitution (whitespace collapsed to single spaces, none around `##` or
//! between `#` and its parameter).
//! Refused (SD0004): a missing or non-identifier name, a malformed parameter list, a duplicate
//! parameter, `##` at either end of the body, `#` not followed by a parameter in a function-like
//! macro, and defining `defined`.
//!
//! Implements fx-pipeline.md §2 (C11 6.10.3).

use std::collections::BTreeMap;
use std::rc::Rc;

use super::lexer::Kind;
use super::token::{trim, Tok};
use crate::source::Span;

/// One macro.
#[derive(Clone, Debug)]
pub(crate) struct Macro {
    /// `None` for an object-like macro; otherwise the parameter names, the variadic one last
    /// (`__VA_ARGS__` for `...`).
    pub params: Option<Vec<Rc<str>>>,
    pub variadic: bool,
    /// The replacement list.
    pub body: Vec<Tok>,
}

impl Macro {
    /// Index of the parameter a token names, if any.
    pub(crate) fn param_index(&self, t: Option<&Tok>) -> Option<usize> {
        let t = t?;
        if t.kind != Kind::Ident {
            return None;
        }
        self.params.as_ref()?.iter().position(|p| **p == *t.text)
    }
}

/// All macros currently defined, by name (a `BTreeMap` so nothing depends on hash order).
pub(crate) type Macros = BTreeMap<Rc<str>, Macro>;

/// A `#define` that could not be parsed: message, where, and what to do.
#[derive(Debug)]
pub(crate) struct DefineError {
    pub message: String,
    pub span: Span,
    pub help: &'static str,
}

/// Parses the tokens after `#define` (whitespace included). `at` is the directive's span, used
/// when there is no better location.
pub(crate) fn parse_define(toks: &[Tok], at: Span) -> Result<(Rc<str>, Macro), DefineError> {
    let toks = trim(toks);
    let Some(name) = toks.first() else {
        return Err(DefineError {
            message: "`#define` without a macro name".into(),
            span: at,
            help: "write `#define NAME value` or remove the line",
        });
    };
    if name.kind != Kind::Ident {
        return Err(DefineError {
            message: format!("macro name must be an identifier, found `{}`", name.text),
            span: name.span(),
            help: "macro names start with a letter or `_`",
        });
    }
    if &*name.text == "defined" {
        return Err(DefineError {
            message: "`defined` cannot be used as a macro name".into(),
            span: name.span(),
            help: "choose another name",
        });
    }
    let mut i = 1;
    let mut params = None;
    let mut variadic = false;
    // Function-like only when `(` follows the name with no whitespace in between.
    if toks.get(1).is_some_and(|t| t.is_punct("(")) {
        let mut list: Vec<Rc<str>> = Vec::new();
        i = 2;
        let bad = |t: Option<&Tok>, msg: &str| DefineError {
            message: msg.to_string(),
            span: t.map_or(name.span(), Tok::span),
            help: "a parameter list is `(a, b, ...)` with distinct identifiers",
        };
        let skip = |i: &mut usize| {
            while toks.get(*i).is_some_and(|t| t.kind.is_space()) {
                *i += 1;
            }
        };
        skip(&mut i);
        if toks.get(i).is_some_and(|t| t.is_punct(")")) {
            i += 1;
        } else {
            loop {
                skip(&mut i);
                let t = toks.get(i);
                match t {
                    Some(t) if t.is_punct("...") => {
                        list.push(Rc::from("__VA_ARGS__"));
                        variadic = true;
                        i += 1;
                    }
                    Some(t) if t.kind == Kind::Ident => {
                        if list.contains(&t.text) {
                            return Err(bad(
                                Some(t),
                                &format!("duplicate macro parameter `{}`", t.text),
                            ));
                        }
                        list.push(t.text.clone());
                        i += 1;
                        skip(&mut i);
                        if toks.get(i).is_some_and(|t| t.is_punct("...")) {
                            variadic = true;
                            i += 1;
                        }
                    }
                    _ => return Err(bad(t, "expected a macro parameter name")),
                }
                skip(&mut i);
                match toks.get(i) {
                    Some(t) if t.is_punct(")") => {
                        i += 1;
                        break;
                    }
                    Some(t) if t.is_punct(",") && !variadic => i += 1,
                    t => return Err(bad(t, "expected `,` or `)` in the macro parameter list")),
                }
            }
        }
        params = Some(list);
    }
    let mut m = Macro {
        params,
        variadic,
        body: Vec::new(),
    };
    m.body = normalize_body(&toks[i.min(toks.len())..], &m)?;
    Ok((name.text.clone(), m))
}

/// Collapses whitespace and removes it around `##` and after `#`, then checks operator use.
fn normalize_body(toks: &[Tok], m: &Macro) -> Result<Vec<Tok>, DefineError> {
    let mut body: Vec<Tok> = Vec::new();
    for t in trim(toks) {
        if t.kind.is_space() {
            let prev_glue = body
                .last()
                .is_some_and(|p| p.is_punct("##") || (m.params.is_some() && p.is_punct("#")));
            if !prev_glue && !body.last().is_some_and(|p| p.kind == Kind::Space) {
                let mut s = t.clone();
                s.kind = Kind::Space;
                s.text = Rc::from(" ");
                s.nl = 0;
                body.push(s);
            }
            continue;
        }
        if t.is_punct("##") && body.last().is_some_and(|p| p.kind == Kind::Space) {
            body.pop();
        }
        let mut t = t.clone();
        t.nl = 0;
        body.push(t);
    }
    if let Some(t) = body.first().filter(|t| t.is_punct("##")) {
        return Err(DefineError {
            message: "`##` cannot appear at the start of a macro body".into(),
            span: t.span(),
            help: "`##` pastes the tokens on both sides of it; put a token before it",
        });
    }
    if let Some(t) = body.last().filter(|t| t.is_punct("##")) {
        return Err(DefineError {
            message: "`##` cannot appear at the end of a macro body".into(),
            span: t.span(),
            help: "`##` pastes the tokens on both sides of it; put a token after it",
        });
    }
    if m.params.is_some() {
        for (k, t) in body.iter().enumerate() {
            if t.is_punct("#") && m.param_index(body.get(k + 1)).is_none() {
                return Err(DefineError {
                    message: "`#` is not followed by a macro parameter".into(),
                    span: t.span(),
                    help: "in a function-like macro `#` stringizes a parameter: write `#name`",
                });
            }
        }
    }
    Ok(body)
}
