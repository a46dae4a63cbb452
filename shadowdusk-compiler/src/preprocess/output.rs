//! The expanded text and its source map, built token by token.
//!
//! Input: tokens in output order. Output: the text plus a [`SourceMap`] whose entries are
//! pushed in increasing output order (runs of verbatim bytes from one file coalesce into one
//! entry, as do the bytes of one macro expansion).
//! Line breaks that were swallowed (continuations, multi-line macro invocations, multi-line
//! directives) are owed and paid at the next line break, so the next line of source starts on
//! the output line it would have without them. A space is inserted between two tokens that
//! were not adjacent in the source when their texts would otherwise run together into one
//! token (`-` then `-` from a macro must not become `--`).
//!
//! Implements fx-pipeline.md §2 (line structure of the expanded text).

use std::rc::Rc;

use super::lexer::{lex_str, Kind};
use super::token::{Loc, Tok};
use crate::source::{FileId, SourceMap};

#[derive(Clone, Copy)]
struct Run {
    out_start: u32,
    out_end: u32,
    file: FileId,
    in_start: u32,
    verbatim: bool,
}

/// The previous non-empty token written, for the paste check.
struct Prev {
    kind: Kind,
    text: Rc<str>,
    loc: Loc,
}

/// Accumulates the expanded text.
#[derive(Default)]
pub(crate) struct Output {
    text: String,
    map: SourceMap,
    run: Option<Run>,
    owed_newlines: u32,
    prev: Option<Prev>,
}

impl Output {
    /// Length of the text so far.
    pub(crate) fn len(&self) -> usize {
        self.text.len()
    }

    /// Records line breaks to re-emit at the next newline.
    pub(crate) fn owe_newlines(&mut self, n: u32) {
        self.owed_newlines = self.owed_newlines.saturating_add(n);
    }

    /// Writes one token.
    pub(crate) fn token(&mut self, t: &Tok) {
        match t.kind {
            Kind::Lost => self.owe_newlines(t.nl),
            Kind::Newline => {
                let mut at = t.loc;
                at.verbatim = false;
                for _ in 0..self.owed_newlines {
                    self.emit(&t.text, at);
                }
                self.owed_newlines = 0;
                self.emit(&t.text, t.loc);
                self.prev = None;
            }
            Kind::Space => {
                if t.nl > 0 {
                    // A block comment or continuation inside a line: keep its line breaks in
                    // place so the rest of the line stays on its source line.
                    let mut at = t.loc;
                    at.verbatim = false;
                    for _ in 0..t.nl {
                        self.emit("\n", at);
                    }
                } else {
                    self.emit(&t.text, t.loc);
                }
                self.prev = None;
            }
            _ => {
                if let Some(p) = &self.prev {
                    if !adjacent(p, t) && would_paste(&p.text, &t.text) {
                        let mut at = t.loc;
                        at.verbatim = false;
                        self.emit(" ", at);
                    }
                }
                self.emit(&t.text, t.loc);
                self.owe_newlines(t.nl);
                self.prev = Some(Prev {
                    kind: t.kind,
                    text: t.text.clone(),
                    loc: t.loc,
                });
            }
        }
    }

    /// Writes text that maps to `loc`.
    pub(crate) fn emit(&mut self, s: &str, loc: Loc) {
        if s.is_empty() {
            return;
        }
        let out_start = self.text.len() as u32;
        self.text.push_str(s);
        let out_end = self.text.len() as u32;
        if let Some(r) = &mut self.run {
            let continues = r.file == loc.file
                && r.verbatim == loc.verbatim
                && r.out_end == out_start
                && if loc.verbatim {
                    r.in_start.checked_add(out_start - r.out_start) == Some(loc.off)
                } else {
                    r.in_start == loc.off
                };
            if continues {
                r.out_end = out_end;
                return;
            }
        }
        self.flush_run();
        self.run = Some(Run {
            out_start,
            out_end,
            file: loc.file,
            in_start: loc.off,
            verbatim: loc.verbatim,
        });
    }

    fn flush_run(&mut self) {
        if let Some(r) = self.run.take() {
            self.map
                .push(r.out_start, r.out_end, r.file, r.in_start, r.verbatim);
        }
    }

    /// Pays any owed line breaks (at the end of the input) and returns the text and map.
    pub(crate) fn finish(mut self, at: Option<Loc>) -> (String, SourceMap) {
        if let Some(at) = at {
            for _ in 0..self.owed_newlines {
                self.emit(
                    "\n",
                    Loc {
                        verbatim: false,
                        ..at
                    },
                );
            }
        }
        self.flush_run();
        (self.text, self.map)
    }
}

/// True when `t` directly followed `p` in the same file.
fn adjacent(p: &Prev, t: &Tok) -> bool {
    p.loc.verbatim
        && t.loc.verbatim
        && p.loc.file == t.loc.file
        && p.loc.off.checked_add(p.text.len() as u32) == Some(t.loc.off)
        && p.kind != Kind::Lost
}

/// True when writing `b` right after `a` would lex differently from `a` then `b`.
fn would_paste(a: &str, b: &str) -> bool {
    let joined = format!("{a}{b}");
    match lex_str(&joined) {
        Some(pieces) => pieces.first().is_none_or(|(_, s)| s.len() != a.len()),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paste_check() {
        assert!(would_paste("-", "-"));
        assert!(would_paste("a", "b"));
        assert!(would_paste("1", ".5"));
        assert!(!would_paste("a", "("));
        assert!(!would_paste(")", "x"));
    }
}
