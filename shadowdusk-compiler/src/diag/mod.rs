//! Diagnostics: one message, a code, the span in the user's file, a snippet and a hint.
//!
//! Stages build [`Diagnostic`]s with spans that already point into original files (see
//! [`crate::source`]); rendering happens once, at the edge (CLI, build script, proc macro).

mod codes;
mod render;

pub use codes::Code;

/// Every code explained, with an example and a fix (`docs/error-codes.md` in this crate): what
/// `shadowdusk --explain CODE` prints a section of.
pub const ERROR_INDEX: &str = include_str!("../../docs/error-codes.md");
pub use render::{render_located, render_mgfxc, render_plain};

use crate::source::Span;

/// How bad it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Severity {
    /// Compilation fails.
    Error,
    /// Reported, compilation goes on.
    Warning,
}

/// A span plus a short text shown under it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What about it (may be empty).
    pub text: String,
}

/// One problem found in an effect.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    /// Stable code.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// One sentence saying what is wrong.
    pub message: String,
    /// The main location, when there is one (a missing tool has none).
    pub primary: Option<Label>,
    /// Other related locations.
    pub secondary: Vec<Label>,
    /// Why, or raw tool output.
    pub notes: Vec<String>,
    /// What to do about it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A new error with a message and no location.
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// A new warning with a message and no location.
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    /// Sets the primary location.
    pub fn at(mut self, span: Span) -> Self {
        self.primary = Some(Label {
            span,
            text: String::new(),
        });
        self
    }

    /// Sets the primary location when there is one.
    pub fn at_opt(self, span: Option<Span>) -> Self {
        match span {
            Some(s) => self.at(s),
            None => self,
        }
    }

    /// Sets the primary location with a label text.
    pub fn at_labeled(mut self, span: Span, text: impl Into<String>) -> Self {
        self.primary = Some(Label {
            span,
            text: text.into(),
        });
        self
    }

    /// Adds a secondary location.
    pub fn with_label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.secondary.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Sets the help text.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `text` with control characters (other than tab and newline) written as `\u{..}` escapes, so
/// a message never sends raw control bytes (a NUL, an escape sequence) to a terminal.
pub fn escape(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// At most this many diagnostics are listed, as clang's `-ferror-limit` does; later ones are
/// counted in a last entry, so hostile input cannot make output (or the time to build it) grow
/// without bound.
pub const LIMIT: usize = 50;

/// A list of diagnostics; a stage that fails returns at least one error in it. Holds at most
/// [`LIMIT`] entries and then one that says how many more were dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostics(pub Vec<Diagnostic>, #[serde(skip)] usize);

impl Diagnostics {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// A list of `list` (pushed one by one, so the limit holds).
    pub fn from_vec(list: Vec<Diagnostic>) -> Self {
        let mut d = Self::new();
        for x in list {
            d.push(x);
        }
        d
    }

    /// Appends one, unless the same problem (code, message, place) is already listed: two
    /// shaders of one effect that share a bad declaration report it once. Past [`LIMIT`] it is
    /// only counted.
    pub fn push(&mut self, d: Diagnostic) {
        if self.1 > 0 || self.0.len() >= LIMIT {
            self.1 += 1;
            let summary = Diagnostic {
                severity: Severity::Error,
                code: self.0.get(LIMIT).map_or(d.code, |s| s.code),
                message: format!(
                    "{} more diagnostic{} not shown (only the first {LIMIT} are listed)",
                    self.1,
                    if self.1 == 1 { "" } else { "s" }
                ),
                primary: None,
                secondary: Vec::new(),
                notes: Vec::new(),
                help: Some("fix the problems above and build again".into()),
            };
            self.0.truncate(LIMIT);
            self.0.push(summary);
            return;
        }
        let same =
            |e: &Diagnostic| e.code == d.code && e.message == d.message && e.primary == d.primary;
        if !self.0.iter().any(same) {
            self.0.push(d);
        }
    }

    /// True when any entry is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Iterates over the entries.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }

    /// Appends all of `other`.
    pub fn extend(&mut self, other: Diagnostics) {
        for d in other.0 {
            self.push(d);
        }
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d], 0)
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}
