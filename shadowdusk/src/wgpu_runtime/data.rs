//! What the runtime draws an effect from, owned by the loaded effect: the generated tables
//! (`E::WGPU`, borrowed as they are), or the compiler's wgpu output with its MGFX model, turned
//! into the same at run time (a `/Profile:Wgpu` file, a hot reload): the one conversion from the
//! compiler's output to the runtime's data.
//!
//! Names (of passes, textures, semantics, entry points) go into errors that outlive any one
//! effect, so a name read at run time is interned: each distinct name is kept once for the
//! process. Shader text and tables belong to the effect and go with it.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

use crate::mgfx::{self, VertexElementUsage};
use crate::wgsl::{
    Binding, BindingKind, Stage, TextureDimension, Varying, VertexFormat, VertexInput, WgslEffect,
    WgslPass, WgslShader,
};

/// One shader's data.
#[derive(Clone, Debug)]
pub(crate) struct ShaderData {
    pub(crate) stage: Stage,
    pub(crate) wgsl: Cow<'static, str>,
    pub(crate) entry: &'static str,
    pub(crate) bindings: Cow<'static, [Binding]>,
    pub(crate) vertex_inputs: Cow<'static, [VertexInput]>,
    pub(crate) varyings: Cow<'static, [Varying]>,
}

/// An effect's data: its shaders, in the MGFX effect's order, and its passes by technique.
#[derive(Clone, Debug)]
pub(crate) struct EffectData {
    pub(crate) shaders: Vec<ShaderData>,
    pub(crate) techniques: Vec<Vec<WgslPass>>,
}

impl ShaderData {
    /// The generated tables of a shader, borrowed.
    pub(crate) fn from_static(s: &'static WgslShader) -> ShaderData {
        ShaderData {
            stage: s.stage,
            wgsl: Cow::Borrowed(s.wgsl),
            entry: s.entry,
            bindings: Cow::Borrowed(s.bindings),
            vertex_inputs: Cow::Borrowed(s.vertex_inputs),
            varyings: Cow::Borrowed(s.varyings),
        }
    }

    /// The compiler's output `w` for MGFX shader `m`.
    fn from_output(w: &mgfx::wgpu::WgpuShader, m: &mgfx::Shader) -> Result<ShaderData, String> {
        let stage = match w.stage.as_str() {
            "vertex" => Stage::Vertex,
            "pixel" => Stage::Pixel,
            other => return Err(format!("a shader of stage `{other}`")),
        };
        let bindings = w
            .bindings
            .iter()
            .map(|b| binding(b, m))
            .collect::<Result<Vec<_>, _>>()?;
        let vertex_inputs = w
            .vertex_inputs
            .iter()
            .map(|v| {
                Ok(VertexInput {
                    usage: VertexElementUsage::from_d3d9(&v.usage)
                        .ok_or_else(|| format!("vertex input usage `{}`", v.usage))?,
                    index: v.index,
                    location: v.location,
                    format: vertex_format(&v.format)
                        .ok_or_else(|| format!("vertex input format `{}`", v.format))?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let varyings = w
            .varyings
            .iter()
            .map(|v| Varying {
                semantic: intern(&v.semantic),
                location: v.location,
                flat: v.flat,
                location_at: v.location_at,
            })
            .collect::<Vec<_>>();
        Ok(ShaderData {
            stage,
            wgsl: Cow::Owned(w.wgsl.clone()),
            entry: intern(&w.entry),
            bindings: Cow::Owned(bindings),
            vertex_inputs: Cow::Owned(vertex_inputs),
            varyings: Cow::Owned(varyings),
        })
    }
}

impl EffectData {
    /// The generated tables of an effect, borrowed.
    pub(crate) fn from_static(e: &'static WgslEffect) -> EffectData {
        EffectData {
            shaders: e.shaders.iter().map(ShaderData::from_static).collect(),
            techniques: e.techniques.iter().map(|t| t.to_vec()).collect(),
        }
    }

    /// The compiler's wgpu output `wgpu` for the MGFX effect `model`, as the build's generated
    /// tables give it: a uniform binding names the shader's one constant-buffer record, a
    /// sampler binding carries the state the MGFX sampler record of its slot bakes, and passes
    /// carry their MGFX states. `Err` says what does not fit (output and model of two builds).
    pub(crate) fn from_output(
        wgpu: &mgfx::wgpu::WgpuEffect,
        model: &mgfx::Effect,
    ) -> Result<EffectData, String> {
        if wgpu.shaders.len() != model.shaders.len() {
            return Err(format!(
                "the wgpu output has {} shaders, the MGFX effect {}",
                wgpu.shaders.len(),
                model.shaders.len()
            ));
        }
        let shaders = wgpu
            .shaders
            .iter()
            .zip(&model.shaders)
            .map(|(w, m)| ShaderData::from_output(w, m))
            .collect::<Result<Vec<_>, _>>()?;
        let index = |i: i32| usize::try_from(i).ok();
        let techniques = model
            .techniques
            .iter()
            .map(|t| {
                t.passes
                    .iter()
                    .map(|p| WgslPass {
                        name: intern(&p.name),
                        vertex: index(p.vertex_shader),
                        pixel: index(p.pixel_shader),
                        blend: p.blend,
                        depth_stencil: p.depth_stencil,
                        rasterizer: p.rasterizer,
                    })
                    .collect()
            })
            .collect();
        Ok(EffectData {
            shaders,
            techniques,
        })
    }
}

/// A binding of the compiler's output for MGFX shader `m`.
fn binding(b: &mgfx::wgpu::WgpuBinding, m: &mgfx::Shader) -> Result<Binding, String> {
    use mgfx::wgpu::WgpuBindingKind as K;
    let slot = b.slot.unwrap_or(0);
    let kind = match &b.kind {
        K::Uniform { size } => match m.cbuffers.as_slice() {
            [record] => BindingKind::Uniform {
                record: usize::from(*record),
                size: *size,
            },
            other => {
                return Err(format!(
                    "a shader with uniforms reads {} constant-buffer records, not one",
                    other.len()
                ))
            }
        },
        K::Texture { dimension } => BindingKind::Texture {
            slot,
            dimension: TextureDimension::from_name(dimension)
                .ok_or_else(|| format!("texture `{}` of dimension `{dimension}`", b.name))?,
        },
        K::Sampler => BindingKind::Sampler {
            slot,
            state: m
                .samplers
                .iter()
                .find(|s| u32::from(s.sampler_slot) == slot)
                .and_then(|s| s.state),
        },
    };
    Ok(Binding {
        binding: b.binding,
        name: intern(&b.name),
        kind,
    })
}

/// A vertex format by its wgpu name (`Float32x3`), as the compiler writes it.
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

/// `name`, kept once for the process (see the module docs).
pub(crate) fn intern(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&kept) = names.get(name) {
        return kept;
    }
    let kept: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(kept);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_kept_once() {
        let a = intern(&String::from("SpriteTexture"));
        let b = intern(&String::from("SpriteTexture"));
        assert!(std::ptr::eq(a, b));
        assert_eq!(a, "SpriteTexture");
    }
}
