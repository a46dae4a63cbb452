//! The effect on the device, whatever types drive it: what [`WgpuEffect`](super::WgpuEffect)
//! and [`DynWgpuEffect`](super::DynWgpuEffect) share.

use std::collections::HashMap;

use super::applied::Applied;
use super::data::EffectData;
use super::layout::VertexBuffers;
use super::pipeline::{
    slot_bit, PipelineKey, Pipelines, RenderStates, Resources, Shader, VertexShader, MAX_SAMPLERS,
};
use super::prepared::PreparedDraw;
use super::sampler::SamplerCache;
use super::uniforms::{write_registers, Slot, Uniforms};
use super::{DeviceStates, Target, WgpuError, WgpuTexture};
use crate::mgfx;
use crate::params::EffectParams;
use crate::sprite::default_transform;
use crate::wgsl::{BindingKind, TextureDimension, WgslPass};

/// The loaded effect.
#[derive(Debug)]
pub(crate) struct Loaded {
    name: &'static str,
    /// The MGFX effect it was made from (a reload names what changed against it).
    model: mgfx::Effect,
    device: wgpu::Device,
    resources: Resources,
    pipelines: Pipelines,
    /// The store `apply` stages into and `flush` uploads (`None` only within `apply`).
    own: Option<Uniforms>,
    /// Bytes each stage's uniform binding reads (the effect's largest record, at least 64).
    largest: usize,
    /// Per effect shader, then the sprite shader: its texture bindings.
    texture_bindings: Vec<Vec<TextureBinding>>,
    /// By MGFX parameter index.
    textures: Vec<Option<WgpuTexture>>,
    /// Per shader (effect shaders, then the sprite shader): the sampler slots whose texture
    /// set now cannot be filtered (a bit per slot, [`slot_bit`]).
    unfilterable: Vec<u32>,
    /// Bind-group layouts made so far, by shader and its unfilterable slots.
    layouts: HashMap<(usize, u32), wgpu::BindGroupLayout>,
    /// Bind groups made so far, by store, shader (effect shaders, then the sprite shader),
    /// chunk and the samplers bound (a device sampler state changed between draws picks
    /// another).
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

/// A bind group's key: the store (its id), shader, chunk, and the sampler of each of the
/// shader's sampler bindings, in order.
type GroupKey = (u64, usize, usize, [u16; MAX_SAMPLERS]);

/// A pass as it would draw now: its shaders (the vertex shader bound for a pass without one),
/// and the render states and texture kinds its pipeline is built for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    pub(crate) technique: usize,
    pub(crate) pass: usize,
    pub(crate) info: WgslPass,
    pub(crate) vertex: VertexShader,
    /// Vertex and pixel shader indices (the sprite shader is `resources.shaders.len()`).
    pub(crate) shaders: [usize; 2],
    pub(crate) unfilterable: [u32; 2],
    pub(crate) states: RenderStates,
}

/// A draw staged: its plan, where its registers are, and its bind groups' keys.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Staged {
    pub(crate) plan: Plan,
    pub(crate) slot: Slot,
    keys: [GroupKey; 2],
    /// Whether each stage has a uniform binding (bound with its dynamic offset).
    pub(crate) dynamic: [bool; 2],
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
    /// Creates the effect's shader modules and samplers from `data` (the wgpu part of the MGFX
    /// effect `model`), checking that `model` has the register `layout` the generated code was
    /// made for (0: any) and that `params` has the registers its shaders read.
    pub(crate) fn new(
        device: &wgpu::Device,
        name: &'static str,
        data: EffectData,
        model: &mgfx::Effect,
        layout: u64,
        params: &dyn EffectParams,
    ) -> Result<Loaded, WgpuError> {
        let malformed = |what: String| WgpuError::ParamsLayout { effect: name, what };
        if layout != 0 && mgfx::layout::fingerprint(model) != layout {
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
            for b in shader.info.bindings.iter() {
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
            model: model.clone(),
            device: device.clone(),
            own: Some(Uniforms::new(device)),
            largest,
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
        self.bind_groups.retain(|(_, shader, _, _), _| {
            bindings[*shader].iter().all(|b| b.parameter != parameter)
        });
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

    /// How pass (`technique`, `index`) would draw now: with the vertex shader bound for a pass
    /// without one, and the pass's state blocks over the device's.
    fn plan(&self, technique: usize, index: usize) -> Result<Plan, WgpuError> {
        let shaders = self.resources.pass(technique, index)?;
        let vertex = shaders
            .vertex
            .map_or(self.bound_vertex, VertexShader::Effect);
        let vertex_index = match vertex {
            VertexShader::Effect(v) => v,
            VertexShader::Sprite => self.resources.shaders.len(),
        };
        let info = shaders.info;
        let mut states = self.states;
        states.take_pass_blocks(
            info.blend.as_ref(),
            info.depth_stencil.as_ref(),
            info.rasterizer.as_ref(),
        );
        let stage_shaders = [vertex_index, shaders.pixel];
        Ok(Plan {
            technique,
            pass: index,
            info,
            vertex,
            shaders: stage_shaders,
            unfilterable: stage_shaders.map(|s| self.unfilterable[s]),
            states: RenderStates {
                blend: states.blend,
                depth_stencil: states.depth_stencil,
                rasterizer: states.rasterizer,
            },
        })
    }

    /// Makes the bind-group layouts `plan`'s shaders take, if new.
    fn make_layouts(&mut self, plan: &Plan) {
        for (&shader, &mask) in plan.shaders.iter().zip(&plan.unfilterable) {
            if !self.layouts.contains_key(&(shader, mask)) {
                let layout = self.shader(shader).layout(&self.device, self.name, mask);
                self.layouts.insert((shader, mask), layout);
            }
        }
    }

    /// Stages the current parameters for one draw of pass (`technique`, `index`) into `target`
    /// in `store`, makes its bind groups, and makes the pass's blocks and vertex shader the
    /// device's (as MonoGame's `EffectPass.Apply`). Every texture the pass samples must be set.
    fn stage(
        &mut self,
        store: &mut Uniforms,
        (technique, index): (usize, usize),
        target: &Target,
        params: &dyn EffectParams,
    ) -> Result<Staged, WgpuError> {
        let plan = self.plan(technique, index)?;
        for (stage, &shader) in plan.shaders.iter().enumerate() {
            for b in &self.texture_bindings[shader] {
                if self.textures[b.parameter].is_none() {
                    return Err(WgpuError::MissingTexture {
                        effect: self.name,
                        pass: plan.info.name,
                        stage: if stage == 0 { "vertex" } else { "pixel" },
                        texture: b.name,
                        slot: b.slot,
                    });
                }
            }
        }
        let uniforms = plan.shaders.map(|s| self.shader(s).uniform());
        let sprite = matches!(plan.vertex, VertexShader::Sprite).then(|| {
            self.sprite_transform
                .unwrap_or_else(|| default_transform(target.width, target.height, false))
        });
        let slot = store.stage(&self.device, self.largest, |stage, bytes| {
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
        self.bound_vertex = plan.vertex;
        let info = plan.info;
        self.states.take_pass_blocks(
            info.blend.as_ref(),
            info.depth_stencil.as_ref(),
            info.rasterizer.as_ref(),
        );
        self.make_layouts(&plan);
        let keys = plan
            .shaders
            .map(|s| (store.id(), s, slot.chunk, self.sampler_ids(s)));
        for key in &keys {
            self.bind_group(store, key, info.name)?;
        }
        Ok(Staged {
            plan,
            slot,
            keys,
            dynamic: uniforms.map(|u| u.is_some()),
        })
    }

    /// Stages one draw of pass (`technique`, `index`) into the effect's own store, to be drawn
    /// by the returned [`Applied`] and uploaded by [`flush`](Loaded::flush). Allocates nothing
    /// once the frame's chunks and bind groups exist.
    pub(crate) fn apply(
        &mut self,
        technique: usize,
        index: usize,
        target: &Target,
        params: &dyn EffectParams,
    ) -> Result<Applied<'_>, WgpuError> {
        let mut own = self.own.take().expect("put back after every apply");
        let staged = self.stage(&mut own, (technique, index), target, params);
        self.own = Some(own);
        let staged = staged?;
        let layouts = layouts_of(&self.layouts, &staged.plan);
        let groups = staged.keys.map(|k| &self.bind_groups[&k]);
        Ok(Applied {
            device: &self.device,
            resources: &self.resources,
            pipelines: &mut self.pipelines,
            layouts,
            target: *target,
            groups,
            staged,
        })
    }

    /// Stages one draw of pass (`technique`, `index`) into `store` and returns it ready to
    /// record with shared access once `store` is uploaded: its pipeline (for vertex buffers
    /// `buffers` drawn as `topology`, built if new), bind groups and offsets.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn prepare(
        &mut self,
        store: &mut Uniforms,
        (technique, index): (usize, usize),
        target: &Target,
        buffers: VertexBuffers,
        topology: wgpu::PrimitiveTopology,
        params: &dyn EffectParams,
    ) -> Result<PreparedDraw, WgpuError> {
        let staged = self.stage(store, (technique, index), target, params)?;
        let key = self.pipeline_key(&staged.plan, target, buffers, topology)?;
        let layouts = layouts_of(&self.layouts, &staged.plan);
        let pipeline = self
            .pipelines
            .get(&self.device, &self.resources, &key, layouts)?
            .clone();
        Ok(PreparedDraw::new(
            (self.name, staged.plan.info.name),
            pipeline,
            staged.keys.map(|k| self.bind_groups[&k].clone()),
            staged,
            &staged.plan.states,
            buffers,
            store.uploaded_flag().clone(),
        ))
    }

    /// Builds, if new, the pipeline pass (`technique`, `index`) would draw with now into
    /// `target` from `buffers` as `topology` (the device states and vertex shader bound now,
    /// the kinds of the textures set now), so that no draw waits for it.
    pub(crate) fn prepare_pipeline(
        &mut self,
        (technique, index): (usize, usize),
        target: &Target,
        buffers: VertexBuffers,
        topology: wgpu::PrimitiveTopology,
    ) -> Result<(), WgpuError> {
        let plan = self.plan(technique, index)?;
        self.make_layouts(&plan);
        let key = self.pipeline_key(&plan, target, buffers, topology)?;
        let layouts = layouts_of(&self.layouts, &plan);
        self.pipelines
            .get(&self.device, &self.resources, &key, layouts)?;
        Ok(())
    }

    /// The key of the pipeline `plan` draws with into `target` from `buffers` as `topology`.
    fn pipeline_key(
        &self,
        plan: &Plan,
        target: &Target,
        buffers: VertexBuffers,
        topology: wgpu::PrimitiveTopology,
    ) -> Result<PipelineKey, WgpuError> {
        pipeline_key(self.name, plan, target, buffers, topology)
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
    fn bind_group(
        &mut self,
        store: &Uniforms,
        key: &GroupKey,
        pass: &'static str,
    ) -> Result<(), WgpuError> {
        if self.bind_groups.contains_key(key) {
            return Ok(());
        }
        let &(_, shader, chunk, ids) = key;
        let layout = &self.layouts[&(shader, self.unfilterable[shader])];
        let s = self.shader(shader);
        let buffer = store.buffer(chunk);
        let mut entries = Vec::with_capacity(s.info.bindings.len());
        if s.uniform().is_some() {
            entries.push(wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer,
                    offset: 0,
                    size: wgpu::BufferSize::new(self.largest as u64),
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
        if let Some(own) = &mut self.own {
            own.write(queue);
        }
    }

    /// The effect's name and pass (`technique`, `index`)'s ("" for no such pass).
    pub(crate) fn names(&self, technique: usize, index: usize) -> (&'static str, &'static str) {
        let pass = self
            .resources
            .pass(technique, index)
            .map_or("", |p| p.info.name);
        (self.name, pass)
    }

    /// The MGFX effect it was made from.
    pub(crate) fn model(&self) -> &mgfx::Effect {
        &self.model
    }

    /// Takes on what `old` (the same effect, before a reload) was set to: its textures, device
    /// states and sprite transform. `Err` for a texture this one cannot sample.
    pub(crate) fn carry_over(&mut self, old: &Loaded) -> Result<(), WgpuError> {
        for (parameter, texture) in old.textures.iter().enumerate() {
            if texture.is_some() && parameter < self.textures.len() {
                self.set_texture(parameter, texture.as_ref())?;
            }
        }
        self.set_device_states(old.states)?;
        self.sprite_transform = old.sprite_transform;
        Ok(())
    }

    /// The device it was created on.
    pub(crate) fn device(&self) -> &wgpu::Device {
        &self.device
    }
}

/// The layouts of `plan`'s shaders in `layouts` (made by [`Loaded::make_layouts`]).
fn layouts_of<'a>(
    layouts: &'a HashMap<(usize, u32), wgpu::BindGroupLayout>,
    plan: &Plan,
) -> [&'a wgpu::BindGroupLayout; 2] {
    [0, 1].map(|i| &layouts[&(plan.shaders[i], plan.unfilterable[i])])
}

/// The key of the pipeline `plan` of effect `effect` draws with into `target` from `buffers` as
/// `topology`.
pub(crate) fn pipeline_key(
    effect: &'static str,
    plan: &Plan,
    target: &Target,
    buffers: VertexBuffers,
    topology: wgpu::PrimitiveTopology,
) -> Result<PipelineKey, WgpuError> {
    PipelineKey::new(
        (effect, plan.info.name),
        plan.technique,
        plan.pass,
        plan.vertex,
        plan.unfilterable,
        &plan.states,
        target,
        buffers,
        topology,
    )
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
