//! Where a non-square matrix the dialect stage refused came from, when the source shows it.
//!
//! The widening pass handles every non-square matrix that is only multiplied, transposed or read
//! at constant rows; the remaining case real shaders write is a *local* non-square matrix whose
//! row is picked at run time (`k[i]`), which DXC spills to a matrix variable GLSL 1.10 cannot
//! declare. The SPIR-V no longer says which declaration that was, so the source is searched for
//! such a pick: a local declared `floatRxC` (R ≠ C) indexed with anything but a literal.

use std::ops::Range;

use crate::effect::lexer::{self, TokenKind};
use crate::effect::ParsedEffect;

/// A run-time row pick of a local non-square matrix.
pub struct RowPick {
    /// The indexing expression, `k[i]`, in the expanded text.
    pub range: Range<usize>,
    /// The local's name.
    pub name: String,
    /// Its HLSL type (`float2x3`).
    pub ty: String,
}

/// Whether `text` names a non-square float matrix type.
fn non_square(text: &str) -> bool {
    let Some(shape) = ["float", "half", "min16float", "min10float"]
        .iter()
        .find_map(|base| text.strip_prefix(base))
    else {
        return false;
    };
    let b = shape.as_bytes();
    b.len() == 3
        && b[1] == b'x'
        && (b'1'..=b'4').contains(&b[0])
        && (b'1'..=b'4').contains(&b[2])
        && b[0] != b[2]
}

/// The first run-time row pick of a local non-square matrix in the effect, if any.
pub fn find(parsed: &ParsedEffect) -> Option<RowPick> {
    let src = parsed.stripped.as_str();
    let toks: Vec<lexer::Token> = lexer::tokenize(src)
        .tokens
        .into_iter()
        .filter(|t| t.kind != TokenKind::Directive)
        .collect();
    let text = |i: usize| toks.get(i).map(|t| t.text(src)).unwrap_or("");
    let is_global = |name: &str| parsed.ast.globals.iter().any(|g| g.name == name);
    let mut locals: Vec<(String, String)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let name = text(i + 1);
        if t.kind == TokenKind::Ident
            && non_square(t.text(src))
            && toks.get(i + 1).is_some_and(|n| n.kind == TokenKind::Ident)
            && text(i + 2) != "("
            && !is_global(name)
        {
            locals.push((name.to_string(), t.text(src).to_string()));
        }
    }
    for (i, t) in toks.iter().enumerate() {
        let Some((name, ty)) = locals.iter().find(|(n, _)| n == t.text(src)) else {
            continue;
        };
        if t.kind != TokenKind::Ident || text(i + 1) != "[" || (i > 0 && text(i - 1) == ".") {
            continue;
        }
        let mut depth = 0;
        let close = (i + 1..toks.len()).find(|&k| {
            match text(k) {
                "[" => depth += 1,
                "]" => depth -= 1,
                _ => {}
            }
            depth == 0
        })?;
        let literal = close == i + 3 && toks[i + 2].kind == TokenKind::Number;
        if !literal {
            return Some(RowPick {
                range: t.range.start..toks[close].range.end,
                name: name.clone(),
                ty: ty.clone(),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::non_square;

    #[test]
    fn shapes() {
        assert!(non_square("float2x3"));
        assert!(non_square("half4x3"));
        assert!(!non_square("float3x3"));
        assert!(!non_square("float4"));
        assert!(!non_square("float2x3x"));
    }
}
