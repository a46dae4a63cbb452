//! One pass of an effect as a Bevy 2D material: `Mesh2d` + `MeshMaterial2d(EffectMaterial)`
//! draws as `SpriteBatch.Draw(texture, rectangle, color)` with the effect.

use bevy::asset::{UntypedAssetId, VisitAssetDependencies};
use bevy::ecs::system::lifetimeless::SRes;
use bevy::ecs::system::SystemParamItem;
use bevy::mesh::MeshVertexBufferLayoutRef;
use bevy::prelude::*;
use bevy::reflect::utility::GenericTypePathCell;
use bevy::reflect::TypePath;
use bevy::render::render_asset::RenderAssets;
use bevy::render::render_resource::{
    AsBindGroup, AsBindGroupError, BindGroupLayout, BindGroupLayoutEntry, BindingResources,
    RenderPipelineDescriptor, SpecializedMeshPipelineError, UnpreparedBindGroup,
};
use bevy::render::renderer::RenderDevice;
use bevy::render::texture::{FallbackImage, GpuImage};
use bevy::sprite_render::{AlphaMode2d, Material2d, Material2dKey};
use shadowdusk::{Effect, Pass, TextureSlot};

use crate::bindings::{self, image, set_image, EffectUnits, Texture};
use crate::monogame_states::{color_target, primitive};
use crate::shaders::{self, Kind};
use crate::vertex;
use crate::EffectError;

/// A pass of effect `E` drawn over a `Mesh2d`, with `E`'s typed `Params` and texture
/// slots: Bevy's equivalent of MonoGame's `SpriteBatch.Draw(texture, rectangle, color)` with
/// the effect.
///
/// ```ignore
/// let mut material = EffectMaterial::new(tint::passes::sprite_drawing::P0)?;
/// material.params_mut().set_tint([1.0, 0.5, 0.5, 1.0]);
/// material.set_texture(tint::textures::SPRITE_TEXTURE, asset_server.load("ship.png"));
/// commands.spawn((
///     Mesh2d(meshes.add(Rectangle::new(64.0, 64.0))),
///     MeshMaterial2d(materials.add(material)),
/// ));
/// ```
///
/// A pixel-only pass draws with SpriteBatch's vertex stage: COLOR0 is [`color`](Self::color)
/// times the mesh's vertex colours (if it has any), TEXCOORD0 the mesh's UVs, and its blend
/// state is the pass's, else SpriteBatch's default (`BlendState.AlphaBlend`: premultiplied
/// alpha). A pass with its own vertex shader runs it over the mesh's attributes by MonoGame
/// usage (POSITION0, NORMAL0, TEXCOORD0–1, TANGENT0, COLOR0, BLENDWEIGHT0), placed by the
/// matrices in `Params` rather than the entity's `Transform` (give the entity
/// `NoFrustumCulling`), with the pass's blend and rasterizer states, else the device's initial
/// ones (`Opaque`, `CullCounterClockwise`), and depth-tested in Bevy's reverse-Z. Sampler states
/// are the effect's, else the image's own sampler (Bevy's default is linear and clamped, like
/// SpriteBatch's `SamplerState.LinearClamp`). Change parameters through
/// `Assets<EffectMaterial<E>>::get_mut`: the next frame draws them.
pub struct EffectMaterial<E: Effect> {
    pass: Pass<E>,
    params: E::Params,
    textures: Vec<(usize, Handle<Image>)>,
    color: [f32; 4],
}

impl<E: Effect> EffectMaterial<E> {
    /// A material drawing `pass` with the effect's default `Params`, no textures (Bevy's
    /// fallback image samples white) and a white colour. Fails when Bevy cannot draw the pass
    /// this way (see [`EffectError`]).
    pub fn new(pass: Pass<E>) -> Result<Self, EffectError> {
        shaders::drawable(pass, true)?;
        bindings::units::<E>()?;
        Ok(EffectMaterial {
            pass,
            params: E::Params::default(),
            textures: Vec::new(),
            color: [1.0; 4],
        })
    }

    /// The pass it draws.
    pub fn pass(&self) -> Pass<E> {
        self.pass
    }

    /// The parameters.
    pub fn params(&self) -> &E::Params {
        &self.params
    }

    /// The parameters, to change (through `Assets::get_mut`: the next frame draws them).
    pub fn params_mut(&mut self) -> &mut E::Params {
        &mut self.params
    }

    /// Replaces the parameters.
    pub fn with_params(mut self, params: E::Params) -> Self {
        self.params = params;
        self
    }

    /// Binds `image` to the texture parameter `slot` (on every unit it is sampled on).
    pub fn set_texture(&mut self, slot: TextureSlot<E>, image: Handle<Image>) {
        set_image(&mut self.textures, slot.parameter_index(), image);
    }

    /// [`set_texture`](Self::set_texture), by value.
    pub fn with_texture(mut self, slot: TextureSlot<E>, image: Handle<Image>) -> Self {
        self.set_texture(slot, image);
        self
    }

    /// The image bound to `slot`.
    pub fn texture(&self, slot: TextureSlot<E>) -> Option<&Handle<Image>> {
        image(&self.textures, slot.parameter_index())
    }

    /// SpriteBatch's colour (the `color` of `SpriteBatch.Draw`), as the shader's COLOR0 reads it:
    /// sRGB-encoded components, as MonoGame's `Color` bytes / 255.
    pub fn color(&self) -> Color {
        let [r, g, b, a] = self.color;
        Color::srgba(r, g, b, a)
    }

    /// Sets SpriteBatch's colour.
    pub fn set_color(&mut self, color: impl Into<Color>) {
        self.color = color.into().to_srgba().to_f32_array();
    }

    /// [`set_color`](Self::set_color), by value.
    pub fn with_color(mut self, color: impl Into<Color>) -> Self {
        self.set_color(color);
        self
    }
}

impl<E: Effect> Clone for EffectMaterial<E> {
    fn clone(&self) -> Self {
        EffectMaterial {
            pass: self.pass,
            params: self.params.clone(),
            textures: self.textures.clone(),
            color: self.color,
        }
    }
}

impl<E: Effect> std::fmt::Debug for EffectMaterial<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EffectMaterial")
            .field("effect", &E::NAME)
            .field("pass", &self.pass)
            .field("textures", &self.textures)
            .field("color", &self.color)
            .finish_non_exhaustive()
    }
}

// An asset's type path names the effect's marker type, which derives nothing of Bevy's.
impl<E: Effect> TypePath for EffectMaterial<E> {
    fn type_path() -> &'static str {
        static CELL: GenericTypePathCell = GenericTypePathCell::new();
        CELL.get_or_insert::<Self, _>(|| {
            format!(
                "shadowdusk_bevy::EffectMaterial<{}>",
                std::any::type_name::<E>()
            )
        })
    }

    fn short_type_path() -> &'static str {
        static CELL: GenericTypePathCell = GenericTypePathCell::new();
        CELL.get_or_insert::<Self, _>(|| format!("EffectMaterial<{}>", E::NAME))
    }
}

impl<E: Effect> VisitAssetDependencies for EffectMaterial<E> {
    fn visit_dependencies(&self, visit: &mut impl FnMut(UntypedAssetId)) {
        for (_, image) in &self.textures {
            visit(image.id().untyped());
        }
    }
}

impl<E: Effect> Asset for EffectMaterial<E> {}

impl<E: Effect> AsBindGroup for EffectMaterial<E> {
    type Data = Pass<E>;
    type Param = (
        SRes<RenderAssets<GpuImage>>,
        SRes<FallbackImage>,
        SRes<EffectUnits<E>>,
    );

    fn label() -> &'static str {
        "shadowdusk_effect_material"
    }

    fn bind_group_data(&self) -> Pass<E> {
        self.pass
    }

    fn unprepared_bind_group(
        &self,
        _layout: &BindGroupLayout,
        device: &RenderDevice,
        (images, fallback, units): &mut SystemParamItem<'_, '_, Self::Param>,
        _force_no_bindless: bool,
    ) -> Result<UnpreparedBindGroup, AsBindGroupError> {
        // `new` checked the pass; a pass that cannot draw never reaches here.
        let drawable =
            shaders::drawable(self.pass, true).map_err(|_| AsBindGroupError::RetryNextUpdate)?;
        let resources = bindings::resources(
            device,
            &drawable,
            &self.params,
            units,
            fallback,
            Some(self.color),
            |_, unit| match unit.and_then(|u| image(&self.textures, u.parameter)) {
                None => Texture::Unset,
                Some(handle) => images.get(handle).map_or(Texture::NotReady, Texture::Image),
            },
        )
        .ok_or(AsBindGroupError::RetryNextUpdate)?;
        Ok(UnpreparedBindGroup {
            bindings: BindingResources(resources),
        })
    }

    fn bind_group_layout_entries(
        _device: &RenderDevice,
        _force_no_bindless: bool,
    ) -> Vec<BindGroupLayoutEntry> {
        bindings::layout_entries::<E>(true)
    }
}

impl<E: Effect> Material2d for EffectMaterial<E> {
    fn alpha_mode(&self) -> AlphaMode2d {
        let blends = shaders::drawable(self.pass, true)
            .ok()
            .and_then(|d| color_target(Some(&d.blend()), wgpu::TextureFormat::Rgba8Unorm).ok())
            .is_some_and(|target| target.blend.is_some());
        if blends {
            AlphaMode2d::Blend
        } else {
            AlphaMode2d::Opaque
        }
    }

    fn specialize(
        descriptor: &mut RenderPipelineDescriptor,
        layout: &MeshVertexBufferLayoutRef,
        key: Material2dKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        let Ok(drawable) = shaders::drawable(key.bind_group_data, true) else {
            return Ok(());
        };
        let source = drawable.mesh_source();
        descriptor.vertex.shader = shaders::handle::<E>(drawable.pixel, Kind::Vertex(source));
        descriptor.vertex.entry_point = Some("vertex".into());
        if let Some((_, vs)) = drawable.vertex {
            // The effect's own vertex shader: the mesh's attributes at its inputs' locations,
            // and the pass's rasterizer state (MonoGame's default culls counter-clockwise).
            let attributes: Vec<_> = vs
                .vertex_inputs
                .iter()
                .filter_map(|input| {
                    vertex::mesh_attribute(input).map(|a| a.at_shader_location(input.location))
                })
                .collect();
            descriptor.vertex.buffers = vec![layout.0.get_layout(&attributes)?];
            descriptor.vertex.entry_point = Some(vs.entry.into());
            let strip_index_format = descriptor.primitive.strip_index_format;
            descriptor.primitive = primitive(
                drawable.pass.rasterizer.as_ref(),
                descriptor.primitive.topology,
            );
            descriptor.primitive.strip_index_format = strip_index_format;
        }
        if let Some(fragment) = descriptor.fragment.as_mut() {
            fragment.shader = shaders::handle::<E>(drawable.pixel, Kind::Fragment(source));
            fragment.entry_point = Some(drawable.shader.entry.into());
            let blend = drawable.blend();
            for target in fragment.targets.iter_mut().flatten() {
                // Bevy's targets can all blend; a format that could not keeps Bevy's state.
                if let Ok(state) = color_target(Some(&blend), target.format) {
                    *target = state;
                }
            }
        }
        Ok(())
    }
}
