//! What an effect creates once on its device (shader modules, the effect's own samplers), the
//! bind-group layouts each shader takes for the textures bound, and the pipelines it builds
//! lazily, one per pass, target, vertex buffers, render states and layouts.

use std::collections::HashMap;

use super::data::{EffectData, ShaderData};
use super::layout::{VertexBuffers, MAX_VERTEX_BUFFERS};
use super::sampler::SamplerCache;
use super::target::MAX_COLOR_TARGETS;
use super::{link, sprite_vs, states, Target, WgpuError};
use crate::mgfx::{BlendState, DepthStencilState, RasterizerState};
use crate::wgsl::{BindingKind, Stage, WgslPass};

/// A shader on the device.
#[derive(Debug)]
pub(crate) struct Shader {
    pub(crate) info: ShaderData,
    pub(crate) module: wgpu::ShaderModule,
    /// Its sampler bindings.
    pub(crate) samplers: Vec<SamplerBinding>,
}

/// The most sampler bindings a shader has (D3D9's sixteen slots).
pub(crate) const MAX_SAMPLERS: usize = crate::SAMPLER_SLOTS;

/// A sampler binding of a shader.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SamplerBinding {
    pub(crate) binding: u32,
    /// The sampler slot, whose device state (`DeviceStates::samplers`) it takes without its own.
    pub(crate) slot: u32,
    /// The samplers of the effect's own state for it ([`SamplerCache::pair`] ids: as it is,
    /// and nearest for a texture that cannot be filtered).
    pub(crate) own: Option<[u16; 2]>,
}

impl Shader {
    pub(crate) fn new(
        device: &wgpu::Device,
        effect: &'static str,
        index: usize,
        info: ShaderData,
        cache: &mut SamplerCache,
    ) -> Result<Shader, WgpuError> {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(effect),
            source: wgpu::ShaderSource::Wgsl(info.wgsl.clone()),
        });
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(WgpuError::Shader {
                effect,
                shader: index,
                message: error.to_string(),
            });
        }
        let samplers = Shader::samplers(device, effect, &info, cache)?;
        Ok(Shader {
            info,
            module,
            samplers,
        })
    }

    /// Its bind-group layout when the textures of the sampler slots set in `unfilterable` cannot
    /// be filtered: those are unfilterable-float textures with non-filtering samplers, the rest
    /// filterable ones with filtering samplers. A layout follows the textures bound, as a
    /// D3D11 device samples each format as it can.
    pub(crate) fn layout(
        &self,
        device: &wgpu::Device,
        effect: &'static str,
        unfilterable: u32,
    ) -> wgpu::BindGroupLayout {
        let visibility = match self.info.stage {
            Stage::Vertex => wgpu::ShaderStages::VERTEX,
            Stage::Pixel => wgpu::ShaderStages::FRAGMENT,
        };
        let mut entries = Vec::with_capacity(self.info.bindings.len());
        for binding in self.info.bindings.iter() {
            let ty = match binding.kind {
                BindingKind::Uniform { size, .. } => wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: wgpu::BufferSize::new(u64::from(size)),
                },
                BindingKind::Texture { dimension, slot } => wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float {
                        filterable: !slot_bit(unfilterable, slot),
                    },
                    view_dimension: view_dimension(dimension),
                    multisampled: false,
                },
                BindingKind::Sampler { slot, .. } => {
                    wgpu::BindingType::Sampler(if slot_bit(unfilterable, slot) {
                        wgpu::SamplerBindingType::NonFiltering
                    } else {
                        wgpu::SamplerBindingType::Filtering
                    })
                }
            };
            entries.push(wgpu::BindGroupLayoutEntry {
                binding: binding.binding,
                visibility,
                ty,
                count: None,
            });
        }
        device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(effect),
            entries: &entries,
        })
    }

    /// Its sampler bindings, with a sampler for each state the effect gives.
    fn samplers(
        device: &wgpu::Device,
        effect: &'static str,
        info: &ShaderData,
        cache: &mut SamplerCache,
    ) -> Result<Vec<SamplerBinding>, WgpuError> {
        let mut samplers = Vec::new();
        for binding in info.bindings.iter() {
            if let BindingKind::Sampler { slot, state } = binding.kind {
                let own =
                    match state {
                        Some(state) => Some(cache.pair(device, &state).map_err(|message| {
                            WgpuError::Sampler {
                                effect,
                                texture: binding.name,
                                message,
                            }
                        })?),
                        None => None,
                    };
                samplers.push(SamplerBinding {
                    binding: binding.binding,
                    slot,
                    own,
                });
            }
        }
        if samplers.len() > MAX_SAMPLERS {
            return Err(WgpuError::ParamsLayout {
                effect,
                what: format!(
                    "a shader has {} samplers, D3D9 allows {MAX_SAMPLERS}",
                    samplers.len()
                ),
            });
        }
        Ok(samplers)
    }

    /// Its uniform binding: `(record, size)`.
    pub(crate) fn uniform(&self) -> Option<(usize, u32)> {
        self.info.bindings.iter().find_map(|b| match b.kind {
            BindingKind::Uniform { record, size } => Some((record, size)),
            _ => None,
        })
    }
}

pub(crate) use super::monogame_states::view_dimension;

/// Whether `mask` has the bit of sampler slot `slot` (slots past 31 share bit 31; D3D9 has 16).
pub(crate) fn slot_bit(mask: u32, slot: u32) -> bool {
    mask & (1 << slot.min(31)) != 0
}

/// Which shader runs as a pass's vertex shader: its own, or for a pass without one the vertex
/// shader of the last pass of the effect applied before it (MonoGame draws a pixel-only pass
/// with the vertex shader bound), else SpriteBatch's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum VertexShader {
    /// One of the effect's.
    Effect(usize),
    /// SpriteBatch's ([`sprite_vs`]), for a pixel-only pass applied with nothing else bound.
    Sprite,
}

/// One pass on the device.
#[derive(Debug)]
pub(crate) struct PassShaders {
    pub(crate) info: WgslPass,
    /// Its own vertex shader; `None`: the one bound when it is applied.
    pub(crate) vertex: Option<usize>,
    pub(crate) pixel: usize,
}

/// Everything of an effect that does not change after it loads.
#[derive(Debug)]
pub(crate) struct Resources {
    pub(crate) name: &'static str,
    pub(crate) shaders: Vec<Shader>,
    pub(crate) sprite: Shader,
    /// By technique, then pass; `Err` keeps why a pass cannot be drawn, for when it is asked.
    pub(crate) passes: Vec<Vec<Result<PassShaders, &'static str>>>,
}

impl Resources {
    pub(crate) fn new(
        device: &wgpu::Device,
        name: &'static str,
        data: EffectData,
        cache: &mut SamplerCache,
    ) -> Result<Resources, WgpuError> {
        let shaders = data
            .shaders
            .into_iter()
            .enumerate()
            .map(|(i, s)| Shader::new(device, name, i, s, cache))
            .collect::<Result<Vec<_>, _>>()?;
        let sprite = Shader::new(
            device,
            "SpriteBatch's vertex shader",
            0,
            ShaderData::from_static(&sprite_vs::SHADER),
            cache,
        )?;
        let mut passes = Vec::with_capacity(data.techniques.len());
        for technique in data.techniques {
            let mut list = Vec::with_capacity(technique.len());
            for pass in technique {
                let Some(pixel) = pass.pixel.filter(|&p| p < shaders.len()) else {
                    list.push(Err(pass.name));
                    continue;
                };
                list.push(Ok(PassShaders {
                    info: pass,
                    vertex: pass.vertex.filter(|&v| v < shaders.len()),
                    pixel,
                }));
            }
            passes.push(list);
        }
        Ok(Resources {
            name,
            shaders,
            sprite,
            passes,
        })
    }

    pub(crate) fn vertex_shader(&self, v: VertexShader) -> &Shader {
        match v {
            VertexShader::Effect(i) => &self.shaders[i],
            VertexShader::Sprite => &self.sprite,
        }
    }

    /// The name of the first pass that runs shader `shader` ("" for none).
    pub(crate) fn pass_of_shader(&self, shader: usize) -> &'static str {
        self.passes
            .iter()
            .flatten()
            .flatten()
            .find(|p| p.pixel == shader || p.vertex == Some(shader))
            .map_or("", |p| p.info.name)
    }

    /// How errors name vertex shader `v` bound for pass `pass`, which has none of its own.
    pub(crate) fn bound_vertex_name(&self, v: VertexShader) -> String {
        match v {
            VertexShader::Sprite => "SpriteBatch's vertex shader (bound while no pass of the \
                                     effect with a vertex shader was applied)"
                .to_string(),
            VertexShader::Effect(i) => {
                let from = self
                    .passes
                    .iter()
                    .flatten()
                    .flatten()
                    .find(|p| p.vertex == Some(i))
                    .map_or("", |p| p.info.name);
                format!("vertex shader {i} of {}, from pass '{from}'", self.name)
            }
        }
    }

    pub(crate) fn pass(&self, technique: usize, pass: usize) -> Result<&PassShaders, WgpuError> {
        match self.passes.get(technique).and_then(|t| t.get(pass)) {
            Some(Ok(p)) => Ok(p),
            Some(Err(name)) => Err(WgpuError::MissingPixelShader {
                effect: self.name,
                pass: name,
            }),
            None => Err(WgpuError::NoSuchPass {
                effect: self.name,
                technique,
                pass,
            }),
        }
    }
}

/// The render states a pipeline bakes: the pass's blocks over the device's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RenderStates {
    pub(crate) blend: BlendState,
    pub(crate) depth_stencil: DepthStencilState,
    pub(crate) rasterizer: RasterizerState,
}

/// What a pipeline is built for: the pass, and the wgpu state its render states, target and
/// vertex buffers come to (so states that differ only where wgpu cannot see it, such as the
/// blend factor or the stencil reference, share a pipeline).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PipelineKey {
    pub(crate) technique: usize,
    pub(crate) pass: usize,
    /// The vertex shader it draws with (a pixel-only pass's depends on what was bound).
    pub(crate) vertex: VertexShader,
    /// The unfilterable sampler slots of the vertex and pixel shaders' layouts
    /// ([`Shader::layout`]).
    pub(crate) unfilterable: [u32; 2],
    pub(crate) targets: [Option<wgpu::ColorTargetState>; MAX_COLOR_TARGETS],
    pub(crate) depth_stencil: Option<wgpu::DepthStencilState>,
    pub(crate) primitive: wgpu::PrimitiveState,
    pub(crate) samples: u32,
    pub(crate) buffers: VertexBuffers,
}

impl PipelineKey {
    /// The key of pass (`technique`, `pass`), named `(effect, name)` in errors, drawn with
    /// `states` into `target` from `buffers` as `topology`. Blending follows MonoGame with
    /// `IndependentBlendEnable` false (an MGFX blend state has no per-target factors): every
    /// target takes target 0's blend and write channels, as both of its runtimes apply them.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        (effect, name): (&'static str, &'static str),
        technique: usize,
        pass: usize,
        vertex: VertexShader,
        unfilterable: [u32; 2],
        states: &RenderStates,
        target: &Target,
        buffers: VertexBuffers,
        topology: wgpu::PrimitiveTopology,
    ) -> Result<PipelineKey, WgpuError> {
        let mut targets: [Option<wgpu::ColorTargetState>; MAX_COLOR_TARGETS] = Default::default();
        for (to, format) in targets.iter_mut().zip(target.colors) {
            if let Some(format) = format {
                *to = Some(
                    states::color_target(Some(&states.blend), format).map_err(|()| {
                        WgpuError::NotBlendable {
                            effect,
                            pass: name,
                            format,
                        }
                    })?,
                );
            }
        }
        Ok(PipelineKey {
            technique,
            pass,
            vertex,
            unfilterable,
            targets,
            depth_stencil: states::depth_stencil(
                Some(&states.depth_stencil),
                Some(&states.rasterizer),
                target.depth,
                topology,
            ),
            primitive: states::primitive(Some(&states.rasterizer), topology),
            samples: target.sample_count,
            buffers,
        })
    }
}

/// The pipelines built so far.
#[derive(Debug, Default)]
pub(crate) struct Pipelines {
    built: HashMap<PipelineKey, wgpu::RenderPipeline>,
    attributes: [Vec<wgpu::VertexAttribute>; MAX_VERTEX_BUFFERS],
    links: link::Links,
}

impl Pipelines {
    /// The pipeline for `key`, built the first time it is asked for with the vertex and pixel
    /// shaders' bind-group `layouts` for its `unfilterable` slots.
    pub(crate) fn get(
        &mut self,
        device: &wgpu::Device,
        resources: &Resources,
        key: &PipelineKey,
        layouts: [&wgpu::BindGroupLayout; 2],
    ) -> Result<&wgpu::RenderPipeline, WgpuError> {
        if !self.built.contains_key(key) {
            let pipeline = self.build(device, resources, key, layouts)?;
            self.built.insert(key.clone(), pipeline);
        }
        Ok(&self.built[key])
    }

    /// How many pipelines have been built.
    pub(crate) fn len(&self) -> usize {
        self.built.len()
    }

    fn build(
        &mut self,
        device: &wgpu::Device,
        resources: &Resources,
        key: &PipelineKey,
        [vs_layout, ps_layout]: [&wgpu::BindGroupLayout; 2],
    ) -> Result<wgpu::RenderPipeline, WgpuError> {
        let effect = resources.name;
        let pass = resources.pass(key.technique, key.pass)?;
        let name = pass.info.name;
        let vs = resources.vertex_shader(key.vertex);
        let ps = &resources.shaders[pass.pixel];
        link::check_limits(
            &device.limits(),
            effect,
            name,
            &vs.info,
            key.primitive.topology,
        )?;
        key.buffers
            .attributes(&vs.info.vertex_inputs, &mut self.attributes)
            .map_err(|(usage, index)| WgpuError::MissingVertexElement {
                effect,
                pass: name,
                usage,
                index,
            })?;
        let buffers: Vec<Option<wgpu::VertexBufferLayout<'_>>> = key
            .buffers
            .slots
            .iter()
            .zip(&self.attributes)
            .map(|(slot, attributes)| {
                slot.map(|(layout, step_mode)| wgpu::VertexBufferLayout {
                    array_stride: u64::from(layout.stride),
                    step_mode,
                    attributes,
                })
            })
            .collect();
        // Trailing empty slots are left out, so a device with fewer vertex buffers than the
        // runtime's maximum takes every draw that fits it.
        let used = buffers
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |i| i + 1);
        let targets = match key.targets.iter().rposition(Option::is_some) {
            Some(last) => &key.targets[..=last],
            None => &key.targets[..0],
        };
        let ps_module = self
            .links
            .pixel_module(device, resources, pass, key.vertex)?;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(name),
            bind_group_layouts: &[Some(vs_layout), Some(ps_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(name),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &vs.module,
                entry_point: Some(vs.info.entry),
                compilation_options: Default::default(),
                buffers: &buffers[..used],
            },
            primitive: key.primitive,
            depth_stencil: key.depth_stencil.clone(),
            multisample: wgpu::MultisampleState {
                count: key.samples,
                mask: states::SAMPLE_MASK,
                alpha_to_coverage_enabled: false,
            },
            fragment: Some(wgpu::FragmentState {
                module: ps_module,
                entry_point: Some(ps.info.entry),
                compilation_options: Default::default(),
                targets,
            }),
            multiview_mask: None,
            cache: None,
        });
        match pollster::block_on(scope.pop()) {
            Some(error) => Err(WgpuError::Pipeline {
                effect,
                pass: name,
                message: error.to_string(),
            }),
            None => Ok(pipeline),
        }
    }
}
