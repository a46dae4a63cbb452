//! What an effect creates once on its device (shader modules, bind-group layouts, samplers,
//! pipeline layouts) and the pipelines it builds lazily, one per pass, target and vertex layout.

use std::collections::HashMap;

use super::layout::VertexLayout;
use super::{link, sampler, sprite_vs, states, DeviceStates, Target, WgpuError};
use crate::wgsl::{BindingKind, Stage, TextureDimension, WgslEffect, WgslPass, WgslShader};

/// A shader on the device.
#[derive(Debug)]
pub(crate) struct Shader {
    pub(crate) info: &'static WgslShader,
    pub(crate) module: wgpu::ShaderModule,
    pub(crate) layout: wgpu::BindGroupLayout,
    /// `(binding, sampler)` for each sampler binding.
    pub(crate) samplers: Vec<(u32, wgpu::Sampler)>,
}

impl Shader {
    pub(crate) fn new(
        device: &wgpu::Device,
        effect: &'static str,
        index: usize,
        info: &'static WgslShader,
        defaults: &DeviceStates,
    ) -> Result<Shader, WgpuError> {
        let visibility = match info.stage {
            Stage::Vertex => wgpu::ShaderStages::VERTEX,
            Stage::Pixel => wgpu::ShaderStages::FRAGMENT,
        };
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(effect),
            source: wgpu::ShaderSource::Wgsl(info.wgsl.into()),
        });
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(WgpuError::Shader {
                effect,
                shader: index,
                message: error.to_string(),
            });
        }
        let mut entries = Vec::with_capacity(info.bindings.len());
        for binding in info.bindings {
            let ty = match binding.kind {
                BindingKind::Uniform { size, .. } => wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: wgpu::BufferSize::new(u64::from(size)),
                },
                BindingKind::Texture { dimension, .. } => wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: view_dimension(dimension),
                    multisampled: false,
                },
                BindingKind::Sampler { .. } => {
                    wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering)
                }
            };
            entries.push(wgpu::BindGroupLayoutEntry {
                binding: binding.binding,
                visibility,
                ty,
                count: None,
            });
        }
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(effect),
            entries: &entries,
        });
        let samplers = Shader::samplers(device, effect, info, defaults)?;
        Ok(Shader {
            info,
            module,
            layout,
            samplers,
        })
    }

    /// Its samplers: each binding's state from the effect, else the device's.
    pub(crate) fn samplers(
        device: &wgpu::Device,
        effect: &'static str,
        info: &'static WgslShader,
        defaults: &DeviceStates,
    ) -> Result<Vec<(u32, wgpu::Sampler)>, WgpuError> {
        let mut samplers = Vec::new();
        for binding in info.bindings {
            if let BindingKind::Sampler { state, .. } = binding.kind {
                let state = state.as_ref().unwrap_or(&defaults.sampler);
                let desc =
                    sampler::descriptor(Some(state), device.features()).map_err(|message| {
                        WgpuError::Sampler {
                            effect,
                            texture: binding.name,
                            message,
                        }
                    })?;
                samplers.push((binding.binding, device.create_sampler(&desc)));
            }
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

pub(crate) fn view_dimension(d: TextureDimension) -> wgpu::TextureViewDimension {
    match d {
        TextureDimension::D1 => wgpu::TextureViewDimension::D1,
        TextureDimension::D2 => wgpu::TextureViewDimension::D2,
        TextureDimension::D3 => wgpu::TextureViewDimension::D3,
        TextureDimension::Cube => wgpu::TextureViewDimension::Cube,
    }
}

/// Which shader runs as a pass's vertex shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum VertexShader {
    /// One of the effect's.
    Effect(usize),
    /// SpriteBatch's ([`sprite_vs`]), for a pixel-only pass.
    Sprite,
}

/// One pass on the device.
#[derive(Debug)]
pub(crate) struct PassShaders {
    pub(crate) info: &'static WgslPass,
    pub(crate) vertex: VertexShader,
    pub(crate) pixel: usize,
    pub(crate) layout: wgpu::PipelineLayout,
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
        data: &'static WgslEffect,
        defaults: &DeviceStates,
    ) -> Result<Resources, WgpuError> {
        let shaders = data
            .shaders
            .iter()
            .enumerate()
            .map(|(i, s)| Shader::new(device, name, i, s, defaults))
            .collect::<Result<Vec<_>, _>>()?;
        let sprite = Shader::new(
            device,
            "SpriteBatch's vertex shader",
            0,
            &sprite_vs::SHADER,
            defaults,
        )?;
        let mut passes = Vec::with_capacity(data.techniques.len());
        for technique in data.techniques {
            let mut list = Vec::with_capacity(technique.len());
            for pass in technique.iter() {
                let Some(pixel) = pass.pixel.filter(|&p| p < shaders.len()) else {
                    list.push(Err(pass.name));
                    continue;
                };
                let vertex = match pass.vertex.filter(|&v| v < shaders.len()) {
                    Some(v) => VertexShader::Effect(v),
                    None => VertexShader::Sprite,
                };
                let vs = match vertex {
                    VertexShader::Effect(v) => &shaders[v],
                    VertexShader::Sprite => &sprite,
                };
                let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some(name),
                    bind_group_layouts: &[Some(&vs.layout), Some(&shaders[pixel].layout)],
                    immediate_size: 0,
                });
                list.push(Ok(PassShaders {
                    info: pass,
                    vertex,
                    pixel,
                    layout,
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

    /// Makes every sampler again for new device states (failing, it changes nothing).
    pub(crate) fn set_samplers(
        &mut self,
        device: &wgpu::Device,
        defaults: &DeviceStates,
    ) -> Result<(), WgpuError> {
        let mut all = Vec::with_capacity(self.shaders.len());
        for shader in &self.shaders {
            all.push(Shader::samplers(device, self.name, shader.info, defaults)?);
        }
        for (shader, samplers) in self.shaders.iter_mut().zip(all) {
            shader.samplers = samplers;
        }
        Ok(())
    }

    pub(crate) fn vertex_shader(&self, v: VertexShader) -> &Shader {
        match v {
            VertexShader::Effect(i) => &self.shaders[i],
            VertexShader::Sprite => &self.sprite,
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

/// What a pipeline is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PipelineKey {
    pub(crate) technique: usize,
    pub(crate) pass: usize,
    pub(crate) color: wgpu::TextureFormat,
    pub(crate) depth: Option<wgpu::TextureFormat>,
    pub(crate) samples: u32,
    pub(crate) layout: VertexLayout,
    pub(crate) topology: wgpu::PrimitiveTopology,
}

impl PipelineKey {
    pub(crate) fn new(
        technique: usize,
        pass: usize,
        target: &Target,
        layout: VertexLayout,
        topology: wgpu::PrimitiveTopology,
    ) -> PipelineKey {
        PipelineKey {
            technique,
            pass,
            color: target.color,
            depth: target.depth,
            samples: target.sample_count,
            layout,
            topology,
        }
    }
}

/// The pipelines built so far.
#[derive(Debug, Default)]
pub(crate) struct Pipelines {
    built: HashMap<PipelineKey, wgpu::RenderPipeline>,
    attributes: Vec<wgpu::VertexAttribute>,
    links: link::Links,
}

impl Pipelines {
    /// The pipeline for `key`, built the first time it is asked for.
    pub(crate) fn get(
        &mut self,
        device: &wgpu::Device,
        resources: &Resources,
        defaults: &DeviceStates,
        key: PipelineKey,
    ) -> Result<&wgpu::RenderPipeline, WgpuError> {
        if !self.built.contains_key(&key) {
            let pipeline = self.build(device, resources, defaults, key)?;
            self.built.insert(key, pipeline);
        }
        Ok(&self.built[&key])
    }

    /// Forgets every pipeline (the device states changed).
    pub(crate) fn clear(&mut self) {
        self.built.clear();
    }

    fn build(
        &mut self,
        device: &wgpu::Device,
        resources: &Resources,
        defaults: &DeviceStates,
        key: PipelineKey,
    ) -> Result<wgpu::RenderPipeline, WgpuError> {
        let effect = resources.name;
        let pass = resources.pass(key.technique, key.pass)?;
        let name = pass.info.name;
        let vs = resources.vertex_shader(pass.vertex);
        let ps = &resources.shaders[pass.pixel];
        link::check_limits(&device.limits(), effect, name, vs.info, key.topology)?;
        key.layout
            .attributes(vs.info.vertex_inputs, &mut self.attributes)
            .map_err(|(usage, index)| WgpuError::MissingVertexElement {
                effect,
                pass: name,
                usage,
                index,
            })?;
        let ps_module = self.links.pixel_module(device, resources, pass)?;
        let blend = pass.info.blend.as_ref().unwrap_or(&defaults.blend);
        let rasterizer = Some(
            pass.info
                .rasterizer
                .as_ref()
                .unwrap_or(&defaults.rasterizer),
        );
        let depth_stencil = pass
            .info
            .depth_stencil
            .as_ref()
            .unwrap_or(&defaults.depth_stencil);
        let color =
            states::color_target(Some(blend), key.color).map_err(|()| WgpuError::NotBlendable {
                effect,
                pass: name,
                format: key.color,
            })?;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(name),
            layout: Some(&pass.layout),
            vertex: wgpu::VertexState {
                module: &vs.module,
                entry_point: Some(vs.info.entry),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: u64::from(key.layout.stride),
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &self.attributes,
                })],
            },
            primitive: states::primitive(rasterizer, key.topology),
            depth_stencil: states::depth_stencil(
                Some(depth_stencil),
                rasterizer,
                key.depth,
                key.topology,
            ),
            multisample: wgpu::MultisampleState {
                count: key.samples,
                mask: states::sample_mask(Some(blend)),
                alpha_to_coverage_enabled: false,
            },
            fragment: Some(wgpu::FragmentState {
                module: ps_module,
                entry_point: Some(ps.info.entry),
                compilation_options: Default::default(),
                targets: &[Some(color)],
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
