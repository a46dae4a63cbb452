//! Every vertex-input and varying semantic fxc accepts, for each vertex profile and pixel
//! profile pair, compiles for wgpu: the WGSL validates with every naga flag, each shader
//! numbers what it declares 0, 1, 2, … in the canonical order (vertex inputs by D3D9 usage
//! order, varyings COLOR, TEXCOORD, then D3D9 usage order), a pixel shader reading what its
//! vertex shader writes takes the same numbers, and each pixel input's recorded offset points at
//! its location number in the text. On a device, the only refusals are a pixel input no vertex
//! shader writes and the device's own limits, each a `WgpuError` naming the semantic.
//!
//! The tables were obtained from the fxc oracle (`../shared/tools/fxc-oracle`: `fxc FILE main
//! PROFILE`, D3DCompiler 43), one semantic at a time, `float4` each:
//! * vertex inputs: `float4 main(float4 a : <USAGE><n>) : POSITION { return a; }` (SV_Position
//!   output for the shader-model-4 profiles), n = 0..15;
//! * varyings: a vertex shader writing `out float4 o : <USAGE><n>` next to `POSITION0`, and a
//!   pixel shader reading `float4 a : <USAGE><n>`, kept where both compile.
//!
//! Each row is (profile, usage, mask of the accepted indices, bit n = index n).

use shadowdusk::wgpu;
use shadowdusk_compiler::pipeline::Options;
use shadowdusk_compiler::wgsl::{self, WgpuShader};

/// Vertex inputs fxc accepts. It refuses TESSFACTOR on every vertex profile and POSITIONT0, and
/// takes any name on vs_4_0 and later. Left out: POSITIONT1–15, which fxc takes but MonoGame's
/// `VertexElementUsage` cannot name, so the OpenGL path refuses them first (SD0213).
const VERTEX_INPUTS: &[(&str, &str, u16)] = &[
    ("vs_1_1", "POSITION", 0xffff),
    ("vs_1_1", "BLENDWEIGHT", 0xffff),
    ("vs_1_1", "BLENDINDICES", 0xffff),
    ("vs_1_1", "NORMAL", 0xffff),
    ("vs_1_1", "PSIZE", 0xffff),
    ("vs_1_1", "TEXCOORD", 0xffff),
    ("vs_1_1", "TANGENT", 0xffff),
    ("vs_1_1", "BINORMAL", 0xffff),
    ("vs_1_1", "COLOR", 0xffff),
    ("vs_1_1", "FOG", 0xffff),
    ("vs_1_1", "DEPTH", 0xffff),
    ("vs_1_1", "SAMPLE", 0xffff),
    ("vs_2_0", "POSITION", 0xffff),
    ("vs_2_0", "BLENDWEIGHT", 0xffff),
    ("vs_2_0", "BLENDINDICES", 0xffff),
    ("vs_2_0", "NORMAL", 0xffff),
    ("vs_2_0", "PSIZE", 0xffff),
    ("vs_2_0", "TEXCOORD", 0xffff),
    ("vs_2_0", "TANGENT", 0xffff),
    ("vs_2_0", "BINORMAL", 0xffff),
    ("vs_2_0", "COLOR", 0xffff),
    ("vs_2_0", "FOG", 0xffff),
    ("vs_2_0", "DEPTH", 0xffff),
    ("vs_2_0", "SAMPLE", 0xffff),
    ("vs_3_0", "POSITION", 0xffff),
    ("vs_3_0", "BLENDWEIGHT", 0xffff),
    ("vs_3_0", "BLENDINDICES", 0xffff),
    ("vs_3_0", "NORMAL", 0xffff),
    ("vs_3_0", "PSIZE", 0xffff),
    ("vs_3_0", "TEXCOORD", 0xffff),
    ("vs_3_0", "TANGENT", 0xffff),
    ("vs_3_0", "BINORMAL", 0xffff),
    ("vs_3_0", "COLOR", 0xffff),
    ("vs_3_0", "FOG", 0xffff),
    ("vs_3_0", "DEPTH", 0xffff),
    ("vs_3_0", "SAMPLE", 0xffff),
];

/// Shader-model-4 vertex profiles mgfxc takes: fxc accepts every usage above and TESSFACTOR at
/// every index 0–15 there (any name passes; checked with an `SV_Position` output).
const ANY_NAME_PROFILES: &[&str] = &["vs_4_0_level_9_1", "vs_4_0"];
const ANY_NAME_USAGES: &[&str] = &[
    "POSITION",
    "BLENDWEIGHT",
    "BLENDINDICES",
    "NORMAL",
    "PSIZE",
    "TEXCOORD",
    "TANGENT",
    "BINORMAL",
    "TESSFACTOR",
    "COLOR",
    "FOG",
    "DEPTH",
    "SAMPLE",
];

/// Varyings fxc accepts both out of the vertex shader and into the pixel shader: ps_2_0 reads
/// only COLOR0–1 and TEXCOORD0–7 (the `v` and `t` registers); vs_3_0/ps_3_0 take every usage
/// but TESSFACTOR and SAMPLE, POSITION0 being the clip position and PSIZE0 the point size.
/// FOG is compiled as a `float` (the OpenGL path carries it in the one-component
/// `vFogFragCoord`, SD0219 for more lanes). Left out: POSITION1–15, which the lowering takes
/// as the clip position (`SV_Position`) on both sides, as POSITION0, for both targets.
const VARYINGS: &[(&str, &str, &str, u16)] = &[
    ("vs_2_0", "ps_2_0", "COLOR", 0x0003),
    ("vs_2_0", "ps_2_0", "TEXCOORD", 0x00ff),
    ("vs_3_0", "ps_3_0", "BLENDWEIGHT", 0xffff),
    ("vs_3_0", "ps_3_0", "BLENDINDICES", 0xffff),
    ("vs_3_0", "ps_3_0", "NORMAL", 0xffff),
    ("vs_3_0", "ps_3_0", "PSIZE", 0xfffe),
    ("vs_3_0", "ps_3_0", "TEXCOORD", 0xffff),
    ("vs_3_0", "ps_3_0", "TANGENT", 0xffff),
    ("vs_3_0", "ps_3_0", "BINORMAL", 0xffff),
    ("vs_3_0", "ps_3_0", "COLOR", 0xffff),
    ("vs_3_0", "ps_3_0", "FOG", 0xffff),
    ("vs_3_0", "ps_3_0", "DEPTH", 0xffff),
    ("vs_3_0", "ps_3_0", "POSITIONT", 0xfffe),
];

/// The pixel profile compiled beside a vertex profile.
fn pixel_profile(vs: &str) -> &'static str {
    match vs {
        "vs_3_0" => "ps_3_0",
        "vs_4_0" => "ps_4_0",
        "vs_4_0_level_9_1" => "ps_4_0_level_9_1",
        _ => "ps_2_0",
    }
}

fn indices(mask: u16) -> Vec<u32> {
    (0..16).filter(|i| mask & (1 << i) != 0).collect()
}

fn compile(src: &str, name: &str) -> Result<Vec<WgpuShader>, String> {
    let path = std::env::temp_dir().join(format!("wgpu_semantics_{name}.fx"));
    let options = Options {
        wgpu: true,
        ..Options::default()
    };
    let c =
        shadowdusk_compiler::compile_source(&path, src, &options).map_err(|e| e.render(false))?;
    Ok(c.wgpu.map(|w| w.shaders).unwrap_or_default())
}

/// naga's WGSL front end and validator, every flag, as wgpu reads the module.
fn validate(s: &WgpuShader) -> Result<(), String> {
    let module = naga::front::wgsl::parse_str(&s.wgsl).map_err(|e| e.emit_to_string(&s.wgsl))?;
    wgsl::validator()
        .validate(&module)
        .map_err(|e| e.emit_to_string(&s.wgsl))?;
    Ok(())
}

fn dxc_missing() -> bool {
    if shadowdusk_compiler::dxc::available() {
        return false;
    }
    shadowdusk_testkit::skip(
        "wgpu_semantics",
        "DXC is not available (run `cargo xtask setup`)",
    );
    true
}

#[test]
fn every_vertex_input_fxc_accepts_gets_a_location() {
    if dxc_missing() {
        return;
    }
    let mut problems = Vec::new();
    let any_name = ANY_NAME_PROFILES
        .iter()
        .flat_map(|p| ANY_NAME_USAGES.iter().map(move |u| (*p, *u, 0xffff)));
    for (profile, usage, mask) in VERTEX_INPUTS.iter().copied().chain(any_name) {
        let idx = indices(mask);
        let params: Vec<String> = idx
            .iter()
            .map(|i| format!("float4 a{i} : {usage}{i}"))
            .collect();
        let sum: Vec<String> = idx.iter().map(|i| format!("a{i}")).collect();
        let ps = pixel_profile(profile);
        let src = format!(
            "float4 VS({}) : POSITION0 {{ return {}; }}\n\
             float4 PS() : COLOR0 {{ return 1; }}\n\
             technique T {{ pass P {{ VertexShader = compile {profile} VS(); \
             PixelShader = compile {ps} PS(); }} }}\n",
            params.join(", "),
            sum.join(" + ")
        );
        let shaders = match compile(&src, &format!("in_{profile}_{usage}")) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("{profile} {usage}: {e}"));
                continue;
            }
        };
        let Some(vs) = shaders.iter().find(|s| s.stage == "vertex") else {
            problems.push(format!("{profile} {usage}: no vertex shader"));
            continue;
        };
        if let Err(e) = validate(vs) {
            problems.push(format!("{profile} {usage}: {e}"));
        }
        let got: Vec<(String, u32, u32)> = vs
            .vertex_inputs
            .iter()
            .map(|v| (v.usage.clone(), v.index, v.location))
            .collect();
        let want: Vec<(String, u32, u32)> = (0u32..)
            .zip(&idx)
            .map(|(l, &i)| (usage.to_string(), i, l))
            .collect();
        if got != want {
            problems.push(format!(
                "{profile} {usage}: inputs {got:?}, expected {want:?}"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_varying_fxc_accepts_links_by_semantic() {
    if dxc_missing() {
        return;
    }
    let mut problems = Vec::new();
    for &(vs_profile, ps_profile, usage, mask) in VARYINGS {
        // Eight at a time: vs_3_0 has twelve output registers, ps_3_0 ten input registers.
        for group in indices(mask).chunks(8) {
            let (ty, lane) = if usage == "FOG" {
                ("float", ".x")
            } else {
                ("float4", "")
            };
            let members: String = group
                .iter()
                .map(|i| format!("    {ty} V{i} : {usage}{i};\n"))
                .collect();
            let writes: String = group
                .iter()
                .map(|i| format!(" o.V{i} = p{lane} * {};", i + 1))
                .collect();
            let reads: Vec<String> = group
                .iter()
                .map(|i| format!("{ty} v{i} : {usage}{i}"))
                .collect();
            let sum: Vec<String> = group.iter().map(|i| format!("v{i}")).collect();
            let src = format!(
                "struct VsOut {{\n    float4 Position : POSITION0;\n{members}}};\n\
                 VsOut VS(float4 p : POSITION0) {{ VsOut o; o.Position = p;{writes} return o; }}\n\
                 float4 PS({}) : COLOR0 {{ return {}; }}\n\
                 technique T {{ pass P {{ VertexShader = compile {vs_profile} VS(); \
                 PixelShader = compile {ps_profile} PS(); }} }}\n",
                reads.join(", "),
                sum.join(" + ")
            );
            let what = format!("{vs_profile}/{ps_profile} {usage}{group:?}");
            let shaders = match compile(&src, &format!("var_{vs_profile}_{usage}_{}", group[0])) {
                Ok(s) => s,
                Err(e) => {
                    problems.push(format!("{what}: {e}"));
                    continue;
                }
            };
            let (Some(vs), Some(ps)) = (
                shaders.iter().find(|s| s.stage == "vertex"),
                shaders.iter().find(|s| s.stage == "pixel"),
            ) else {
                problems.push(format!("{what}: a stage is missing"));
                continue;
            };
            for s in [vs, ps] {
                if let Err(e) = validate(s) {
                    problems.push(format!("{what} ({}): {e}", s.stage));
                }
            }
            let want: Vec<(String, u32)> = (0u32..)
                .zip(group)
                .map(|(l, i)| (format!("{usage}{i}"), l))
                .collect();
            for s in [vs, ps] {
                let got: Vec<(String, u32)> = s
                    .varyings
                    .iter()
                    .map(|v| (v.semantic.clone(), v.location))
                    .collect();
                if got != want {
                    problems.push(format!(
                        "{what} ({}): varyings {got:?}, expected {want:?}",
                        s.stage
                    ));
                }
            }
            for v in &ps.varyings {
                let at = v.location_at.map(|a| a as usize);
                let text = at.and_then(|a| ps.wgsl.get(a..));
                let digits: String = text
                    .unwrap_or_default()
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                if digits != v.location.to_string() {
                    problems.push(format!(
                        "{what}: {} recorded at {at:?}, where the text has {digits:?}",
                        v.semantic
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Draws pass 0 of `src` on wgpu once, with a vertex buffer holding every element the vertex
/// shader reads (SpriteBatch's quad for a pixel-only pass): the runtime's answer.
fn draw_once(src: &str, name: &'static str) -> Option<Result<(), String>> {
    use shadowdusk::wgpu_runtime::{
        DynWgpuEffect, Sprite, SpriteBatch, VertexElement, VertexElementFormat, VertexLayout,
        WgpuRenderTarget,
    };
    let w = shadowdusk_tests::parity::wgpu_or_skip("wgpu_semantics")?;
    let shaders = compile(src, name).unwrap_or_else(|e| panic!("{e}"));
    assert!(!shaders.is_empty());
    let path = std::env::temp_dir().join(format!("wgpu_semantics_{name}.fx"));
    let options = Options {
        wgpu: true,
        ..Options::default()
    };
    let c = shadowdusk_compiler::compile_source(&path, src, &options)
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let data = c.wgpu.as_ref().unwrap();
    let device = w.device();
    let mut fx = DynWgpuEffect::from_output(device, name, data, &c.bytes).unwrap();
    let target = WgpuRenderTarget::new(device, 8, 8, false).unwrap();
    let vs = data.shaders.iter().find(|s| !s.vertex_inputs.is_empty());
    let elements: Vec<VertexElement> = vs
        .map(|s| s.vertex_inputs.as_slice())
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(k, i)| {
            let usage =
                shadowdusk::mgfx::VertexElementUsage::from_d3d9(&i.usage).expect("a D3D9 usage");
            VertexElement::new(16 * k as u32, VertexElementFormat::Vector4, usage, i.index)
        })
        .collect();
    let layout = VertexLayout {
        stride: 16 * elements.len().max(1) as u32,
        elements: Box::leak(elements.into_boxed_slice()),
    };
    let vb = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 3 * u64::from(layout.stride),
        usage: wgpu::BufferUsages::VERTEX,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let mut batch = SpriteBatch::new(device);
    let result = {
        let mut rp = shadowdusk_tests::parity::begin_pass(&target, &mut encoder, [0; 4], 0);
        let mut applied = fx.apply(0, 0, &target.target()).map_err(|e| e.to_string());
        match &mut applied {
            Err(e) => Err(e.clone()),
            Ok(applied) if vs.is_some() => applied
                .draw(&mut rp, &layout, vb.slice(..), 0..3)
                .map_err(|e| e.to_string()),
            Ok(applied) => batch
                .draw(&mut rp, applied, &[Sprite::new(0.0, 0.0, 8.0, 8.0)])
                .map_err(|e| e.to_string()),
        }
    };
    Some(result)
}

#[test]
fn a_pixel_input_no_vertex_shader_writes_is_an_error_naming_it() {
    if dxc_missing() {
        return;
    }
    // SpriteBatch's vertex shader writes COLOR0 and TEXCOORD0 only.
    let src = "float4 PS(float4 c : COLOR0, float2 uv : TEXCOORD1) : COLOR0 { return float4(uv, 0, 1) * c; }\n\
               technique T { pass P { PixelShader = compile ps_2_0 PS(); } }\n";
    let Some(result) = draw_once(src, "missing_varying") else {
        return;
    };
    let e = result.expect_err("TEXCOORD1 is written by no vertex shader");
    assert!(
        e.contains("TEXCOORD1") && e.contains("does not write"),
        "{e}"
    );
}

#[test]
fn past_the_devices_limit_is_an_error_naming_the_semantic_and_the_limit() {
    if dxc_missing() {
        return;
    }
    // Shader model 5 takes 32 inputs and outputs; wgpu's default limits are 16 of each.
    let n = 17;
    let inputs: Vec<String> = (0..n)
        .map(|i| format!("float4 a{i} : TEXCOORD{i}"))
        .collect();
    let sum: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
    let src = format!(
        "float4 VS(float4 p : POSITION0, {}) : SV_Position {{ return p + {}; }}\n\
         float4 PS() : SV_Target0 {{ return 1; }}\n\
         technique T {{ pass P {{ VertexShader = compile vs_5_0 VS(); \
         PixelShader = compile ps_5_0 PS(); }} }}\n",
        inputs.join(", "),
        sum.join(" + ")
    );
    let Some(result) = draw_once(&src, "many_inputs") else {
        return;
    };
    let e = result.expect_err("18 vertex inputs on a device allowing 16");
    assert!(
        e.contains("max_vertex_attributes")
            && e.contains("TextureCoordinate15")
            && e.contains("18"),
        "{e}"
    );
}
