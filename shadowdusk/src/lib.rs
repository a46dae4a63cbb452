//! ShadowDusk runtime: use MonoGame effects (`.fx`, compiled to MGFX) from Rust.
//!
//! - `include_effect!` (feature `macros`, on by default) compiles an effect when your crate
//!   builds and generates a typed module for it: the MGFX bytes, a `Params` struct laid out
//!   exactly like the registers MonoGame uploads, one setter and getter per shader parameter,
//!   and typed technique, pass and texture items. Normally `shadowdusk_build::Builder` in
//!   `build.rs` compiles every effect of a folder (in parallel, with a cache, with your defines
//!   and include folders) and the macro picks up its output; a crate without a build script
//!   writes `include_effect!("…", in_process)`, as this example does.
//! - [`mgfx`] reads and writes the MGFX v10 container itself.
//! - `gl` (feature `gl`) loads an effect into OpenGL (glow) the way MonoGame's OpenGL
//!   runtime does and applies its passes; it takes the typed `Params` directly.
//!
//! ```
//! // `doc/tint.fx` is MonoGame's sprite-effect template with `float4 Tint = float4(1, 1, 1, 1);`
//! // and `float Amount = 0.35;`; the module is named after the file. (A doctest has no build
//! // script, so it compiles the effect in the macro: `in_process`.)
//! shadowdusk::include_effect!("doc/tint.fx", in_process);
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
//! // Techniques, passes and texture slots are items, not strings.
//! assert_eq!(tint::Technique::SpriteDrawing.name(), "SpriteDrawing");
//!
//! // The embedded bytes are a complete MGFX v10 file for MonoGame's OpenGL runtime.
//! let effect = shadowdusk::mgfx::read(tint::MGFX).expect("valid MGFX");
//! assert_eq!(effect.techniques[0].passes[0].name, "P0");
//! ```
//!
//! Drawing with it (feature `gl`), given a current `glow::Context`:
//!
//! ```no_run
//! # #[cfg(feature = "gl")]
//! # fn draw(gl: &glow::Context, texture: shadowdusk::gl::GlTexture) -> Result<(), shadowdusk::gl::GlError> {
//! # shadowdusk::include_effect!("doc/tint.fx", in_process);
//! use shadowdusk::gl::{GlEffect, RenderTarget};
//!
//! let mut fx = GlEffect::new(gl, tint::MGFX)?;
//! let mut params = tint::Params::default();
//! params.set_tint([1.0, 0.5, 0.5, 1.0]);
//! fx.set_params(&params)?;
//! fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(texture))?;
//! let target = RenderTarget { width: 800, height: 480, is_render_target: false, half_pixel_offset: false };
//! let pass = fx.apply(gl, tint::Technique::SpriteDrawing.index(), 0, &target)?;
//! // Feed vertex attributes at `pass.attribute_location(usage, index)`, then draw.
//! # let _ = pass;
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

/// The MGFX container model, reader and writer (the `shadowdusk-mgfx` crate).
pub use shadowdusk_mgfx as mgfx;

pub mod params;

#[cfg(feature = "macros")]
pub use shadowdusk_macros::include_effect;

#[cfg(feature = "gl")]
pub mod gl;
