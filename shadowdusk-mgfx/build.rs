//! `SOURCE_ID`: a hash of this crate's sources. The MGFX writer and register packing shape the
//! compiler's output, so the compiler's build id (`shadowdusk_compiler::COMPILER_ID`, the
//! Builder's cache key) folds this in: a changed writer is a new key, version bump or not.

#[path = "build/source_id.rs"]
mod source_id;

fn main() {
    // Read when the script runs, not baked in when it is built (see the compiler's build.rs).
    let root = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let root = root.as_path();
    println!(
        "cargo:rustc-env=SHADOWDUSK_MGFX_SOURCE_ID={}",
        source_id::source_id(root)
    );
    for entry in source_id::ENTRIES {
        println!("cargo:rerun-if-changed={entry}");
    }
}
