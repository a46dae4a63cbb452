//! The effect on the device, whatever types drive it: what [`WgpuEffect`](super::WgpuEffect)
//! and [`DynWgpuEffect`](super::DynWgpuEffect) share.

use std::collections::HashMap;

use super::layout::{VertexBufferBinding, VertexBuffers, VertexLayout, MAX_VERTEX_BUFFERS};
use super::pipeline::{
    slot_bit, PipelineKey, Pipelines, RenderStates, Resources, Shader, VertexShader, MAX_SAMPLERS,
};
use super::ring::{write_registers, Ring, Slot};
use super::sampler::SamplerCache;
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
    /// Per shader (effect shaders, then the sprite shader): the sampler slots whose texture
    /// set now cannot be filtered (a bit per slot, [`slot_bit`]).
    unfilterable: Vec<u32>,
    /// Bind-group layouts made so far, by shader and its unfilterable slots.
    layouts: HashMap<(usize, u32), wgpu::BindGroupLayout>,
    /// Bind groups made so far, by shader (effect shaders, then the sprite shader), ring chunk
    /// and the samplers bound (a device sampler state changed between draws picks another).
    bind_groups: HashMap<GroupKey, wgpu::BindGroup>,
    /// Every sampler the effect has made, by state.
    samplers: SamplerCache,
    /// The device's states now: what was set, with the blocks of the passes applied since.
    states: DeviceStates,
    /// The samplers of each device slot's state ([`SamplerCache::pair`]).
    device_samplers: [[u16; 2]; crate::SAMPLER_SLOTS],
    pub(crate) sprite_transform: Option<[[f32; 4]; 4]>,
    /// The vertex shader of the last pass applied that has one (SpriteBatch's before any):
    /// what a pass without a vertex shader draws with. Kept per effect, as wgpu has no object
    /// of ours that the effects of a device share (the GL runtime keeps it per context).
    pub(crate) bound_vertex: VertexShader,
}

/// A bind group's key: shader, ring chunk, and the sampler of each of the shader's sampler
/// bindings, in order.
type GroupKey = (usize, usize, [u16; MAX_SAMPLERS]);

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
        let mut samplers = SamplerCache::default();
        let resources = Resources::new(device, name, data, &mut samplers)?;
        let states = DeviceStates::default();
        let device_samplers = device_sampler_ids(device, name, &mut samplers, &states)?;
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
        let unfilterable = vec![0; texture_bindings.len()];
        Ok(Loaded {
            name,
            device: device.clone(),
            ring: Ring::new(device, largest),
            resources,
            pipelines: Pipelines::default(),
            texture_bindings,
            textures: vec![None; model.parameters.len()],
            unfilterable,
            layouts: HashMap::new(),
            bind_groups: HashMap::new(),
            samplers,
            states,
            device_samplers,
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
        let mut filterable = true;
        if let Some(texture) = texture {
            let t = texture.view().texture();
            let kind = float_filterable(t.format(), self.device.features());
            let bindable = t.usage().contains(wgpu::TextureUsages::TEXTURE_BINDING);
            if kind.is_none() || !bindable || t.sample_count() > 1 {
                if let Some((shader, b)) = self.sampled_by(parameter) {
                    return Err(WgpuError::TextureFormat {
                        effect: self.name,
                        pass: self.resources.pass_of_shader(shader),
                        texture: b.name,
                        slot: b.slot,
                        format: t.format(),
                        samples: t.sample_count(),
                        usage: if bindable {
                            ""
                        } else {
                            " and no TEXTURE_BINDING usage"
                        },
                    });
                }
            }
            filterable = kind.unwrap_or(true);
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
        for (bindings, mask) in self.texture_bindings.iter().zip(&mut self.unfilterable) {
            for b in bindings.iter().filter(|b| b.parameter == parameter) {
                let bit = 1 << b.slot.min(31);
                *mask = if filterable {
                    *mask & !bit
                } else {
                    *mask | bit
                };
            }
        }
        let bindings = &self.texture_bindings;
        self.bind_groups
            .retain(|(shader, _, _), _| bindings[*shader].iter().all(|b| b.parameter != parameter));
        Ok(())
    }

    /// The first shader that samples texture parameter `parameter`, and its binding.
    fn sampled_by(&self, parameter: usize) -> Option<(usize, &TextureBinding)> {
        self.texture_bindings
            .iter()
            .enumerate()
            .find_map(|(i, list)| {
                list.iter()
                    .find(|b| b.parameter == parameter)
                    .map(|b| (i, b))
            })
    }

    /// The texture set for `slot`.
    pub(crate) fn texture(&self, parameter: usize) -> Option<&WgpuTexture> {
        self.textures.get(parameter)?.as_ref()
    }

    /// Replaces the device states (MonoGame's `GraphicsDevice.BlendState = …` and so on).
    /// Pipelines, samplers and bind groups stay cached by the states they were made for, so
    /// changing them between draws costs lookups; failing (a sampler state this device cannot
    /// express), it changes nothing.
    pub(crate) fn set_device_states(&mut self, states: DeviceStates) -> Result<(), WgpuError> {
        let ids = device_sampler_ids(&self.device, self.name, &mut self.samplers, &states)?;
        self.states = states;
        self.device_samplers = ids;
        Ok(())
    }

    /// The device's states now: the last set, with the blocks of every pass applied since.
    pub(crate) fn device_states(&self) -> &DeviceStates {
        &self.states
    }

    /// How many pipelines the effect has built.
    pub(crate) fn pipeline_count(&self) -> usize {
        self.pipelines.len()
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
        self.states.take_pass_blocks(
            info.blend.as_ref(),
            info.depth_stencil.as_ref(),
            info.rasterizer.as_ref(),
        );
        let unfilterable = stage_shaders.map(|s| self.unfilterable[s]);
        for (&shader, &mask) in stage_shaders.iter().zip(&unfilterable) {
            if !self.layouts.contains_key(&(shader, mask)) {
                let layout = self.shader(shader).layout(&self.device, self.name, mask);
                self.layouts.insert((shader, mask), layout);
            }
        }
        let keys = stage_shaders.map(|s| (s, slot.chunk, self.sampler_ids(s)));
        for key in &keys {
            self.bind_group(key, info.name)?;
        }
        let groups = keys.map(|k| self.bind_groups.get(&k).expect("made just above"));
        let layouts = [0, 1].map(|i| &self.layouts[&(stage_shaders[i], unfilterable[i])]);
        Ok(Applied {
            device: &self.device,
            resources: &self.resources,
            pipelines: &mut self.pipelines,
            layouts,
            unfilterable,
            states: RenderStates {
                blend: self.states.blend,
                depth_stencil: self.states.depth_stencil,
                rasterizer: self.states.rasterizer,
            },
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

    fn shader(&self, shader: usize) -> &Shader {
        if shader == self.resources.shaders.len() {
            &self.resources.sprite
        } else {
            &self.resources.shaders[shader]
        }
    }

    /// The sampler of each sampler binding of `shader`: the effect's state, else the device's
    /// for the slot; with every filter nearest where the slot's texture cannot be filtered.
    fn sampler_ids(&self, shader: usize) -> [u16; MAX_SAMPLERS] {
        let mut ids = [0; MAX_SAMPLERS];
        let unfilterable = self.unfilterable[shader];
        for (id, b) in ids.iter_mut().zip(&self.shader(shader).samplers) {
            let pair = b.own.unwrap_or_else(|| {
                // A slot past the device's sixteen (none in D3D9 shaders) takes the last one's.
                let slot = (b.slot as usize).min(crate::SAMPLER_SLOTS - 1);
                self.device_samplers[slot]
            });
            *id = pair[usize::from(slot_bit(unfilterable, b.slot))];
        }
        ids
    }

    /// Makes the bind group of `key` if it does not exist; `Err` (wgpu's validation message)
    /// for a view wgpu will not bind, such as a depth-stencil view of both aspects.
    fn bind_group(&mut self, key: &GroupKey, pass: &'static str) -> Result<(), WgpuError> {
        if self.bind_groups.contains_key(key) {
            return Ok(());
        }
        let &(shader, chunk, ids) = key;
        let layout = &self.layouts[&(shader, self.unfilterable[shader])];
        let s = self.shader(shader);
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
        for (b, &id) in s.samplers.iter().zip(&ids) {
            entries.push(wgpu::BindGroupEntry {
                binding: b.binding,
                resource: wgpu::BindingResource::Sampler(self.samplers.get(id)),
            });
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(self.name),
            layout,
            entries: &entries,
        });
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(WgpuError::BindGroup {
                effect: self.name,
                pass,
                message: error.to_string(),
            });
        }
        self.bind_groups.insert(*key, group);
        Ok(())
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
    layouts: [&'a wgpu::BindGroupLayout; 2],
    unfilterable: [u32; 2],
    states: RenderStates,
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
    /// Sets the pipeline for `buffers` (built the first time), the bind groups with this
    /// draw's offsets, the blend constant and stencil reference (the device blend and
    /// depth-stencil states'), without binding any vertex buffer.
    fn bind_key(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        buffers: VertexBuffers,
        topology: wgpu::PrimitiveTopology,
    ) -> Result<(), WgpuError> {
        let key = PipelineKey::new(
            (self.resources.name, self.info.name),
            self.technique,
            self.pass,
            self.vertex,
            self.unfilterable,
            &self.states,
            &self.target,
            buffers,
            topology,
        )?;
        let pipeline = self
            .pipelines
            .get(self.device, self.resources, &key, self.layouts)?;
        render_pass.set_pipeline(pipeline);
        for (group, bind_group) in self.groups.iter().enumerate() {
            let offsets = if self.dynamic[group] {
                &self.slot.offsets[group..=group]
            } else {
                &[]
            };
            render_pass.set_bind_group(group as u32, *bind_group, offsets);
        }
        render_pass.set_blend_constant(states::blend_constant(Some(&self.states.blend)));
        render_pass
            .set_stencil_reference(states::stencil_reference(Some(&self.states.depth_stencil)));
        Ok(())
    }

    /// Sets the pass's pipeline for one per-vertex buffer laid out as `layout` and
    /// `topology` (built the first time), its bind groups with this draw's offsets, its blend
    /// constant and stencil reference: what the caller's own draw call then draws with (the
    /// caller binds the vertex buffer at slot 0).
    pub fn bind(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        layout: &VertexLayout,
        topology: wgpu::PrimitiveTopology,
    ) -> Result<(), WgpuError> {
        self.bind_key(render_pass, VertexBuffers::one(*layout), topology)
    }

    /// As [`bind`](Applied::bind), for several vertex buffers (MonoGame's
    /// `SetVertexBuffers`), which it also binds, at slots 0, 1, …: each vertex shader input
    /// comes from the first buffer whose layout has its usage and index.
    pub fn bind_buffers(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        buffers: &[VertexBufferBinding<'_>],
        topology: wgpu::PrimitiveTopology,
    ) -> Result<(), WgpuError> {
        let (effect, pass) = (self.resources.name, self.info.name);
        if buffers.len() > MAX_VERTEX_BUFFERS {
            return Err(WgpuError::TooMany {
                effect,
                pass,
                what: "vertex buffers",
                count: buffers.len(),
                max: MAX_VERTEX_BUFFERS,
            });
        }
        let mut key = VertexBuffers {
            slots: [None; MAX_VERTEX_BUFFERS],
        };
        for (i, (slot, b)) in key.slots.iter_mut().zip(buffers).enumerate() {
            let step = match b.instance_frequency {
                0 => wgpu::VertexStepMode::Vertex,
                1 => wgpu::VertexStepMode::Instance,
                frequency => {
                    return Err(WgpuError::InstanceFrequency {
                        effect,
                        pass,
                        buffer: i,
                        frequency,
                    })
                }
            };
            *slot = Some((b.layout, step));
        }
        self.bind_key(render_pass, key, topology)?;
        for (i, b) in buffers.iter().enumerate() {
            render_pass.set_vertex_buffer(i as u32, b.buffer);
        }
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
        self.check_range("vertex", &range, layout.capacity(vertices.size()))?;
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
        self.check_range("index", &range, index_capacity(indices, format))?;
        self.bind(render_pass, layout, wgpu::PrimitiveTopology::TriangleList)?;
        render_pass.set_vertex_buffer(0, vertices);
        render_pass.set_index_buffer(indices, format);
        render_pass.draw_indexed(range, base_vertex, 0..1);
        Ok(())
    }

    /// Draws `instances` of the triangle list `vertices` from `buffers` (MonoGame's
    /// `SetVertexBuffers` + `DrawInstancedPrimitives` without indices): per-vertex buffers
    /// step through `vertices`, per-instance ones through `instances`.
    pub fn draw_instanced(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        buffers: &[VertexBufferBinding<'_>],
        vertices: std::ops::Range<u32>,
        instances: std::ops::Range<u32>,
    ) -> Result<(), WgpuError> {
        self.check_buffers(buffers, Some(&vertices), &instances)?;
        self.bind_buffers(render_pass, buffers, wgpu::PrimitiveTopology::TriangleList)?;
        render_pass.draw(vertices, instances);
        Ok(())
    }

    /// Draws `instances` of indexed triangles: `indices` of `format` into `buffers`
    /// (MonoGame's `DrawInstancedPrimitives`).
    #[allow(clippy::too_many_arguments)]
    pub fn draw_indexed_instanced(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        buffers: &[VertexBufferBinding<'_>],
        indices: wgpu::BufferSlice<'_>,
        format: wgpu::IndexFormat,
        range: std::ops::Range<u32>,
        base_vertex: i32,
        instances: std::ops::Range<u32>,
    ) -> Result<(), WgpuError> {
        self.check_range("index", &range, index_capacity(indices, format))?;
        self.check_buffers(buffers, None, &instances)?;
        self.bind_buffers(render_pass, buffers, wgpu::PrimitiveTopology::TriangleList)?;
        render_pass.set_index_buffer(indices, format);
        render_pass.draw_indexed(range, base_vertex, instances);
        Ok(())
    }

    /// The pass's name.
    pub fn name(&self) -> &'static str {
        self.info.name
    }

    /// `Err` when `range` is reversed or reaches past the `available` elements of its buffer.
    fn check_range(
        &self,
        what: &'static str,
        range: &std::ops::Range<u32>,
        available: u64,
    ) -> Result<(), WgpuError> {
        if range.start <= range.end && u64::from(range.end) <= available {
            return Ok(());
        }
        Err(WgpuError::DrawRange {
            effect: self.resources.name,
            pass: self.info.name,
            what,
            start: range.start,
            end: range.end,
            available,
        })
    }

    /// Each buffer against the range it steps through: `vertices` (when the draw is not
    /// indexed) for per-vertex buffers, `instances` for per-instance ones.
    fn check_buffers(
        &self,
        buffers: &[VertexBufferBinding<'_>],
        vertices: Option<&std::ops::Range<u32>>,
        instances: &std::ops::Range<u32>,
    ) -> Result<(), WgpuError> {
        self.check_range("instance", instances, u64::MAX)?;
        for b in buffers {
            let available = b.layout.capacity(b.buffer.size());
            match (b.instance_frequency, vertices) {
                (0, Some(vertices)) => self.check_range("vertex", vertices, available)?,
                (0, None) => {}
                _ => self.check_range("instance", instances, available)?,
            }
        }
        Ok(())
    }
}

/// How many indices of `format` the slice holds.
fn index_capacity(indices: wgpu::BufferSlice<'_>, format: wgpu::IndexFormat) -> u64 {
    indices.size() / format.byte_size() as u64
}

/// The sampler of each device slot's state; `Err` for the first slot this device cannot
/// express.
fn device_sampler_ids(
    device: &wgpu::Device,
    effect: &'static str,
    cache: &mut SamplerCache,
    states: &DeviceStates,
) -> Result<[[u16; 2]; crate::SAMPLER_SLOTS], WgpuError> {
    let mut ids = [[0; 2]; crate::SAMPLER_SLOTS];
    for (slot, (id, state)) in ids.iter_mut().zip(&states.samplers).enumerate() {
        *id = cache
            .pair(device, state)
            .map_err(|message| WgpuError::DeviceSampler {
                effect,
                slot,
                message,
            })?;
    }
    Ok(ids)
}

/// How a view of `format` samples as a float texture on a device with `features`: `Some(true)`
/// filtered, `Some(false)` only the nearest texel (a 32-bit float format without
/// `FLOAT32_FILTERABLE`, or the depth of a depth format), `None` not at all (integer and stencil
/// formats, which no MonoGame `SurfaceFormat` is).
pub(crate) fn float_filterable(
    format: wgpu::TextureFormat,
    features: wgpu::Features,
) -> Option<bool> {
    if format.has_depth_aspect() {
        return Some(false);
    }
    match format.sample_type(None, Some(features))? {
        wgpu::TextureSampleType::Float { filterable } => Some(filterable),
        _ => None,
    }
}
