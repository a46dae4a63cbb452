//! Parser tests: whole-effect inputs through [`super::parse`].

use super::*;
use crate::diag::Severity;
use crate::source::SourceFiles;
use shadowdusk_mgfx::{Blend, CullMode, TextureAddressMode, TextureFilter};

fn parse_str(src: &str) -> Result<ParsedEffect, (SourceFiles, Diagnostics)> {
    let mut files = SourceFiles::new();
    let ex = expanded_from_plain(&mut files, "t.fx", src);
    parse(&ex).map_err(|d| (files, d))
}

fn ok(src: &str) -> ParsedEffect {
    match parse_str(src) {
        Ok(p) => p,
        Err((_, d)) => panic!("unexpected errors: {d:#?}"),
    }
}

/// The first diagnostic's code and 1-based line:column.
fn fail(src: &str) -> (Code, u32, u32, Diagnostic) {
    match parse_str(src) {
        Ok(_) => panic!("expected an error"),
        Err((files, d)) => {
            let first = d.0[0].clone();
            let span = first.primary.as_ref().expect("a span").span;
            let (l, c) = files.get(span.file).line_col(span.start);
            (first.code, l, c, first)
        }
    }
}

const PS: &str = "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return float4(uv, 0, 1); }\n";

fn with_ps(body: &str) -> String {
    format!("{PS}{body}")
}

#[test]
fn technique_pass_and_compile() {
    let p = ok(&with_ps(
        "technique Main < string Desc = \"x\"; > { pass P0 < int Order = -1; > {\n\
         VertexShader = compile VS_3_0 VS();\n PixelShader = COMPILE ps_3_0 PS(true, 2);\n } };",
    ));
    let t = &p.ast.techniques[0];
    assert_eq!(t.name, "Main");
    assert_eq!(t.annotations[0].value, "x");
    let pass = &t.passes[0];
    assert_eq!(pass.name, "P0");
    assert_eq!(pass.annotations[0].value, "-1");
    let vs = pass.vertex_shader.as_ref().unwrap();
    assert_eq!((vs.profile.as_str(), vs.entry.as_str()), ("vs_3_0", "VS"));
    let ps = pass.pixel_shader.as_ref().unwrap();
    assert_eq!(ps.args, vec!["true".to_string(), "2".to_string()]);
    assert!(pass.blend.is_none() && pass.depth_stencil.is_none() && pass.rasterizer.is_none());
}

#[test]
fn stripping_blanks_techniques_and_keeps_offsets_and_newlines() {
    let src = with_ps("technique T\n{\n pass { PixelShader = compile ps_2_0 PS(); }\n}\n");
    let p = ok(&src);
    assert_eq!(p.stripped.len(), src.len());
    assert!(p.stripped.starts_with(PS));
    let tail = &p.stripped[PS.len()..];
    assert_eq!(tail.chars().filter(|c| *c == '\n').count(), 4);
    assert!(tail.chars().all(|c| c == ' ' || c == '\n'), "{tail:?}");
}

#[test]
fn anonymous_technique_and_technique11_keyword() {
    let p = ok(&with_ps(
        "Technique11 { Pass { PixelShader = compile ps_4_0 PS(); } }",
    ));
    assert_eq!(p.ast.techniques[0].name, "");
    assert_eq!(p.ast.techniques[0].passes[0].name, "");
}

#[test]
fn render_states_in_a_pass() {
    let p = ok(&with_ps(
        "technique T { pass { CullMode = None; AlphaBlendEnable = True; ZEnable = False;\n\
         ColorWriteEnable = Red | Green; PixelShader = compile ps_2_0 PS(); } }",
    ));
    let pass = &p.ast.techniques[0].passes[0];
    let b = pass.blend.unwrap();
    assert_eq!(b.color_destination_blend, Blend::InverseSourceAlpha);
    assert_eq!(b.color_write_channels[0], 3);
    assert!(!pass.depth_stencil.unwrap().depth_buffer_enable);
    assert_eq!(pass.rasterizer.unwrap().cull_mode, CullMode::None);
}

#[test]
fn passes_without_shaders_and_empty_techniques_are_dropped() {
    let p = ok(&with_ps(
        "technique Empty { pass A { ZEnable = false; } }\n\
         technique T { pass A { ZEnable = false; } pass B { PixelShader = compile ps_2_0 PS(); } }",
    ));
    assert_eq!(p.ast.techniques.len(), 1);
    assert_eq!(p.ast.techniques[0].passes.len(), 1);
    assert_eq!(p.ast.techniques[0].passes[0].name, "B");
}

#[test]
fn samplers_of_every_form() {
    let src = with_ps(
        "texture Tex : register(t1);\n\
         Texture2D<float4> Modern : register(t2);\n\
         textureCUBE Env;\n\
         sampler s0;\n\
         sampler2D S1 : register(s1) = sampler_state { Texture = <Tex>; MinFilter = Point; MagFilter = Point; AddressU = Clamp; AddressV = Clamp; };\n\
         samplerCUBE S2 = sampler_state { texture = (Env); };\n\
         sampler3D S3 : register(ps, s3) { Texture = Vol; Filter = Anisotropic; };\n\
         SamplerState S4 { Filter = Point; MipFilter = None; };\n\
         sampler1D S5;\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let p = ok(&src);
    let s = &p.ast.samplers;
    assert_eq!(s.len(), 6);
    assert_eq!(
        (s[0].name.as_str(), s[0].dim, s[0].legacy, s[0].state),
        ("s0", None, true, None)
    );
    assert_eq!(s[1].texture.as_deref(), Some("Tex"));
    assert_eq!(s[1].register, Some(1));
    assert_eq!(s[1].state.unwrap().filter, TextureFilter::PointMipLinear);
    assert_eq!(s[1].state.unwrap().address_u, TextureAddressMode::Clamp);
    assert_eq!(
        (s[2].dim, s[2].texture.as_deref(), s[2].state),
        (Some(Dim::Cube), Some("Env"), None)
    );
    assert_eq!(
        (s[3].dim, s[3].register, s[3].texture.as_deref()),
        (Some(Dim::D3), Some(3), Some("Vol"))
    );
    assert_eq!(s[3].state.unwrap().filter, TextureFilter::Anisotropic);
    assert!(!s[4].legacy);
    assert_eq!(s[4].state.unwrap().mip_lod_bias, -16.0);
    assert_eq!(s[5].dim, Some(Dim::D1));
    let t = &p.ast.textures;
    assert_eq!(t.len(), 3);
    assert_eq!(
        (t[0].name.as_str(), t[0].dim, t[0].register),
        ("Tex", Dim::D2, Some(1))
    );
    assert_eq!((t[1].name.as_str(), t[1].register), ("Modern", Some(2)));
    assert_eq!(t[2].dim, Dim::Cube);
    assert!(p.sites.textures[0].legacy && !p.sites.textures[1].legacy);
    // The state blocks are blanked, the declarations stay.
    assert!(p.stripped.contains("sampler2D S1 : register(s1)"));
    assert!(!p.stripped.contains("sampler_state"));
    assert!(!p.stripped.contains("MipFilter"));
    assert!(p.stripped.contains("SamplerState S4"));
}

#[test]
fn uniforms_types_annotations_and_initializers() {
    let src = with_ps(
        "float4 Tint < string UIName = \"Tint\"; float UIMin = -1.5; > = float4(1, 0.5, 0, 1);\n\
         uniform row_major float3x3 M;\n\
         extern half h = .5;\n\
         int Count : register(c4) = 3;\n\
         bool Flag = true;\n\
         float Arr[3] = {1, 2, 3};\n\
         float2 Pair = 2;\n\
         static float Hidden = 1;\n\
         const float Constant = 1;\n\
         static const float AlsoHidden = 1;\n\
         float4x4 World, View;\n\
         cbuffer Params : register(b0) { float a; float3 b; };\n\
         struct Light { float3 dir; };\n\
         Light L;\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let p = ok(&src);
    let g = &p.ast.globals;
    let names: Vec<&str> = g.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Tint", "M", "h", "Count", "Flag", "Arr", "Pair", "Constant", "World", "View", "a",
            "b", "L"
        ]
    );
    assert_eq!(g[0].initializer, Some(vec![1.0, 0.5, 0.0, 1.0]));
    assert_eq!(g[0].annotations.len(), 2);
    assert_eq!(g[0].annotations[1].value, "-1.5");
    assert!(g[1].ty.is_matrix && g[1].ty.row_major && g[1].ty.rows == 3);
    assert_eq!(g[2].ty.base, "half");
    assert_eq!(g[2].initializer, Some(vec![0.5]));
    assert_eq!(g[3].register.as_deref(), Some("c4"));
    assert_eq!(g[3].initializer, Some(vec![3.0]));
    assert_eq!(g[4].initializer, Some(vec![1.0]));
    assert_eq!(g[5].ty.array, Some(3));
    assert_eq!(g[6].initializer, Some(vec![2.0, 2.0]));
    assert_eq!(g[7].initializer, Some(vec![1.0]));
    assert_eq!(g[10].cbuffer.as_deref(), Some("Params"));
    assert_eq!(g[12].ty.base, "Light");
    // The annotation block is blanked, the initializer kept.
    assert!(p.stripped.contains("float4 Tint"));
    assert!(!p.stripped.contains("UIName"));
    assert!(p.stripped.contains("= float4(1, 0.5, 0, 1);"));
    // cbuffer members' statement end is after the cbuffer.
    let cb_end = src.find("float3 b; };").unwrap() + "float3 b; };".len();
    assert_eq!(p.sites.globals[10].stmt_end, cb_end);
}

#[test]
fn functions_and_structs() {
    let src = "struct VSOut { float4 Position : POSITION0; linear float2 uv : TEXCOORD0; };\n\
               VSOut VS(in float4 pos : POSITION, uniform bool flag, out float fog : FOG) { VSOut o; o.Position = pos; if (pos.x < 1) {} return o; }\n\
               float4 PS(VSOut i, float face : VFACE) : COLOR { return 1; }\n\
               technique T { pass { VertexShader = compile vs_2_0 VS(true); PixelShader = compile ps_2_0 PS(); } }";
    let p = ok(src);
    let s = &p.ast.structs[0];
    assert_eq!(s.name, "VSOut");
    assert_eq!(s.members[0].semantic.as_ref().unwrap().0, "POSITION0");
    assert_eq!(s.members[1].name, "uv");
    let vs = &p.ast.functions[0];
    assert_eq!(vs.name, "VS");
    assert_eq!(vs.return_type, "VSOut");
    assert_eq!(vs.params.len(), 3);
    assert_eq!(vs.params[1].qualifier, "uniform");
    assert_eq!(vs.params[2].qualifier, "out");
    assert_eq!(vs.params[2].semantic.as_deref(), Some("FOG"));
    assert!(src[vs.body.clone()].starts_with('{') && src[vs.body.clone()].ends_with('}'));
    let ps = &p.ast.functions[1];
    assert_eq!(ps.return_semantic.as_ref().unwrap().0, "COLOR");
    let site = &p.sites.params[1][1];
    assert_eq!(&src[site.semantic_range.clone().unwrap()], "VFACE");
    assert_eq!(&src[site.name_range.clone()], "face");
}

#[test]
fn error_unexpected_token() {
    let (code, l, c, _) = fail(&with_ps(
        "technique T { pass { PixelShader = compile ps_2_0 PS(); } }\n}",
    ));
    assert_eq!((code, l, c), (Code::FX0001, 3, 1));
}

#[test]
fn error_eof_in_technique_and_pass() {
    let (code, l, c, _) = fail(&with_ps(
        "technique T { pass P { PixelShader = compile ps_2_0 PS();",
    ));
    assert_eq!((code, l, c), (Code::FX0002, 2, 15));
    let (code, l, c, _) = fail(&with_ps("technique T { pass P { } "));
    assert_eq!((code, l, c), (Code::FX0002, 2, 1));
}

#[test]
fn error_malformed_compile() {
    let (code, l, c, _) = fail(&with_ps(
        "technique T { pass { PixelShader = ps_2_0 PS(); } }",
    ));
    assert_eq!((code, l, c), (Code::FX0003, 2, 36));
    let (code, l, c, _) = fail(&with_ps(
        "technique T { pass { PixelShader = compile ps_2_0 PS; } }",
    ));
    assert_eq!((code, l, c), (Code::FX0003, 2, 53));
}

#[test]
fn duplicate_names_are_kept_with_a_warning() {
    // mgfxc accepts both; MonoGame's name lookup finds the first, so say so.
    let p = ok(&with_ps(
        "technique T { pass { PixelShader = compile ps_2_0 PS(); } }\ntechnique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    ));
    assert_eq!(p.ast.techniques.len(), 2);
    let w = &p.warnings.0;
    assert_eq!(w.len(), 1, "{w:#?}");
    assert_eq!(
        (w[0].code, w[0].severity),
        (Code::FX0005, Severity::Warning)
    );
    assert_eq!(w[0].secondary.len(), 1, "points at the first declaration");
    let p = ok(&with_ps(
        "technique T { pass A { PixelShader = compile ps_2_0 PS(); }\n pass A { PixelShader = compile ps_2_0 PS(); } }",
    ));
    assert_eq!(p.ast.techniques[0].passes.len(), 2);
    assert_eq!(p.warnings.0[0].code, Code::FX0006);
}

#[test]
fn error_unclosed_annotation() {
    let (code, l, c, _) = fail(&with_ps("float4 Tint < string a = \"x\";\n{"));
    assert_eq!((code, l, c), (Code::FX0007, 2, 13));
    let (code, _, _, _) = fail(&with_ps("float4 Tint < string a = \"x\""));
    assert_eq!(code, Code::FX0007);
}

#[test]
fn error_missing_semicolon() {
    let (code, l, c, _) = fail(&with_ps("float4 Tint\nfloat x;"));
    assert_eq!((code, l, c), (Code::FX0008, 2, 12));
    let (code, l, c, _) = fail(&with_ps(
        "technique T { pass { PixelShader = compile ps_2_0 PS() } }",
    ));
    assert_eq!((code, l, c), (Code::FX0008, 2, 55));
}

#[test]
fn error_eof_in_sampler_block() {
    let (code, l, c, _) = fail(&with_ps("sampler2D S = sampler_state { Texture = <T>;"));
    assert_eq!((code, l, c), (Code::FX0009, 2, 29));
}

#[test]
fn error_bad_characters() {
    let (code, l, c, _) = fail("float4 x;\nfloat @y;");
    assert_eq!((code, l, c), (Code::FX0011, 2, 7));
    match parse_str("float $a; // @ fine\n`") {
        Err((_, d)) => assert_eq!(d.0.len(), 2),
        Ok(_) => panic!(),
    }
}

#[test]
fn error_no_technique() {
    let (code, _, _, _) = match parse_str(PS) {
        Err((_, d)) => (d.0[0].code, 0, 0, ()),
        Ok(_) => panic!(),
    };
    assert_eq!(code, Code::SD0010);
    let (code, l, c, _) = fail(&with_ps("technique T { pass { ZEnable = false; } }"));
    assert_eq!((code, l, c), (Code::SD0010, 2, 11));
}

#[test]
fn error_render_state_key_and_value() {
    let (code, l, c, d) = fail(&with_ps("technique T { pass { AlphaTestEnable = true; } }"));
    assert_eq!((code, l, c), (Code::SD0011, 2, 22));
    assert!(d.help.unwrap().contains("AlphaBlendEnable"));
    let (code, l, c, d) = fail(&with_ps("technique T { pass { SrcBlend = Bogus; } }"));
    assert_eq!((code, l, c), (Code::SD0011, 2, 33));
    assert!(d.help.unwrap().contains("InvSrcAlpha"));
}

#[test]
fn error_profile_stage_mismatch() {
    let (code, l, c, _) = fail(&with_ps(
        "technique T { pass { VertexShader = compile ps_2_0 PS(); } }",
    ));
    assert_eq!((code, l, c), (Code::SD0013, 2, 45));
}

#[test]
fn error_sampler_state_key_value_and_border() {
    let (code, l, c, _) = fail(&with_ps(
        "sampler S = sampler_state { SRGBTexture = true; };",
    ));
    assert_eq!((code, l, c), (Code::SD0024, 2, 29));
    let (code, l, c, _) = fail(&with_ps(
        "sampler S = sampler_state { MinFilter = Cubic; };",
    ));
    assert_eq!((code, l, c), (Code::SD0024, 2, 41));
    let (code, _, _, d) = fail(&with_ps(
        "sampler S = sampler_state { BorderColor = 0x123; };",
    ));
    assert_eq!(code, Code::SD0024);
    assert!(d.help.unwrap().contains("0xRRGGBB"));
}

#[test]
fn error_initializer_not_constant() {
    let (code, l, c, d) = fail(&with_ps("float a = 1;\nfloat b = a * 2;"));
    assert_eq!((code, l, c), (Code::SD0025, 3, 11));
    assert!(d.help.unwrap().contains("literal"));
}

#[test]
fn comparison_in_function_body_is_not_an_annotation() {
    let p = ok(&format!(
        "float4 F(float a, float b) {{ bool c = a < b; return c > 0; }}\n{}",
        with_ps("technique T { pass { PixelShader = compile ps_2_0 PS(); } }")
    ));
    assert_eq!(p.ast.functions.len(), 2);
}

#[test]
fn directives_and_attributes_are_skipped() {
    let p = ok(&with_ps(
        "#pragma pack_matrix(row_major)\n[numthreads(1,1,1)] void CS() {}\ntypedef float4 color;\ntechnique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    ));
    assert!(p.stripped.contains("#pragma pack_matrix"));
    assert_eq!(p.ast.functions.len(), 2);
}

#[test]
fn parse_is_deterministic() {
    let src = with_ps(
        "sampler s; float4 a = 1; technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let a = ok(&src);
    let b = ok(&src);
    assert_eq!(a.stripped, b.stripped);
    assert_eq!(format!("{:?}", a.ast), format!("{:?}", b.ast));
}

#[test]
fn generic_and_alias_types_semantics_and_constant_array_sizes() {
    let p = ok(&with_ps(
        "matrix WorldViewProj;\nmatrix<float, 4, 3> Bones;\nvector<float, 3> LightDir : Direction = { 0, -1, 0, };\n\
         vector Tint;\nhalf4 HalfTint;\ndword Mask;\nmin16float Gain = 2;\n\
         static const int TAPS = 3;\nfloat Weights[TAPS * 2 - 1] = { 1, 2, 3, 4, 5, };\nfloat4 Offsets[(TAPS + 1) / 2];\n\
         texture ColorMap : Diffuse;\nsampler ColorSampler : register(s1) = sampler_state { Texture = <ColorMap>; };\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    ));
    let g = |n: &str| {
        p.ast
            .globals
            .iter()
            .find(|g| g.name == n)
            .unwrap_or_else(|| panic!("no global {n}"))
    };
    let shape = |n: &str| {
        let t = &g(n).ty;
        (t.base.as_str(), t.rows, t.columns, t.is_matrix, t.array)
    };
    assert_eq!(shape("WorldViewProj"), ("float", 4, 4, true, None));
    assert_eq!(shape("Bones"), ("float", 4, 3, true, None));
    assert_eq!(shape("LightDir"), ("float", 1, 3, false, None));
    assert_eq!(
        g("LightDir").initializer.as_deref(),
        Some(&[0.0, -1.0, 0.0][..])
    );
    assert_eq!(g("LightDir").semantic.as_deref(), Some("Direction"));
    assert_eq!(shape("Tint"), ("float", 1, 4, false, None));
    assert_eq!(shape("HalfTint"), ("half", 1, 4, false, None));
    assert_eq!(shape("Mask"), ("uint", 1, 1, false, None));
    assert_eq!(shape("Gain"), ("min16float", 1, 1, false, None));
    assert_eq!(shape("Weights"), ("float", 1, 1, false, Some(5)));
    assert_eq!(
        g("Weights").initializer.as_deref(),
        Some(&[1.0, 2.0, 3.0, 4.0, 5.0][..])
    );
    assert_eq!(shape("Offsets"), ("float", 1, 4, false, Some(2)));
    assert!(p.ast.textures.iter().any(|t| t.name == "ColorMap"));
    let s = p
        .ast
        .samplers
        .iter()
        .find(|s| s.name == "ColorSampler")
        .unwrap();
    assert_eq!(s.register, Some(1));
    // The texture's semantic is blanked for DXC; the declaration stays.
    assert!(
        p.stripped.contains("texture ColorMap          ;"),
        "{}",
        p.stripped
    );
}

#[test]
fn unknown_profiles_are_errors() {
    let (code, l, c, d) = fail(&with_ps(
        "technique T { pass { PixelShader = compile ps_9_9 PS(); } }",
    ));
    assert_eq!((code, l, c), (Code::SD0013, 2, 44));
    assert!(d.message.contains("ps_9_9"), "{}", d.message);
    for ok_profile in [
        "ps_2_0",
        "PS_2_B",
        "ps_3_0",
        "ps_4_0_level_9_1",
        "ps_5_0",
        "ps_6_0",
    ] {
        ok(&with_ps(&format!(
            "technique T {{ pass {{ PixelShader = compile {ok_profile} PS(); }} }}"
        )));
    }
}

#[test]
fn state_objects_are_baked_into_the_passes_that_set_them() {
    let p = ok(&with_ps(
        "BlendState Add { BlendEnable[0] = TRUE; SrcBlend = ONE; DestBlend = ONE; };\n\
         RasterizerState Wire { FillMode = WIREFRAME; CullMode = BACK; };\n\
         technique T { pass { SetBlendState(Add, float4(0, 0, 0, 0), 0xFFFFFFFF); SetRasterizerState(Wire);\n\
         SetPixelShader(CompileShader(ps_4_0, PS())); } }",
    ));
    let pass = &p.ast.techniques[0].passes[0];
    let b = pass.blend.expect("blend");
    assert_eq!(
        (b.color_source_blend, b.color_destination_blend),
        (Blend::One, Blend::One)
    );
    let r = pass.rasterizer.expect("rasterizer");
    assert_eq!(r.cull_mode, CullMode::CullCounterClockwiseFace);
    assert_eq!(pass.pixel_shader.as_ref().unwrap().profile, "ps_4_0");
    // The objects are blanked for DXC.
    assert!(!p.stripped.contains("BlendState"), "{}", p.stripped);

    let (code, l, c, _) = fail(&with_ps(
        "technique T { pass { SetBlendState(Missing, 0, 0); PixelShader = compile ps_2_0 PS(); } }",
    ));
    assert_eq!((code, l, c), (Code::SD0027, 2, 36));
    let (code, l, c, _) = fail(&with_ps(
        "RasterizerState R { CullMode = NONE; };\ntechnique T { pass { SetBlendState(R, 0, 0); PixelShader = compile ps_2_0 PS(); } }",
    ));
    assert_eq!((code, l, c), (Code::SD0027, 3, 36));
    let (code, l, c, _) = fail(&with_ps("BlendState B { Wobble = 1; };"));
    assert_eq!((code, l, c), (Code::SD0026, 2, 16));
    // `GeometryShader = NULL;` (technique11 style) clears a stage MonoGame lacks; a real
    // geometry shader is refused.
    ok(&with_ps(
        "technique11 T { pass { GeometryShader = NULL; PixelShader = compile ps_5_0 PS(); } }",
    ));
    let (code, _, _, _) = fail(&with_ps(
        "technique11 T { pass { GeometryShader = compile gs_5_0 PS(); PixelShader = compile ps_5_0 PS(); } }",
    ));
    assert_eq!(code, Code::SD0027);
}
