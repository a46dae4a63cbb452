//! Pixels of the wgpu target against the GL path, under Mesa with no GPU: for every pixel-only
//! effect of the corpus that samples only 2D textures, and for an effect built to exercise every
//! register shape (scalars, float arrays, a `column_major` and a `row_major` matrix, `float4x3`
//! registers, a `float2x2`), each pass is drawn twice over the whole target with the same
//! parameter values and texture: once by the GL runtime (`DynEffect`, the MGFX GLSL), once
//! from our WGSL, which naga's WGSL front end reads and naga's GLSL back end writes for this
//! context, fed the GL record's register image (`packing::cbuffer_image`) as its uniform buffer.
//! The two images must agree within 2/255 per channel; passes that leave the target clear are
//! not counted, and at least 40 that draw must be compared.

use std::path::PathBuf;

use glow::HasContext;
use image::RgbaImage;
use shadowdusk::gl::{DynEffect, GlTexture};
use shadowdusk::mgfx::{packing, ParameterClass, ParameterType};
use shadowdusk_compiler::pipeline::{compile_file, compile_source, Compiled, Options};
use shadowdusk_tests::files::workspace_root;
use shadowdusk_tests::{draw_sprite, texture_2d, Filter, Headless, Orientation, Sprite};

const SIZE: u32 = 32;
const TOLERANCE: u8 = 2;

/// Every register shape the wgpu target rebuilds, read by one pixel shader.
const SHAPES: &str = r#"
float4 Tint;
float Weights[3];
float4x4 Mix;
row_major float3x3 Rot;
float4x3 Bones[2];
float2x2 Small;
sampler2D Tex : register(s0);
float4 PS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 t = tex2D(Tex, uv);
    int k = (int)(uv.x * 2.99);
    float3 r = mul(t.rgb, Rot) * Weights[k] + Weights[2] * float3(uv, 0.5);
    float4 m = mul(float4(r, 1), Mix);
    float3 b = mul(float4(uv, 0.25, 1), Bones[k % 2]);
    float2 s = mul(uv, Small);
    return saturate(m * Tint * color * 0.5 + float4(b * 0.25, 0) + float4(s, 0, 1) * 0.25);
}
technique T { pass P { PixelShader = compile ps_3_0 PS(); } }
"#;

/// The wgpu side's vertex shader: SpriteBatch's quad over the whole target, white, `uv` from
/// (0, 0) at the top left, with COLOR0 and TEXCOORD0 where SpriteBatch's vertex shader writes
/// them ([`QUAD_VARYINGS`]); the pixel shader is linked to it by semantic ([`linked`]).
const QUAD: &str = r#"
struct Out {
    @builtin(position) pos: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) uv: vec4<f32>,
}
@vertex
fn main(@builtin(vertex_index) i: u32) -> Out {
    var p = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, 1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, -1.0),
        vec2<f32>(1.0, 1.0), vec2<f32>(1.0, -1.0), vec2<f32>(-1.0, -1.0));
    let q = p[i];
    var o: Out;
    o.pos = vec4<f32>(q, 0.0, 1.0);
    o.color = vec4<f32>(1.0);
    o.uv = vec4<f32>(q.x * 0.5 + 0.5, 0.5 - q.y * 0.5, 0.0, 1.0);
    return o;
}
"#;

/// The quad's varyings and their locations.
const QUAD_VARYINGS: [(&str, u32); 2] = [("COLOR0", 0), ("TEXCOORD0", 1)];

/// The pixel shader's WGSL with each input at the quad's location for its semantic, written at
/// the offsets the compiler recorded, as the wgpu runtime links a pass.
fn linked(w: &shadowdusk_compiler::wgsl::WgpuShader) -> Result<String, String> {
    let mut moves = Vec::new();
    for v in &w.varyings {
        let (_, to) = QUAD_VARYINGS
            .iter()
            .find(|(s, _)| *s == v.semantic)
            .ok_or(format!("the quad does not write {}", v.semantic))?;
        let at = v.location_at.ok_or("a pixel input without its offset")? as usize;
        let digits = w.wgsl[at..].bytes().take_while(u8::is_ascii_digit).count();
        moves.push((at, digits, *to));
    }
    moves.sort_unstable();
    let mut text = String::new();
    let mut from = 0;
    for (at, digits, to) in moves {
        text.push_str(&w.wgsl[from..at]);
        text.push_str(&to.to_string());
        from = at + digits;
    }
    text.push_str(&w.wgsl[from..]);
    Ok(text)
}

/// naga: WGSL → GLSL 3.30 for `stage`, and what it named the uniform block and samplers.
fn glsl(
    wgsl: &str,
    stage: naga::ShaderStage,
    entry: &str,
) -> Result<(String, naga::back::glsl::ReflectionInfo), String> {
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| e.emit_to_string(wgsl))?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    )
    .validate(&module)
    .map_err(|e| e.emit_to_string(wgsl))?;
    let options = naga::back::glsl::Options {
        version: naga::back::glsl::Version::Desktop(330),
        // wgpu's clip space as it is: no flip, as the D3D-convention quad and shaders expect.
        writer_flags: naga::back::glsl::WriterFlags::empty(),
        ..Default::default()
    };
    let pipeline = naga::back::glsl::PipelineOptions {
        shader_stage: stage,
        entry_point: entry.to_string(),
        multiview: None,
    };
    let mut out = String::new();
    let mut w = naga::back::glsl::Writer::new(
        &mut out,
        &module,
        &info,
        &options,
        &pipeline,
        naga::proc::BoundsCheckPolicies::default(),
    )
    .map_err(|e| e.to_string())?;
    let reflection = w.write().map_err(|e| e.to_string())?;
    Ok((out, reflection))
}

fn program(gl: &glow::Context, vs: &str, fs: &str) -> Result<glow::Program, String> {
    // SAFETY: plain GL calls on the current context; objects made here are deleted on failure.
    unsafe {
        let p = gl.create_program()?;
        for (kind, src) in [(glow::VERTEX_SHADER, vs), (glow::FRAGMENT_SHADER, fs)] {
            let s = gl.create_shader(kind)?;
            gl.shader_source(s, src);
            gl.compile_shader(s);
            if !gl.get_shader_compile_status(s) {
                let log = gl.get_shader_info_log(s);
                gl.delete_shader(s);
                gl.delete_program(p);
                return Err(format!("{log}\n{src}"));
            }
            gl.attach_shader(p, s);
            gl.delete_shader(s);
        }
        gl.link_program(p);
        if !gl.get_program_link_status(p) {
            let log = gl.get_program_info_log(p);
            gl.delete_program(p);
            return Err(log);
        }
        Ok(p)
    }
}

/// Sets every float parameter to distinct values and every texture to `tex`.
fn set_values(fx: &mut DynEffect, tex: &GlTexture) -> Result<(), String> {
    let params = fx.effect().parameters.clone();
    for (i, p) in params.iter().enumerate() {
        match (p.class, p.ty) {
            (
                ParameterClass::Scalar | ParameterClass::Vector | ParameterClass::Matrix,
                ParameterType::Single,
            ) => {
                let n = p.elements.len().max(1) * usize::from(p.rows) * usize::from(p.columns);
                let values: Vec<f32> = (0..n)
                    .map(|k| 0.15 + 0.7 * (((i * 7 + k * 3) % 11) as f32 / 10.0))
                    .collect();
                fx.set_values(i, &values)
                    .map_err(|e| format!("{}: {e}", p.name))?;
            }
            (ParameterClass::Object, ParameterType::Texture | ParameterType::Texture2D) => {
                fx.set_texture(i, Some(tex))
                    .map_err(|e| format!("{}: {e}", p.name))?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn draw_gl(
    h: &Headless,
    fx: &mut DynEffect,
    technique: usize,
    pass: usize,
) -> Result<RgbaImage, String> {
    h.clear([0, 0, 0, 0]);
    let p = fx.pass_at(technique, pass).map_err(|e| e.to_string())?;
    let applied = fx
        .apply(p, &h.target(Orientation::Backbuffer))
        .map_err(|e| e.to_string())?;
    draw_sprite(
        h.ctx(),
        &applied,
        &Sprite {
            x: 0.0,
            y: 0.0,
            width: SIZE as f32,
            height: SIZE as f32,
            color: [255; 4],
            uv: [[0.0, 0.0], [1.0, 1.0]],
            depth: 0.0,
        },
    )?;
    Ok(h.read_rgba(Orientation::Backbuffer))
}

/// The pass's pixel shader from WGSL, with the same uniforms (the GL record's bytes) and
/// textures (by sampler slot) the GL draw had; the pass's render states as the GL draw left them.
fn draw_wgsl(
    h: &Headless,
    c: &Compiled,
    fx: &DynEffect,
    shader: usize,
) -> Result<RgbaImage, String> {
    let w = &c.wgpu.as_ref().ok_or("no wgpu output")?.shaders[shader];
    let (vs, _) = glsl(QUAD, naga::ShaderStage::Vertex, "main")?;
    let (fs, reflection) = glsl(&linked(w)?, naga::ShaderStage::Fragment, &w.entry)?;
    let gl = h.gl();
    let p = program(gl, &vs, &fs)?;
    let model = fx.effect();
    let mut image = Vec::new();
    for &k in &model.shaders[shader].cbuffers {
        image.extend(
            packing::cbuffer_image(&model.constant_buffers[usize::from(k)], &model.parameters)
                .map_err(|e| format!("{e:?}"))?,
        );
    }
    // SAFETY: plain GL calls on the current context; the buffer is deleted before returning.
    unsafe {
        gl.use_program(Some(p));
        let ubo = gl.create_buffer()?;
        if let Some(block) = reflection.uniforms.values().next() {
            let index = gl
                .get_uniform_block_index(p, block)
                .ok_or(format!("no block {block}"))?;
            gl.uniform_block_binding(p, index, 0);
            gl.bind_buffer(glow::UNIFORM_BUFFER, Some(ubo));
            gl.buffer_data_u8_slice(glow::UNIFORM_BUFFER, &image, glow::STATIC_DRAW);
            gl.bind_buffer_base(glow::UNIFORM_BUFFER, 0, Some(ubo));
        }
        // naga combines each texture with its sampler; the texture's binding names its slot.
        let module = naga::front::wgsl::parse_str(&w.wgsl).map_err(|e| e.to_string())?;
        for (name, mapping) in &reflection.texture_mapping {
            let binding = module.global_variables[mapping.texture]
                .binding
                .as_ref()
                .ok_or("unbound texture")?
                .binding;
            let slot = (binding - 1) / 2;
            let loc = gl.get_uniform_location(p, name);
            gl.uniform_1_i32(loc.as_ref(), slot as i32);
        }
        h.clear([0, 0, 0, 0]);
        gl.draw_arrays(glow::TRIANGLES, 0, 6);
        let out = h.read_rgba(Orientation::Backbuffer);
        gl.bind_buffer_base(glow::UNIFORM_BUFFER, 0, None);
        gl.delete_buffer(ubo);
        gl.use_program(None);
        gl.delete_program(p);
        Ok(out)
    }
}

/// Compares every pixel-only pass of `c`; `None` when it has none that qualify.
fn compare(
    h: &Headless,
    name: &str,
    c: Compiled,
    tex: &GlTexture,
) -> Result<Option<usize>, String> {
    let e = c.effect.clone();
    let only_2d = e.shaders.iter().all(|s| {
        s.samplers
            .iter()
            .all(|x| x.ty == shadowdusk::mgfx::SamplerType::Sampler2D)
    });
    if !only_2d {
        return Ok(None);
    }
    let mut fx = DynEffect::from_effect(h.ctx(), e.clone()).map_err(|err| err.to_string())?;
    set_values(&mut fx, tex)?;
    let mut compared = 0;
    for (ti, t) in e.techniques.iter().enumerate() {
        for (pi, pass) in t.passes.iter().enumerate() {
            if pass.vertex_shader >= 0 || pass.pixel_shader < 0 {
                continue;
            }
            // Drawn here with SpriteBatch's vertex shader, which writes COLOR0 and TEXCOORD0; a
            // pass reading more draws with its technique's vertex shader (`wgpu_parity.rs`).
            let reads = &c.wgpu.as_ref().ok_or("no wgpu output")?.shaders
                [pass.pixel_shader as usize]
                .varyings;
            if reads
                .iter()
                .any(|v| !["COLOR0", "TEXCOORD0"].contains(&v.semantic.as_str()))
            {
                continue;
            }
            let a = draw_gl(h, &mut fx, ti, pi)?;
            let b = draw_wgsl(h, &c, &fx, pass.pixel_shader as usize)?;
            let (max, _, at) = shadowdusk_tests::image_util::difference(&a, &b, TOLERANCE);
            if max > TOLERANCE {
                return Err(format!(
                    "{name} {}/{}: GL against WGSL differs by {max}/255, {at}",
                    t.name, pass.name
                ));
            }
            // A pass whose states or values leave the target clear (a stencil-only pass, alpha 0)
            // tells nothing apart; it is compared but not counted.
            if a.pixels().any(|p| p.0 != [0, 0, 0, 0]) {
                compared += 1;
            }
        }
    }
    Ok((compared > 0).then_some(compared))
}

#[test]
fn wgsl_pixels_match_the_gl_path() {
    const TEST: &str = "wgsl_pixels_match_the_gl_path";
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(TEST, "DXC is not available (run `cargo xtask setup`)");
        return;
    }
    let Some(h) = Headless::or_skip(TEST, SIZE, SIZE) else {
        return;
    };
    let texels: Vec<u8> = (0..16 * 16)
        .flat_map(|i| {
            let (x, y) = ((i % 16) as u8, (i / 16) as u8);
            [x * 16, y * 16, 255 - x * 8, 200]
        })
        .collect();
    let tex = texture_2d(h.ctx(), 16, 16, &texels, Filter::Linear).unwrap();
    let options = Options {
        wgpu: true,
        ..Options::default()
    };
    let mut failures = Vec::new();
    let mut passes = 0;

    let shapes = compile_source(
        &std::env::temp_dir().join("wgpu_shapes.fx"),
        SHAPES,
        &options,
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    match compare(&h, "shapes", shapes, &tex) {
        Ok(Some(n)) => passes += n,
        Ok(None) => failures.push("shapes: nothing compared".to_string()),
        Err(e) => failures.push(e),
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(workspace_root().join("tests/corpus"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fx"))
        .collect();
    files.sort();
    let mut effects = 0;
    for f in files {
        let Ok(c) = compile_file(&f, &options) else {
            continue;
        };
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        match compare(&h, &name, c, &tex) {
            Ok(Some(n)) => {
                passes += n;
                effects += 1;
            }
            Ok(None) => {}
            Err(e) => failures.push(e),
        }
    }
    eprintln!(
        "wgpu pixels: {passes} passes of {effects} corpus effects and the shapes effect compared"
    );
    assert!(
        effects >= 10 && passes >= 40,
        "only {passes} passes of {effects} corpus effects compared"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
