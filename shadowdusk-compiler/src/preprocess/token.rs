//! The token the macro expander works on: text, origin and hide set.
//!
//! A [`Tok`] remembers where its bytes will map in the source map ([`Loc`]): text copied from a
//! file maps byte for byte, text produced by a macro expansion maps to the invocation's name.
//! The hide set lists the macros whose expansion produced the token, which is what stops a
//! macro from expanding inside its own expansion (C11 6.10.3.4, Prosser's algorithm).

use std::rc::Rc;

use super::lexer::{Kind, RawTok};
use crate::source::{FileId, Span};

/// Where a token's bytes map to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Loc {
    pub file: FileId,
    pub off: u32,
    /// True when the text is the file's own bytes at `off..off + len` (so each byte maps to its
    /// own offset); false for synthesized text, which all maps to `off`.
    pub verbatim: bool,
}

impl Loc {
    /// The same location with another `verbatim` flag.
    pub(crate) fn with_verbatim(self, verbatim: bool) -> Loc {
        Loc { verbatim, ..self }
    }

    /// The span of a token of `len` bytes at this location (a point when synthesized).
    pub(crate) fn span(self, len: usize) -> Span {
        let end = if self.verbatim {
            self.off + len as u32
        } else {
            self.off
        };
        Span::new(self.file, self.off, end)
    }
}

/// Macros a token must not be expanded by, kept sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct HideSet(Option<Rc<Vec<Rc<str>>>>);

impl HideSet {
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.0
            .as_ref()
            .is_some_and(|v| v.binary_search_by(|n| (**n).cmp(name)).is_ok())
    }

    /// How many names it holds (the cost of copying it).
    pub(crate) fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |v| v.len())
    }

    /// This set plus `name`.
    pub(crate) fn with(&self, name: &Rc<str>) -> HideSet {
        let mut v: Vec<Rc<str>> = self.0.as_ref().map(|v| v.to_vec()).unwrap_or_default();
        if let Err(i) = v.binary_search(name) {
            v.insert(i, name.clone());
        }
        HideSet(Some(Rc::new(v)))
    }

    /// Names in both sets.
    pub(crate) fn intersect(&self, other: &HideSet) -> HideSet {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => {
                let v: Vec<Rc<str>> = a.iter().filter(|n| b.contains(n)).cloned().collect();
                if v.is_empty() {
                    HideSet(None)
                } else {
                    HideSet(Some(Rc::new(v)))
                }
            }
            _ => HideSet(None),
        }
    }

    /// Both sets together.
    pub(crate) fn union(&self, other: &HideSet) -> HideSet {
        match (&self.0, &other.0) {
            (None, _) => other.clone(),
            (_, None) => self.clone(),
            (Some(a), Some(b)) if Rc::ptr_eq(a, b) => self.clone(),
            (Some(a), Some(b)) => {
                let mut v: Vec<Rc<str>> = a.iter().chain(b.iter()).cloned().collect();
                v.sort();
                v.dedup();
                HideSet(Some(Rc::new(v)))
            }
        }
    }
}

/// A preprocessing token on its way through expansion.
#[derive(Clone, Debug)]
pub(crate) struct Tok {
    pub kind: Kind,
    pub text: Rc<str>,
    pub loc: Loc,
    /// Source newlines this token swallowed (continuations, block comments; for [`Kind::Lost`]
    /// the newlines of a whole macro invocation).
    pub nl: u32,
    pub hide: HideSet,
}

impl Tok {
    /// A token read from `file`.
    pub(crate) fn from_raw(raw: &RawTok, src: &str, file: FileId) -> Tok {
        Tok {
            kind: raw.kind,
            text: Rc::from(raw.text(src)),
            loc: Loc {
                file,
                off: raw.start,
                verbatim: raw.text.is_none(),
            },
            nl: raw.nl,
            hide: HideSet::default(),
        }
    }

    /// A synthesized token.
    pub(crate) fn new(kind: Kind, text: &str, loc: Loc) -> Tok {
        Tok {
            kind,
            text: Rc::from(text),
            loc,
            nl: 0,
            hide: HideSet::default(),
        }
    }

    pub(crate) fn is_punct(&self, p: &str) -> bool {
        self.kind == Kind::Punct && &*self.text == p
    }

    /// Source line breaks this token stands for.
    pub(crate) fn newlines(&self) -> u32 {
        self.nl + u32::from(self.kind == Kind::Newline)
    }

    /// The span of this token in its file.
    pub(crate) fn span(&self) -> Span {
        self.loc.span(self.text.len())
    }
}

/// Drops leading and trailing whitespace.
pub(crate) fn trim(toks: &[Tok]) -> &[Tok] {
    let start = toks
        .iter()
        .position(|t| !t.kind.is_space())
        .unwrap_or(toks.len());
    let end = toks
        .iter()
        .rposition(|t| !t.kind.is_space())
        .map_or(start, |i| i + 1);
    &toks[start..end.max(start)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hide_sets_union_and_intersect() {
        let a: Rc<str> = Rc::from("A");
        let b: Rc<str> = Rc::from("B");
        let ab = HideSet::default().with(&a).with(&b);
        let b_only = HideSet::default().with(&b);
        assert!(ab.contains("A") && ab.contains("B"));
        assert!(!b_only.contains("A"));
        let i = ab.intersect(&b_only);
        assert!(i.contains("B") && !i.contains("A"));
        assert!(b_only.union(&HideSet::default().with(&a)).contains("A"));
    }
}
