//! ShadowDusk runtime: the MGFX (MonoGame compiled effect) model with a reader and a writer,
//! and, with the `gl` feature, a loader that binds an effect to OpenGL exactly as MonoGame's GL
//! runtime does.

#![warn(missing_docs)]

/// The MGFX container model, reader and writer (the `shadowdusk-mgfx` crate).
pub use shadowdusk_mgfx as mgfx;

pub mod params;

#[cfg(feature = "macros")]
pub use shadowdusk_macros::include_effect;

#[cfg(feature = "gl")]
pub mod gl;
