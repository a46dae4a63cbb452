//! Unit tests of code generation on small hand-built effects.

use shadowdusk_mgfx::{
    CbufferEntry, ConstantBuffer, Effect, Parameter, ParameterClass, ParameterType, Pass, Profile,
    Shader, ShaderStage, Technique,
};

use super::*;

fn value(name: &str, class: ParameterClass, ty: ParameterType, rows: u8, columns: u8) -> Parameter {
    Parameter::value(name, class, ty, rows, columns)
}

fn effect(params: Vec<Parameter>, entries: Vec<(i32, u16)>, size: u16) -> Effect {
    Effect {
        version: 10,
        profile: Profile::OpenGL,
        key: 0,
        constant_buffers: vec![ConstantBuffer {
            name: "ps_uniforms_vec4".into(),
            size,
            entries: entries
                .into_iter()
                .map(|(parameter, offset)| CbufferEntry { parameter, offset })
                .collect(),
        }],
        shaders: vec![Shader {
            stage: ShaderStage::Pixel,
            source_file: None,
            entry_point: None,
            code: Vec::new(),
            samplers: Vec::new(),
            cbuffers: vec![0],
            attributes: Vec::new(),
        }],
        parameters: params,
        techniques: vec![Technique {
            name: "T".into(),
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

fn gen(e: &Effect) -> Result<String, CodegenError> {
    generate_string(
        e,
        &EffectReflection::default(),
        &CodegenOptions::new("fx", MgfxSource::Bytes(b"MGFX".to_vec())),
    )
}

#[test]
fn colliding_names_get_numbered_methods() {
    let e = effect(
        vec![
            value(
                "TintColor",
                ParameterClass::Vector,
                ParameterType::Single,
                1,
                4,
            ),
            value(
                "tint_color",
                ParameterClass::Vector,
                ParameterType::Single,
                1,
                4,
            ),
            value("type", ParameterClass::Scalar, ParameterType::Single, 1, 1),
        ],
        vec![(0, 0), (1, 16), (2, 32)],
        48,
    );
    let text = gen(&e).unwrap();
    assert!(text.contains("pub fn set_tint_color("), "{text}");
    assert!(text.contains("pub fn set_tint_color_2("), "{text}");
    assert!(text.contains("pub fn type_(&self) -> f32"), "{text}");
    assert!(text.contains("pub fn set_type_("), "{text}");
}

#[test]
fn overrunning_entry_is_refused() {
    let e = effect(
        vec![value(
            "M",
            ParameterClass::Matrix,
            ParameterType::Single,
            4,
            4,
        )],
        vec![(0, 16)],
        64,
    );
    let err = gen(&e).unwrap_err();
    assert!(matches!(err, CodegenError::Malformed(_)), "{err}");
    assert!(err.to_string().contains("registers 1..5"), "{err}");
}

#[test]
fn unaligned_offset_is_refused() {
    let e = effect(
        vec![value(
            "S",
            ParameterClass::Scalar,
            ParameterType::Single,
            1,
            1,
        )],
        vec![(0, 4)],
        16,
    );
    assert!(matches!(gen(&e), Err(CodegenError::Malformed(_))));
}

#[test]
fn struct_parameter_is_refused() {
    let mut s = value("S", ParameterClass::Struct, ParameterType::Void, 0, 0);
    s.data = None;
    s.members = vec![value(
        "a",
        ParameterClass::Scalar,
        ParameterType::Single,
        1,
        1,
    )];
    let e = effect(vec![s], vec![], 16);
    let err = gen(&e).unwrap_err();
    assert_eq!(err.parameter(), Some("S"));
    assert!(
        matches!(err, CodegenError::UnsupportedParameter { .. }),
        "{err}"
    );
}

#[test]
fn int_matrix_is_refused() {
    let e = effect(
        vec![value(
            "M",
            ParameterClass::Matrix,
            ParameterType::Int32,
            2,
            2,
        )],
        vec![(0, 0)],
        32,
    );
    assert!(matches!(
        gen(&e),
        Err(CodegenError::UnsupportedParameter { .. })
    ));
}

#[test]
fn directx_effect_is_refused() {
    let mut e = effect(vec![], vec![], 16);
    e.profile = Profile::DirectX11;
    assert!(matches!(gen(&e), Err(CodegenError::UnsupportedProfile(_))));
}

#[test]
fn reflection_must_match() {
    let e = effect(
        vec![value(
            "A",
            ParameterClass::Scalar,
            ParameterType::Single,
            1,
            1,
        )],
        vec![(0, 0)],
        16,
    );
    let r = EffectReflection {
        parameters: vec![crate::reflect::ParameterInfo {
            name: "B".into(),
            declaration: "float B".into(),
            location: None,
            cbuffer: None,
            default: None,
            used: true,
        }],
        ..EffectReflection::default()
    };
    let opts = CodegenOptions::new("fx", MgfxSource::Bytes(Vec::new()));
    assert!(matches!(
        generate(&e, &r, &opts),
        Err(CodegenError::ReflectionMismatch(_))
    ));
}

#[test]
fn bad_options_are_refused() {
    let e = effect(vec![], vec![], 16);
    let r = EffectReflection::default();
    for name in ["", "1x", "type", "a-b", "_"] {
        let opts = CodegenOptions::new(name, MgfxSource::Bytes(Vec::new()));
        assert!(
            matches!(generate(&e, &r, &opts), Err(CodegenError::InvalidOption(_))),
            "{name}"
        );
    }
    let mut opts = CodegenOptions::new("fx", MgfxSource::IncludeBytes("rel/x.mgfx".into()));
    assert!(matches!(
        generate(&e, &r, &opts),
        Err(CodegenError::InvalidOption(_))
    ));
    opts.mgfx = MgfxSource::Bytes(Vec::new());
    opts.crate_path = "not a path".into();
    assert!(matches!(
        generate(&e, &r, &opts),
        Err(CodegenError::InvalidOption(_))
    ));
}

#[test]
fn output_is_deterministic_and_headed() {
    let e = effect(
        vec![value(
            "A",
            ParameterClass::Scalar,
            ParameterType::Single,
            1,
            1,
        )],
        vec![(0, 0)],
        16,
    );
    let a = gen(&e).unwrap();
    assert_eq!(a, gen(&e).unwrap());
    assert!(
        a.starts_with("// @generated by shadowdusk-compiler "),
        "{a}"
    );
    assert!(a.contains(&blake3::hash(b"MGFX").to_hex().to_string()));
}

#[test]
fn the_effect_is_a_type_its_passes_carry() {
    let mut e = effect(vec![], vec![], 0);
    e.constant_buffers.clear();
    e.shaders[0].cbuffers.clear();
    let anonymous = Pass {
        name: String::new(),
        ..e.techniques[0].passes[0].clone()
    };
    e.techniques[0].passes.push(anonymous);
    let text = gen(&e).unwrap();
    for want in [
        "pub enum Effect {}",
        "impl ::shadowdusk::Effect for Effect {",
        "type Params = Params;",
        "type Technique = Technique;",
        "const MGFX: &'static [u8] = MGFX;",
        // No reflection: the module name stands in for the file name.
        "const NAME: &'static str = \"fx\";",
        // `__new` is `unsafe`: generated code upholds its contract (a pass the effect has).
        "pub const P0: ::shadowdusk::Pass<super::super::Effect> = unsafe {\n                ::shadowdusk::Pass::__new(0, 0)\n            };",
        "pub const PASS_1: ::shadowdusk::Pass<super::super::Effect> = unsafe {\n                ::shadowdusk::Pass::__new(0, 1)\n            };",
        "Technique::T => &[passes::t::P0, passes::t::PASS_1]",
        "Technique::T => &[\"P0\", \"\"]",
    ] {
        assert!(text.contains(want), "{want} missing from:\n{text}");
    }
}

#[test]
fn defaults_keep_exact_bits() {
    let mut p = value("V", ParameterClass::Vector, ParameterType::Single, 1, 4);
    p.data = Some(vec![
        (-0.0f32).to_bits(),
        0.1f32.to_bits(),
        f32::INFINITY.to_bits(),
        1.0e-40f32.to_bits(),
    ]);
    let e = effect(vec![p], vec![(0, 0)], 16);
    let text = gen(&e).unwrap();
    // The register image is written with literals that parse back to the same bits.
    let start = text
        .find("pub const DEFAULT")
        .unwrap_or_else(|| panic!("{text}"));
    let default = &text[start..start + text[start..].find("};").unwrap_or(0)];
    for want in [
        "-0.0,",
        "0.1,",
        "f32::from_bits(2139095040u32)",
        "0.0000000000000000000000000000000000000001",
    ] {
        assert!(default.contains(want), "{want} missing from {default}");
    }
    let parsed: Vec<f32> = default
        .split(['[', ']', ','])
        .filter_map(|t| t.trim().parse::<f32>().ok())
        .collect();
    assert_eq!(
        parsed.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
        vec![(-0.0f32).to_bits(), 0.1f32.to_bits(), 1.0e-40f32.to_bits()]
    );
}

#[test]
fn include_bytes_source_is_absolute_and_hashed() {
    let e = effect(
        vec![value(
            "A",
            ParameterClass::Scalar,
            ParameterType::Single,
            1,
            1,
        )],
        vec![(0, 0)],
        16,
    );
    let path = std::env::temp_dir().join(format!("shadowdusk-codegen-{}.mgfx", std::process::id()));
    std::fs::write(&path, b"MGFX bytes").unwrap();
    let opts = CodegenOptions::new("fx", MgfxSource::IncludeBytes(path.clone()));
    let text = generate_string(&e, &EffectReflection::default(), &opts);
    let missing = CodegenOptions::new(
        "fx",
        MgfxSource::IncludeBytes(std::env::temp_dir().join("shadowdusk-codegen-missing.mgfx")),
    );
    let err = generate_string(&e, &EffectReflection::default(), &missing);
    let _ = std::fs::remove_file(&path);
    let text = text.unwrap();
    assert!(text.contains("::core::include_bytes!("), "{text}");
    assert!(text.contains(&blake3::hash(b"MGFX bytes").to_hex().to_string()));
    assert!(matches!(err, Err(CodegenError::Io { .. })));
}

#[test]
fn texture_slots_and_unplaced_values() {
    let mut tex = value(
        "Tex",
        ParameterClass::Object,
        ParameterType::Texture2D,
        0,
        0,
    );
    tex.data = None;
    let mut e = effect(
        vec![
            tex,
            value(
                "Lonely",
                ParameterClass::Scalar,
                ParameterType::Single,
                1,
                1,
            ),
        ],
        vec![],
        0,
    );
    e.shaders[0].samplers = vec![
        shadowdusk_mgfx::Sampler {
            ty: shadowdusk_mgfx::SamplerType::Sampler2D,
            texture_slot: 3,
            sampler_slot: 3,
            state: None,
            name: "ps_s3".into(),
            parameter: 0,
        },
        shadowdusk_mgfx::Sampler {
            ty: shadowdusk_mgfx::SamplerType::Sampler2D,
            texture_slot: 1,
            sampler_slot: 1,
            state: None,
            name: "ps_s1".into(),
            parameter: 0,
        },
    ];
    let text = gen(&e).unwrap();
    assert!(
        text.contains("pub const TEX: ::shadowdusk::TextureSlot<super::Effect> = unsafe {\n            ::shadowdusk::TextureSlot::__new(0)\n        };"),
        "{text}"
    );
    assert!(
        text.contains("pub const TEX_UNITS: &[u8] = &[1, 3];"),
        "{text}"
    );
    assert!(
        text.contains("pub fn set_lonely(&mut self, _value: f32) {}"),
        "{text}"
    );
    assert!(text.contains("**Unused by the shader**"), "{text}");
    // A sampler pointing at a value parameter is refused.
    e.shaders[0].samplers[1].parameter = 1;
    assert!(matches!(gen(&e), Err(CodegenError::Malformed(_))));
}
