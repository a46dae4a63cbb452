//! Where the per-user DXC cache is: read by the file-identity memo ([`super::identity`]) and
//! filled by [`super::provision`], so it is neither's.

use std::path::PathBuf;

/// Overrides the cache folder (default: the platform's cache folder + `shadowdusk/dxc`).
pub const CACHE_ENV: &str = "SHADOWDUSK_DXC_CACHE";

/// The per-user DXC cache folder: `SHADOWDUSK_DXC_CACHE`, or the platform's cache folder +
/// `shadowdusk/dxc`.
pub(crate) fn cache_root() -> Result<PathBuf, String> {
    match std::env::var_os(CACHE_ENV).filter(|v| !v.is_empty()) {
        Some(dir) => Ok(PathBuf::from(dir)),
        None => Ok(dirs::cache_dir()
            .ok_or_else(|| {
                format!("no per-user cache folder is known here (no HOME); set {CACHE_ENV}")
            })?
            .join("shadowdusk")
            .join("dxc")),
    }
}
