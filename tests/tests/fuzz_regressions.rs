//! Inputs that fuzzing (`cargo xtask fuzz`, see ARCHITECTURE.md) found crashing the compiler,
//! minimized and compiled through the whole pipeline: each must end in the expected error —
//! never a panic, an abort or a crash.
//!
//! Each case here is refused by ShadowDusk before DXC sees it, checked at its exact position.
//! Texts that crash DXC itself also belong to the guard's regression set, `tests/dxc_crashes/`
//! (`dxc_guard_regressions.rs`), which checks that none of them ever reaches DXC.

use std::path::PathBuf;

use shadowdusk_compiler::pipeline::{compile_source, Options};

const TECH: &str = "technique T { pass P { PixelShader = compile ps_2_0 PS(); } }\n";

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "shadowdusk-fuzz-regressions-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Compiles `source` as `name` and checks its first error, as mgfxc renders it: the code, the
/// line and column, and a word of the message. Skips (a failure under
/// `SHADOWDUSK_REQUIRE_ALL=1`) without DXC.
fn expect_error(test: &str, name: &str, source: &str, want: (&str, u32, u32, &str)) {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(test, "DXC is not available (run `cargo xtask setup`)");
        return;
    }
    if let Err(e) = check_error(name, source, want) {
        panic!("{test}: {e}");
    }
}

/// [`expect_error`]'s check, returning what differs.
fn check_error(name: &str, source: &str, want: (&str, u32, u32, &str)) -> Result<(), String> {
    let (code, line, col, mentions) = want;
    let path = dir().join(name);
    let run = std::panic::AssertUnwindSafe(|| compile_source(&path, source, &Options::default()));
    let err = match std::panic::catch_unwind(run) {
        Err(_) => return Err(format!("{name}: the compiler panicked (expected {code})")),
        Ok(Ok(_)) => return Err(format!("{name}: compiled, expected {code}")),
        Ok(Err(e)) => e,
    };
    let mgfxc = err.render_mgfxc();
    let first_error = mgfxc.lines().find(|l| l.contains(": error ")).unwrap_or("");
    let at = format!("{}({line},{col}): error {code}: ", path.display());
    if !(first_error.contains(&at) && first_error.contains(mentions)) {
        return Err(format!("expected `{at}…{mentions}…`, got:\n{mgfxc}"));
    }
    // Rendering with snippets must not panic either.
    let pretty = err.render(false);
    if !pretty.contains(&format!("error[{code}]")) {
        return Err(format!("{name}: rendered without its code:\n{pretty}"));
    }
    Ok(())
}

/// [`check_error`]'s counterpart for a source that must compile.
fn check_compiles(name: &str, source: &str) -> Result<(), String> {
    let path = dir().join(name);
    let run = std::panic::AssertUnwindSafe(|| compile_source(&path, source, &Options::default()));
    match std::panic::catch_unwind(run) {
        Err(_) => Err(format!(
            "{name}: the compiler panicked (expected it to compile)"
        )),
        Ok(Err(e)) => Err(format!(
            "{name}: expected it to compile, got:\n{}",
            e.render_mgfxc()
        )),
        Ok(Ok(_)) => Ok(()),
    }
}

/// pipeline target, 768 bytes, found after about 31,000 runs (seeded from the golden-parity
/// Pixelated.fx): `#error` in the middle of a declaration swallowed the struct after it, so the
/// parameter's type `VertexShaderOutput` was undeclared, and `in5put` a typo. DXC 1.8 crashed
/// (SIGSEGV, see the next test); a `#` left after preprocessing is now refused before DXC.
#[test]
fn stray_hash_swallowing_a_struct_then_a_typo() {
    let source = "\
        // Golden: Pixelated.mgfx — SpriteBatch pixel shader: texture coordinates snapped to a 32×32 grid.\n\
        #if OPENGL\n\
        \t#define SV_POSITION POSITION\n\
        \t#define PS_SHADERMODEL ps_6_0\n\
        #else\n\
        \t#define PS_SHADERMODEL ps_4_0_level_9_1\n\
        #endif\n\
        \n\
        Texture2D SpriteTexture;\n\
        \n\
        sampler2D SpriteTextureSampler = sampler_state\n\
        {\n\
        \tTexture = <SprqteTexture>;\n\
        };\n\
        \n\
        static const float Cells = #error\n\
        struct VertexShaderOutput\n\
        {\n\
        \tfloat4 Position : SV_POSITION;\n\
        \tfloat4 Color : COLOR0;\n\
        \tfloat2 TetreuxCoordinates : TEXCOORD0;\n\
        };\n\
        \n\
        float4 MainPS(VertexShaderOutput input) : COLOR\n\
        {\n\
        \tfloat2 snapped = floor(in5put.TextureCoordinates * Cells + 0.5) / Cells;\n\
        \treturn tex2D(SpriteTextureSampler, snapped);\n\
        }\n\
        \n\
        technique BasicColorDrawing\n\
        {\n\
        \tpass P0\n\
        \t{\n\
        \t\tPixelShader = compile PS_SHADERMODEL MainPS();\n\
        \t}\n\
        };\n\
        ";
    expect_error(
        "stray_hash_swallowing_a_struct_then_a_typo",
        "stray_hash_struct.fx",
        source,
        ("FX0011", 16, 28, "#"),
    );
}

/// pipeline target, minimized from the case above (`cargo +nightly fuzz tmin` and by hand), and
/// not covered by the `#` check: a parameter whose type is misspelt so that DXC's typo
/// correction makes it an effect-object type (`Textur2D` → `Texture`), then a misspelt use of
/// that parameter as a call argument (`texx` → `tex`). DXC 1.8 dereferences null in
/// `clang::CXXRecordDecl::mayBeAbstract` (from `HLSLExternalSource::CompleteType` →
/// `Sema::RequireCompleteType` → `ActOnStartCXXMemberReference` → typo correction in
/// `CorrectDelayedTyposInExpr`): SIGSEGV in the build script, CLI or macro that compiles it.
/// Now refused before DXC: an undeclared name DXC would correct to an effect type.
#[test]
fn misspelt_texture_parameter_then_misspelt_use() {
    let source = format!("float4 PS(Textur2D tex) : COLOR0 {{ return saturate(texx); }}\n{TECH}");
    expect_error(
        "misspelt_texture_parameter_then_misspelt_use",
        "misspelt_texture_parameter.fx",
        &source,
        ("FX0001", 1, 11, "Textur2D"),
    );
}

/// The same DXC crash with a struct name one letter off (`VertexShaderOutpt` → `VertexShader`).
#[test]
fn misspelt_struct_parameter_then_misspelt_use() {
    let source =
        format!("float4 PS(VertexShaderOutpt input) : COLOR0 {{ return saturate(inpt); }}\n{TECH}");
    expect_error(
        "misspelt_struct_parameter_then_misspelt_use",
        "misspelt_struct_parameter.fx",
        &source,
        ("FX0001", 1, 11, "VertexShaderOutpt"),
    );
}

/// CI's fuzz smoke (pipeline target) found the same null dereference reached another way: a
/// struct member (`Sema::CheckFieldDecl` → `HLSLExternalSource::CompleteType` →
/// `CXXRecordDecl::mayBeAbstract`). Probing showed the whole class: any effect type, in any
/// letter case DXC corrects, or a name its spelling correction turns into one, used as a
/// parameter, a struct member, a cast, an array element or a constructor-style call. Every
/// combination here crashed DXC 1.8 before `pipeline::dxc_guard`; each is now an error at the
/// name: SD0028 for the effect type, FX0001 for the undeclared look-alike (and for a global
/// array of state objects, which the effect parser stops at) — except effect-style texture
/// types on parameters and struct members, which lowering turns into `Texture2D` & co., and
/// shader and state-object parameters, which lowering removes (fxc compiles nothing for them).
#[test]
fn effect_types_in_code_never_reach_dxc() {
    const HEAD: &str = "Texture2D Sprite;\nsampler2D S = sampler_state { Texture = <Sprite>; };\n";
    let contexts: [(&str, &str, &str); 5] = [
        ("parameter", "", "float4 PS(float2 uv : TEXCOORD0, @ p) : COLOR0 { return tex2D(S, uv); }"),
        ("member", "struct Q { float a; @ b; };", "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }"),
        ("cast", "", "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { float q = (@)uv.x; return tex2D(S, uv * q); }"),
        ("array", "@ g[2];", "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }"),
        ("call", "", "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { float q = @(1); return tex2D(S, uv * q); }"),
    ];
    let effect_types = [
        "texture",
        "Texture",
        "texture1D",
        "texture2D",
        "texture3D",
        "Texture1d",
        "VertexShader",
        "vertexshader",
        "PixelShader",
        "pixelshader",
        "GeometryShader",
        "HullShader",
        "DomainShader",
        "ComputeShader",
        "PixelFragment",
        "VertexFragment",
        "BlendState",
        "blendstate",
        "Blendstate",
        "DepthStencilState",
        "RasterizerState",
        "RenderTargetView",
        "DepthStencilView",
    ];
    let look_alikes = [
        "Textur2D",
        "Textre",
        "TextureCub",
        "VertexShder",
        "VertexShaderOutpt",
    ];
    let cases = effect_types
        .iter()
        .map(|t| (*t, "SD0028"))
        .chain(look_alikes.iter().map(|t| (*t, "FX0001")));
    if !shadowdusk_compiler::dxc::available() {
        let test = "effect_types_in_code_never_reach_dxc";
        shadowdusk_tests::skip(test, "DXC is not available (run `cargo xtask setup`)");
        return;
    }
    let mut wrong = Vec::new();
    for (name, code) in cases {
        for (context, global, function) in contexts {
            let source = format!(
                "{HEAD}{}\n{}\n{TECH}",
                global.replace('@', name),
                function.replace('@', name)
            );
            // The name's place: line 3 for a global, 4 in the function, 1-based column.
            let (line, text) = if global.is_empty() {
                (4, function)
            } else {
                (3, global)
            };
            let col = text.find('@').expect("placeholder") as u32 + 1;
            // The effect parser reads a global state object first, and wants its block.
            let state_object = name.ends_with("State") && name.starts_with(char::is_uppercase);
            let want = if context == "array" && state_object {
                ("FX0001", line, col + name.len() as u32 + 2, "`[`")
            } else {
                (code, line, col, name)
            };
            let file = format!("{context}_{name}.fx");
            // Effect-style texture types on parameters and members are lowered to `Texture2D`
            // & co., as fxc takes them: the member compiles, and the entry's parameter gets
            // DXC's ordinary complaint about an input without a semantic.
            let texture = shadowdusk_compiler::effect::types::texture_keyword(name).is_some();
            // A shader or state-object parameter leaves the entry, as fxc compiles nothing for
            // it (the other places: `dxc_guard_regressions.rs`, against the pinned DXC).
            let object = shadowdusk_compiler::effect::types::code_object(name);
            let checked = match context {
                "member" if texture => check_compiles(&file, &source),
                "parameter" if object => check_compiles(&file, &source),
                "parameter" if texture => {
                    let p = col + name.len() as u32 + 1;
                    check_error(&file, &source, ("SD0100", line, p, "semantic"))
                }
                _ => check_error(&file, &source, want),
            };
            if let Err(e) = checked {
                wrong.push(e);
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} cases:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// pipeline target (a local 15-minute run), seeded from `compat_mul_float3_matrix.fx`: a pixel
/// output semantic mutated to `COLOR222…220` (46 digits). Lowered to `SV_Target222…`, it crashed
/// DXC 1.8 in `DeclResultIdMapper::finalizeStageIOLocations` (SIGSEGV): DXC reads the index
/// into 32 bits. Now SD0029 at the semantic, as is any pixel output above render target 7
/// (which used to compile to `gl_FragData[8]` and beyond, no GL driver's limit). Other indices
/// over 32 bits wrap as fxc wraps them: `huge_indices_wrap_as_fxc_reads_them`.
#[test]
fn semantic_indices_out_of_range() {
    let huge = format!("COLOR{}0", "2".repeat(45));
    for (file, out, input, wrong) in [
        (
            "huge_render_target.fx",
            huge.as_str(),
            "TEXCOORD0",
            huge.as_str(),
        ),
        ("render_target_8.fx", "COLOR8", "TEXCOORD0", "COLOR8"),
        ("sv_target_9.fx", "SV_Target9", "TEXCOORD0", "SV_Target9"),
        // Render target 8 once read into 32 bits.
        (
            "wrapped_render_target.fx",
            "COLOR4294967304",
            "TEXCOORD0",
            "COLOR4294967304",
        ),
    ] {
        let line = format!("float4 PS(float2 uv : {input}) : {out} {{ return tex2D(S, uv); }}");
        let col = line.find(wrong).expect("semantic") as u32 + 1;
        let source = format!("sampler S;\n{line}\n{TECH}");
        expect_error(
            "semantic_indices_out_of_range",
            file,
            &source,
            ("SD0029", 2, col, wrong),
        );
    }
}

/// fxc reads a semantic index into 32 bits, wrapping (`TEXCOORD4294967297` is `TEXCOORD1`,
/// `COLOR4294967296` is `COLOR0`: the same D3D9 bytecode, checked with the fxc oracle), and so
/// does DXC; the guard refused them once as misreads. Now they compile, and the varying, the
/// vertex attribute and the render target are the wrapped ones, as MojoShader names them from
/// fxc's bytecode.
#[test]
fn huge_indices_wrap_as_fxc_reads_them() {
    let test = "huge_indices_wrap_as_fxc_reads_them";
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(test, "DXC is not available (run `cargo xtask setup`)");
        return;
    }
    let source = "\
struct V { float4 p : POSITION0; float2 uv : TEXCOORD4294967297; };
V VS(float4 p : POSITION0, float2 uv : TEXCOORD4294967296) { V o; o.p = p; o.uv = uv; return o; }
float4 PS(float2 uv : TEXCOORD1) : COLOR4294967296 { return float4(uv, 0, 1); }
technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }
";
    let compiled = compile_source(&dir().join("wrapped.fx"), source, &Options::default())
        .unwrap_or_else(|e| panic!("{test}: {}", e.render_mgfxc()));
    let glsl: Vec<String> = compiled
        .effect
        .shaders
        .iter()
        .map(|s| String::from_utf8_lossy(&s.code).into_owned())
        .collect();
    assert!(
        glsl.iter().all(|g| g.contains("varying vec4 vTexCoord1;")),
        "{glsl:#?}"
    );
    let vertex = compiled
        .effect
        .shaders
        .iter()
        .find(|s| !s.attributes.is_empty())
        .expect("the vertex shader");
    let uv = vertex
        .attributes
        .iter()
        .find(|a| a.usage == shadowdusk::mgfx::VertexElementUsage::TextureCoordinate)
        .expect("a texture-coordinate attribute");
    assert_eq!(uv.index, 0, "{:?}", vertex.attributes);
    assert!(
        glsl.iter().any(|g| g.contains("ps_oC0 gl_FragColor")),
        "{glsl:#?}"
    );
}
