//! A technique's passes over a camera's output, in Bevy's post-processing step: each pass draws
//! one triangle over the view into the view's other main texture, reading the last pass's
//! image (the scene, for the first) on texture unit 0, as a MonoGame game draws a render
//! target through SpriteBatch with the effect, pass after pass.

use bevy::ecs::query::QueryItem;
use bevy::prelude::*;
use bevy::render::extract_component::ExtractComponent;
use bevy::render::render_asset::RenderAssets;
use bevy::render::render_resource::{
    BindGroupEntry, BindGroupLayoutDescriptor, CachedRenderPipelineId, FragmentState, LoadOp,
    Operations, PipelineCache, RenderPassColorAttachment, RenderPassDescriptor,
    RenderPipelineDescriptor, Sampler, SpecializedRenderPipeline, SpecializedRenderPipelines,
    StoreOp, TextureFormat, VertexState,
};
use bevy::render::renderer::{RenderContext, RenderDevice, ViewQuery};
use bevy::render::sync_component::SyncComponent;
use bevy::render::texture::{FallbackImage, GpuImage};
use bevy::render::view::ViewTarget;
use shadowdusk::mgfx::BlendState;
use shadowdusk::{Effect, Pass, TextureSlot};

use crate::bindings::{self, image, set_image, EffectUnits, Texture};
use crate::monogame_states::{blend_constant, color_target, sampler_descriptor};
use crate::shaders::{self, Kind, Source};
use crate::EffectError;

/// Effect `E`'s passes run in order over the output of the camera this component is on
/// (a `Camera2d` or `Camera3d`), with `E`'s typed `Params` and texture slots:
///
/// ```ignore
/// commands.spawn((Camera2d, EffectPostProcess::new(grayscale::Technique::Grayscale.passes())?));
/// // in a system:
/// fn fade(mut q: Query<&mut EffectPostProcess<grayscale::Effect>>) {
///     for mut post in &mut q { post.params_mut().set_amount(0.5); }
/// }
/// ```
///
/// Each pass reads the image so far on texture unit 0 (with the effect's sampler state for
/// that unit, else SpriteBatch's `LinearClamp`; an image set for the parameter on unit 0 is not
/// used) and its other units from [`set_texture`](Self::set_texture); it draws over transparent black with its blend state
/// (else SpriteBatch's `AlphaBlend`), so the view's two main textures are the intermediate
/// targets. Passes must be pixel-shader-only, as for a material.
#[derive(Component)]
pub struct EffectPostProcess<E: Effect> {
    passes: Vec<Pass<E>>,
    params: E::Params,
    textures: Vec<(usize, Handle<Image>)>,
}

impl<E: Effect> EffectPostProcess<E> {
    /// Runs `passes` (a technique's `passes()`, or any passes of `E` in the order to run
    /// them) with the effect's default `Params`.
    pub fn new(passes: &[Pass<E>]) -> Result<Self, EffectError> {
        if passes.is_empty() {
            return Err(EffectError::NoPasses { effect: E::NAME });
        }
        for &pass in passes {
            shaders::drawable(pass, false)?;
        }
        bindings::units::<E>()?;
        Ok(EffectPostProcess {
            passes: passes.to_vec(),
            params: E::Params::default(),
            textures: Vec::new(),
        })
    }

    /// The passes, in the order they run.
    pub fn passes(&self) -> &[Pass<E>] {
        &self.passes
    }

    /// The parameters.
    pub fn params(&self) -> &E::Params {
        &self.params
    }

    /// The parameters, to change (from a system: the next frame draws them).
    pub fn params_mut(&mut self) -> &mut E::Params {
        &mut self.params
    }

    /// Replaces the parameters.
    pub fn with_params(mut self, params: E::Params) -> Self {
        self.params = params;
        self
    }

    /// Binds `image` to the texture parameter `slot` (a unit other than 0, which is the image
    /// being processed).
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
}

impl<E: Effect> Clone for EffectPostProcess<E> {
    fn clone(&self) -> Self {
        EffectPostProcess {
            passes: self.passes.clone(),
            params: self.params.clone(),
            textures: self.textures.clone(),
        }
    }
}

impl<E: Effect> SyncComponent for EffectPostProcess<E> {
    type Target = Self;
}

impl<E: Effect> ExtractComponent for EffectPostProcess<E> {
    type QueryData = &'static Self;
    type QueryFilter = ();
    type Out = Self;

    fn extract_component(item: QueryItem<'_, '_, Self::QueryData>) -> Option<Self> {
        Some(item.clone())
    }
}

/// The pipelines of `E`'s post-processes: one layout for every pass, specialized by pixel
/// shader and view format.
#[derive(Resource)]
pub(crate) struct PostProcessPipeline<E> {
    layout: BindGroupLayoutDescriptor,
    /// SpriteBatch's `SamplerState.LinearClamp`, for unit 0 when the effect sets no state.
    linear_clamp: Sampler,
    _effect: std::marker::PhantomData<fn() -> E>,
}

impl<E: Effect> PostProcessPipeline<E> {
    pub(crate) fn new(device: &RenderDevice) -> Self {
        let state = shadowdusk::DeviceStates::sprite_batch().samplers[0];
        let linear_clamp = sampler_descriptor(Some(&state), device.features())
            .map(|d| device.create_sampler(&d))
            .unwrap_or_else(|_| device.create_sampler(&Default::default()));
        PostProcessPipeline {
            layout: BindGroupLayoutDescriptor::new(
                "shadowdusk_post_process",
                &bindings::layout_entries::<E>(false),
            ),
            linear_clamp,
            _effect: std::marker::PhantomData,
        }
    }
}

impl<E: Effect> SpecializedRenderPipeline for PostProcessPipeline<E> {
    /// (pass, view format).
    type Key = (Pass<E>, TextureFormat);

    fn specialize(&self, (pass, format): Self::Key) -> RenderPipelineDescriptor {
        // `EffectPostProcess::new` checked every pass.
        let (pixel, entry, blend) = shaders::drawable(pass, false)
            .map(|d| (d.pixel, d.shader.entry, d.blend()))
            .unwrap_or((0, "main", BlendState::default()));
        RenderPipelineDescriptor {
            label: Some(format!("{} post-process", E::NAME).into()),
            layout: vec![
                BindGroupLayoutDescriptor::new("shadowdusk_empty", &[]),
                self.layout.clone(),
            ],
            vertex: VertexState {
                shader: shaders::handle::<E>(pixel, Kind::Vertex(Source::Screen)),
                entry_point: Some("vertex".into()),
                ..default()
            },
            fragment: Some(FragmentState {
                shader: shaders::handle::<E>(pixel, Kind::Fragment(Source::Screen)),
                entry_point: Some(entry.into()),
                targets: vec![color_target(Some(&blend), format).ok()],
                ..default()
            }),
            ..default()
        }
    }
}

/// The pipeline of each pass of a view's post-process, in order.
#[derive(Component)]
pub(crate) struct PostProcessPipelines<E> {
    ids: Vec<CachedRenderPipelineId>,
    _effect: std::marker::PhantomData<fn() -> E>,
}

/// Specializes the pipelines of every view with an `EffectPostProcess<E>` for its format.
pub(crate) fn prepare_pipelines<E: Effect>(
    mut commands: Commands,
    cache: Res<PipelineCache>,
    pipeline: Res<PostProcessPipeline<E>>,
    mut pipelines: ResMut<SpecializedRenderPipelines<PostProcessPipeline<E>>>,
    views: Query<(Entity, &ViewTarget, &EffectPostProcess<E>)>,
) {
    for (entity, target, post) in &views {
        let format = target.main_texture_format();
        let ids = post
            .passes
            .iter()
            .map(|&pass| pipelines.specialize(&cache, &pipeline, (pass, format)))
            .collect();
        commands.entity(entity).insert(PostProcessPipelines::<E> {
            ids,
            _effect: std::marker::PhantomData,
        });
    }
}

/// Runs the view's passes (once every pipeline is ready), each from the view's current main
/// texture into the other.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run<E: Effect>(
    view: ViewQuery<(&ViewTarget, &EffectPostProcess<E>, &PostProcessPipelines<E>)>,
    cache: Res<PipelineCache>,
    pipeline: Res<PostProcessPipeline<E>>,
    units: Res<EffectUnits<E>>,
    images: Res<RenderAssets<GpuImage>>,
    fallback: Res<FallbackImage>,
    mut ctx: RenderContext,
) {
    let (target, post, pipelines) = view.into_inner();
    let Some(ready) = pipelines
        .ids
        .iter()
        .map(|&id| cache.get_render_pipeline(id))
        .collect::<Option<Vec<_>>>()
    else {
        return;
    };
    let layout = cache.get_bind_group_layout(&pipeline.layout);
    for (&pass, render_pipeline) in post.passes.iter().zip(ready) {
        let Ok(drawable) = shaders::drawable(pass, false) else {
            return;
        };
        // The image so far; the swap to the other main texture waits until the draw is sure.
        let source = target.main_texture_view();
        let resources = bindings::resources(
            ctx.render_device(),
            &drawable,
            &post.params,
            &units,
            &fallback,
            None,
            |slot, unit| {
                if slot == 0 {
                    let sampler = unit.and_then(|u| u.sampler.as_ref());
                    return Texture::View(source, sampler.unwrap_or(&pipeline.linear_clamp));
                }
                let handle = unit.and_then(|u| image(&post.textures, u.parameter));
                match handle {
                    None => Texture::Unset,
                    Some(h) => images.get(h).map_or(Texture::NotReady, Texture::Image),
                }
            },
        );
        // An image not loaded yet: this frame shows the image so far.
        let Some(resources) = resources else {
            return;
        };
        let io = target.post_process_write();
        let entries: Vec<BindGroupEntry> = resources
            .iter()
            .map(|(binding, resource)| BindGroupEntry {
                binding: *binding,
                resource: resource.get_binding(),
            })
            .collect();
        let bind_group =
            ctx.render_device()
                .create_bind_group("shadowdusk_post_process", &layout, &entries);
        let mut render_pass = ctx
            .command_encoder()
            .begin_render_pass(&RenderPassDescriptor {
                label: Some("shadowdusk_post_process"),
                color_attachments: &[Some(RenderPassColorAttachment {
                    view: io.destination,
                    depth_slice: None,
                    resolve_target: None,
                    ops: Operations {
                        load: LoadOp::Clear(Default::default()),
                        store: StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
        render_pass.set_pipeline(render_pipeline);
        render_pass.set_bind_group(1, &bind_group, &[]);
        render_pass.set_blend_constant(blend_constant(drawable.pass.blend.as_ref()));
        render_pass.draw(0..3, 0..1);
    }
}
