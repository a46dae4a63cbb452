//! Doc-comment text and literals for generated items: HLSL type names, stage lists, default
//! values, source locations. Everything user-supplied is put inside backticks with backticks
//! removed, so rustdoc never reads it as markdown or an intra-doc link.

use std::path::Path;

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use shadowdusk_mgfx::ShaderStage;

use super::model::{Scalar, Shape, ValueParam};
use crate::reflect::ParameterInfo;

/// Inline code: `text` with backticks and line breaks neutralised.
pub(crate) fn code(text: &str) -> String {
    let flat: Vec<&str> = text.split_whitespace().collect();
    format!("`{}`", flat.join(" ").replace('`', "'"))
}

/// `vertex`/`pixel`.
pub(crate) fn stage_word(stage: ShaderStage) -> &'static str {
    match stage {
        ShaderStage::Vertex => "vertex",
        ShaderStage::Pixel => "pixel",
    }
}

/// "vertex shaders 1, 3 and pixel shader 0" style list, in the given order grouped by stage.
pub(crate) fn shader_list(shaders: &[(usize, ShaderStage)]) -> String {
    let mut parts = Vec::new();
    for stage in [ShaderStage::Vertex, ShaderStage::Pixel] {
        let ids: Vec<String> = shaders
            .iter()
            .filter(|(_, s)| *s == stage)
            .map(|(i, _)| i.to_string())
            .collect();
        match ids.len() {
            0 => {}
            1 => parts.push(format!("{} shader {}", stage_word(stage), ids[0])),
            _ => parts.push(format!("{} shaders {}", stage_word(stage), ids.join(", "))),
        }
    }
    if parts.is_empty() {
        "no shader".to_string()
    } else {
        parts.join(" and ")
    }
}

/// The HLSL type as declared: `float4`, `float4x3`, `int`, `bool2`, with `[N]` for arrays.
pub(crate) fn hlsl_type(v: &ValueParam) -> String {
    let base = match v.scalar {
        Scalar::Float => "float",
        Scalar::Int => "int",
        Scalar::Bool => "bool",
    };
    let ty = match v.shape {
        Shape::Scalar => base.to_string(),
        Shape::Vector(n) => format!("{base}{n}"),
        Shape::Matrix { rows, columns } => format!("{base}{rows}x{columns}"),
    };
    match v.array {
        Some(n) => format!("{ty}[{n}]"),
        None => ty,
    }
}

/// One f32 bit pattern as Rust source (`1.5`, `-0.0`, `f32::INFINITY`…) for doc text.
pub(crate) fn float_text(bits: u32) -> String {
    let f = f32::from_bits(bits);
    if f.is_finite() {
        let s = format!("{f:?}");
        if s.contains('.') || s.contains('e') {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        format!("f32::from_bits({bits:#010x})")
    }
}

/// One f32 bit pattern as a token: an unsuffixed literal (with a leading `-` token when
/// negative, so `-0.0` keeps its sign) or `f32::from_bits(..)` for NaN and infinities.
pub(crate) fn float_tokens(bits: u32) -> TokenStream {
    let f = f32::from_bits(bits);
    if !f.is_finite() {
        let lit = Literal::u32_suffixed(bits);
        return quote!(f32::from_bits(#lit));
    }
    let lit = Literal::f32_unsuffixed(f.abs());
    if f.is_sign_negative() {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

/// One value's MGFX data as the Rust value the getter returns, for doc text.
pub(crate) fn value_text(v: &ValueParam, data: &[u32]) -> String {
    let lane = |bits: u32| -> String {
        let f = f32::from_bits(bits);
        match v.scalar {
            Scalar::Float => float_text(bits),
            Scalar::Int => format!("{}", f as i32),
            Scalar::Bool => format!("{}", f != 0.0),
        }
    };
    match v.shape {
        Shape::Scalar => data.first().map_or_else(String::new, |b| lane(*b)),
        Shape::Vector(_) => format!(
            "[{}]",
            data.iter().map(|b| lane(*b)).collect::<Vec<_>>().join(", ")
        ),
        Shape::Matrix { rows, columns } => {
            // Rows of the HLSL matrix: data is column by column (§6.2).
            let rows_text: Vec<String> = (0..rows)
                .map(|r| {
                    let row: Vec<String> = (0..columns)
                        .map(|c| lane(data.get(c * rows + r).copied().unwrap_or(0)))
                        .collect();
                    format!("[{}]", row.join(", "))
                })
                .collect();
            format!("[{}]", rows_text.join(", "))
        }
    }
}

/// The default line of a parameter's docs.
pub(crate) fn default_text(v: &ValueParam) -> String {
    let all_zero = v.data.iter().all(|d| d.iter().all(|b| *b == 0));
    if all_zero {
        return "all zero".to_string();
    }
    match v.array {
        None => code(&value_text(v, &v.data[0])),
        Some(_) => {
            const SHOWN: usize = 8;
            let mut parts: Vec<String> = v
                .data
                .iter()
                .take(SHOWN)
                .map(|d| value_text(v, d))
                .collect();
            if v.data.len() > SHOWN {
                parts.push(format!("… {} more", v.data.len() - SHOWN));
            }
            code(&format!("[{}]", parts.join(", ")))
        }
    }
}

/// "`float4 Tint = …` (`shaders/tint.fx:3`)" from the reflection, or the MGFX type alone.
pub(crate) fn declaration_text(
    v: &ValueParam,
    info: Option<&ParameterInfo>,
    base: &Path,
) -> String {
    let Some(info) = info else {
        return code(&format!("{} {}", hlsl_type(v), v.name));
    };
    let decl = if info.declaration.trim().is_empty() {
        format!("{} {}", hlsl_type(v), v.name)
    } else {
        info.declaration.clone()
    };
    let mut out = code(&decl);
    if let Some(loc) = &info.location {
        out.push_str(&format!(" ({})", location_text(&loc.file, loc.line, base)));
    }
    if let Some(cb) = &info.cbuffer {
        out.push_str(&format!(", in cbuffer {}", code(cb)));
    }
    out
}

/// `file:line`, the file relative to `base` when it is inside it.
pub(crate) fn location_text(file: &Path, line: u32, base: &Path) -> String {
    let shown = file.strip_prefix(base).unwrap_or(file);
    code(&format!(
        "{}:{line}",
        shown.to_string_lossy().replace('\\', "/")
    ))
}
