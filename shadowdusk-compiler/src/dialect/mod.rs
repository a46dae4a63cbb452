//! Stage 6: the MojoShader-dialect rewrite of SPIRV-Cross GLSL (glsl-dialect.md, the binding
//! contract MonoGame's OpenGL runtime relies on).
//!
//! Input: [`CrossGlsl`] (GLSL 1.10 from SPIRV-Cross with flattened uniform arrays and
//! predictable `sd_*` names, plus reflection), the stage, and the pipeline's sampler slots.
//! Output: [`DialectShader`]: versionless GLSL 1.10 / ES 1.00 text satisfying the §8 checklist,
//! the register allocation the cbuffer record is built from, sampler and attribute records.
//!
//! How: names are replaced on token boundaries ([`tokens`]) using the reflection, never by
//! matching declarations textually; SPIRV-Cross's own `sd_*` declarations are dropped and the
//! dialect's declarations are written in mgfxc's order. Matrices need no special handling here:
//! SPIRV-Cross already spelled every matrix read from the flattened block following the SPIR-V
//! decorations (`mat4(U[r], U[r+1], U[r+2], U[r+3])`, registers as GLSL columns = HLSL columns,
//! the layout MonoGame uploads, §3.3); the render test in `tests` pins this with an asymmetric
//! matrix.
//!
//! Refused: see `uniforms` (SD0210), [`samplers`] (SD0211, SD0212, SD0023), [`interface`]
//! (SD0213, SD0216, SD0219), a projected cube lookup (SD0214, a guard), user
//! identifiers equal to generated names (SD0215), integer bit operators (`validate`, SD0221:
//! Shader Model 2/3 have none), and anything left that GLSL 1.10 lacks (`validate`, SD0219).
//! Integer arithmetic itself is not refused: `cross` has already made it signed and spelled
//! division and remainder as truncated float maths.

mod arrays;
mod body;
mod header;
pub mod interface;
pub mod samplers;
pub mod tokens;
mod uniforms;
mod validate;

use crate::cross::{CombinedSampler, CrossGlsl};
use crate::diag::Code;
use crate::effect::Dim;
use crate::lower::Stage;

/// A shader in MonoGame's GLSL dialect, with the records that describe it.
#[derive(Clone, Debug, PartialEq)]
pub struct DialectShader {
    /// The GLSL text (ASCII, no `#version`, LF line endings).
    pub glsl: String,
    /// Uniform registers in allocation order.
    pub registers: Vec<RegisterAlloc>,
    /// N in `{vs,ps}_uniforms_vec4[N]`; 0 = no array declared.
    pub register_count: u32,
    /// Samplers (pixel stage), in `combined` order.
    pub samplers: Vec<DialectSampler>,
    /// Vertex attributes (vertex stage), `vs_v0`, `vs_v1`, ... in declaration order.
    pub attributes: Vec<shadowdusk_mgfx::Attribute>,
}

/// One uniform placed in the register array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterAlloc {
    /// Block member name (the HLSL uniform, or its carrier when the lowering retyped it).
    pub name: String,
    /// Block (cbuffer) instance name as DXC wrote it (`$Globals`, `<cbuffer name>`).
    pub block: String,
    /// First register.
    pub base: u32,
    /// Registers used (all elements).
    pub count: u32,
    /// GLSL type of one element.
    pub glsl_type: String,
    /// Element count for arrays.
    pub array: Option<u32>,
}

/// A sampler of a pixel shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DialectSampler {
    /// `ps_s<slot>`.
    pub glsl_name: String,
    /// Texture unit.
    pub slot: u32,
    /// HLSL texture name.
    pub texture: String,
    /// HLSL `SamplerState` name.
    pub sampler: String,
    /// Dimension.
    pub dim: Dim,
}

/// Why the rewrite failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DialectError {
    /// Stable code.
    pub code: Code,
    /// What is wrong.
    pub message: String,
    /// What to do.
    pub help: String,
    /// The HLSL identifier (or semantic) it is about, so the caller can find its span.
    pub subject: Option<String>,
}

impl DialectError {
    pub(crate) fn new(
        code: Code,
        message: impl Into<String>,
        help: impl Into<String>,
        subject: Option<String>,
    ) -> Self {
        DialectError {
            code,
            message: message.into(),
            help: help.into(),
            subject,
        }
    }
}

impl std::fmt::Display for DialectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} (help: {})", self.code, self.message, self.help)
    }
}

/// Rewrites SPIRV-Cross output into MonoGame's dialect.
pub fn rewrite(
    cross: &CrossGlsl,
    stage: Stage,
    slot_of: &dyn Fn(&CombinedSampler) -> Option<u32>,
) -> Result<DialectShader, DialectError> {
    let alloc = uniforms::allocate(&cross.blocks)?;
    let samplers = samplers::assign(&cross.combined, stage, slot_of)?;
    let (inputs, attributes) = match stage {
        Stage::Vertex => interface::vertex_inputs(&cross.inputs)?,
        Stage::Pixel => (interface::pixel_inputs(&cross.inputs)?, Vec::new()),
    };
    let (outputs, targets) = match stage {
        Stage::Vertex => (interface::vertex_outputs(&cross.outputs)?, Vec::new()),
        Stage::Pixel => (Vec::new(), interface::pixel_outputs(&cross.outputs)?),
    };
    let glsl = body::emit(&body::Plan {
        cross,
        stage,
        alloc: &alloc,
        samplers: &samplers,
        inputs: &inputs,
        outputs: &outputs,
        targets: &targets,
    })?;
    validate::check(&glsl)?;
    Ok(DialectShader {
        glsl,
        registers: alloc.registers,
        register_count: alloc.count,
        samplers,
        attributes,
    })
}

#[cfg(test)]
mod gl;
#[cfg(test)]
mod tests;
