//! `cargo xtask bench draws` (run through `xtask/src/bench.rs`, which builds this in release):
//! what a draw through the typed runtime costs, and that it allocates nothing.
//!
//! One typed effect (`xtask/bench/draws.fx`, compiled into this binary by `include_effect!`)
//! on a headless EGL context (Mesa llvmpipe), `DRAWS` draws a frame of `set_params` + `apply` +
//! one sprite through `SpriteBatch`, for `FRAMES` frames after `WARM_UP` frames, each ended with
//! `glFinish` so the driver's work is in the frame. Then the same without the sprite, which
//! leaves ShadowDusk's own cost (plus the uniform uploads). Printed: the median cost per draw of
//! each, and the Rust heap allocations per frame counted by this binary's global allocator
//! (Mesa allocates through libc, outside it), which must be 0 after warm-up: a non-zero count
//! fails the command.
//!
//! Then the same effect through the wgpu runtime (`WgpuEffect`, Mesa's lavapipe headless):
//! `set_params` + `apply` + one sprite through its `SpriteBatch`, all in one render pass, then
//! one `flush` and a submit, waited for. Its allocations are counted twice: ShadowDusk's own
//! (`set_params` + `apply`, must be 0) and the whole frame's, which includes wgpu recording
//! the render pass's commands (reported, not asserted: wgpu's own buffers). A second wgpu run
//! also changes the device states every draw (`set_device_states`, cycling through four that
//! differ in blending, blend factor, stencil reference and a slot's sampler state): its
//! ShadowDusk allocations must be 0 too, and its pipelines stay as many as the distinct
//! pipeline states (printed; more fails the command), since the states are part of the
//! pipeline key.
//!
//! A third wgpu run prepares instead (`set_params` + `WgpuEffect::prepare` into one `Uniforms`
//! store, kept in a reused `Vec`), uploads the store once into the frame's encoder, then records
//! every `PreparedDraw` with shared access into the render pass (one quad's vertex and index
//! buffers): its ShadowDusk allocations (`set_params` + `prepare`) must be 0, and it builds one
//! pipeline.
//!
//! A separate binary, not part of `xtask`'s own: `include_effect!` needs DXC when this
//! compiles, and `cargo xtask setup` is what fetches DXC.

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use glow::HasContext;
use shadowdusk::gl::headless::HeadlessGl;
use shadowdusk::gl::{GlContext, GlEffect, RenderTarget, Sprite, SpriteBatch};
use shadowdusk::mgfx::{Blend, BlendState, SamplerState, TextureFilter};
use shadowdusk::wgpu::util::DeviceExt;
use shadowdusk::wgpu_runtime::headless::HeadlessWgpu;
use shadowdusk::wgpu_runtime::{
    BufferLayout, PreparedDraw, SpriteBatch as WgpuSpriteBatch, Uniforms, VertexLayout, WgpuEffect,
    WgpuRenderTarget,
};
use shadowdusk::DeviceStates;

shadowdusk::include_effect!("bench/draws.fx", in_process, wgpu);

const DRAWS: usize = 10_000;
const FRAMES: usize = 200;
const WARM_UP: usize = 5;
const SIZE: u32 = 64;

/// Counts every allocation (and reallocation) of the process's Rust heap.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded to the system allocator with the caller's arguments; the
// counter is a relaxed atomic, which neither allocates nor blocks.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded from the caller.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded from the caller.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded from the caller.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded from the caller.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Per-frame figures of one run.
struct Run {
    frame_times: Vec<Duration>,
    /// Allocations of each measured frame (warm-up frames excluded).
    allocations: Vec<u64>,
}

impl Run {
    fn median_per_draw_ns(&self) -> f64 {
        let mut t = self.frame_times.clone();
        t.sort();
        t[t.len() / 2].as_secs_f64() * 1e9 / DRAWS as f64
    }

    fn max_allocations(&self) -> u64 {
        self.allocations.iter().copied().max().unwrap_or(0)
    }
}

/// Draws `FRAMES` frames of `DRAWS` draws (with a sprite each when `sprites` is true).
fn run(ctx: &GlContext, sprites: bool) -> Result<Run, String> {
    let mut fx = GlEffect::<draws::Effect>::new(ctx).map_err(|e| e.to_string())?;
    let mut batch = SpriteBatch::new(ctx).map_err(|e| e.to_string())?;
    let target = RenderTarget::backbuffer(SIZE, SIZE);
    let sprite = [Sprite::new(0.0, 0.0, 4.0, 4.0)];
    let mut params = draws::Params::default();
    params.set_color_matrix(shadowdusk::params::Matrix::IDENTITY);
    let mut frame_times = Vec::with_capacity(FRAMES);
    let mut allocations = Vec::with_capacity(FRAMES);
    for frame in 0..WARM_UP + FRAMES {
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let start = Instant::now();
        for i in 0..DRAWS {
            // A value that changes every draw, as a game's per-object parameters do.
            params.set_tint([1.0, (i % 256) as f32 / 255.0, 0.5, 1.0]);
            fx.set_params(&params);
            let pass = fx
                .apply(draws::passes::draw::P0, &target)
                .map_err(|e| e.to_string())?;
            if sprites {
                batch.draw(&pass, &sprite).map_err(|e| e.to_string())?;
            }
        }
        // SAFETY: the headless context is current on this thread (`GlContext`).
        unsafe { ctx.glow().finish() };
        let elapsed = start.elapsed();
        let allocated = ALLOCATIONS.load(Ordering::Relaxed) - before;
        if frame >= WARM_UP {
            frame_times.push(elapsed);
            allocations.push(allocated);
        }
    }
    Ok(Run {
        frame_times,
        allocations,
    })
}

/// Per-frame figures of a wgpu run.
struct WgpuRun {
    run: Run,
    /// ShadowDusk's own allocations per frame (`set_params` + `apply`, and
    /// `set_device_states` when the states change).
    ours: Vec<u64>,
    /// Pipelines the effect built in the whole run.
    pipelines: usize,
}

/// Four device states: opaque, and additive by a blend factor (two pipeline states), each
/// also with another blend factor, stencil reference and slot-0 sampler (the same pipelines).
fn changing_states() -> [DeviceStates; 4] {
    let opaque = DeviceStates::default();
    let additive = DeviceStates {
        blend: BlendState {
            color_source_blend: Blend::BlendFactor,
            color_destination_blend: Blend::One,
            blend_factor: [200, 150, 100, 255],
            ..BlendState::default()
        },
        ..DeviceStates::default()
    };
    let vary = |mut s: DeviceStates| {
        s.blend.blend_factor = [40, 80, 120, 160];
        s.depth_stencil.reference_stencil = 3;
        s.samplers[0] = SamplerState {
            filter: TextureFilter::Point,
            ..SamplerState::default()
        };
        s
    };
    [opaque, additive, vary(opaque), vary(additive)]
}

/// `FRAMES` frames of `DRAWS` sprites, each with its own parameters (and `states[i % n]` as
/// the device states, when given), in one render pass.
fn run_wgpu(gpu: &HeadlessWgpu, states: &[DeviceStates]) -> Result<WgpuRun, String> {
    let (device, queue) = (gpu.device(), gpu.queue());
    let target = WgpuRenderTarget::new(device, SIZE, SIZE, false).map_err(|e| e.to_string())?;
    let mut fx = WgpuEffect::<draws::Effect>::new(device).map_err(|e| e.to_string())?;
    let mut batch = WgpuSpriteBatch::new(device);
    let sprite = [Sprite::new(0.0, 0.0, 4.0, 4.0)];
    let mut params = draws::Params::default();
    params.set_color_matrix(shadowdusk::params::Matrix::IDENTITY);
    let (run, ours) = wgpu_frames(device, || {
        let mut own = 0;
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = target.begin_pass(&mut encoder, Some([0.0, 0.0, 0.0, 1.0]));
            for i in 0..DRAWS {
                let mark = ALLOCATIONS.load(Ordering::Relaxed);
                params.set_tint([1.0, (i % 256) as f32 / 255.0, 0.5, 1.0]);
                fx.set_params(&params);
                if !states.is_empty() {
                    fx.set_device_states(states[i % states.len()])
                        .map_err(|e| e.to_string())?;
                }
                let mut applied = fx
                    .apply(draws::passes::draw::P0, &target.target())
                    .map_err(|e| e.to_string())?;
                own += ALLOCATIONS.load(Ordering::Relaxed) - mark;
                batch
                    .draw(&mut pass, &mut applied, &sprite)
                    .map_err(|e| e.to_string())?;
            }
        }
        fx.flush(queue);
        batch.flush(queue);
        queue.submit([encoder.finish()]);
        Ok(own)
    })?;
    Ok(WgpuRun {
        run,
        ours,
        pipelines: fx.pipeline_count(),
    })
}

/// Runs `WARM_UP` + `FRAMES` frames of `frame` (which records and submits one and returns
/// ShadowDusk's own allocations in it), each waited for: the timings and whole-frame
/// allocations after warm-up, and ShadowDusk's.
fn wgpu_frames(
    device: &shadowdusk::wgpu::Device,
    mut frame: impl FnMut() -> Result<u64, String>,
) -> Result<(Run, Vec<u64>), String> {
    let mut frame_times = Vec::with_capacity(FRAMES);
    let mut allocations = Vec::with_capacity(FRAMES);
    let mut ours = Vec::with_capacity(FRAMES);
    for n in 0..WARM_UP + FRAMES {
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let start = Instant::now();
        let own = frame()?;
        device
            .poll(shadowdusk::wgpu::PollType::wait_indefinitely())
            .map_err(|e| e.to_string())?;
        let elapsed = start.elapsed();
        let allocated = ALLOCATIONS.load(Ordering::Relaxed) - before;
        if n >= WARM_UP {
            frame_times.push(elapsed);
            allocations.push(allocated);
            ours.push(own);
        }
    }
    Ok((
        Run {
            frame_times,
            allocations,
        },
        ours,
    ))
}

/// `FRAMES` frames of `DRAWS` prepared draws, each with its own parameters, uploaded once a
/// frame and recorded with shared access into one render pass.
fn run_prepared(gpu: &HeadlessWgpu) -> Result<WgpuRun, String> {
    use shadowdusk::wgpu;
    let (device, queue) = (gpu.device(), gpu.queue());
    let target = WgpuRenderTarget::new(device, SIZE, SIZE, false).map_err(|e| e.to_string())?;
    let mut fx = WgpuEffect::<draws::Effect>::new(device).map_err(|e| e.to_string())?;
    let mut uniforms = Uniforms::new(device);
    let quad = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("bench quad"),
        contents: &Sprite::new(0.0, 0.0, 4.0, 4.0).vertices().concat(),
        usage: wgpu::BufferUsages::VERTEX,
    });
    let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("bench quad indices"),
        contents: &[0u16, 1, 2, 1, 3, 2].map(u16::to_le_bytes).concat(),
        usage: wgpu::BufferUsages::INDEX,
    });
    let buffers = [BufferLayout::per_vertex(
        VertexLayout::POSITION_COLOR_TEXTURE,
    )];
    let mut params = draws::Params::default();
    params.set_color_matrix(shadowdusk::params::Matrix::IDENTITY);
    let mut prepared: Vec<PreparedDraw> = Vec::with_capacity(DRAWS);
    let (run, ours) = wgpu_frames(device, || {
        prepared.clear();
        let mark = ALLOCATIONS.load(Ordering::Relaxed);
        for i in 0..DRAWS {
            params.set_tint([1.0, (i % 256) as f32 / 255.0, 0.5, 1.0]);
            fx.set_params(&params);
            let draw = fx
                .prepare(
                    &mut uniforms,
                    draws::passes::draw::P0,
                    &target.target(),
                    &buffers,
                )
                .map_err(|e| e.to_string())?;
            prepared.push(draw);
        }
        let own = ALLOCATIONS.load(Ordering::Relaxed) - mark;
        let mut encoder = device.create_command_encoder(&Default::default());
        uniforms.upload(device, &mut encoder);
        {
            let mut pass = target.begin_pass(&mut encoder, Some([0.0, 0.0, 0.0, 1.0]));
            // Recording is wgpu's (its command list grows): counted for the frame only.
            for draw in &prepared {
                let index = wgpu::IndexFormat::Uint16;
                draw.draw_indexed(&mut pass, quad.slice(..), indices.slice(..), index, 0..6, 0)
                    .map_err(|e| e.to_string())?;
            }
        }
        queue.submit([encoder.finish()]);
        Ok(own)
    })?;
    Ok(WgpuRun {
        run,
        ours,
        pipelines: fx.pipeline_count(),
    })
}

fn main() -> ExitCode {
    let headless = match HeadlessGl::new(SIZE, SIZE) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("bench draws: headless OpenGL unavailable: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ctx = headless.context();
    // SAFETY: a query on the current context.
    let renderer = unsafe { ctx.glow().get_parameter_string(glow::RENDERER) };
    println!(
        "== typed draws ({renderer}, headless EGL; {DRAWS} draws a frame, median of {FRAMES} frames after {WARM_UP} warm-up, release)"
    );
    let mut failed = false;
    for (label, sprites) in [
        ("set_params + apply + 1-sprite draw", true),
        ("set_params + apply", false),
    ] {
        match run(ctx, sprites) {
            Ok(r) => {
                let allocations = r.max_allocations();
                println!(
                    "{label:<36} {:>8.0} ns/draw   {:>6.2} ms/frame   {allocations} allocations/frame",
                    r.median_per_draw_ns(),
                    r.median_per_draw_ns() * DRAWS as f64 / 1e6,
                );
                failed |= allocations != 0;
            }
            Err(e) => {
                eprintln!("bench draws: {label}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let gpu = match HeadlessWgpu::new() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("bench draws: no wgpu adapter: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "== typed draws on wgpu ({}, {:?}; same frames, one render pass a frame, release)",
        gpu.info().name,
        gpu.info().backend
    );
    let states = changing_states();
    for (label, states, most_pipelines) in [
        ("set_params + apply + 1-sprite draw", Some(&[][..]), 1),
        ("  + device states changed every draw", Some(&states[..]), 2),
        ("set_params + prepare, 1 upload, record", None, 1),
    ] {
        let run = match states {
            Some(states) => run_wgpu(&gpu, states),
            None => run_prepared(&gpu),
        };
        match run {
            Ok(w) => {
                let ours = w.ours.iter().copied().max().unwrap_or(0);
                println!(
                    "{label:<36} {:>8.0} ns/draw   {:>6.2} ms/frame   {ours} allocations/frame (ShadowDusk), {} with wgpu's command recording; {} pipelines",
                    w.run.median_per_draw_ns(),
                    w.run.median_per_draw_ns() * DRAWS as f64 / 1e6,
                    w.run.max_allocations(),
                    w.pipelines,
                );
                failed |= ours != 0;
                if w.pipelines > most_pipelines {
                    eprintln!(
                        "bench draws: {label}: {} pipelines built, at most {most_pipelines} expected",
                        w.pipelines
                    );
                    failed = true;
                }
            }
            Err(e) => {
                eprintln!("bench draws: wgpu: {label}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if failed {
        eprintln!(
            "bench draws: the draw loop allocated after warm-up, or built more pipelines than it draws with; it must not"
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
