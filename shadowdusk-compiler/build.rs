//! The parts of the compiler's build id (`COMPILER_ID`, see `src/build_id.rs`) a build script
//! can see: a hash of this crate's sources, and the versions Cargo resolved for the DXC binding
//! and SPIRV-Cross. With `shadowdusk_mgfx::SOURCE_ID` they make the Builder's cache key
//! (`shadowdusk-build`'s `cache`) change whenever code that shapes the output changes, whether
//! or not a version number moved.

use std::path::{Path, PathBuf};

#[path = "build/locked.rs"]
mod locked;
#[path = "build/source_id.rs"]
mod source_id;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!(
        "cargo:rustc-env=SHADOWDUSK_COMPILER_SOURCES={}",
        source_id::source_id(root)
    );
    for entry in source_id::ENTRIES {
        println!("cargo:rerun-if-changed={entry}");
    }

    let starts: Vec<PathBuf> = [std::env::var_os("OUT_DIR"), Some(root.into())]
        .into_iter()
        .flatten()
        .map(PathBuf::from)
        .collect();
    let lock = locked::find_lock(&starts, env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"));
    if let Some((path, _)) = &lock {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    println!(
        "cargo:rustc-env=SHADOWDUSK_COMPILER_DEPS={}",
        locked::lock_or_unresolved(lock.as_ref())
    );
}
