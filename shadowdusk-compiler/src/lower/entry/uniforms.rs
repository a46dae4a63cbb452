//! `uniform` entry parameters the `compile` statement leaves without a literal: constants the
//! application sets, as under fxc, each carried by a generated global.

use super::ENTRY_UNIFORM_PREFIX;
use crate::diag::{Code, Diagnostic};
use crate::effect::{Function, Param, ParamSite, ShaderRef};
use crate::lower::object_params;
use crate::source::SourceMap;

/// An unbound `uniform` entry parameter, passed to the user's function from a global.
pub(super) struct EntryUniform {
    /// The parameter's name.
    pub(super) param: String,
    /// The global that carries it in the lowered text.
    pub(super) carrier: String,
    /// `uniform float __sd_arg_x;` (MonoGame uploads every register as floats, so integer and
    /// bool parameters travel as floats and are converted at the call).
    pub(super) declaration: String,
    /// What the wrapper passes: the carrier, converted to the parameter's type.
    pub(super) argument: String,
}

/// The `uniform` parameters of `f` past the `compile` statement's literals; each becomes an
/// effect parameter `$name`. Refuses (FX0003) one whose type no effect parameter has here.
pub(super) fn unbound(
    src: &str,
    f: &Function,
    sites: &[ParamSite],
    shader: &ShaderRef,
    map: &SourceMap,
) -> Result<Vec<EntryUniform>, Box<Diagnostic>> {
    f.params
        .iter()
        .zip(sites)
        .filter(|(p, _)| p.qualifier == "uniform")
        .skip(shader.args.len())
        .filter(|(p, _)| !object_params::removed(p))
        .map(|(p, site)| entry_uniform(src, p, site, f, shader, map))
        .collect()
}

/// The carrier of one unbound parameter, or the refusal when its type cannot be one.
fn entry_uniform(
    src: &str,
    p: &Param,
    site: &ParamSite,
    f: &Function,
    shader: &ShaderRef,
    map: &SourceMap,
) -> Result<EntryUniform, Box<Diagnostic>> {
    let ty = crate::effect::types::numeric(p.ty.trim());
    let array = src[site.name_range.end..].trim_start().starts_with('[');
    let non_square = |t: &crate::effect::HlslType| t.is_matrix && t.rows != t.columns;
    let Some(t) = ty.filter(|t| !array && !non_square(t)) else {
        return Err(Box::new(
            Diagnostic::error(
                Code::FX0003,
                format!(
                    "`uniform` parameter `{}` of `{}` gets no value from the `compile` statement, and its type `{}` cannot be an effect parameter here",
                    p.name, f.name, p.ty
                ),
            )
            .at_opt(map.span(p.range.clone()))
            .with_note(format!(
                "`{}` is compiled from a `compile` statement that passes {} argument(s)",
                f.name,
                shader.args.len()
            ))
            .with_help("pass a literal for it, e.g. `compile ps_3_0 PS(true)`, or make it a global variable"),
        ));
    };
    let shape = if t.is_matrix {
        format!("{}x{}", t.rows, t.columns)
    } else if t.is_vector {
        t.columns.to_string()
    } else {
        String::new()
    };
    let carrier = format!("{ENTRY_UNIFORM_PREFIX}{}", p.name);
    let argument = if t.base == "float" {
        carrier.clone()
    } else {
        format!("(({}){carrier})", p.ty.trim())
    };
    Ok(EntryUniform {
        param: p.name.clone(),
        declaration: format!("uniform float{shape} {carrier};\n"),
        carrier,
        argument,
    })
}
