//! A crate's source hash: the blake3 of every file under [`ENTRIES`] (folders walked,
//! files taken as they are), each as its `/`-separated path relative to the crate root, its
//! length and its bytes, in path order. The same on every platform and in every checkout, so a
//! shared build cache keyed on it is shared too.
//!
//! Each published crate carries its own copy of this file (a build script cannot reach another
//! package's files): `shadowdusk-mgfx/build/source_id.rs`,
//! `shadowdusk-compiler/build/source_id.rs` and `shadowdusk-build/build/source_id.rs` are
//! identical, and each crate's tests compare its build-time hash with one recomputed from its
//! files.

use std::path::{Path, PathBuf};

/// What the hash covers, relative to the crate root: everything that is compiled into it.
pub const ENTRIES: &[&str] = &["src", "build", "build.rs", "Cargo.toml"];

/// The source hash of the crate at `root` ([`ENTRIES`]), in lowercase hex.
pub fn source_id(root: &Path) -> String {
    let mut files = Vec::new();
    for e in ENTRIES {
        collect(&root.join(e), &mut files);
    }
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|f| (portable(f.strip_prefix(root).unwrap_or(&f)), f))
        .collect();
    named.sort();
    let mut h = blake3::Hasher::new();
    for (name, path) in &named {
        let bytes = std::fs::read(path).unwrap_or_default();
        h.update(&(name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    h.finalize().to_hex().to_string()
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    let Ok(read) = std::fs::read_dir(path) else {
        if path.is_file() {
            out.push(path.to_path_buf());
        }
        return;
    };
    for e in read.filter_map(Result::ok) {
        collect(&e.path(), out);
    }
}

fn portable(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
