//! Effects built in code for the tests, and access to the shared goldens when present.

use std::path::PathBuf;

use crate::*;

/// `../shared/golden` seen from this crate, or `None` (with a loud message) when absent; a
/// failure under `SHADOWDUSK_REQUIRE_ALL=1`.
pub(super) fn golden_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/golden"));
    if dir.is_dir() {
        Some(dir)
    } else {
        let why = format!("../shared/golden not found at {}", dir.display());
        shadowdusk_testkit::skip(&shadowdusk_testkit::this_test(), &why);
        None
    }
}

pub(super) fn value(name: &str, class: ParameterClass, rows: u8, columns: u8) -> Parameter {
    Parameter::value(name, class, ParameterType::Single, rows, columns)
}

pub(super) fn texture(name: &str, ty: ParameterType) -> Parameter {
    Parameter::texture(name, ty)
}

pub(super) fn array(name: &str, element: Parameter, n: usize) -> Parameter {
    Parameter::array(name, element, n)
}

/// The TintShader effect of mgfx-format.md §14 with the given GLSL.
pub(super) fn tint_shader(glsl: &[u8]) -> Effect {
    Effect {
        version: 10,
        profile: Profile::OpenGL,
        key: 0,
        constant_buffers: vec![ConstantBuffer {
            name: "ps_uniforms_vec4".into(),
            size: 16,
            entries: vec![CbufferEntry {
                parameter: 0,
                offset: 0,
            }],
        }],
        shaders: vec![Shader {
            stage: ShaderStage::Pixel,
            source_file: None,
            entry_point: None,
            code: glsl.to_vec(),
            samplers: vec![Sampler {
                ty: SamplerType::Sampler2D,
                texture_slot: 0,
                sampler_slot: 0,
                state: None,
                name: "ps_s0".into(),
                parameter: 1,
            }],
            cbuffers: vec![0],
            attributes: vec![],
        }],
        parameters: vec![
            value("TintColor", ParameterClass::Vector, 1, 4),
            texture("SpriteTexture", ParameterType::Texture2D),
        ],
        techniques: vec![Technique {
            name: "TintedSpriteDrawing".into(),
            annotations: 0,
            passes: vec![Pass {
                name: "P0".into(),
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

/// An effect that sets every field of the model to a non-default value somewhere.
pub(super) fn everything(version: u8) -> Effect {
    let mut mat = value("World", ParameterClass::Matrix, 4, 3);
    mat.data = Some((0..12).map(|i| (i as f32 * 0.5).to_bits()).collect());
    let mut flags = value("Flags", ParameterClass::Vector, 1, 2);
    flags.ty = ParameterType::Int32;
    flags.data = Some(vec![7, u32::MAX]);
    let mut on = value("On", ParameterClass::Scalar, 1, 1);
    on.ty = ParameterType::Bool;
    on.semantic = "SEM".into();
    on.annotations = 2;
    let lights = array("Lights", value("", ParameterClass::Vector, 1, 3), 3);
    let bones = array("Bones", value("", ParameterClass::Matrix, 4, 3), 2);
    let mut light = Parameter {
        class: ParameterClass::Struct,
        ty: ParameterType::Void,
        name: "Light".into(),
        semantic: String::new(),
        annotations: 0,
        rows: 0,
        columns: 0,
        elements: vec![],
        members: vec![
            value("Dir", ParameterClass::Vector, 1, 3),
            array("Colors", value("", ParameterClass::Vector, 1, 4), 2),
        ],
        data: None,
    };
    light.members[0].data = Some(vec![1.0f32.to_bits(), (-2.5f32).to_bits(), 0x7FC0_0001]);
    let parameters = vec![
        mat,
        flags,
        on,
        lights,
        bones,
        light,
        texture("Diffuse", ParameterType::Texture2D),
        texture("Env", ParameterType::TextureCube),
        texture("Vol", ParameterType::Texture3D),
        texture("Line", ParameterType::Texture1D),
    ];
    let v11 = |s: &str| {
        if version == 11 {
            Some(s.to_string())
        } else {
            None
        }
    };
    Effect {
        version,
        profile: Profile::OpenGL,
        key: 0,
        constant_buffers: vec![
            ConstantBuffer {
                name: "vs_uniforms_vec4".into(),
                size: 16 * 14,
                entries: vec![
                    CbufferEntry {
                        parameter: 0,
                        offset: 0,
                    },
                    CbufferEntry {
                        parameter: 4,
                        offset: 48,
                    },
                    CbufferEntry {
                        parameter: 1,
                        offset: 144,
                    },
                    CbufferEntry {
                        parameter: 2,
                        offset: 160,
                    },
                    CbufferEntry {
                        parameter: 3,
                        offset: 176,
                    },
                ],
            },
            ConstantBuffer {
                name: "ps_uniforms_vec4".into(),
                size: 48,
                entries: vec![CbufferEntry {
                    parameter: 3,
                    offset: 0,
                }],
            },
            ConstantBuffer {
                name: String::new(),
                size: 0,
                entries: vec![],
            },
        ],
        shaders: vec![
            Shader {
                stage: ShaderStage::Pixel,
                source_file: v11("shaders/all.fx"),
                entry_point: None,
                code: b"#ifdef GL_ES\r\nvoid main() {}\r\n".to_vec(),
                samplers: vec![
                    Sampler {
                        ty: SamplerType::Sampler2D,
                        texture_slot: 0,
                        sampler_slot: 0,
                        state: Some(SamplerState {
                            address_u: TextureAddressMode::Clamp,
                            address_v: TextureAddressMode::Mirror,
                            address_w: TextureAddressMode::Border,
                            border_color: [1, 2, 3, 4],
                            filter: TextureFilter::MinPointMagLinearMipPoint,
                            max_anisotropy: 16,
                            max_mip_level: -3,
                            mip_lod_bias: -16.0,
                        }),
                        name: "ps_s0".into(),
                        parameter: 6,
                    },
                    Sampler {
                        ty: SamplerType::SamplerCube,
                        texture_slot: 1,
                        sampler_slot: 2,
                        state: None,
                        name: "ps_s1".into(),
                        parameter: 7,
                    },
                    Sampler {
                        ty: SamplerType::SamplerVolume,
                        texture_slot: 2,
                        sampler_slot: 2,
                        state: Some(SamplerState::default()),
                        name: "ps_s2".into(),
                        parameter: 8,
                    },
                    Sampler {
                        ty: SamplerType::Sampler1D,
                        texture_slot: 3,
                        sampler_slot: 3,
                        state: None,
                        name: "ps_s3".into(),
                        parameter: 9,
                    },
                ],
                cbuffers: vec![1],
                attributes: vec![],
            },
            Shader {
                stage: ShaderStage::Vertex,
                source_file: v11("shaders/all.fx"),
                entry_point: v11("MainVS"),
                code: b"void main() { gl_Position = vec4(0.0); }".to_vec(),
                samplers: vec![],
                cbuffers: vec![0, 2],
                attributes: vec![
                    Attribute {
                        name: "vs_v0".into(),
                        usage: VertexElementUsage::Position,
                        index: 0,
                        location: 0,
                    },
                    Attribute {
                        name: "vs_v1".into(),
                        usage: VertexElementUsage::TessellateFactor,
                        index: 3,
                        location: -2,
                    },
                ],
            },
        ],
        parameters,
        techniques: vec![
            Technique {
                name: "Main".into(),
                annotations: 1,
                passes: vec![
                    Pass {
                        name: String::new(),
                        annotations: 3,
                        vertex_shader: 1,
                        pixel_shader: 0,
                        blend: Some(BlendState {
                            alpha_blend_function: BlendFunction::Max,
                            alpha_destination_blend: Blend::SourceAlphaSaturation,
                            alpha_source_blend: Blend::InverseBlendFactor,
                            blend_factor: [9, 8, 7, 6],
                            color_blend_function: BlendFunction::ReverseSubtract,
                            color_destination_blend: Blend::DestinationColor,
                            color_source_blend: Blend::SourceAlpha,
                            color_write_channels: [1, 2, 4, 8],
                            multi_sample_mask: -5,
                        }),
                        depth_stencil: Some(DepthStencilState {
                            ccw_stencil_depth_buffer_fail: StencilOperation::Invert,
                            ccw_stencil_fail: StencilOperation::Zero,
                            ccw_stencil_function: CompareFunction::NotEqual,
                            ccw_stencil_pass: StencilOperation::Replace,
                            depth_buffer_enable: false,
                            depth_buffer_function: CompareFunction::Greater,
                            depth_buffer_write_enable: false,
                            reference_stencil: 77,
                            stencil_depth_buffer_fail: StencilOperation::DecrementSaturation,
                            stencil_enable: true,
                            stencil_fail: StencilOperation::Increment,
                            stencil_function: CompareFunction::Less,
                            stencil_mask: 0x0F,
                            stencil_pass: StencilOperation::Decrement,
                            stencil_write_mask: 0xF0,
                            two_sided_stencil_mode: true,
                        }),
                        rasterizer: Some(RasterizerState {
                            cull_mode: CullMode::None,
                            depth_bias: -0.25,
                            fill_mode: FillMode::WireFrame,
                            multi_sample_anti_alias: false,
                            scissor_test_enable: true,
                            slope_scale_depth_bias: 1.5,
                        }),
                    },
                    Pass {
                        name: "Second".into(),
                        annotations: 0,
                        vertex_shader: -1,
                        pixel_shader: -1,
                        blend: None,
                        depth_stencil: Some(DepthStencilState::default()),
                        rasterizer: None,
                    },
                ],
            },
            Technique {
                name: String::new(),
                annotations: 0,
                passes: vec![],
            },
        ],
    }
}
