//! The effect corpus (`tests/corpus/*.fx`) and what ShadowDusk must make of each file.
//!
//! Input: nothing at run time; [`entries`] builds a typed table, one [`Entry`] per effect file.
//! Each entry states, as the MGFX must contain it (mgfx-format.md §6, §12; fx-pipeline.md
//! §9.4–§9.5):
//! * the techniques, their passes, which stages each pass has, the render-state blocks the pass
//!   bakes, and the sampler records of the pass's pixel shader ([`SamplerSpec`]: `ps_sN`, type,
//!   slot, texture parameter, baked state);
//! * the parameters ([`ParamSpec`]: name, class, type, rows, columns, element count, and the
//!   default values ShadowDusk bakes from a global initializer, zeros otherwise). Parameters are
//!   compared as a set by name, because the order of value parameters follows the register
//!   allocation, which is the compiler's business;
//! * a [`Render`] description.
//!
//! # How a render test uses the table
//!
//! 1. Compile `tests/corpus/<file>`, load it with `shadowdusk::gl::DynEffect`.
//! 2. Set every `(name, Value)` of [`Render::values`] with [`Value::mgfx_data`] (MonoGame's
//!    in-memory order: matrices column by column, array elements one after another). Parameters
//!    not listed keep their baked defaults.
//! 3. Create each texture of [`Render::textures`] from its [`TextureSpec`] (level/face/slice data
//!    from [`TextureSpec::level_rgba`], [`TextureSpec::face_rgba`], [`TextureSpec::volume_rgba`];
//!    row 0 is v = 0) and set it on the named parameter.
//! 4. Render into a [`TARGET_SIZE`] target cleared to [`CLEAR`] with MonoGame's defaults for
//!    everything the pass does not bake: `BlendState.Opaque`, `DepthStencilState.None`,
//!    `RasterizerState.CullNone` (which leaves `glFrontFace` at GL's initial CCW),
//!    `SamplerState.PointClamp` on every slot. Draw [`Geometry`]:
//!    a SpriteBatch quad (pixel rectangle, vertex colour, uv 0..1, SpriteBatch's own vertex
//!    shader) or a [`Mesh`] with the effect's vertex shader, using technique
//!    [`Render::technique`], every pass in order.
//! 5. Read back with the origin at the top-left pixel, once as the backbuffer and once as a
//!    render target (MonoGame flips the latter through `posFixup`, so geometry and texture reads
//!    look the same; only window-space inputs differ, see [`Reference::PerOrientation`]).
//! 6. [`Check::reference`] (every entry has one): for every pixel `(x, y)` of the orientation,
//!    the function returns the expected RGBA in 0..1, or `None` where the answer is ambiguous (a
//!    pixel centre on a triangle edge or on a texel boundary). Compare with a tolerance of
//!    [`TOLERANCE`] per channel. Rendering with every value parameter set to zero must then
//!    *fail* the comparison (proves the uniforms arrive).
//! 7. [`Check::sensitivities`] (optional): render with the listed values, then once per
//!    [`Sensitivity`] with one parameter changed; at least `min_fraction` of the pixels of
//!    `region` must change by more than [`TOLERANCE`] (proves each parameter matters on its own).
//!
//! The references implement the shader math in Rust. Textures are nearest-sampled (every
//! sampler either bakes a Point filter or is left to the harness's PointClamp) and quads are
//! pixel-aligned, so the expected values are exact up to 8-bit rounding.

mod compat_bool_vectors;
mod compat_effects;
mod compat_entry_uniforms;
mod compat_integers;
mod compat_locations;
mod compat_loops;
mod compat_lowering;
mod compat_math;
mod compat_misc;
mod compat_varyings;
mod math;
mod mesh_effects;
mod sprite_effects;
mod state_effects;
mod textures;

pub use math::{
    clip_to_pixel, mat_mul, mesh_pixel, mul_mv, mul_vm, pixel_ortho, rasterize, rotate_z90,
    saturate4, scale, sprite_pixel, sprite_uv, translate, transpose, Covered, Mat4,
};
pub use textures::{Address, Pattern, TextureSpec};

use crate::Orientation;
use shadowdusk::mgfx::{
    BlendState, DepthStencilState, ParameterClass, ParameterType, RasterizerState, SamplerState,
    SamplerType, VertexElementUsage,
};
use std::path::PathBuf;

/// Width and height of every render.
pub const TARGET_SIZE: (u32, u32) = (64, 64);
/// The clear colour (transparent black), also the expected colour of discarded pixels.
pub const CLEAR: [f32; 4] = [0.0, 0.0, 0.0, 0.0];
/// Largest accepted per-channel difference between a render and its reference.
pub const TOLERANCE: f32 = 2.0 / 255.0;

/// One effect file and its expectations.
#[derive(Clone, Debug)]
pub struct Entry {
    /// File name inside `tests/corpus/`.
    pub file: &'static str,
    /// What the effect tests (its first comment line).
    pub concern: &'static str,
    /// Techniques in source order.
    pub techniques: Vec<TechniqueSpec>,
    /// Every parameter of the MGFX (compared as a set by name).
    pub parameters: Vec<ParamSpec>,
    /// How to render it and what to expect.
    pub render: Render,
}

/// A technique.
#[derive(Clone, Debug)]
pub struct TechniqueSpec {
    /// Name.
    pub name: &'static str,
    /// Passes in source order.
    pub passes: Vec<PassSpec>,
}

/// A pass.
#[derive(Clone, Debug)]
pub struct PassSpec {
    /// Name ("" when the source omits it).
    pub name: &'static str,
    /// Whether the pass has a vertex shader.
    pub vertex: bool,
    /// Whether the pass has a pixel shader.
    pub pixel: bool,
    /// Sampler records of the pixel shader, in any order (compared sorted by slot).
    pub samplers: Vec<SamplerSpec>,
    /// Baked blend state.
    pub blend: Option<BlendState>,
    /// Baked depth-stencil state.
    pub depth_stencil: Option<DepthStencilState>,
    /// Baked rasterizer state.
    pub rasterizer: Option<RasterizerState>,
}

/// A sampler record of a pixel shader.
#[derive(Clone, Debug)]
pub struct SamplerSpec {
    /// Slot (texture and sampler slot); the GLSL name is `ps_s<slot>`.
    pub slot: u8,
    /// Sampler type.
    pub ty: SamplerType,
    /// Name of the texture parameter the record points at.
    pub parameter: &'static str,
    /// Baked state.
    pub state: Option<SamplerState>,
}

impl SamplerSpec {
    /// The GLSL uniform name.
    pub fn name(&self) -> String {
        format!("ps_s{}", self.slot)
    }
}

/// An expected parameter.
#[derive(Clone, Debug)]
pub struct ParamSpec {
    /// Name.
    pub name: &'static str,
    /// Class.
    pub class: ParameterClass,
    /// Type.
    pub ty: ParameterType,
    /// Rows (0 for textures).
    pub rows: u8,
    /// Columns (0 for textures).
    pub columns: u8,
    /// Array length (0 = not an array).
    pub elements: usize,
    /// Initializer values as written in HLSL (matrices row by row, array elements in order);
    /// `None` = no initializer, the data must be zeros. See [`ParamSpec::expected_data`].
    pub default: Option<Vec<f32>>,
}

impl ParamSpec {
    /// The data each leaf record (the parameter itself, or each element) must carry, as f32
    /// values in MonoGame's order; `None` for textures.
    pub fn expected_data(&self) -> Option<Vec<Vec<f32>>> {
        if self.class == ParameterClass::Object {
            return None;
        }
        let per = self.rows as usize * self.columns as usize;
        let count = self.elements.max(1);
        let init = self.default.clone().unwrap_or_default();
        Some(
            (0..count)
                .map(|i| {
                    let start = (i * per).min(init.len());
                    let end = ((i + 1) * per).min(init.len());
                    let mut hlsl = init[start..end].to_vec();
                    hlsl.resize(per, 0.0);
                    hlsl_to_mgfx(self.rows, self.columns, &hlsl)
                })
                .collect(),
        )
    }
}

/// Converts values written row by row (HLSL) to MonoGame's column-by-column storage.
pub fn hlsl_to_mgfx(rows: u8, columns: u8, hlsl: &[f32]) -> Vec<f32> {
    let (r, c) = (rows as usize, columns as usize);
    let mut out = vec![0.0; r * c];
    for row in 0..r {
        for col in 0..c {
            out[col * r + row] = hlsl.get(row * c + col).copied().unwrap_or(0.0);
        }
    }
    out
}

/// A value to set on a parameter before rendering.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    /// Rows of one element.
    pub rows: u8,
    /// Columns of one element.
    pub columns: u8,
    /// Values as written in HLSL: matrices row by row, array elements in order.
    pub hlsl: Vec<f32>,
}

impl Value {
    /// The floats to hand `DynEffect::set_values` (MonoGame's storage order).
    pub fn mgfx_data(&self) -> Vec<f32> {
        let per = self.rows as usize * self.columns as usize;
        self.hlsl
            .chunks(per.max(1))
            .flat_map(|e| hlsl_to_mgfx(self.rows, self.columns, e))
            .collect()
    }
    /// The same shape filled with zeros.
    pub fn zeroed(&self) -> Value {
        Value {
            hlsl: vec![0.0; self.hlsl.len()],
            ..self.clone()
        }
    }
}

/// How to render an effect.
#[derive(Clone, Debug)]
pub struct Render {
    /// Technique to draw with.
    pub technique: &'static str,
    /// Values to set, by parameter name.
    pub values: Vec<(&'static str, Value)>,
    /// Textures to create and set, by parameter name.
    pub textures: Vec<(&'static str, TextureSpec)>,
    /// What to draw.
    pub geometry: Geometry,
    /// Number of colour targets the pixel shader writes (only target 0 is checked).
    pub render_targets: u8,
    /// What to expect.
    pub check: Check,
}

/// Geometry to draw.
#[derive(Clone, Debug)]
pub enum Geometry {
    /// A SpriteBatch quad drawn with SpriteBatch's vertex shader: pixel rectangle
    /// `[x, y, width, height]` (top-left origin), vertex colour, uv (0,0) top-left to (1,1).
    Sprite {
        /// `[x, y, width, height]` in pixels.
        rect: [f32; 4],
        /// Vertex colour.
        color: [u8; 4],
    },
    /// A triangle list drawn with the effect's own vertex shader.
    Mesh(Mesh),
}

/// A triangle list with explicit vertex elements.
#[derive(Clone, Debug)]
pub struct Mesh {
    /// Vertex declaration, in vertex-buffer order.
    pub elements: Vec<VertexElement>,
    /// Per vertex, the components of every element concatenated in element order. `Color` and
    /// `Byte4` components are byte values 0..=255 (Color is normalised by the GPU, Byte4 is not).
    pub vertices: Vec<Vec<f32>>,
    /// Triangle list indices.
    pub indices: Vec<u16>,
}

impl Mesh {
    /// The components of element `e` of vertex `v`.
    pub fn element(&self, v: usize, e: usize) -> &[f32] {
        let start: usize = self.elements[..e]
            .iter()
            .map(|x| x.format.components())
            .sum();
        &self.vertices[v][start..start + self.elements[e].format.components()]
    }
}

/// One vertex element.
#[derive(Clone, Copy, Debug)]
pub struct VertexElement {
    /// Usage.
    pub usage: VertexElementUsage,
    /// Usage index.
    pub index: u8,
    /// Storage format.
    pub format: ElementFormat,
}

/// Vertex element storage formats (MonoGame `VertexElementFormat` subset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementFormat {
    /// One f32.
    Single,
    /// Two f32.
    Vector2,
    /// Three f32.
    Vector3,
    /// Four f32.
    Vector4,
    /// Four normalised u8.
    Color,
    /// Four unnormalised u8.
    Byte4,
}

impl ElementFormat {
    /// Component count.
    pub fn components(self) -> usize {
        match self {
            ElementFormat::Single => 1,
            ElementFormat::Vector2 => 2,
            ElementFormat::Vector3 => 3,
            ElementFormat::Vector4 | ElementFormat::Color | ElementFormat::Byte4 => 4,
        }
    }
}

/// Expected RGBA (0..1) of pixel `(x, y)` (top-left origin), `None` = don't compare.
pub type PixelFn = fn(u32, u32) -> Option<[f32; 4]>;

/// The CPU computation of an effect's picture.
#[derive(Clone, Copy, Debug)]
pub enum Reference {
    /// One picture for both orientations: everything that reaches the pixel shader through
    /// vertices, uniforms and textures is flipped back by `posFixup`.
    Same(PixelFn),
    /// One picture per orientation. MonoGame's GL runtime hands window-space values to the pixel
    /// shader unchanged: `VPOS` is `gl_FragCoord` (origin at the bottom-left of the backbuffer
    /// but at the top-left of a render target, which `posFixup` stores upside down), and `VFACE`
    /// is `gl_FrontFacing`, whose winding the y-flip reverses.
    PerOrientation {
        /// The default framebuffer.
        backbuffer: PixelFn,
        /// A render target.
        render_target: PixelFn,
    },
}

impl Reference {
    /// The picture expected in orientation `o`.
    pub fn pixel_fn(&self, o: Orientation) -> PixelFn {
        match (*self, o) {
            (Reference::Same(f), _) => f,
            (Reference::PerOrientation { backbuffer, .. }, Orientation::Backbuffer) => backbuffer,
            (Reference::PerOrientation { render_target, .. }, Orientation::RenderTarget) => {
                render_target
            }
        }
    }
}

/// What a render must show.
#[derive(Clone, Debug)]
pub struct Check {
    /// The CPU reference every pixel is compared with.
    pub reference: Reference,
    /// Parameters whose change alone must change the picture.
    pub sensitivities: Vec<Sensitivity>,
}

impl Check {
    /// A reference that holds in both orientations.
    pub fn reference(f: PixelFn) -> Check {
        Check {
            reference: Reference::Same(f),
            sensitivities: Vec::new(),
        }
    }

    /// A reference per orientation (window-space inputs: `VPOS`, `VFACE`).
    pub fn per_orientation(backbuffer: PixelFn, render_target: PixelFn) -> Check {
        Check {
            reference: Reference::PerOrientation {
                backbuffer,
                render_target,
            },
            sensitivities: Vec::new(),
        }
    }

    /// Adds sensitivity checks.
    pub fn with_sensitivities(mut self, sensitivities: Vec<Sensitivity>) -> Check {
        self.sensitivities = sensitivities;
        self
    }
}

/// One parameter whose change must show.
#[derive(Clone, Debug)]
pub struct Sensitivity {
    /// Parameter name.
    pub parameter: &'static str,
    /// The changed value.
    pub changed: Value,
    /// Pixel region `[x, y, width, height]` where the change must show.
    pub region: [u32; 4],
    /// Fraction of the region's pixels that must change.
    pub min_fraction: f32,
}

/// The corpus directory (`tests/corpus`).
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// The whole table, in file-name order.
pub fn entries() -> Vec<Entry> {
    let mut all = sprite_effects::entries();
    all.extend(mesh_effects::entries());
    all.extend(state_effects::entries());
    all.extend(compat_effects::entries());
    all.extend(compat_bool_vectors::entries());
    all.extend(compat_entry_uniforms::entries());
    all.extend(compat_integers::entries());
    all.extend(compat_varyings::entries());
    all.extend(compat_misc::entries());
    all.extend(compat_lowering::entries());
    all.extend(compat_math::entries());
    all.extend(compat_loops::entries());
    all.extend(compat_locations::entries());
    all.sort_by_key(|e| e.file);
    all
}

// ---- small constructors shared by the table files ----

pub(crate) fn scalar(x: f32) -> Value {
    Value {
        rows: 1,
        columns: 1,
        hlsl: vec![x],
    }
}

/// A `float name[N]` array's values, one scalar per element.
pub(crate) fn scalars(v: &[f32]) -> Value {
    Value {
        rows: 1,
        columns: 1,
        hlsl: v.to_vec(),
    }
}

pub(crate) fn vector(v: &[f32]) -> Value {
    Value {
        rows: 1,
        columns: v.len() as u8,
        hlsl: v.to_vec(),
    }
}

pub(crate) fn matrix(rows: u8, columns: u8, m: &[f32]) -> Value {
    Value {
        rows,
        columns,
        hlsl: m.to_vec(),
    }
}

pub(crate) fn mat4(m: &Mat4) -> Value {
    matrix(4, 4, &m.iter().flatten().copied().collect::<Vec<_>>())
}

pub(crate) fn param(
    name: &'static str,
    class: ParameterClass,
    ty: ParameterType,
    rows: u8,
    columns: u8,
) -> ParamSpec {
    ParamSpec {
        name,
        class,
        ty,
        rows,
        columns,
        elements: 0,
        default: None,
    }
}

pub(crate) fn p_float(name: &'static str) -> ParamSpec {
    param(name, ParameterClass::Scalar, ParameterType::Single, 1, 1)
}

pub(crate) fn p_vec(name: &'static str, n: u8) -> ParamSpec {
    param(name, ParameterClass::Vector, ParameterType::Single, 1, n)
}

pub(crate) fn p_mat(name: &'static str, r: u8, c: u8) -> ParamSpec {
    param(name, ParameterClass::Matrix, ParameterType::Single, r, c)
}

pub(crate) fn p_tex(name: &'static str, ty: ParameterType) -> ParamSpec {
    param(name, ParameterClass::Object, ty, 0, 0)
}

pub(crate) fn p_tex2d(name: &'static str) -> ParamSpec {
    p_tex(name, ParameterType::Texture2D)
}

impl ParamSpec {
    pub(crate) fn with_default(mut self, v: &[f32]) -> Self {
        self.default = Some(v.to_vec());
        self
    }
    pub(crate) fn array(mut self, n: usize) -> Self {
        self.elements = n;
        self
    }
}

pub(crate) fn sampler(slot: u8, ty: SamplerType, parameter: &'static str) -> SamplerSpec {
    SamplerSpec {
        slot,
        ty,
        parameter,
        state: None,
    }
}

impl SamplerSpec {
    pub(crate) fn baked(mut self, s: SamplerState) -> Self {
        self.state = Some(s);
        self
    }
}

pub(crate) fn ps_pass(name: &'static str, samplers: Vec<SamplerSpec>) -> PassSpec {
    PassSpec {
        name,
        vertex: false,
        pixel: true,
        samplers,
        blend: None,
        depth_stencil: None,
        rasterizer: None,
    }
}

pub(crate) fn vs_ps_pass(name: &'static str, samplers: Vec<SamplerSpec>) -> PassSpec {
    PassSpec {
        vertex: true,
        ..ps_pass(name, samplers)
    }
}

pub(crate) fn technique(name: &'static str, passes: Vec<PassSpec>) -> TechniqueSpec {
    TechniqueSpec { name, passes }
}

/// The baked state of `MinFilter = Point; MagFilter = Point; MipFilter = Point;` (or
/// `Filter = Point;`) with the given U/V address modes.
pub(crate) fn point_state(
    u: shadowdusk::mgfx::TextureAddressMode,
    v: shadowdusk::mgfx::TextureAddressMode,
) -> SamplerState {
    SamplerState {
        address_u: u,
        address_v: v,
        filter: shadowdusk::mgfx::TextureFilter::Point,
        ..SamplerState::default()
    }
}
