//! An effect compiled for wgpu, as plain data: what `include_effect!` generates in a module's
//! `wgsl` part when the build turns the wgpu target on (`Builder::wgpu(true)`,
//! `include_effect!(…, wgpu)`), and what a wgpu runtime builds its pipelines from.
//!
//! Nothing here depends on wgpu: the names follow wgpu's (`VertexFormat::Float32x3`, texture
//! view dimensions), so a runtime maps each one to one wgpu value without parsing WGSL.
//!
//! The binding rule is the same for every effect: bind group 0 is the vertex shader's and 1 the
//! pixel shader's; in each, binding 0 is the uniform buffer holding the stage's constant
//! registers (the bytes of the generated `Params` record the stage reads, as on OpenGL), and
//! the texture of sampler slot N is at binding 1 + 2N with its sampler at 2 + 2N.

use crate::mgfx::{
    BlendState, DepthStencilState, RasterizerState, SamplerState, VertexElementUsage,
};

/// The effect for wgpu: the generated `wgsl::EFFECT` of a module, and
/// [`Effect::WGPU`](crate::Effect::WGPU).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WgslEffect {
    /// One per shader of the MGFX effect, in its order: a pass's `vertex` and `pixel` index
    /// this list.
    pub shaders: &'static [WgslShader],
    /// One list per technique, one entry per pass, in MGFX order (as
    /// [`Pass::technique_index`](crate::Pass::technique_index) and [`Pass::index`](crate::Pass::index)
    /// count them).
    pub techniques: &'static [&'static [WgslPass]],
}

impl WgslEffect {
    /// The pass `technique`/`pass` (MGFX indices).
    pub fn pass(&self, technique: usize, pass: usize) -> Option<&'static WgslPass> {
        self.techniques.get(technique)?.get(pass)
    }
}

/// One pass: its shaders and the render states it sets (`None`: the device's are kept, as
/// MonoGame keeps them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WgslPass {
    /// The pass's name (`""` when anonymous).
    pub name: &'static str,
    /// Index into [`WgslEffect::shaders`] of its vertex shader.
    pub vertex: Option<usize>,
    /// Index into [`WgslEffect::shaders`] of its pixel shader.
    pub pixel: Option<usize>,
    /// Its blend state.
    pub blend: Option<BlendState>,
    /// Its depth-stencil state.
    pub depth_stencil: Option<DepthStencilState>,
    /// Its rasterizer state.
    pub rasterizer: Option<RasterizerState>,
}

/// The stage a shader runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// A vertex shader: bind group 0.
    Vertex,
    /// A pixel (fragment) shader: bind group 1.
    Pixel,
}

impl Stage {
    /// Its bind group.
    pub const fn group(self) -> u32 {
        match self {
            Stage::Vertex => 0,
            Stage::Pixel => 1,
        }
    }
}

/// One shader: a WGSL module validated by naga at build time, and its interface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WgslShader {
    /// Its stage (and so its bind group).
    pub stage: Stage,
    /// The WGSL module.
    pub wgsl: &'static str,
    /// Its entry point.
    pub entry: &'static str,
    /// Bind-group layout entries, by binding.
    pub bindings: &'static [Binding],
    /// Vertex inputs, by location (empty for a pixel shader).
    pub vertex_inputs: &'static [VertexInput],
    /// Varyings (a vertex shader's outputs, a pixel shader's inputs), by location.
    pub varyings: &'static [Varying],
}

/// One bind-group layout entry of a shader's group.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Binding {
    /// The binding number.
    pub binding: u32,
    /// The HLSL name: the texture, or `$Globals`-style block name for the registers.
    pub name: &'static str,
    /// What is bound.
    pub kind: BindingKind,
}

/// What a binding holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BindingKind {
    /// The stage's constant registers: a uniform buffer of `size` bytes (16 per register),
    /// the bytes of the `Params` record it reads
    /// ([`EffectParams::constant_buffer`](crate::params::EffectParams::constant_buffer)`(record)`).
    Uniform {
        /// The constant-buffer record (MGFX index).
        record: usize,
        /// Bytes.
        size: u32,
    },
    /// The filterable float texture of sampler slot `slot` (texture unit on OpenGL).
    Texture {
        /// The slot.
        slot: u32,
        /// Its view dimension.
        dimension: TextureDimension,
    },
    /// The filtering sampler of slot `slot`, with the state the effect gives it (`None`: the
    /// device's, as MonoGame leaves it).
    Sampler {
        /// The slot.
        slot: u32,
        /// The effect's sampler state for the slot.
        state: Option<SamplerState>,
    },
}

/// A texture view dimension, as wgpu's `TextureViewDimension` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureDimension {
    /// `D1`.
    D1,
    /// `D2`.
    D2,
    /// `D3`.
    D3,
    /// `Cube`.
    Cube,
}

impl TextureDimension {
    /// The dimension the wgpu output (`shadowdusk_mgfx::wgpu::WgpuBindingKind::Texture`) names
    /// `"1d"`, `"2d"`, `"3d"` or `"cube"`.
    pub fn from_name(name: &str) -> Option<TextureDimension> {
        Some(match name {
            "1d" => TextureDimension::D1,
            "2d" => TextureDimension::D2,
            "3d" => TextureDimension::D3,
            "cube" => TextureDimension::Cube,
            _ => return None,
        })
    }
}

/// A vertex shader input: where a vertex buffer element of MonoGame's usage and index goes.
/// Each vertex shader numbers its inputs 0, 1, 2, … in D3D9's usage order (POSITION,
/// BLENDWEIGHT, BLENDINDICES, NORMAL, PSIZE, TEXCOORD, TANGENT, BINORMAL, TESSFACTOR, COLOR,
/// FOG, DEPTH, SAMPLE; then the index), from the inputs it declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexInput {
    /// MonoGame's `VertexElementUsage`.
    pub usage: VertexElementUsage,
    /// Its usage index (`TEXCOORD1` → 1).
    pub index: u32,
    /// `@location` in the WGSL.
    pub location: u32,
    /// The shader's type for it. A buffer may supply fewer components; wgpu fills the rest as
    /// D3D does (0, 0, 1).
    pub format: VertexFormat,
}

/// A shader's type for a vertex input, as wgpu's `VertexFormat` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexFormat {
    /// `f32`.
    Float32,
    /// `vec2<f32>`.
    Float32x2,
    /// `vec3<f32>`.
    Float32x3,
    /// `vec4<f32>`.
    Float32x4,
    /// `i32`.
    Sint32,
    /// `vec2<i32>`.
    Sint32x2,
    /// `vec3<i32>`.
    Sint32x3,
    /// `vec4<i32>`.
    Sint32x4,
    /// `u32`.
    Uint32,
    /// `vec2<u32>`.
    Uint32x2,
    /// `vec3<u32>`.
    Uint32x3,
    /// `vec4<u32>`.
    Uint32x4,
}

/// A value passed from the vertex to the pixel shader. Each shader numbers its varyings 0, 1,
/// 2, … (COLOR first, TEXCOORD second, then D3D9's usage order; then the index), a pixel
/// shader only the inputs it reads; a runtime links a pass by semantic, writing the vertex
/// shader's numbers into a copy of the pixel shader's WGSL at [`Varying::location_at`] where
/// they differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Varying {
    /// The semantic with its index (`TEXCOORD0`, `COLOR1`).
    pub semantic: &'static str,
    /// `@location` in the WGSL.
    pub location: u32,
    /// `@interpolate(flat)` (integer values).
    pub flat: bool,
    /// A pixel shader's input: the byte offset in [`WgslShader::wgsl`] of the first digit of
    /// its location number (the compiler checked it is there once). `None` for a vertex
    /// shader's output.
    pub location_at: Option<u32>,
}

/// Why a pixel shader cannot take a vertex shader's numbering ([`relocate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unlinked {
    /// The vertex shader does not write this semantic.
    Missing(&'static str),
    /// The input's location is not where the data says.
    Unmarked(&'static str),
}

/// Links a pixel shader to a vertex shader by semantic: the pixel shader's WGSL (`wgsl`, its
/// inputs `inputs`) with each input's location number replaced by the one the vertex shader's
/// output of the same semantic has (`outputs`), at the offset the compiler recorded
/// ([`Varying::location_at`]); `None` when every input is there already. No WGSL is parsed.
pub fn relocate(
    wgsl: &str,
    inputs: &[Varying],
    outputs: &[Varying],
) -> Result<Option<String>, Unlinked> {
    let mut moves = Vec::new();
    for input in inputs {
        let output = outputs
            .iter()
            .find(|v| v.semantic == input.semantic)
            .ok_or(Unlinked::Missing(input.semantic))?;
        if output.location == input.location {
            continue;
        }
        let at = input
            .location_at
            .ok_or(Unlinked::Unmarked(input.semantic))? as usize;
        let rest = wgsl.get(at..).ok_or(Unlinked::Unmarked(input.semantic))?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if rest[..digits].parse() != Ok(input.location) {
            return Err(Unlinked::Unmarked(input.semantic));
        }
        moves.push((at, digits, output.location, input.semantic));
    }
    if moves.is_empty() {
        return Ok(None);
    }
    moves.sort_unstable();
    let mut text = String::with_capacity(wgsl.len() + 2 * moves.len());
    let mut from = 0;
    for (at, digits, location, semantic) in moves {
        // Two inputs marked at one offset: data no compiler wrote.
        let Some(between) = wgsl.get(from..at) else {
            return Err(Unlinked::Unmarked(semantic));
        };
        text.push_str(between);
        text.push_str(&location.to_string());
        from = at + digits;
    }
    text.push_str(&wgsl[from..]);
    Ok(Some(text))
}
