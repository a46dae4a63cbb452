//! Preprocessing tokens with byte offsets into the original file.
//!
//! Input: one file's text. Output: every token of the file, whitespace, comments and newlines
//! included, each with its raw byte range, so untouched text can be copied verbatim.
//! Line continuations (backslash-newline) are spliced out wherever they occur; a token that
//! contained one carries its spliced text and the number of newlines it swallowed (`nl`), so the
//! driver can keep the output's line count aligned with the source.
//! Comments become whitespace: a line comment adds nothing, a block comment counts its newlines.
//! Refused: an unterminated block comment (its start offset is returned).
//!
//! An unterminated `"` is not an error here (inactive `#if` regions may hold any text); it is
//! returned as an [`Kind::Other`] token flagged by [`RawTok::unterminated`], and the driver
//! reports it only in active text.
//!
//! Implements fx-pipeline.md §2 (C translation phases 1–3).

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Identifier or keyword.
    Ident,
    /// A pp-number (`1`, `0x1F`, `1.5e-3f`, `.5`).
    Number,
    /// A string literal, quotes included.
    Str,
    /// A character literal, quotes included.
    Char,
    /// An operator or punctuator (`##`, `<<=`, `(`, ...).
    Punct,
    /// Horizontal whitespace, comments and line continuations.
    Space,
    /// One line break (`\n` or `\r\n`).
    Newline,
    /// Any other character (`\`, `@`, non-ASCII, a stray quote).
    Other,
    /// Newlines swallowed by a macro invocation, re-emitted at the next line break (never made
    /// by the lexer).
    Lost,
}

impl Kind {
    /// Whitespace in the C sense (what separates macro arguments and a macro name from `(`).
    pub(crate) fn is_space(self) -> bool {
        matches!(self, Kind::Space | Kind::Newline | Kind::Lost)
    }
}

/// One token as found in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawTok {
    pub kind: Kind,
    /// Raw byte range in the file (splices and comments included).
    pub start: u32,
    pub end: u32,
    /// The token's text when it differs from the raw slice (spliced, or a comment).
    pub text: Option<String>,
    /// Newlines inside the raw range (continuations and block-comment line breaks).
    pub nl: u32,
    /// A `"` without its closing quote on the same line.
    pub unterminated: bool,
}

impl RawTok {
    /// The token's text.
    pub(crate) fn text<'a>(&'a self, src: &'a str) -> &'a str {
        match &self.text {
            Some(t) => t,
            None => src
                .get(self.start as usize..self.end as usize)
                .unwrap_or(""),
        }
    }
}

/// The file's bytes with line continuations removed, each byte remembering its raw offset.
struct Logical {
    bytes: Vec<u8>,
    /// Raw offset of each logical byte; empty when the file has no splice (then it is the
    /// identity, and a large file costs no 8 bytes per byte for these tables).
    raw: Vec<u32>,
    /// For each logical byte, the number of splices removed just before it (empty: none).
    spliced_before: Vec<u32>,
    raw_len: u32,
}

impl Logical {
    fn new(src: &str) -> Self {
        let b = src.as_bytes();
        let spliced = b
            .windows(2)
            .any(|w| w[0] == b'\\' && (w[1] == b'\n' || w[1] == b'\r'));
        if !spliced {
            return Logical {
                bytes: b.to_vec(),
                raw: Vec::new(),
                spliced_before: Vec::new(),
                raw_len: b.len() as u32,
            };
        }
        let mut bytes = Vec::with_capacity(b.len());
        let mut raw = Vec::with_capacity(b.len());
        let mut spliced_before = Vec::with_capacity(b.len());
        let mut pending = 0u32;
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'\\' {
                let skip = if b.get(i + 1) == Some(&b'\n') {
                    2
                } else if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') {
                    3
                } else {
                    0
                };
                if skip > 0 {
                    pending += 1;
                    i += skip;
                    continue;
                }
            }
            bytes.push(b[i]);
            raw.push(i as u32);
            spliced_before.push(pending);
            pending = 0;
            i += 1;
        }
        // A trailing splice at end of file still swallowed a newline; record it on a sentinel.
        raw.push(b.len() as u32);
        spliced_before.push(pending);
        Logical {
            bytes,
            raw,
            spliced_before,
            raw_len: b.len() as u32,
        }
    }

    fn at(&self, i: usize) -> u8 {
        self.bytes.get(i).copied().unwrap_or(0)
    }

    fn raw_at(&self, i: usize) -> u32 {
        if self.raw.is_empty() {
            return (i as u32).min(self.raw_len);
        }
        self.raw.get(i).copied().unwrap_or(self.raw_len)
    }

    /// Splices removed before the logical bytes `first..=last`.
    fn splices_in(&self, first: usize, last: usize) -> u32 {
        self.spliced_before
            .get(first..=last)
            .map_or(0, |s| s.iter().sum())
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_continue(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Multi-character punctuators, longest first.
const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "->",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::",
];

/// Lexes a whole file. Returns the raw offset of an unterminated block comment on failure.
pub(crate) fn lex(src: &str) -> Result<Vec<RawTok>, u32> {
    let l = Logical::new(src);
    let n = l.bytes.len();
    let mut toks = Vec::new();
    let mut i = 0;
    // A UTF-8 byte-order mark (editors on Windows write one) is not part of the text.
    if src.starts_with('\u{FEFF}') {
        toks.push(RawTok {
            kind: Kind::Space,
            start: 0,
            end: 3,
            text: Some(String::new()),
            nl: 0,
            unterminated: false,
        });
        i = 3;
    }
    while i < n {
        let scanned = l.scan(i)?;
        let end = scanned.end;
        toks.push(l.token(i, scanned));
        i = end;
    }
    Ok(toks)
}

/// One token as a scanner found it, in logical bytes; [`Logical::token`] makes it a [`RawTok`].
struct Scanned {
    kind: Kind,
    /// Logical offset after the token.
    end: usize,
    /// Whether the token holds a comment (its text is then one space).
    comment: bool,
    /// Line breaks inside block comments.
    comment_nl: u32,
    unterminated: bool,
}

impl Scanned {
    /// Most tokens are neither comments nor unterminated literals.
    fn plain(kind: Kind, end: usize) -> Self {
        Scanned {
            kind,
            end,
            comment: false,
            comment_nl: 0,
            unterminated: false,
        }
    }
}

/// The scanners: each finds where one kind of token that starts at a logical offset ends.
impl Logical {
    /// Scans the token starting at logical byte `i`.
    fn scan(&self, i: usize) -> Result<Scanned, u32> {
        let c = self.at(i);
        if c == b'\n' || (c == b'\r' && self.at(i + 1) == b'\n') {
            Ok(Scanned::plain(
                Kind::Newline,
                i + if c == b'\n' { 1 } else { 2 },
            ))
        } else if c == b' '
            || c == b'\t'
            || c == b'\r'
            || c == 0x0b
            || c == 0x0c
            || c == b'/' && (self.at(i + 1) == b'/' || self.at(i + 1) == b'*')
        {
            self.space_run(i)
        } else if is_ident_start(c) {
            Ok(Scanned::plain(Kind::Ident, self.ident_end(i)))
        } else if c.is_ascii_digit() || (c == b'.' && self.at(i + 1).is_ascii_digit()) {
            Ok(Scanned::plain(Kind::Number, self.number_end(i)))
        } else if c == b'"' || c == b'\'' {
            Ok(self.quoted(i, c))
        } else if c.is_ascii_punctuation() && c != b'\\' && c != b'@' && c != b'$' && c != b'`' {
            Ok(Scanned::plain(Kind::Punct, i + self.punct_len(i)))
        } else {
            Ok(Scanned::plain(Kind::Other, self.other_end(i)))
        }
    }

    /// A run of whitespace and comments becomes one Space token (comments are whitespace to the
    /// preprocessor). Fails with the raw offset of an unterminated block comment.
    fn space_run(&self, mut i: usize) -> Result<Scanned, u32> {
        let n = self.bytes.len();
        let mut comment = false;
        let mut comment_nl = 0u32;
        loop {
            let c = self.at(i);
            if i < n
                && (c == b' '
                    || c == b'\t'
                    || c == 0x0b
                    || c == 0x0c
                    || (c == b'\r' && self.at(i + 1) != b'\n'))
            {
                i += 1;
            } else if i + 1 < n && c == b'/' && self.at(i + 1) == b'/' {
                comment = true;
                while i < n
                    && self.at(i) != b'\n'
                    && !(self.at(i) == b'\r' && self.at(i + 1) == b'\n')
                {
                    i += 1;
                }
            } else if i + 1 < n && c == b'/' && self.at(i + 1) == b'*' {
                comment = true;
                let (end, nl) = self.block_comment(i)?;
                comment_nl += nl;
                i = end;
            } else {
                break;
            }
        }
        Ok(Scanned {
            kind: Kind::Space,
            end: i,
            comment,
            comment_nl,
            unterminated: false,
        })
    }

    /// The end of the block comment opening at `i`, and the line breaks it holds (the driver
    /// keeps them so output lines stay aligned with the source).
    fn block_comment(&self, mut i: usize) -> Result<(usize, u32), u32> {
        let n = self.bytes.len();
        let open = self.raw_at(i);
        let mut nl = 0u32;
        i += 2;
        loop {
            if i + 1 >= n {
                return Err(open);
            }
            if self.at(i) == b'*' && self.at(i + 1) == b'/' {
                return Ok((i + 2, nl));
            }
            if self.at(i) == b'\n' {
                nl += 1;
            }
            i += 1;
        }
    }

    /// Identifiers and keywords alike: the preprocessor does not tell them apart.
    fn ident_end(&self, mut i: usize) -> usize {
        let n = self.bytes.len();
        while i < n && is_ident_continue(self.at(i)) {
            i += 1;
        }
        i
    }

    /// A pp-number: digits, letters, dots and an exponent's sign, so suffixes and malformed
    /// numbers stay one token, as in C.
    fn number_end(&self, mut i: usize) -> usize {
        let n = self.bytes.len();
        i += 1;
        while i < n {
            let d = self.at(i);
            let exponent_sign =
                (d == b'+' || d == b'-') && matches!(self.at(i - 1), b'e' | b'E' | b'p' | b'P');
            if !(exponent_sign || is_ident_continue(d) || d == b'.') {
                break;
            }
            i += 1;
        }
        i
    }

    /// A string or character literal opening at `start` with quote `c`. Without its closing
    /// quote on the line only the quote itself becomes a token (the rest of the line lexes
    /// normally), flagged for the driver to report in active text.
    fn quoted(&self, start: usize, c: u8) -> Scanned {
        let n = self.bytes.len();
        let mut i = start + 1;
        let mut unterminated = false;
        loop {
            if i >= n || self.at(i) == b'\n' {
                unterminated = true;
                break;
            }
            if self.at(i) == b'\\' && i + 1 < n && self.at(i + 1) != b'\n' {
                i += 2;
                continue;
            }
            if self.at(i) == c {
                i += 1;
                break;
            }
            i += 1;
        }
        let (kind, end) = if unterminated {
            (Kind::Other, start + 1)
        } else if c == b'"' {
            (Kind::Str, i)
        } else {
            (Kind::Char, i)
        };
        Scanned {
            kind,
            end,
            comment: false,
            comment_nl: 0,
            unterminated,
        }
    }

    /// The longest punctuator at `i` (1 when no multi-character one matches).
    fn punct_len(&self, i: usize) -> usize {
        let n = self.bytes.len();
        for p in PUNCTS {
            let pb = p.as_bytes();
            if (0..pb.len()).all(|k| self.at(i + k) == pb[k]) && i + pb.len() <= n {
                return pb.len();
            }
        }
        1
    }

    /// A run of characters no token starts with (`@`, `$`, NUL, non-ASCII): one token, so a
    /// pasted binary or a file of junk costs one token, not one per byte. Whole UTF-8
    /// characters only (a lead byte and its continuation bytes).
    fn other_end(&self, mut i: usize) -> usize {
        let n = self.bytes.len();
        i += 1;
        while i < n && (is_other(self.at(i)) || (0x80..0xC0).contains(&self.at(i))) {
            i += 1;
        }
        i
    }

    /// The scanned token with its raw byte range; its text only when that differs from the raw
    /// slice (a comment, or spliced), so most tokens cost no allocation.
    fn token(&self, start: usize, s: Scanned) -> RawTok {
        let i = s.end;
        let raw_start = self.raw_at(start);
        // A token ending in a splice keeps it (its raw end is the next token's raw start).
        let raw_end = self.raw_at(i);
        let first = if start == 0 { 0 } else { start + 1 };
        let splices: u32 = self.splices_in(first, i);
        let nl = splices + s.comment_nl;
        let text = if s.comment {
            Some(" ".to_string())
        } else if splices > 0 {
            Some(String::from_utf8_lossy(&self.bytes[start..i]).into_owned())
        } else {
            None
        };
        RawTok {
            kind: s.kind,
            start: raw_start,
            end: raw_end,
            text,
            nl,
            unterminated: s.unterminated,
        }
    }
}

/// Lexes a short text that is already free of continuations and comments (a pasted token, a
/// define given on the command line); block-comment errors become `None`.
pub(crate) fn lex_str(s: &str) -> Option<Vec<(Kind, String)>> {
    let toks = lex(s).ok()?;
    Some(
        toks.iter()
            .map(|t| (t.kind, t.text(s).to_string()))
            .collect(),
    )
}

/// Whether `c` starts no token but [`Kind::Other`] (see the last branch of the lexer).
fn is_other(c: u8) -> bool {
    !(c.is_ascii_alphanumeric()
        || c == b'_'
        || c.is_ascii_whitespace()
        || matches!(c, b'"' | b'\'' | b'\\')
        || (c.is_ascii_punctuation() && !matches!(c, b'@' | b'$' | b'`')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Kind, String)> {
        lex_str(s).unwrap_or_default()
    }

    #[test]
    fn splits_operators_and_numbers() {
        let t = kinds("a<<=1.5e-3f##b");
        let texts: Vec<&str> = t.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(texts, ["a", "<<=", "1.5e-3f", "##", "b"]);
        assert_eq!(t[2].0, Kind::Number);
    }

    #[test]
    fn comments_become_space_and_count_newlines() {
        let src = "a/* x\n y */b // c\nd";
        let t = lex(src).unwrap();
        assert_eq!(t[1].kind, Kind::Space);
        assert_eq!(t[1].nl, 1);
        assert_eq!(t[1].text(src), " ");
        assert_eq!(t[3].kind, Kind::Space);
        assert_eq!(t[4].kind, Kind::Newline);
        assert_eq!(t[5].text(src), "d");
    }

    #[test]
    fn continuation_is_spliced_inside_a_token() {
        let src = "flo\\\nat x";
        let t = lex(src).unwrap();
        assert_eq!(t[0].text(src), "float");
        assert_eq!(t[0].nl, 1);
        assert_eq!((t[0].start, t[0].end), (0, 7));
        assert_eq!(t[2].start, 8);
    }

    #[test]
    fn unterminated_comment_reports_its_start() {
        assert_eq!(lex("a\n /* never closed"), Err(3));
    }

    #[test]
    fn stray_quote_is_flagged_not_fatal() {
        let t = lex("don't\n").unwrap();
        assert!(t.iter().any(|t| t.unterminated));
        assert_eq!(t.last().map(|t| t.kind), Some(Kind::Newline));
    }

    #[test]
    fn byte_order_mark_is_dropped() {
        let src = "\u{FEFF}#define";
        let t = lex(src).unwrap();
        assert_eq!((t[0].kind, t[0].text(src)), (Kind::Space, ""));
        assert_eq!((t[1].start, t[1].text(src)), (3, "#"));
    }

    #[test]
    fn non_ascii_stays_whole() {
        let src = "é=1";
        let t = lex(src).unwrap();
        assert_eq!(t[0].text(src), "é");
        assert_eq!(t[0].kind, Kind::Other);
    }
}
