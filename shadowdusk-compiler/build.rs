//! Two things for the compiler:
//! * A build id: a hash of this crate's sources, so the build-script cache (`builder::cache`)
//!   never serves output of a compiler that has changed since, whether or not its version number
//!   moved.
//! * The DXC worker executable (`src/dxc/worker.c`, see `dxc::isolate`), on Unix targets with the
//!   `compile` feature: linked by the target's C compiler into `OUT_DIR`, which the crate embeds.

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!(
        "cargo:rustc-env=SHADOWDUSK_COMPILER_ID={}",
        source_hash(root)
    );
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    let unix = std::env::var_os("CARGO_CFG_UNIX").is_some();
    if unix && std::env::var_os("CARGO_FEATURE_COMPILE").is_some() {
        build_worker(&root.join("src/dxc/worker.c"));
    }
}

fn source_hash(root: &Path) -> String {
    let mut files: Vec<_> = walkdir::WalkDir::new(root.join("src"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    files.push(root.join("Cargo.toml"));
    files.sort();
    let mut h = blake3::Hasher::new();
    for f in &files {
        let rel = f.strip_prefix(root).unwrap_or(f);
        h.update(rel.to_string_lossy().as_bytes());
        h.update(&[0]);
        if let Ok(bytes) = std::fs::read(f) {
            h.update(&(bytes.len() as u64).to_le_bytes());
            h.update(&bytes);
        }
    }
    h.finalize().to_hex().to_string()
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
