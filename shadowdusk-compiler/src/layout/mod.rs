//! Stage 7: tables. Compiled shaders + the effect AST → the MGFX [`Effect`].
//!
//! Input: the [`EffectAst`] (uniform declarations with types and initializers, techniques and
//! passes with their states), the compiled shaders in their final order ([`ShaderInput`], built
//! by the pipeline from each dialect shader), and each pass's shader indices.
//! Output: a [`shadowdusk_mgfx::Effect`] laid out as mgfxc lays it out (mgfx-format.md §12):
//! constant-buffer records per shader (deduplicated), parameters in first-seen order (buffer
//! entries, then sampler textures), sampler records, attributes, techniques and passes.
//!
//! Where ShadowDusk does better than mgfxc: global initializers are baked into parameter data
//! (mgfxc's GL output always writes zeros), and uniforms that no shader kept are still listed as
//! parameters (after the others), so code that sets them does not break when the shader changes.
//!
//! Invariant: the register numbers come from the dialect rewrite; this stage never invents an
//! offset, it only converts registers to byte offsets (16 bytes each).

mod parameters;
mod registers;

use shadowdusk_mgfx::{
    Attribute, ConstantBuffer, Effect, Pass, Profile, Sampler, SamplerState, SamplerType, Shader,
    ShaderStage, Technique,
};

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::effect::{Dim, EffectAst};
use crate::lower::Stage;
use crate::preprocess::Expanded;

pub use parameters::parameter_for;

/// One compiled shader, as the layout needs it.
#[derive(Clone, Debug)]
pub struct ShaderInput {
    /// Stage.
    pub stage: Stage,
    /// Final GLSL text.
    pub glsl: String,
    /// Uniform registers read by this shader, in allocation order.
    pub registers: Vec<RegisterInput>,
    /// Length of the `*_uniforms_vec4` array (0 = none).
    pub register_count: u32,
    /// Samplers (pixel shaders).
    pub samplers: Vec<SamplerInput>,
    /// Vertex attributes (vertex shaders).
    pub attributes: Vec<Attribute>,
}

/// A uniform placed in registers.
#[derive(Clone, Debug)]
pub struct RegisterInput {
    /// The effect parameter name (the HLSL uniform name, carriers already mapped back).
    pub parameter: String,
    /// First register.
    pub base: u32,
    /// Registers used.
    pub count: u32,
}

/// A sampler of a shader, resolved to its texture parameter.
#[derive(Clone, Debug)]
pub struct SamplerInput {
    /// GLSL uniform name (`ps_s0`).
    pub glsl_name: String,
    /// Texture unit = sampler slot.
    pub slot: u32,
    /// Dimension.
    pub dim: Dim,
    /// Texture parameter name.
    pub parameter: String,
    /// Baked state.
    pub state: Option<SamplerState>,
}

/// Shader indices of one pass, in technique/pass order of the AST.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassShaders {
    /// Vertex shader index or -1.
    pub vertex: i32,
    /// Pixel shader index or -1.
    pub pixel: i32,
}

/// Where `name` is declared (a uniform, sampler or texture), for errors about it.
fn declaration_span(
    expanded: &Expanded,
    ast: &EffectAst,
    name: &str,
) -> Option<crate::source::Span> {
    expanded
        .map
        .span(ast.declaration(crate::lower::user_name(name))?)
}

/// Builds the MGFX model. `passes[t][p]` are the shader indices of pass `p` of technique `t`.
pub fn build(
    expanded: &Expanded,
    ast: &EffectAst,
    shaders: &[ShaderInput],
    passes: &[Vec<PassShaders>],
) -> Result<Effect, Diagnostics> {
    let mut params = parameters::ParameterTable::new(expanded, ast);
    let mut diags = Diagnostics::new();
    let (cbuffers, shader_cbuffers) =
        constant_buffers(expanded, ast, shaders, &mut params, &mut diags);

    // Then sampler textures, in shader order.
    let mut out_shaders = Vec::with_capacity(shaders.len());
    for (s, cb) in shaders.iter().zip(shader_cbuffers) {
        let samplers = s
            .samplers
            .iter()
            .filter_map(|smp| sampler_record(expanded, ast, smp, &mut params, &mut diags))
            .collect();
        out_shaders.push(Shader {
            stage: match s.stage {
                Stage::Vertex => ShaderStage::Vertex,
                Stage::Pixel => ShaderStage::Pixel,
            },
            source_file: None,
            entry_point: None,
            code: s.glsl.clone().into_bytes(),
            samplers,
            cbuffers: cb,
            attributes: s.attributes.clone(),
        });
    }

    let parameters = params.finish(&mut diags);
    let techniques = techniques(ast, passes, &mut diags);
    if diags.has_errors() {
        return Err(diags);
    }
    Ok(Effect {
        version: shadowdusk_mgfx::VERSION,
        profile: Profile::OpenGL,
        key: 0,
        constant_buffers: cbuffers,
        shaders: out_shaders,
        parameters,
        techniques,
    })
}

/// Constant buffers come first, in shader order, deduplicated (mgfxc
/// `ConstantBufferData.SameAs`), because their entries are the first parameters. Returns the
/// records and each shader's list of record indices.
fn constant_buffers(
    expanded: &Expanded,
    ast: &EffectAst,
    shaders: &[ShaderInput],
    params: &mut parameters::ParameterTable<'_>,
    diags: &mut Diagnostics,
) -> (Vec<ConstantBuffer>, Vec<Vec<u8>>) {
    let mut cbuffers: Vec<ConstantBuffer> = Vec::new();
    let mut shader_cbuffers: Vec<Vec<u8>> = Vec::with_capacity(shaders.len());
    for s in shaders {
        match registers::record(s, params) {
            Ok(Some(record)) => {
                let idx = match cbuffers.iter().position(|c| *c == record) {
                    Some(i) => i,
                    None => {
                        cbuffers.push(record);
                        cbuffers.len() - 1
                    }
                };
                match u8::try_from(idx) {
                    Ok(i) => shader_cbuffers.push(vec![i]),
                    Err(_) => {
                        diags.push(Diagnostic::error(
                            Code::SD0022,
                            "more than 255 constant buffers in one effect",
                        ));
                        shader_cbuffers.push(Vec::new());
                    }
                }
            }
            Ok(None) => shader_cbuffers.push(Vec::new()),
            Err(d) => {
                diags.push(at_first_overflow(expanded, ast, s, d));
                shader_cbuffers.push(Vec::new());
            }
        }
    }
    (cbuffers, shader_cbuffers)
}

/// A record too large for MGFX is reported at the first uniform that does not fit, so the
/// user sees which declaration to move or shrink.
fn at_first_overflow(
    expanded: &Expanded,
    ast: &EffectAst,
    s: &ShaderInput,
    mut d: Diagnostic,
) -> Diagnostic {
    if d.code == Code::SD0020 && d.primary.is_none() {
        let over = s
            .registers
            .iter()
            .find(|r| u64::from(r.base + r.count) * 16 > 32767);
        if let Some(r) = over {
            d = d.at_opt(declaration_span(expanded, ast, &r.parameter));
        }
    }
    d
}

/// One sampler record, with its texture registered as a parameter; `None` (and an error)
/// when MGFX's byte-sized slot or parameter index cannot hold it.
fn sampler_record(
    expanded: &Expanded,
    ast: &EffectAst,
    smp: &SamplerInput,
    params: &mut parameters::ParameterTable<'_>,
    diags: &mut Diagnostics,
) -> Option<Sampler> {
    let parameter = match params.texture(&smp.parameter, smp.dim) {
        Ok(i) => i,
        Err(d) => {
            diags.push(d);
            return None;
        }
    };
    let (Ok(slot), Ok(parameter)) = (u8::try_from(smp.slot), u8::try_from(parameter)) else {
        diags.push(
            Diagnostic::error(
                Code::SD0022,
                format!(
                    "`{}` has a sampler slot or parameter index above 255, more than MGFX can hold",
                    smp.parameter
                ),
            )
            .at_opt(declaration_span(expanded, ast, &smp.parameter))
            .with_help("declare textures and samplers before the uniforms, or use fewer uniforms"),
        );
        return None;
    };
    Some(Sampler {
        ty: sampler_type(smp.dim),
        texture_slot: slot,
        sampler_slot: slot,
        state: smp.state,
        name: smp.glsl_name.clone(),
        parameter,
    })
}

/// The AST's techniques with the passes that compiled a shader; a pass or technique with
/// none would be unusable at run time, so it is left out, and an effect left with no
/// technique is an error.
fn techniques(
    ast: &EffectAst,
    passes: &[Vec<PassShaders>],
    diags: &mut Diagnostics,
) -> Vec<Technique> {
    let mut techniques = Vec::new();
    for (t, tech) in ast.techniques.iter().enumerate() {
        let mut out_passes = Vec::new();
        for (p, pass) in tech.passes.iter().enumerate() {
            let Some(idx) = passes.get(t).and_then(|v| v.get(p)) else {
                continue;
            };
            if idx.vertex < 0 && idx.pixel < 0 {
                continue;
            }
            out_passes.push(Pass {
                name: pass.name.clone(),
                annotations: 0,
                vertex_shader: idx.vertex,
                pixel_shader: idx.pixel,
                blend: pass.blend,
                depth_stencil: pass.depth_stencil,
                rasterizer: pass.rasterizer,
            });
        }
        if !out_passes.is_empty() {
            techniques.push(Technique {
                name: tech.name.clone(),
                annotations: 0,
                passes: out_passes,
            });
        }
    }
    if techniques.is_empty() {
        diags.push(
            Diagnostic::error(
                Code::SD0010,
                "the effect has no technique with a pass that compiles a shader",
            )
            .with_help("add `technique T { pass P { PixelShader = compile ps_3_0 MainPS(); } }`"),
        );
    }
    techniques
}

fn sampler_type(dim: Dim) -> SamplerType {
    match dim {
        Dim::D1 => SamplerType::Sampler1D,
        Dim::D2 => SamplerType::Sampler2D,
        Dim::D3 => SamplerType::SamplerVolume,
        Dim::Cube => SamplerType::SamplerCube,
    }
}
