//! One bind group per draw, for every pixel shader of an effect: the layout is the union of the
//! effect's pixel shaders' bindings (a Bevy material type has one layout for all its
//! instances, whatever pass each draws), and a draw binds its registers, each texture unit's
//! image and sampler, and SpriteBatch's colour.
//!
//! Numbering is the compiler's (`shadowdusk::wgsl`): registers at 0, texture unit N at 1 + 2N
//! with its sampler at 2 + 2N; the colour is at [`COLOR_BINDING`].

use std::marker::PhantomData;

use bevy::log::error_once;
use bevy::prelude::*;
use bevy::render::render_resource::{
    BindGroupLayoutEntry, BindingType, Buffer, BufferBindingType, BufferInitDescriptor,
    BufferUsages, OwnedBindingResource, Sampler, SamplerBindingType, ShaderStages,
    TextureSampleType, TextureView,
};
use bevy::render::renderer::RenderDevice;
use bevy::render::texture::{FallbackImage, GpuImage};
use shadowdusk::mgfx::SamplerState;
use shadowdusk::params::EffectParams;
use shadowdusk::wgsl::{BindingKind, Stage, TextureDimension, WgslShader};
use shadowdusk::Effect;

use crate::monogame_states::{sampler_descriptor, view_dimension};
use crate::shaders::{DrawablePass, COLOR_BINDING};
use crate::vertex::REGISTERS_BINDING;
use crate::EffectError;

/// The texture units of `E`'s pixel shaders, each with the one dimension all of them sample
/// it as, by unit.
pub(crate) fn units<E: Effect>() -> Result<Vec<(u32, TextureDimension)>, EffectError> {
    let mut units: Vec<(u32, TextureDimension)> = Vec::new();
    for b in pixel_shaders::<E>().flat_map(|s| s.bindings) {
        let BindingKind::Texture { slot, dimension } = b.kind else {
            continue;
        };
        match units.iter().find(|(s, _)| *s == slot) {
            Some(&(_, first)) if first != dimension => {
                return Err(EffectError::SlotDimension {
                    effect: E::NAME,
                    slot,
                    first,
                    second: dimension,
                })
            }
            Some(_) => {}
            None => units.push((slot, dimension)),
        }
    }
    units.sort_by_key(|&(slot, _)| slot);
    Ok(units)
}

fn pixel_shaders<E: Effect>() -> impl Iterator<Item = &'static WgslShader> {
    E::WGPU
        .into_iter()
        .flat_map(|w| w.shaders)
        .filter(|s| s.stage == Stage::Pixel)
}

/// Whether any shader of `E` of `stage` reads registers.
fn has_registers<E: Effect>(stage: Stage) -> bool {
    E::WGPU
        .into_iter()
        .flat_map(|w| w.shaders)
        .filter(|s| s.stage == stage)
        .flat_map(|s| s.bindings)
        .any(|b| matches!(b.kind, BindingKind::Uniform { .. }))
}

/// The bind-group layout of every draw of `E` (a unit two passes disagree on takes the first
/// pass's dimension; making a material or post-process of such an effect is an error).
pub(crate) fn layout_entries<E: Effect>(colour: bool) -> Vec<BindGroupLayoutEntry> {
    let uniform = |binding, visibility| BindGroupLayoutEntry {
        binding,
        visibility,
        ty: BindingType::Buffer {
            ty: BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let mut entries = Vec::new();
    if has_registers::<E>(Stage::Pixel) {
        entries.push(uniform(0, ShaderStages::FRAGMENT));
    }
    let units = units::<E>().unwrap_or_else(|_| first_units::<E>());
    for (slot, dimension) in units {
        entries.push(BindGroupLayoutEntry {
            binding: 1 + 2 * slot,
            visibility: ShaderStages::FRAGMENT,
            ty: BindingType::Texture {
                sample_type: TextureSampleType::Float { filterable: true },
                view_dimension: view_dimension(dimension),
                multisampled: false,
            },
            count: None,
        });
        entries.push(BindGroupLayoutEntry {
            binding: 2 + 2 * slot,
            visibility: ShaderStages::FRAGMENT,
            ty: BindingType::Sampler(SamplerBindingType::Filtering),
            count: None,
        });
    }
    if colour {
        entries.push(uniform(COLOR_BINDING, ShaderStages::VERTEX));
        if has_registers::<E>(Stage::Vertex) {
            entries.push(uniform(REGISTERS_BINDING, ShaderStages::VERTEX));
        }
    }
    entries
}

/// Each unit once, at its first dimension.
fn first_units<E: Effect>() -> Vec<(u32, TextureDimension)> {
    let mut units: Vec<(u32, TextureDimension)> = Vec::new();
    for b in pixel_shaders::<E>().flat_map(|s| s.bindings) {
        if let BindingKind::Texture { slot, dimension } = b.kind {
            if !units.iter().any(|(s, _)| *s == slot) {
                units.push((slot, dimension));
            }
        }
    }
    units.sort_by_key(|&(slot, _)| slot);
    units
}

/// The image bound to texture parameter `parameter` in `textures` (a material's or
/// post-process's images, by MGFX parameter index).
pub(crate) fn image(
    textures: &[(usize, Handle<Image>)],
    parameter: usize,
) -> Option<&Handle<Image>> {
    textures
        .iter()
        .find(|(p, _)| *p == parameter)
        .map(|(_, h)| h)
}

/// Binds `image` to texture parameter `parameter` in `textures`, replacing what it had.
pub(crate) fn set_image(
    textures: &mut Vec<(usize, Handle<Image>)>,
    parameter: usize,
    image: Handle<Image>,
) {
    textures.retain(|(p, _)| *p != parameter);
    textures.push((parameter, image));
}

/// One texture unit of one pixel shader: the texture parameter bound to it (MGFX index, as
/// `TextureSlot::parameter_index` counts) and the sampler its state makes (`None`: the
/// effect leaves the state to the device, so the image's own sampler is used).
#[derive(Clone, Debug)]
pub(crate) struct Unit {
    pub(crate) slot: u32,
    pub(crate) parameter: usize,
    pub(crate) sampler: Option<Sampler>,
}

/// What the render world keeps of effect `E`: the units of each of its shaders, read once from
/// its MGFX, with their samplers made.
#[derive(Resource)]
pub struct EffectUnits<E> {
    shaders: Vec<Vec<Unit>>,
    _effect: PhantomData<fn() -> E>,
}

impl<E: Effect> EffectUnits<E> {
    /// Reads `E::MGFX` and makes the samplers of every unit whose state the effect sets.
    pub(crate) fn new(device: &RenderDevice) -> Self {
        let model = shadowdusk::mgfx::read(E::MGFX).ok();
        let mut shaders = Vec::new();
        for (i, shader) in E::WGPU.into_iter().flat_map(|w| w.shaders).enumerate() {
            let samplers = model
                .as_ref()
                .and_then(|m| m.shaders.get(i))
                .map_or(&[][..], |s| &s.samplers[..]);
            let mut units = Vec::new();
            for b in shader.bindings {
                let BindingKind::Sampler { slot, state } = b.kind else {
                    continue;
                };
                let Some(record) = samplers.iter().find(|s| u32::from(s.texture_slot) == slot)
                else {
                    continue;
                };
                units.push(Unit {
                    slot,
                    parameter: usize::from(record.parameter),
                    sampler: state.and_then(|s| make_sampler::<E>(device, &s, slot)),
                });
            }
            shaders.push(units);
        }
        EffectUnits {
            shaders,
            _effect: PhantomData,
        }
    }

    /// Unit `slot` of shader `shader`, if that shader samples it.
    pub(crate) fn unit(&self, shader: usize, slot: u32) -> Option<&Unit> {
        self.shaders.get(shader)?.iter().find(|u| u.slot == slot)
    }
}

/// The sampler for `state`, or `None` (logged) when this device cannot make it.
fn make_sampler<E: Effect>(
    device: &RenderDevice,
    state: &SamplerState,
    slot: u32,
) -> Option<Sampler> {
    match sampler_descriptor(Some(state), device.features()) {
        Ok(descriptor) => Some(device.create_sampler(&descriptor)),
        Err(why) => {
            error!(
                "{}: texture unit {slot}: {why}; the image's own sampler is used instead",
                E::NAME
            );
            None
        }
    }
}

/// What a draw binds to one texture unit.
pub(crate) enum Texture<'a> {
    /// An image (with the effect's sampler for the unit, else the image's own).
    Image(&'a GpuImage),
    /// A view and sampler as they are (a post-process's input).
    View(&'a TextureView, &'a Sampler),
    /// Nothing set: Bevy's fallback image of the unit's dimension.
    Unset,
    /// An image not loaded yet: no bind group this frame.
    NotReady,
}

/// The resources of one draw of `pass` with `params`: `texture(slot, unit)` says what each
/// texture unit of the layout is bound to (`unit`: `None` when the pass's pixel shader does not
/// sample it); `colour` is SpriteBatch's vertex colour (materials only, which also bind the
/// vertex shader's registers). `None` when an image is not ready, or cannot be sampled as the
/// unit wants (logged once).
pub(crate) fn resources<'a, E: Effect>(
    device: &RenderDevice,
    pass: &DrawablePass,
    params: &E::Params,
    effect_units: &'a EffectUnits<E>,
    fallback: &'a FallbackImage,
    colour: Option<[f32; 4]>,
    mut texture: impl FnMut(u32, Option<&'a Unit>) -> Texture<'a>,
) -> Option<Vec<(u32, OwnedBindingResource)>> {
    let pixel = pass.pixel;
    let mut out = Vec::new();
    if has_registers::<E>(Stage::Pixel) {
        let buffer = registers(device, params, Some(pass.shader));
        out.push((0, OwnedBindingResource::Buffer(buffer)));
    }
    for (slot, dimension) in units::<E>().ok()? {
        let unit = effect_units.unit(pixel, slot);
        let own_sampler = unit.and_then(|u| u.sampler.as_ref());
        let (view, sampler) = match texture(slot, unit) {
            Texture::NotReady => return None,
            Texture::View(view, sampler) => (view, sampler),
            Texture::Image(image) => {
                if !samples_as(image, dimension) {
                    error_once!(
                        "{}: texture unit {slot} samples a {dimension:?} float texture; the \
                         image bound is not one (format {:?}, {:?}), so the draw is skipped",
                        E::NAME,
                        image.texture_descriptor.format,
                        image.texture_descriptor.dimension
                    );
                    return None;
                }
                (&image.texture_view, own_sampler.unwrap_or(&image.sampler))
            }
            Texture::Unset => {
                let image = fallback_of(fallback, dimension);
                (&image.texture_view, own_sampler.unwrap_or(&image.sampler))
            }
        };
        out.push((
            1 + 2 * slot,
            OwnedBindingResource::TextureView(view_dimension(dimension), view.clone()),
        ));
        out.push((
            2 + 2 * slot,
            OwnedBindingResource::Sampler(SamplerBindingType::Filtering, sampler.clone()),
        ));
    }
    if let Some(colour) = colour {
        let buffer = uniform_buffer(device, bytemuck::cast_slice(&colour));
        out.push((COLOR_BINDING, OwnedBindingResource::Buffer(buffer)));
        if has_registers::<E>(Stage::Vertex) {
            let buffer = registers(device, params, pass.vertex.map(|(_, vs)| vs));
            out.push((REGISTERS_BINDING, OwnedBindingResource::Buffer(buffer)));
        }
    }
    Some(out)
}

/// The registers `shader` reads, from `params` (its record, zero-padded to the binding's size;
/// 16 zero bytes when it reads none, or for no shader).
fn registers<P: EffectParams>(
    device: &RenderDevice,
    params: &P,
    shader: Option<&WgslShader>,
) -> Buffer {
    let mut bytes = vec![0u8; 16];
    for b in shader.into_iter().flat_map(|s| s.bindings) {
        if let BindingKind::Uniform { record, size } = b.kind {
            bytes = vec![0u8; (size as usize).max(16)];
            if let Some(registers) = params.constant_buffer(record) {
                let data: &[u8] = bytemuck::cast_slice(registers);
                let n = data.len().min(bytes.len());
                bytes[..n].copy_from_slice(&data[..n]);
            }
        }
    }
    uniform_buffer(device, &bytes)
}

fn uniform_buffer(device: &RenderDevice, contents: &[u8]) -> Buffer {
    device.create_buffer_with_data(&BufferInitDescriptor {
        label: Some("shadowdusk uniforms"),
        contents,
        usage: BufferUsages::UNIFORM,
    })
}

fn fallback_of(fallback: &FallbackImage, dimension: TextureDimension) -> &GpuImage {
    match dimension {
        TextureDimension::D1 => &fallback.d1,
        TextureDimension::D2 => &fallback.d2,
        TextureDimension::D3 => &fallback.d3,
        TextureDimension::Cube => &fallback.cube,
    }
}

/// Whether `image` binds as a filterable float texture of `dimension`.
fn samples_as(image: &GpuImage, dimension: TextureDimension) -> bool {
    use bevy::render::render_resource::{TextureDimension as Tex, TextureViewDimension as View};
    let view = image
        .texture_view_descriptor
        .as_ref()
        .and_then(|d| d.dimension)
        .unwrap_or(match image.texture_descriptor.dimension {
            Tex::D1 => View::D1,
            Tex::D2 if image.texture_descriptor.size.depth_or_array_layers > 1 => View::D2Array,
            Tex::D2 => View::D2,
            Tex::D3 => View::D3,
        });
    let filterable = matches!(
        image.texture_descriptor.format.sample_type(None, None),
        Some(TextureSampleType::Float { filterable: true })
    );
    filterable && view == view_dimension(dimension)
}
