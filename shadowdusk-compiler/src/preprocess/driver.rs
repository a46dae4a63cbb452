//! The preprocessor's state and its walk over one file's lines.
//!
//! Input: a file already in [`SourceFiles`]. Output: text appended to the shared [`Output`].
//! Each line is a directive (handled in `directives.rs`; its line breaks are kept), an
//! inactive line (only its line breaks are kept), or text, which is gathered until the next
//! directive that may change the macro table and then macro-expanded as one run, so
//! invocations may span lines and contain conditional groups.
//! Refused: an unterminated block comment or string literal (SD0006), an `#if` left open at the
//! end of its file (SD0004).
//!
//! Implements fx-pipeline.md §2.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::expand::Expander;
use super::lexer::{lex, Kind};
use super::macros::Macros;
use super::output::Output;
use super::token::{Loc, Tok};
use super::Options;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::source::{FileId, SourceFiles, Span};

/// Errors collected before giving up.
const MAX_ERRORS: usize = 25;
/// Deepest `#include` nesting.
pub(crate) const MAX_INCLUDE_DEPTH: usize = 64;
/// Largest expanded text (an include diamond without `#pragma once` can multiply the input).
const MAX_OUTPUT: usize = 256 << 20;

/// Marker: a diagnostic was recorded that stops preprocessing.
#[derive(Debug)]
pub(crate) struct Fatal;

/// An open `#if` group.
#[derive(Debug)]
pub(crate) struct Cond {
    /// The `#if`/`#ifdef`/`#ifndef` directive.
    pub span: Span,
    /// Whether the enclosing group is active.
    pub parent_active: bool,
    /// Whether some branch of this group was taken already.
    pub taken: bool,
    /// Whether the current branch is active.
    pub active: bool,
    pub seen_else: bool,
}

/// Preprocessor state for one `preprocess` call.
pub(crate) struct Pp<'a> {
    pub opts: &'a Options,
    pub files: &'a mut SourceFiles,
    pub macros: Macros,
    pub out: Output,
    pub diags: Diagnostics,
    pub deps: Vec<PathBuf>,
    dep_keys: BTreeSet<PathBuf>,
    /// File identity → id, so a file included twice is read once.
    pub loaded: BTreeMap<PathBuf, FileId>,
    /// Identities of files that said `#pragma once`.
    pub once: BTreeSet<PathBuf>,
    /// The include chain (identities), main file first.
    pub chain: Vec<PathBuf>,
    /// Where the last token written came from (for owed line breaks at the end).
    pub last_loc: Option<Loc>,
}

impl<'a> Pp<'a> {
    pub(crate) fn new(opts: &'a Options, files: &'a mut SourceFiles) -> Self {
        Pp {
            opts,
            files,
            macros: Macros::new(),
            out: Output::default(),
            diags: Diagnostics::new(),
            deps: Vec::new(),
            dep_keys: BTreeSet::new(),
            loaded: BTreeMap::new(),
            once: BTreeSet::new(),
            chain: Vec::new(),
            last_loc: None,
        }
    }

    /// Records a file as read (deduplicated by identity, in read order).
    pub(crate) fn add_dep(&mut self, path: PathBuf, key: PathBuf) {
        if self.dep_keys.insert(key) {
            self.deps.push(path);
        }
    }

    /// Records an error; too many errors become fatal.
    pub(crate) fn error(&mut self, d: Diagnostic) -> Result<(), Fatal> {
        self.diags.push(d);
        if self.diags.0.len() >= MAX_ERRORS {
            let last = self.diags.0.len() - 1;
            self.diags.0[last].notes.push(format!(
                "preprocessing stopped after {MAX_ERRORS} errors; fix these and build again to \
                 see whether more follow"
            ));
            return Err(Fatal);
        }
        Ok(())
    }

    /// Records an error that stops preprocessing.
    pub(crate) fn fatal<T>(&mut self, d: Diagnostic) -> Result<T, Fatal> {
        self.diags.push(d);
        Err(Fatal)
    }

    /// Expands macros in `toks`, recording the expander's diagnostics.
    pub(crate) fn expand(&mut self, toks: Vec<Tok>) -> Result<Vec<Tok>, Fatal> {
        let mut ex = Expander::new(&self.macros);
        let out = ex.expand(toks);
        let fatal = ex.fatal;
        let diags = std::mem::take(&mut ex.diags);
        for d in diags {
            self.error(d)?;
        }
        if fatal {
            return Err(Fatal);
        }
        Ok(out)
    }

    /// Expands and writes a run of text lines.
    fn flush_text(&mut self, chunk: &mut Vec<Tok>) -> Result<(), Fatal> {
        if chunk.is_empty() {
            return Ok(());
        }
        let toks = self.expand(std::mem::take(chunk))?;
        for t in &toks {
            self.out.token(t);
        }
        if let Some(t) = toks.last() {
            self.last_loc = Some(t.loc);
        }
        self.check_size(toks.last())
    }

    pub(crate) fn check_size(&mut self, at: Option<&Tok>) -> Result<(), Fatal> {
        if self.out.len() > MAX_OUTPUT {
            let d = Diagnostic::error(Code::SD0004, "the preprocessed text exceeds 256 MiB")
                .at_opt(at.map(Tok::span))
                .with_help("a header is probably included many times; add `#pragma once` to it");
            return self.fatal(d);
        }
        Ok(())
    }

    /// Writes the line break of a directive or inactive line (and the ones it swallowed), or
    /// queues it behind the pending text run so the output stays in order.
    fn line_break(&mut self, chunk: &mut Vec<Tok>, swallowed: u32, newline: Option<&Tok>) {
        if chunk.is_empty() {
            self.out.owe_newlines(swallowed);
            if let Some(nl) = newline {
                self.out.token(nl);
                self.last_loc = Some(nl.loc);
            }
            return;
        }
        if let Some(last) = chunk.last() {
            if swallowed > 0 {
                let mut lost = Tok::new(Kind::Lost, "", last.loc.with_verbatim(false));
                lost.nl = swallowed;
                chunk.push(lost);
            }
        }
        if let Some(nl) = newline {
            chunk.push(nl.clone());
        }
    }

    /// True when the run ends in the name of a function-like macro (its `(` may come later).
    fn ends_in_function_macro(&self, chunk: &[Tok]) -> bool {
        chunk
            .iter()
            .rev()
            .find(|t| !t.kind.is_space())
            .is_some_and(|t| {
                t.kind == Kind::Ident
                    && self
                        .macros
                        .get(&*t.text)
                        .is_some_and(|m| m.params.is_some())
            })
    }

    /// Preprocesses one file (already added to `files`) into the output.
    pub(crate) fn process_file(&mut self, file: FileId) -> Result<(), Fatal> {
        let src = self.files.get(file).text.clone();
        let raw = match lex(&src) {
            Ok(r) => r,
            Err(off) => {
                let d = Diagnostic::error(Code::SD0006, "unterminated block comment")
                    .at_labeled(Span::new(file, off, off + 2), "this `/*` is never closed")
                    .with_help("close the comment with `*/`");
                return self.fatal(d);
            }
        };
        let toks: Vec<Tok> = raw.iter().map(|r| Tok::from_raw(r, &src, file)).collect();
        let mut conds: Vec<Cond> = Vec::new();
        let mut chunk: Vec<Tok> = Vec::new();
        // `(` minus `)` in `chunk`: positive when a macro invocation may still be open.
        let mut open_parens: i64 = 0;
        let mut i = 0;
        while i < toks.len() {
            // The line is toks[i..end], its line break (if any) at `end`.
            let mut end = i;
            while end < toks.len() && toks[end].kind != Kind::Newline {
                end += 1;
            }
            let newline = toks.get(end);
            let body = i..end;
            let next = (end + 1).min(toks.len());
            let first = body.clone().find(|&k| toks[k].kind != Kind::Space);
            let active = conds.last().is_none_or(|c| c.active);
            let swallowed: u32 = toks[body.clone()].iter().map(Tok::newlines).sum();
            if let Some(k) = first.filter(|&k| toks[k].is_punct("#")) {
                // Conditionals leave the macro table alone, so text around them can be
                // expanded as one run: that lets invocation arguments contain `#if` groups.
                let keep_open = is_conditional(&toks[k + 1..end])
                    && (open_parens > 0 || self.ends_in_function_macro(&chunk));
                if !keep_open {
                    self.flush_text(&mut chunk)?;
                    open_parens = 0;
                }
                self.directive(file, &toks[k], &toks[k + 1..end], &mut conds)?;
                self.line_break(&mut chunk, swallowed, newline);
            } else if active {
                for k in body.clone() {
                    if raw[k].unterminated && &*toks[k].text == "\"" {
                        let d = Diagnostic::error(Code::SD0006, "unterminated string literal")
                            .at_labeled(toks[k].span(), "this `\"` is never closed on its line")
                            .with_help("close the string with `\"` on the same line");
                        self.error(d)?;
                    }
                    if toks[k].is_punct("(") {
                        open_parens += 1;
                    } else if toks[k].is_punct(")") {
                        open_parens -= 1;
                    }
                }
                chunk.extend(toks[i..next].iter().cloned());
            } else {
                self.line_break(&mut chunk, swallowed, newline);
            }
            i = next;
        }
        self.flush_text(&mut chunk)?;
        for c in conds {
            self.error(
                Diagnostic::error(Code::SD0004, "unterminated conditional directive")
                    .at_labeled(c.span, "this group is never closed")
                    .with_help("add the matching `#endif` before the end of this file"),
            )?;
        }
        Ok(())
    }
}

/// True for `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else` and `#endif` (given the tokens after `#`).
fn is_conditional(rest: &[Tok]) -> bool {
    rest.iter().find(|t| !t.kind.is_space()).is_some_and(|t| {
        t.kind == Kind::Ident
            && matches!(
                &*t.text,
                "if" | "ifdef" | "ifndef" | "elif" | "else" | "endif"
            )
    })
}
