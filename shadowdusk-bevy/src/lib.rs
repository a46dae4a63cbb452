//! MonoGame effects in Bevy 0.19, from the data ShadowDusk's wgpu target writes (`Effect::WGPU`:
//! WGSL, bindings, varyings, pass states) and the typed `Params` `include_effect!` generates.
//! Nothing here depends on ShadowDusk's wgpu runtime: Bevy draws with its own wgpu (29).
//!
//! * [`EffectMaterial<E>`]: one pass of effect `E` as a Bevy [`Material2d`]. A pixel-only pass
//!   draws a `Mesh2d` as MonoGame's `SpriteBatch.Draw(texture, rectangle, color)` with the
//!   effect: the vertex stage is SpriteBatch's, written for Bevy's mesh (COLOR0 = the material's
//!   colour × the mesh's vertex colour, TEXCOORD0 = the mesh's UV). A pass with its own vertex
//!   shader runs it on the mesh's attributes (by MonoGame usage), with the matrices in
//!   `Params`, its depth turned into Bevy's reverse-Z. The pass's pixel shader, blend,
//!   rasterizer (own vertex shader only) and sampler states are the effect's.
//! * [`EffectPostProcess<E>`]: a technique's passes run in order over a camera's output, each
//!   reading the last one's image on texture unit 0 (as SpriteBatch binds its texture).
//! * [`EffectPlugin<E>`] registers both for one effect; with feature `hot-reload`,
//!   `hot::HotReloadPlugin<E>` recompiles it when its files change and swaps the new shaders
//!   into Bevy's assets.
//!
//! Typed all the way: `EffectMaterial<tint::Effect>` takes `tint`'s `Params`, passes and
//! texture slots only.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use shadowdusk_bevy::{EffectError, EffectMaterial, EffectPlugin, EffectPostProcess};
//!
//! // A game's build script compiles these (`Builder::new().dir("shaders").wgpu(true)`); a doc
//! // test has none, so they compile in the macro.
//! shadowdusk::include_effect!("examples/shaders/tint.fx", in_process, wgpu);
//! shadowdusk::include_effect!("examples/shaders/grayscale.fx", in_process, wgpu);
//!
//! fn main() {
//!     App::new()
//!         .add_plugins((
//!             DefaultPlugins,
//!             EffectPlugin::<tint::Effect>::default(),
//!             EffectPlugin::<grayscale::Effect>::default(),
//!         ))
//!         .add_systems(Startup, setup.pipe(report))
//!         .add_systems(Update, fade)
//!         .run();
//! }
//!
//! fn setup(
//!     mut commands: Commands,
//!     mut meshes: ResMut<Assets<Mesh>>,
//!     mut materials: ResMut<Assets<EffectMaterial<tint::Effect>>>,
//!     assets: Res<AssetServer>,
//! ) -> Result<(), EffectError> {
//!     let mut material = EffectMaterial::new(tint::passes::sprite_drawing::P0)?;
//!     material.params_mut().set_tint([1.0, 0.5, 0.5, 1.0]);
//!     material.set_texture(tint::textures::SPRITE_TEXTURE, assets.load("ship.png"));
//!     commands.spawn((
//!         Mesh2d(meshes.add(Rectangle::new(64.0, 64.0))),
//!         MeshMaterial2d(materials.add(material)),
//!     ));
//!     let grayscale = EffectPostProcess::new(grayscale::Technique::Grayscale.passes())?;
//!     commands.spawn((Camera2d, grayscale));
//!     Ok(())
//! }
//!
//! fn report(made: In<Result<(), EffectError>>) {
//!     if let Err(e) = made.0 {
//!         error!("{e}");
//!     }
//! }
//!
//! fn fade(time: Res<Time>, mut post: Query<&mut EffectPostProcess<grayscale::Effect>>) {
//!     for mut grayscale in &mut post {
//!         grayscale.params_mut().set_amount(time.elapsed_secs().sin().abs());
//!     }
//! }
//! ```
//!
//! [`Material2d`]: bevy::sprite_render::Material2d

mod bindings;
mod error;
#[cfg(feature = "hot-reload")]
pub mod hot;
mod material;
mod plugin;
mod post_process;
mod shaders;
mod vertex;

shadowdusk::__wgpu_states!(wgpu);

pub use error::EffectError;
pub use material::EffectMaterial;
pub use plugin::EffectPlugin;
pub use post_process::EffectPostProcess;
