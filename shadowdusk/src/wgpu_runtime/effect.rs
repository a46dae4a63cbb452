//! [`WgpuEffect`]: an effect known at build time, on a wgpu device, drawn pass by pass with
//! typed parameters, passes and texture slots.

use std::fmt;

use super::applied::Applied;
use super::data::EffectData;
use super::layout::VertexBuffers;
use super::loaded::Loaded;
use super::pipeline::VertexShader;
use super::{
    BufferLayout, DeviceStates, PreparedDraw, ReplaceError, Target, Uniforms, WgpuError,
    WgpuTexture,
};
use crate::effect::check_fits;
use crate::{Effect, Pass, TextureSlot};

/// Effect `E` (the `Effect` marker of a generated module built with the wgpu target) on a wgpu
/// device, with `E::Params` as its parameter values.
///
/// A frame: [`apply`](WgpuEffect::apply) a pass for each draw (it stages the current
/// parameters), draw with what it returns (or a [`SpriteBatch`](super::SpriteBatch)), and
/// [`flush`](WgpuEffect::flush) before submitting the frame's commands.
///
/// ```no_run
/// # use shadowdusk::wgpu;
/// # fn frame(device: &wgpu::Device, queue: &wgpu::Queue, texture: &shadowdusk::wgpu_runtime::WgpuTexture,
/// #     target: &shadowdusk::wgpu_runtime::WgpuRenderTarget) -> Result<(), shadowdusk::wgpu_runtime::WgpuError> {
/// # shadowdusk::include_effect!("doc/tint.fx", in_process, wgpu);
/// use shadowdusk::wgpu_runtime::{Sprite, SpriteBatch, WgpuEffect};
///
/// let mut fx = WgpuEffect::<tint::Effect>::new(device)?;
/// let mut batch = SpriteBatch::new(device);
/// fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(texture))?;
/// let mut encoder = device.create_command_encoder(&Default::default());
/// {
///     let mut pass = target.begin_pass(&mut encoder, Some([0.0, 0.0, 0.0, 1.0]));
///     for (i, red) in [0.25, 0.5, 0.75].into_iter().enumerate() {
///         fx.params_mut().set_tint([red, 1.0, 1.0, 1.0]);
///         let mut applied = fx.apply(tint::passes::sprite_drawing::P0, &target.target())?;
///         batch.draw(&mut pass, &mut applied, &[Sprite::new(i as f32 * 70.0, 0.0, 64.0, 64.0)])?;
///     }
/// }
/// fx.flush(queue);
/// batch.flush(queue);
/// queue.submit([encoder.finish()]);
/// # Ok(())
/// # }
/// ```
pub struct WgpuEffect<E: Effect> {
    loaded: Loaded,
    params: E::Params,
}

impl<E: Effect> WgpuEffect<E> {
    /// Creates the effect's shader modules, bind-group layouts, samplers and pipeline layouts
    /// from `E::WGPU`. The parameters start at `E::Params::default()`, MonoGame's start.
    ///
    /// Fails when `E` was built without the wgpu target ([`WgpuError::NoWgpuTarget`]), when
    /// wgpu refuses a shader or a sampler state, or when `E::Params` does not have the register
    /// layout of the effect (a hand-written [`Effect`] only).
    pub fn new(device: &wgpu::Device) -> Result<WgpuEffect<E>, WgpuError> {
        let data = E::WGPU.ok_or(WgpuError::NoWgpuTarget { effect: E::NAME })?;
        let params = E::Params::default();
        let model = super::dyn_effect::read(E::NAME, E::MGFX)?;
        let data = EffectData::from_static(data);
        let loaded = Loaded::new(device, E::NAME, data, &model, E::LAYOUT, &params)?;
        Ok(WgpuEffect { loaded, params })
    }

    /// Replaces every parameter value (a copy: no allocation). The next
    /// [`apply`](WgpuEffect::apply) stages them.
    pub fn set_params(&mut self, params: &E::Params) {
        self.params.clone_from(params);
    }

    /// The parameter values the next apply stages.
    pub fn params(&self) -> &E::Params {
        &self.params
    }

    /// The parameter values, to change in place with the generated setters.
    pub fn params_mut(&mut self) -> &mut E::Params {
        &mut self.params
    }

    /// Assigns (or clears) the texture of a texture parameter; the effect keeps a handle.
    ///
    /// Fails, changing nothing, when a shader samples the slot as another dimension
    /// ([`WgpuError::TextureDimension`]), or `slot` is not a parameter of the effect (a
    /// hand-written [`Effect`] only).
    pub fn set_texture(
        &mut self,
        slot: TextureSlot<E>,
        texture: Option<&WgpuTexture>,
    ) -> Result<(), WgpuError> {
        self.loaded.set_texture(slot.parameter_index(), texture)
    }

    /// The texture set for `slot`.
    pub fn texture(&self, slot: TextureSlot<E>) -> Option<&WgpuTexture> {
        self.loaded.texture(slot.parameter_index())
    }

    /// Sets the device's states (MonoGame's `GraphicsDevice.BlendState`, `SamplerStates[n]`
    /// and so on; the default is the device's initial state): what a pass takes for the
    /// blocks and sampler slots it does not set, until a pass that sets a block replaces it
    /// ([`DeviceStates`]). Pipelines, samplers and bind groups are cached by the states they
    /// were made for, so changing them between draws costs lookups, not rebuilds. Fails,
    /// changing nothing, when a sampler state cannot be expressed on this device.
    pub fn set_device_states(&mut self, states: DeviceStates) -> Result<(), WgpuError> {
        self.loaded.set_device_states(states)
    }

    /// The device's states now: the last set, with the blocks of every pass applied since.
    pub fn device_states(&self) -> &DeviceStates {
        self.loaded.device_states()
    }

    /// How many pipelines the effect has built so far (one per pass, target, vertex buffers
    /// and the wgpu state its render states come to).
    pub fn pipeline_count(&self) -> usize {
        self.loaded.pipeline_count()
    }

    /// Sets SpriteBatch's `MatrixTransform` for the built-in vertex shader of pixel-only passes
    /// (`m[r][c]` = XNA `M(r+1,c+1)`). Until set, SpriteBatch's default projection of the
    /// target is used (`Matrix.CreateOrthographicOffCenter(0, w, h, 0, 0, -1)`, no half-pixel
    /// offset, as on MonoGame's DirectX 11 runtime).
    pub fn set_sprite_transform(&mut self, m: [[f32; 4]; 4]) {
        self.loaded.sprite_transform = Some(m);
    }

    /// Goes back to SpriteBatch's default projection.
    pub fn clear_sprite_transform(&mut self) {
        self.loaded.sprite_transform = None;
    }

    /// Binds SpriteBatch's vertex shader for this effect, as MonoGame's `SpriteBatch` applies
    /// `SpriteEffect`'s pass before a custom effect's: a pass without a vertex shader applied
    /// next draws with SpriteBatch's vertex shader, whatever pass of the effect was applied
    /// before (the GL runtime's `SpriteBatch::begin`). Call it
    /// before drawing sprites with a pixel-only pass once a pass with a vertex shader was
    /// applied (a 3D scene, another technique's first pass).
    pub fn begin_sprites(&mut self) {
        self.loaded.bound_vertex = VertexShader::Sprite;
    }

    /// Stages the current parameters for one draw of `pass` into `target` and returns what
    /// draws it. Every texture the pass samples must be set
    /// ([`WgpuError::MissingTexture`]). Allocates nothing once the frame's chunks and bind
    /// groups exist.
    ///
    /// A pass without a vertex shader draws with the vertex shader of this effect's last pass
    /// applied that has one, else SpriteBatch's; a pixel shader reading what that one does not
    /// write is [`WgpuError::BoundVertexVarying`] when drawn.
    pub fn apply(&mut self, pass: Pass<E>, target: &Target) -> Result<Applied<'_>, WgpuError> {
        self.loaded
            .apply(pass.technique_index(), pass.index(), target, &self.params)
    }

    /// Uploads the parameters every apply since the last flush staged (one `write_buffer` per
    /// chunk). Call it once a frame, after recording and before `queue.submit`.
    pub fn flush(&mut self, queue: &wgpu::Queue) {
        self.loaded.flush(queue);
    }

    /// Swaps in another compile of `E`'s effect (shader hot reload: the same source, edited):
    /// `wgpu` and `model`, the compiler's wgpu output and MGFX effect, when the effect has the
    /// layout `E`'s generated code was made for (a change is named by comparing with the
    /// running effect, as `GlEffect::replace_effect` does). Its shader modules are made before
    /// anything is replaced, so on any error the running effect stays as it was. Parameter
    /// values, textures, device states and the sprite transform carry over; pipelines are
    /// built again as passes are drawn.
    pub fn replace_effect(
        &mut self,
        wgpu: &crate::mgfx::wgpu::WgpuEffect,
        model: &crate::mgfx::Effect,
    ) -> Result<(), ReplaceError> {
        check_fits::<E>(self.loaded.model(), model).map_err(ReplaceError::Layout)?;
        let data = EffectData::from_output(wgpu, model).map_err(|what| {
            ReplaceError::Wgpu(WgpuError::ParamsLayout {
                effect: E::NAME,
                what,
            })
        })?;
        let device = self.loaded.device().clone();
        let mut loaded = Loaded::new(&device, E::NAME, data, model, E::LAYOUT, &self.params)?;
        loaded.carry_over(&self.loaded)?;
        self.loaded = loaded;
        Ok(())
    }

    /// Prepares one draw of `pass` into `target` from vertex buffers laid out as `buffers`
    /// (triangle lists): stages the current parameters into `uniforms` (shared by every effect
    /// of the device), makes the pipeline (if new) and bind groups, and makes the pass's state
    /// blocks and vertex shader the device's, as [`apply`](WgpuEffect::apply) does. Record the
    /// returned draw with shared access once `uniforms` is uploaded
    /// ([`Uniforms::upload`]), into a render pass or a render bundle. Allocates nothing once
    /// the frame's chunks, bind groups and pipeline exist.
    pub fn prepare(
        &mut self,
        uniforms: &mut Uniforms,
        pass: Pass<E>,
        target: &Target,
        buffers: &[BufferLayout],
    ) -> Result<PreparedDraw, WgpuError> {
        let names = self.loaded.names(pass.technique_index(), pass.index());
        let buffers = VertexBuffers::of(names, buffers.iter().copied())?;
        self.loaded.prepare(
            uniforms,
            (pass.technique_index(), pass.index()),
            target,
            buffers,
            wgpu::PrimitiveTopology::TriangleList,
            &self.params,
        )
    }

    /// Builds, ahead of the first frame, the pipeline `pass` draws with into `target` from
    /// `buffers` with the device states, bound vertex shader and textures set now, so that no
    /// draw waits for it ([`pipeline_count`](WgpuEffect::pipeline_count) counts it).
    pub fn prepare_pipeline(
        &mut self,
        pass: Pass<E>,
        target: &Target,
        buffers: &[BufferLayout],
    ) -> Result<(), WgpuError> {
        let names = self.loaded.names(pass.technique_index(), pass.index());
        let buffers = VertexBuffers::of(names, buffers.iter().copied())?;
        self.loaded.prepare_pipeline(
            (pass.technique_index(), pass.index()),
            target,
            buffers,
            wgpu::PrimitiveTopology::TriangleList,
        )
    }

    /// The device it was created on.
    pub fn device(&self) -> &wgpu::Device {
        self.loaded.device()
    }
}

impl<E: Effect> fmt::Debug for WgpuEffect<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WgpuEffect")
            .field("effect", &E::NAME)
            .finish_non_exhaustive()
    }
}
