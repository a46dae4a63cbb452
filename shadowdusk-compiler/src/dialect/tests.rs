//! End-to-end tests: modern HLSL → DXC → SPIRV-Cross → dialect, checked against the contract
//! and compiled (and rendered) with Mesa. DXC-dependent tests skip loudly without the library.

use super::gl;
use super::*;
use crate::cross::{self, BlockMember, MemberKind, StageVar, UniformBlock};
use crate::dxc;

fn build(
    src: &str,
    stage: Stage,
    slot_of: &dyn Fn(&CombinedSampler) -> Option<u32>,
) -> Option<Result<DialectShader, DialectError>> {
    if dxc::missing_skips() {
        return None;
    }
    let spv = dxc::compile(src, "main", stage).unwrap_or_else(|e| panic!("DXC failed: {e}"));
    let c = cross::to_glsl(&spv, stage).unwrap_or_else(|e| panic!("{e}"));
    Some(rewrite(&c, stage, slot_of))
}

/// Builds, asserts success, and compiles the result as GLSL 1.10 and (unless `es` is false)
/// GLSL ES 1.00.
fn ok_es(src: &str, stage: Stage, es: bool) -> Option<DialectShader> {
    let d = build(src, stage, &|_| None)?.unwrap_or_else(|e| panic!("rewrite failed: {e}"));
    gl::assert_compiles(stage == Stage::Vertex, &d.glsl, es);
    Some(d)
}

fn ok(src: &str, stage: Stage) -> Option<DialectShader> {
    ok_es(src, stage, true)
}

fn err(src: &str, stage: Stage) -> Option<DialectError> {
    Some(build(src, stage, &|_| None)?.expect_err("expected the rewrite to refuse this shader"))
}

/// Register data laid out the way MonoGame uploads it: the values of each named uniform at
/// 4 × its base register.
fn upload(shader: &DialectShader, values: &[(&str, Vec<f32>)]) -> Vec<f32> {
    let mut data = vec![0.0; shader.register_count as usize * 4];
    for (name, v) in values {
        let r = shader
            .registers
            .iter()
            .find(|r| r.name == *name)
            .unwrap_or_else(|| panic!("no register for {name}"));
        assert!(v.len() <= r.count as usize * 4, "{name}: too much data");
        data[r.base as usize * 4..r.base as usize * 4 + v.len()].copy_from_slice(v);
    }
    data
}

/// Renders one pixel with `vs` + `ps`; posFixup = (1, 1, 0, 0) (back buffer, no half pixel).
fn render(
    vs: &DialectShader,
    ps: &DialectShader,
    vs_values: &[(&str, Vec<f32>)],
    ps_values: &[(&str, Vec<f32>)],
) -> Option<[f32; 4]> {
    let g = gl::context(false)?;
    let attrs: Vec<&str> = vs.attributes.iter().map(|a| a.name.as_str()).collect();
    let p = g
        .link(&vs.glsl, &ps.glsl, &attrs)
        .unwrap_or_else(|e| panic!("link failed: {e}"));
    let mut u = vec![("posFixup", vec![1.0, 1.0, 0.0, 0.0])];
    if vs.register_count > 0 {
        u.push(("vs_uniforms_vec4", upload(vs, vs_values)));
    }
    if ps.register_count > 0 {
        u.push(("ps_uniforms_vec4", upload(ps, ps_values)));
    }
    Some(g.render_pixel(p, &u))
}

/// MonoGame's upload of an R×C matrix: register c holds column c (R floats, padded to 4).
#[allow(clippy::needless_range_loop)] // reads as the definition: data[4c + r] = M[r][c]
fn columns(m: &[&[f32]]) -> Vec<f32> {
    let (rows, cols) = (m.len(), m[0].len());
    let mut out = Vec::new();
    for c in 0..cols {
        out.extend((0..4).map(|r| if r < rows { m[r][c] } else { 0.0 }));
    }
    out
}

fn vec_mul(v: &[f32], m: &[&[f32]]) -> Vec<f32> {
    (0..m[0].len())
        .map(|j| (0..m.len()).map(|i| v[i] * m[i][j]).sum())
        .collect()
}

fn mul_vec(m: &[&[f32]], v: &[f32]) -> Vec<f32> {
    m.iter()
        .map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum())
        .collect()
}

fn close(got: &[f32], want: &[f32]) {
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-3, "got {got:?}, want {want:?}");
    }
}

const PASS_A: &str = "float4 main(float4 a : TEXCOORD0) : SV_Target { return a; }";
const PASS_B: &str = "float4 main(float4 b : TEXCOORD1) : SV_Target { return b; }";

const TINT: &str = "Texture2D SpriteTexture; SamplerState S; float4 Tint;\n\
    float4 main(float4 pos : SV_Position, float4 color : COLOR0, float2 uv : TEXCOORD0) : SV_Target\n\
    { return SpriteTexture.Sample(S, uv) * color * Tint; }";

#[test]
fn tint_pixel_shader_has_the_golden_shape() {
    let Some(d) = ok(TINT, Stage::Pixel) else {
        return;
    };
    let g = &d.glsl;
    assert!(
        g.starts_with("#ifdef GL_ES\nprecision mediump float;\nprecision mediump int;\n#endif\n"),
        "{g}"
    );
    for want in [
        "uniform vec4 ps_uniforms_vec4[1];",
        "uniform sampler2D ps_s0;",
        "varying vec4 vFrontColor;",
        "varying vec4 vTexCoord0;",
        "#define ps_oC0 gl_FragColor",
        "texture2D(ps_s0, vTexCoord0.xy)",
        "ps_oC0 =",
    ] {
        assert!(g.contains(want), "missing `{want}` in\n{g}");
    }
    assert!(
        !g.contains("#version") && !g.contains("gl_FragData") && !g.contains("sd_"),
        "{g}"
    );
    assert_eq!(d.register_count, 1);
    assert_eq!(d.registers[0].name, "Tint");
    assert_eq!(
        d.samplers,
        vec![DialectSampler {
            glsl_name: "ps_s0".into(),
            slot: 0,
            texture: "SpriteTexture".into(),
            sampler: "S".into(),
            dim: Dim::D2
        }]
    );
    assert!(d.attributes.is_empty());
}

#[test]
fn scalar_and_vector_uniforms_take_one_register_each() {
    let src = "float A; float2 B; float3 C; float4 D;\n\
        float4 main(float2 uv : TEXCOORD0) : SV_Target { return float4(C, A) + float4(B, B) * D; }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    let regs: Vec<(&str, u32, u32)> = d
        .registers
        .iter()
        .map(|r| (r.name.as_str(), r.base, r.count))
        .collect();
    assert_eq!(regs, [("A", 0, 1), ("B", 1, 1), ("C", 2, 1), ("D", 3, 1)]);
    assert_eq!(d.register_count, 4);
    for want in [
        "ps_uniforms_vec4[0].x",
        "ps_uniforms_vec4[1].xy",
        "ps_uniforms_vec4[2].xyz",
        "ps_uniforms_vec4[3]",
    ] {
        assert!(d.glsl.contains(want), "missing {want}:\n{}", d.glsl);
    }
    // The render proves each value is read from its own register.
    let Some(vs) = ok("float4 main(float2 p : POSITION0, out float2 uv : TEXCOORD0) : SV_Position { uv = p; return float4(p, 0.5, 1); }", Stage::Vertex) else { return };
    let Some(px) = render(
        &vs,
        &d,
        &[],
        &[
            ("A", vec![0.5]),
            ("B", vec![2.0, 3.0]),
            ("C", vec![0.25, 0.125, 1.0]),
            ("D", vec![1.0, 10.0, 100.0, 1000.0]),
        ],
    ) else {
        return;
    };
    close(&px, &[0.25 + 2.0, 0.125 + 30.0, 1.0 + 200.0, 0.5 + 3000.0]);
}

#[test]
fn float4x4_register_k_is_column_k_for_both_mul_orders() {
    let vs = "float4x4 M; float4 Probe;\n\
        struct VO { float4 pos : SV_Position; float4 a : TEXCOORD0; float4 b : TEXCOORD1; };\n\
        VO main(float2 p : POSITION0) { VO o; o.pos = float4(p, 0.5, 1); o.a = mul(Probe, M); o.b = mul(M, Probe); return o; }";
    let Some(v) = ok(vs, Stage::Vertex) else {
        return;
    };
    assert_eq!(
        v.registers
            .iter()
            .map(|r| (r.name.as_str(), r.base, r.count))
            .collect::<Vec<_>>(),
        [("M", 0, 4), ("Probe", 4, 1)]
    );
    let (Some(pa), Some(pb)) = (ok(PASS_A, Stage::Pixel), ok(PASS_B, Stage::Pixel)) else {
        return;
    };
    // Asymmetric, so a transposed read gives a different answer.
    let m: [&[f32]; 4] = [
        &[1.0, 2.0, 3.0, 4.0],
        &[5.0, 6.0, 7.0, 8.0],
        &[9.0, 10.0, 11.0, 12.0],
        &[13.0, 14.0, 15.0, 16.5],
    ];
    let probe = [0.5, -1.0, 2.0, 0.25];
    let values = [("M", columns(&m)), ("Probe", probe.to_vec())];
    let Some(a) = render(&v, &pa, &values, &[]) else {
        return;
    };
    close(&a, &vec_mul(&probe, &m));
    let Some(b) = render(&v, &pb, &values, &[]) else {
        return;
    };
    close(&b, &mul_vec(&m, &probe));
    assert_ne!(
        vec_mul(&probe, &m),
        mul_vec(&m, &probe),
        "the test matrix must be asymmetric"
    );
}

#[test]
fn float3x3_and_float2x2_follow_the_same_convention() {
    let vs = "float3x3 N; float2x2 K; float4 Probe;\n\
        struct VO { float4 pos : SV_Position; float4 a : TEXCOORD0; float4 b : TEXCOORD1; };\n\
        VO main(float2 p : POSITION0) { VO o; o.pos = float4(p, 0.5, 1);\n\
        o.a = float4(mul(Probe.xyz, N), mul(Probe.xy, K).x); o.b = float4(mul(N, Probe.xyz), mul(K, Probe.xy).y); return o; }";
    let Some(v) = ok(vs, Stage::Vertex) else {
        return;
    };
    assert_eq!(
        v.registers
            .iter()
            .map(|r| (r.name.as_str(), r.base, r.count))
            .collect::<Vec<_>>(),
        [("N", 0, 3), ("K", 3, 2), ("Probe", 5, 1)]
    );
    let (Some(pa), Some(pb)) = (ok(PASS_A, Stage::Pixel), ok(PASS_B, Stage::Pixel)) else {
        return;
    };
    let n: [&[f32]; 3] = [&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0], &[7.0, 8.0, 10.0]];
    let k: [&[f32]; 2] = [&[1.0, 2.0], &[3.0, 5.0]];
    let probe = [0.5, -1.0, 2.0, 0.0];
    let values = [
        ("N", columns(&n)),
        ("K", columns(&k)[..6].to_vec()),
        ("Probe", probe.to_vec()),
    ];
    let Some(a) = render(&v, &pa, &values, &[]) else {
        return;
    };
    let mut want = vec_mul(&probe[..3], &n);
    want.push(vec_mul(&probe[..2], &k)[0]);
    close(&a, &want);
    let Some(b) = render(&v, &pb, &values, &[]) else {
        return;
    };
    let mut want = mul_vec(&n, &probe[..3]);
    want.push(mul_vec(&k, &probe[..2])[1]);
    close(&b, &want);
}

#[test]
fn arrays_with_literal_and_dynamic_indices() {
    let vs = "float4 Arr[3]; float4x4 Mats[2]; float Index; float4 Probe;\n\
        struct VO { float4 pos : SV_Position; float4 a : TEXCOORD0; float4 b : TEXCOORD1; };\n\
        VO main(float2 p : POSITION0) { VO o; o.pos = float4(p, 0.5, 1);\n\
        o.a = Arr[(int)Index] + Arr[2] * 10; o.b = mul(Probe, Mats[(int)Index]) + mul(Probe, Mats[0]); return o; }";
    let Some(v) = ok(vs, Stage::Vertex) else {
        return;
    };
    assert_eq!(
        v.registers
            .iter()
            .map(|r| (r.name.as_str(), r.base, r.count, r.array))
            .collect::<Vec<_>>(),
        [
            ("Arr", 0, 3, Some(3)),
            ("Mats", 3, 8, Some(2)),
            ("Index", 11, 1, None),
            ("Probe", 12, 1, None)
        ]
    );
    let (Some(pa), Some(pb)) = (ok(PASS_A, Stage::Pixel), ok(PASS_B, Stage::Pixel)) else {
        return;
    };
    let m0: [&[f32]; 4] = [
        &[1.0, 0.0, 0.0, 0.0],
        &[0.0, 2.0, 0.0, 0.0],
        &[0.0, 0.0, 3.0, 0.0],
        &[1.0, 1.0, 1.0, 1.0],
    ];
    let m1: [&[f32]; 4] = [
        &[1.0, 2.0, 3.0, 4.0],
        &[5.0, 6.0, 7.0, 8.0],
        &[9.0, 10.0, 11.0, 12.0],
        &[13.0, 14.0, 15.0, 16.5],
    ];
    let probe = [0.5, -1.0, 2.0, 0.25];
    let mut mats = columns(&m0);
    mats.extend(columns(&m1));
    let values = [
        (
            "Arr",
            vec![1.0, 1.0, 1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.1, 0.2, 0.3, 0.4],
        ),
        ("Mats", mats),
        ("Index", vec![1.0]),
        ("Probe", probe.to_vec()),
    ];
    let Some(a) = render(&v, &pa, &values, &[]) else {
        return;
    };
    close(&a, &[3.0, 5.0, 7.0, 9.0]);
    let Some(b) = render(&v, &pb, &values, &[]) else {
        return;
    };
    let want: Vec<f32> = vec_mul(&probe, &m1)
        .iter()
        .zip(vec_mul(&probe, &m0))
        .map(|(x, y)| x + y)
        .collect();
    close(&b, &want);
}

#[test]
fn two_cbuffers_merge_into_one_array() {
    let src = "cbuffer A { float4 TintA; }; cbuffer B { float4 TintB; float MixAmount; };\n\
        float4 main(float4 c : COLOR0) : SV_Target { return lerp(TintA, TintB, MixAmount) * c; }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    assert_eq!(
        d.registers
            .iter()
            .map(|r| (r.name.as_str(), r.block.as_str(), r.base))
            .collect::<Vec<_>>(),
        [("TintA", "A", 0), ("TintB", "B", 1), ("MixAmount", "B", 2)]
    );
    assert_eq!(
        d.glsl.matches("uniform vec4 ps_uniforms_vec4[3];").count(),
        1,
        "{}",
        d.glsl
    );
    assert!(d.glsl.contains("ps_uniforms_vec4[2].x"), "{}", d.glsl);
}

/// Each stage gets its own array holding only the members it reads (fxc/mgfxc: per-stage
/// constant tables), so `Offset`, folded away by `* 0`, takes no register in either.
#[test]
fn cbuffer_shared_by_both_stages_gets_separate_arrays_and_links() {
    let vs = "cbuffer Shared { float4 Offset; float4 Tint; };\n\
        float4 main(float2 p : POSITION0, out float4 c : COLOR0) : SV_Position { c = Tint; return float4(p, 0.5, 1) + Offset * 0; }";
    let ps = "cbuffer Shared { float4 Offset; float4 Tint; };\n\
        float4 main(float4 c : COLOR0) : SV_Target { return c * Tint; }";
    let (Some(v), Some(p)) = (ok(vs, Stage::Vertex), ok(ps, Stage::Pixel)) else {
        return;
    };
    assert!(
        v.glsl.contains("uniform vec4 vs_uniforms_vec4[1];")
            && !v.glsl.contains("ps_uniforms_vec4"),
        "{}",
        v.glsl
    );
    assert!(
        p.glsl.contains("uniform vec4 ps_uniforms_vec4[1];")
            && !p.glsl.contains("vs_uniforms_vec4"),
        "{}",
        p.glsl
    );
    let Some(px) = render(
        &v,
        &p,
        &[("Tint", vec![0.5, 2.0, 1.0, 1.0])],
        &[("Tint", vec![2.0, 0.5, 3.0, 1.0])],
    ) else {
        return;
    };
    close(&px, &[1.0, 1.0, 3.0, 1.0]);
}

#[test]
fn cube_and_volume_samplers_use_their_builtins() {
    let src = "TextureCube Env; Texture3D Vol; Texture2D Base; SamplerState S;\n\
        float4 main(float3 d : TEXCOORD0) : SV_Target { return Env.Sample(S, d) + Vol.Sample(S, d) + Base.Sample(S, d.xy); }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    assert!(d.glsl.contains("uniform samplerCube ps_s"), "{}", d.glsl);
    assert!(d.glsl.contains("uniform sampler3D ps_s"), "{}", d.glsl);
    // GLSL ES 1.00 spells 3D textures through GL_OES_texture_3D, and neither ES version has a
    // default sampler3D precision (compiled as GLSL ES 1.00 above).
    let want = format!(
        "{}{}",
        header::TEXTURE_3D,
        header::precision(Stage::Pixel, true)
    );
    assert!(d.glsl.starts_with(&want), "{}", d.glsl);
    assert!(want.contains("precision mediump sampler3D;\n#endif\n"));
    assert!(
        d.glsl.contains("textureCube(ps_s")
            && d.glsl.contains("texture3D(ps_s")
            && d.glsl.contains("texture2D(ps_s"),
        "{}",
        d.glsl
    );
    let dims: Vec<(u32, Dim)> = d.samplers.iter().map(|s| (s.slot, s.dim)).collect();
    assert_eq!(dims.len(), 3);
    assert!(dims.contains(&(0, Dim::Cube)) || dims.iter().any(|d| d.1 == Dim::Cube));
}

#[test]
fn explicit_slots_are_kept() {
    let src = "Texture2D A; Texture2D B; SamplerState SA; SamplerState SB;\n\
        float4 main(float2 uv : TEXCOORD0) : SV_Target { return A.Sample(SA, uv) + B.Sample(SB, uv); }";
    let Some(r) = build(src, Stage::Pixel, &|c| (c.sampler == "SB").then_some(0)) else {
        return;
    };
    let d = r.unwrap();
    let by_tex: Vec<(&str, &str)> = d
        .samplers
        .iter()
        .map(|s| (s.texture.as_str(), s.glsl_name.as_str()))
        .collect();
    assert!(
        by_tex.contains(&("B", "ps_s0")) && by_tex.contains(&("A", "ps_s1")),
        "{by_tex:?}"
    );
    gl::assert_compiles(false, &d.glsl, true);
}

#[test]
fn lod_grad_and_bias_get_the_lod_header() {
    let src = "Texture2D T; TextureCube C; SamplerState S;\n\
        float4 main(float2 uv : TEXCOORD0) : SV_Target {\n\
        return T.SampleLevel(S, uv, 2) + T.SampleGrad(S, uv, float2(0.1, 0), float2(0, 0.1)) + T.SampleBias(S, uv, 1) + C.SampleLevel(S, uv.xyx, 1); }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    assert!(
        d.glsl.contains("#elif defined(GL_ARB_shader_texture_lod)"),
        "{}",
        d.glsl
    );
    assert!(
        d.glsl.contains("texture2DLod(")
            && d.glsl.contains("texture2DGrad(")
            && d.glsl.contains("textureCubeLod("),
        "{}",
        d.glsl
    );
    // First: its `#extension` lines must precede every non-preprocessor token.
    assert!(d.glsl.starts_with(header::LOD), "{}", d.glsl);
    assert_extensions_first(&d.glsl);
}

#[test]
fn no_lod_header_without_lod_calls() {
    let Some(d) = ok(TINT, Stage::Pixel) else {
        return;
    };
    assert!(!d.glsl.contains("__VERSION__"));
    assert!(!d.glsl.contains("#extension"));
}

#[test]
fn mrt_writes_every_target_through_gl_fragdata() {
    let src = "struct PO { float4 a : SV_Target0; float4 b : SV_Target1; };\n\
        PO main(float4 c : COLOR0) { PO o; o.a = c; o.b = c * 2; return o; }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    assert!(
        d.glsl
            .contains("#define ps_oC0 gl_FragData[0]\n#define ps_oC1 gl_FragData[1]\n"),
        "{}",
        d.glsl
    );
    assert!(!d.glsl.contains("gl_FragColor"), "{}", d.glsl);
    assert!(d.glsl.contains("ps_oC1 ="), "{}", d.glsl);
    // GLSL ES 1.00 has one gl_FragData element without GL_EXT_draw_buffers (Mesa does not
    // enforce it, so compiling is not proof).
    let want = format!(
        "{}{}",
        header::DRAW_BUFFERS,
        header::precision(Stage::Pixel, false)
    );
    assert!(d.glsl.starts_with(&want), "{}", d.glsl);
    assert_extensions_first(&d.glsl);
    assert_first_endif_closes_the_precision_header(&d.glsl);
}

#[test]
fn one_render_target_needs_no_draw_buffers_extension() {
    let Some(d) = ok(TINT, Stage::Pixel) else {
        return;
    };
    assert!(!d.glsl.contains("GL_EXT_draw_buffers"), "{}", d.glsl);
}

/// GLSL ES 1.00 §3.4: `#extension` directives come before any non-preprocessor token (Mesa
/// accepts them later, so compiling is not proof; GLES2 drivers refuse).
fn assert_extensions_first(glsl: &str) {
    let first_code = glsl
        .lines()
        .position(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .unwrap_or(usize::MAX);
    for (k, l) in glsl.lines().enumerate() {
        if l.trim_start().starts_with("#extension") {
            assert!(k < first_code, "`{l}` after the first statement:\n{glsl}");
        }
    }
}

/// On OpenGL ES 3 MonoGame inserts its `out vec4` declaration after the first line that is
/// exactly `#endif` (see `header`), which must close the precision header: the declaration
/// needs its default float precision.
fn assert_first_endif_closes_the_precision_header(glsl: &str) {
    let lines: Vec<&str> = glsl.lines().collect();
    let first = lines.iter().position(|l| *l == "#endif").expect("an #endif");
    assert!(
        lines[..first].last().is_some_and(|l| l.starts_with("precision "))
            && lines[..first].contains(&"#ifdef GL_ES"),
        "the first `#endif` line does not close the precision header:\n{glsl}"
    );
}

#[test]
fn depth_output_goes_to_gl_fragdepth() {
    let src = "float4 main(float4 c : COLOR0, out float depth : SV_Depth) : SV_Target { depth = c.x; return c; }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    assert!(
        d.glsl.contains("#define ps_oDepth gl_FragDepth") && d.glsl.contains("ps_oDepth ="),
        "{}",
        d.glsl
    );
    assert!(d.glsl.starts_with(header::DEPTH), "{}", d.glsl);
    assert_extensions_first(&d.glsl);
}

#[test]
fn every_extension_precedes_the_precision_statements() {
    // Depth, LOD, derivatives, a volume texture and two targets together: all five headers,
    // then the precision block.
    let src = "Texture2D T; Texture3D V; SamplerState S;\n\
        struct PO { float4 a : SV_Target0; float4 b : SV_Target1; float depth : SV_Depth; };\n\
        PO main(float2 uv : TEXCOORD0) {\n\
        PO o; o.depth = ddx(uv.x); o.a = T.SampleLevel(S, uv, 1); o.b = V.Sample(S, uv.xyx); return o; }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    let want = format!(
        "{}{}{}{}{}{}",
        header::DERIVATIVES,
        header::LOD,
        header::DEPTH,
        header::TEXTURE_3D,
        header::DRAW_BUFFERS,
        header::precision(Stage::Pixel, true)
    );
    assert!(d.glsl.starts_with(&want), "{}", d.glsl);
    assert_extensions_first(&d.glsl);
    assert_first_endif_closes_the_precision_header(&d.glsl);
}

#[test]
fn derivatives_get_the_extension_line_first() {
    let src = "float4 main(float2 uv : TEXCOORD0) : SV_Target { return float4(ddx(uv), ddy(uv)); }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    assert!(
        d.glsl
            .starts_with("#extension GL_OES_standard_derivatives : enable\n#ifdef GL_ES\n"),
        "{}",
        d.glsl
    );
    assert!(d.glsl.contains("dFdx(") && d.glsl.contains("dFdy("));
}

#[test]
fn round_becomes_floor_plus_half() {
    let src = "float4 Scale; float4 main(float2 uv : TEXCOORD0) : SV_Target { return round(uv.xyxy * Scale) / Scale; }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    assert!(d.glsl.contains("floor(("), "{}", d.glsl);
    assert!(!d.glsl.contains("round"), "{}", d.glsl);
    let Some(vs) = ok("float4 main(float2 p : POSITION0, out float2 uv : TEXCOORD0) : SV_Position { uv = float2(1.5, 2.4); return float4(p, 0.5, 1); }", Stage::Vertex) else { return };
    let Some(px) = render(&vs, &d, &[], &[("Scale", vec![1.0, 1.0, 1.0, 1.0])]) else {
        return;
    };
    close(&px, &[2.0, 2.0, 2.0, 2.0]);
}

#[test]
fn vertex_inputs_become_attributes_with_usages() {
    let src = "float4x4 WorldViewProj; float4 Tint;\n\
        struct VO { float4 pos : SV_Position; float4 c : COLOR0; float2 uv : TEXCOORD0; };\n\
        VO main(float4 p : POSITION0, float4 c : COLOR0, float2 uv : TEXCOORD0, float3 n : NORMAL0) {\n\
        VO o; o.pos = mul(p, WorldViewProj); o.c = c * Tint + float4(n, 0); o.uv = uv; return o; }";
    let Some(d) = ok(src, Stage::Vertex) else {
        return;
    };
    use shadowdusk_mgfx::VertexElementUsage as U;
    let attrs: Vec<(&str, U, u8)> = d
        .attributes
        .iter()
        .map(|a| (a.name.as_str(), a.usage, a.index))
        .collect();
    assert_eq!(
        attrs,
        [
            ("vs_v0", U::Position, 0),
            ("vs_v1", U::Color, 0),
            ("vs_v2", U::TextureCoordinate, 0),
            ("vs_v3", U::Normal, 0)
        ]
    );
    let g = &d.glsl;
    assert!(
        g.starts_with("#ifdef GL_ES\nprecision highp float;\nprecision mediump int;\n#endif\n"),
        "{g}"
    );
    for want in [
        "uniform vec4 vs_uniforms_vec4[5];\nuniform vec4 posFixup;\n",
        "attribute vec4 vs_v0;",
        "attribute vec4 vs_v3;",
        "varying vec4 vFrontColor;",
        "varying vec4 vTexCoord0;",
        "vTexCoord0.xy = vs_v2.xy;",
        "vs_v3.xyz",
        "gl_Position.y = gl_Position.y * posFixup.y;\n    gl_Position.xy += posFixup.zw * gl_Position.ww;\n    gl_Position.z = gl_Position.z * 2.0 - gl_Position.w;\n}",
    ] {
        assert!(g.contains(want), "missing `{want}` in\n{g}");
    }
}

#[test]
fn position_semantic_output_is_the_clip_position() {
    let src = "float4 main(float4 p : POSITION0, out float4 opos : POSITION0) : COLOR0 { opos = p; return p; }";
    let Some(d) = ok(src, Stage::Vertex) else {
        return;
    };
    assert!(
        d.glsl.contains("gl_Position = vs_v0;") && d.glsl.contains("posFixup.y"),
        "{}",
        d.glsl
    );
    assert!(!d.glsl.contains("varying vec4 gl_Position"), "{}", d.glsl);
}

#[test]
fn early_return_runs_the_fixup_on_every_exit() {
    let src = "float4 Bias;\n\
        float4 main(float4 p : POSITION0, inout float4 c : COLOR0) : SV_Position {\n\
        [branch] if (p.x > Bias.x) { c = 1; return p * 2; }\n\
        for (int i = 0; i < 3; i++) { if (p[i] < Bias.y) { c = 0.5; return p + i; } }\n\
        return p; }";
    let Some(d) = ok(src, Stage::Vertex) else {
        return;
    };
    let returns = d.glsl.matches("return;").count();
    let fixups = d
        .glsl
        .matches("gl_Position.y = gl_Position.y * posFixup.y;")
        .count();
    let exits = returns + usize::from(!d.glsl.trim_end().ends_with("return;\n}"));
    assert!(
        fixups >= exits.max(1),
        "{fixups} fixups for {returns} returns:\n{}",
        d.glsl
    );
    assert!(
        !d.glsl.contains("2.0 * gl_Position.z"),
        "every SPIRV-Cross depth line was replaced:\n{}",
        d.glsl
    );
}

#[test]
fn refuses_non_square_matrices() {
    let Some(e) = err("float4x3 World; float4 main(float4 p : POSITION0) : SV_Position { return float4(mul(p, World), 1); }", Stage::Vertex) else { return };
    assert_eq!(
        (e.code, e.subject.as_deref()),
        (Code::SD0210, Some("World"))
    );
    assert!(
        e.message.contains("non-square") && e.help.contains("float4x4"),
        "{e}"
    );
}

#[test]
fn refuses_int_uniforms() {
    let Some(e) = err(
        "int Count; float4 main(float4 c : COLOR0) : SV_Target { return c * Count; }",
        Stage::Pixel,
    ) else {
        return;
    };
    assert_eq!(
        (e.code, e.subject.as_deref()),
        (Code::SD0210, Some("Count"))
    );
}

#[test]
fn refuses_struct_uniforms() {
    let src = "struct Light { float4 Color; float4 Dir; }; Light L;\n\
        float4 main(float4 c : COLOR0) : SV_Target { return c * L.Color + L.Dir; }";
    let Some(e) = err(src, Stage::Pixel) else {
        return;
    };
    assert_eq!((e.code, e.subject.as_deref()), (Code::SD0210, Some("L")));
    assert!(e.help.contains("never uploads struct"), "{e}");
}

#[test]
fn refuses_vertex_textures() {
    let src = "Texture2D H; SamplerState S; float4 main(float4 p : POSITION0) : SV_Position { return p + H.SampleLevel(S, p.xy, 0); }";
    let Some(e) = err(src, Stage::Vertex) else {
        return;
    };
    assert_eq!((e.code, e.subject.as_deref()), (Code::SD0211, Some("H")));
}

#[test]
fn refuses_1d_textures() {
    let src = "Texture1D Ramp; SamplerState S; float4 main(float2 uv : TEXCOORD0) : SV_Target { return Ramp.Sample(S, uv.x); }";
    let Some(e) = err(src, Stage::Pixel) else {
        return;
    };
    assert_eq!((e.code, e.subject.as_deref()), (Code::SD0212, Some("Ramp")));
}

#[test]
fn refuses_unknown_vertex_semantics() {
    let Some(e) = err(
        "float4 main(float4 p : MYDATA0) : SV_Position { return p; }",
        Stage::Vertex,
    ) else {
        return;
    };
    assert_eq!(
        (e.code, e.subject.as_deref()),
        (Code::SD0213, Some("MYDATA0"))
    );
}

#[test]
fn cube_and_volume_gradients_use_the_lod_header() {
    // texldd on a cube or volume sampler: MojoShader's GLSL calls textureCubeGrad /
    // texture3DGrad through GL_ARB_shader_texture_lod, as it does texture2DGrad.
    let src = "TextureCube C; Texture3D V; SamplerState S;\n\
               float4 main(float3 d : TEXCOORD0) : SV_Target { return C.SampleGrad(S, d, d, d) + V.SampleGrad(S, d, d, d); }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    assert!(d.glsl.contains("#define textureCubeGrad textureCubeGradARB"), "{}", d.glsl);
    assert!(d.glsl.contains("textureCubeGrad(ps_s"), "{}", d.glsl);
    assert!(d.glsl.contains("texture3DGrad(ps_s"), "{}", d.glsl);
}

#[test]
fn refuses_pixel_inputs_no_vertex_shader_writes() {
    let Some(e) = err(
        "float4 main(float3 n : MYNORMAL0) : SV_Target { return float4(n, 1); }",
        Stage::Pixel,
    ) else {
        return;
    };
    assert_eq!(
        (e.code, e.subject.as_deref()),
        (Code::SD0216, Some("MYNORMAL0"))
    );
    assert!(e.help.contains("SpriteBatch"));
}

#[test]
fn refuses_system_values_glsl_110_lacks() {
    let Some(e) = err(
        "float4 main(uint id : SV_VertexID) : SV_Position { return float4(id, 0, 0, 1); }",
        Stage::Vertex,
    ) else {
        return;
    };
    assert_eq!(e.code, Code::SD0219);
}

#[test]
fn refuses_duplicate_slots() {
    let src = "Texture2D A; Texture2D B; SamplerState SA; SamplerState SB;\n\
        float4 main(float2 uv : TEXCOORD0) : SV_Target { return A.Sample(SA, uv) + B.Sample(SB, uv); }";
    let Some(r) = build(src, Stage::Pixel, &|_| Some(2)) else {
        return;
    };
    assert_eq!(r.unwrap_err().code, Code::SD0023);
}

/// A hand-made SPIRV-Cross result, for cases DXC's optimiser never produces.
fn synthetic(text: &str) -> CrossGlsl {
    CrossGlsl {
        text: text.into(),
        blocks: vec![UniformBlock {
            type_name: "type_Globals".into(),
            instance: "$Globals".into(),
            members: vec![BlockMember {
                name: "Tint".into(),
                glsl_type: "vec4".into(),
                offset: 0,
                array: None,
                row_major: false,
                kind: MemberKind::Float { components: 4 },
                register: 0,
                registers: 1,
            }],
            flattened_name: Some("sd_ub0".into()),
            registers: 1,
        }],
        combined: vec![],
        inputs: vec![],
        outputs: vec![StageVar {
            glsl_name: "sd_out_SV_TARGET".into(),
            semantic: "SV_TARGET".into(),
            components: 4,
            location: Some(0),
            builtin: false,
        }],
    }
}

#[test]
fn refuses_identifiers_that_collide_with_generated_names() {
    let text = "#version 110\nuniform vec4 sd_ub0[1];\nvec4 posFixup(vec4 x) { return x; }\nvoid main()\n{\n    gl_FragData[0] = posFixup(sd_ub0[0]);\n}\n";
    let e = rewrite(&synthetic(text), Stage::Pixel, &|_| None).unwrap_err();
    assert_eq!(
        (e.code, e.subject.as_deref()),
        (Code::SD0215, Some("posFixup"))
    );
}

#[test]
fn dynamic_index_into_a_later_block_is_offset() {
    let mut c = synthetic("#version 110\nuniform vec4 sd_ub0[1];\nuniform vec4 sd_ub1[2];\nvoid main()\n{\n    gl_FragData[0] = sd_ub0[0] + sd_ub1[int(sd_ub0[0].x) * 1 + 0];\n}\n");
    let mut b = c.blocks[0].clone();
    b.instance = "B".into();
    b.flattened_name = Some("sd_ub1".into());
    b.members[0].name = "Arr".into();
    b.members[0].array = Some(2);
    b.members[0].registers = 2;
    b.registers = 2;
    c.blocks.push(b);
    let d = rewrite(&c, Stage::Pixel, &|_| None).unwrap();
    assert!(d.glsl.contains("ps_oC0 = ps_uniforms_vec4[0] + ps_uniforms_vec4[1 + (int(ps_uniforms_vec4[0].x) * 1 + 0)];"), "{}", d.glsl);
    assert_eq!(d.register_count, 3);
    gl::assert_compiles(false, &d.glsl, true);
}

#[test]
fn output_is_deterministic() {
    let (Some(a), Some(b)) = (ok(TINT, Stage::Pixel), ok(TINT, Stage::Pixel)) else {
        return;
    };
    assert_eq!(a, b);
}

#[test]
fn fragcoord_and_front_facing_use_builtins() {
    let src = "float4 main(float4 pos : SV_Position, bool front : SV_IsFrontFace) : SV_Target { return front ? pos : -pos; }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    assert!(
        d.glsl.contains("gl_FragCoord") && d.glsl.contains("gl_FrontFacing"),
        "{}",
        d.glsl
    );
    assert!(!d.glsl.contains("varying"), "{}", d.glsl);
}

#[test]
fn integer_builtins_compile_or_are_refused() {
    // SPIRV-Cross spells this abs(ivec4), which needs GL_EXT_gpu_shader4.
    let Some(r) = build(
        "float4 main(float4 c : COLOR0) : SV_Target { return abs((int4)(c * 4 - 2)); }",
        Stage::Pixel,
        &|_| None,
    ) else {
        return;
    };
    match r {
        Ok(d) => gl::assert_compiles(false, &d.glsl, true),
        Err(e) => assert_eq!(e.code, Code::SD0219, "{e}"),
    }
}

#[test]
fn pixel_shader_links_against_spritebatch_vertex_shader() {
    // glsl-dialect.md §8.9: the real SpriteEffect VS from mgfxc, read at run time.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/golden/monogame-stock/SpriteEffect.ogl.mgfxo");
    if !path.exists() {
        let why = format!(
            "{} not found (the shared golden corpus is absent)",
            path.display()
        );
        shadowdusk_testkit::skip("pixel_shader_links_against_spritebatch_vertex_shader", &why);
        return;
    }
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let effect = shadowdusk_mgfx::read(&bytes).expect("golden parses");
    let vs = effect
        .shaders
        .iter()
        .find(|s| s.stage == shadowdusk_mgfx::ShaderStage::Vertex)
        .map(|s| String::from_utf8_lossy(&s.code).into_owned())
        .expect("SpriteEffect has a vertex shader");
    let Some(ps) = ok(TINT, Stage::Pixel) else {
        return;
    };
    let Some(g) = gl::context(false) else { return };
    g.link(&vs, &ps.glsl, &[])
        .unwrap_or_else(|e| panic!("does not link with SpriteBatch's VS: {e}"));
}

#[test]
fn static_const_arrays_compile() {
    // Blur kernels: a constant array indexed in a loop.
    let src = "Texture2D T; SamplerState S;\n\
        static const float W[5] = { 0.1, 0.2, 0.4, 0.2, 0.1 };\n\
        static const float2 O[3] = { float2(-1, 0), float2(0, 0), float2(1, 0) };\n\
        float4 main(float2 uv : TEXCOORD0) : SV_Target { float4 c = 0; for (int i = 0; i < 5; i++) c += T.Sample(S, uv + O[i % 3] * 0.01) * W[i]; return c; }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    assert!(
        !d.glsl.contains("[]("),
        "GLSL 1.10 has no array constructors:\n{}",
        d.glsl
    );
    let main = d.glsl.find("void main()\n{\n").expect("main");
    let first_assign = d
        .glsl
        .find("[4] = 0.1")
        .expect("the weights are assigned element by element");
    assert!(first_assign > main, "{}", d.glsl);
}

#[test]
fn static_const_array_values_survive_the_rewrite() {
    let src = "static const float4 C[3] = { float4(1, 2, 3, 4), float4(5, 6, 7, 8), float4(9, 10, 11, 12) }; float Index;\n\
        float4 main(float2 uv : TEXCOORD0) : SV_Target { return C[(int)Index] + uv.x * 0; }";
    let Some(d) = ok(src, Stage::Pixel) else {
        return;
    };
    let Some(vs) = ok("float4 main(float2 p : POSITION0, out float2 uv : TEXCOORD0) : SV_Position { uv = p; return float4(p, 0.5, 1); }", Stage::Vertex) else { return };
    let Some(px) = render(&vs, &d, &[], &[("Index", vec![2.0])]) else {
        return;
    };
    close(&px, &[9.0, 10.0, 11.0, 12.0]);
}

#[test]
fn dynamic_loop_with_uniform_bound_compiles() {
    let src = "float Count; float4 Colors[4];\n\
        float4 main(float4 c : COLOR0) : SV_Target { float4 r = 0; for (int i = 0; i < (int)Count; i++) r += Colors[i]; return r * c; }";
    ok(src, Stage::Pixel);
}

#[test]
#[ignore = "prints examples for eyeballing"]
fn dump() {
    for (src, st) in [
        ("Texture2D T; TextureCube C; SamplerState S;\nfloat4 main(float2 uv : TEXCOORD0) : SV_Target { return T.SampleLevel(S, uv, 2) + T.SampleGrad(S, uv, float2(0.1, 0), float2(0, 0.1)) + T.SampleBias(S, uv, 1) + C.SampleLevel(S, uv.xyx, 1); }", Stage::Pixel),
        ("float4x4 WorldViewProj; float4 Tint;\nstruct VO { float4 pos : SV_Position; float4 c : COLOR0; float2 uv : TEXCOORD0; };\nVO main(float4 p : POSITION0, float4 c : COLOR0, float2 uv : TEXCOORD0) { VO o; o.pos = mul(p, WorldViewProj); o.c = c * Tint; o.uv = uv; return o; }", Stage::Vertex),
        ("float4 main(float4 c : COLOR0, out float depth : SV_Depth) : SV_Target { depth = c.x; return c; }", Stage::Pixel),
    ] {
        if let Some(d) = ok(src, st) {
            eprintln!("----\n{}", d.glsl);
        }
    }
}
