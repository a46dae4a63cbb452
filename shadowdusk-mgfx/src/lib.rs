//! The MGFX v10 container model (MonoGame's compiled effect), with a reader and a writer.
//!
//! This model is the single contract between the compiler (which builds it), the writer, the
//! reader, the generated Rust code and the GL loader. Field order and meaning follow
//! `mgfx-format.md`; enum byte values are MonoGame 3.8's ordinals.

#![warn(missing_docs)]

mod cursor;
mod enums;
mod hash;
pub mod layout;
pub mod packing;
mod read;
mod validate;
pub mod wgpu;
mod wire;
mod write;

#[cfg(test)]
mod tests;

pub use hash::{body_key, effect_key};
pub use read::{read, ReadError, MAX_DEPTH};
pub use validate::validate;
pub use write::{write, WriteError};

use serde::{Deserialize, Serialize};

/// A hash of this crate's sources (computed by its `build.rs`). The writer and register packing
/// shape every compiled effect, so `shadowdusk_compiler::COMPILER_ID`, and with it the build
/// script's cache key, includes it.
pub const SOURCE_ID: &str = env!("SHADOWDUSK_MGFX_SOURCE_ID");

/// The MGFX version this crate writes.
pub const VERSION: u8 = 10;

/// Platform id in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Profile {
    /// DesktopGL / GLES / WebGL (GLSL payloads). Byte 0.
    OpenGL,
    /// DirectX 11 (DXBC payloads). Byte 1.
    DirectX11,
    /// Any other id (read only).
    Other(u8),
}

impl Profile {
    /// Header byte.
    pub fn to_byte(self) -> u8 {
        match self {
            Profile::OpenGL => 0,
            Profile::DirectX11 => 1,
            Profile::Other(b) => b,
        }
    }
    /// From the header byte.
    pub fn from_byte(b: u8) -> Self {
        match b {
            0 => Profile::OpenGL,
            1 => Profile::DirectX11,
            b => Profile::Other(b),
        }
    }
}

/// A whole compiled effect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    /// Header version byte (10; 11 is read but never written by default).
    pub version: u8,
    /// Target platform.
    pub profile: Profile,
    /// Effect key from the header (recomputed by the writer).
    pub key: i32,
    /// Constant-buffer records.
    pub constant_buffers: Vec<ConstantBuffer>,
    /// Shaders.
    pub shaders: Vec<Shader>,
    /// Top-level parameters.
    pub parameters: Vec<Parameter>,
    /// Techniques (at least one).
    pub techniques: Vec<Technique>,
}

/// A constant-buffer record (`vs_uniforms_vec4` / `ps_uniforms_vec4` on OpenGL).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConstantBuffer {
    /// GLSL uniform array name on OpenGL; "" on DirectX.
    pub name: String,
    /// Size in bytes (multiple of 16, ≤ 32767).
    pub size: u16,
    /// (parameter index, byte offset) pairs.
    pub entries: Vec<CbufferEntry>,
}

/// One parameter placed in a constant buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CbufferEntry {
    /// Index into [`Effect::parameters`].
    pub parameter: i32,
    /// Byte offset inside the buffer.
    pub offset: u16,
}

/// Shader stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ShaderStage {
    /// Vertex shader.
    Vertex,
    /// Pixel shader.
    Pixel,
}

/// One compiled shader.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shader {
    /// Stage.
    pub stage: ShaderStage,
    /// v11 only: source file (None in v10).
    pub source_file: Option<String>,
    /// v11 only: entry point (None in v10).
    pub entry_point: Option<String>,
    /// Payload: GLSL text bytes on OpenGL (ASCII), DXBC on DirectX.
    pub code: Vec<u8>,
    /// Sampler records.
    pub samplers: Vec<Sampler>,
    /// Indices into [`Effect::constant_buffers`].
    pub cbuffers: Vec<u8>,
    /// Vertex attributes (OpenGL vertex shaders only).
    pub attributes: Vec<Attribute>,
}

/// Sampler kind byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SamplerType {
    /// `sampler2D` (0).
    Sampler2D,
    /// `samplerCube` (1).
    SamplerCube,
    /// `sampler3D` (2).
    SamplerVolume,
    /// `sampler1D` (3).
    Sampler1D,
}

impl SamplerType {
    /// Byte value.
    pub fn to_byte(self) -> u8 {
        match self {
            SamplerType::Sampler2D => 0,
            SamplerType::SamplerCube => 1,
            SamplerType::SamplerVolume => 2,
            SamplerType::Sampler1D => 3,
        }
    }
    /// From the byte value.
    pub fn from_byte(b: u8) -> Option<Self> {
        Some(match b {
            0 => SamplerType::Sampler2D,
            1 => SamplerType::SamplerCube,
            2 => SamplerType::SamplerVolume,
            3 => SamplerType::Sampler1D,
            _ => return None,
        })
    }
}

/// A sampler record of a shader.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sampler {
    /// Kind.
    pub ty: SamplerType,
    /// Texture unit.
    pub texture_slot: u8,
    /// Sampler-state slot.
    pub sampler_slot: u8,
    /// Baked state applied at every pass apply.
    pub state: Option<SamplerState>,
    /// GLSL uniform name (`ps_s0`); "" on DirectX.
    pub name: String,
    /// Index of the texture parameter.
    pub parameter: u8,
}

/// Texture address mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum TextureAddressMode {
    /// 0
    Wrap = 0,
    /// 1
    Clamp = 1,
    /// 2
    Mirror = 2,
    /// 3
    Border = 3,
}

/// Texture filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum TextureFilter {
    /// 0
    Linear = 0,
    /// 1
    Point = 1,
    /// 2
    Anisotropic = 2,
    /// 3
    LinearMipPoint = 3,
    /// 4
    PointMipLinear = 4,
    /// 5
    MinLinearMagPointMipLinear = 5,
    /// 6
    MinLinearMagPointMipPoint = 6,
    /// 7
    MinPointMagLinearMipLinear = 7,
    /// 8
    MinPointMagLinearMipPoint = 8,
}

/// A baked sampler state (27 bytes on the wire).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SamplerState {
    /// U address mode.
    pub address_u: TextureAddressMode,
    /// V address mode.
    pub address_v: TextureAddressMode,
    /// W address mode.
    pub address_w: TextureAddressMode,
    /// Border color RGBA.
    pub border_color: [u8; 4],
    /// Filter.
    pub filter: TextureFilter,
    /// Max anisotropy.
    pub max_anisotropy: i32,
    /// Max mip level.
    pub max_mip_level: i32,
    /// Mip LOD bias.
    pub mip_lod_bias: f32,
}

impl Default for SamplerState {
    /// mgfxc's starting point (fx-pipeline.md §3.2).
    fn default() -> Self {
        SamplerState {
            address_u: TextureAddressMode::Wrap,
            address_v: TextureAddressMode::Wrap,
            address_w: TextureAddressMode::Wrap,
            border_color: [255, 255, 255, 255],
            filter: TextureFilter::Linear,
            max_anisotropy: 4,
            max_mip_level: 0,
            mip_lod_bias: 0.0,
        }
    }
}

/// `VertexElementUsage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum VertexElementUsage {
    /// 0
    Position = 0,
    /// 1
    Color = 1,
    /// 2
    TextureCoordinate = 2,
    /// 3
    Normal = 3,
    /// 4
    Binormal = 4,
    /// 5
    Tangent = 5,
    /// 6
    BlendIndices = 6,
    /// 7
    BlendWeight = 7,
    /// 8
    Depth = 8,
    /// 9
    Fog = 9,
    /// 10
    PointSize = 10,
    /// 11
    Sample = 11,
    /// 12
    TessellateFactor = 12,
}

impl VertexElementUsage {
    /// The usage of a D3D9 usage name, upper case without its index (`TEXCOORD` →
    /// `TextureCoordinate`), as MonoGame maps vertex declarations to shader inputs. `None` for
    /// `POSITIONT` and names D3D9 does not have.
    pub fn from_d3d9(name: &str) -> Option<VertexElementUsage> {
        use VertexElementUsage as U;
        Some(match name {
            "POSITION" => U::Position,
            "COLOR" => U::Color,
            "TEXCOORD" => U::TextureCoordinate,
            "NORMAL" => U::Normal,
            "BINORMAL" => U::Binormal,
            "TANGENT" => U::Tangent,
            "BLENDINDICES" => U::BlendIndices,
            "BLENDWEIGHT" => U::BlendWeight,
            "DEPTH" => U::Depth,
            "FOG" => U::Fog,
            "PSIZE" => U::PointSize,
            "SAMPLE" => U::Sample,
            "TESSFACTOR" => U::TessellateFactor,
            _ => return None,
        })
    }
}

/// A vertex attribute record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attribute {
    /// GLSL attribute name (`vs_v0`).
    pub name: String,
    /// Usage.
    pub usage: VertexElementUsage,
    /// Semantic index.
    pub index: u8,
    /// Location (0 as written by mgfxc; ignored by the runtime).
    pub location: i16,
}

/// `EffectParameterClass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum ParameterClass {
    /// 0
    Scalar = 0,
    /// 1
    Vector = 1,
    /// 2
    Matrix = 2,
    /// 3
    Object = 3,
    /// 4
    Struct = 4,
}

/// `EffectParameterType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum ParameterType {
    /// 0
    Void = 0,
    /// 1
    Bool = 1,
    /// 2
    Int32 = 2,
    /// 3
    Single = 3,
    /// 4 (never written: the runtime refuses it)
    String = 4,
    /// 5
    Texture = 5,
    /// 6
    Texture1D = 6,
    /// 7
    Texture2D = 7,
    /// 8
    Texture3D = 8,
    /// 9
    TextureCube = 9,
}

/// An effect parameter (recursive for arrays and structs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Parameter {
    /// Class.
    pub class: ParameterClass,
    /// Type.
    pub ty: ParameterType,
    /// Name ("" for array elements).
    pub name: String,
    /// Semantic ("" in mgfxc output).
    pub semantic: String,
    /// Annotation count (only a count is stored; mgfxc writes 0).
    pub annotations: i32,
    /// Rows.
    pub rows: u8,
    /// Columns.
    pub columns: u8,
    /// Array elements.
    pub elements: Vec<Parameter>,
    /// Struct members.
    pub members: Vec<Parameter>,
    /// Data: present iff no elements, no members and type is Bool/Int32/Single; then exactly
    /// rows*columns values (f32 bit patterns, column by column for matrices).
    pub data: Option<Vec<u32>>,
}

impl Parameter {
    /// A value parameter (scalar, vector or matrix) with `rows * columns` zeros of data, as
    /// mgfxc's OpenGL output writes it: no semantic, no annotations, no elements or members.
    pub fn value(
        name: impl Into<String>,
        class: ParameterClass,
        ty: ParameterType,
        rows: u8,
        columns: u8,
    ) -> Parameter {
        Parameter {
            class,
            ty,
            name: name.into(),
            semantic: String::new(),
            annotations: 0,
            rows,
            columns,
            elements: Vec::new(),
            members: Vec::new(),
            data: Some(vec![0; usize::from(rows) * usize::from(columns)]),
        }
    }

    /// A texture parameter: class Object, no rows, columns or data.
    pub fn texture(name: impl Into<String>, ty: ParameterType) -> Parameter {
        Parameter {
            rows: 0,
            columns: 0,
            data: None,
            ..Parameter::value(name, ParameterClass::Object, ty, 0, 0)
        }
    }

    /// An array of `n` copies of `element`: the elements are unnamed, the array has the
    /// element's shape and no data of its own.
    pub fn array(name: impl Into<String>, element: Parameter, n: usize) -> Parameter {
        let element = Parameter {
            name: String::new(),
            ..element
        };
        Parameter {
            name: name.into(),
            data: None,
            elements: vec![element.clone(); n],
            ..element
        }
    }
}

/// `Blend`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Blend {
    /// 0
    One = 0,
    /// 1
    Zero = 1,
    /// 2
    SourceColor = 2,
    /// 3
    InverseSourceColor = 3,
    /// 4
    SourceAlpha = 4,
    /// 5
    InverseSourceAlpha = 5,
    /// 6
    DestinationColor = 6,
    /// 7
    InverseDestinationColor = 7,
    /// 8
    DestinationAlpha = 8,
    /// 9
    InverseDestinationAlpha = 9,
    /// 10
    BlendFactor = 10,
    /// 11
    InverseBlendFactor = 11,
    /// 12
    SourceAlphaSaturation = 12,
}

/// `BlendFunction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum BlendFunction {
    /// 0
    Add = 0,
    /// 1
    Subtract = 1,
    /// 2
    ReverseSubtract = 2,
    /// 3
    Min = 3,
    /// 4
    Max = 4,
}

/// Blend state block (20 bytes), fields in wire order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlendState {
    /// Alpha blend function.
    pub alpha_blend_function: BlendFunction,
    /// Alpha destination blend.
    pub alpha_destination_blend: Blend,
    /// Alpha source blend.
    pub alpha_source_blend: Blend,
    /// Blend factor RGBA.
    pub blend_factor: [u8; 4],
    /// Color blend function.
    pub color_blend_function: BlendFunction,
    /// Color destination blend.
    pub color_destination_blend: Blend,
    /// Color source blend.
    pub color_source_blend: Blend,
    /// Color write channels for render targets 0..3 (bits: 1 R, 2 G, 4 B, 8 A).
    pub color_write_channels: [u8; 4],
    /// Multisample mask.
    pub multi_sample_mask: i32,
}

impl Default for BlendState {
    /// MonoGame `BlendState`'s constructor values.
    fn default() -> Self {
        BlendState {
            alpha_blend_function: BlendFunction::Add,
            alpha_destination_blend: Blend::Zero,
            alpha_source_blend: Blend::One,
            blend_factor: [255; 4],
            color_blend_function: BlendFunction::Add,
            color_destination_blend: Blend::Zero,
            color_source_blend: Blend::One,
            color_write_channels: [15; 4],
            multi_sample_mask: i32::MAX,
        }
    }
}

/// `CompareFunction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum CompareFunction {
    /// 0
    Always = 0,
    /// 1
    Never = 1,
    /// 2
    Less = 2,
    /// 3
    LessEqual = 3,
    /// 4
    Equal = 4,
    /// 5
    GreaterEqual = 5,
    /// 6
    Greater = 6,
    /// 7
    NotEqual = 7,
}

/// `StencilOperation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum StencilOperation {
    /// 0
    Keep = 0,
    /// 1
    Zero = 1,
    /// 2
    Replace = 2,
    /// 3
    Increment = 3,
    /// 4
    Decrement = 4,
    /// 5
    IncrementSaturation = 5,
    /// 6
    DecrementSaturation = 6,
    /// 7
    Invert = 7,
}

/// Depth-stencil state block (26 bytes), fields in wire order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepthStencilState {
    /// CCW stencil depth-fail op.
    pub ccw_stencil_depth_buffer_fail: StencilOperation,
    /// CCW stencil fail op.
    pub ccw_stencil_fail: StencilOperation,
    /// CCW stencil function.
    pub ccw_stencil_function: CompareFunction,
    /// CCW stencil pass op.
    pub ccw_stencil_pass: StencilOperation,
    /// Depth test on.
    pub depth_buffer_enable: bool,
    /// Depth function.
    pub depth_buffer_function: CompareFunction,
    /// Depth write on.
    pub depth_buffer_write_enable: bool,
    /// Stencil reference.
    pub reference_stencil: i32,
    /// Stencil depth-fail op.
    pub stencil_depth_buffer_fail: StencilOperation,
    /// Stencil on.
    pub stencil_enable: bool,
    /// Stencil fail op.
    pub stencil_fail: StencilOperation,
    /// Stencil function.
    pub stencil_function: CompareFunction,
    /// Stencil read mask.
    pub stencil_mask: i32,
    /// Stencil pass op.
    pub stencil_pass: StencilOperation,
    /// Stencil write mask.
    pub stencil_write_mask: i32,
    /// Two-sided stencil.
    pub two_sided_stencil_mode: bool,
}

impl Default for DepthStencilState {
    /// MonoGame `DepthStencilState`'s constructor values.
    fn default() -> Self {
        DepthStencilState {
            ccw_stencil_depth_buffer_fail: StencilOperation::Keep,
            ccw_stencil_fail: StencilOperation::Keep,
            ccw_stencil_function: CompareFunction::Always,
            ccw_stencil_pass: StencilOperation::Keep,
            depth_buffer_enable: true,
            depth_buffer_function: CompareFunction::LessEqual,
            depth_buffer_write_enable: true,
            reference_stencil: 0,
            stencil_depth_buffer_fail: StencilOperation::Keep,
            stencil_enable: false,
            stencil_fail: StencilOperation::Keep,
            stencil_function: CompareFunction::Always,
            stencil_mask: i32::MAX,
            stencil_pass: StencilOperation::Keep,
            stencil_write_mask: i32::MAX,
            two_sided_stencil_mode: false,
        }
    }
}

/// `CullMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum CullMode {
    /// 0
    None = 0,
    /// 1
    CullClockwiseFace = 1,
    /// 2
    CullCounterClockwiseFace = 2,
}

/// `FillMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum FillMode {
    /// 0
    Solid = 0,
    /// 1
    WireFrame = 1,
}

/// Rasterizer state block (12 bytes), fields in wire order.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RasterizerState {
    /// Cull mode.
    pub cull_mode: CullMode,
    /// Depth bias.
    pub depth_bias: f32,
    /// Fill mode.
    pub fill_mode: FillMode,
    /// MSAA.
    pub multi_sample_anti_alias: bool,
    /// Scissor test.
    pub scissor_test_enable: bool,
    /// Slope-scaled depth bias.
    pub slope_scale_depth_bias: f32,
}

impl Default for RasterizerState {
    /// MonoGame `RasterizerState`'s constructor values.
    fn default() -> Self {
        RasterizerState {
            cull_mode: CullMode::CullCounterClockwiseFace,
            depth_bias: 0.0,
            fill_mode: FillMode::Solid,
            multi_sample_anti_alias: true,
            scissor_test_enable: false,
            slope_scale_depth_bias: 0.0,
        }
    }
}

/// A technique.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Technique {
    /// Name ("" when anonymous).
    pub name: String,
    /// Annotation count.
    pub annotations: i32,
    /// Passes.
    pub passes: Vec<Pass>,
}

/// A pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pass {
    /// Name ("" when anonymous).
    pub name: String,
    /// Annotation count.
    pub annotations: i32,
    /// Vertex shader index, -1 for none (keep the device's).
    pub vertex_shader: i32,
    /// Pixel shader index, -1 for none.
    pub pixel_shader: i32,
    /// Blend state, if the pass sets one.
    pub blend: Option<BlendState>,
    /// Depth-stencil state, if the pass sets one.
    pub depth_stencil: Option<DepthStencilState>,
    /// Rasterizer state, if the pass sets one.
    pub rasterizer: Option<RasterizerState>,
}
