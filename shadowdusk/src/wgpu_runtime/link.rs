//! Linking a pass by semantic. Each shader numbers its varyings in one canonical order from
//! what it declares (a pixel shader only what it reads), so a pixel shader's input locations
//! need not be its vertex shader's. Where they differ, the pixel shader's WGSL is copied with
//! each input's location number replaced by the vertex shader's for the same semantic, at the
//! offset the compiler recorded (`Varying::location_at`); no WGSL is parsed here. The copy is
//! made once per (pixel shader, vertex shader) and kept.
//!
//! The device's own limits are the only refusal: `max_vertex_attributes` for the vertex
//! shader's inputs and `max_inter_stage_shader_variables` for its outputs, checked here so the
//! error names the semantic past the limit.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use super::data::ShaderData;
use super::pipeline::{PassShaders, Resources, VertexShader};
use super::WgpuError;

/// The relocated pixel shaders made so far; `None`: the pixel shader's own numbering fits.
#[derive(Debug, Default)]
pub(crate) struct Links {
    modules: HashMap<(usize, VertexShader), Option<wgpu::ShaderModule>>,
}

impl Links {
    /// The pixel shader module of `pass` drawn with `vertex` (its own vertex shader, or the one
    /// bound for a pass without), its inputs where that vertex shader writes them.
    pub(crate) fn pixel_module<'a>(
        &'a mut self,
        device: &wgpu::Device,
        resources: &'a Resources,
        pass: &PassShaders,
        vertex: VertexShader,
    ) -> Result<&'a wgpu::ShaderModule, WgpuError> {
        let key = (pass.pixel, vertex);
        let ps = &resources.shaders[pass.pixel];
        let module = match self.modules.entry(key) {
            Entry::Occupied(made) => made.into_mut(),
            Entry::Vacant(slot) => {
                let vs = resources.vertex_shader(vertex);
                let text = relocate(&vs.info, &ps.info).map_err(|failure| match failure {
                    Failure::Missing(semantic) if pass.vertex.is_none() => {
                        WgpuError::BoundVertexVarying {
                            effect: resources.name,
                            pass: pass.info.name,
                            vertex: resources.bound_vertex_name(vertex),
                            semantic,
                        }
                    }
                    Failure::Missing(semantic) => WgpuError::MissingVarying {
                        effect: resources.name,
                        pass: pass.info.name,
                        semantic,
                    },
                    Failure::Unmarked(semantic) => WgpuError::Pipeline {
                        effect: resources.name,
                        pass: pass.info.name,
                        message: format!(
                            "the pixel shader's input {semantic} has no recorded location in \
                             its WGSL (an effect built by another ShadowDusk version?)"
                        ),
                    },
                })?;
                let module = match text {
                    None => None,
                    Some(text) => Some(create_module(device, resources.name, pass.pixel, text)?),
                };
                slot.insert(module)
            }
        };
        Ok(match module {
            Some(module) => module,
            None => &ps.module,
        })
    }
}

/// A shader module of `text`, inside a validation error scope.
fn create_module(
    device: &wgpu::Device,
    effect: &'static str,
    shader: usize,
    text: String,
) -> Result<wgpu::ShaderModule, WgpuError> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(effect),
        source: wgpu::ShaderSource::Wgsl(text.into()),
    });
    match pollster::block_on(scope.pop()) {
        Some(error) => Err(WgpuError::Shader {
            effect,
            shader,
            message: error.to_string(),
        }),
        None => Ok(module),
    }
}

/// Why a pixel shader cannot take a vertex shader's numbering.
pub(crate) use crate::wgsl::Unlinked as Failure;

/// `ps`'s WGSL with each input at the location `vs` writes its semantic to; `None` when every
/// input is there already.
pub(crate) fn relocate(vs: &ShaderData, ps: &ShaderData) -> Result<Option<String>, Failure> {
    crate::wgsl::relocate(&ps.wgsl, &ps.varyings, &vs.varyings)
}

/// The device's limits against `vs`'s inputs and outputs (a point list takes one inter-stage
/// variable, as WebGPU counts).
pub(crate) fn check_limits(
    limits: &wgpu::Limits,
    effect: &'static str,
    pass: &'static str,
    vs: &ShaderData,
    topology: wgpu::PrimitiveTopology,
) -> Result<(), WgpuError> {
    let inputs = vs.vertex_inputs.len();
    let attributes = limits.max_vertex_attributes as usize;
    if let Some(past) = vs.vertex_inputs.get(attributes) {
        return Err(WgpuError::DeviceLimit {
            effect,
            pass,
            semantic: format!("{:?}{}", past.usage, past.index),
            limit: "max_vertex_attributes",
            value: limits.max_vertex_attributes,
            count: inputs as u32,
        });
    }
    let points = u32::from(topology == wgpu::PrimitiveTopology::PointList);
    let variables = limits
        .max_inter_stage_shader_variables
        .saturating_sub(points) as usize;
    if let Some(past) = vs.varyings.get(variables) {
        return Err(WgpuError::DeviceLimit {
            effect,
            pass,
            semantic: past.semantic.to_string(),
            limit: "max_inter_stage_shader_variables",
            value: variables as u32,
            count: vs.varyings.len() as u32,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wgsl::{Stage, Varying};

    fn varying(semantic: &'static str, location: u32, location_at: Option<u32>) -> Varying {
        Varying {
            semantic,
            location,
            flat: false,
            location_at,
        }
    }

    fn shader(stage: Stage, wgsl: &'static str, varyings: &'static [Varying]) -> ShaderData {
        use std::borrow::Cow;
        ShaderData {
            stage,
            wgsl: Cow::Borrowed(wgsl),
            entry: "main",
            bindings: Cow::Borrowed(&[]),
            vertex_inputs: Cow::Borrowed(&[]),
            varyings: Cow::Borrowed(varyings),
        }
    }

    const PS: &str = "fn main(@location(0) a: vec4<f32>, @location(1) b: vec4<f32>) {}";

    #[test]
    fn inputs_move_to_the_vertex_shaders_locations() {
        static IN: [Varying; 2] = [
            Varying {
                semantic: "COLOR0",
                location: 0,
                flat: false,
                location_at: Some(18),
            },
            Varying {
                semantic: "TEXCOORD11",
                location: 1,
                flat: false,
                location_at: Some(45),
            },
        ];
        assert_eq!(&PS[18..19], "0");
        assert_eq!(&PS[45..46], "1");
        let ps = shader(Stage::Pixel, PS, &IN);
        static OUT: [Varying; 3] = [
            Varying {
                semantic: "COLOR0",
                location: 0,
                flat: false,
                location_at: None,
            },
            Varying {
                semantic: "TEXCOORD0",
                location: 1,
                flat: false,
                location_at: None,
            },
            Varying {
                semantic: "TEXCOORD11",
                location: 12,
                flat: false,
                location_at: None,
            },
        ];
        let vs = shader(Stage::Vertex, "", &OUT);
        assert_eq!(
            relocate(&vs, &ps).unwrap().as_deref(),
            Some("fn main(@location(0) a: vec4<f32>, @location(12) b: vec4<f32>) {}")
        );
        // The same numbering: the module as it is.
        assert_eq!(relocate(&ps_as_vs(&IN), &ps), Ok(None));
        // A semantic the vertex shader does not write.
        let only_color = shader(Stage::Vertex, "", &OUT[..1]);
        assert_eq!(
            relocate(&only_color, &ps),
            Err(Failure::Missing("TEXCOORD11"))
        );
        // An offset that does not point at the number.
        let wrong: &'static [Varying] = Box::leak(Box::new([varying("TEXCOORD11", 1, Some(3))]));
        let ps = shader(Stage::Pixel, PS, wrong);
        assert_eq!(relocate(&vs, &ps), Err(Failure::Unmarked("TEXCOORD11")));
    }

    fn ps_as_vs(v: &'static [Varying]) -> ShaderData {
        shader(Stage::Vertex, "", v)
    }

    #[test]
    fn the_device_limits_name_the_semantic_past_them() {
        let many: &'static [Varying] = Box::leak(
            (0..17)
                .map(|k| varying(Box::leak(format!("TEXCOORD{k}").into_boxed_str()), k, None))
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        );
        let vs = shader(Stage::Vertex, "", many);
        let limits = wgpu::Limits::defaults();
        let e = check_limits(
            &limits,
            "E",
            "P",
            &vs,
            wgpu::PrimitiveTopology::TriangleList,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("TEXCOORD16"), "{e}");
        assert!(e.contains("max_inter_stage_shader_variables"), "{e}");
        assert!(e.contains("17"), "{e}");
        // A point list takes one variable: 16 outputs no longer fit.
        let sixteen = shader(Stage::Vertex, "", &many[..16]);
        assert!(check_limits(
            &limits,
            "E",
            "P",
            &sixteen,
            wgpu::PrimitiveTopology::TriangleList
        )
        .is_ok());
        let e = check_limits(
            &limits,
            "E",
            "P",
            &sixteen,
            wgpu::PrimitiveTopology::PointList,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("TEXCOORD15"), "{e}");
    }
}
