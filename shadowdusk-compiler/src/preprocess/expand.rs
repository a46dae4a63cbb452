//! Macro expansion: object- and function-like macros, `#`, `##`, rescanning.
//!
//! Input: a run of tokens (text lines between directives, or an `#if` expression) and the
//! macro table. Output: the tokens with every macro invocation replaced by its expansion.
//! Arguments are fully expanded before substitution except next to `#`/`##`; the result is
//! rescanned together with the rest of the input; hide sets stop a macro from expanding inside
//! its own expansion. Every token of an expansion is located at the invocation's name (so a
//! later error in generated code points at the use site), and the line breaks an invocation
//! swallowed come back as one [`Kind::Lost`] token after it.
//! Refused (SD0004): a wrong argument count, an invocation whose `)` is missing, and runaway
//! expansions (nesting or output size beyond fixed limits).
//!
//! Implements fx-pipeline.md §2 (C11 6.10.3).

use std::rc::Rc;

use super::lexer::{lex_str, Kind};
use super::macros::{Macro, Macros};
use super::token::{trim, HideSet, Tok};
use crate::diag::{Code, Diagnostic};

/// Deepest nesting of macro invocations inside arguments.
const MAX_DEPTH: u32 = 200;
/// Most work (tokens produced plus hide-set names copied) one expansion run may do: stops
/// `#define A B B` / `#define B C C` … in bounded time and memory.
const MAX_TOKENS: usize = 1_000_000;

/// Expands macros over token runs, collecting diagnostics.
pub(crate) struct Expander<'a> {
    macros: &'a Macros,
    pub diags: Vec<Diagnostic>,
    /// Set when expansion had to stop; the caller must not continue.
    pub fatal: bool,
    produced: usize,
}

impl<'a> Expander<'a> {
    pub(crate) fn new(macros: &'a Macros) -> Self {
        Expander {
            macros,
            diags: Vec::new(),
            fatal: false,
            produced: 0,
        }
    }

    /// Expands every macro invocation in `input`.
    pub(crate) fn expand(&mut self, input: Vec<Tok>) -> Vec<Tok> {
        self.expand_at(input, 0)
    }

    fn expand_at(&mut self, input: Vec<Tok>, depth: u32) -> Vec<Tok> {
        let macros = self.macros;
        let mut stack = input;
        stack.reverse();
        let mut out = Vec::with_capacity(stack.len());
        while let Some(tok) = stack.pop() {
            if self.fatal || tok.kind != Kind::Ident || tok.hide.contains(&tok.text) {
                out.push(tok);
                continue;
            }
            let Some((name, m)) = macros.get_key_value(&*tok.text) else {
                out.push(tok);
                continue;
            };
            // Work done for this expansion: its tokens, and the hide set copied into it (which
            // grows with the nesting, so `#define M2 M1 M1` chains cost more than their tokens).
            let mut cost = tok.hide.len() + 1;
            let expansion = if m.params.is_none() {
                let hs = tok.hide.with(name);
                finish(m.body.clone(), &tok, &hs, tok.nl)
            } else {
                // Function-like: only an invocation when `(` follows (whitespace allowed).
                let mut j = stack.len();
                while j > 0 && stack[j - 1].kind.is_space() {
                    j -= 1;
                }
                if j == 0 || !stack[j - 1].is_punct("(") {
                    out.push(tok);
                    continue;
                }
                let mut nl = tok.nl;
                while stack.len() >= j {
                    if let Some(t) = stack.pop() {
                        nl += t.newlines();
                    }
                }
                let Some((args, rparen, arg_nl)) = read_args(&mut stack, m) else {
                    self.diags.push(
                        Diagnostic::error(
                            Code::SD0004,
                            format!("unterminated invocation of macro `{}`", tok.text),
                        )
                        .at(tok.span())
                        .with_help(
                            "close the argument list with `)`; arguments may span lines but \
                             not preprocessor directives",
                        ),
                    );
                    continue;
                };
                nl += arg_nl;
                let Some(args) = self.check_count(&tok, m, args) else {
                    continue;
                };
                if depth >= MAX_DEPTH {
                    self.fail(&tok, "macro invocations are nested too deeply");
                    continue;
                }
                let body = self.substitute(m, &args, depth);
                let hs = tok.hide.intersect(&rparen.hide).with(name);
                finish(body, &tok, &hs, nl)
            };
            cost += expansion.len();
            self.produced = self.produced.saturating_add(cost);
            if self.produced > MAX_TOKENS {
                self.fail(&tok, "macro expansion is too large or too deeply nested");
                continue;
            }
            stack.extend(expansion.into_iter().rev());
        }
        out
    }

    fn fail(&mut self, at: &Tok, message: &str) {
        self.fatal = true;
        self.diags.push(
            Diagnostic::error(Code::SD0004, message)
                .at(at.span())
                .with_help(
                    "macros that use each other twice per level (`#define B A A`) double at every \
                 level, and chains of thousands of macros nest as deep: simplify them",
                ),
        );
    }

    /// Matches arguments to parameters, or reports the mismatch.
    fn check_count(
        &mut self,
        tok: &Tok,
        m: &Macro,
        mut args: Vec<Vec<Tok>>,
    ) -> Option<Vec<Vec<Tok>>> {
        let n = m.params.as_ref().map_or(0, Vec::len);
        if n == 0 && args.len() == 1 && trim(&args[0]).is_empty() {
            args.clear();
        }
        if m.variadic && args.len() + 1 == n {
            args.push(Vec::new());
        }
        if args.len() == n {
            return Some(args);
        }
        let expected = if m.variadic {
            format!("at least {}", n.saturating_sub(1))
        } else {
            n.to_string()
        };
        self.diags.push(
            Diagnostic::error(
                Code::SD0004,
                format!(
                    "macro `{}` takes {} argument{}, but {} {} given",
                    tok.text,
                    expected,
                    if n == 1 { "" } else { "s" },
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                ),
            )
            .at(tok.span())
            .with_help("pass one argument per macro parameter; wrap arguments containing commas in parentheses"),
        );
        None
    }

    /// Builds the replacement list with the arguments substituted (C11 6.10.3.1–3).
    fn substitute(&mut self, m: &Macro, args: &[Vec<Tok>], depth: u32) -> Vec<Tok> {
        let body = &m.body;
        let last_param = args.len().checked_sub(1);
        let mut expanded: Vec<Option<Vec<Tok>>> = vec![None; args.len()];
        let mut out: Vec<Tok> = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let t = &body[i];
            if t.is_punct("#") && m.params.is_some() {
                if let Some(p) = m.param_index(body.get(i + 1)) {
                    out.push(stringize(&args[p], t));
                    i += 2;
                    continue;
                }
            }
            if t.is_punct("##") {
                let Some(rhs) = body.get(i + 1) else {
                    i += 1;
                    continue;
                };
                if let Some(p) = m.param_index(Some(rhs)) {
                    let arg = trim(&args[p]);
                    if let Some((first, rest)) = arg.split_first() {
                        self.paste_onto(&mut out, first);
                        out.extend(rest.iter().cloned());
                    } else if m.variadic
                        && Some(p) == last_param
                        && out.last().is_some_and(|t| t.is_punct(","))
                    {
                        // GNU `, ## __VA_ARGS__`: drop the comma when there are no variadic args.
                        out.pop();
                    }
                } else {
                    self.paste_onto(&mut out, rhs);
                }
                i += 2;
                continue;
            }
            if let Some(p) = m.param_index(Some(t)) {
                if body.get(i + 1).is_some_and(|n| n.is_punct("##")) {
                    let arg = trim(&args[p]);
                    if arg.is_empty() {
                        // Empty left operand: the right operand is taken as is.
                        if let Some(rhs) = body.get(i + 2) {
                            match m.param_index(Some(rhs)) {
                                Some(q) => out.extend(trim(&args[q]).iter().cloned()),
                                None => out.push(rhs.clone()),
                            }
                        }
                        i += 3;
                    } else {
                        out.extend(arg.iter().cloned());
                        i += 1;
                    }
                    continue;
                }
                if expanded[p].is_none() {
                    expanded[p] = Some(self.expand_at(args[p].clone(), depth + 1));
                }
                if let Some(e) = &expanded[p] {
                    out.extend(trim(e).iter().cloned());
                }
                i += 1;
                continue;
            }
            out.push(t.clone());
            i += 1;
        }
        out
    }

    /// Pastes `rhs` onto the last token of `out` (`##`).
    fn paste_onto(&mut self, out: &mut Vec<Tok>, rhs: &Tok) {
        let Some(lhs) = out.pop() else {
            out.push(rhs.clone());
            return;
        };
        let text = format!("{}{}", lhs.text, rhs.text);
        match lex_str(&text) {
            Some(pieces) if !pieces.is_empty() => {
                // fxc and DXC accept pastes that do not form one token; keep the pieces.
                for (kind, piece) in pieces {
                    let mut t = lhs.clone();
                    t.kind = kind;
                    t.text = Rc::from(piece.as_str());
                    out.push(t);
                }
            }
            _ => {
                out.push(lhs);
                out.push(rhs.clone());
            }
        }
    }
}

/// Reads `a, b, (c, d)` up to the matching `)` (the `(` is already consumed). Returns the
/// arguments, the `)` and the line breaks consumed, or `None` when the input ends first.
fn read_args(stack: &mut Vec<Tok>, m: &Macro) -> Option<(Vec<Vec<Tok>>, Tok, u32)> {
    let n = m.params.as_ref().map_or(0, Vec::len);
    let mut args: Vec<Vec<Tok>> = vec![Vec::new()];
    let mut depth = 0u32;
    let mut nl = 0;
    loop {
        let t = stack.pop()?;
        nl += t.newlines();
        if t.is_punct("(") {
            depth += 1;
        } else if t.is_punct(")") {
            if depth == 0 {
                return Some((args, t, nl));
            }
            depth -= 1;
        } else if t.is_punct(",") && depth == 0 && !(m.variadic && args.len() >= n) {
            args.push(Vec::new());
            continue;
        }
        if let Some(a) = args.last_mut() {
            a.push(t);
        }
    }
}

/// `#param`: the argument's spelling as a string literal (C11 6.10.3.2).
fn stringize(arg: &[Tok], at: &Tok) -> Tok {
    let mut s = String::from("\"");
    let mut space = false;
    for t in trim(arg) {
        if t.kind.is_space() {
            space = true;
            continue;
        }
        if space {
            s.push(' ');
            space = false;
        }
        if matches!(t.kind, Kind::Str | Kind::Char) {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    let mut t = Tok::new(Kind::Str, &s, at.loc);
    t.hide = at.hide.clone();
    t
}

/// Locates an expansion at the invocation `site`, adds the hide set, collapses whitespace,
/// and appends the swallowed line breaks.
fn finish(body: Vec<Tok>, site: &Tok, hs: &HideSet, nl: u32) -> Vec<Tok> {
    let mut loc = site.loc;
    loc.verbatim = false;
    let mut out = Vec::with_capacity(body.len() + 1);
    for mut t in body {
        if t.kind == Kind::Lost {
            continue;
        }
        if t.kind.is_space() {
            if out.last().is_some_and(|p: &Tok| p.kind == Kind::Space) {
                continue;
            }
            t.kind = Kind::Space;
            t.text = Rc::from(" ");
        }
        t.nl = 0;
        t.loc = loc;
        t.hide = t.hide.union(hs);
        out.push(t);
    }
    if nl > 0 {
        let mut lost = Tok::new(Kind::Lost, "", loc);
        lost.nl = nl;
        out.push(lost);
    }
    out
}
