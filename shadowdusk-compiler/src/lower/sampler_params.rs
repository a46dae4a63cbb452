//! Legacy samplers passed to functions: `float4 Blur(sampler2D s, float2 uv)`,
//! `float noise(float3 p, uniform sampler3D n)`, and FXAA 3.11's `FxaaTex` (a `sampler2D` under
//! `FXAA_HLSL_3`) handed down through several calls.
//!
//! DXC takes resources as function parameters and inlines them, but it has no legacy samplers.
//! So each such parameter becomes a pair, `Texture2D __sd_tex_s, SamplerState s`, every `tex*`
//! call on it in the function's body reads that texture (see [`ParamSampler`] and
//! `emit::find_calls`), and every call of the function passes the texture of its sampler argument
//! in front of it: a global legacy sampler's texture, or the enclosing function's own pair. The
//! rewrite is local to each call, so chains of any depth work, as do calls with different
//! samplers.
//!
//! Refused (FX0012): a sampler argument that is not the name of a legacy sampler (an expression,
//! an array element) — no texture could be paired with it.

use std::collections::BTreeMap;
use std::ops::Range;

use super::emit::{calls_of, Edits, LegacyPair};
use super::intrinsics;
use super::sampler_aliases::Locals;
use super::samplers::{lowered_type, SYNTH_PREFIX};
use crate::diag::{Code, Diagnostic};
use crate::effect::lexer::Token;
use crate::effect::types::legacy_sampler;
use crate::effect::{Dim, ParsedEffect};
use crate::source::SourceMap;

/// A legacy sampler parameter of a function.
#[derive(Clone, Debug)]
pub struct ParamSampler {
    /// The parameter's name.
    pub name: String,
    /// Its dimension: declared, else from the `tex*` calls on it, else 2D.
    pub dim: Dim,
    /// The body of the function it belongs to (its scope).
    pub body: Range<usize>,
}

impl ParamSampler {
    /// The texture half of the pair.
    pub fn texture(&self) -> String {
        format!("{SYNTH_PREFIX}{}", self.name)
    }
}

/// Every legacy sampler parameter, with each parameter declaration rewritten into a pair.
pub fn params(
    parsed: &ParsedEffect,
    src: &str,
    toks: &[Token],
    edits: &mut Edits,
) -> Vec<ParamSampler> {
    let mut out = Vec::new();
    for f in &parsed.ast.functions {
        for p in &f.params {
            let Some(declared) = legacy_sampler(&p.ty) else {
                continue;
            };
            let dim = declared
                .or_else(|| dim_from_calls(src, toks, &p.name, f.body.clone()))
                .unwrap_or(Dim::D2);
            let param = ParamSampler {
                name: p.name.clone(),
                dim,
                body: f.body.clone(),
            };
            // `uniform` and `in` mean nothing for a resource; the pair replaces the whole text.
            edits.replace(
                p.range.clone(),
                format!(
                    "{} {}, SamplerState {}",
                    lowered_type(dim),
                    param.texture(),
                    p.name
                ),
            );
            out.push(param);
        }
    }
    out
}

/// The dimension of the first `tex*` call on `name` inside `body`.
fn dim_from_calls(src: &str, toks: &[Token], name: &str, body: Range<usize>) -> Option<Dim> {
    toks.windows(3)
        .filter(|w| w[0].range.start >= body.start && w[2].range.end <= body.end)
        .find(|w| w[1].text(src) == "(" && w[2].text(src) == name)
        .and_then(|w| intrinsics::find(w[0].text(src)))
        .map(|i| i.dim)
}

/// The sampler parameter `name` in scope at `pos`, if any.
pub fn in_scope<'p>(
    params: &'p [ParamSampler],
    name: &str,
    pos: usize,
) -> Option<&'p ParamSampler> {
    params
        .iter()
        .find(|p| p.name == name && p.body.contains(&pos))
}

/// Positions and dimensions of a function's sampler parameters.
type Positions = Vec<(usize, Dim)>;

/// A sampler handed to a function that takes legacy samplers.
#[derive(Clone, Debug)]
pub struct SamplerArg {
    /// Where the argument starts (the texture is inserted in front of it).
    pub at: usize,
    /// The texture to pass: the enclosing function's pair, or `None` for a global sampler
    /// (whose texture is known once the global samplers are planned).
    pub param_texture: Option<String>,
    /// The argument, a sampler name.
    pub name: String,
}

/// The sampler names a function body can use besides the globals.
#[derive(Clone, Copy)]
pub struct Names<'a> {
    /// Sampler parameters.
    pub params: &'a [ParamSampler],
    /// Local sampler variables.
    pub locals: &'a Locals,
    /// Whether the effect declares a name at all.
    pub declared: &'a dyn Fn(&str) -> bool,
}

/// Finds every sampler argument of a call to a function that takes legacy samplers. Global
/// samplers passed this way record the dimension they are used with in `uses` (a plain
/// `sampler` has none of its own).
pub fn arguments(
    parsed: &ParsedEffect,
    src: &str,
    toks: &[Token],
    map: &SourceMap,
    names: Names<'_>,
    globals: &dyn Fn(&str) -> bool,
    uses: &mut BTreeMap<String, (Dim, Range<usize>)>,
) -> Result<Vec<SamplerArg>, Box<Diagnostic>> {
    // Function name → for each overload, its arity and its sampler positions.
    let mut takers: BTreeMap<&str, Vec<(usize, Positions)>> = BTreeMap::new();
    for f in &parsed.ast.functions {
        let positions: Positions = f
            .params
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                legacy_sampler(&p.ty)?;
                Some((i, in_scope(names.params, &p.name, f.body.start)?.dim))
            })
            .collect();
        if !positions.is_empty() {
            takers
                .entry(f.name.as_str())
                .or_default()
                .push((f.params.len(), positions));
        }
    }
    let mut out = Vec::new();
    for (i, args, positions) in calls_of(parsed, src, toks, &takers) {
        let t = &toks[i];
        for &(k, dim) in positions {
            let arg = &args[k];
            let name = names.locals.resolve(src[arg.clone()].trim(), arg.start);
            let param_texture = match in_scope(names.params, name, arg.start) {
                Some(p) => Some(p.texture()),
                None if globals(name) => {
                    uses.entry(name.to_string())
                        .or_insert((dim, arg.clone()));
                    None
                }
                None if !(names.declared)(name) => {
                    return Err(Box::new(super::emit::undeclared(
                        t.text(src),
                        name,
                        map.span(arg.clone()),
                    )))
                }
                None => {
                    return Err(Box::new(
                        Diagnostic::error(
                            Code::FX0012,
                            format!(
                                "`{}` takes a sampler here, but `{name}` is not the name of a sampler",
                                t.text(src)
                            ),
                        )
                        .at_opt(map.span(arg.clone()))
                        .with_help("pass a global `sampler`/`sampler2D`/… or a sampler parameter of the calling function"),
                    ))
                }
            };
            out.push(SamplerArg {
                at: arg.start,
                param_texture,
                name: name.to_string(),
            });
        }
    }
    Ok(out)
}

/// Inserts each argument's texture in front of it.
pub fn pass_textures(args: &[SamplerArg], pairs: &BTreeMap<String, LegacyPair>, edits: &mut Edits) {
    for a in args {
        let texture = match &a.param_texture {
            Some(t) => t.as_str(),
            None => pairs
                .get(&a.name)
                .map_or(a.name.as_str(), |p| p.texture.as_str()),
        };
        edits.insert(a.at, format!("{texture}, "));
    }
}
