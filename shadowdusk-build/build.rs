//! `SHADOWDUSK_BUILD_SOURCES`: a hash of this crate's sources (`build/source_id.rs`, the same
//! recipe as the compiler's and the MGFX crate's). The Builder writes the manifest, the
//! generated module's `Effect::OPTIONS` and the v11 source name, so its own code shapes the
//! output too: the cache key holds this hash, and a changed Builder is a new key, version bump
//! or not.

#[path = "build/source_id.rs"]
mod source_id;

fn main() {
    // Read when the script runs, not baked in when it is built (see the compiler's build.rs).
    let root = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    println!(
        "cargo:rustc-env=SHADOWDUSK_BUILD_SOURCES={}",
        source_id::source_id(&root)
    );
    for entry in source_id::ENTRIES {
        println!("cargo:rerun-if-changed={entry}");
    }
}
