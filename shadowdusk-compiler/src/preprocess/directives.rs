//! Directive lines: conditionals, `#define`/`#undef`, `#include`, `#error`, `#pragma`, `#line`.
//!
//! Input: the tokens of one directive line after its `#`. Output: changes to the macro table
//! and the conditional stack, or an included file's text written in place.
//! In an inactive group only the conditional directives are looked at.
//! `#pragma once` is honoured, `#pragma pack_matrix(...)` is kept (it changes code generation),
//! every other `#pragma` is dropped (DXC would warn on unknown ones, and warnings are errors);
//! `#line`, `# N "file"` and `#warning` are accepted and dropped.
//! Refused: unknown directives, malformed ones, `#else`/`#elif`/`#endif` without `#if`, bad `#if`
//! expressions (SD0004); `#error` (SD0003); a missing include (SD0001); an include cycle (SD0002);
//! an unreadable include (SD0005).
//!
//! Implements fx-pipeline.md §2.2.

use std::rc::Rc;

use super::driver::{Cond, Fatal, Pp, MAX_INCLUDE_DEPTH};
use super::expr::eval;
use super::include::{identity, resolve, Resolved, Unresolved};
use super::lexer::Kind;
use super::macros::parse_define;
use super::token::{trim, Tok};
use crate::diag::{Code, Diagnostic};
use crate::source::{FileId, Span};

/// The span from `a` to the end of `b`.
fn join(a: Span, b: Span) -> Span {
    if a.file == b.file {
        Span::new(a.file, a.start, b.end.max(a.end))
    } else {
        a
    }
}

/// The spelling of a run of tokens.
fn spell(toks: &[Tok]) -> String {
    toks.iter()
        .map(|t| if t.kind.is_space() { " " } else { &*t.text })
        .collect()
}

impl Pp<'_> {
    /// Handles one directive; `hash` is its `#` token, `rest` the tokens after it.
    pub(crate) fn directive(
        &mut self,
        file: FileId,
        hash: &Tok,
        rest: &[Tok],
        conds: &mut Vec<Cond>,
    ) -> Result<(), Fatal> {
        let rest = trim(rest);
        let span = rest
            .last()
            .map_or(hash.span(), |t| join(hash.span(), t.span()));
        let active = conds.last().is_none_or(|c| c.active);
        let Some(name_tok) = rest.first() else {
            return Ok(()); // the null directive
        };
        let args = trim(&rest[1..]);
        let name: &str = if name_tok.kind == Kind::Ident {
            &name_tok.text
        } else if name_tok.kind == Kind::Number {
            "line"
        } else {
            ""
        };
        match name {
            "if" | "ifdef" | "ifndef" => self.open_if(name, args, span, active, conds),
            "elif" | "else" => self.next_branch(name, args, span, conds),
            "endif" => {
                if conds.pop().is_none() {
                    return self.error(
                        Diagnostic::error(Code::SD0004, "`#endif` without `#if`")
                            .at(span)
                            .with_help("remove it, or add the matching `#if` before it"),
                    );
                }
                Ok(())
            }
            _ if !active => Ok(()),
            "define" => self.define(args, span),
            "undef" => {
                if let Some(m) = self.macro_name(args, name, span)? {
                    self.macros.remove(&*m);
                }
                Ok(())
            }
            "include" => self.include(file, args, span),
            "error" => {
                let text = spell(args);
                let message = if text.is_empty() { "#error".to_string() } else { text };
                self.fatal(
                    Diagnostic::error(Code::SD0003, message)
                        .at(span)
                        .with_help("the effect stops here on purpose: check the `#if` conditions around this line and the defines passed to the compiler"),
                )
            }
            "pragma" => {
                self.pragma(file, hash, args);
                Ok(())
            }
            "line" if active => self.check_line(name_tok, args, span),
            "line" | "warning" => Ok(()),
            _ => self.error(
                Diagnostic::error(
                    Code::SD0004,
                    format!("unknown preprocessor directive `#{}`", name_tok.text),
                )
                .at(join(hash.span(), name_tok.span()))
                .with_help("supported: #if #ifdef #ifndef #elif #else #endif #define #undef #include #error #pragma #line"),
            ),
        }
    }

    /// `#if`/`#ifdef`/`#ifndef` opens a group; inside an inactive group its condition is not
    /// evaluated, so it cannot report errors from code that is skipped.
    fn open_if(
        &mut self,
        name: &str,
        args: &[Tok],
        span: Span,
        active: bool,
        conds: &mut Vec<Cond>,
    ) -> Result<(), Fatal> {
        let value = if !active {
            false
        } else if name == "if" {
            self.eval_if(args, span)?
        } else {
            let Some(m) = self.macro_name(args, name, span)? else {
                self.push_if(conds, span, false, active);
                return Ok(());
            };
            self.macros.contains_key(&*m) == (name == "ifdef")
        };
        self.push_if(conds, span, value, active);
        Ok(())
    }

    /// `#elif`/`#else` moves the innermost group to its next branch: at most one branch of a
    /// group is taken, and none inside an inactive parent.
    fn next_branch(
        &mut self,
        name: &str,
        args: &[Tok],
        span: Span,
        conds: &mut [Cond],
    ) -> Result<(), Fatal> {
        let Some(c) = conds.last_mut() else {
            return self.error(
                Diagnostic::error(Code::SD0004, format!("`#{name}` without `#if`"))
                    .at(span)
                    .with_help("add the matching `#if` before it, or remove it"),
            );
        };
        if c.seen_else {
            let first = c.span;
            return self.error(
                Diagnostic::error(Code::SD0004, format!("`#{name}` after `#else`"))
                    .at(span)
                    .with_label(first, "in the group opened here")
                    .with_help("`#else` must be the last branch of its `#if` group"),
            );
        }
        if name == "else" {
            c.seen_else = true;
            c.active = c.parent_active && !c.taken;
            c.taken = true;
            return Ok(());
        }
        if !c.parent_active || c.taken {
            c.active = false;
            return Ok(());
        }
        let value = self.eval_if(args, span)?;
        if let Some(c) = conds.last_mut() {
            c.active = value;
            c.taken = value;
        }
        Ok(())
    }

    /// `#define` records the macro; a malformed definition is reported and ignored.
    fn define(&mut self, args: &[Tok], span: Span) -> Result<(), Fatal> {
        match parse_define(args, span) {
            Ok((name, m)) => {
                self.macros.insert(name, m);
                Ok(())
            }
            Err(e) => self.error(
                Diagnostic::error(Code::SD0004, e.message)
                    .at(e.span)
                    .with_help(e.help),
            ),
        }
    }

    /// `#pragma once` marks the file; `#pragma pack_matrix` keeps its meaning for DXC, so it
    /// is written out (as one line, in place); any other pragma is dropped.
    fn pragma(&mut self, file: FileId, hash: &Tok, args: &[Tok]) {
        match args.first().map(|t| &*t.text) {
            Some("once") => {
                let key = identity(&self.files.get(file).path);
                self.once.insert(key);
            }
            Some("pack_matrix") => {
                self.out.emit("#pragma ", hash.loc.with_verbatim(false));
                for t in args {
                    let mut t = t.clone();
                    if t.kind.is_space() {
                        t.kind = Kind::Space;
                        t.text = Rc::from(" ");
                        t.nl = 0;
                    }
                    self.out.token(&t);
                }
            }
            _ => {}
        }
    }

    /// `#line 12` / `#line 12 "file"` (and the GNU `# 12 "file"`): checked as fxc checks it,
    /// then dropped; the positions ShadowDusk reports stay those of the real files.
    fn check_line(&mut self, name_tok: &Tok, args: &[Tok], span: Span) -> Result<(), Fatal> {
        let (number, more) = if name_tok.kind == Kind::Number {
            (Some(name_tok), args)
        } else {
            let words: Vec<&Tok> = args.iter().filter(|t| !t.kind.is_space()).collect();
            (words.first().copied(), args)
        };
        let words: Vec<&Tok> = more.iter().filter(|t| !t.kind.is_space()).collect();
        let rest_words = if name_tok.kind == Kind::Number {
            &words[..]
        } else {
            words.get(1..).unwrap_or(&[])
        };
        let digits = number
            .is_some_and(|t| t.kind == Kind::Number && t.text.bytes().all(|b| b.is_ascii_digit()));
        let file_ok = match rest_words {
            [] => true,
            [f] => f.kind == Kind::Str,
            _ => false,
        };
        if digits && file_ok {
            return Ok(());
        }
        // At the word that is not a line number (or not a file name), when there is one.
        let bad = if digits {
            rest_words.first().copied()
        } else {
            number
        };
        let span = bad.map_or(span, |t| t.span());
        self.error(
            Diagnostic::error(
                Code::SD0004,
                "malformed `#line`: expected a decimal line number and an optional \"file name\"",
            )
            .at(span)
            .with_help("write `#line 42` or `#line 42 \"effect.fx\"`, or remove the directive"),
        )
    }

    fn push_if(&mut self, conds: &mut Vec<Cond>, span: Span, value: bool, active: bool) {
        conds.push(Cond {
            span,
            parent_active: active,
            taken: value || !active,
            active: value && active,
            seen_else: false,
        });
    }

    /// The identifier a `#ifdef`/`#ifndef`/`#undef` names (extra tokens are tolerated).
    fn macro_name(
        &mut self,
        args: &[Tok],
        directive: &str,
        span: Span,
    ) -> Result<Option<Rc<str>>, Fatal> {
        match args.first() {
            Some(t) if t.kind == Kind::Ident => Ok(Some(t.text.clone())),
            other => {
                self.error(
                    Diagnostic::error(Code::SD0004, format!("`#{directive}` needs a macro name"))
                        .at(other.map_or(span, Tok::span))
                        .with_help(format!("write `#{directive} NAME`")),
                )?;
                Ok(None)
            }
        }
    }

    /// Evaluates an `#if`/`#elif` condition; a bad expression is reported and counts as false.
    fn eval_if(&mut self, args: &[Tok], span: Span) -> Result<bool, Fatal> {
        // `defined X` / `defined(X)` are resolved before expansion (C11 6.10.1p4).
        let mut pre: Vec<Tok> = Vec::with_capacity(args.len());
        let mut i = 0;
        while i < args.len() {
            let t = &args[i];
            if t.kind == Kind::Ident && &*t.text == "defined" {
                let mut j = i + 1;
                let skip = |j: &mut usize| {
                    while args.get(*j).is_some_and(|t| t.kind.is_space()) {
                        *j += 1;
                    }
                };
                skip(&mut j);
                let paren = args.get(j).is_some_and(|t| t.is_punct("("));
                if paren {
                    j += 1;
                    skip(&mut j);
                }
                let name = args
                    .get(j)
                    .filter(|t| t.kind == Kind::Ident)
                    .map(|t| t.text.clone());
                let mut ok = name.is_some();
                j += 1;
                if ok && paren {
                    skip(&mut j);
                    ok = args.get(j).is_some_and(|t| t.is_punct(")"));
                    j += 1;
                }
                let named = name.is_some();
                let Some(name) = name.filter(|_| ok) else {
                    // `defined(FOO` lacks its `)`: say so at the `(`.
                    let (message, at) = if named && paren {
                        let open = args[i + 1..].iter().find(|t| t.is_punct("("));
                        (
                            "`defined(` is missing its closing `)`",
                            open.map_or(t.span(), Tok::span),
                        )
                    } else {
                        ("`defined` must be followed by a macro name", t.span())
                    };
                    self.error(
                        Diagnostic::error(Code::SD0004, message)
                            .at(at)
                            .with_help("write `defined(NAME)` or `defined NAME`"),
                    )?;
                    return Ok(false);
                };
                let v = if self.macros.contains_key(&*name) {
                    "1"
                } else {
                    "0"
                };
                pre.push(Tok::new(Kind::Number, v, t.loc));
                i = j;
                continue;
            }
            pre.push(t.clone());
            i += 1;
        }
        let expanded = self.expand(pre)?;
        let macros = &self.macros;
        match eval(&expanded, &|n| macros.contains_key(n)) {
            Ok(v) => {
                for &k in &v.undefined_calls {
                    let name = &expanded[k];
                    self.diags.push(
                        Diagnostic::warning(
                            Code::SD0007,
                            format!("`{}` is not a function-like macro; the call counts as 0", name.text),
                        )
                        .at(name.span())
                        .with_help("mgfxc takes this branch as false too; define the macro, or test `defined(NAME)`"),
                    );
                }
                Ok(v.value != 0)
            }
            Err(e) => {
                let at = e.at.and_then(|k| expanded.get(k)).map_or(span, Tok::span);
                self.error(
                    Diagnostic::error(Code::SD0004, format!("invalid `#if` expression: {}", e.message))
                        .at(at)
                        .with_help("`#if` takes an integer constant expression; macros are expanded and unknown names count as 0"),
                )?;
                Ok(false)
            }
        }
    }

    /// `#include "f"` / `#include <f>` / `#include MACRO`.
    fn include(&mut self, file: FileId, args: &[Tok], span: Span) -> Result<(), Fatal> {
        let parsed = match parse_include_name(args) {
            Some(p) => Some(p),
            None if !args.is_empty() => {
                let expanded = self.expand(args.to_vec())?;
                parse_include_name(trim(&expanded))
            }
            None => None,
        };
        let Some((name, angled, name_span)) = parsed else {
            // At what was written instead of the file name, when anything was.
            let at = args.first().map_or(span, Tok::span);
            return self.error(
                Diagnostic::error(Code::SD0004, "`#include` expects \"FILE\" or <FILE>")
                    .at(at)
                    .with_help("write `#include \"file.fxh\"`"),
            );
        };
        let includer = self.files.get(file).path.clone();
        let path = match resolve(&name, angled, &includer, &self.opts.include_dirs) {
            Ok(Resolved::Exact(p)) => p,
            Ok(Resolved::CaseInsensitive(p)) => {
                self.diags.push(
                    Diagnostic::warning(
                        Code::SD0008,
                        format!(
                            "`{name}` names `{}` with a different letter case",
                            p.display()
                        ),
                    )
                    .at_labeled(name_span, "included here")
                    .with_help("Windows (and so mgfxc) finds it; write the name as it is on disk so case-sensitive systems do too"),
                );
                p
            }
            Err(Unresolved::Ambiguous(candidates)) => {
                let list: Vec<String> = candidates
                    .iter()
                    .map(|p| format!("  {}", p.display()))
                    .collect();
                return self.fatal(
                    Diagnostic::error(
                        Code::SD0009,
                        format!("include file `{name}` matches several files when letter case is ignored"),
                    )
                    .at_labeled(name_span, "included here")
                    .with_note(format!("candidates:\n{}", list.join("\n")))
                    .with_help("write the name exactly as the file you mean is spelled on disk"),
                );
            }
            Err(Unresolved::Missing(tried)) => {
                let list: Vec<String> =
                    tried.iter().map(|p| format!("  {}", p.display())).collect();
                return self.fatal(
                    Diagnostic::error(Code::SD0001, format!("include file `{name}` not found"))
                        .at_labeled(name_span, "included here")
                        .with_note(format!("searched:\n{}", list.join("\n")))
                        .with_help("check the file name, or add the directory that holds it to the include directories"),
                );
            }
        };
        let key = identity(&path);
        if self.once.contains(&key) {
            return Ok(());
        }
        if let Some(first) = self.chain.iter().position(|k| *k == key) {
            let chain: Vec<String> = self.chain.iter().map(|p| p.display().to_string()).collect();
            // The cycle itself, from the file that comes round again: `a.fxh -> b.fxh -> a.fxh`.
            let name = |p: &std::path::Path| {
                p.file_name().map_or_else(
                    || p.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                )
            };
            let mut cycle: Vec<String> = self.chain[first..].iter().map(|p| name(p)).collect();
            cycle.push(name(&path));
            let message = if cycle.len() == 2 {
                format!("`{}` includes itself", path.display())
            } else {
                format!("include cycle: {}", cycle.join(" -> "))
            };
            return self.fatal(
                Diagnostic::error(Code::SD0002, message)
                    .at_labeled(name_span, "this include closes the cycle")
                    .with_note(format!("include chain: {} -> {}", chain.join(" -> "), path.display()))
                    .with_help("break the cycle, or guard the file with `#pragma once` or an `#ifndef` include guard"),
            );
        }
        if self.chain.len() >= MAX_INCLUDE_DEPTH {
            return self.fatal(
                Diagnostic::error(Code::SD0002, "`#include` nesting is too deep")
                    .at(name_span)
                    .with_help("include files are nested more than 64 levels; look for a cycle through differently named paths"),
            );
        }
        let id = match self.loaded.get(&key) {
            Some(&id) => id,
            None => match std::fs::read(&path) {
                Ok(bytes) => {
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    let id = self.files.add(path.clone(), text);
                    self.loaded.insert(key.clone(), id);
                    self.add_dep(path.clone(), key.clone());
                    id
                }
                Err(e) => {
                    return self.fatal(
                        Diagnostic::error(
                            Code::SD0005,
                            format!("cannot read `{}`: {e}", path.display()),
                        )
                        .at(name_span)
                        .with_help("check the file's permissions"),
                    );
                }
            },
        };
        self.chain.push(key);
        let r = self.process_file(id);
        self.chain.pop();
        r
    }
}

/// `"name"` or `<name>` at the start of `toks`: the name, whether angled, and its span.
fn parse_include_name(toks: &[Tok]) -> Option<(String, bool, Span)> {
    let first = toks.first()?;
    if first.kind == Kind::Str {
        let name = first.text.strip_prefix('"')?.strip_suffix('"')?;
        return Some((name.to_string(), false, first.span()));
    }
    if first.is_punct("<") {
        let close = toks.iter().position(|t| t.is_punct(">"))?;
        let name: String = toks[1..close].iter().map(|t| &*t.text).collect();
        return Some((
            name.trim().to_string(),
            true,
            join(first.span(), toks[close].span()),
        ));
    }
    None
}
