//! Where in the user's source a construct the GLSL dialect refused comes from.
//!
//! The dialect stage checks the GLSL SPIRV-Cross wrote, which has no positions in the user's
//! file. For the refusals whose GLSL token says what the HLSL construct was — an integer bit
//! operator, an unsigned type, a texel fetch (`Load`), a size query (`GetDimensions`), a
//! comparison sample (`SampleCmp`), a name that collides with a generated one — the source is
//! searched for that construct, and the first one found is where the error points. When
//! nothing matches, the caller keeps the shader's `compile` statement.

use std::ops::Range;

use crate::effect::lexer::{self, Token, TokenKind};
use crate::effect::ParsedEffect;

/// The source range of the construct behind the refused GLSL token `glsl`.
pub fn find(parsed: &ParsedEffect, glsl: &str) -> Option<Range<usize>> {
    let src = parsed.stripped.as_str();
    let toks: Vec<Token> = lexer::tokenize(src)
        .tokens
        .into_iter()
        .filter(|t| t.kind != TokenKind::Directive)
        .collect();
    let text = |i: usize| toks.get(i).map_or("", |t| t.text(src));
    // `Tex.Load(…)` points at `Tex.Load`.
    let method = |names: &[&str]| {
        (1..toks.len()).find_map(|i| {
            (names.contains(&text(i)) && text(i - 1) == ".").then(|| {
                let start = if i >= 2 && toks[i - 2].kind == TokenKind::Ident {
                    toks[i - 2].range.start
                } else {
                    toks[i].range.start
                };
                start..toks[i].range.end
            })
        })
    };
    let ident = |names: &[&str]| {
        toks.iter()
            .find(|t| t.kind == TokenKind::Ident && names.contains(&t.text(src)))
            .map(|t| t.range.clone())
    };
    // Operators: the lexer splits them into single characters, so `<<` is two adjacent `<`.
    let operator = |op: &str| {
        let chars: Vec<char> = op.trim_end_matches('=').chars().collect();
        (0..toks.len()).find_map(|i| {
            let adjacent = (0..chars.len()).all(|k| {
                toks.get(i + k).is_some_and(|t| {
                    t.text(src).chars().eq([chars[k]])
                        && (k == 0 || toks[i + k - 1].range.end == t.range.start)
                })
            });
            let end = i + chars.len();
            // `&` and `|` alone, not `&&` / `||`.
            let doubled = |j: usize| {
                toks.get(j).is_some_and(|t| {
                    t.text(src).chars().eq([chars[0]])
                        && (t.range.end == toks[i].range.start
                            || toks[end - 1].range.end == t.range.start)
                })
            };
            let logical = chars.len() == 1
                && matches!(chars[0], '&' | '|')
                && ((i > 0 && doubled(i - 1)) || doubled(end));
            (adjacent && !logical).then(|| toks[i].range.start..toks[end - 1].range.end)
        })
    };
    match glsl {
        "<<" | ">>" | "<<=" | ">>=" | "&" | "|" | "^" | "~" | "&=" | "|=" | "^=" => operator(glsl),
        "uint" | "uvec2" | "uvec3" | "uvec4" => {
            ident(&["uint", "uint2", "uint3", "uint4", "dword"])
        }
        g if g.starts_with("texelFetch") => method(&["Load"]),
        "GL_EXT_gpu_shader4" => method(&["GetDimensions", "Load"]),
        g if g.starts_with("shadow1D") || g.starts_with("shadow2D") => {
            // The comparison sampler's declaration: `SamplerComparisonState Cmp;`.
            (0..toks.len().saturating_sub(1))
                .find(|&i| text(i) == "SamplerComparisonState")
                .map(|i| toks[i + 1].range.clone())
                .or_else(|| method(&["SampleCmp", "SampleCmpLevelZero"]))
        }
        name if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => ident(&[name]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::expanded_from_plain;
    use crate::source::SourceFiles;

    fn at(src: &str, glsl: &str) -> Option<String> {
        let mut files = SourceFiles::new();
        let expanded = expanded_from_plain(&mut files, "t.fx", src);
        let parsed = crate::effect::parse(&expanded).expect("parses");
        find(&parsed, glsl).map(|r| parsed.stripped[r].to_string())
    }

    #[test]
    fn finds_the_construct_behind_the_glsl_token() {
        let ps = |body: &str| {
            format!("Texture2D Tex;\nSamplerComparisonState Cmp;\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ {body} }}\ntechnique T {{ pass P {{ PixelShader = compile ps_3_0 PS(); }} }}\n")
        };
        let src = ps("bool b = uv.x > 0 && uv.y > 0; int c = (int)uv.x & 3; return c << 2;");
        assert_eq!(at(&src, "&").as_deref(), Some("&"));
        assert_eq!(at(&src, "<<").as_deref(), Some("<<"));
        assert_eq!(
            at(&ps("uint n = 3; return n;"), "uint").as_deref(),
            Some("uint")
        );
        assert_eq!(
            at(&ps("return Tex.Load(int3(0, 0, 0));"), "texelFetch2D").as_deref(),
            Some("Tex.Load")
        );
        assert_eq!(
            at(&ps("return Tex.SampleCmp(Cmp, uv, 0.5);"), "shadow2D").as_deref(),
            Some("Cmp")
        );
        assert_eq!(at(&ps("return 1;"), "<<"), None);
    }
}
