//! Declaration-level rewrites: register clauses (fx-pipeline.md §4.1 item 6) and integer/bool
//! uniforms carried as floats.
//!
//! Registers: `register(cN)` means nothing to SPIR-V and is dropped; a stage-qualified
//! `register(vs, X)` / `register(ps, X)` keeps `register(X)` when compiling that stage and is
//! dropped for the other; `tN`/`sN`/`bN`/`uN` stay.
//!
//! Integer uniforms: MonoGame uploads every register as float, so `int Count;` is declared as
//! `float __sd_u_Count;` (same footprint) and followed, on the same line, by
//! `static const int Count = (int)__sd_u_Count;` (bools: `!= 0`); function bodies keep using
//! `Count`. Uniform initializers are blanked (their values are MGFX defaults; DXC ignores
//! them with a warning). Arrays are carried the same way (`float __sd_u_Order[3];`), but GLSL
//! 1.10 has no array constructors, so instead of a static copy every indexed use is converted
//! in place: `Order[i]` → `((int)__sd_u_Order[i])`, `Enabled[i]` → `(__sd_u_Enabled[i] != 0)`.
//! An integer array used without an index (passed whole to a function) is refused (FX0012).
//!
//! Interpolation: `nointerpolation` is dropped (SM2/3 and MojoShader interpolate every varying).

mod non_square;

use super::emit::Edits;
use super::scope::Scopes;
use super::{RetypedUniform, Stage};
use crate::diag::{Code, Diagnostic};
use crate::effect::lexer::{Token, TokenKind};
use crate::effect::ParsedEffect;
use crate::source::SourceMap;
pub use non_square::{non_square_uniforms, MATRIX_CARRIER_PREFIX};

/// Prefix of float carriers of integer uniforms.
pub const CARRIER_PREFIX: &str = "__sd_u_";

/// Drops `nointerpolation`. Shader Model 2/3 has no constant interpolation for a texture
/// coordinate or color register and MojoShader's GLSL declares every varying plainly, so under
/// mgfxc such a varying is interpolated (equal to the flat value whenever the value is the same
/// at every vertex of the primitive); DXC would make it `flat`, which GLSL 1.10 lacks.
pub fn interpolation_modifiers(src: &str, toks: &[Token], edits: &mut Edits) {
    for t in toks {
        if t.kind == TokenKind::Ident && t.text(src) == "nointerpolation" {
            edits.replace(t.range.clone(), "");
        }
    }
}

/// Adds the register-clause edits for `stage`.
pub fn registers(src: &str, toks: &[Token], stage: Stage, edits: &mut Edits) {
    let text = |i: usize| toks.get(i).map(|t| t.text(src)).unwrap_or("");
    for i in 0..toks.len() {
        if text(i) != ":" || text(i + 1) != "register" || text(i + 2) != "(" {
            continue;
        }
        let Some(close) = (i + 3..toks.len()).find(|&j| text(j) == ")") else {
            continue;
        };
        let args: Vec<&str> = (i + 3..close).map(text).collect();
        let whole = toks[i].range.start..toks[close].range.end;
        let (stage_arg, reg) = match args.as_slice() {
            [r] => (None, *r),
            [s, ",", r] if toks[i + 3].kind == TokenKind::Ident => {
                (Some(s.to_ascii_lowercase()), *r)
            }
            // `register(s0, space1)` and other forms are left to DXC.
            _ => continue,
        };
        let is_const = reg.starts_with(['c', 'C']);
        let wrong_stage = match stage_arg.as_deref() {
            Some("vs") => stage != Stage::Vertex,
            Some("ps") => stage != Stage::Pixel,
            Some(_) => false,
            None => false,
        };
        if is_const || wrong_stage {
            edits.replace(whole, "");
        } else if stage_arg.is_some() {
            edits.replace(whole, format!(": register({reg})"));
        }
    }
}

/// Blanks uniform initializers: their values already went into the AST (the MGFX parameter
/// default), and DXC would only warn that it ignores them.
pub fn uniform_initializers(parsed: &ParsedEffect, edits: &mut Edits) {
    for site in &parsed.sites.globals {
        if let Some(r) = &site.init_range {
            let blank: String = parsed.stripped[r.clone()]
                .chars()
                .map(|c| if c == '\n' || c == '\r' { c } else { ' ' })
                .collect();
            edits.replace(r.clone(), blank);
        }
    }
}

/// Effect-style texture types (`texture`, `texture2D`, `textureCUBE`, ...) on function
/// parameters and struct members become the HLSL types their global declarations are lowered
/// to (`Texture2D`, `TextureCube`): fxc takes them there, and DXC 1.8 crashes on the effect
/// types anywhere but a global declaration.
pub fn legacy_texture_types(parsed: &ParsedEffect, src: &str, toks: &[Token], edits: &mut Edits) {
    let ranges: Vec<std::ops::Range<usize>> = parsed
        .ast
        .functions
        .iter()
        .flat_map(|f| f.params.iter().map(|p| p.range.clone()))
        .chain(parsed.ast.structs.iter().map(|s| s.range.clone()))
        .collect();
    for (i, t) in toks.iter().enumerate() {
        let declares = toks
            .get(i + 1)
            .is_some_and(|n| n.kind == TokenKind::Ident);
        let inside = || ranges.iter().any(|r| r.contains(&t.range.start));
        if t.kind != TokenKind::Ident || !declares || !inside() {
            continue;
        }
        if let Some((dim, true)) = crate::effect::types::texture_keyword(t.text(src)) {
            edits.replace(t.range.clone(), super::samplers::lowered_type(dim));
        }
    }
}

/// Adds the float-carrier edits for integer and bool uniforms; returns what was retyped.
pub fn integer_uniforms(
    parsed: &ParsedEffect,
    toks: &[Token],
    scopes: &Scopes,
    map: &SourceMap,
    edits: &mut Edits,
) -> Result<Vec<RetypedUniform>, Box<Diagnostic>> {
    let src = parsed.stripped.as_str();
    let mut out = Vec::new();
    for (g, site) in parsed.ast.globals.iter().zip(&parsed.sites.globals) {
        let base = g.ty.base.as_str();
        if !matches!(
            base,
            "int" | "uint" | "bool" | "min16int" | "min12int" | "min16uint"
        ) {
            continue;
        }
        let shape = if g.ty.is_matrix {
            format!("{}x{}", g.ty.rows, g.ty.columns)
        } else if g.ty.is_vector {
            g.ty.columns.to_string()
        } else {
            String::new()
        };
        let carrier = format!("{CARRIER_PREFIX}{}", g.name);
        edits.replace(site.ty_range.clone(), format!("float{shape}"));
        edits.replace(g.range.clone(), carrier.clone());
        let (open, close) = if base == "bool" {
            (format!("({carrier}"), " != 0)".to_string())
        } else {
            (format!("(({base}{shape}){carrier}"), ")".to_string())
        };
        if g.ty.array.is_none() {
            // Written by shader code (`Count += 1;`, a per-invocation copy to fxc): not `const`.
            let constness = if written_in_bodies(parsed, src, toks, scopes, &g.name) {
                ""
            } else {
                "const "
            };
            edits.insert(
                site.stmt_end,
                format!(" static {constness}{base}{shape} {} = {open}{close};", g.name),
            );
        } else {
            for (name, index_end) in indexed_uses(src, toks, scopes, &g.name, &g.range) {
                let Some(end) = index_end else {
                    return Err(Box::new(
                        Diagnostic::error(
                            Code::FX0012,
                            format!(
                                "`{}` is a {base} array, which the OpenGL profile carries as floats; it can only be read element by element",
                                g.name
                            ),
                        )
                        .at_opt(map.span(name.clone()))
                        .with_help(format!("index it here (`{}[i]`), or declare it as a float array", g.name)),
                    ));
                };
                edits.replace(name, open.clone());
                edits.insert(end, close.clone());
            }
        }
        out.push(RetypedUniform {
            name: g.name.clone(),
            carrier,
        });
    }
    Ok(out)
}

/// Uses of the global `name` outside its declaration: the name's range and the end of the
/// `[...]` that follows it (`None` when it is not indexed). Member accesses (`x.name`) are
/// not uses.
fn indexed_uses(
    src: &str,
    toks: &[Token],
    scopes: &Scopes,
    name: &str,
    decl: &std::ops::Range<usize>,
) -> Vec<(std::ops::Range<usize>, Option<usize>)> {
    let text = |i: usize| toks.get(i).map(|t| t.text(src)).unwrap_or("");
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != TokenKind::Ident
            || t.range == *decl
            || t.text(src) != name
            || scopes.shadowed(name, t.range.start)
        {
            continue;
        }
        if i > 0 && text(i - 1) == "." {
            continue;
        }
        let mut end = None;
        if text(i + 1) == "[" {
            let mut depth = 0usize;
            for (j, u) in toks.iter().enumerate().skip(i + 1) {
                match text(j) {
                    "[" => depth += 1,
                    "]" => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(u.range.end);
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        out.push((t.range.clone(), end));
    }
    out
}

/// Prefix of the per-invocation copies of uniforms the shader code writes to.
pub const MUTABLE_PREFIX: &str = "__sd_mut_";

/// Uniforms written by shader code (`Amount = saturate(Amount);`, `Tint.a *= 0.5;`,
/// `Offsets[1] = 0;`): fxc compiles the write to a per-invocation copy of the constant, DXC
/// refuses to write a uniform. Each such uniform gets a `static` copy initialised from it
/// (an array element by element, the reads SPIRV-Cross can flatten), declared on its line, and
/// every use inside function bodies reads and writes the copy; the uniform and its register are
/// untouched. Integer uniforms are left alone (their carriers are already copies, made writable
/// by `integer_uniforms` when written), and so are arrays of non-square matrices (read through
/// their registers).
pub fn written_uniforms(
    parsed: &ParsedEffect,
    src: &str,
    toks: &[Token],
    scopes: &Scopes,
    edits: &mut Edits,
) {
    for (g, site) in parsed.ast.globals.iter().zip(&parsed.sites.globals) {
        let non_square = g.ty.is_matrix && g.ty.rows != g.ty.columns;
        if !float_based(&g.ty) || (g.ty.array.is_some() && non_square) {
            continue;
        }
        if !written_in_bodies(parsed, src, toks, scopes, &g.name) {
            continue;
        }
        let found = body_uses(parsed, src, toks, scopes, &g.name);
        let copy = format!("{MUTABLE_PREFIX}{}", g.name);
        let ty = element_type(&g.ty);
        let declaration = match g.ty.array {
            None => format!(" static {ty} {copy} = {};", g.name),
            Some(n) => {
                let elements: Vec<String> = (0..n).map(|k| format!("{}[{k}]", g.name)).collect();
                format!(" static {ty} {copy}[{n}] = {{ {} }};", elements.join(", "))
            }
        };
        edits.insert(site.stmt_end, declaration);
        for i in found {
            edits.replace(toks[i].range.clone(), copy.clone());
        }
    }
}

/// Whether code inside a function body assigns to (or increments) the global `name`, whole or
/// in part.
fn written_in_bodies(
    parsed: &ParsedEffect,
    src: &str,
    toks: &[Token],
    scopes: &Scopes,
    name: &str,
) -> bool {
    let text = |i: usize| toks.get(i).map(|t| t.text(src)).unwrap_or("");
    body_uses(parsed, src, toks, scopes, name)
        .into_iter()
        .any(|i| is_written(&text, i))
}

/// Token indices of the uses of `name` inside function bodies (not member accesses `x.name`).
fn body_uses(
    parsed: &ParsedEffect,
    src: &str,
    toks: &[Token],
    scopes: &Scopes,
    name: &str,
) -> Vec<usize> {
    let in_body = |at: usize| parsed.ast.functions.iter().any(|f| f.body.contains(&at));
    (0..toks.len())
        .filter(|&i| {
            toks[i].kind == TokenKind::Ident
                && toks[i].text(src) == name
                && in_body(toks[i].range.start)
                && (i == 0 || toks[i - 1].text(src) != ".")
                && !scopes.shadowed(name, toks[i].range.start)
        })
        .collect()
}

/// Whether a uniform is stored as floats (the types these copies apply to).
fn float_based(ty: &crate::effect::HlslType) -> bool {
    matches!(ty.base.as_str(), "float" | "half" | "double") || ty.base.starts_with("min1")
}

/// The HLSL type of one element (`float4x4`, `float3`, `float`).
fn element_type(ty: &crate::effect::HlslType) -> String {
    if ty.is_matrix {
        format!("{}{}x{}", ty.base, ty.rows, ty.columns)
    } else if ty.is_vector {
        format!("{}{}", ty.base, ty.columns)
    } else {
        ty.base.clone()
    }
}

/// Prefix of the copies of uniform arrays that shader code passes whole.
pub const WHOLE_PREFIX: &str = "__sd_whole_";

/// Float uniform arrays passed whole to a function (`Blur(Weights)`): the GLSL the OpenGL
/// profile needs keeps every uniform in one flattened vec4 array, from which SPIRV-Cross can
/// read elements but not a whole array. Such uses read a `static` copy built element by element
/// (`{ Weights[0], Weights[1], … }`, loads SPIRV-Cross can flatten); indexed uses keep reading
/// the uniform. Integer arrays (carried as floats) and non-square matrix arrays (kept as
/// registers) have their own rules.
pub fn whole_uniform_arrays(
    parsed: &ParsedEffect,
    src: &str,
    toks: &[Token],
    scopes: &Scopes,
    edits: &mut Edits,
) {
    let text = |i: usize| toks.get(i).map(|t| t.text(src)).unwrap_or("");
    for (g, site) in parsed.ast.globals.iter().zip(&parsed.sites.globals) {
        let non_square = g.ty.is_matrix && g.ty.rows != g.ty.columns;
        let Some(n) = g.ty.array.filter(|_| float_based(&g.ty) && !non_square) else {
            continue;
        };
        // A written array is read through its writable copy (`written_uniforms`), which is
        // itself a static array that can be passed whole.
        if written_in_bodies(parsed, src, toks, scopes, &g.name) {
            continue;
        }
        let whole: Vec<usize> = body_uses(parsed, src, toks, scopes, &g.name)
            .into_iter()
            .filter(|&i| text(i + 1) != "[")
            .collect();
        if whole.is_empty() {
            continue;
        }
        let copy = format!("{WHOLE_PREFIX}{}", g.name);
        let ty = element_type(&g.ty);
        let elements: Vec<String> = (0..n).map(|k| format!("{}[{k}]", g.name)).collect();
        edits.insert(
            site.stmt_end,
            format!(" static {ty} {copy}[{n}] = {{ {} }};", elements.join(", ")),
        );
        for i in whole {
            edits.replace(toks[i].range.clone(), copy.clone());
        }
    }
}

/// Whether the use at token `i` is assigned: `x = …`, `x op= …`, `x.yz = …`, `x[k] = …`,
/// `x++`, `++x`.
fn is_written<'s>(text: &dyn Fn(usize) -> &'s str, i: usize) -> bool {
    if i >= 2 && matches!((text(i - 2), text(i - 1)), ("+", "+") | ("-", "-")) {
        return true;
    }
    let mut j = i + 1;
    loop {
        match text(j) {
            "." => j += 2,
            "[" => {
                let mut depth = 0;
                while !text(j).is_empty() {
                    match text(j) {
                        "[" => depth += 1,
                        "]" => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                j += 1;
            }
            _ => break,
        }
    }
    match (text(j), text(j + 1)) {
        ("=", next) => next != "=",
        ("+" | "-" | "*" | "/" | "%", "=") => true,
        ("+", "+") | ("-", "-") => true,
        _ => false,
    }
}
