//! ShadowDusk compiler: HLSL effect files (`.fx`) to MonoGame MGFX v10 (OpenGL), at build time.
//!
//! The pipeline, one module per stage (see `ARCHITECTURE.md`):
//! [`preprocess`] → [`effect`] → [`lower`] → [`dxc`] → [`cross`] → [`dialect`] → [`layout`] →
//! [`shadowdusk_mgfx::write`]. [`pipeline`] strings them together.

#![warn(missing_docs)]

pub mod artifact;
pub mod builder;
pub mod codegen;
pub mod cross;
pub mod diag;
pub mod dialect;
pub mod dxc;
pub mod effect;
pub mod include_effect;
pub mod layout;
pub mod lower;
pub mod pipeline;
pub mod preprocess;
pub mod reflect;
pub mod source;

pub use builder::Builder;
