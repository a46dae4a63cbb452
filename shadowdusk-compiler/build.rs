//! Two things for the compiler:
//! * The parts of its build id (`COMPILER_ID`, see `src/build_id.rs`) a build script can see: a
//!   hash of this crate's sources, and the versions of the DXC binding and SPIRV-Cross, which
//!   `Cargo.toml` pins exactly. With `shadowdusk_mgfx::SOURCE_ID` they make the Builder's cache key
//!   (`shadowdusk-build`'s `cache`) change whenever code that shapes the output changes, whether
//!   or not a version number moved.
//! * The DXC worker executable (`src/dxc/worker.c`, see `dxc::isolate`), on Unix targets with the
//!   `compile` feature: linked by the target's C compiler into `OUT_DIR`, which the crate embeds.

use std::path::Path;

#[path = "build/pinned.rs"]
mod pinned;
#[path = "build/source_id.rs"]
mod source_id;

fn main() {
    // Read when the script runs, not baked in when it is built: one build-script binary may
    // serve checkouts at other paths that share a target folder (cargo keys path packages by
    // their place in the workspace), and a baked path would name a checkout that is gone.
    let root = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let root = root.as_path();
    println!(
        "cargo:rustc-env=SHADOWDUSK_COMPILER_SOURCES={}",
        source_id::source_id(root)
    );
    for entry in source_id::ENTRIES {
        println!("cargo:rerun-if-changed={entry}");
    }

    // `Cargo.toml` is one of the entries above: a changed pin re-runs this script.
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap_or_default();
    println!(
        "cargo:rustc-env=SHADOWDUSK_COMPILER_DEPS={}",
        pinned::requirements(&manifest)
    );

    let unix = std::env::var_os("CARGO_CFG_UNIX").is_some();
    if unix && std::env::var_os("CARGO_FEATURE_COMPILE").is_some() {
        build_worker(&root.join("src/dxc/worker.c"));
    }
}

/// `cc` knows the target's C compiler and flags but builds only libraries, so the executable is
/// linked by running that compiler directly.
fn build_worker(source: &Path) {
    let out = Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("shadowdusk-dxc-worker");
    let compiler = cc::Build::new()
        .opt_level(2)
        .debug(false)
        .warnings(true)
        .get_compiler();
    let mut cmd = compiler.to_command();
    cmd.arg("-std=c99")
        .arg(source)
        .arg("-o")
        .arg(&out)
        .arg("-ldl");
    let status = cmd.status().unwrap_or_else(|e| {
        panic!(
            "shadowdusk-compiler: cannot run the C compiler {:?} to build the DXC worker: {e}",
            compiler.path()
        )
    });
    assert!(
        status.success(),
        "shadowdusk-compiler: building the DXC worker ({}) failed: {status}",
        source.display()
    );
}
