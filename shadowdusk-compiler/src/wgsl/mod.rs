//! The wgpu target: WGSL for every shader, from the SPIR-V the GL path translates
//! ([`crate::cross::rewritten`]: DXC's module after our rewrites), through naga, at build time.
//!
//! Input: that module, the stage, and what the GL path decided for the shader (its register
//! allocation and sampler slots, `DialectShader`), so both targets share one layout. Output:
//! [`WgpuShader`] (WGSL text, entry point, bind-group layout entries, vertex inputs, varyings).
//!
//! Steps, each a SPIR-V rewrite before naga reads the module: `strip` (debug instructions),
//! `bool_vectors` (`&&`/`||` of bool vectors one component at a time, as WGSL has them),
//! `registers` (uniforms as the GL register image), `resources` (the fixed binding rule),
//! `unread` (pixel inputs whose values reach nothing), `interface` + `tables` (locations, per
//! shader in one canonical order), then `emit` (naga: read, validate with every flag, write
//! WGSL), and last where each pixel input's location number sits in the text. The data types
//! here are built without naga; the steps need feature `wgsl`.
//!
//! Y axis: wgpu's clip space is D3D's, so nothing is flipped and there is no `posFixup`.

#[cfg(feature = "wgsl")]
mod bool_vectors;
#[cfg(feature = "wgsl")]
mod emit;
#[cfg(feature = "wgsl")]
mod interface;
#[cfg(feature = "wgsl")]
mod registers;
#[cfg(feature = "wgsl")]
mod resources;
#[cfg(feature = "wgsl")]
mod strip;
#[cfg(feature = "wgsl")]
mod tables;
#[cfg(feature = "wgsl")]
mod unread;
#[cfg(feature = "wgsl")]
mod words;

#[cfg(feature = "wgsl")]
pub use emit::{validator, DIRECTIVE};
#[cfg(feature = "wgsl")]
pub use resources::{sampler_binding, texture_binding};

/// The wgpu output's data types: the interchange the runtime loads (one home, in the contract
/// crate).
pub use shadowdusk_mgfx::wgpu::{
    WgpuBinding, WgpuBindingKind, WgpuEffect, WgpuShader, WgpuVarying, WgpuVertexInput,
};

/// Why a shader has no wgpu translation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg(feature = "compile")]
pub(crate) struct WgslError {
    /// SD0300–SD0303.
    pub code: crate::diag::Code,
    /// The HLSL construct (a uniform, texture or semantic name) it is about, when one is.
    pub subject: Option<String>,
    /// What went wrong.
    pub message: String,
    /// What to do.
    pub help: String,
}

// Without feature `wgsl` only the SD0304 error is made.
#[cfg(feature = "compile")]
#[cfg_attr(not(feature = "wgsl"), allow(dead_code))]
impl WgslError {
    fn unsupported(subject: &str, what: &str) -> WgslError {
        WgslError {
            code: crate::diag::Code::SD0300,
            subject: Some(subject.to_string()),
            message: format!("`{subject}`: {what} has no WGSL translation"),
            help: "rewrite the construct, or build this effect for OpenGL only".into(),
        }
    }
    fn location(semantic: &str, vertex_input: bool) -> WgslError {
        WgslError {
            code: crate::diag::Code::SD0302,
            subject: Some(semantic.to_string()),
            message: format!(
                "semantic `{semantic}` is no D3D9 {}, so it has no location on wgpu",
                if vertex_input {
                    "vertex input usage"
                } else {
                    "usage a varying or render target takes"
                }
            ),
            help: "use a D3D9 usage with an index from 0 to 15 (POSITION, BLENDWEIGHT, \
                   BLENDINDICES, NORMAL, PSIZE, TEXCOORD, TANGENT, BINORMAL, TESSFACTOR, \
                   POSITIONT, COLOR, FOG, DEPTH, SAMPLE); a pixel shader writes COLOR0–COLOR7"
                .into(),
        }
    }
    fn naga(step: &str, message: String) -> WgslError {
        WgslError {
            code: crate::diag::Code::SD0303,
            subject: None,
            message: format!("naga refused the shader while {step}: {message}"),
            help: "this is a ShadowDusk bug if the effect compiles for OpenGL; please report it \
                   with the effect"
                .into(),
        }
    }
    fn internal(message: String) -> WgslError {
        WgslError {
            code: crate::diag::Code::SD0303,
            subject: None,
            message,
            help: "this is a ShadowDusk bug if the effect compiles for OpenGL; please report it \
                   with the effect"
                .into(),
        }
    }
}

/// What the GL path decided for a shader, which the wgpu translation follows.
#[cfg(feature = "compile")]
#[cfg_attr(not(feature = "wgsl"), allow(dead_code))]
pub(crate) struct GlLayout<'a> {
    /// The register allocation.
    pub registers: &'a [crate::dialect::RegisterAlloc],
    /// The sampler slots.
    pub samplers: &'a [crate::dialect::DialectSampler],
}

/// Translates one shader's rewritten SPIR-V ([`crate::cross::rewritten`]) to WGSL.
#[cfg(feature = "wgsl")]
pub(crate) fn translate(
    words: &[u32],
    stage: crate::lower::Stage,
    gl: &GlLayout<'_>,
) -> Result<WgpuShader, WgslError> {
    use crate::lower::Stage;
    let (group, prefix) = match stage {
        Stage::Vertex => (0, "vs"),
        Stage::Pixel => (1, "ps"),
    };
    let mut spv = words::Spv::open(words)
        .ok_or_else(|| WgslError::internal("the SPIR-V module is truncated".into()))?;
    strip::strip(&mut spv);
    bool_vectors::rewrite(&mut spv);
    let regs = registers::rewrite(&mut spv, gl.registers, group, prefix)?;
    let mut bindings = resources::bind(&mut spv, gl.samplers, group)?;
    if regs.var.is_some() {
        bindings.insert(
            0,
            WgpuBinding {
                group,
                binding: 0,
                slot: None,
                name: format!("{prefix}_uniforms"),
                kind: WgpuBindingKind::Uniform { size: regs.size },
            },
        );
    }
    let mut io = interface::assign(&mut spv, stage)?;
    let (wgsl, entry) = emit::emit(&spv.close())?;
    if stage == Stage::Pixel {
        interface::locate_pixel_inputs(&wgsl, &entry, &mut io.varyings)?;
    }
    Ok(WgpuShader {
        stage: match stage {
            Stage::Vertex => "vertex",
            Stage::Pixel => "pixel",
        }
        .into(),
        wgsl,
        entry,
        group,
        uniform_size: regs.size,
        bindings,
        vertex_inputs: io.inputs,
        varyings: io.varyings,
    })
}
