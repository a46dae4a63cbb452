//! Drawing through the typed runtime allocates nothing once warm: `set_params`, `set_texture`,
//! `apply` and a `SpriteBatch` draw, also of a pass without a vertex shader that draws with
//! the one the pass before bound, counted by a global allocator that counts the allocations
//! of the test's own thread (Mesa allocates through libc, outside it). On wgpu, `set_params`,
//! `set_device_states` (changed every draw) and `apply` allocate nothing once warm either.
//! `cargo xtask bench draws` measures the same loops' cost.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use shadowdusk::gl::{GlEffect, GlTexture, Sprite, SpriteBatch, TexelFilter};
use shadowdusk_tests::{Headless, Orientation};

shadowdusk::include_effect!("corpus/template_tint.fx", in_process);
shadowdusk::include_effect!("corpus/compat_sem_pixel_only_pass.fx", in_process);
shadowdusk::include_effect!(
    "corpus/template_tint.fx",
    name = tint_wgpu,
    in_process,
    wgpu
);

thread_local! {
    /// Allocations made by this thread. Const-initialised without a destructor, so reading it
    /// from inside the allocator allocates nothing itself.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// The system allocator, counting each thread's allocations and reallocations.
struct PerThread;

// SAFETY: every call is forwarded to the system allocator with the caller's arguments; the
// counter is a plain thread-local cell.
unsafe impl GlobalAlloc for PerThread {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded from the caller.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded from the caller.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded from the caller.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded from the caller.
        unsafe { System.dealloc(ptr, layout) }
    }
}

fn count() {
    // `try_with`: a thread being torn down has no counter left, and needs none.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

#[global_allocator]
static GLOBAL: PerThread = PerThread;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn a_warm_draw_loop_allocates_nothing() {
    let Some(h) = Headless::or_skip("a_warm_draw_loop_allocates_nothing", 16, 16) else {
        return;
    };
    let ctx = h.ctx();
    let mut fx = GlEffect::<template_tint::Effect>::new(ctx).expect("loads");
    let mut batch = SpriteBatch::new(ctx).expect("buffers");
    let texture =
        GlTexture::from_rgba8(ctx, 1, 1, &[255; 4], TexelFilter::Nearest).expect("texture");
    let target = h.target(Orientation::Backbuffer);
    let sprites = [
        Sprite::new(0.0, 0.0, 8.0, 8.0),
        Sprite::new(8.0, 8.0, 8.0, 8.0),
    ];
    let mut params = template_tint::Params::default();
    let pass = template_tint::passes::sprite_drawing::P0;
    let mut frame = |i: usize| {
        params.set_tint([1.0, (i % 256) as f32 / 255.0, 0.5, 1.0]);
        fx.set_params(&params);
        fx.set_texture(template_tint::textures::SPRITE_TEXTURE, Some(&texture))
            .expect("set_texture");
        let applied = fx.apply(pass, &target).expect("apply");
        batch.draw(&applied, &sprites).expect("draw");
    };
    // Warm-up: the sprite batch sizes its vertex and index bytes on its first draw.
    frame(0);
    let before = allocations();
    for i in 1..200 {
        frame(i);
    }
    let during = allocations() - before;
    assert_eq!(during, 0, "199 warm draws allocated {during} times");
    // The loop really drew: the tint reached the pixels.
    let img = h.read_rgba(Orientation::Backbuffer);
    assert_eq!(img.get_pixel(4, 4).0[0], 255);
}

#[test]
fn a_warm_pass_drawing_with_the_bound_vertex_shader_allocates_nothing() {
    let Some(h) = Headless::or_skip(
        "a_warm_pass_drawing_with_the_bound_vertex_shader_allocates_nothing",
        16,
        16,
    ) else {
        return;
    };
    let ctx = h.ctx();
    let mut fx = GlEffect::<compat_sem_pixel_only_pass::Effect>::new(ctx).expect("loads");
    let mut batch = SpriteBatch::new(ctx).expect("buffers");
    let target = h.target(Orientation::Backbuffer);
    let sprites = [Sprite {
        color: [64, 64, 64, 255],
        ..Sprite::new(0.0, 0.0, 16.0, 16.0)
    }];
    let mut params = compat_sem_pixel_only_pass::Params::default();
    let projection = shadowdusk::gl::sprite_vs::default_transform(16, 16, false);
    params.set_world_view_projection(shadowdusk::params::Matrix::from_rows(projection));
    let technique = compat_sem_pixel_only_pass::Technique::RimLit;
    let mut frame = |i: usize| {
        params.set_rim_color([1.0, (i % 256) as f32 / 255.0, 1.0, 1.0]);
        fx.set_params(&params);
        // Base binds its vertex shader (and copies its registers); Rim draws with it.
        for &pass in technique.passes() {
            let applied = fx.apply(pass, &target).expect("apply");
            batch.draw(&applied, &sprites).expect("draw");
        }
    };
    // Warm-up: Rim's program is linked, the batch sizes its bytes, the context its registers.
    frame(0);
    let before = allocations();
    for i in 1..200 {
        frame(i);
    }
    let during = allocations() - before;
    assert_eq!(
        during, 0,
        "199 warm two-pass draws allocated {during} times"
    );
    // Rim drew over Base: a corner has Base's 64 plus the rim's 64.
    let img = h.read_rgba(Orientation::Backbuffer);
    assert!(img.get_pixel(0, 0).0[0] >= 120, "{:?}", img.get_pixel(0, 0));
}

#[test]
fn a_warm_wgpu_draw_loop_changing_device_states_allocates_nothing() {
    use shadowdusk::mgfx::{Blend, BlendState, SamplerState, TextureFilter};
    use shadowdusk::wgpu_runtime::{SpriteBatch, WgpuEffect, WgpuRenderTarget, WgpuTexture};
    use shadowdusk::DeviceStates;
    let Some(gpu) =
        shadowdusk_tests::parity::wgpu_or_skip("a_warm_wgpu_draw_loop_changing_device_states")
    else {
        return;
    };
    let (device, queue) = (gpu.device(), gpu.queue());
    let target = WgpuRenderTarget::new(device, 16, 16, true).expect("target");
    let texture = WgpuTexture::from_rgba8(device, queue, 1, 1, &[255; 4]).expect("texture");
    let mut fx = WgpuEffect::<tint_wgpu::Effect>::new(device).expect("loads");
    fx.set_texture(tint_wgpu::textures::SPRITE_TEXTURE, Some(&texture))
        .expect("set_texture");
    let mut batch = SpriteBatch::new(device);
    let additive = DeviceStates {
        blend: BlendState {
            color_source_blend: Blend::BlendFactor,
            color_destination_blend: Blend::One,
            ..BlendState::default()
        },
        ..DeviceStates::default()
    };
    let mut states = [
        DeviceStates::default(),
        additive,
        DeviceStates::default(),
        additive,
    ];
    for s in &mut states[2..] {
        s.blend.blend_factor = [40, 80, 120, 160];
        s.depth_stencil.reference_stencil = 3;
        s.samplers[0] = SamplerState {
            filter: TextureFilter::Point,
            ..SamplerState::default()
        };
    }
    let mut params = tint_wgpu::Params::default();
    let pass = tint_wgpu::passes::sprite_drawing::P0;
    let sprite = [shadowdusk::wgpu_runtime::Sprite::new(0.0, 0.0, 8.0, 8.0)];
    // Frame 0 warms up: the ring's chunks, and a bind group per chunk and sampler set. Frame
    // 1 is counted.
    let mut during = 0;
    for frame in 0..2 {
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut rp = target.begin_pass(&mut encoder, Some([0.0; 4]));
            for i in 0..400 {
                let before = allocations();
                params.set_tint([1.0, (i % 256) as f32 / 255.0, 0.5, 1.0]);
                fx.set_params(&params);
                fx.set_device_states(states[i % 4]).expect("states");
                let mut applied = fx.apply(pass, &target.target()).expect("apply");
                if frame == 1 {
                    during += allocations() - before;
                }
                batch.draw(&mut rp, &mut applied, &sprite).expect("draw");
            }
        }
        fx.flush(queue);
        batch.flush(queue);
        queue.submit([encoder.finish()]);
    }
    assert_eq!(
        during, 0,
        "400 warm set_params + set_device_states + apply allocated {during} times"
    );
    assert_eq!(fx.pipeline_count(), 2, "two pipeline states among the four");
}
