//! The ShadowDusk compiler: HLSL effect files (`.fx`) to MonoGame MGFX (v10, OpenGL), with the
//! reflection and the typed Rust module that go with them.
//!
//! ```no_run
//! use shadowdusk_compiler::{compile_file, Options};
//!
//! match compile_file("shaders/tint.fx".as_ref(), &Options::default()) {
//!     Ok(done) => std::fs::write("tint.mgfx", &done.bytes).unwrap(),
//!     Err(e) => eprintln!("{}", e.render(false)),
//! }
//! ```
//!
//! What a user of the compiler needs is at the root: [`compile_file`] / [`compile_source`] with
//! [`Options`] give a [`Compiled`] (MGFX bytes, [`reflect::EffectReflection`], warnings, every
//! file read) or a [`CompileError`] (positioned [`diag::Diagnostics`] over the [`source`] files).
//! [`codegen::generate`] turns a compiled effect into its typed module; [`artifact`] is the
//! on-disk contract between the build script and `include_effect!` ([`include_effect::expand`]);
//! [`dxc`] says where DXC is and whether it loads.
//!
//! Inside, one module per stage (see `ARCHITECTURE.md`): [`preprocess`] → effect parse → lower
//! → DXC → SPIR-V → GLSL → dialect rewrite → layout → [`shadowdusk_mgfx::write`], strung
//! together by [`pipeline`]. The stages between the preprocessor and DXC are private; the
//! `internals` feature makes them public for ShadowDusk's own stage tests and fuzz targets,
//! with no stability promise.
//!
//! All of that is the default feature `compile` (DXC through hassle-rs, SPIRV-Cross). Without
//! it the crate is only what `include_effect!` needs to read the build script's artifacts
//! ([`artifact`], [`reflect`], [`include_effect`]), which is how `shadowdusk-macros`
//! depends on it unless its `in-process` feature is on.

#![warn(missing_docs)]

/// Declares the pipeline stages between the preprocessor and DXC: private, or public with the
/// `internals` feature (ShadowDusk's stage tests and fuzz targets). Without the feature, items
/// only those callers use are dead code here, which is expected.
#[cfg(feature = "compile")]
macro_rules! stages {
    ($($stage:ident),*) => {$(
        #[cfg(feature = "internals")]
        pub mod $stage;
        #[cfg(not(feature = "internals"))]
        #[allow(dead_code, unused_imports)]
        mod $stage;
    )*};
}

#[cfg(feature = "compile")]
stages!(cross, dialect, effect, layout, lower);

// What `include_effect!` needs to read the build script's artifacts: always built.
pub mod artifact;
mod build_id;
mod file_stamp;
pub mod include_effect;
mod paths;
#[doc(hidden)]
pub mod plumbing;
pub mod reflect;
// The wgpu output's data (in the manifest); its translation needs the features `wgsl`.
pub mod wgsl;

// The compiler itself: the default feature `compile`.
#[cfg(feature = "compile")]
pub mod codegen;
#[cfg(feature = "compile")]
pub mod diag;
#[cfg(feature = "compile")]
pub mod dxc;
#[cfg(feature = "compile")]
pub mod pipeline;
#[cfg(feature = "compile")]
pub mod preprocess;
#[cfg(feature = "compile")]
pub mod source;
#[cfg(feature = "watch")]
pub mod watch;

#[cfg(feature = "compile")]
pub use pipeline::{compile_file, compile_source, CompileError, Compiled, MgfxVersion, Options};

/// Identifies this compiler build: its version, a hash of its sources, the MGFX writer's
/// source hash (`shadowdusk_mgfx::SOURCE_ID`) and the resolved hassle-rs and SPIRV-Cross
/// versions, as `name=value` parts joined by `;`. A cache keyed on it never serves output of a
/// compiler that has changed since, whether or not a version number moved.
pub const COMPILER_ID: &str = build_id::ID;
