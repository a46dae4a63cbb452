//! Crate fixtures copied out of the workspace before cargo builds them as a user would.

use std::path::{Path, PathBuf};

/// Copies the folder `from` to `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read fixture") {
        let e = e.expect("entry");
        let dest = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).expect("copy");
        }
    }
}

/// DXC for the builds of a fixture crate (`SHADOWDUSK_DXC`, else the per-user cache's), or
/// `None` after a loud skip.
pub fn dxc(test: &str) -> Option<PathBuf> {
    let cached = || {
        shadowdusk_compiler::dxc::provision::Provisioner::from_env()
            .ok()
            .and_then(|p| p.cached())
            .map(|c| c.path)
    };
    let dxc = match std::env::var_os("SHADOWDUSK_DXC") {
        Some(p) => PathBuf::from(p),
        None => cached().unwrap_or_else(|| PathBuf::from("libdxcompiler.so")),
    };
    if dxc.is_file() {
        return Some(dxc);
    }
    let why = format!("no DXC at {} (run `cargo xtask setup`)", dxc.display());
    crate::skip(test, &why);
    None
}
