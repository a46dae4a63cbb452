//! A build id for the compiler: a hash of this crate's sources, so the build-script cache
//! (`builder::cache`) never serves output of a compiler that has changed since, whether or not
//! its version number moved.

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
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
    println!(
        "cargo:rustc-env=SHADOWDUSK_COMPILER_ID={}",
        h.finalize().to_hex()
    );
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
}
