//! ARCHITECTURE's invariant "no text known to crash DXC reaches it", enforced: every input of
//! the guard's regression set, `tests/dxc_crashes/*.fx` (each a text that crashed DXC 1.8,
//! found by fuzzing or by probing around a fuzz find), is refused by `pipeline::dxc_guard`
//! before DXC: its first error has the guard's code the case names in a comment
//! (`The guard: SD0028`), and none is SD0104 (DXC crashed).
//!
//! `cargo xtask fuzz` adds a file here when the pipeline target makes DXC crash (the fuzz run
//! fails and names it); this test then fails until the guard refuses it. Commit the case with
//! the fix, minimized by hand, with a first comment saying where it came from.
//!
//! Each case is compiled in memory as if it were in `tests/corpus/`, where the fuzz target's
//! input is named, so its `#include "include/…"` lines resolve as they did.
//!
//! So that the set stays honest, each case is also lowered and handed to DXC directly, past the
//! guard: with the pinned DXC it must crash (`DxcError::Crashed`); a case that no longer does is
//! reported, so it can be dropped or replaced.
//!
//! And so that the guard refuses no more than it must, every effect type (as DXC spells it, in
//! another letter case, misspelt) in every place code can name a type is tried both ways with
//! the pinned DXC: what crashes it past the guard must be refused by the guard, and what it
//! compiles must not be.

use std::path::{Path, PathBuf};

use shadowdusk_compiler::diag::Code;
use shadowdusk_compiler::dxc::{self, DxcError};
use shadowdusk_compiler::effect::parse;
use shadowdusk_compiler::lower::{lower, Stage};
use shadowdusk_compiler::pipeline::{compile_source, Options};
use shadowdusk_compiler::preprocess::{preprocess, Options as PreOptions};
use shadowdusk_compiler::source::SourceFiles;
use shadowdusk_tests::corpus::corpus_dir;

/// The codes `pipeline::dxc_guard` refuses with: an effect type where DXC crashes on it, a
/// render target above 7, an undeclared name DXC would correct to an effect type or a type
/// where a value belongs (FX0001), `return;` in a function that returns a value (SD0111).
const GUARD_CODES: [Code; 4] = [Code::SD0028, Code::SD0029, Code::FX0001, Code::SD0111];

fn regression_set() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("dxc_crashes");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fx"))
        .collect();
    files.sort();
    files
}

/// Where a case is compiled from: beside the corpus, as the fuzz target's input.
fn compiled_as(case: &Path) -> PathBuf {
    corpus_dir().join(case.file_name().expect("a file name"))
}

fn dxc_missing(test: &str) -> bool {
    if dxc::available() {
        return false;
    }
    shadowdusk_tests::skip(test, "DXC is not available (run `cargo xtask setup`)");
    true
}

/// The code a case's comment says the guard refuses it with (`The guard: SD0028`).
fn expected_code(text: &str) -> Option<&str> {
    let at = text.find("The guard: ")? + "The guard: ".len();
    let code = &text[at..];
    let end = code
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(code.len());
    Some(&code[..end])
}

/// What the pipeline did with `case`, or `None` when it was refused as the invariant says.
fn not_guarded(case: &Path) -> Option<String> {
    let text = std::fs::read_to_string(case).expect("read case");
    let Some(want) = expected_code(&text) else {
        return Some(
            "no `The guard: CODE` comment: a new case (from `cargo xtask fuzz`?); make \
             pipeline::dxc_guard refuse it, minimize it, and say where it came from and the code"
                .into(),
        );
    };
    if !GUARD_CODES.iter().any(|c| c.as_str() == want) {
        return Some(format!("`The guard: {want}` names no code of the guard"));
    }
    let at = compiled_as(case);
    let run = std::panic::AssertUnwindSafe(|| compile_source(&at, &text, &Options::default()));
    let err = match std::panic::catch_unwind(run) {
        Err(_) => return Some("the compiler panicked".into()),
        Ok(Ok(_)) => return Some("compiled: the guard let it through to DXC".into()),
        Ok(Err(e)) => e,
    };
    let errors: Vec<_> = err.diagnostics.iter().filter(|d| d.is_error()).collect();
    if errors.iter().any(|d| d.code == Code::SD0104) {
        return Some(format!(
            "reached DXC and crashed it (SD0104):\n{}",
            err.render_mgfxc()
        ));
    }
    match errors.first() {
        Some(d) if d.code.as_str() == want => None,
        _ => Some(format!(
            "refused, but not with the guard's {want}:\n{}",
            err.render_mgfxc()
        )),
    }
}

#[test]
fn every_known_dxc_crash_is_refused_by_the_guard_before_dxc() {
    let test = "every_known_dxc_crash_is_refused_by_the_guard_before_dxc";
    if dxc_missing(test) {
        return;
    }
    let cases = regression_set();
    assert!(cases.len() >= 6, "the regression set lost cases: {cases:?}");
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|c| not_guarded(c).map(|why| format!("{}: {why}", c.display())))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} known DXC crashes are not refused by pipeline::dxc_guard:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

/// Every shader of `case`, lowered (before the guard): `(stage, entry, text)`.
fn lowered_shaders(case: &Path) -> Result<Vec<(Stage, String, String)>, String> {
    let text = std::fs::read_to_string(case).expect("read case");
    lowered(&compiled_as(case), &text)
}

/// Every shader of the effect `text` (compiled as `path`), lowered (before the guard).
fn lowered(path: &Path, text: &str) -> Result<Vec<(Stage, String, String)>, String> {
    let mut files = SourceFiles::new();
    let options = PreOptions::default();
    let expanded = preprocess(path, Some(text), &options, &mut files)
        .map_err(|d| format!("preprocess: {:?}", d.0.first().map(|d| d.code.as_str())))?;
    let parsed = parse(&expanded)
        .map_err(|d| format!("effect parse: {:?}", d.0.first().map(|d| d.code.as_str())))?;
    let mut out = Vec::new();
    for pass in parsed.ast.techniques.iter().flat_map(|t| &t.passes) {
        let shaders = [
            (Stage::Vertex, &pass.vertex_shader),
            (Stage::Pixel, &pass.pixel_shader),
        ];
        for (stage, shader) in shaders {
            let Some(s) = shader else { continue };
            let l = lower(&expanded, &parsed, s, stage)
                .map_err(|d| format!("lower: {:?}", d.0.first().map(|d| d.code.as_str())))?;
            out.push((stage, l.entry, l.text));
        }
    }
    Ok(out)
}

/// The set holds real crashes: past the guard, the pinned DXC crashes on each case.
#[test]
fn every_case_of_the_set_crashes_the_pinned_dxc_past_the_guard() {
    let test = "every_case_of_the_set_crashes_the_pinned_dxc_past_the_guard";
    let sha = match dxc::setup() {
        Ok((_, sha)) => sha,
        Err(e) => {
            shadowdusk_tests::skip(test, &format!("DXC is not available: {e}"));
            return;
        }
    };
    if sha.as_deref() != Some(dxc::pins::WHEEL_LIBRARY_SHA256) {
        let why = format!("the loaded DXC ({sha:?}) is not the pinned build these cases crash");
        shadowdusk_tests::skip(test, &why);
        return;
    }
    let mut wrong = Vec::new();
    for case in regression_set() {
        let crashed = lowered_shaders(&case).map(|shaders| {
            shaders.iter().any(|(stage, entry, text)| {
                matches!(dxc::compile(text, entry, *stage), Err(DxcError::Crashed(_)))
            })
        });
        match crashed {
            Ok(true) => {}
            Ok(false) => wrong.push(format!("{}: DXC no longer crashes on it", case.display())),
            Err(e) => wrong.push(format!("{}: not lowered ({e})", case.display())),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The places code can name a type: (name, text at file scope, the pixel shader), `@` standing
/// for the type.
const PLACES: &[(&str, &str, &str)] = &[
    (
        "entry parameter",
        "",
        "float4 PS(float2 uv : TEXCOORD0, @ p) : COLOR0 { return tex2D(S, uv); }",
    ),
    (
        "uniform entry parameter",
        "",
        "float4 PS(float2 uv : TEXCOORD0, uniform @ p) : COLOR0 { return tex2D(S, uv); }",
    ),
    (
        "parameter of a reached helper",
        "float4 F(@ p, float2 uv) { return tex2D(S, uv); }",
        "@ g;\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 { @ q; return F(q, uv) + F(g, uv); }",
    ),
    (
        "parameter of an unreached helper",
        "float4 F(@ p, float2 uv) { return tex2D(S, uv); }",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }",
    ),
    (
        "struct member",
        "struct Q { float a; @ b; };",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { Q q; q.a = uv.x; return tex2D(S, uv) * q.a; }",
    ),
    (
        "struct array member",
        "struct Q { float a; @ b[2]; };",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }",
    ),
    (
        "cast",
        "",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { float q = (@)uv.x; return tex2D(S, uv * q); }",
    ),
    (
        "global array",
        "@ g[2];",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }",
    ),
    (
        "local array",
        "",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { @ q[2]; return tex2D(S, uv); }",
    ),
    (
        "call",
        "",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { float q = @(1); return tex2D(S, uv * q); }",
    ),
    (
        "local",
        "",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { @ q; @ r, t; return tex2D(S, uv); }",
    ),
    (
        "global",
        "@ g;",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }",
    ),
    (
        "static global",
        "static @ g;",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }",
    ),
    (
        "typedef",
        "typedef @ X;",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }",
    ),
    (
        "cbuffer member",
        "cbuffer C { @ x; };",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }",
    ),
    (
        "return type",
        "@ F() { @ x; return x; }",
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { F(); return tex2D(S, uv); }",
    ),
];

/// Effect types as DXC spells them, in other letter case, and names its spelling correction
/// takes for one.
const TYPE_NAMES: &[&str] = &[
    "texture",
    "Texture",
    "TEXTURE",
    "texture1D",
    "texture2D",
    "texture3D",
    "textureCUBE",
    "VertexShader",
    "vertexshader",
    "PixelShader",
    "pixelshader",
    "Pixelshader",
    "GeometryShader",
    "HullShader",
    "DomainShader",
    "ComputeShader",
    "computeshader",
    "PixelFragment",
    "pixelfragment",
    "VertexFragment",
    "vertexfragment",
    "BlendState",
    "blendstate",
    "Blendstate",
    "BLENDSTATE",
    "DepthStencilState",
    "RasterizerState",
    "rasterizerstate",
    "RenderTargetView",
    "DepthStencilView",
    "StateBlock",
    "Textur2D",
    "Textre",
    "TextureCub",
    "VertexShder",
    "VertexShaderOutpt",
    "Blendstat",
];

/// What the pinned DXC does with text that passed lowering (the guard skipped).
#[derive(Debug, PartialEq, Eq)]
enum Dxc {
    Compiles,
    Refuses,
    Crashes,
}

#[test]
fn the_guard_refuses_exactly_what_crashes_the_pinned_dxc() {
    let test = "the_guard_refuses_exactly_what_crashes_the_pinned_dxc";
    let sha = match dxc::setup() {
        Ok((_, sha)) => sha,
        Err(e) => {
            shadowdusk_tests::skip(test, &format!("DXC is not available: {e}"));
            return;
        }
    };
    if sha.as_deref() != Some(dxc::pins::WHEEL_LIBRARY_SHA256) {
        let why = format!("the loaded DXC ({sha:?}) is not the pinned build these cases crash");
        shadowdusk_tests::skip(test, &why);
        return;
    }
    const HEAD: &str = "Texture2D Sprite;\nsampler2D S = sampler_state { Texture = <Sprite>; };\n";
    const TECH: &str = "technique T { pass P { PixelShader = compile ps_2_0 PS(); } }\n";
    let (mut wrong, mut counts) = (Vec::new(), [0usize; 4]);
    for name in TYPE_NAMES {
        for (place, global, function) in PLACES {
            let text = format!(
                "{HEAD}{}\n{}\n{TECH}",
                global.replace('@', name),
                function.replace('@', name)
            );
            let path = corpus_dir().join(format!("guard_{place}_{name}.fx").replace(' ', "_"));
            // What the effect parser or the lowering refuses never reaches the guard.
            let Ok(shaders) = lowered(&path, &text) else {
                counts[3] += 1;
                continue;
            };
            let dxc = shaders
                .iter()
                .map(
                    |(stage, entry, lowered)| match dxc::compile(lowered, entry, *stage) {
                        Ok(_) => Dxc::Compiles,
                        Err(DxcError::Crashed(_)) => Dxc::Crashes,
                        Err(_) => Dxc::Refuses,
                    },
                )
                .max_by_key(|d| match d {
                    Dxc::Compiles => 0,
                    Dxc::Refuses => 1,
                    Dxc::Crashes => 2,
                })
                .unwrap_or(Dxc::Compiles);
            let first_error = match compile_source(&path, &text, &Options::default()) {
                Ok(_) => None,
                Err(e) => e.diagnostics.iter().find(|d| d.is_error()).map(|d| d.code),
            };
            let guarded = first_error.is_some_and(|c| GUARD_CODES.contains(&c));
            let case = format!("{name} as {place}");
            match (&dxc, guarded) {
                (Dxc::Crashes, false) => wrong.push(format!(
                    "{case}: crashes DXC, not refused by the guard (first error: {first_error:?})"
                )),
                (Dxc::Compiles, true) => wrong.push(format!(
                    "{case}: DXC compiles it, the guard refuses it ({first_error:?})"
                )),
                _ => {}
            }
            counts[match dxc {
                Dxc::Compiles => 0,
                Dxc::Refuses => 1,
                Dxc::Crashes => 2,
            }] += 1;
        }
    }
    // The matrix must keep meaning something: each outcome occurs.
    assert!(
        counts.iter().take(3).all(|&n| n > 10),
        "compiles, refuses, crashes, not lowered: {counts:?}"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
