//! Legacy samplers → `Texture* + SamplerState` pairs, effect texture keywords → modern types,
//! and the [`SamplerBinding`] list (fx-pipeline.md §4.1 items 1, 2, 7 and §9.5).
//!
//! Every legacy sampler `S` becomes `SamplerState S` (its register kept). Its texture is the
//! `Texture = <T>` of its state block when `T` is declared, else a synthesized
//! `Texture<dim> __sd_tex_S;` inserted after the declaration (same line). Every declared
//! texture `T` is declared and used under the reserved name `__sd_t_T` ([`rename_textures`]). The dimension is the
//! declared one, or for plain `sampler` the one of the intrinsics used on it (2D if unused).
//! A legacy `texture T;` named by such a sampler takes the sampler's dimension.
//!
//! Refused (FX0012): a texture named by samplers of different dimensions.

use std::collections::BTreeMap;
use std::ops::Range;

use super::emit::{Edits, LegacyPair};
use super::scope::Scopes;
use crate::effect::lexer::Token;
use super::SamplerBinding;
use crate::diag::{Code, Diagnostic};
use crate::effect::types::texture_type;
use crate::effect::{Dim, ParsedEffect, SamplerDecl};
use crate::source::SourceMap;

/// The HLSL texture type a legacy sampler's texture gets. 1D is 2D: MonoGame's GL runtime binds
/// every 1D texture as a 2D one (GLSL ES has no 1D samplers), and mgfxc's shaders sample it at
/// `(x, x)`, which `tex1D*` lowers to (see `intrinsics`).
pub(super) fn lowered_type(dim: Dim) -> &'static str {
    match dim {
        Dim::D1 => texture_type(Dim::D2),
        d => texture_type(d),
    }
}

/// Prefix of synthesized texture names (never used as parameter names).
pub const SYNTH_PREFIX: &str = "__sd_tex_";

/// Prefix of the name a declared texture gets in the lowered text. The user's name may be
/// shadowed where we sample it (a local `float4 diffuseTexture` beside the global texture
/// `diffuseTexture`, whose `tex2D` lowers to a method call on the texture); the reserved name
/// cannot be. Reflection maps it back: the MGFX parameter keeps the user's name.
pub const TEXTURE_PREFIX: &str = "__sd_t_";

/// The lowered name of the declared texture `name`.
pub fn texture_name(name: &str) -> String {
    format!("{TEXTURE_PREFIX}{name}")
}

/// Declares every texture under its reserved name and renames the uses of the global.
pub fn rename_textures(
    parsed: &ParsedEffect,
    src: &str,
    toks: &[Token],
    scopes: &Scopes,
    edits: &mut Edits,
) {
    for t in &parsed.ast.textures {
        let lowered = texture_name(&t.name);
        edits.replace(t.range.clone(), lowered.clone());
        for i in scopes.global_uses(parsed, src, toks, &t.name, &t.range) {
            edits.replace(toks[i].range.clone(), lowered.clone());
        }
    }
}

/// Legacy sampler name → its texture, and every (texture, sampler) binding.
pub type Plan = (BTreeMap<String, LegacyPair>, Vec<SamplerBinding>);

/// Plans the sampler rewrite; adds its edits and returns the legacy pairs and the bindings.
pub fn plan(
    parsed: &ParsedEffect,
    is_legacy: &dyn Fn(&SamplerDecl) -> bool,
    uses: &BTreeMap<String, (Dim, Range<usize>)>,
    map: &SourceMap,
    edits: &mut Edits,
) -> Result<Plan, Box<Diagnostic>> {
    let ast = &parsed.ast;
    let mut pairs = BTreeMap::new();
    let mut bindings = Vec::new();
    // Texture name → (dimension, sampler that decided it).
    let mut texture_dims: BTreeMap<&str, (Dim, &str)> = BTreeMap::new();
    for (order, (s, site)) in ast.samplers.iter().zip(&parsed.sites.samplers).enumerate() {
        if !is_legacy(s) {
            continue;
        }
        let dim = s
            .dim
            .or_else(|| uses.get(&s.name).map(|u| u.0))
            .unwrap_or(Dim::D2);
        edits.replace(site.keyword_range.clone(), "SamplerState");
        let declared = s
            .texture
            .as_deref()
            .filter(|t| ast.textures.iter().any(|x| x.name == *t));
        let texture = match declared {
            Some(t) => {
                if let Some((d0, other)) = texture_dims.get(t) {
                    if *d0 != dim {
                        return Err(Box::new(
                            Diagnostic::error(
                                Code::FX0012,
                                format!(
                                    "texture `{t}` is sampled as {dim:?} by `{}` and as {d0:?} by `{other}`",
                                    s.name
                                ),
                            )
                            .at_opt(map.span(s.range.clone()))
                            .with_help("use one texture per dimension"),
                        ));
                    }
                }
                texture_dims.insert(t, (dim, &s.name));
                texture_name(t)
            }
            None => {
                let name = format!("{SYNTH_PREFIX}{}", s.name);
                edits.insert(site.stmt_end, format!(" {} {name};", lowered_type(dim)));
                name
            }
        };
        pairs.insert(
            s.name.clone(),
            LegacyPair {
                texture: texture.clone(),
            },
        );
        bindings.push(SamplerBinding {
            texture,
            sampler: s.name.clone(),
            parameter: s.texture.clone().unwrap_or_else(|| s.name.clone()),
            dim,
            register: s.register,
            state: s.state,
            order,
        });
    }
    for (t, site) in ast.textures.iter().zip(&parsed.sites.textures) {
        let dim = texture_dims
            .get(t.name.as_str())
            .map(|d| d.0)
            .unwrap_or(t.dim);
        // A 1D texture read through `tex1D` is a 2D one on MonoGame's GL runtime (below).
        let sampled_1d = dim == Dim::D1 && texture_dims.contains_key(t.name.as_str());
        if site.legacy || sampled_1d {
            edits.replace(site.keyword_range.clone(), lowered_type(dim));
        }
    }
    // Textures sampled through `Texture.Sample(sampler, ...)`: any declared texture with any
    // sampler; the dialect stage keeps only the pairs SPIRV-Cross reports.
    for (order, s) in ast.samplers.iter().enumerate() {
        for t in &ast.textures {
            let texture = texture_name(&t.name);
            if bindings
                .iter()
                .any(|b| b.texture == texture && b.sampler == s.name)
            {
                continue;
            }
            let dim = texture_dims
                .get(t.name.as_str())
                .map(|d| d.0)
                .unwrap_or(t.dim);
            bindings.push(SamplerBinding {
                texture,
                sampler: s.name.clone(),
                parameter: t.name.clone(),
                dim,
                register: s.register,
                state: s.state,
                order,
            });
        }
    }
    Ok((pairs, bindings))
}
