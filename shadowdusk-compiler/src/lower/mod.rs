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
//! inputs become system values (also a `VFACE` struct member); array and matrix members of
//! interface structs travel as one vector per register; `nointerpolation` is dropped (SM2/3
//! interpolate every varying); stage-qualified registers keep only this stage's binding;
//! `int`/`bool` uniforms are carried as floats (MonoGame uploads every register as float);
//! effect-style texture types on function parameters and struct members become `Texture2D` & co.;
//! shader, state-object and view parameters leave their functions and calls, as fxc compiles
//! nothing for them (`object_params`);
//! the overload of the entry is the one the `compile` arguments pick, as fxc picks it
//! (`overloads`); `compile ps_2_0 PS(true)` literals are bound through a generated wrapper
//! entry; the bodies of functions the entry does not reach are left out, as fxc never compiles
//! them (`reach`).
//!
//! Edits are computed on the stripped text and applied in one pass; the text keeps its line
//! structure (insertions stay on the line of the code they belong to), except for the wrapper
//! entry, which is appended at the end.
//!
//! Local sampler variables (`FxaaTex tex; tex = TextureSampler;`) are renamed to the sampler they
//! are given before anything else looks at sampler names (`sampler_locals`).
//!
//! Hygiene (`scope`): every generated name starts with `__sd_`, and a rewrite of a global's uses
//! (a texture under its reserved name `__sd_t_T`, a uniform's copy or carrier) skips the places
//! where a parameter or local of the same name is in scope. Reflection maps generated names back
//! to the user's ([`user_name`]).
//!
//! Refused: FX0001 (a user identifier starting with `__sd_`), FX0012 (a `tex*` call that cannot be
//! lowered: unknown arity, not on a global legacy sampler, wrong dimension, a plain `sampler` used
//! with two dimensions by one entry's reached code; a local sampler given something other than one
//! sampler), FX0003 (`compile` literals that match no overload of the entry, or several
//! equally), SD0102 (entry not found).

mod declarations;
mod emit;
mod entry;
mod intrinsics;
mod object_params;
mod overloads;
mod reach;
mod sampler_aliases;
mod sampler_locals;
mod sampler_params;
mod samplers;
mod scope;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::effect::lexer::{tokenize, Token, TokenKind};
use crate::effect::{Dim, ParsedEffect, ShaderRef};
use crate::preprocess::Expanded;
use crate::source::{OffsetMap, TextBuilder};
use emit::Edits;
use shadowdusk_mgfx::SamplerState;

pub use declarations::{CARRIER_PREFIX, MATRIX_CARRIER_PREFIX};
pub use entry::{ENTRY_UNIFORM_PREFIX, WRAPPER};
pub use samplers::{SYNTH_PREFIX, TEXTURE_PREFIX};

/// The user's name behind a name the lowering generated (an int carrier, a non-square matrix
/// carrier, a synthesized texture): what errors must show.
pub fn user_name(generated: &str) -> &str {
    generated
        .trim_start_matches(CARRIER_PREFIX)
        .trim_start_matches(MATRIX_CARRIER_PREFIX)
        .trim_start_matches(SYNTH_PREFIX)
        .trim_start_matches(TEXTURE_PREFIX)
        .trim_start_matches(ENTRY_UNIFORM_PREFIX)
}

/// `text` with every generated name replaced by the user's.
pub fn user_text(text: &str) -> String {
    text.replace(SYNTH_PREFIX, "")
        .replace(TEXTURE_PREFIX, "")
        .replace(CARRIER_PREFIX, "")
        .replace(MATRIX_CARRIER_PREFIX, "")
        .replace(ENTRY_UNIFORM_PREFIX, "")
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
    // What the entry does not reach is not compiled (fxc's habit): its bodies are left out and
    // the sampler rewrites look at the reached code only, so each entry decides alone what
    // dimension a plain `sampler` has.
    let entry = overloads::choose(parsed, shader, map)?;
    let dead = reach::unreached_bodies(parsed, src, &toks, entry);
    let live = reach::live_tokens(&toks, &dead);
    if let Some(t) = scope::reserved_identifier(src, &toks) {
        return Err(Box::new(
            Diagnostic::error(
                Code::FX0001,
                format!(
                    "`{}`: names starting with `{}` are reserved for the code ShadowDusk generates",
                    t.text(src),
                    scope::RESERVED
                ),
            )
            .at_opt(map.span(t.range.clone()))
            .with_help("rename it"),
        ));
    }
    let scopes = scope::Scopes::new(parsed, src, &toks);
    let mut edits = Edits::default();
    object_params::remove(parsed, src, &toks, &mut edits);
    object_params::remove_declarations(parsed, src, &toks, &mut edits);
    let params = sampler_params::params(parsed, src, &toks, &mut edits);
    let locals = sampler_locals::locals(parsed, src, &live, map, &params, &mut edits)?;
    // A D3D10-style `SamplerState S;` handed to `tex2D` is used the D3D9 way, as real effects
    // mixing the two styles do (fxc accepts it), so it is lowered like a legacy sampler.
    let mut tex_called = intrinsics::sampler_arguments(src, &live);
    tex_called.extend(locals.samplers().map(str::to_string));
    let is_legacy = |s: &crate::effect::SamplerDecl| s.legacy || tex_called.contains(&s.name);
    let legacy: BTreeMap<&str, Option<Dim>> = parsed
        .ast
        .samplers
        .iter()
        .filter(|s| is_legacy(s))
        .map(|s| (s.name.as_str(), s.dim))
        .collect();
    let param =
        |n: &str, at: usize| sampler_params::in_scope(&params, n, at).map(|p| (p.dim, p.texture()));
    let declared = |n: &str| scope::declared_anywhere(parsed, src, &toks, n);
    let mut uses = BTreeMap::new();
    let calls = emit::find_calls(
        src,
        &live,
        map,
        &|n| legacy.get(n).copied(),
        &param,
        &locals,
        &declared,
        &mut uses,
    )?;
    let args = sampler_params::arguments(
        parsed,
        src,
        &live,
        map,
        sampler_params::Names {
            params: &params,
            locals: &locals,
            declared: &declared,
        },
        &|n| legacy.contains_key(n),
        &mut uses,
    )?;
    let (pairs, samplers) = samplers::plan(parsed, &is_legacy, &uses, map, &mut edits)?;
    sampler_params::pass_textures(&args, &pairs, &mut edits);
    samplers::rename_textures(parsed, src, &toks, &scopes, &mut edits);
    declarations::registers(src, &toks, stage, &mut edits);
    declarations::interpolation_modifiers(src, &toks, &mut edits);
    declarations::uniform_initializers(parsed, &mut edits);
    declarations::legacy_texture_types(parsed, src, &toks, &mut edits);
    declarations::written_uniforms(parsed, src, &toks, &scopes, &mut edits);
    declarations::whole_uniform_arrays(parsed, src, &toks, &scopes, &mut edits);
    let mut retyped = declarations::integer_uniforms(parsed, &toks, &scopes, map, &mut edits)?;
    retyped.extend(declarations::non_square_uniforms(
        parsed, &toks, &scopes, map, &mut edits,
    )?);
    let entry = entry::rewrite(parsed, entry, shader, stage, map, &mut edits, &mut retyped)?;
    let emitter = emit::Emitter {
        src,
        edits: &edits,
        calls: &calls,
        pairs: &pairs,
    };
    let mut b = TextBuilder::new();
    let mut pos = 0;
    for body in &dead {
        emitter.emit(pos..body.start, &mut b);
        b.insert(&reach::prototype_body(src, body), body.start);
        pos = body.end;
    }
    emitter.emit(pos..src.len(), &mut b);
    let (text, map) = b.finish();
    Ok(Lowered {
        entry,
        text,
        map,
        samplers,
        retyped,
    })
}
