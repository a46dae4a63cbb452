//! [`DynWgpuEffect`]: an effect compiled for wgpu whose types are not known at build time
//! (tools, tests, effects loaded at run time), driven by MGFX indices.

use super::applied::Applied;
use super::layout::VertexBuffers;
use super::loaded::Loaded;
use super::pipeline::VertexShader;
use super::{BufferLayout, DeviceStates, PreparedDraw, Target, Uniforms, WgpuError, WgpuTexture};
use crate::mgfx;
use crate::params::EffectParams;
use crate::wgsl::WgslEffect;

use super::data::{intern, EffectData};

/// An effect on a wgpu device, by index: techniques, passes, records and texture parameters
/// are MGFX indices, as in [`gl::DynEffect`](crate::gl::DynEffect).
#[derive(Debug)]
pub struct DynWgpuEffect {
    loaded: Loaded,
    registers: Registers,
}

/// Every record's registers, starting at the MGFX defaults.
#[derive(Debug)]
struct Registers(Vec<Vec<[f32; 4]>>);

impl EffectParams for Registers {
    fn constant_buffer(&self, record: usize) -> Option<&[[f32; 4]]> {
        self.0.get(record).map(Vec::as_slice)
    }

    fn constant_buffer_count(&self) -> usize {
        self.0.len()
    }
}

impl DynWgpuEffect {
    /// Loads `data` (the wgpu part of a build's generated module) with `mgfx_bytes` (the same
    /// compile's MGFX, for its records, defaults and texture parameters).
    pub fn new(
        device: &wgpu::Device,
        name: &'static str,
        data: &'static WgslEffect,
        mgfx_bytes: &[u8],
    ) -> Result<DynWgpuEffect, WgpuError> {
        let model = read(name, mgfx_bytes)?;
        Self::load(device, name, EffectData::from_static(data), &model)
    }

    /// Loads the compiler's wgpu output `wgpu` (`Compiled::wgpu`, or a `/Profile:Wgpu` file's
    /// `wgsl` part read with serde) with `mgfx_bytes`, the same compile's MGFX, at run time:
    /// nothing needs to live for the whole program. `name` names the effect in errors.
    pub fn from_output(
        device: &wgpu::Device,
        name: &str,
        wgpu: &mgfx::wgpu::WgpuEffect,
        mgfx_bytes: &[u8],
    ) -> Result<DynWgpuEffect, WgpuError> {
        let name = intern(name);
        let model = read(name, mgfx_bytes)?;
        let data = EffectData::from_output(wgpu, &model)
            .map_err(|what| WgpuError::ParamsLayout { effect: name, what })?;
        Self::load(device, name, data, &model)
    }

    /// Loads a `/Profile:Wgpu` file from the CLI (`json`, its text) with `mgfx_bytes`, the
    /// MGFX file it names (`mgfx`, written beside it): an effect compiled ahead of time,
    /// loaded at run time. `name` names the effect in errors.
    pub fn from_json(
        device: &wgpu::Device,
        name: &str,
        json: &str,
        mgfx_bytes: &[u8],
    ) -> Result<DynWgpuEffect, WgpuError> {
        use mgfx::wgpu::{WgpuFile, FILE_FORMAT, FILE_VERSION};
        let effect = intern(name);
        let bad = |what: String| WgpuError::ParamsLayout { effect, what };
        let file: WgpuFile = serde_json::from_str(json)
            .map_err(|e| bad(format!("not a /Profile:Wgpu file: {e}")))?;
        if file.format != FILE_FORMAT || file.version != FILE_VERSION {
            return Err(bad(format!(
                "a '{}' file of version {}; this runtime reads '{FILE_FORMAT}' version \
                 {FILE_VERSION}: compile it again with the CLI of this ShadowDusk version",
                file.format, file.version
            )));
        }
        let wgpu = mgfx::wgpu::WgpuEffect {
            shaders: file.shaders,
        };
        Self::from_output(device, name, &wgpu, mgfx_bytes)
    }

    fn load(
        device: &wgpu::Device,
        name: &'static str,
        data: EffectData,
        model: &mgfx::Effect,
    ) -> Result<DynWgpuEffect, WgpuError> {
        let mut records = Vec::with_capacity(model.constant_buffers.len());
        for cb in &model.constant_buffers {
            let registers =
                mgfx::packing::cbuffer_registers(cb, &model.parameters).map_err(|e| {
                    WgpuError::ParamsLayout {
                        effect: name,
                        what: format!("record '{}': {e}", cb.name),
                    }
                })?;
            records.push(registers);
        }
        let registers = Registers(records);
        let loaded = Loaded::new(device, name, data, model, 0, &registers)?;
        Ok(DynWgpuEffect { loaded, registers })
    }

    /// Replaces the registers of record `record` (as many as given, from the first).
    pub fn set_registers(&mut self, record: usize, registers: &[[f32; 4]]) {
        if let Some(r) = self.registers.0.get_mut(record) {
            for (to, from) in r.iter_mut().zip(registers) {
                *to = *from;
            }
        }
    }

    /// Assigns (or clears) the texture of MGFX parameter `parameter`.
    pub fn set_texture(
        &mut self,
        parameter: usize,
        texture: Option<&WgpuTexture>,
    ) -> Result<(), WgpuError> {
        self.loaded.set_texture(parameter, texture)
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

    /// Sets SpriteBatch's `MatrixTransform` for pixel-only passes (see
    /// [`WgpuEffect::set_sprite_transform`](super::WgpuEffect::set_sprite_transform)).
    pub fn set_sprite_transform(&mut self, m: [[f32; 4]; 4]) {
        self.loaded.sprite_transform = Some(m);
    }

    /// Binds SpriteBatch's vertex shader for this effect (see
    /// [`WgpuEffect::begin_sprites`](super::WgpuEffect::begin_sprites)).
    pub fn begin_sprites(&mut self) {
        self.loaded.bound_vertex = VertexShader::Sprite;
    }

    /// Stages the registers for one draw of pass `pass` of technique `technique`.
    pub fn apply(
        &mut self,
        technique: usize,
        pass: usize,
        target: &Target,
    ) -> Result<Applied<'_>, WgpuError> {
        self.loaded.apply(technique, pass, target, &self.registers)
    }

    /// Uploads what the applies since the last flush staged.
    pub fn flush(&mut self, queue: &wgpu::Queue) {
        self.loaded.flush(queue);
    }

    /// Prepares one draw of pass `pass` of technique `technique` (see
    /// [`WgpuEffect::prepare`](super::WgpuEffect::prepare)).
    pub fn prepare(
        &mut self,
        uniforms: &mut Uniforms,
        (technique, pass): (usize, usize),
        target: &Target,
        buffers: &[BufferLayout],
    ) -> Result<PreparedDraw, WgpuError> {
        let buffers = VertexBuffers::of(self.names(technique, pass), buffers.iter().copied())?;
        self.loaded.prepare(
            uniforms,
            (technique, pass),
            target,
            buffers,
            wgpu::PrimitiveTopology::TriangleList,
            &self.registers,
        )
    }

    /// Builds a pipeline ahead (see
    /// [`WgpuEffect::prepare_pipeline`](super::WgpuEffect::prepare_pipeline)).
    pub fn prepare_pipeline(
        &mut self,
        (technique, pass): (usize, usize),
        target: &Target,
        buffers: &[BufferLayout],
    ) -> Result<(), WgpuError> {
        let buffers = VertexBuffers::of(self.names(technique, pass), buffers.iter().copied())?;
        self.loaded.prepare_pipeline(
            (technique, pass),
            target,
            buffers,
            wgpu::PrimitiveTopology::TriangleList,
        )
    }

    /// The effect's and the pass's names, for errors.
    fn names(&self, technique: usize, pass: usize) -> (&'static str, &'static str) {
        self.loaded.names(technique, pass)
    }
}

/// The MGFX model in `bytes`, for effect `name`.
pub(crate) fn read(name: &'static str, bytes: &[u8]) -> Result<mgfx::Effect, WgpuError> {
    mgfx::read(bytes).map_err(|e| WgpuError::ParamsLayout {
        effect: name,
        what: e.to_string(),
    })
}
