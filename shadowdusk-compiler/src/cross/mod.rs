//! Stage 5: SPIRV-Cross. SPIR-V → legacy GLSL text plus the reflection the dialect rewrite needs.
//!
//! Input: [`Spirv`] from DXC and the stage. Output: [`CrossGlsl`]: GLSL 1.10 text (with its
//! `#version` line) and, from the SPIR-V reflection API (never from the text), the uniform
//! blocks with their members, the combined samplers with the HLSL texture and sampler they came
//! from, and the stage inputs/outputs with their HLSL semantics. Spec: fx-pipeline.md §8,
//! glsl-dialect.md §9.
//!
//! Why GLSL 1.10 output instead of ShadowDusk's 140 + text rewrite: SPIRV-Cross's legacy backend
//! already emits `attribute`/`varying`, `texture2D`/`textureCube`/`texture3D` chosen by sampler
//! type, `gl_FragData`, no `layout(...)`, and refuses (or polyfills) what GLSL 1.10 lacks. Most
//! importantly its `flatten_buffer_block` turns a uniform block into `uniform vec4 X[N];` and
//! spells every member read — including row-/column-major matrices, matrix columns and dynamically
//! indexed arrays of matrices — as reads of that array, following the SPIR-V decorations. Before
//! flattening, the member `Offset`s are rewritten so each member starts in its own 16-byte
//! register (MonoGame's one-parameter-per-register model, fx-pipeline.md §9.2); the dialect
//! stage then only has to merge the per-block arrays into one and rename identifiers.
//!
//! Names chosen here (all replaced by the dialect stage): uniform arrays `sd_ub<k>`, combined
//! samplers `sd_cs<k>`, stage inputs `sd_in_<SEM>`, stage outputs `sd_out_<SEM>`.
//!
//! Before SPIRV-Cross, four SPIR-V rewrites: `integers` turns Shader Model 2/3 integer maths
//! into what fxc computed (signed only; `/` and `%` as float maths, exact below 2^24), `widen`
//! gives non-square matrix temporaries a square shape, `lanes` rewrites run-time vector lanes
//! of uniforms, and `d3d_math` gives `pow`, `log`, `sqrt` and `rsqrt` Direct3D 9's results
//! where GLSL leaves them undefined (see each module). The wgpu target translates the same
//! module. Then, for SPIRV-Cross only, `loop_inserts` gives a loop that writes one part of a
//! composite made before it a copy to write into, since SPIRV-Cross would write in place and
//! carry the write into the next iteration.
//!
//! Refused here: nothing user-level. A block SPIRV-Cross cannot flatten (a member that is not
//! float-based, a struct) is left as a plain struct uniform and reported in [`UniformBlock`] with
//! `flattened_name: None`, so the dialect stage can name the offending member (SD0210).
//! Errors returned are SPIRV-Cross failures and SPIR-V the rewrites cannot read (SD0101).

mod d3d_math;
mod integers;
mod lanes;
mod loop_inserts;
mod reflect;
pub(crate) mod spirv;
mod widen;

use std::collections::BTreeMap;

pub use reflect::member_registers;

use spirv_cross2::compile::glsl::GlslVersion;
use spirv_cross2::compile::CompilableTarget;
use spirv_cross2::targets::Glsl;
use spirv_cross2::{Compiler, Module};

use crate::dxc::Spirv;
use crate::effect::Dim;
use crate::lower::Stage;

/// SPIRV-Cross output for one shader.
#[derive(Clone, Debug, PartialEq)]
pub struct CrossGlsl {
    /// GLSL 1.10 text as SPIRV-Cross emitted it.
    pub text: String,
    /// Uniform blocks (`$Globals` and cbuffers), in declaration order.
    pub blocks: Vec<UniformBlock>,
    /// Combined samplers, in SPIRV-Cross's order.
    pub combined: Vec<CombinedSampler>,
    /// Stage inputs, user-semantic ones in location order, then builtins.
    pub inputs: Vec<StageVar>,
    /// Stage outputs, user-semantic ones in location order, then builtins.
    pub outputs: Vec<StageVar>,
}

/// One uniform block (an HLSL cbuffer or `$Globals`).
#[derive(Clone, Debug, PartialEq)]
pub struct UniformBlock {
    /// SPIR-V type name as DXC wrote it (`type.$Globals`, `type.<Name>`).
    pub type_name: String,
    /// Variable name as DXC wrote it (`$Globals`, `<Name>`).
    pub instance: String,
    /// Members in declaration order.
    pub members: Vec<BlockMember>,
    /// The `uniform vec4 <name>[registers];` array SPIRV-Cross emitted for this block, or `None`
    /// when the block could not be flattened (see the module doc).
    pub flattened_name: Option<String>,
    /// Registers the block occupies (sum over members).
    pub registers: u32,
}

/// The shape of a member's element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberKind {
    /// `float`/`floatN` (N = components).
    Float {
        /// 1–4.
        components: u32,
    },
    /// A float matrix, in HLSL terms.
    Matrix {
        /// HLSL rows.
        rows: u32,
        /// HLSL columns.
        columns: u32,
    },
    /// int/uint/bool scalars or vectors, doubles, halfs.
    NonFloat,
    /// A struct.
    Struct,
    /// Anything else (nested arrays, ...).
    Other,
}

/// One member of a uniform block.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockMember {
    /// HLSL name as DXC kept it.
    pub name: String,
    /// GLSL spelling of the element type (`float`, `vec3`, `mat4`, `mat4x3`, `int`, `struct`).
    pub glsl_type: String,
    /// D3D (`-fvk-use-dx-layout`) byte offset DXC assigned, before re-packing.
    pub offset: u32,
    /// Element count when the member is an array.
    pub array: Option<u32>,
    /// HLSL `row_major` packing (memory vectors are HLSL rows). The default `column_major`
    /// is `false`: memory vector k is HLSL column k, as MonoGame uploads.
    pub row_major: bool,
    /// Element shape.
    pub kind: MemberKind,
    /// First register within the block's flattened array.
    pub register: u32,
    /// Registers the member occupies (all elements).
    pub registers: u32,
}

/// A combined image-sampler SPIRV-Cross built from a (texture, SamplerState) pair.
#[derive(Clone, Debug, PartialEq)]
pub struct CombinedSampler {
    /// Its name in [`CrossGlsl::text`].
    pub glsl_name: String,
    /// HLSL texture name.
    pub texture: String,
    /// HLSL `SamplerState` name.
    pub sampler: String,
    /// Texture dimension.
    pub dim: Dim,
    /// Arrayed, multisampled or depth-compare texture (no GLSL 1.10 spelling).
    pub exotic: bool,
}

/// A stage input or output.
#[derive(Clone, Debug, PartialEq)]
pub struct StageVar {
    /// Its name in [`CrossGlsl::text`] (`sd_in_TEXCOORD0`, or `gl_Position` etc. for builtins).
    pub glsl_name: String,
    /// HLSL semantic, upper-cased (`TEXCOORD0`, `COLOR0`, `POSITION`, `SV_POSITION`).
    pub semantic: String,
    /// Components of a scalar/vector variable; 0 for arrays, matrices and structs.
    pub components: u32,
    /// `Location` decoration (user semantics only).
    pub location: Option<u32>,
    /// `true` for SPIR-V builtins (`SV_*` semantics SPIRV-Cross spells `gl_*`).
    pub builtin: bool,
}

/// Translates SPIR-V to GLSL 1.10 and reflects what the dialect rewrite needs.
pub fn to_glsl(spirv: &Spirv, stage: Stage) -> Result<CrossGlsl, String> {
    to_glsl_with_registers(&rewritten(spirv)?, stage, &BTreeMap::new())
}

/// DXC's module after the four rewrites (`integers`, `widen`, `lanes`, `d3d_math`): what every target
/// translates, SPIRV-Cross for OpenGL and naga for wgpu, so both compute the same thing.
pub fn rewritten(spirv: &Spirv) -> Result<Vec<u32>, String> {
    let integers = integers::lower(&spirv.words)?;
    let words = integers.as_deref().unwrap_or(&spirv.words);
    let widened = widen::widen(words);
    let words = widened.as_deref().unwrap_or(words);
    let split = lanes::split_dynamic_lanes(words);
    let words = split.as_deref().unwrap_or(words);
    let d3d9 = d3d_math::follow_d3d9(words);
    Ok(d3d9.unwrap_or_else(|| words.to_vec()))
}

/// [`to_glsl`] of a [`rewritten`] module, with the uniforms this stage gives an explicit
/// `register(cN)` (by name): the register order fxc would use, which mgfxc's records follow.
pub fn to_glsl_with_registers(
    words: &[u32],
    stage: Stage,
    explicit: &BTreeMap<String, u32>,
) -> Result<CrossGlsl, String> {
    fn e(what: &'static str) -> impl Fn(spirv_cross2::SpirvCrossError) -> String {
        move |err| format!("SPIRV-Cross: {what}: {err}")
    }
    // GL only: SPIRV-Cross's in-place composite writes, not the module, are what it corrects.
    let copied = loop_inserts::copy_loop_inserts(words);
    let words = copied.as_deref().unwrap_or(words);
    let mut c =
        Compiler::<Glsl>::new(Module::from_words(words)).map_err(e("cannot read the SPIR-V"))?;
    let proof = c
        .create_dummy_sampler_for_combined_images()
        .map_err(e("dummy sampler"))?;
    c.build_combined_image_samplers(proof)
        .map_err(e("combined samplers"))?;

    let combined = reflect::combined_samplers(&mut c)?;
    let blocks = reflect::uniform_blocks(&mut c, explicit)?;
    let (inputs, outputs) = reflect::stage_vars(&mut c)?;

    let mut opts = Glsl::options();
    opts.version = GlslVersion::Glsl110;
    opts.vulkan_semantics = false;
    opts.enable_420pack_extension = false;
    opts.common.flip_vertex_y = false;
    // SPIR-V OpUndef becomes an uninitialised global, which drivers warn about and which reads
    // garbage on some; zero is as good a value as any for "undefined".
    opts.common.force_zero_initialized_variables = true;
    // D3D clip depth [0,w] → GL [-w,w]; posFixup (glsl-dialect.md §7) never does the depth part.
    opts.common.fixup_clipspace = stage == Stage::Vertex;
    let text = c
        .compile(&opts)
        .map_err(e("GLSL generation failed"))?
        .to_string();
    Ok(CrossGlsl {
        text,
        blocks,
        combined,
        inputs,
        outputs,
    })
}

#[cfg(test)]
mod tests;
