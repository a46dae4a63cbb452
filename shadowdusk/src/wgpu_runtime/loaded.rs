//! The effect on the device, whatever types drive it: what [`WgpuEffect`](super::WgpuEffect)
//! and [`DynWgpuEffect`](super::DynWgpuEffect) share.

use super::layout::VertexLayout;
use super::pipeline::{PipelineKey, Pipelines, Resources, Shader, VertexShader};
use super::ring::{write_registers, Ring, Slot};
use super::{states, DeviceStates, Target, WgpuError, WgpuTexture};
use crate::mgfx;
use crate::params::EffectParams;
use crate::sprite::default_transform;
use crate::wgsl::{BindingKind, TextureDimension, WgslEffect, WgslPass};

/// The loaded effect.
#[derive(Debug)]
pub(crate) struct Loaded {
    name: &'static str,
    device: wgpu::Device,
    resources: Resources,
    pipelines: Pipelines,
    ring: Ring,
    /// Per effect shader, then the sprite shader: its texture bindings.
    texture_bindings: Vec<Vec<TextureBinding>>,
    /// By MGFX parameter index.
    textures: Vec<Option<WgpuTexture>>,
    /// Per effect shader, then the sprite shader: a bind group per ring chunk.
    bind_groups: Vec<Vec<Option<wgpu::BindGroup>>>,
    defaults: DeviceStates,
    pub(crate) sprite_transform: Option<[[f32; 4]; 4]>,
    /// The vertex shader of the last pass applied that has one (SpriteBatch's before any):
    /// what a pass without a vertex shader draws with. Kept per effect, as wgpu has no object
    /// of ours that the effects of a device share (the GL runtime keeps it per context).
    bound_vertex: VertexShader,
}

/// A texture binding of a shader, and the parameter that fills it.
#[derive(Clone, Copy, Debug)]
struct TextureBinding {
    binding: u32,
    parameter: usize,
    name: &'static str,
    slot: u32,
    dimension: TextureDimension,
}

impl Loaded {
    /// Creates the effect's shader modules, bind-group layouts, samplers and pipeline layouts
    /// from `data`, checking that `params` has the registers its shaders read.
    pub(crate) fn new(
        device: &wgpu::Device,
        name: &'static str,
        data: &'static WgslEffect,
        mgfx_bytes: &[u8],
        layout: u64,
        params: &dyn EffectParams,
    ) -> Result<Loaded, WgpuError> {
        let malformed = |what: String| WgpuError::ParamsLayout { effect: name, what };
        let model = mgfx::read(mgfx_bytes).map_err(|e| malformed(e.to_string()))?;
        if layout != 0 && mgfx::layout::fingerprint(&model) != layout {
            return Err(malformed(
                "its MGFX layout is not the one the generated code was made for".into(),
            ));
        }
        let defaults = DeviceStates::default();
        let resources = Resources::new(device, name, data, &defaults)?;
        let mut largest = 64;
        let mut texture_bindings = Vec::with_capacity(resources.shaders.len() + 1);
        for (i, shader) in resources.shaders.iter().enumerate() {
            if let Some((record, size)) = shader.uniform() {
                let have = params.constant_buffer(record).map_or(0, |r| r.len() * 16);
                if have < size as usize {
                    return Err(malformed(format!(
                        "shader {i} reads {size} bytes of record {record}, Params has {have}"
                    )));
                }
                largest = largest.max(size as usize);
            }
            let samplers = model.shaders.get(i).map_or(&[][..], |s| &s.samplers[..]);
            let mut bindings = Vec::new();
            for b in shader.info.bindings {
                if let BindingKind::Texture { slot, dimension } = b.kind {
                    let parameter = samplers
                        .iter()
                        .find(|s| u32::from(s.texture_slot) == slot)
                        .map(|s| usize::from(s.parameter))
                        .ok_or_else(|| {
                            malformed(format!("shader {i} has no sampler record for slot {slot}"))
                        })?;
                    bindings.push(TextureBinding {
                        binding: b.binding,
                        parameter,
                        name: b.name,
                        slot,
                        dimension,
                    });
                }
            }
            texture_bindings.push(bindings);
        }
        texture_bindings.push(Vec::new());
        let shader_count = texture_bindings.len();
        Ok(Loaded {
            name,
            device: device.clone(),
            ring: Ring::new(device, largest),
            resources,
            pipelines: Pipelines::default(),
            texture_bindings,
            textures: vec![None; model.parameters.len()],
            bind_groups: vec![Vec::new(); shader_count],
            defaults,
            sprite_transform: None,
            bound_vertex: VertexShader::Sprite,
        })
    }

    /// Assigns (or clears) the texture of a texture parameter; the effect keeps a handle.
    ///
    /// Fails, changing nothing, when a shader samples it as another dimension, or there is no
    /// such parameter.
    pub(crate) fn set_texture(
        &mut self,
        parameter: usize,
        texture: Option<&WgpuTexture>,
    ) -> Result<(), WgpuError> {
        if parameter >= self.textures.len() {
            return Err(WgpuError::NoSuchTexture {
                effect: self.name,
                parameter,
            });
        }
        if let Some(texture) = texture {
            for b in self.texture_bindings.iter().flatten() {
                if b.parameter == parameter && b.dimension != texture.dimension() {
                    return Err(WgpuError::TextureDimension {
                        effect: self.name,
                        texture: b.name,
                        expected: b.dimension,
                        found: texture.dimension(),
                    });
                }
            }
        }
        self.textures[parameter] = texture.cloned();
        for (shader, bindings) in self.texture_bindings.iter().enumerate() {
            if bindings.iter().any(|b| b.parameter == parameter) {
                self.bind_groups[shader].iter_mut().for_each(|g| *g = None);
            }
        }
        Ok(())
    }

    /// The texture set for `slot`.
    pub(crate) fn texture(&self, parameter: usize) -> Option<&WgpuTexture> {
        self.textures.get(parameter)?.as_ref()
    }

    /// Replaces the device states (built pipelines, samplers and bind groups are made again
    /// lazily); failing (a sampler state this device cannot express), it changes nothing.
    pub(crate) fn set_device_states(&mut self, states: DeviceStates) -> Result<(), WgpuError> {
        if states == self.defaults {
            return Ok(());
        }
        self.resources.set_samplers(&self.device, &states)?;
        self.defaults = states;
        self.pipelines.clear();
        self.bind_groups
            .iter_mut()
            .flatten()
            .for_each(|g| *g = None);
        Ok(())
    }

    /// Stages the current parameters for one draw of `pass` into `target` and returns what
    /// draws it. Every texture the pass samples must be set. Allocates nothing once the
    /// frame's ring chunks and bind groups exist.
    pub(crate) fn apply(
        &mut self,
        technique: usize,
        index: usize,
        target: &Target,
        params: &dyn EffectParams,
    ) -> Result<Applied<'_>, WgpuError> {
        let shaders = self.resources.pass(technique, index)?;
        let bound = shaders
            .vertex
            .map_or(self.bound_vertex, VertexShader::Effect);
        let vertex = match bound {
            VertexShader::Effect(v) => v,
            VertexShader::Sprite => self.resources.shaders.len(),
        };
        let stage_shaders = [vertex, shaders.pixel];
        for (stage, &shader) in stage_shaders.iter().enumerate() {
            for b in &self.texture_bindings[shader] {
                if self.textures[b.parameter].is_none() {
                    return Err(WgpuError::MissingTexture {
                        effect: self.name,
                        pass: shaders.info.name,
                        stage: if stage == 0 { "vertex" } else { "pixel" },
                        texture: b.name,
                        slot: b.slot,
                    });
                }
            }
        }
        let uniforms = [
            self.resources.vertex_shader(bound).uniform(),
            self.resources.shaders[shaders.pixel].uniform(),
        ];
        let sprite = matches!(bound, VertexShader::Sprite).then(|| {
            self.sprite_transform
                .unwrap_or_else(|| default_transform(target.width, target.height, false))
        });
        let slot = self.ring.stage(&self.device, |stage, bytes| {
            if stage == 0 {
                if let Some(m) = sprite {
                    let mut columns = [[0.0; 4]; 4];
                    for (c, column) in columns.iter_mut().enumerate() {
                        for (r, v) in column.iter_mut().enumerate() {
                            *v = m[r][c];
                        }
                    }
                    write_registers(&columns, bytes);
                    return;
                }
            }
            if let Some((record, _)) = uniforms[stage] {
                if let Some(registers) = params.constant_buffer(record) {
                    write_registers(registers, bytes);
                }
            }
        });
        let info: &'static WgslPass = shaders.info;
        self.bound_vertex = bound;
        for &shader in &stage_shaders {
            self.bind_group(shader, slot.chunk);
        }
        let groups = stage_shaders.map(|s| {
            self.bind_groups[s][slot.chunk]
                .as_ref()
                .expect("made just above")
        });
        Ok(Applied {
            device: &self.device,
            resources: &self.resources,
            pipelines: &mut self.pipelines,
            defaults: &self.defaults,
            technique,
            pass: index,
            vertex: bound,
            info,
            target: *target,
            groups,
            dynamic: uniforms.map(|u| u.is_some()),
            slot,
        })
    }

    /// Makes the bind group of `shader` over ring chunk `chunk` if it does not exist.
    fn bind_group(&mut self, shader: usize, chunk: usize) {
        let groups = &mut self.bind_groups[shader];
        if groups.len() < self.ring.chunk_count() {
            groups.resize(self.ring.chunk_count(), None);
        }
        if groups[chunk].is_some() {
            return;
        }
        let s: &Shader = if shader == self.resources.shaders.len() {
            &self.resources.sprite
        } else {
            &self.resources.shaders[shader]
        };
        let buffer = &self.ring.chunk(chunk).expect("staged into").buffer;
        let mut entries = Vec::with_capacity(s.info.bindings.len());
        if s.uniform().is_some() {
            entries.push(wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer,
                    offset: 0,
                    size: wgpu::BufferSize::new(self.ring.binding_size()),
                }),
            });
        }
        for b in &self.texture_bindings[shader] {
            let texture = self.textures[b.parameter]
                .as_ref()
                .expect("checked by apply");
            entries.push(wgpu::BindGroupEntry {
                binding: b.binding,
                resource: wgpu::BindingResource::TextureView(texture.view()),
            });
        }
        for (binding, sampler) in &s.samplers {
            entries.push(wgpu::BindGroupEntry {
                binding: *binding,
                resource: wgpu::BindingResource::Sampler(sampler),
            });
        }
        groups[chunk] = Some(self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(self.name),
            layout: &s.layout,
            entries: &entries,
        }));
    }

    /// Uploads the parameters every apply since the last flush staged (one `write_buffer` per
    /// ring chunk). Call it once a frame, after recording and before `queue.submit`.
    pub(crate) fn flush(&mut self, queue: &wgpu::Queue) {
        self.ring.flush(queue);
    }

    /// The device it was created on.
    pub(crate) fn device(&self) -> &wgpu::Device {
        &self.device
    }
}

/// One applied pass: its staged parameters and textures, ready to draw into a render pass of
/// the target it was applied for (from [`WgpuEffect::apply`](super::WgpuEffect::apply)).
#[derive(Debug)]
pub struct Applied<'a> {
    device: &'a wgpu::Device,
    resources: &'a Resources,
    pipelines: &'a mut Pipelines,
    defaults: &'a DeviceStates,
    technique: usize,
    pass: usize,
    vertex: VertexShader,
    info: &'static WgslPass,
    target: Target,
    groups: [&'a wgpu::BindGroup; 2],
    dynamic: [bool; 2],
    slot: Slot,
}

impl Applied<'_> {
    /// Sets the pass's pipeline for `layout` and `topology` (built the first time), its bind
    /// groups with this draw's offsets, its blend constant and stencil reference: what the
    /// caller's own draw call then draws with.
    pub fn bind(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        layout: &VertexLayout,
        topology: wgpu::PrimitiveTopology,
    ) -> Result<(), WgpuError> {
        let key = PipelineKey::new(
            self.technique,
            self.pass,
            self.vertex,
            &self.target,
            *layout,
            topology,
        );
        let pipeline = self
            .pipelines
            .get(self.device, self.resources, self.defaults, key)?;
        render_pass.set_pipeline(pipeline);
        for (group, bind_group) in self.groups.iter().enumerate() {
            let offsets = if self.dynamic[group] {
                &self.slot.offsets[group..=group]
            } else {
                &[]
            };
            render_pass.set_bind_group(group as u32, *bind_group, offsets);
        }
        render_pass.set_blend_constant(states::blend_constant(self.info.blend.as_ref()));
        render_pass
            .set_stencil_reference(states::stencil_reference(self.info.depth_stencil.as_ref()));
        Ok(())
    }

    /// Draws `vertices` (laid out as `layout`) as a triangle list.
    pub fn draw(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        layout: &VertexLayout,
        vertices: wgpu::BufferSlice<'_>,
        range: std::ops::Range<u32>,
    ) -> Result<(), WgpuError> {
        self.bind(render_pass, layout, wgpu::PrimitiveTopology::TriangleList)?;
        render_pass.set_vertex_buffer(0, vertices);
        render_pass.draw(range, 0..1);
        Ok(())
    }

    /// Draws indexed triangles: `indices` of `format` into `vertices` laid out as `layout`.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_indexed(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        layout: &VertexLayout,
        vertices: wgpu::BufferSlice<'_>,
        indices: wgpu::BufferSlice<'_>,
        format: wgpu::IndexFormat,
        range: std::ops::Range<u32>,
        base_vertex: i32,
    ) -> Result<(), WgpuError> {
        self.bind(render_pass, layout, wgpu::PrimitiveTopology::TriangleList)?;
        render_pass.set_vertex_buffer(0, vertices);
        render_pass.set_index_buffer(indices, format);
        render_pass.draw_indexed(range, base_vertex, 0..1);
        Ok(())
    }

    /// The pass's name.
    pub fn name(&self) -> &'static str {
        self.info.name
    }
}
