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
//! `int`/`bool` uniforms are carried as floats (MonoGame uploads every register as float).

use crate::diag::Diagnostics;
use crate::effect::{Dim, ParsedEffect, ShaderRef};
use crate::preprocess::Expanded;
use crate::source::OffsetMap;
use shadowdusk::mgfx::SamplerState;

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
    let _ = (expanded, parsed, shader, stage);
    Err(crate::diag::Diagnostic::error(crate::diag::Code::FX0012, "lowering not implemented yet").into())
}
