//! Prepare, then draw, on the wgpu runtime: draws of several effects prepared into one
//! `Uniforms` store (each with its own parameters), uploaded with one copy per chunk into the
//! frame's encoder, and recorded with shared access (`&PreparedDraw`) into a render pass and into
//! a render bundle, against the GL runtime drawing the same sprites with the same values; two
//! frames in flight each keeping their own parameters; a draw recorded before its upload, or
//! after a later frame's, refused; pipelines prepared ahead so the first frame builds none.
//!
//! Without a wgpu adapter or headless EGL the tests print a `!!! SKIPPED` line and pass (fail
//! under `SHADOWDUSK_REQUIRE_ALL=1`).

use std::path::Path;

use shadowdusk::gl::{DynEffect, SpriteBatch as GlSpriteBatch};
use shadowdusk::wgpu;
use shadowdusk::wgpu::util::DeviceExt;
use shadowdusk::wgpu_runtime::headless::HeadlessWgpu;
use shadowdusk::wgpu_runtime::{
    BufferLayout, DynWgpuEffect, PreparedDraw, Sprite, Target, Uniforms, VertexLayout, WgpuError,
    WgpuRenderTarget,
};
use shadowdusk_compiler::pipeline::{compile_source, Options};
use shadowdusk_compiler::wgsl::WgpuEffect;
use shadowdusk_tests::parity::{begin_pass, registers, wgpu_or_skip};
use shadowdusk_tests::{Fbo, Headless};

/// Three pixel-only effects, each with parameters of its own shape.
const EFFECTS: [(&str, &str); 3] = [
    (
        "tint.fx",
        "float4 Tint;
         float4 PS(float4 c : COLOR0) : COLOR0 { return Tint * c; }
         technique T { pass P { PixelShader = compile ps_3_0 PS(); } }",
    ),
    (
        "gradient.fx",
        "float4 From; float4 To;
         float4 PS(float4 c : COLOR0, float2 uv : TEXCOORD0) : COLOR0 { return lerp(From, To, uv.x); }
         technique T { pass P { PixelShader = compile ps_3_0 PS(); } }",
    ),
    (
        "shade.fx",
        "float Scale; float3 Ink;
         float4 PS(float4 c : COLOR0, float2 uv : TEXCOORD0) : COLOR0
         { return float4(Ink * (0.25 + uv.y * Scale), 1); }
         technique T { pass P { PixelShader = compile ps_3_0 PS(); } }",
    ),
];

const COLUMNS: u32 = 40;
const ROWS: u32 = 25;
const CELL: u32 = 2;
const DRAWS: u32 = COLUMNS * ROWS;
const SPRITE_BUFFERS: [BufferLayout; 1] = [BufferLayout::per_vertex(
    VertexLayout::POSITION_COLOR_TEXTURE,
)];

/// Effect `i % 3`'s values for draw `i`: (parameter name, values).
fn values(i: u32) -> Vec<(&'static str, Vec<f32>)> {
    let f = |k: u32, m: u32| (i * k % m) as f32 / m as f32;
    match i % 3 {
        0 => vec![("Tint", vec![f(7, 31), f(11, 29), f(13, 23), 1.0])],
        1 => vec![
            ("From", vec![f(3, 17), 0.2, f(5, 19), 1.0]),
            ("To", vec![0.9, f(9, 37), 0.1, 1.0]),
        ],
        _ => vec![("Scale", vec![f(1, 7)]), ("Ink", vec![0.8, f(17, 41), 0.5])],
    }
}

fn sprite(i: u32) -> Sprite {
    let (x, y) = ((i % COLUMNS * CELL) as f32, (i / COLUMNS * CELL) as f32);
    Sprite::new(x, y, CELL as f32, CELL as f32)
}

/// One effect compiled: name, MGFX, wgpu part.
type Compiled = (&'static str, Vec<u8>, WgpuEffect);

/// The three effects compiled once.
fn compile() -> Vec<Compiled> {
    let options = Options {
        wgpu: true,
        ..Options::default()
    };
    EFFECTS
        .iter()
        .map(|(name, source)| {
            let c = compile_source(Path::new(name), source, &options)
                .unwrap_or_else(|e| panic!("{name}: {}", e.render(false)));
            (*name, c.bytes, c.wgpu.expect("wgpu output"))
        })
        .collect()
}

/// Sets draw `i`'s values on GL effect `gl`, and returns its register records.
fn set_values(gl: &mut DynEffect, i: u32) -> Vec<Vec<[f32; 4]>> {
    for (name, v) in values(i) {
        let p = gl.parameter(name).expect("a parameter");
        gl.set_values(p, &v).expect("values");
    }
    registers(gl).expect("registers")
}

/// The GL runtime's picture of the 1,000 draws.
fn draw_gl(h: &Headless, gl: &mut [DynEffect]) -> Vec<u8> {
    let fbo = Fbo::new(h.ctx(), COLUMNS * CELL, ROWS * CELL).expect("fbo");
    fbo.bind();
    h.clear_with([0, 0, 0, 0], 0);
    let target = fbo.target();
    let mut batch = GlSpriteBatch::new(h.ctx()).expect("sprite batch");
    for i in 0..DRAWS {
        let fx = &mut gl[(i % 3) as usize];
        set_values(fx, i);
        let pass = fx.passes(0).next().expect("a pass");
        let applied = fx.apply(pass, &target).expect("GL apply");
        batch.draw(&applied, &[sprite(i)]).expect("GL draw");
    }
    let image = fbo.read_rgba();
    Fbo::unbind(h.ctx(), h.width, h.height);
    image.into_raw()
}

/// The sprites' vertices and indices (0,1,2 1,3,2 per sprite), as SpriteBatch lays them out.
fn sprite_buffers(device: &wgpu::Device) -> (wgpu::Buffer, wgpu::Buffer) {
    let vertices: Vec<u8> = (0..DRAWS)
        .flat_map(|i| sprite(i).vertices())
        .flatten()
        .collect();
    let indices: Vec<u8> = (0..DRAWS as u16)
        .flat_map(|i| [0, 1, 2, 1, 3, 2].map(|k| 4 * i + k))
        .flat_map(u16::to_le_bytes)
        .collect();
    let buffer = |contents: &[u8], usage| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("prepared sprites"),
            contents,
            usage,
        })
    };
    (
        buffer(&vertices, wgpu::BufferUsages::VERTEX),
        buffer(&indices, wgpu::BufferUsages::INDEX),
    )
}

/// Prepares the 1,000 draws into `uniforms` (values from the GL effects' registers).
fn prepare_all(
    wgpu_fx: &mut [DynWgpuEffect],
    gl: &mut [DynEffect],
    uniforms: &mut Uniforms,
    target: &Target,
) -> Vec<PreparedDraw> {
    (0..DRAWS)
        .map(|i| {
            let k = (i % 3) as usize;
            for (record, regs) in set_values(&mut gl[k], i).iter().enumerate() {
                wgpu_fx[k].set_registers(record, regs);
            }
            wgpu_fx[k]
                .prepare(uniforms, (0, 0), target, &SPRITE_BUFFERS)
                .expect("prepare")
        })
        .collect()
}

fn load_wgpu(w: &HeadlessWgpu, compiled: &[Compiled]) -> Vec<DynWgpuEffect> {
    compiled
        .iter()
        .map(|(name, bytes, data)| {
            DynWgpuEffect::from_output(w.device(), name, data, bytes).expect("loads")
        })
        .collect()
}

fn load_gl(h: &Headless, compiled: &[Compiled]) -> Vec<DynEffect> {
    compiled
        .iter()
        .map(|(_, bytes, _)| DynEffect::new(h.ctx(), bytes).expect("GL loads"))
        .collect()
}

fn compare(what: &str, gl: &[u8], wgpu: &[u8]) {
    let wrong: Vec<String> = gl
        .chunks_exact(4)
        .zip(wgpu.chunks_exact(4))
        .enumerate()
        .filter(|(_, (g, w))| g.iter().zip(*w).any(|(a, b)| a.abs_diff(*b) > 2))
        .take(5)
        .map(|(i, (g, w))| format!("pixel {i}: GL {g:?}, wgpu {w:?}"))
        .collect();
    assert!(wrong.is_empty(), "{what}: {}", wrong.join("; "));
    assert!(
        gl.chunks_exact(4).filter(|p| p[3] != 0).count() > 3000,
        "{what}: the draws cover the target"
    );
}

#[test]
fn draws_of_three_effects_prepared_then_recorded_draw_like_gl() {
    let test = "draws_of_three_effects_prepared_then_recorded_draw_like_gl";
    let Some(w) = wgpu_or_skip(test) else {
        return;
    };
    let Some(h) = Headless::or_skip(test, 64, 64) else {
        return;
    };
    let compiled = compile();
    let mut gl = load_gl(&h, &compiled);
    let want = draw_gl(&h, &mut gl);
    let mut fx = load_wgpu(&w, &compiled);
    let (device, queue) = (w.device(), w.queue());
    let (width, height) = (COLUMNS * CELL, ROWS * CELL);
    let (vertices, indices) = sprite_buffers(device);
    let mut uniforms = Uniforms::new(device);

    // Into a render pass.
    let target = WgpuRenderTarget::new(device, width, height, false).unwrap();
    let draws = prepare_all(&mut fx, &mut gl, &mut uniforms, &target.target());
    let mut encoder = device.create_command_encoder(&Default::default());
    uniforms.upload(device, &mut encoder);
    // Uploading again with nothing new staged changes nothing (every egui callback may).
    uniforms.upload(device, &mut encoder);
    {
        let mut rp = begin_pass(&target, &mut encoder, [0; 4], 0);
        for (i, draw) in draws.iter().enumerate() {
            let range = 6 * i as u32..6 * i as u32 + 6;
            let index = wgpu::IndexFormat::Uint16;
            draw.draw_indexed(
                &mut rp,
                vertices.slice(..),
                indices.slice(..),
                index,
                range,
                0,
            )
            .expect("record");
        }
    }
    queue.submit([encoder.finish()]);
    compare(
        "render pass",
        &want,
        &target.read_rgba8(device, queue).unwrap(),
    );

    // Into a render bundle, executed by a render pass.
    let target = WgpuRenderTarget::new(device, width, height, false).unwrap();
    let draws = prepare_all(&mut fx, &mut gl, &mut uniforms, &target.target());
    let mut encoder = device.create_command_encoder(&Default::default());
    uniforms.upload(device, &mut encoder);
    let bundle = {
        let mut b = device.create_render_bundle_encoder(&wgpu::RenderBundleEncoderDescriptor {
            label: Some("prepared draws"),
            color_formats: &[Some(wgpu::TextureFormat::Rgba8Unorm)],
            depth_stencil: None,
            sample_count: 1,
            multiview: None,
        });
        for (i, draw) in draws.iter().enumerate() {
            let range = 6 * i as u32..6 * i as u32 + 6;
            let index = wgpu::IndexFormat::Uint16;
            draw.draw_indexed(
                &mut b,
                vertices.slice(..),
                indices.slice(..),
                index,
                range,
                0,
            )
            .expect("record into the bundle");
        }
        b.finish(&wgpu::RenderBundleDescriptor::default())
    };
    {
        let mut rp = begin_pass(&target, &mut encoder, [0; 4], 0);
        rp.execute_bundles([&bundle]);
    }
    queue.submit([encoder.finish()]);
    compare(
        "render bundle",
        &want,
        &target.read_rgba8(device, queue).unwrap(),
    );
}

#[test]
fn frames_in_flight_keep_their_own_parameters_and_stale_draws_are_refused() {
    let Some(w) = wgpu_or_skip("frames_in_flight_keep_their_own_parameters") else {
        return;
    };
    let compiled = compile();
    let (device, queue) = (w.device(), w.queue());
    let (name, bytes, data) = &compiled[0];
    let mut tint = DynWgpuEffect::from_output(device, name, data, bytes).expect("loads");
    let mut uniforms = Uniforms::new(device);
    let whole = Sprite::new(0.0, 0.0, 8.0, 8.0);
    let quad = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("quad"),
        contents: &whole.vertices().concat(),
        usage: wgpu::BufferUsages::VERTEX,
    });
    let quad_indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("quad indices"),
        contents: &[0u16, 1, 2, 1, 3, 2].map(u16::to_le_bytes).concat(),
        usage: wgpu::BufferUsages::INDEX,
    });
    let frame = |uniforms: &mut Uniforms, tint: &mut DynWgpuEffect, colour: [f32; 4]| {
        let target = WgpuRenderTarget::new(device, 8, 8, false).unwrap();
        tint.set_registers(0, &[colour]);
        let draw = tint
            .prepare(uniforms, (0, 0), &target.target(), &SPRITE_BUFFERS)
            .unwrap();
        (target, draw)
    };
    let record = |encoder: &mut wgpu::CommandEncoder,
                  target: &WgpuRenderTarget,
                  draw: &PreparedDraw|
     -> Result<(), WgpuError> {
        let mut rp = begin_pass(target, encoder, [0; 4], 0);
        let index = wgpu::IndexFormat::Uint16;
        draw.draw_indexed(
            &mut rp,
            quad.slice(..),
            quad_indices.slice(..),
            index,
            0..6,
            0,
        )
    };

    // Recorded before its upload: an error, not zeros.
    let (target, draw) = frame(&mut uniforms, &mut tint, [1.0, 0.0, 0.0, 1.0]);
    let mut encoder = device.create_command_encoder(&Default::default());
    match record(&mut encoder, &target, &draw) {
        Err(e @ WgpuError::NotUploaded { later: false, .. }) => {
            assert!(e.to_string().contains("upload"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    drop(encoder);

    // Frame A recorded, frame B prepared, uploaded and recorded before A is submitted.
    let mut encoder_a = device.create_command_encoder(&Default::default());
    uniforms.upload(device, &mut encoder_a);
    record(&mut encoder_a, &target, &draw).unwrap();
    let (target_b, draw_b) = frame(&mut uniforms, &mut tint, [0.0, 1.0, 0.0, 1.0]);
    let mut encoder_b = device.create_command_encoder(&Default::default());
    uniforms.upload(device, &mut encoder_b);
    record(&mut encoder_b, &target_b, &draw_b).unwrap();
    // Frame A's draw after frame B's upload would read B's parameters: refused.
    let mut late = device.create_command_encoder(&Default::default());
    match record(&mut late, &target, &draw) {
        Err(WgpuError::NotUploaded { later: true, .. }) => {}
        other => panic!("{other:?}"),
    }
    drop(late);
    queue.submit([encoder_a.finish()]);
    queue.submit([encoder_b.finish()]);
    let a = target.read_rgba8(device, queue).unwrap();
    let b = target_b.read_rgba8(device, queue).unwrap();
    assert!(
        a.chunks_exact(4).all(|p| p == [255, 0, 0, 255]),
        "frame A: {:?}",
        &a[..4]
    );
    assert!(
        b.chunks_exact(4).all(|p| p == [0, 255, 0, 255]),
        "frame B: {:?}",
        &b[..4]
    );
}

#[test]
fn pipelines_prepared_ahead_leave_the_first_frame_none_to_build() {
    let Some(w) = wgpu_or_skip("pipelines_prepared_ahead") else {
        return;
    };
    let compiled = compile();
    let device = w.device();
    let mut fx = load_wgpu(&w, &compiled);
    let target = Target::new(wgpu::TextureFormat::Rgba8Unorm, 80, 50);
    for f in &mut fx {
        f.prepare_pipeline((0, 0), &target, &SPRITE_BUFFERS)
            .unwrap();
        assert_eq!(f.pipeline_count(), 1);
    }
    let mut uniforms = Uniforms::new(device);
    for i in 0..30 {
        let f = &mut fx[i % 3];
        f.prepare(&mut uniforms, (0, 0), &target, &SPRITE_BUFFERS)
            .unwrap();
    }
    for f in &fx {
        assert_eq!(f.pipeline_count(), 1, "the first frame built a pipeline");
    }
    // Another target format is another pipeline, built when prepared.
    let other = Target::new(wgpu::TextureFormat::Rgba16Float, 80, 50);
    fx[0]
        .prepare(&mut uniforms, (0, 0), &other, &SPRITE_BUFFERS)
        .unwrap();
    assert_eq!(fx[0].pipeline_count(), 2);
}

#[test]
fn a_multisampled_target_draws_and_resolves() {
    let Some(w) = wgpu_or_skip("a_multisampled_target_draws_and_resolves") else {
        return;
    };
    let compiled = compile();
    let (device, queue) = (w.device(), w.queue());
    let (name, bytes, data) = &compiled[0];
    let mut tint = DynWgpuEffect::from_output(device, name, data, bytes).expect("loads");
    let resolved = WgpuRenderTarget::new(device, 8, 8, false).unwrap();
    let samples = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("msaa"),
        size: wgpu::Extent3d {
            width: 8,
            height: 8,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 4,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let samples_view = samples.create_view(&Default::default());
    let target = resolved.target().with_sample_count(4);
    let mut uniforms = Uniforms::new(device);
    tint.set_registers(0, &[[0.25, 0.5, 1.0, 1.0]]);
    // A triangle over the top-left half: edge pixels are partly covered, so resolved between.
    let corner = Sprite::new(0.0, 0.0, 8.0, 8.0).vertices();
    let triangle = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("triangle"),
        contents: &[corner[0], corner[1], corner[2]].concat(),
        usage: wgpu::BufferUsages::VERTEX,
    });
    let draw = tint
        .prepare(&mut uniforms, (0, 0), &target, &SPRITE_BUFFERS)
        .unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    uniforms.upload(device, &mut encoder);
    {
        let mut rp = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("msaa"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &samples_view,
                depth_slice: None,
                resolve_target: Some(resolved.color_view()),
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Discard,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        draw.draw(&mut rp, triangle.slice(..), 0..3).unwrap();
    }
    queue.submit([encoder.finish()]);
    let pixels = resolved.read_rgba8(device, queue).unwrap();
    let at = |x: usize, y: usize| &pixels[(y * 8 + x) * 4..][..4];
    assert_eq!(at(1, 1), [64, 128, 255, 255], "inside");
    assert_eq!(at(7, 7), [0, 0, 0, 255], "outside");
    let between = (0..8)
        .map(|i| at(7 - i, i)[2])
        .filter(|&b| b > 0 && b < 255)
        .count();
    assert!(
        between >= 4,
        "the diagonal's pixels resolve between: {between}"
    );
}
