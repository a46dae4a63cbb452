//! The build script's artifacts: where they live under `OUT_DIR` and what the manifest says.
//!
//! This is the contract between the build script (`shadowdusk_build::Builder`) (which writes them) and `include_effect!`
//! (which prefers them over compiling in-process). For an effect at `<crate>/shaders/tint.fx`,
//! with `rel = shaders/tint.fx` its path relative to the crate root (`CARGO_MANIFEST_DIR`), the
//! files are:
//!
//! - `OUT_DIR/shadowdusk/shaders/tint.mgfx`: the MGFX bytes;
//! - `OUT_DIR/shadowdusk/shaders/tint.json`: the [`Manifest`] (serde JSON);
//! - `OUT_DIR/shadowdusk/shaders/tint.rs`: the generated module, which `include_effect!`
//!   `include!`s (so it holds items only: no inner attributes or `//!` docs).
//!
//! Effects outside the crate root are placed by their path relative to the root with `..`
//! components spelled `__` (never outside `OUT_DIR/shadowdusk`).

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::reflect::EffectReflection;

/// Shared with the build script and the CLI through [`crate::plumbing`]; the compiler's own
/// caches (expansions, DXC identities) write through them too.
#[cfg(feature = "compile")]
pub(crate) use crate::plumbing::{prune_pairs, write_atomic};

/// Folder under `OUT_DIR` holding every artifact.
pub const DIR: &str = "shadowdusk";

/// Bumped whenever [`Manifest`] changes shape; a manifest of another version is ignored.
pub const FORMAT: u32 = 5;

/// The three files of one effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArtifactPaths {
    /// `.mgfx` bytes.
    pub mgfx: PathBuf,
    /// `.json` manifest.
    pub manifest: PathBuf,
    /// `.rs` generated module.
    pub code: PathBuf,
}

/// Where the artifacts of the effect at `rel` (relative to the crate root) go.
pub fn paths(out_dir: &Path, rel: &Path) -> ArtifactPaths {
    let mut base = out_dir.join(DIR);
    for c in rel.components() {
        match c {
            Component::Normal(s) => base.push(s),
            Component::ParentDir => base.push("__"),
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    ArtifactPaths {
        mgfx: base.with_extension("mgfx"),
        manifest: base.with_extension("json"),
        code: base.with_extension("rs"),
    }
}

/// What the build script records about one compiled effect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`FORMAT`].
    pub format: u32,
    /// The effect file, absolute.
    pub source: PathBuf,
    /// The effect file relative to the crate root, as `include_effect!` names it.
    pub relative: PathBuf,
    /// The crate root it was compiled for (`CARGO_MANIFEST_DIR`), absolute. Checkouts sharing a
    /// target folder share `OUT_DIR`; the build script serves an artifact only to its own root.
    pub root: PathBuf,
    /// The `.mgfx` file, absolute.
    pub mgfx: PathBuf,
    /// Hex blake3 of everything the output depends on (sources, includes, options, compiler).
    pub cache_key: String,
    /// [`sources_hash`] of `reflection.files_read` as the compile read them (the texts it
    /// compiled, not the files after it): how `include_effect!` tells that the artifact is
    /// current (contents, not modification times).
    pub sources_hash: String,
    /// Defines the effect was compiled with, in order.
    pub defines: Vec<(String, String)>,
    /// Include directories the effect was compiled with.
    pub include_dirs: Vec<PathBuf>,
    /// Whether warnings failed the compile (`/WX`), which the generated code carries for hot
    /// reload.
    pub warnings_as_errors: bool,
    /// Source-level reflection (parameters, locations, defaults, techniques, files read).
    pub reflection: EffectReflection,
    /// The MGFX model without shader code (parameters, register layout, samplers, passes).
    pub layout: shadowdusk_mgfx::Effect,
    /// The compile's warnings as the build script printed them, so a cached effect shows them
    /// again (cargo only shows the warnings of a build script's last run).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// The wgpu output, when the build turned the wgpu target on (`Builder::wgpu`): what the
    /// generated module's `wgsl` part is made from, so a shared-cache hit makes it too.
    #[serde(default)]
    pub wgpu: Option<shadowdusk_mgfx::wgpu::WgpuEffect>,
}

impl Manifest {
    /// Reads a manifest; `None` when absent, unreadable or of another [`FORMAT`].
    pub fn load(path: &Path) -> Option<Manifest> {
        let text = std::fs::read_to_string(path).ok()?;
        let m: Manifest = serde_json::from_str(&text).ok()?;
        (m.format == FORMAT).then_some(m)
    }
}

/// Hex blake3 of the texts of `files` as the compiler reads them, in order (each
/// length-prefixed): the bytes, as lossy UTF-8 like the preprocessor; `None` when one cannot be
/// read. Contents only, so a manifest moved to another checkout by the shared cache still
/// matches files with the same text.
pub fn sources_hash(files: &[PathBuf]) -> Option<String> {
    let mut texts = Vec::with_capacity(files.len());
    for f in files {
        texts.push(std::fs::read(f).ok()?);
    }
    Some(hash_texts(
        texts.iter().map(|bytes| String::from_utf8_lossy(bytes)),
    ))
}

/// [`sources_hash`] of texts already read: what the build script records for the texts it
/// compiled (`pipeline::Preprocessed::sources_hash`).
pub(crate) fn hash_texts<T: AsRef<str>>(texts: impl IntoIterator<Item = T>) -> String {
    let mut h = blake3::Hasher::new();
    for text in texts {
        let bytes = text.as_ref().as_bytes();
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    h.finalize().to_hex().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_under_out_dir() {
        let p = paths(Path::new("/o"), Path::new("shaders/tint.fx"));
        assert_eq!(p.mgfx, Path::new("/o/shadowdusk/shaders/tint.mgfx"));
        assert_eq!(p.manifest, Path::new("/o/shadowdusk/shaders/tint.json"));
        assert_eq!(p.code, Path::new("/o/shadowdusk/shaders/tint.rs"));
        let q = paths(Path::new("/o"), Path::new("../common/a.fx"));
        assert_eq!(q.mgfx, Path::new("/o/shadowdusk/__/common/a.mgfx"));
    }
}
