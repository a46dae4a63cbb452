//! OpenGL loader (feature `gl`): binds an MGFX effect to OpenGL exactly as MonoGame's OpenGL
//! runtime does.
//!
//! Input: a [`GlContext`] (a `glow` context promised current on this thread: GL 2.1+
//! compatibility, or any context that compiles GLSL 1.10 text) and an effect, either typed
//! ([`GlEffect<E>`](GlEffect) for the `E = tint::Effect` that `include_effect!` generates) or
//! loaded from bytes at run time ([`DynEffect`]). Applying a pass does what MonoGame's
//! `EffectPass.Apply` followed by the draw-time `ActivateShaderProgram` does: program use,
//! `posFixup`, constant buffer upload (`glUniform4fv` of the whole register array), texture
//! binding with the baked sampler states, and the pass's blend / depth-stencil / rasterizer
//! blocks.
//!
//! Safety without `unsafe` at the call site: [`GlContext::from_glow`] is the one `unsafe`
//! promise ("the context is current on this thread whenever anything made from it is used or
//! dropped"); every safe function here that calls GL takes a `&GlContext` or belongs to
//! something holding one, and every GL object is released by its owner's `Drop` (effects,
//! [`GlTexture`], [`GlRenderTarget`], [`SpriteBatch`]). The headless context
//! (`headless::HeadlessGl`) keeps that promise by itself.
//!
//! What MonoGame does is specified in glsl-dialect.md §1, §3, §4, §5, §7 and mgfx-format.md
//! §4–§8. Deliberate differences, each one documented where it lives:
//! * shaders are compiled and the program of every pass with a vertex shader is linked eagerly
//!   when an effect loads (MonoGame links on first draw) so a broken payload fails at load,
//!   naming technique, pass and shader. A pass without a vertex shader draws, as in MonoGame,
//!   with the vertex shader bound on the [`GlContext`]: the last applied pass's (of any effect
//!   of the context, with the registers it was applied with), else a built-in copy of
//!   SpriteBatch's ([`sprite_vs`]; [`SpriteBatch::begin`] binds it as MonoGame's SpriteBatch
//!   applies SpriteEffect's pass). Its program is linked for that pair when applied and kept;
//!   a pair that cannot link is [`GlError::BoundVertexLink`], naming both shaders;
//! * passes without a pixel shader are refused ([`GlError::MissingPixelShader`]);
//! * the texture bound to a sampler must have the sampler's GL target
//!   ([`GlError::TextureTarget`]); MonoGame would silently sample black.
//!
//! Around the loader, the pieces a game or a test needs to draw with it: 2D textures from RGBA8
//! pixels ([`GlTexture::from_rgba8`]), offscreen render targets with pixel read-back
//! ([`GlRenderTarget`], [`RenderTarget::read_rgba8`]), SpriteBatch-style quads ([`SpriteBatch`])
//! and, with feature `headless`, a window-less context for CI (`headless::HeadlessGl`).
//!
//! Refused (never a silent misrender): files of another profile, out-of-range indices in the
//! records, parameter writes of the wrong shape, constant-buffer entries that overrun the buffer,
//! textures and passes of another [`GlContext`] ([`GlError::ForeignContext`]).
//!
//! GL state shared with the caller is not trusted: a draw makes the program and textures of the
//! pass it is given current again ([`AppliedPass::bind`]); uploads and read-backs set the
//! pixel-store state they depend on and restore the caller's; the runtime never calls
//! `glGetError` (it clears the flag it returns, so it would take the caller's errors): what it
//! can check it checks up front (indices, texture targets, sizes against the driver's limits,
//! framebuffer completeness), and the caller's pending GL errors stay the caller's.

mod apply;
mod bound_vs;
mod cbuffer;
mod context;
mod dyn_effect;
mod effect;
mod error;
mod formats;
mod framebuffer;
#[cfg(feature = "headless")]
pub mod headless;
mod loaded;
mod params;
mod pixel_store;
mod program;
mod sampler;
pub mod sprite_vs;
mod sprites;
mod states;
mod texture;
mod validate;

pub use apply::{AppliedPass, RenderTarget};
pub use cbuffer::cbuffer_bytes;
pub use context::GlContext;
pub use dyn_effect::{DynEffect, DynPass};
pub use effect::{GlEffect, ReplaceError};
pub use error::{GlError, ShaderRef};
pub use framebuffer::GlRenderTarget;
pub use params::{matrix_data, parameter_value_count};
pub use sprites::{Sprite, SpriteBatch};
pub use texture::{set_sampling, GlTexture, TexelFilter};
