//! The compiler's wgpu output (`Compiled::wgpu`, owned strings) as the
//! `&'static shadowdusk::wgsl::WgslEffect` the wgpu runtime loads, built the way
//! `shadowdusk-compiler`'s `codegen/wgpu.rs` writes the generated `wgpu::EFFECT`: the uniform
//! binding names the shader's one constant-buffer record, a sampler binding carries the state
//! the MGFX sampler record of its slot bakes, and passes carry their MGFX states.
//!
//! The strings and tables are leaked: a test loads a handful of effects and the runtime wants
//! `'static` data, as `include_effect!` gives it.

use shadowdusk::mgfx::{Effect, VertexElementUsage};
use shadowdusk::wgsl::{
    Binding, BindingKind, Stage, TextureDimension, Varying, VertexFormat, VertexInput, WgslEffect,
    WgslPass, WgslShader,
};
use shadowdusk_compiler::wgsl::{WgpuBindingKind, WgpuEffect, WgpuShader};

fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

/// MonoGame's usage of a D3D usage name (`TEXCOORD` → `TextureCoordinate`).
fn usage(name: &str) -> Option<VertexElementUsage> {
    use VertexElementUsage as U;
    Some(match name {
        "POSITION" => U::Position,
        "COLOR" => U::Color,
        "TEXCOORD" => U::TextureCoordinate,
        "NORMAL" => U::Normal,
        "BINORMAL" => U::Binormal,
        "TANGENT" => U::Tangent,
        "BLENDINDICES" => U::BlendIndices,
        "BLENDWEIGHT" => U::BlendWeight,
        "DEPTH" => U::Depth,
        "FOG" => U::Fog,
        "PSIZE" => U::PointSize,
        "SAMPLE" => U::Sample,
        "TESSFACTOR" => U::TessellateFactor,
        _ => return None,
    })
}

fn vertex_format(name: &str) -> Option<VertexFormat> {
    use VertexFormat as F;
    Some(match name {
        "Float32" => F::Float32,
        "Float32x2" => F::Float32x2,
        "Float32x3" => F::Float32x3,
        "Float32x4" => F::Float32x4,
        "Sint32" => F::Sint32,
        "Sint32x2" => F::Sint32x2,
        "Sint32x3" => F::Sint32x3,
        "Sint32x4" => F::Sint32x4,
        "Uint32" => F::Uint32,
        "Uint32x2" => F::Uint32x2,
        "Uint32x3" => F::Uint32x3,
        "Uint32x4" => F::Uint32x4,
        _ => return None,
    })
}

fn shader(w: &WgpuShader, m: &shadowdusk::mgfx::Shader) -> Result<WgslShader, String> {
    let stage = match w.stage.as_str() {
        "vertex" => Stage::Vertex,
        "pixel" => Stage::Pixel,
        other => return Err(format!("a wgpu shader of stage `{other}`")),
    };
    let mut bindings = Vec::new();
    for b in &w.bindings {
        let slot = b.slot.unwrap_or(0);
        let kind = match &b.kind {
            WgpuBindingKind::Uniform { size } => match m.cbuffers.as_slice() {
                [r] => BindingKind::Uniform {
                    record: usize::from(*r),
                    size: *size,
                },
                other => {
                    return Err(format!(
                        "a shader with uniforms reads {} constant-buffer records, not one",
                        other.len()
                    ))
                }
            },
            WgpuBindingKind::Texture { dimension } => BindingKind::Texture {
                slot,
                dimension: match dimension.as_str() {
                    "1d" => TextureDimension::D1,
                    "2d" => TextureDimension::D2,
                    "3d" => TextureDimension::D3,
                    "cube" => TextureDimension::Cube,
                    other => return Err(format!("texture `{}` of dimension `{other}`", b.name)),
                },
            },
            WgpuBindingKind::Sampler => BindingKind::Sampler {
                slot,
                state: m
                    .samplers
                    .iter()
                    .find(|s| u32::from(s.sampler_slot) == slot)
                    .and_then(|s| s.state),
            },
        };
        bindings.push(Binding {
            binding: b.binding,
            name: leak_str(&b.name),
            kind,
        });
    }
    let mut inputs = Vec::new();
    for v in &w.vertex_inputs {
        inputs.push(VertexInput {
            usage: usage(&v.usage).ok_or_else(|| format!("vertex input usage `{}`", v.usage))?,
            index: v.index,
            location: v.location,
            format: vertex_format(&v.format)
                .ok_or_else(|| format!("vertex input format `{}`", v.format))?,
        });
    }
    let varyings = w
        .varyings
        .iter()
        .map(|v| Varying {
            semantic: leak_str(&v.semantic),
            location: v.location,
            flat: v.flat,
            location_at: v.location_at,
        })
        .collect();
    Ok(WgslShader {
        stage,
        wgsl: leak_str(&w.wgsl),
        entry: leak_str(&w.entry),
        bindings: leak(bindings),
        vertex_inputs: leak(inputs),
        varyings: leak(varyings),
    })
}

/// `wgpu` (the compile's wgpu translation of `effect`) as static data, leaked.
pub fn leak_effect(effect: &Effect, wgpu: &WgpuEffect) -> Result<&'static WgslEffect, String> {
    if wgpu.shaders.len() != effect.shaders.len() {
        return Err(format!(
            "the wgpu output has {} shaders, the effect {}",
            wgpu.shaders.len(),
            effect.shaders.len()
        ));
    }
    let shaders = wgpu
        .shaders
        .iter()
        .zip(&effect.shaders)
        .map(|(w, m)| shader(w, m))
        .collect::<Result<Vec<_>, _>>()?;
    let index = |i: i32| usize::try_from(i).ok();
    let techniques = effect
        .techniques
        .iter()
        .map(|t| {
            leak(
                t.passes
                    .iter()
                    .map(|p| WgslPass {
                        name: leak_str(&p.name),
                        vertex: index(p.vertex_shader),
                        pixel: index(p.pixel_shader),
                        blend: p.blend,
                        depth_stencil: p.depth_stencil,
                        rasterizer: p.rasterizer,
                    })
                    .collect(),
            )
        })
        .collect();
    Ok(Box::leak(Box::new(WgslEffect {
        shaders: leak(shaders),
        techniques: leak(techniques),
    })))
}
