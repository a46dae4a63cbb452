//! Text that crashes DXC 1.8, refused before it sees it.
//!
//! DXC keeps the effect framework's types (`texture`, `VertexShader`, `BlendState`, …) as
//! half-built classes. Where DXC has to complete one — a struct member, a cast, an array
//! element, a constructor-style call — it dereferences null in
//! `clang::CXXRecordDecl::mayBeAbstract` and takes the whole process down: the user's build
//! script, the CLI or the editor session (found by fuzzing). Its spelling correction does the same
//! with an undeclared name close to one (`Textur2D`, `VertexShaderOutpt`, `Blendstate`).
//! A pixel output of a huge render target (`COLOR2222…`, 46 digits) crashes it in
//! `finalizeStageIOLocations`; other huge semantic indices wrap into 32 bits
//! (`TEXCOORD4294967297` is `TEXCOORD1`), exactly as fxc reads them, so they pass.
//!
//! Lowering has replaced every effect-object declaration ShadowDusk supports (effect-style
//! texture types on parameters and struct members included), removed shader and state-object
//! parameters (fxc compiles nothing for them) and turned pixel outputs into `SV_TargetN`. What
//! is left in the lowered text is refused here, at its place in the user's file, only where it
//! crashes DXC (`tests/tests/dxc_guard_regressions.rs` holds the guard to that, name by name
//! and place by place, with the pinned DXC): SD0028 for one of DXC's own effect types as a
//! struct member, in a cast, as an array element or called; the same for any other spelling of
//! one, and FX0001 for an undeclared name DXC would take for one, wherever it stands (DXC never
//! compiles those: it corrects them and fails, or crashes); SD0029 for a render target above 7
//! once its index is read into 32 bits (fxc's limit too); SD0111 for `return;` in a function
//! that returns a value (fxc refuses it too, X3080; DXC 1.8 crashes); FX0001 for one of DXC's
//! class templates that need no arguments (`Texture2D`, `vector`) where a value belongs (an
//! operand, an argument), which DXC 1.8 crashes on too. DXC's own effect types elsewhere (a local
//! `BlendState b;`, a global, a typedef, a return type) pass: DXC ignores them, as fxc does. A
//! name the file declares (a struct, a variable, a function) is the user's and passes.

use std::collections::HashSet;
use std::ops::Range;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::effect::lexer::{tokenize, Token, TokenKind};
use crate::effect::types::{self, CODE_OBJECTS};
use crate::lower::Lowered;
use crate::preprocess::Expanded;
use crate::source::Span;

/// The effect-framework types DXC knows, as fxc spells them.
const EFFECT_TYPES: &[&str] = &[
    "texture",
    "texture1D",
    "texture2D",
    "texture3D",
    "textureCUBE",
    "VertexShader",
    "PixelShader",
    "VertexFragment",
    "PixelFragment",
    "GeometryShader",
    "HullShader",
    "DomainShader",
    "ComputeShader",
    "BlendState",
    "DepthStencilState",
    "RasterizerState",
    "RenderTargetView",
    "DepthStencilView",
    "StateBlock",
];

/// Refuses the first hazard in `lowered`; `at` (the shader's `compile` statement) stands in for
/// one in generated code.
pub fn check(expanded: &Expanded, lowered: &Lowered, at: Option<Span>) -> Result<(), Diagnostics> {
    let Some(hazard) = find(&lowered.text) else {
        return Ok(());
    };
    let from = lowered.map.map(hazard.range.start as u32) as usize;
    let to = lowered.map.map(hazard.range.end.saturating_sub(1) as u32) as usize + 1;
    let span = (from < expanded.text.len())
        .then(|| {
            expanded
                .map
                .span(from..to.clamp(from + 1, expanded.text.len()))
        })
        .flatten()
        .or(at);
    // The user's spelling, where lowering rewrote it (`COLOR9` for `SV_Target9`).
    let user_word = expanded.text.get(from..).map(|rest| {
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        &rest[..end]
    });
    let name = hazard.name;
    let d = match hazard.kind {
        Kind::EffectType(effect_type) => Diagnostic::error(
            Code::SD0028,
            format!("`{name}` is an effect type; HLSL code cannot use it"),
        )
        .with_help(effect_type_help(effect_type)),
        Kind::LookAlike(effect_type) => {
            Diagnostic::error(Code::FX0001, format!("unknown name `{name}`")).with_help(format!(
                "declare it (a struct, typedef or variable), or check its spelling; DXC would \
                 take it for the effect type `{effect_type}`"
            ))
        }
        Kind::RenderTarget(n) => {
            let sem = user_word.filter(|w| !w.is_empty()).unwrap_or(name);
            let written = semantic_index(sem).map(|(_, digits)| digits.trim_start_matches('0'));
            let wrapped = if written.is_some_and(|d| d != n.to_string()) {
                " (read into 32 bits, as fxc reads it)"
            } else {
                ""
            };
            Diagnostic::error(
                Code::SD0029,
                format!(
                    "`{sem}` writes render target {n}{wrapped}; a pixel shader has render targets 0 to 7"
                ),
            )
            .with_help("use COLOR0 to COLOR7 (SV_Target0 to SV_Target7)")
        }
        Kind::ValuelessReturn(returns) => Diagnostic::error(
            Code::SD0111,
            format!("`return;` without a value in `{name}`, which returns `{returns}`"),
        )
        .with_help(format!(
            "return a `{returns}` (`return value;`), or declare `{name}` `void` if it returns \
             nothing"
        )),
        Kind::TypeAsValue => Diagnostic::error(
            Code::FX0001,
            format!("`{name}` is a type; a value is expected here"),
        )
        .with_help(format!(
            "write a value here (a variable, a parameter, `float4(0, 0, 0, 1)`); `{name}` names \
             a type, so check the spelling of the name you meant"
        )),
    };
    Err(d.at_opt(span).into())
}

fn effect_type_help(effect_type: &str) -> &'static str {
    let lower = effect_type.to_ascii_lowercase();
    if lower.starts_with("texture") {
        "declare each texture as a global (`texture2D Diffuse;` or `Texture2D Diffuse;`) with a \
         sampler, and sample through the sampler; MonoGame binds no texture arrays"
    } else if lower.ends_with("shader") || lower.ends_with("fragment") {
        "a pass chooses its shaders (`PixelShader = compile ps_3_0 MainPS();`); HLSL code cannot \
         hold or pass them"
    } else {
        "declare the state object as a global (`BlendState Additive { ... };`) and set it in a \
         pass (`SetBlendState(Additive, float4(0, 0, 0, 0), 0xFFFFFFFF);`); code cannot hold one \
         in a struct, an array or a cast"
    }
}

/// Text DXC would crash on.
#[derive(Debug, PartialEq, Eq)]
struct Hazard<'a> {
    range: Range<usize>,
    name: &'a str,
    kind: Kind,
}

#[derive(Debug, PartialEq, Eq)]
enum Kind {
    /// An effect type, as written (this canonical spelling).
    EffectType(&'static str),
    /// An undeclared name DXC would correct to this effect type.
    LookAlike(&'static str),
    /// A pixel output `SV_TargetN` with N (read into 32 bits) above 7.
    RenderTarget(u32),
    /// `return;` in a function that returns this type (not `void`).
    ValuelessReturn(String),
    /// One of DXC's class templates that need no arguments (`Texture2D`, `vector`) where a
    /// value is expected (an operand, an argument).
    TypeAsValue,
}

/// Where a name stands, as far as DXC's crashes go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// A struct member's type (`struct Q { BlendState b; }`).
    Member,
    /// `(BlendState)x`.
    Cast,
    /// An array's element type, global, local or member (`BlendState b[2];`).
    Array,
    /// `BlendState(1)`.
    Call,
    /// Anywhere else: a local, a global, a parameter, a return type, a typedef.
    Elsewhere,
}

/// DXC's own spellings of the effect types: [`CODE_OBJECTS`] and the untyped texture.
fn dxc_spelling(name: &str) -> bool {
    CODE_OBJECTS.contains(&name) || name == "texture" || name == "Texture"
}

/// The first hazard in `text`, if any.
fn find(text: &str) -> Option<Hazard<'_>> {
    let toks: Vec<Token> = tokenize(text)
        .tokens
        .into_iter()
        .filter(|t| t.kind != TokenKind::Directive)
        .collect();
    [find_names(text, &toks), find_in_bodies(text, &toks)]
        .into_iter()
        .flatten()
        .min_by_key(|h| h.range.start)
}

/// The first effect type, look-alike or render target above 7 in `toks`.
fn find_names<'a>(text: &'a str, toks: &[Token]) -> Option<Hazard<'a>> {
    let word = |i: usize| toks.get(i).map_or("", |t| t.text(text));
    let ident = |i: usize| toks.get(i).is_some_and(|t| t.kind == TokenKind::Ident);
    // A name is declared where it follows a type (or `struct`, or a `,` in a declarator list)
    // and no type name follows it.
    let declared: HashSet<&str> = (1..toks.len())
        .filter(|&i| ident(i))
        .filter(|&i| (ident(i - 1) && word(i - 1) != "return") || matches!(word(i - 1), ">" | ","))
        .filter(|&i| !ident(i + 1) && word(i + 1) != "<")
        .map(word)
        .collect();
    let members = struct_member_tokens(text, toks);
    let place = |i: usize| {
        let operand = |k: usize| {
            ident(k)
                || toks.get(k).is_some_and(|t| t.kind == TokenKind::Number)
                || matches!(word(k), "(" | "-" | "+" | "!" | "~")
        };
        if ident(i + 1) && word(i + 2) == "[" {
            Place::Array
        } else if members.contains(&i) && ident(i + 1) {
            Place::Member
        } else if i > 0 && word(i - 1) == "(" && word(i + 1) == ")" && operand(i + 2) {
            Place::Cast
        } else if word(i + 1) == "(" {
            Place::Call
        } else {
            Place::Elsewhere
        }
    };
    let hazard = |i: usize, kind| Hazard {
        range: toks[i].range.clone(),
        name: word(i),
        kind,
    };
    (0..toks.len()).filter(|&i| ident(i)).find_map(|i| {
        let name = word(i);
        match i.checked_sub(1).map(word) {
            // Members (`input.Texture`) are never looked up as types.
            Some(".") => None,
            Some(":") => semantic(name).map(|kind| hazard(i, kind)),
            _ if builtin(name) || declared.contains(name) => None,
            // DXC ignores its own spelling of one elsewhere (a local, a global, a typedef).
            _ if dxc_spelling(name) && place(i) == Place::Elsewhere => None,
            _ => EFFECT_TYPES
                .iter()
                .find(|e| e.eq_ignore_ascii_case(name))
                .map(|e| Kind::EffectType(e))
                .or_else(|| resembles(name).map(Kind::LookAlike))
                .map(|kind| hazard(i, kind)),
        }
    })
}

/// DXC's class templates whose arguments all have defaults, so that the bare name is a type
/// (`Texture2D` is `Texture2D<float4>`). Found by fuzzing: as an operand (`c * Texture2D`) or an
/// argument (`Blend(Texture2D, uv)`) DXC 1.8 crashes on one (SIGSEGV) or fails an internal
/// `cast<X>()`; the templates without defaults (`Texture2DMS`, `RWTexture2D`) it refuses cleanly.
const DEFAULTED_TEMPLATES: &[&str] = &[
    "vector",
    "matrix",
    "Buffer",
    "Texture1D",
    "Texture1DArray",
    "Texture2D",
    "Texture2DArray",
    "Texture3D",
    "TextureCube",
    "TextureCubeArray",
];

/// Hazards inside function bodies: `return;` in a function that returns a value (DXC 1.8
/// crashes in code generation instead of reporting fxc's X3080), and a class template from
/// [`DEFAULTED_TEMPLATES`] where a value is expected. Both found by fuzzing
/// (`compat_decl_array_whole.fx`, a `return` cut from its expression, a type for an operand).
fn find_in_bodies<'a>(text: &'a str, toks: &[Token]) -> Option<Hazard<'a>> {
    let word = |i: usize| toks.get(i).map_or("", |t| t.text(text));
    let ident = |i: usize| toks.get(i).is_some_and(|t| t.kind == TokenKind::Ident);
    // Per open brace: the function whose body it opens (name token, return type), or None.
    let mut stack: Vec<Option<(usize, &str)>> = Vec::new();
    for i in 0..toks.len() {
        match word(i) {
            "{" => stack.push(function_header(text, toks, i)),
            "}" => {
                stack.pop();
            }
            "return" if word(i + 1) == ";" => {
                let Some((name, returns)) = stack.iter().rev().find_map(|f| *f) else {
                    continue;
                };
                if returns != "void" {
                    return Some(Hazard {
                        range: toks[i].range.start..toks[i + 1].range.end,
                        name: word(name),
                        kind: Kind::ValuelessReturn(returns.to_string()),
                    });
                }
            }
            w if ident(i) && DEFAULTED_TEMPLATES.contains(&w) => {
                if !stack.iter().any(Option::is_some) || i == 0 {
                    continue;
                }
                // A value's place: after an operator, a bracket or a comma, and before one (not
                // a declaration `Texture2D t`, a template `vector<float, 2>`, a call or a member).
                let before = word(i - 1);
                let after = word(i + 1);
                let after_value = matches!(
                    before,
                    "*" | "/"
                        | "%"
                        | "+"
                        | "-"
                        | "="
                        | "("
                        | ","
                        | "?"
                        | ":"
                        | "["
                        | "return"
                        | "!"
                        | "&"
                        | "|"
                        | "^"
                        | ">"
                        | "~"
                );
                let before_value = matches!(
                    after,
                    "*" | "/"
                        | "%"
                        | "+"
                        | "-"
                        | "="
                        | ")"
                        | ","
                        | "?"
                        | ":"
                        | "]"
                        | ";"
                        | "&"
                        | "|"
                        | "^"
                        | "!"
                );
                // `(Texture2D)x` is a cast, refused or passed by the effect-type rules.
                let cast = before == "(" && after == ")";
                if after_value && before_value && !cast {
                    return Some(Hazard {
                        range: toks[i].range.clone(),
                        name: w,
                        kind: Kind::TypeAsValue,
                    });
                }
            }
            _ => {}
        }
    }
    None
}

/// When the `{` at token `open` starts a function's body (`float4 F(...) : SEMANTIC {`): the
/// function name's token and its return type as written (`float4`, `vector<float, 2>`).
fn function_header<'a>(text: &'a str, toks: &[Token], open: usize) -> Option<(usize, &'a str)> {
    let word = |i: usize| toks.get(i).map_or("", |t| t.text(text));
    let ident = |i: usize| toks.get(i).is_some_and(|t| t.kind == TokenKind::Ident);
    let mut close = open.checked_sub(1)?;
    // A semantic (`: SV_Target0`) between the parameters and the body.
    if close >= 2 && ident(close) && word(close - 1) == ":" {
        close -= 2;
    }
    if word(close) != ")" {
        return None;
    }
    let mut depth = 0usize;
    let mut k = close;
    let paren = loop {
        match word(k) {
            ")" => depth += 1,
            "(" => {
                depth -= 1;
                if depth == 0 {
                    break k;
                }
            }
            _ => {}
        }
        k = k.checked_sub(1)?;
    };
    let name = paren.checked_sub(1)?;
    let ty = name.checked_sub(1)?;
    let keyword = matches!(word(name), "if" | "for" | "while" | "switch" | "return");
    if !ident(name) || keyword {
        return None;
    }
    if ident(ty) {
        return Some((name, word(ty)));
    }
    if word(ty) != ">" {
        return None;
    }
    // A template return type: from its name through the closing `>`.
    let mut depth = 0usize;
    let mut k = ty;
    let start = loop {
        match word(k) {
            ">" => depth += 1,
            "<" => {
                depth -= 1;
                if depth == 0 {
                    break k.checked_sub(1).filter(|&n| ident(n))?;
                }
            }
            _ => {}
        }
        k = k.checked_sub(1)?;
    };
    Some((name, &text[toks[start].range.start..toks[ty].range.end]))
}

/// Indices of the tokens directly inside a struct's braces (not inside a method's body).
fn struct_member_tokens(text: &str, toks: &[Token]) -> HashSet<usize> {
    let mut out = HashSet::new();
    // For each open brace: whether it opens a struct.
    let mut stack: Vec<bool> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.text(text) {
            "{" => {
                let opens_struct = (i >= 1 && toks[i - 1].text(text) == "struct")
                    || (i >= 2 && toks[i - 2].text(text) == "struct");
                stack.push(opens_struct);
            }
            "}" => {
                stack.pop();
            }
            _ if stack.last() == Some(&true) => {
                out.insert(i);
            }
            _ => {}
        }
    }
    out
}

/// What is wrong with a semantic (`TEXCOORD0`, `SV_Target9`), if anything.
fn semantic(name: &str) -> Option<Kind> {
    let (base, digits) = semantic_index(name)?;
    // fxc and DXC read the index into 32 bits, wrapping (`TEXCOORD4294967297` is `TEXCOORD1`
    // to both, and to MojoShader after fxc), so the rest of the pipeline agrees with mgfxc; only
    // the render target must be checked on the wrapped value.
    let n = digits.bytes().fold(0u32, |n, d| {
        n.wrapping_mul(10).wrapping_add(u32::from(d - b'0'))
    });
    (base.eq_ignore_ascii_case("SV_Target") && n > 7).then_some(Kind::RenderTarget(n))
}

/// A semantic split into its name and the digits of its index, when it has one.
fn semantic_index(name: &str) -> Option<(&str, &str)> {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    (digits > 0).then(|| name.split_at(name.len() - digits))
}

/// HLSL's own names near the effect types, which DXC takes as they are.
fn builtin(name: &str) -> bool {
    const DIMS: &[&str] = &[
        "1D",
        "1DArray",
        "2D",
        "2DArray",
        "2DMS",
        "2DMSArray",
        "3D",
        "Cube",
        "CubeArray",
    ];
    let modern_texture = [
        "Texture",
        "RWTexture",
        "FeedbackTexture",
        "RasterizerOrderedTexture",
    ]
    .iter()
    .filter_map(|p| name.strip_prefix(p))
    .any(|dim| DIMS.contains(&dim));
    // The sampling intrinsics (`texCUBE`, `tex2Dlod`) when lowering left one in place.
    let tex_intrinsic = name.strip_prefix("tex").is_some_and(|rest| {
        ["1D", "2D", "3D", "CUBE"]
            .iter()
            .any(|d| rest.starts_with(d))
    });
    modern_texture
        || tex_intrinsic
        || types::numeric(name).is_some()
        || types::legacy_sampler(name).is_some()
        || name.ends_with("Buffer")
        || matches!(
            name,
            "SamplerState" | "SamplerComparisonState" | "string" | "void" | "matrix" | "vector"
        )
}

/// The effect type DXC's spelling correction would turn `name` into: within clang's reach of
/// a third of its length in edits (rounded up), letter case ignored.
fn resembles(name: &str) -> Option<&'static str> {
    let reach = name.len().div_ceil(3);
    EFFECT_TYPES
        .iter()
        .filter(|e| e.len().abs_diff(name.len()) <= reach)
        .map(|e| (distance(name, e), *e))
        .filter(|&(d, _)| d <= reach)
        .min_by_key(|&(d, _)| d)
        .map(|(_, e)| e)
}

/// Edit distance, letter case ignored.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<u8>, Vec<u8>) = (a.bytes().collect(), b.bytes().collect());
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

#[cfg(test)]
mod tests {
    use super::*;

    fn hazard(text: &str) -> Option<(&str, &'static str, bool)> {
        find(text).map(|h| match h.kind {
            Kind::EffectType(e) => (h.name, e, true),
            Kind::LookAlike(e) => (h.name, e, false),
            other => panic!("{other:?} in {text}"),
        })
    }

    #[test]
    fn effect_types_and_names_dxc_would_correct_to_one() {
        for (text, want) in [
            (
                "float f(float x) { return (Texture)x; }",
                ("Texture", "texture", true),
            ),
            (
                "struct S { float a; BlendState b; };",
                ("BlendState", "BlendState", true),
            ),
            (
                "float f() { VertexShader v[2]; return 0; }",
                ("VertexShader", "VertexShader", true),
            ),
            (
                "float f(blendstate b) { return 0; }",
                ("blendstate", "BlendState", true),
            ),
            (
                "struct S { float a; blendstate b; };",
                ("blendstate", "BlendState", true),
            ),
            (
                "float f(float x) { return (PixelShader)x; }",
                ("PixelShader", "PixelShader", true),
            ),
            (
                "float f() { return VertexShader(1); }",
                ("VertexShader", "VertexShader", true),
            ),
            (
                "float4 PS(Textur2D tex) : COLOR0 { return 0; }",
                ("Textur2D", "texture2D", false),
            ),
            (
                "float4 PS(VertexShaderOutpt i) : COLOR0 { return 0; }",
                ("VertexShaderOutpt", "VertexShader", false),
            ),
            (
                "struct S { float a; Textre b; };",
                ("Textre", "texture", false),
            ),
            ("Textre g[3];", ("Textre", "texture", false)),
        ] {
            assert_eq!(hazard(text), Some(want), "{text}");
        }
    }

    #[test]
    fn declared_and_builtin_names_pass() {
        for ok in [
            "Texture2D Diffuse; TextureCube Sky; Texture2DArray A; RWTexture2D<float4> O;",
            "SamplerState S; sampler2D T; StructuredBuffer<float> B; float4x4 M;",
            "struct VertexShaderOutput { float4 Position : POSITION; float2 TextureCoordinates : TEXCOORD0; };\n\
             float4 PixelShaderFunction(VertexShaderOutput input) : COLOR0 { return input.TextureCoordinates.xyxy; }",
            "struct BlendState { float a; }; float f(BlendState b) { return b.a; }",
            "float f() { float texture0 = 1, textures = 2; return texture0 + textures; }",
            "float VertexShader(float x) { return x; } float g() { return VertexShader(1); }",
            "float4 f(float4 p : TEXTURE0) : COLOR0 { return p; }",
        ] {
            assert_eq!(hazard(ok), None, "{ok}");
        }
    }

    #[test]
    fn dxc_spellings_pass_where_dxc_ignores_them() {
        // DXC 1.8 drops these declarations ("effect object ignored") and compiles the rest.
        for ok in [
            "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { BlendState b; VertexShader v, w; texture t; return 0; }",
            "BlendState F(); PixelShader G(float x);",
            "VertexShader Shaders; typedef RasterizerState R; cbuffer C { DepthStencilView d; };",
            "float4 F(BlendState b, float2 uv);",
            // A struct method's local is a local.
            "struct S { float f() { BlendState b; return 1; } };",
        ] {
            assert_eq!(hazard(ok), None, "{ok}");
        }
    }

    #[test]
    fn semantic_indices() {
        fn kind(text: &str) -> Option<(&str, Kind)> {
            find(text).map(|h| (h.name, h.kind))
        }
        assert_eq!(
            kind("float4 PS() : SV_Target8 { return 0; }"),
            Some(("SV_Target8", Kind::RenderTarget(8)))
        );
        // The 46-digit index that crashed DXC: above 7 once read into 32 bits, as fxc reads it.
        let huge = format!("SV_Target{}0", "2".repeat(45));
        assert_eq!(
            kind(&format!("float4 PS() : {huge} {{ return 0; }}")).map(|k| k.1),
            Some(Kind::RenderTarget(2_386_092_940))
        );
        assert_eq!(
            kind("float4 PS() : SV_Target4294967297 { return 0; }").map(|k| k.1),
            None,
            "render target 1, to fxc as to DXC"
        );
        for ok in [
            "float4 PS(float4 c : COLOR0, float2 uv : TEXCOORD15) : SV_Target7 { return c; }",
            "struct V { float4 p : POSITION0; float2 uv : TEXCOORD4294967295; };",
            "struct V { float2 uv : TEXCOORD4294967296; };",
            "float f(bool c, float a, float b2) { return c ? a : b2; }",
        ] {
            assert_eq!(find(ok), None, "{ok}");
        }
    }

    #[test]
    fn valueless_returns_in_functions_that_return_a_value() {
        fn returns(text: &str) -> Option<(&str, String)> {
            find(text).map(|h| match h.kind {
                Kind::ValuelessReturn(t) => (h.name, t),
                other => panic!("{other:?} in {text}"),
            })
        }
        for (text, want) in [
            ("float4 F(float2 uv) { return; }", ("F", "float4")),
            (
                "float4 PS(float2 uv : TEXCOORD0) : SV_Target0 { if (uv.x > 0) { return; } return 1; }",
                ("PS", "float4"),
            ),
            ("struct S { float a; }; S Make() { return ; }", ("Make", "S")),
            (
                "vector<float, 2> G(float x) { for (int i = 0; i < 2; i++) { return; } return x; }",
                ("G", "vector<float, 2>"),
            ),
        ] {
            assert_eq!(returns(text), Some((want.0, want.1.to_string())), "{text}");
        }
        for ok in [
            "void F(inout float4 c) { c = 1; return; }",
            "void F(float x) { if (x > 0) { return; } }",
            "float4 F() { return 1; } static const float4 K[2] = { 1, 2 };",
            "struct S { void Reset() { return; } float a; };",
        ] {
            assert_eq!(find(ok), None, "{ok}");
        }
    }

    #[test]
    fn argumentless_templates_where_a_value_belongs() {
        fn kind(text: &str) -> Option<(&str, Kind)> {
            find(text).map(|h| (h.name, h.kind))
        }
        for (text, name) in [
            ("float4 F(float4 t) { return t * Texture2D; }", "Texture2D"),
            ("float4 F(float4 t) { return Texture3D * t; }", "Texture3D"),
            ("float4 F(float4 t) { return G(Buffer, t); }", "Buffer"),
            ("float4 F(float4 t) { t += vector; return t; }", "vector"),
            ("float4 F(float4 t) { return max(t.x, matrix); }", "matrix"),
        ] {
            assert_eq!(kind(text), Some((name, Kind::TypeAsValue)), "{text}");
        }
        for ok in [
            // Declarations, template arguments, members and casts are types in their place.
            "Texture2D Diffuse; TextureCube<float4> Sky; Buffer<float> B;",
            "float4 F(Texture2D t, SamplerState s, float2 uv) { Texture2D u = t; return u.Sample(s, uv); }",
            "float4 F(float4 t) { vector<float, 4> v = t; matrix m = 0; return mul(v, m); }",
            "float4 F(float4 t) { return (vector)t; }",
            // Outside a function body (an unnamed parameter of a prototype).
            "float4 F(Texture2D, float2 uv);",
        ] {
            assert_eq!(find(ok), None, "{ok}");
        }
    }

    #[test]
    fn clang_reach() {
        assert_eq!(resembles("Textre"), Some("texture"));
        assert_eq!(resembles("VSOutput"), None);
        assert_eq!(resembles("Light"), None);
        assert_eq!(resembles("tex2D"), None);
        assert!(builtin("texCUBE") && builtin("tex2Dlod") && builtin("TextureCube"));
        // A long name is compared only when its length is within reach.
        assert_eq!(resembles(&"x".repeat(100_000)), None);
    }
}
