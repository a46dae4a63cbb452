//! Registers one effect with Bevy: its shaders, its material type and its post-process.

use std::marker::PhantomData;

use bevy::core_pipeline::{Core2d, Core2dSystems, Core3d, Core3dSystems};
use bevy::prelude::*;
use bevy::render::extract_component::ExtractComponentPlugin;
use bevy::render::render_resource::SpecializedRenderPipelines;
use bevy::render::renderer::RenderDevice;
use bevy::render::{Render, RenderApp, RenderStartup, RenderSystems};
use bevy::shader::Shader;
use bevy::sprite_render::Material2dPlugin;
use shadowdusk::Effect;

use crate::bindings::EffectUnits;
use crate::post_process::{self, PostProcessPipeline};
use crate::{shaders, EffectMaterial, EffectPostProcess};

/// Makes effect `E` drawable: [`EffectMaterial<E>`] as a 2D material and
/// [`EffectPostProcess<E>`] on cameras. Add one per effect, after Bevy's default plugins:
///
/// ```ignore
/// app.add_plugins((DefaultPlugins, EffectPlugin::<tint::Effect>::default()));
/// ```
pub struct EffectPlugin<E>(PhantomData<fn() -> E>);

impl<E> Default for EffectPlugin<E> {
    fn default() -> Self {
        EffectPlugin(PhantomData)
    }
}

impl<E: Effect> Plugin for EffectPlugin<E> {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            Material2dPlugin::<EffectMaterial<E>>::default(),
            ExtractComponentPlugin::<EffectPostProcess<E>>::default(),
        ));
        let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
            return;
        };
        render_app
            .init_resource::<SpecializedRenderPipelines<PostProcessPipeline<E>>>()
            .add_systems(RenderStartup, init_render_world::<E>)
            .add_systems(
                Render,
                post_process::prepare_pipelines::<E>.in_set(RenderSystems::Prepare),
            )
            .add_systems(
                Core2d,
                post_process::run::<E>.in_set(Core2dSystems::PostProcess),
            )
            .add_systems(
                Core3d,
                post_process::run::<E>.in_set(Core3dSystems::PostProcess),
            );
    }

    // The shaders go in once every plugin is built, so `Assets<Shader>` exists whatever order
    // the plugins were added in.
    fn finish(&self, app: &mut App) {
        let Some(mut assets) = app.world_mut().get_resource_mut::<Assets<Shader>>() else {
            return;
        };
        for made in shaders::all::<E>() {
            match made {
                // A fixed (UUID) id cannot be stale, so the insert cannot fail.
                Ok((handle, shader)) => drop(assets.insert(handle.id(), shader)),
                // A vertex shader naga cannot rewrite: its pass's pipeline will not build, and
                // Bevy names the missing shader when it is drawn.
                Err(why) => error!("shadowdusk-bevy: {why}"),
            }
        }
    }
}

fn init_render_world<E: Effect>(mut commands: Commands, device: Res<RenderDevice>) {
    commands.insert_resource(EffectUnits::<E>::new(&device));
    commands.insert_resource(PostProcessPipeline::<E>::new(&device));
}
