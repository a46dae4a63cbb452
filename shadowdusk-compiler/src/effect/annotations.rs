//! Annotation blocks `< type name = value; ... >` after a global's name, a technique name or a
//! pass name (fx-pipeline.md §6).
//!
//! Input: tokens starting at `<`. Output: the entries and the index just past `>`; the caller
//! blanks the block so DXC never sees it. Values: string literal (stored without quotes),
//! number with optional sign, identifier; anything else up to `;` is kept as written.
//!
//! Refused: a block that reaches `{`, `}` or the end of the text before `>` (FX0007), and an
//! entry that is not `type name = value;` (FX0001).

use super::ast::Annotation;
use super::lexer::{Token, TokenKind};

/// Why an annotation block failed: the code, the token index to point at, and a message.
pub struct AnnotationError {
    /// FX0007 (unclosed) or FX0001 (malformed entry).
    pub unclosed: bool,
    /// Token index to point at.
    pub at: usize,
    /// Message.
    pub message: String,
}

/// Parses the block whose `<` is `toks[start]`.
pub fn parse(
    src: &str,
    toks: &[Token],
    start: usize,
) -> Result<(Vec<Annotation>, usize), AnnotationError> {
    let unclosed = |_| AnnotationError {
        unclosed: true,
        at: start,
        message: "annotation block is not closed with `>`".into(),
    };
    let text = |i: usize| toks.get(i).map(|t| t.text(src));
    let mut i = start + 1;
    let mut out = Vec::new();
    loop {
        match text(i) {
            None | Some("{") | Some("}") => return Err(unclosed(i)),
            Some(">") => return Ok((out, i + 1)),
            _ => {}
        }
        let malformed = |at: usize, what: &str| AnnotationError {
            unclosed: false,
            at,
            message: format!("malformed annotation: expected {what}"),
        };
        if toks[i].kind != TokenKind::Ident {
            return Err(malformed(i, "a type name"));
        }
        let ty = toks[i].text(src).to_string();
        i += 1;
        match toks.get(i) {
            Some(t) if t.kind == TokenKind::Ident => {}
            None => return Err(unclosed(i)),
            _ => return Err(malformed(i, "an annotation name")),
        }
        let name = toks[i].text(src).to_string();
        i += 1;
        match text(i) {
            Some("=") => i += 1,
            // `type name(` is a function declaration: the block ended without its `>`.
            None | Some("(") => return Err(unclosed(i)),
            _ => return Err(malformed(i, "`=`")),
        }
        let vstart = i;
        while let Some(t) = text(i) {
            if t == ";" || t == ">" || t == "{" || t == "}" {
                break;
            }
            i += 1;
        }
        match text(i) {
            Some(";") => {}
            None | Some("{") | Some("}") => return Err(unclosed(i)),
            _ => return Err(malformed(i, "`;` after the annotation value")),
        }
        if vstart == i {
            return Err(malformed(i, "a value"));
        }
        let value = if i - vstart == 1 && toks[vstart].kind == TokenKind::Str {
            let s = toks[vstart].text(src);
            s[1..s.len().saturating_sub(1).max(1)].to_string()
        } else {
            src[toks[vstart].range.start..toks[i - 1].range.end].to_string()
        };
        out.push(Annotation { ty, name, value });
        i += 1;
    }
}
