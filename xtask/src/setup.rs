//! `cargo xtask setup`: what `shadowdusk setup` does — make sure DXC loads, fetching the pinned
//! DXC 1.8 into the per-user cache when it is nowhere else — from inside the workspace. The pin
//! table, the hashing and the cache live in `shadowdusk_compiler::dxc` (`pins`, `provision`).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Workspace root (the parent of `xtask/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Where DXC loaded from, once [`run`] succeeded.
static LOADED: OnceLock<PathBuf> = OnceLock::new();

/// The library file the tests and the game are pointed at (`SHADOWDUSK_DXC`): what [`run`]
/// loaded (running it first if it has not run), or the system's by name.
pub fn dxc_path() -> PathBuf {
    if LOADED.get().is_none() {
        let _ = run();
    }
    LOADED
        .get()
        .cloned()
        .unwrap_or_else(|| PathBuf::from(shadowdusk_compiler::dxc::pins::library_file_name()))
}

pub fn run() -> Result<(), String> {
    let (path, sha256) = shadowdusk_compiler::dxc::setup()?;
    match path {
        Some(p) => {
            println!(
                "DXC: {} (sha256 {})",
                p.display(),
                sha256.as_deref().unwrap_or("unknown")
            );
            let _ = LOADED.set(p);
        }
        None => println!("DXC: the system's library"),
    }
    Ok(())
}
