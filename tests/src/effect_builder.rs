//! Small MGFX effects built in code, for loader tests that need a construct no golden isolates
//! (cube and volume samplers, arrays, non-square matrices).

use shadowdusk::mgfx::{
    CbufferEntry, ConstantBuffer, Effect, Parameter, ParameterClass, ParameterType, Pass, Profile,
    Sampler, SamplerState, SamplerType, Shader, ShaderStage, Technique,
};

/// A float value parameter (`rows`×`columns`, zeros), optionally an array of `elements`.
pub fn value_param(
    name: &str,
    class: ParameterClass,
    rows: u8,
    columns: u8,
    elements: usize,
) -> Parameter {
    let leaf = Parameter::value(name, class, ParameterType::Single, rows, columns);
    if elements == 0 {
        return leaf;
    }
    Parameter::array(name, leaf, elements)
}

/// A texture parameter of the type matching `ty`.
pub fn texture_param(name: &str, ty: SamplerType) -> Parameter {
    let ty = match ty {
        SamplerType::Sampler2D => ParameterType::Texture2D,
        SamplerType::SamplerCube => ParameterType::TextureCube,
        SamplerType::SamplerVolume => ParameterType::Texture3D,
        SamplerType::Sampler1D => ParameterType::Texture1D,
    };
    Parameter::texture(name, ty)
}

/// A sampler record `ps_s<slot>` reading texture parameter `parameter`.
pub fn sampler(ty: SamplerType, slot: u8, parameter: u8, state: Option<SamplerState>) -> Sampler {
    Sampler {
        ty,
        texture_slot: slot,
        sampler_slot: slot,
        state,
        name: format!("ps_s{slot}"),
        parameter,
    }
}

/// A `ps_uniforms_vec4` record of `size` bytes with (parameter, offset) entries.
pub fn ps_cbuffer(size: u16, entries: &[(i32, u16)]) -> ConstantBuffer {
    ConstantBuffer {
        name: "ps_uniforms_vec4".into(),
        size,
        entries: entries
            .iter()
            .map(|&(parameter, offset)| CbufferEntry { parameter, offset })
            .collect(),
    }
}

/// A PS-only OpenGL effect (one technique "T", one pass "P", vertex shader -1) whose pixel
/// shader is `glsl` with the given records; the shader uses every cbuffer given.
pub fn ps_only_effect(
    glsl: &str,
    samplers: Vec<Sampler>,
    constant_buffers: Vec<ConstantBuffer>,
    parameters: Vec<Parameter>,
) -> Effect {
    let cbuffers = (0..constant_buffers.len() as u8).collect();
    Effect {
        version: 10,
        profile: Profile::OpenGL,
        key: 0,
        constant_buffers,
        shaders: vec![Shader {
            stage: ShaderStage::Pixel,
            source_file: None,
            entry_point: None,
            code: glsl.as_bytes().to_vec(),
            samplers,
            cbuffers,
            attributes: vec![],
        }],
        parameters,
        techniques: vec![Technique {
            name: "T".into(),
            annotations: 0,
            passes: vec![Pass {
                name: "P".into(),
                annotations: 0,
                vertex_shader: -1,
                pixel_shader: 0,
                blend: None,
                depth_stencil: None,
                rasterizer: None,
            }],
        }],
    }
}
