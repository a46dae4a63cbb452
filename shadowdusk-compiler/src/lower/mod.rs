//! Stage 3: lowering D3D9-era HLSL so DXC accepts it.
//!
//! Input: the [`ParsedEffect`] (stripped text + AST), one entry point and its stage.
//! Output: [`Lowered`]: HLSL text DXC compiles, an [`OffsetMap`] from lowered offsets back to
//! expanded offsets, and the sampler bindings the later stages need to name, number and bind
//! each sampler.
//!
//! What it does (fx-pipeline.md §4): legacy samplers become `Texture* + SamplerState` pairs;
//! the `tex*` intrinsic families become method calls; `COLORn`/`DEPTH` pixel outputs become
//! `SV_Targetn`/`SV_Depth`; `POSITION` vertex outputs become `SV_Position`; `VPOS`/`VFACE`
//! inputs become system values; stage-qualified registers keep only this stage's binding;
//! `int`/`bool` uniforms are carried as floats (MonoGame uploads every register as float);
//! effect-style texture types on function parameters and struct members become `Texture2D` & co.;
//! `compile ps_2_0 PS(true)` literals are bound through a generated wrapper entry.
//!
//! Edits are computed on the stripped text and applied in one pass; the text keeps its line
//! structure (insertions stay on the line of the code they belong to), except for the wrapper
//! entry, which is appended at the end.
//!
//! Refused: FX0012 (a `tex*` call that cannot be lowered: unknown arity, not on a global legacy
//! sampler, wrong dimension, a plain `sampler` used with two dimensions; `VFACE` in a struct),
//! FX0003 (`compile` literals that do not match the entry's `uniform` parameters), SD0102 (entry
//! not found).

mod declarations;
mod emit;
mod entry;
mod intrinsics;
mod sampler_params;
mod samplers;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Diagnostics};
use crate::effect::lexer::{tokenize, Token, TokenKind};
use crate::effect::{Dim, ParsedEffect, ShaderRef};
use crate::preprocess::Expanded;
use crate::source::{OffsetMap, TextBuilder};
use emit::Edits;
use shadowdusk_mgfx::SamplerState;

pub use declarations::{CARRIER_PREFIX, MATRIX_CARRIER_PREFIX};
pub use entry::WRAPPER;
pub use samplers::SYNTH_PREFIX;

/// The user's name behind a name the lowering generated (an int carrier, a non-square matrix
/// carrier, a synthesized texture): what errors must show.
pub fn user_name(generated: &str) -> &str {
    generated
        .trim_start_matches(CARRIER_PREFIX)
        .trim_start_matches(MATRIX_CARRIER_PREFIX)
        .trim_start_matches(SYNTH_PREFIX)
}

/// Shader stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Stage {
    /// Vertex shader.
    Vertex,
    /// Pixel (fragment) shader.
    Pixel,
}

/// Lowered HLSL for one (entry, stage).
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The entry point to hand DXC (differs from the user's when `compile ps_2_0 PS(args)` needed
    /// a generated wrapper that binds the literal arguments).
    pub entry: String,
    /// HLSL that DXC accepts.
    pub text: String,
    /// Lowered offset → expanded offset.
    pub map: OffsetMap,
    /// Every (texture, sampler) pair the source can sample through, legacy or modern.
    pub samplers: Vec<SamplerBinding>,
    /// Uniforms whose type changed for DXC (e.g. `int Count` carried as `float`), by name.
    pub retyped: Vec<RetypedUniform>,
}

/// How a (texture, sampler) pair in the lowered HLSL maps back to the effect.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerBinding {
    /// Texture object name in the lowered HLSL (SPIRV-Cross reports it as the image name).
    pub texture: String,
    /// `SamplerState` name in the lowered HLSL.
    pub sampler: String,
    /// The MGFX texture parameter this pair reads (fx-pipeline.md §9.5): the `Texture = <T>`
    /// name, else the declared texture, else the legacy sampler's own name.
    pub parameter: String,
    /// Dimension.
    pub dim: Dim,
    /// Explicit `register(sN)` of the sampler, if any.
    pub register: Option<u32>,
    /// Baked sampler state, if the declaration had one.
    pub state: Option<SamplerState>,
    /// Index of the sampler declaration in source order (fxc's allocation order).
    pub order: usize,
}

/// A uniform whose HLSL type was changed for DXC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetypedUniform {
    /// Name of the uniform as the user declared it (the parameter name).
    pub name: String,
    /// Name of the float carrier in the lowered HLSL (what SPIRV-Cross will report).
    pub carrier: String,
}

/// Lowers the parsed effect for one `compile` statement.
pub fn lower(
    expanded: &Expanded,
    parsed: &ParsedEffect,
    shader: &ShaderRef,
    stage: Stage,
) -> Result<Lowered, Diagnostics> {
    lower_inner(expanded, parsed, shader, stage).map_err(|d| (*d).into())
}

fn lower_inner(
    expanded: &Expanded,
    parsed: &ParsedEffect,
    shader: &ShaderRef,
    stage: Stage,
) -> Result<Lowered, Box<Diagnostic>> {
    let src = parsed.stripped.as_str();
    let map = &expanded.map;
    let toks: Vec<Token> = tokenize(src)
        .tokens
        .into_iter()
        .filter(|t| t.kind != TokenKind::Directive)
        .collect();
    // A D3D10-style `SamplerState S;` handed to `tex2D` is used the D3D9 way, as real effects
    // mixing the two styles do (fxc accepts it), so it is lowered like a legacy sampler.
    let tex_called = intrinsics::sampler_arguments(src, &toks);
    let is_legacy = |s: &crate::effect::SamplerDecl| s.legacy || tex_called.contains(&s.name);
    let legacy: BTreeMap<&str, Option<Dim>> = parsed
        .ast
        .samplers
        .iter()
        .filter(|s| is_legacy(s))
        .map(|s| (s.name.as_str(), s.dim))
        .collect();
    let mut edits = Edits::default();
    let params = sampler_params::params(parsed, src, &toks, &mut edits);
    let param =
        |n: &str, at: usize| sampler_params::in_scope(&params, n, at).map(|p| (p.dim, p.texture()));
    let mut uses = BTreeMap::new();
    let calls = emit::find_calls(
        src,
        &toks,
        map,
        &|n| legacy.get(n).copied(),
        &param,
        &mut uses,
    )?;
    let args = sampler_params::arguments(
        parsed,
        src,
        &toks,
        map,
        &params,
        &|n| legacy.contains_key(n),
        &mut uses,
    )?;
    let (pairs, samplers) = samplers::plan(parsed, &is_legacy, &uses, map, &mut edits)?;
    sampler_params::pass_textures(&args, &pairs, &mut edits);
    declarations::registers(src, &toks, stage, &mut edits);
    declarations::uniform_initializers(parsed, &mut edits);
    declarations::legacy_texture_types(parsed, src, &toks, &mut edits);
    declarations::written_uniforms(parsed, src, &toks, &mut edits);
    declarations::whole_uniform_arrays(parsed, src, &toks, &mut edits);
    let mut retyped = declarations::integer_uniforms(parsed, &toks, map, &mut edits)?;
    retyped.extend(declarations::non_square_uniforms(
        parsed, &toks, map, &mut edits,
    )?);
    let entry = entry::rewrite(parsed, shader, stage, map, &mut edits, &mut retyped)?;
    let emitter = emit::Emitter {
        src,
        edits: &edits,
        calls: &calls,
        pairs: &pairs,
    };
    let mut b = TextBuilder::new();
    emitter.emit(0..src.len(), &mut b);
    let (text, map) = b.finish();
    Ok(Lowered {
        entry,
        text,
        map,
        samplers,
        retyped,
    })
}
