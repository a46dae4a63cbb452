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

/// A unit test that cannot run here: a loud `!!! SKIPPED` line, or with
/// `SHADOWDUSK_REQUIRE_ALL=1` (CI) a failure.
#[cfg(test)]
pub(crate) fn skip(test: &str, why: &str) {
    let all = std::env::var("SHADOWDUSK_REQUIRE_ALL").is_ok_and(|v| v == "1");
    assert!(!all, "{test} can't skip (SHADOWDUSK_REQUIRE_ALL=1): {why}");
    eprintln!("!!! SKIPPED {test}: {why}");
}

/// The running test's name (libtest names each test's thread after it), for [`skip`].
#[cfg(test)]
pub(crate) fn this_test() -> String {
    let name = std::thread::current().name().map(str::to_owned);
    name.unwrap_or_else(|| "a test on the main thread".into())
}
