//! ShadowDusk runtime: use MonoGame effects (`.fx`, compiled to MGFX) from Rust.
//!
//! - `include_effect!` (feature `macros`, on by default) compiles an effect when your crate
//!   builds and generates a typed module for it: the MGFX bytes, a marker type `Effect`
//!   implementing [`Effect`], a `Params` struct laid out exactly like the registers MonoGame
//!   uploads with one setter and getter per shader parameter, and the techniques, passes
//!   ([`Pass`]) and texture parameters ([`TextureSlot`]) as typed values. Normally
//!   `shadowdusk_build::Builder` in `build.rs` compiles every effect of a folder (in parallel,
//!   with a cache, with your defines and include folders) and the macro `include!`s the module
//!   it generated; a crate without a build script enables feature `in-process` (the whole
//!   compiler in the macro) and writes `include_effect!("…", in_process)`, as this example does.
//! - [`mgfx`] reads and writes the MGFX v10 container itself.
//! - `gl` (feature `gl`) loads an effect into OpenGL (glow) the way MonoGame's OpenGL runtime
//!   does and applies its passes: `gl::GlEffect<tint::Effect>` takes only `tint`'s passes,
//!   texture slots and `Params`, so mixing up two effects is a compile error; `gl::DynEffect`
//!   takes bytes loaded at run time and finds techniques, passes and parameters by name.
//! - `wgpu_runtime` (feature `wgpu`) draws the same effects with wgpu 30 (re-exported as
//!   `shadowdusk::wgpu`): `wgpu_runtime::WgpuEffect<tint::Effect>` from the module's wgpu part
//!   (built with `Builder::wgpu(true)`), the same `Params`, passes and texture slots, pipelines
//!   built per pass and render target, parameters staged per draw; and a `SpriteBatch`.
//! - [`params`]: what generated setters take (MonoGame's [`params::Matrix`], HLSL-shaped
//!   [`params::Mat`], with glam and mint conversions behind features `glam` and `mint`).
//!
//! ```
//! // `doc/tint.fx` is MonoGame's sprite-effect template with `float4 Tint = float4(1, 1, 1, 1);`
//! // and `float Amount = 0.35;`; the module is named after the file. (A doctest has no build
//! // script, so it compiles the effect in the macro: `in_process`.)
//! shadowdusk::include_effect!("doc/tint.fx", in_process);
//! use shadowdusk::Effect as _;
//!
//! // Defaults come from the shader's initializers.
//! let mut params = tint::Params::default();
//! assert_eq!(params.amount(), 0.35);
//! assert_eq!(params.tint(), [1.0, 1.0, 1.0, 1.0]);
//!
//! // Typed setters write the registers MonoGame's `EffectParameter.SetValue` would.
//! params.set_tint([1.0, 0.5, 0.5, 1.0]);
//! assert_eq!(params.tint(), [1.0, 0.5, 0.5, 1.0]);
//!
//! // Techniques, passes and texture slots are typed values, not strings or bare indices.
//! let technique = tint::Technique::SpriteDrawing;
//! assert_eq!(technique.name(), "SpriteDrawing");
//! assert_eq!(technique.passes(), &[tint::passes::sprite_drawing::P0][..]);
//! assert_eq!(tint::textures::SPRITE_TEXTURE_UNITS, &[0]); // sampled on texture unit 0
//!
//! // The embedded bytes are a complete MGFX v10 file for MonoGame's OpenGL runtime.
//! let effect = shadowdusk::mgfx::read(tint::Effect::MGFX).expect("valid MGFX");
//! assert_eq!(effect.techniques[0].passes[0].name, "P0");
//! ```
//!
//! Drawing with it (feature `gl`), given a `gl::GlContext` (from
//! `gl::headless::HeadlessGl::context`, or `GlContext::from_glow` over your window's context):
//!
//! ```no_run
//! # #[cfg(feature = "gl")]
//! # fn draw(ctx: &shadowdusk::gl::GlContext, texture: &shadowdusk::gl::GlTexture) -> Result<(), shadowdusk::gl::GlError> {
//! # shadowdusk::include_effect!("doc/tint.fx", in_process);
//! use shadowdusk::gl::{GlEffect, RenderTarget, Sprite, SpriteBatch};
//!
//! let mut fx = GlEffect::<tint::Effect>::new(ctx)?;
//! let mut sprites = SpriteBatch::new(ctx)?;
//! let mut params = tint::Params::default();
//! params.set_tint([1.0, 0.5, 0.5, 1.0]);
//! fx.set_params(&params);
//! fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(texture))?;
//! let target = RenderTarget::backbuffer(800, 480);
//! let pass = fx.apply(tint::passes::sprite_drawing::P0, &target)?;
//! sprites.draw(&pass, &[Sprite::new(16.0, 16.0, 64.0, 64.0)])?;
//! // Everything is released when `fx`, `sprites` and the texture are dropped.
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

// Generated modules name `::shadowdusk`; the unit tests include some.
#[cfg(test)]
extern crate self as shadowdusk;

/// The MGFX container model, reader and writer (the `shadowdusk-mgfx` crate).
pub use shadowdusk_mgfx as mgfx;

mod build_options;
mod device_states;
mod effect;
pub mod params;
#[cfg(any(feature = "gl", feature = "wgpu"))]
mod sprite;
pub mod surface_format;
mod wgpu_states;
pub mod wgsl;

pub use build_options::BuildOptions;
pub use device_states::{DeviceStates, SAMPLER_SLOTS};
pub use effect::{Effect, Pass, TextureSlot};
pub use surface_format::SurfaceFormat;

#[cfg(feature = "macros")]
pub use shadowdusk_macros::include_effect;

#[cfg(feature = "gl")]
pub mod gl;
#[cfg(feature = "hot-reload")]
pub mod hot;
/// wgpu itself (feature `wgpu`), the version the runtime is built on (30).
#[cfg(feature = "wgpu")]
pub use wgpu;
#[cfg(feature = "wgpu")]
pub mod wgpu_runtime;
