//! Headless Bevy drawing into an image that is read back every frame, and the same scenes
//! drawn by ShadowDusk's own wgpu runtime, for the parity tests.
//!
//! Both draw into `Rgba8UnormSrgb` (Bevy's view format without HDR) from `Rgba8UnormSrgb`
//! textures (Bevy's default for colour images), so they blend and filter alike.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use bevy::app::PluginsState;
use bevy::asset::RenderAssetUsages;
use bevy::camera::RenderTarget;
use bevy::core_pipeline::tonemapping::{DebandDither, Tonemapping};
use bevy::log::LogPlugin;
use bevy::prelude::*;
use bevy::render::gpu_readback::{Readback, ReadbackComplete};
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat, TextureUsages};
use bevy::render::settings::{Backends, RenderCreation, WgpuSettings};
use bevy::render::RenderPlugin;
use bevy::window::ExitCondition;
use bevy::winit::WinitPlugin;
use shadowdusk::wgpu;
use shadowdusk::wgpu_runtime::headless::HeadlessWgpu;
use shadowdusk::wgpu_runtime::{TextureDesc, WgpuTexture};
use shadowdusk::SurfaceFormat;

/// Width and height of every test image (64 RGBA8 texels: rows need no padding to read back).
pub const SIZE: u32 = 64;

/// The background every scene clears to, as linear RGBA (what both clear with).
pub const BACKGROUND: [f32; 4] = [0.05, 0.2, 0.4, 1.0];

/// ShadowDusk's wgpu runtime on lavapipe, or a visible skip (a failure under
/// `SHADOWDUSK_REQUIRE_ALL=1`) when there is no Vulkan adapter.
pub fn runtime_or_skip(test: &str) -> Option<HeadlessWgpu> {
    match HeadlessWgpu::new() {
        Ok(h) => Some(h),
        Err(e) => {
            shadowdusk_testkit::skip(test, &format!("no wgpu adapter: {e}"));
            None
        }
    }
}

/// A headless Bevy app on Vulkan (lavapipe here) with `plugins` added, pipelines compiled in
/// the frame that asks for them.
pub fn app<M>(plugins: impl bevy::app::Plugins<M>) -> App {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: None,
                exit_condition: ExitCondition::DontExit,
                close_when_requested: false,
                ..default()
            })
            .set(RenderPlugin {
                render_creation: RenderCreation::Automatic(Box::new(WgpuSettings {
                    backends: Some(Backends::VULKAN),
                    ..default()
                })),
                synchronous_pipeline_compilation: true,
                ..default()
            })
            .disable::<WinitPlugin>()
            .disable::<LogPlugin>(),
    );
    app.add_plugins(plugins);
    while app.plugins_state() == PluginsState::Adding {
        bevy::tasks::tick_global_task_pools_on_main_thread();
    }
    app.finish();
    app.cleanup();
    app
}

/// The last frame read back from the camera's image (top row first, RGBA8).
#[derive(Resource, Clone, Default)]
pub struct Frames(pub Arc<Mutex<Vec<Vec<u8>>>>);

impl Frames {
    /// The latest frame read back.
    pub fn last(&self) -> Option<Vec<u8>> {
        self.0.lock().unwrap().last().cloned()
    }

    /// How many frames were read back.
    pub fn count(&self) -> usize {
        self.0.lock().unwrap().len()
    }
}

/// Spawns a 2D camera drawing into a `SIZE`² sRGB image over [`BACKGROUND`], without MSAA,
/// tonemapping or dithering (so its pixels are what the passes wrote), whose every frame is
/// read back into the returned [`Frames`]. Returns the camera.
pub fn camera(app: &mut App, extra: impl Bundle) -> (Entity, Frames) {
    let frames = Frames::default();
    let mut image = Image::new_target_texture(SIZE, SIZE, TextureFormat::Rgba8UnormSrgb, None);
    image.texture_descriptor.usage |= TextureUsages::COPY_SRC;
    let world = app.world_mut();
    let handle = world.resource_mut::<Assets<Image>>().add(image);
    let [r, g, b, a] = BACKGROUND;
    let camera = world
        .spawn((
            Camera2d,
            Camera {
                clear_color: ClearColorConfig::Custom(Color::LinearRgba(LinearRgba::new(
                    r, g, b, a,
                ))),
                ..default()
            },
            RenderTarget::Image(handle.clone().into()),
            Msaa::Off,
            Tonemapping::None,
            DebandDither::Disabled,
            extra,
        ))
        .id();
    let sink = frames.clone();
    world
        .spawn(Readback::texture(handle))
        .observe(move |event: On<ReadbackComplete>| {
            sink.0.lock().unwrap().push(event.data.clone());
        });
    (camera, frames)
}

/// Runs `n` frames.
pub fn run(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

/// A `SIZE`²-or-smaller sRGB image with `rgba` texels, as a Bevy image asset.
pub fn bevy_image(app: &mut App, width: u32, height: u32, rgba: &[u8]) -> Handle<Image> {
    let image = Image::new(
        Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        rgba.to_vec(),
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    app.world_mut().resource_mut::<Assets<Image>>().add(image)
}

/// The same texels as a texture of ShadowDusk's runtime (`SurfaceFormat::ColorSRgb`).
pub fn runtime_texture(h: &HeadlessWgpu, width: u32, height: u32, rgba: &[u8]) -> WgpuTexture {
    WgpuTexture::new(
        h.device(),
        h.queue(),
        &TextureDesc::d2(SurfaceFormat::ColorSRgb, width, height),
        rgba,
    )
    .expect("sRGB texture")
}

/// A texture with alpha and colour varying across it: 16 × 16 cells of 2 × 2 texels, so any
/// sampling at a texel centre shows which texel it read.
pub fn pattern(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity((width * height * 4) as usize);
    for y in 0..height {
        for x in 0..width {
            let (cx, cy) = (x / 2, y / 2);
            out.extend_from_slice(&[
                (cx * 37 % 256) as u8,
                (cy * 53 % 256) as u8,
                ((cx + cy) * 29 % 256) as u8,
                (64 + (cx * 7 + cy * 13) % 192) as u8,
            ]);
        }
    }
    out
}

/// An sRGB colour target of the runtime, `SIZE`², readable.
pub fn runtime_target(h: &HeadlessWgpu) -> wgpu::Texture {
    h.device().create_texture(&wgpu::TextureDescriptor {
        label: Some("reference"),
        size: wgpu::Extent3d {
            width: SIZE,
            height: SIZE,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

/// A render pass into `view` of the runtime, cleared to `clear` (linear RGBA).
pub fn runtime_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    view: &wgpu::TextureView,
    clear: [f32; 4],
) -> wgpu::RenderPass<'e> {
    let [r, g, b, a] = clear.map(f64::from);
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("reference"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// `texture`'s RGBA8 texels, top row first.
pub fn read(h: &HeadlessWgpu, texture: &wgpu::Texture) -> Vec<u8> {
    let bytes_per_row = SIZE * 4;
    let buffer = h.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("read back"),
        size: u64::from(bytes_per_row * SIZE),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = h
        .device()
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(bytes_per_row),
                rows_per_image: Some(SIZE),
            },
        },
        texture.size(),
    );
    h.queue().submit([encoder.finish()]);
    buffer
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("map"));
    h.device()
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let data = buffer
        .slice(..)
        .get_mapped_range()
        .expect("mapped")
        .to_vec();
    data
}

/// The largest channel difference between two frames, and where.
pub fn max_difference(a: &[u8], b: &[u8]) -> (u8, usize) {
    assert_eq!(a.len(), b.len(), "frame sizes differ");
    a.iter()
        .zip(b)
        .enumerate()
        .map(|(i, (x, y))| (x.abs_diff(*y), i / 4))
        .max()
        .unwrap_or((0, 0))
}

/// Asserts `bevy` equals `reference` within 2/255 per channel, saving both as PNGs under the
/// target folder when not (or always, with `SHADOWDUSK_SAVE_PARITY` set).
pub fn assert_same(test: &str, bevy: &[u8], reference: &[u8]) {
    let (diff, at) = max_difference(bevy, reference);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bevy-parity");
    if diff > 2 || std::env::var_os("SHADOWDUSK_SAVE_PARITY").is_some() {
        let _ = std::fs::create_dir_all(&dir);
        for (name, px) in [("bevy", bevy), ("runtime", reference)] {
            let path = dir.join(format!("{test}-{name}.png"));
            let _ = image::save_buffer(&path, px, SIZE, SIZE, image::ColorType::Rgba8);
        }
    }
    if diff > 2 {
        let (x, y) = (at as u32 % SIZE, at as u32 / SIZE);
        panic!(
            "{test}: Bevy and the runtime differ by {diff}/255 at ({x}, {y}): Bevy {:?}, \
             runtime {:?} (both saved in {})",
            &bevy[at * 4..at * 4 + 4],
            &reference[at * 4..at * 4 + 4],
            dir.display()
        );
    }
}
