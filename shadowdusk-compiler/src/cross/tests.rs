use super::*;
use crate::dxc;

fn cross(src: &str, stage: Stage) -> Option<CrossGlsl> {
    if dxc::missing_skips() {
        return None;
    }
    let spv = dxc::compile(src, "main", stage).unwrap_or_else(|e| panic!("DXC failed: {e}"));
    Some(to_glsl(&spv, stage).unwrap())
}

fn regs(b: &UniformBlock) -> Vec<(&str, u32, u32, u32, Option<u32>)> {
    b.members
        .iter()
        .map(|m| (m.name.as_str(), m.offset, m.register, m.registers, m.array))
        .collect()
}

#[test]
fn blocks_are_reflected_repacked_and_flattened() {
    let ps = "float4 Tint; float Amount; float3x3 M3; float4 Arr[3]; float4x4 Mats[2];\n\
              float4 main(float2 uv : TEXCOORD0) : SV_Target {\n\
              float3 t = mul(float3(uv, 1), M3); return float4(t, 1) * Tint * Amount + Arr[(int)uv.x] + mul(Tint, Mats[(int)uv.y]); }";
    let Some(g) = cross(ps, Stage::Pixel) else {
        return;
    };
    assert_eq!(g.blocks.len(), 1);
    let b = &g.blocks[0];
    assert_eq!(b.instance, "$Globals");
    // D3D offsets as DXC packed them; registers one per member (fx-pipeline.md §9.2).
    assert_eq!(
        regs(b),
        [
            ("Tint", 0, 0, 1, None),
            ("Amount", 16, 1, 1, None),
            ("M3", 32, 2, 3, None),
            ("Arr", 80, 5, 3, Some(3)),
            ("Mats", 128, 8, 8, Some(2))
        ]
    );
    assert_eq!(
        b.members[2].kind,
        MemberKind::Matrix {
            rows: 3,
            columns: 3
        }
    );
    assert!(!b.members[4].row_major);
    assert_eq!(b.registers, 16);
    assert_eq!(b.flattened_name.as_deref(), Some("sd_ub0"));
    assert!(g.text.contains("uniform vec4 sd_ub0[16];"), "{}", g.text);
    assert!(
        g.text
            .contains("mat3(sd_ub0[2].xyz, sd_ub0[3].xyz, sd_ub0[4].xyz)"),
        "{}",
        g.text
    );
    assert!(
        !g.text.contains("layout") && !g.text.contains("struct"),
        "{}",
        g.text
    );
}

#[test]
fn samplers_and_stage_variables_are_named_from_reflection() {
    let ps = "Texture2D SpriteTexture; SamplerState S; TextureCube Env; SamplerState E;\n\
              float4 main(float4 pos : SV_Position, float4 color : COLOR0, float2 uv : TEXCOORD0) : SV_Target {\n\
              return SpriteTexture.Sample(S, uv) * color + Env.Sample(E, uv.xyx) + pos; }";
    let Some(g) = cross(ps, Stage::Pixel) else {
        return;
    };
    let cs: Vec<(&str, &str, Dim)> = g
        .combined
        .iter()
        .map(|c| (c.texture.as_str(), c.sampler.as_str(), c.dim))
        .collect();
    assert!(
        cs.contains(&("SpriteTexture", "S", Dim::D2)) && cs.contains(&("Env", "E", Dim::Cube)),
        "{cs:?}"
    );
    for c in &g.combined {
        assert!(g.text.contains(&c.glsl_name), "{}", g.text);
    }
    let ins: Vec<(&str, &str, u32, bool)> = g
        .inputs
        .iter()
        .map(|v| {
            (
                v.glsl_name.as_str(),
                v.semantic.as_str(),
                v.components,
                v.builtin,
            )
        })
        .collect();
    assert_eq!(
        ins,
        [
            ("sd_in_COLOR0", "COLOR0", 4, false),
            ("sd_in_TEXCOORD0", "TEXCOORD0", 2, false),
            ("gl_FragCoord", "SV_POSITION", 4, true)
        ]
    );
    assert_eq!(g.outputs[0].semantic, "SV_TARGET");
    assert!(
        g.text.contains("varying vec2 sd_in_TEXCOORD0;"),
        "{}",
        g.text
    );
}

#[test]
fn non_float_blocks_are_left_for_the_dialect_to_refuse() {
    let Some(g) = cross(
        "int Count; float4 main(float4 c : COLOR0) : SV_Target { return c * Count; }",
        Stage::Pixel,
    ) else {
        return;
    };
    assert_eq!(g.blocks[0].flattened_name, None);
    assert_eq!(g.blocks[0].members[0].kind, MemberKind::NonFloat);
}

#[test]
fn matrix_packing_decides_register_counts() {
    let src = "float4x3 C; row_major float4x3 R;\n\
               float4 main(float4 p : POSITION0) : SV_Position { return float4(mul(p, C) + mul(p, R), 1); }";
    let Some(g) = cross(src, Stage::Vertex) else {
        return;
    };
    let m = &g.blocks[0].members;
    assert_eq!(
        (m[0].kind, m[0].row_major, m[0].registers),
        (
            MemberKind::Matrix {
                rows: 4,
                columns: 3
            },
            false,
            3
        )
    );
    assert_eq!(
        (m[1].kind, m[1].row_major, m[1].registers),
        (
            MemberKind::Matrix {
                rows: 4,
                columns: 3
            },
            true,
            4
        )
    );
}

#[test]
fn vertex_shader_gets_the_depth_fixup_and_no_y_flip() {
    let Some(g) = cross(
        "float4 main(float4 p : POSITION0) : SV_Position { return p; }",
        Stage::Vertex,
    ) else {
        return;
    };
    assert!(
        g.text
            .contains("gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;"),
        "{}",
        g.text
    );
    assert!(!g.text.contains("-gl_Position.y"), "{}", g.text);
    assert!(
        g.text.contains("attribute vec4 sd_in_POSITION0;"),
        "{}",
        g.text
    );
}

#[test]
fn integers_are_signed_and_divide_through_floats() {
    let ps = "int Stride;\n\
              float4 main(float2 uv : TEXCOORD0) : SV_Target {\n\
              int i = (int)(uv.x * 30) - 14; uint u = (uint)(uv.y * 30);\n\
              int2 v = int2(i, i + 3) / Stride;\n\
              int m = clamp(abs(i), 1, 9) + min(i, Stride) + max(sign(i), 0);\n\
              return float4(i / Stride, i % Stride, u / 3u + u % 4u, v.x + v.y + m); }";
    let Some(g) = cross(ps, Stage::Pixel) else {
        return;
    };
    let t = &g.text;
    for gone in ["uint", "uvec", "%", "GL_EXT_gpu_shader4", "mod("] {
        assert!(!t.contains(gone), "`{gone}` left in:\n{t}");
    }
    // Every quotient is a float estimate on magnitudes, stepped to the exact quotient by its
    // remainder, then signed (exactness itself: `tests/tests/integer_division.rs`, rendered).
    for f in ["floor(", "step(", "sign("] {
        assert!(t.contains(f), "`{f}` missing in:\n{t}");
    }
    assert!(t.contains("ivec2("), "{t}");
    // GLSL 1.10 has only float overloads of these; the integers go through floats and back.
    for f in ["clamp(float(", "abs(float(", "min(float(", "sign(float("] {
        assert!(t.contains(f), "`{f}` missing in:\n{t}");
    }
}

#[test]
fn modules_without_unsigned_types_or_division_are_left_alone() {
    let ps = "float4 main(float2 uv : TEXCOORD0) : SV_Target { int i = (int)(uv.x * 4); return i * 0.25; }";
    if dxc::missing_skips() {
        return;
    }
    let spv = dxc::compile(ps, "main", Stage::Pixel).unwrap();
    assert!(integers::lower(&spv.words).unwrap().is_none());
}

#[test]
fn run_time_lanes_of_uniform_vectors_read_whole_registers() {
    // A kernel weight picked by a loop counter, a channel by a uniform, a lane of an array
    // element: SPIRV-Cross refuses a flattened pointer to one float at a run-time lane.
    let ps = "float4 Weights; float Index; float3 Offs[3];\n\
              float4 main(float2 uv : TEXCOORD0) : SV_Target {\n\
              float s = 0; for (int i = 0; i < 4; i++) s += Weights[i] * uv.x;\n\
              return s + Weights[(int)Index] + Offs[1][(int)Index] + Offs[(int)Index].y; }";
    let Some(g) = cross(ps, Stage::Pixel) else {
        return;
    };
    // The register is read whole, then indexed.
    assert!(g.text.contains("sd_ub0[0][_"), "{}", g.text);
    assert!(g.text.contains("sd_ub0[3].xyz[_"), "{}", g.text);
    assert!(!g.text.contains("uint"), "{}", g.text);
}

#[test]
fn run_time_indices_stay_int() {
    // DXC casts every run-time index to uint; used twice, SPIRV-Cross kept a `uint` temporary
    // and asked for GL_EXT_gpu_shader4.
    let ps = "float Index;\n\
              float4 main(float2 uv : TEXCOORD0) : SV_Target {\n\
              float3 c[2] = { float3(1, 0, 0), float3(0, 1, 0) }; float4 v = uv.xyxy;\n\
              return v[(int)Index] + c[(int)Index][(int)Index]; }";
    let Some(g) = cross(ps, Stage::Pixel) else {
        return;
    };
    assert!(!g.text.contains("uint"), "{}", g.text);
    assert!(!g.text.contains("gpu_shader4"), "{}", g.text);
}

#[test]
fn pow_log_and_roots_follow_direct3d9() {
    // A uniform exponent raises |x|; whole-number literals within fxc's cut-off become
    // products (x^3 keeps its sign), beyond it (a scalar x^7) a pow of |x|; log, sqrt and rsqrt
    // read |x|; a constant base that is not negative is left alone.
    let ps = "float E; float4 main(float2 uv : TEXCOORD0) : SV_Target {\n\
              float x = uv.x - 0.5; float3 v = float3(uv, x);\n\
              return float4(pow(x, 6.0) + pow(x, 3.0) + pow(x, -1.0),\n\
              pow(x, E) + pow(2.0, x) + pow(x, 7.0), pow(v, 7.0).x + pow(v, -3).y,\n\
              log(x) + sqrt(x) + rsqrt(x) + log2(x)); }";
    let Some(g) = cross(ps, Stage::Pixel) else {
        return;
    };
    // The ids SPIRV-Cross named `x` and `v`.
    let named = |init: &str| {
        let line = g.text.lines().find(|l| l.contains(init)).expect(init);
        line.split_whitespace().nth(1).expect("a declaration").to_string()
    };
    let t = g
        .text
        .replace(&named("= sd_in_TEXCOORD0.x - 0.5;"), "x")
        .replace(&named("= vec3(sd_in_TEXCOORD0, "), "v");
    for want in [
        "pow(abs(x), sd_ub0[0].x)",
        "pow(abs(x), 7.0)",
        "pow(2.0, x)",
        "(x * x) * x",
        "1.0 / x",
        "log(abs(x))",
        "log2(abs(x))",
        "sqrt(abs(x))",
        "inversesqrt(abs(x))",
        "vec3(1.0) / ((v * v) * v)",
    ] {
        assert!(t.contains(want), "`{want}` missing in:\n{t}");
    }
    assert_eq!(t.matches("pow(").count(), 3, "{t}");
}

/// How many inserts `loop_inserts` gives a copy of their composite, or `None` without DXC.
fn loop_insert_copies(ps: &str) -> Option<usize> {
    if dxc::missing_skips() {
        return None;
    }
    let spv = dxc::compile(ps, "main", Stage::Pixel).unwrap_or_else(|e| panic!("DXC failed: {e}"));
    let words = rewritten(&spv).unwrap();
    let before = spirv::instructions(&words).unwrap().len();
    Some(
        loop_inserts::copy_loop_inserts(&words)
            .map_or(0, |w| spirv::instructions(&w).unwrap().len() - before),
    )
}

const LOOP_HEAD: &str = "float2 Off[4]; float W[4]; float4 Tint; Texture2D T; SamplerState S;\n";

#[test]
fn a_loop_writing_into_a_value_from_before_it_writes_into_a_fresh_copy() {
    // The blur of issue 32: `uv` is re-read from the input at the top of every iteration.
    let ps = format!(
        "{LOOP_HEAD}float4 main(float2 tc : TEXCOORD0) : SV_Target {{ float4 sum = 0;\n\
         for (int i = 0; i < 4; i++) {{ float2 uv = tc; uv.x += Off[i].x; sum += T.Sample(S, uv) * W[i]; }}\n\
         return sum; }}"
    );
    let Some(g) = cross(&ps, Stage::Pixel) else {
        return;
    };
    // The written variable is declared inside the loop (so each iteration starts from `tc`)
    // and is not the input's own copy from before the loop.
    let text = &g.text;
    let lane = text
        .lines()
        .find(|l| l.trim_start().starts_with('_') && l.contains(".x = "))
        .unwrap_or_else(|| panic!("no lane write:\n{text}"));
    let var = lane.trim_start().split('.').next().unwrap();
    let decl = text
        .find(&format!("vec2 {var} = "))
        .unwrap_or_else(|| panic!("{var} not declared:\n{text}"));
    assert!(
        text.find("for (").is_some_and(|f| f < decl),
        "{var} declared before the loop:\n{text}"
    );
    assert!(!lane.contains(&format!("{var}.x +")) && !lane.ends_with(&format!("+ {var}.x;")), "{text}");
}

#[test]
fn loop_inserts_are_copied_only_where_the_value_outlives_an_iteration() {
    let shader = |body: &str| {
        format!("{LOOP_HEAD}float4 main(float2 tc : TEXCOORD0, float4 c : COLOR0) : SV_Target {{ float4 sum = 0; {body} return sum; }}")
    };
    let cases = [
        // Re-read from the input in a for, a while and a do loop, and after a `break` test.
        ("for", "for (int i = 0; i < 4; i++) { float2 uv = tc; uv.x += Off[i].x; sum += T.Sample(S, uv) * W[i]; }", 1),
        ("while", "int i = 0; while (i < (int)Tint.w) { float2 uv = tc; uv.x += Off[i].x; sum += T.Sample(S, uv) * W[i]; i++; }", 1),
        ("do", "int i = 0; do { float2 uv = tc; uv.y += Off[i].y; sum += T.Sample(S, uv) * W[i]; i++; } while (i < (int)Tint.w);", 1),
        ("break", "for (int i = 0; i < 4; i++) { float2 uv = tc; uv.x += Off[i].x; if (uv.x > Tint.x) break; sum += T.Sample(S, uv) * W[i]; }", 1),
        // Nested: the row is made by the outer loop, the tap by the inner one.
        ("nested", "for (int j = 0; j < 2; j++) { float4 row = T.Sample(S, tc + Off[j]); for (int i = 0; i < 4; i++) { float4 t = row; t.r *= W[i]; sum += t; } }", 1),
        // A matrix product made before the loop, one row moved per iteration.
        ("matrix", "float2x2 b = mul(float2x2(c.rg, c.ba), float2x2(Tint)); for (int i = 0; i < 4; i++) { float2x2 m = b; m[1] += Off[i]; sum.rg += mul(tc, m); }", 1),
        // The composite is made in the same iteration: SPIRV-Cross's in-place write is sound.
        ("same iteration", "for (int i = 0; i < 4; i++) { float2 uv = tc * W[i]; uv.x += Off[i].x; sum += T.Sample(S, uv); }", 0),
        // A value carried on purpose (a phi), and an insert outside any loop.
        ("carried", "float2 uv = tc; for (int i = 0; i < (int)Tint.w; i++) { uv.x += Off[i].x; sum += T.Sample(S, uv) * W[i]; }", 0),
        ("no loop", "float2 uv = tc; uv.x += Off[0].x; sum = T.Sample(S, uv);", 0),
    ];
    for (name, body, copies) in cases {
        let Some(n) = loop_insert_copies(&shader(body)) else {
            return;
        };
        assert_eq!(n, copies, "{name}");
    }
}
