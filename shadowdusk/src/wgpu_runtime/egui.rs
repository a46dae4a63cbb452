//! Effects inside egui (feature `egui`, egui-wgpu 0.36 on wgpu 30): a pass of an effect drawn
//! over an egui rectangle through egui-wgpu's paint callbacks, with its typed `Params`.
//!
//! ```ignore
//! // Once, after making egui-wgpu's renderer (the same colour format, depth and MSAA):
//! EguiEffect::<tint::Effect>::register(&mut renderer, &device, Target::new(format, 1, 1))?;
//! // Each frame, in your UI:
//! ui.add(egui::Slider::new(&mut red, 0.0..=1.0));
//! let mut params = tint::Params::default();
//! params.set_tint([red, 1.0, 1.0, 1.0]);
//! let (rect, _) = ui.allocate_exact_size(egui::vec2(128.0, 128.0), egui::Sense::hover());
//! ui.painter().add(EffectCallback::new(tint::passes::sprite_drawing::P0, params).paint(rect));
//! ```
//!
//! The pass draws with SpriteBatch's vertex shader over the whole rectangle (texture
//! coordinates (0, 0) at its top left to (1, 1), white vertex colour), as
//! `SpriteBatch.Draw(texture, rect, Color.White)` with the effect draws it. egui calls each
//! callback's `prepare` (the draw is prepared into one [`Uniforms`] store for every effect),
//! then `finish_prepare` (the store is uploaded once, into egui's encoder), then `paint` (the
//! draw is recorded with shared access).

use std::sync::atomic::{AtomicUsize, Ordering};

use wgpu::util::DeviceExt;

use super::{
    BufferLayout, PreparedDraw, Sprite, Target, Uniforms, VertexLayout, WgpuEffect, WgpuError,
};
use crate::{Effect, Pass};

/// SpriteBatch's projection of the unit square onto the whole viewport (egui sets the
/// viewport to the callback's rectangle): x 0..1 → −1..1, y 0..1 → 1..−1.
const UNIT_TO_VIEWPORT: [[f32; 4]; 4] = [
    [2.0, 0.0, 0.0, 0.0],
    [0.0, -2.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0, 1.0],
];

/// The draws of one effect on egui's renderer (in its `callback_resources`), and the quad
/// they draw.
pub struct EguiEffect<E: Effect> {
    effect: WgpuEffect<E>,
    target: Target,
    quad: wgpu::Buffer,
    draws: Vec<PreparedDraw>,
    /// The store frame `draws` belong to.
    frame: u64,
    /// Why the last draw that failed to prepare or record did (egui's callbacks return none).
    error: Option<WgpuError>,
}

/// The one store every effect's callbacks prepare into, in egui's `callback_resources`.
struct EguiUniforms(Uniforms);

impl<E: Effect> EguiEffect<E> {
    /// Loads effect `E` for egui-wgpu's `renderer` on `device` and keeps it in the renderer's
    /// `callback_resources` (once per effect; again replaces it). `target` is what egui's
    /// render pass draws into: its colour format, the renderer's depth format and MSAA
    /// samples (the size is not used).
    pub fn register(
        renderer: &mut egui_wgpu::Renderer,
        device: &wgpu::Device,
        target: Target,
    ) -> Result<(), WgpuError>
    where
        E: 'static,
        E::Params: Send + Sync,
    {
        let mut effect = WgpuEffect::<E>::new(device)?;
        effect.set_sprite_transform(UNIT_TO_VIEWPORT);
        let [tl, tr, bl, br] = Sprite::new(0.0, 0.0, 1.0, 1.0).vertices();
        let quad = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("shadowdusk egui quad"),
            contents: &[tl, tr, bl, tr, br, bl].concat(),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let resources = &mut renderer.callback_resources;
        if !resources.contains::<EguiUniforms>() {
            resources.insert(EguiUniforms(Uniforms::new(device)));
        }
        resources.insert(EguiEffect {
            effect,
            target,
            quad,
            draws: Vec::new(),
            frame: 0,
            error: None,
        });
        Ok(())
    }

    /// The effect, to set its textures and device states
    /// (`renderer.callback_resources.get_mut::<EguiEffect<E>>()`).
    pub fn effect_mut(&mut self) -> &mut WgpuEffect<E> {
        &mut self.effect
    }

    /// Why the last of its draws that failed did (a texture not set, say): egui's callbacks
    /// cannot return it, so it waits here; taking it clears it.
    pub fn take_error(&mut self) -> Option<WgpuError> {
        self.error.take()
    }
}

/// One pass of effect `E` with its parameters, drawn over an egui rectangle:
/// [`paint`](EffectCallback::paint) makes the `egui::PaintCallback` to add to a painter.
pub struct EffectCallback<E: Effect> {
    pass: Pass<E>,
    params: E::Params,
    /// Which of the frame's prepared draws is this callback's (set by `prepare`).
    draw: AtomicUsize,
}

impl<E: Effect> EffectCallback<E> {
    /// Pass `pass` with `params`.
    pub fn new(pass: Pass<E>, params: E::Params) -> EffectCallback<E> {
        EffectCallback {
            pass,
            params,
            draw: AtomicUsize::new(usize::MAX),
        }
    }

    /// The paint callback drawing it over `rect` (in points).
    pub fn paint(self, rect: epaint::Rect) -> epaint::PaintCallback
    where
        E: 'static,
        E::Params: Send + Sync,
    {
        egui_wgpu::Callback::new_paint_callback(rect, self)
    }
}

impl<E> egui_wgpu::CallbackTrait for EffectCallback<E>
where
    E: Effect + 'static,
    E::Params: Send + Sync,
    WgpuEffect<E>: Send + Sync,
{
    fn prepare(
        &self,
        _device: &wgpu::Device,
        _queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        _encoder: &mut wgpu::CommandEncoder,
        resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some(EguiUniforms(mut uniforms)) = resources.remove::<EguiUniforms>() else {
            log_missing::<E>();
            return Vec::new();
        };
        if let Some(fx) = resources.get_mut::<EguiEffect<E>>() {
            if fx.frame != uniforms.frame() {
                fx.draws.clear();
                fx.frame = uniforms.frame();
            }
            fx.effect.set_params(&self.params);
            let buffers = [BufferLayout::per_vertex(
                VertexLayout::POSITION_COLOR_TEXTURE,
            )];
            match fx
                .effect
                .prepare(&mut uniforms, self.pass, &fx.target, &buffers)
            {
                Ok(draw) => {
                    self.draw.store(fx.draws.len(), Ordering::Relaxed);
                    fx.draws.push(draw);
                }
                Err(e) => {
                    self.draw.store(usize::MAX, Ordering::Relaxed);
                    fx.error = Some(e);
                }
            }
        } else {
            log_missing::<E>();
        }
        resources.insert(EguiUniforms(uniforms));
        Vec::new()
    }

    fn finish_prepare(
        &self,
        device: &wgpu::Device,
        _queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        // Every callback's finish_prepare runs after every prepare: the first uploads the
        // frame's draws of every effect, the rest find nothing new.
        if let Some(EguiUniforms(uniforms)) = resources.get_mut::<EguiUniforms>() {
            uniforms.upload(device, encoder);
        }
        Vec::new()
    }

    fn paint(
        &self,
        _info: epaint::PaintCallbackInfo,
        render_pass: &mut wgpu::RenderPass<'static>,
        resources: &egui_wgpu::CallbackResources,
    ) {
        let Some(fx) = resources.get::<EguiEffect<E>>() else {
            return;
        };
        let Some(draw) = fx.draws.get(self.draw.load(Ordering::Relaxed)) else {
            return;
        };
        // Prepared and uploaded this frame, and the quad holds six vertices: recording
        // cannot fail.
        let _ = draw.draw(render_pass, fx.quad.slice(..), 0..6);
    }
}

fn log_missing<E: Effect>() {
    eprintln!(
        "shadowdusk egui: {} is not registered: call EguiEffect::register once after making \
         egui-wgpu's renderer",
        E::NAME
    );
}
