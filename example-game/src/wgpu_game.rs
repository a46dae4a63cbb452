//! The game on wgpu (`--wgpu`): the same scenes, parameters and text as the OpenGL
//! [`Game`](crate::game::Game) ([`frame`]), drawn through `shadowdusk::wgpu_runtime`. Every effect
//! is typed by its generated module (`WgpuEffect<tint::Effect>`), built for wgpu by the build
//! script (`Builder::wgpu(true)`). It draws into any colour view with a depth view beside it, so
//! the window's surface and the headless offscreen target run the same code. With `--hot`,
//! each effect follows its source (`WgpuHotEffect`), as on OpenGL.

use std::path::PathBuf;

use shadowdusk::mgfx::{Blend, BlendState, CullMode, DepthStencilState, RasterizerState};
use shadowdusk::wgpu;
use shadowdusk::wgpu_runtime::headless::HeadlessWgpu;
use shadowdusk::wgpu_runtime::{
    DeviceStates, Sprite, SpriteBatch, Target, WgpuEffect, WgpuRenderTarget, WgpuTexture,
};
use shadowdusk::{Effect, Pass};

use crate::effect_list::{Effects, Wgpu};
use crate::effects::{cube as cube_fx, grayscale, sepia, skinned as skinned_fx, tint, wave};
use crate::frame::{self, sprite, Key, Params};
use crate::hot::{Event, Status, Watch};
use crate::options::{Options, DEFAULT_FRAMES};
use crate::run::Failure;
use crate::scene::{self, frame_time, Scene};
use crate::screenshots::{Shoot, Shots};
use crate::wgpu_mesh::WgpuMesh;
use crate::{font, texture};

/// The depth-stencil format of every depth attachment the game draws into (the window's, the
/// screenshot target's and the inset's, which is `WgpuRenderTarget`'s), as GL's depth24/stencil8.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth24PlusStencil8;

impl Effects<Wgpu> {
    /// Uploads what every apply since the last flush staged.
    fn flush(&mut self, queue: &wgpu::Queue) {
        self.tint.flush(queue);
        self.sepia.flush(queue);
        self.grayscale.flush(queue);
        self.wave.flush(queue);
        self.cube.flush(queue);
        self.skinned.flush(queue);
        self.plain.flush(queue);
    }
}

/// Where a frame is drawn: a colour view, a depth view of [`DEPTH_FORMAT`] of the same size,
/// and what pipelines are built for.
pub struct Frame<'a> {
    /// The colour attachment.
    pub color: &'a wgpu::TextureView,
    /// The depth attachment.
    pub depth: &'a wgpu::TextureView,
    /// Formats and size (its depth must be `Some(DEPTH_FORMAT)`).
    pub target: Target,
}

/// The game state and its wgpu objects.
pub struct WgpuGame {
    device: wgpu::Device,
    queue: wgpu::Queue,
    scene: Scene,
    time: f32,
    effects: Effects<Wgpu>,
    params: Params,
    sprite: WgpuTexture,
    font: WgpuTexture,
    batch: SpriteBatch,
    cube: WgpuMesh,
    ribbon: WgpuMesh,
    inset: WgpuRenderTarget,
    /// The offscreen screen screenshots are drawn into, made at the first one.
    shot: Option<WgpuRenderTarget>,
    /// What hot reload found (with `--hot`), for the label.
    status: Option<Status>,
}

/// No depth test or write (`DepthStencilState.None`).
fn no_depth() -> DepthStencilState {
    DepthStencilState {
        depth_buffer_enable: false,
        depth_buffer_write_enable: false,
        ..DepthStencilState::default()
    }
}

/// What the GL game sets before drawing sprites (`sprite_state`, SpriteBatch.Begin()'s):
/// premultiplied alpha blending, no depth test, no culling. On wgpu they are the device
/// states of every effect that draws sprites, for the blocks its pass does not set.
fn sprite_states() -> DeviceStates {
    DeviceStates {
        blend: BlendState {
            color_source_blend: Blend::One,
            color_destination_blend: Blend::InverseSourceAlpha,
            alpha_source_blend: Blend::One,
            alpha_destination_blend: Blend::InverseSourceAlpha,
            ..BlendState::default()
        },
        depth_stencil: no_depth(),
        rasterizer: RasterizerState {
            cull_mode: CullMode::None,
            ..RasterizerState::default()
        },
        ..DeviceStates::default()
    }
}

/// What the GL game leaves for the ribbon: blending off, and the depth test sprites turned off.
fn ribbon_states() -> DeviceStates {
    DeviceStates {
        depth_stencil: no_depth(),
        ..DeviceStates::default()
    }
}

fn texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> Result<WgpuTexture, String> {
    WgpuTexture::from_rgba8(device, queue, width, height, rgba)
        .map_err(|e| format!("uploading a texture: {e}"))
}

/// A clear colour as wgpu takes it: the bytes / 255, as GL's `glClearColor` gets them.
fn clear_color(c: [u8; 4]) -> wgpu::Color {
    let [r, g, b, a] = c.map(|v| f64::from(v) / 255.0);
    wgpu::Color { r, g, b, a }
}

/// Begins a render pass into `color` and `depth`, clearing colour to `clear`, depth to 1 and
/// stencil to 0.
fn begin<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    color: &wgpu::TextureView,
    depth: &wgpu::TextureView,
    clear: [u8; 4],
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("example-game"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: color,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(clear_color(clear)),
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view: depth,
            depth_ops: Some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(1.0),
                store: wgpu::StoreOp::Store,
            }),
            stencil_ops: Some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(0),
                store: wgpu::StoreOp::Store,
            }),
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

impl WgpuGame {
    /// Loads every effect, makes the textures, meshes and the inset target, and starts on
    /// `scene`.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        scene: Scene,
        watch: &Watch,
    ) -> Result<WgpuGame, String> {
        let mut effects = Effects::<Wgpu>::load(device, watch)?;
        let status = watch.describe::<tint::Effect>().map(|watching| {
            eprintln!("example-game: hot reload on: following the effects in {watching}");
            Status::new(watching)
        });
        let sprite = texture(
            device,
            queue,
            texture::SIZE,
            texture::SIZE,
            &texture::sprite_pixels(),
        )?;
        let atlas = font::atlas();
        let font = texture(device, queue, atlas.width, atlas.height, &atlas.rgba)?;
        let e = |e: shadowdusk::wgpu_runtime::WgpuError| e.to_string();
        let sprites = sprite_states();
        effects.tint.set_device_states(sprites).map_err(e)?;
        effects.sepia.set_device_states(sprites).map_err(e)?;
        effects.grayscale.set_device_states(sprites).map_err(e)?;
        effects.wave.set_device_states(sprites).map_err(e)?;
        effects.plain.set_device_states(sprites).map_err(e)?;
        effects
            .skinned
            .set_device_states(ribbon_states())
            .map_err(e)?;
        // The cube's passes set culling and depth; the rest (opaque, no blending) is the
        // device's initial state, as the GL game disables blending for it.
        // The effects that always sample the sprite keep a handle to it from now on.
        effects
            .tint
            .set_texture(tint::textures::SPRITE_TEXTURE, Some(&sprite))
            .map_err(e)?;
        effects
            .sepia
            .set_texture(sepia::textures::SPRITE_TEXTURE, Some(&sprite))
            .map_err(e)?;
        effects
            .grayscale
            .set_texture(grayscale::textures::SPRITE_TEXTURE, Some(&sprite))
            .map_err(e)?;
        effects
            .wave
            .set_texture(wave::textures::SPRITE_TEXTURE, Some(&sprite))
            .map_err(e)?;
        effects
            .cube
            .set_texture(cube_fx::textures::CUBE_TEXTURE, Some(&sprite))
            .map_err(e)?;
        let inset = WgpuRenderTarget::new(device, scene::INSET.width, scene::INSET.height, true)
            .map_err(|e| format!("creating the render target: {e}"))?;
        let mut game = WgpuGame {
            device: device.clone(),
            queue: queue.clone(),
            scene,
            time: 0.0,
            effects,
            params: Params::new(),
            sprite,
            font,
            batch: SpriteBatch::new(device),
            cube: WgpuMesh::cube(device),
            ribbon: WgpuMesh::ribbon(device),
            inset,
            shot: None,
            status,
        };
        game.update(0.0);
        Ok(game)
    }

    /// The scene on screen.
    pub fn scene(&self) -> Scene {
        self.scene
    }

    /// Shows `scene`.
    pub fn set_scene(&mut self, scene: Scene) {
        self.scene = scene;
    }

    /// Reacts to a key press.
    pub fn key(&mut self, key: Key) {
        self.scene = key.apply(self.scene);
    }

    /// Advances every animated parameter to `time` seconds.
    pub fn update(&mut self, time: f32) {
        self.time = time;
        self.params.update(time);
    }

    /// Swaps in every effect's finished recompile (with `--hot`; nothing happens without it).
    /// Once a frame, before rendering: the frame drawn next uses what was swapped in. Returns
    /// what was found, which the label shows and stderr gets in full.
    pub fn poll_shaders(&mut self) -> Vec<Event> {
        let Some(status) = &mut self.status else {
            return Vec::new();
        };
        self.effects.poll(status, self.time)
    }

    /// The hot-reload label, when hot reload is on.
    pub fn hot_status(&self) -> Option<&Status> {
        self.status.as_ref()
    }

    /// Shows a surface texture drawn by [`WgpuGame::render`].
    pub fn present(&self, texture: wgpu::SurfaceTexture) {
        self.queue.present(texture);
    }

    /// The device it draws with.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// Records the active scene into `frame`, then submits it (with the inset target first in
    /// the cube scene).
    pub fn render(&mut self, frame: &Frame) -> Result<(), String> {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("example-game frame"),
            });
        let recorded = self.record(&mut encoder, frame);
        // What was staged is uploaded even after a failure, so the next frame starts clean.
        self.effects.flush(&self.queue);
        self.batch.flush(&self.queue);
        recorded?;
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    fn record(&mut self, encoder: &mut wgpu::CommandEncoder, frame: &Frame) -> Result<(), String> {
        let screen = &frame.target;
        let fx = &mut self.effects;
        let p = &self.params;
        if self.scene == Scene::Cube {
            // The render target first: the screen's pass samples it.
            let depth = self
                .inset
                .depth_view()
                .ok_or("the render target has no depth view")?;
            let mut pass = begin(
                encoder,
                self.inset.color_view(),
                depth,
                scene::INSET_BACKGROUND,
            );
            let target = self.inset.target();
            draw_cube(&mut fx.cube, &p.cube_inset, &self.cube, &mut pass, &target)?;
        }
        let mut pass = begin(encoder, frame.color, frame.depth, scene::BACKGROUND);
        let batch = &mut self.batch;
        match self.scene {
            Scene::Skinned => {
                let applied = &mut apply(
                    &mut *fx.skinned,
                    &p.skinned,
                    skinned_fx::passes::skinned_effect_one_light_two_bones::P0,
                    screen,
                )?;
                self.ribbon.draw(&mut pass, applied)?;
            }
            Scene::Cube => {
                draw_cube(&mut fx.cube, &p.cube, &self.cube, &mut pass, screen)?;
                let inset = self.inset.texture();
                let plain = &mut fx.plain;
                draw_plain(
                    plain,
                    p,
                    batch,
                    &mut pass,
                    screen,
                    &inset,
                    &[sprite(scene::INSET)],
                )?;
                let caption = frame::inset_caption();
                draw_plain(plain, p, batch, &mut pass, screen, &self.font, &caption)?;
            }
            sprites => {
                let original = [sprite(scene::ORIGINAL)];
                draw_plain(
                    &mut fx.plain,
                    p,
                    batch,
                    &mut pass,
                    screen,
                    &self.sprite,
                    &original,
                )?;
                let effect = [sprite(scene::EFFECT)];
                let mut applied = match sprites {
                    Scene::Tint => apply(&mut *fx.tint, &p.tint, tint::passes::tinted::P0, screen)?,
                    Scene::Sepia => {
                        apply(&mut *fx.sepia, &p.sepia, sepia::passes::sepia::P0, screen)?
                    }
                    Scene::Grayscale => {
                        let pass = grayscale::passes::grayscale::P0;
                        apply(&mut *fx.grayscale, &p.grayscale, pass, screen)?
                    }
                    Scene::Wave => apply(&mut *fx.wave, &p.wave, wave::passes::wave::P0, screen)?,
                    Scene::Cube | Scene::Skinned => unreachable!("matched above"),
                };
                batch
                    .draw(&mut pass, &mut applied, &effect)
                    .map_err(|e| e.to_string())?;
                let captions = frame::sprite_captions(sprites);
                draw_plain(
                    &mut fx.plain,
                    p,
                    batch,
                    &mut pass,
                    screen,
                    &self.font,
                    &captions,
                )?;
            }
        }
        let mut text = frame::overlay(self.scene, screen.height);
        if let Some(status) = &self.status {
            text.extend(status.sprites(screen.width));
        }
        draw_plain(
            &mut fx.plain,
            p,
            batch,
            &mut pass,
            screen,
            &self.font,
            &text,
        )
    }
}

impl Shoot for WgpuGame {
    /// Renders into an offscreen target of `size` (kept for the next screenshot) and reads it
    /// back.
    fn shoot(&mut self, scene: Scene, size: (u32, u32)) -> Result<image::RgbaImage, String> {
        let target = match self.shot.take() {
            Some(t) if (t.target().width, t.target().height) == size => t,
            _ => WgpuRenderTarget::new(&self.device, size.0, size.1, true)
                .map_err(|e| format!("creating the screenshot target: {e}"))?,
        };
        let shown = self.scene;
        self.scene = scene;
        let depth = target
            .depth_view()
            .ok_or("the screenshot target has no depth view")?;
        let frame = Frame {
            color: target.color_view(),
            depth,
            target: target.target(),
        };
        let rendered = self.render(&frame);
        self.scene = shown;
        rendered?;
        let pixels = target
            .read_rgba8(&self.device, &self.queue)
            .map_err(|e| format!("reading the screenshot target: {e}"))?;
        self.shot = Some(target);
        image::RgbaImage::from_raw(size.0, size.1, pixels)
            .ok_or_else(|| format!("{}x{} read-back has the wrong size", size.0, size.1))
    }
}

/// Hands the typed parameters to the effect and applies one of its passes.
fn apply<'a, E: Effect>(
    fx: &'a mut WgpuEffect<E>,
    params: &E::Params,
    pass: Pass<E>,
    target: &Target,
) -> Result<shadowdusk::wgpu_runtime::Applied<'a>, String> {
    fx.set_params(params);
    fx.apply(pass, target).map_err(|e| e.to_string())
}

/// Draws `sprites` of `texture` through `tint` with a white tint (SpriteBatch's default look).
fn draw_plain(
    fx: &mut WgpuEffect<tint::Effect>,
    params: &Params,
    batch: &mut SpriteBatch,
    pass: &mut wgpu::RenderPass<'_>,
    target: &Target,
    texture: &WgpuTexture,
    sprites: &[Sprite],
) -> Result<(), String> {
    fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(texture))
        .map_err(|e| e.to_string())?;
    let mut applied = apply(fx, &params.plain, tint::passes::tinted::P0, target)?;
    batch
        .draw(pass, &mut applied, sprites)
        .map_err(|e| e.to_string())
}

/// Draws the cube's two passes (outline, then lit).
fn draw_cube(
    fx: &mut WgpuEffect<cube_fx::Effect>,
    params: &cube_fx::Params,
    mesh: &WgpuMesh,
    pass: &mut wgpu::RenderPass<'_>,
    target: &Target,
) -> Result<(), String> {
    for &p in cube_fx::Technique::LitCube.passes() {
        let mut applied = apply(fx, params, p, target)?;
        mesh.draw(pass, &mut applied)?;
    }
    Ok(())
}

/// Prints which adapter the game got (stderr, so stdout stays the list of files written).
pub fn announce(info: &wgpu::AdapterInfo, platform: &str) {
    eprintln!(
        "example-game: wgpu {:?} on {} ({platform})",
        info.backend, info.name
    );
}

/// Runs `options.frames` frames at a fixed step on a device without a surface, into an
/// offscreen target of the game's size, writing screenshots when asked. Returns the files
/// written.
pub fn headless(options: &Options) -> Result<Vec<PathBuf>, Failure> {
    let (width, height) = (scene::WIDTH, scene::HEIGHT);
    let gpu = HeadlessWgpu::new().map_err(|e| Failure::NoWgpu(e.to_string()))?;
    announce(gpu.info(), "headless, no surface");
    let (device, queue) = (gpu.device(), gpu.queue());
    let mut game = WgpuGame::new(device, queue, options.scene, &options.watch)?;
    let screen = WgpuRenderTarget::new(device, width, height, true)
        .map_err(|e| format!("creating the screen target: {e}"))?;
    let depth = screen
        .depth_view()
        .ok_or_else(|| Failure::Game("the screen target has no depth view".into()))?;
    let frame = Frame {
        color: screen.color_view(),
        depth,
        target: screen.target(),
    };
    let shots = options.screenshot.as_deref().map(Shots::new);
    let last = options.frames.unwrap_or(DEFAULT_FRAMES);
    let mut written = Vec::new();
    for n in 1..=last {
        game.update(frame_time(n));
        game.poll_shaders();
        game.render(&frame)?;
        if let Some(shots) = &shots {
            written.extend(shots.after_frame(&mut game, n, last, (width, height))?);
        }
    }
    Ok(written)
}
