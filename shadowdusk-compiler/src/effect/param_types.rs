//! Parameter types DXC would "correct" into effect-object types, refused before DXC sees them.
//!
//! DXC 1.8 spell-checks an unknown type name and may take `Textur2D` for `Texture` or
//! `VertexShaderOutpt` for `VertexShader`; a misspelt use of such a parameter then crashes it
//! (a null dereference in clang's typo correction, found by fuzzing) — the whole build script or
//! editor session with it. A parameter type that is no numeric type, no declared struct or
//! typedef, no known object type, and close to an effect-object type name is therefore an
//! error here, with the spelling to check. Everything else is left to DXC.

use std::ops::Range;

use super::ast::EffectAst;
use super::lexer::{Token, TokenKind};
use super::types;

/// Effect-object type names DXC's spelling correction reaches.
const EFFECT_OBJECTS: &[&str] = &[
    "Texture",
    "VertexShader",
    "PixelShader",
    "GeometryShader",
    "HullShader",
    "DomainShader",
    "ComputeShader",
    "BlendState",
    "DepthStencilState",
    "RasterizerState",
    "SamplerState",
];

/// Object and other type names that are valid as written.
fn known_object(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    EFFECT_OBJECTS.iter().any(|o| o.eq_ignore_ascii_case(name))
        || lower.starts_with("texture")
        || lower.starts_with("sampler")
        || lower.starts_with("rwtexture")
        || lower.ends_with("buffer")
        || matches!(
            lower.as_str(),
            "string" | "void" | "matrix" | "vector" | "point" | "line" | "triangle"
        )
}

/// Edit distance, for short names.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut prev = row[0];
        row[0] = i;
        for j in 1..=b.len() {
            let cur = row[j];
            let cost = usize::from(!a[i - 1].eq_ignore_ascii_case(&b[j - 1]));
            row[j] = (prev + cost).min(row[j] + 1).min(row[j - 1] + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The effect-object name `name` could be a misspelling of.
fn looks_like_effect_object(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    EFFECT_OBJECTS.iter().copied().find(|o| {
        let o_lower = o.to_ascii_lowercase();
        distance(name, o) <= 2
            || (lower.len() >= 6
                && o_lower.len() >= 6
                && (lower.starts_with(&o_lower) || o_lower.starts_with(&lower)))
    })
}

/// The first parameter whose type would send DXC down that path: (range of the type, type,
/// the effect-object name it resembles).
pub fn suspicious_parameter(
    ast: &EffectAst,
    src: &str,
    toks: &[Token],
) -> Option<(Range<usize>, String, &'static str)> {
    let typedefs: Vec<&str> = toks
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0].text(src) == "typedef")
        .filter_map(|(i, _)| {
            toks[i..]
                .iter()
                .position(|t| t.text(src) == ";")
                .and_then(|k| toks.get(i + k - 1))
                .filter(|t| t.kind == TokenKind::Ident)
                .map(|t| t.text(src))
        })
        .collect();
    for f in &ast.functions {
        for p in &f.params {
            let ty = p.ty.as_str();
            let plain = ty.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !plain
                || types::numeric(ty).is_some()
                || known_object(ty)
                || ast.structs.iter().any(|s| s.name == ty)
                || typedefs.contains(&ty)
            {
                continue;
            }
            let Some(object) = looks_like_effect_object(ty) else {
                continue;
            };
            let text = src.get(p.range.clone()).unwrap_or("");
            let at = text.find(ty).map_or(p.range.start, |k| p.range.start + k);
            return Some((at..at + ty.len(), ty.to_string(), object));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resemblance() {
        assert_eq!(looks_like_effect_object("Textur2D"), Some("Texture"));
        assert_eq!(
            looks_like_effect_object("VertexShaderOutpt"),
            Some("VertexShader")
        );
        assert_eq!(looks_like_effect_object("VSOutput"), None);
        assert_eq!(looks_like_effect_object("Light"), None);
        assert!(
            known_object("Texture2D") && known_object("sampler2D") && known_object("SamplerState")
        );
    }
}
