//! Bad input gets one clear error, at the right place in the user's file, with a stable code —
//! one case per stage of the pipeline. Each case pins the code, the line and column (in the
//! effect file, or in the header for errors inside an include), and mgfxc's rendering.

use std::path::PathBuf;

use shadowdusk_compiler::pipeline::{compile_file, compile_source, Options};

const PS: &str = "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return float4(uv, 0, 1); }\n";
const TECH: &str = "technique T { pass P { PixelShader = compile ps_2_0 PS(); } }\n";

struct Case {
    name: &'static str,
    source: String,
    /// (code, file name, line, column) of the first diagnostic.
    want: (&'static str, &'static str, u32, u32),
}

fn cases() -> Vec<Case> {
    let c = |name, source: String, want| Case { name, source, want };
    vec![
        c("missing include", format!("{PS}#include \"nope.fxh\"\n{TECH}"), ("SD0001", "missing_include.fx", 2, 10)),
        c("#error", format!("#if OPENGL\n#error no GL here\n#endif\n{PS}{TECH}"), ("SD0003", "error_directive.fx", 2, 1)),
        c("unterminated #if", format!("#if 1\n{PS}{TECH}"), ("SD0004", "unterminated_if.fx", 1, 1)),
        c("unterminated comment", format!("{PS}/* open\n{TECH}"), ("SD0006", "unterminated_comment.fx", 2, 1)),
        c("effect syntax", format!("{PS}technique T {{ pass P {{ PixelShader = compile ps_2_0 PS() }} }}\n"), ("FX0008", "effect_syntax.fx", 2, 57)),
        c("unknown render state", format!("{PS}technique T {{ pass P {{ PixelShader = compile ps_2_0 PS(); AlphaBlendEnable = Maybe; }} }}\n"), ("SD0011", "render_state.fx", 2, 78)),
        c("wrong-stage profile", format!("{PS}technique T {{ pass P {{ VertexShader = compile ps_2_0 PS(); }} }}\n"), ("SD0013", "profile.fx", 2, 47)),
        c("no technique", PS.to_string(), ("SD0010", "no_technique.fx", 0, 0)),
        // fxc's X3013 and X3067: the `compile` arguments pick the overload, as fxc picks it.
        c("no overload takes the compile arguments", format!("{PS}float4 PS(float2 uv : TEXCOORD0, uniform bool g) : COLOR0 {{ return g ? 1 : 0; }}\ntechnique T {{ pass P {{ PixelShader = compile ps_2_0 PS(true, false); }} }}\n"), ("FX0003", "no_overload.fx", 3, 53)),
        c("compile arguments two overloads take alike", "float4 PS(float2 uv : TEXCOORD0, uniform float s) : COLOR0 { return uv.x * s; }\nfloat4 PS(float2 uv : TEXCOORD0, uniform int s) : COLOR0 { return uv.y * s; }\ntechnique T { pass P { PixelShader = compile ps_2_0 PS(true); } }\n".to_string(), ("FX0003", "ambiguous_overload.fx", 3, 53)),
        c("missing entry", format!("{PS}technique T {{ pass P {{ PixelShader = compile ps_2_0 Nope(); }} }}\n"), ("SD0102", "missing_entry.fx", 2, 53)),
        c("HLSL type error", format!("float4 PS(float2 uv : TEXCOORD0) : COLOR0\n{{\n    return float4(uv, 0, 1) * undefinedThing;\n}}\n{TECH}"), ("SD0100", "type_error.fx", 3, 31)),
        c("struct uniform", format!("struct Light {{ float3 dir; float4 color; }};\nLight L;\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return L.color; }}\n{TECH}"), ("SD0210", "struct_uniform.fx", 2, 7)),
        c("non-square local row picked at run time", format!("float2x3 M;\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ float2x3 k = M * uv.y; return float4(k[(int)uv.x], 1); }}\n{TECH}"), ("SD0210", "non_square.fx", 2, 82)),
        c("intrinsic argument count", format!("float4 PS(float2 uv : TEXCOORD0) : COLOR0\n{{\n    float4 a = 1, b = 0;\n    return lerp(a, b);\n}}\n{TECH}"), ("SD0100", "intrinsic_arity.fx", 4, 12)),
        c("pass outside a technique", format!("{PS}pass P0 {{ PixelShader = compile ps_2_0 PS(); }}\n"), ("FX0001", "stray_pass.fx", 2, 1)),
        c("malformed #line", format!("#line abc\n{PS}{TECH}"), ("SD0004", "bad_line.fx", 1, 7)),
        c("vertex shader without a position", format!("struct VSOut {{ float4 Color : COLOR0; }};\nVSOut VS(float4 p : POSITION0) {{ VSOut o; o.Color = p; return o; }}\n{PS}technique T {{ pass P {{ VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); }} }}\n"), ("SD0217", "no_position.fx", 4, 54)),
        c("uniforms over the register limit", format!("float4 Palette[40];\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return Palette[(int)(uv.x * 39)]; }}\n{TECH}"), ("SD0218", "register_limit.fx", 1, 8)),
        c("stray # after preprocessing", format!("static const float Cells = #error\n{PS}{TECH}"), ("FX0011", "stray_hash.fx", 1, 28)),
        c("int array passed whole", format!("int Counts[4];\nfloat First(int c[4]) {{ return c[0]; }}\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return First(Counts); }}\n{TECH}"), ("FX0012", "int_array.fx", 3, 58)),
        c("vertex texture", "sampler2D s0;\nfloat4 VS(float4 p : POSITION0) : POSITION0 { return p + tex2Dlod(s0, float4(0, 0, 0, 0)); }\nfloat4 PS() : COLOR0 { return 1; }\ntechnique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n".to_string(), ("SD0211", "vertex_texture.fx", 1, 11)),
    ]
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("shadowdusk-errors-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn every_stage_reports_code_and_position_in_the_users_file() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(
            "every_stage_reports_code_and_position_in_the_users_file",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return;
    }
    let mut failures = Vec::new();
    for case in cases() {
        let path = dir().join(case.want.1);
        let err = match compile_source(&path, &case.source, &Options::default()) {
            Ok(_) => {
                failures.push(format!("{}: compiled, expected {}", case.name, case.want.0));
                continue;
            }
            Err(e) => e,
        };
        let mgfxc = err.render_mgfxc();
        let first = mgfxc.lines().next().unwrap_or("");
        let (code, file, line, col) = case.want;
        let expected = if line == 0 {
            format!("error {code}: ")
        } else {
            format!("{}({line},{col}): error {code}: ", path.display())
        };
        if !first.contains(&expected) {
            failures.push(format!(
                "{}: expected `{expected}…`, got:\n{mgfxc}",
                case.name
            ));
        }
        // The rustc-style rendering carries the same position and a snippet of the line.
        let pretty = err.render(false);
        if line > 0 && !pretty.contains(&format!("{file}:{line}:{col}")) {
            failures.push(format!(
                "{}: rustc-style rendering lacks {file}:{line}:{col}:\n{pretty}",
                case.name
            ));
        }
        if !pretty.contains(&format!("error[{code}]")) {
            failures.push(format!(
                "{}: rustc-style rendering lacks error[{code}]:\n{pretty}",
                case.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn errors_inside_an_include_point_into_the_header() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(
            "errors_inside_an_include_point_into_the_header",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return;
    }
    let d = dir();
    std::fs::write(
        d.join("broken.fxh"),
        "// a header\nfloat4 Shade(float2 uv)\n{\n    return float4(uv, 0, 1) * notDeclared;\n}\n",
    )
    .unwrap();
    let main = d.join("uses_header.fx");
    std::fs::write(
        &main,
        format!("#include \"broken.fxh\"\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return Shade(uv); }}\n{TECH}"),
    )
    .unwrap();
    let err = compile_file(&main, &Options::default()).expect_err("must fail");
    let text = err.render_mgfxc();
    let header = d.join("broken.fxh");
    assert!(
        text.starts_with(&format!("{}(4,31): error SD0100: ", header.display())),
        "{text}"
    );
    assert!(
        err.deps.iter().any(|p| p.ends_with("broken.fxh")),
        "{:?}",
        err.deps
    );
}

/// Registers past what GLES 2 guarantees (128 vertex, 16 fragment vectors) but within the
/// profile's are a warning at the declaration, and the effect compiles, as under mgfxc.
#[test]
fn registers_past_the_gles2_guarantee_warn_at_the_declaration() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(
            "registers_past_the_gles2_guarantee_warn_at_the_declaration",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return;
    }
    let vs = "float4x4 ViewProjection;\nfloat4x3 Bones[128];\n\
              float4 VS(float4 p : POSITION0, float4 i : BLENDINDICES0) : POSITION0 { return mul(float4(mul(p, Bones[(int)i.x]), 1), ViewProjection); }\n\
              float4 Palette[20];\n\
              float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return Palette[(int)(uv.x * 19)]; }\n\
              technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";
    let path = dir().join("many_registers.fx");
    let compiled = compile_source(&path, vs, &Options::default()).expect("compiles with warnings");
    let text = shadowdusk_compiler::diag::render_mgfxc(&compiled.files, &compiled.warnings.0);
    for want in [
        format!("{}(2,10): warning SD0220: `Bones`", path.display()),
        format!("{}(4,8): warning SD0220: `Palette`", path.display()),
    ] {
        assert!(text.contains(&want), "expected `{want}…` in:\n{text}");
    }
    let strict = Options {
        warnings_as_errors: true,
        ..Options::default()
    };
    let err = compile_source(&path, vs, &strict).expect_err("/WX refuses");
    assert!(
        err.render_mgfxc().contains("SD0220"),
        "{}",
        err.render_mgfxc()
    );
}
