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
