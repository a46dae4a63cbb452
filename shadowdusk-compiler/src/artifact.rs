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

/// Folder under `OUT_DIR` holding every artifact.
pub const DIR: &str = "shadowdusk";

/// Bumped whenever [`Manifest`] changes shape; a manifest of another version is ignored.
pub const FORMAT: u32 = 3;

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
    /// The `.mgfx` file, absolute.
    pub mgfx: PathBuf,
    /// Hex blake3 of everything the output depends on (sources, includes, options, compiler).
    pub cache_key: String,
    /// [`sources_hash`] of `reflection.files_read` when the effect was compiled: how
    /// `include_effect!` tells that the artifact is current (contents, not modification times).
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
}

impl Manifest {
    /// Reads a manifest; `None` when absent, unreadable or of another [`FORMAT`].
    pub fn load(path: &Path) -> Option<Manifest> {
        let text = std::fs::read_to_string(path).ok()?;
        let m: Manifest = serde_json::from_str(&text).ok()?;
        (m.format == FORMAT).then_some(m)
    }
}

/// Writes `bytes` to `path` through a temporary file beside it and a rename, so a reader — or a
/// later build after this one is killed — sees the old file or the new one, never half of one.
/// The CLI and the build script write every output this way.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, bytes, None)
}

/// [`write_atomic`], the file given the permission bits `mode` on Unix (the DXC worker
/// executable's `0o755`) before it is renamed into place, so it is never there without them.
/// The temporary file is created anew (never opened through a file or link already there).
#[cfg_attr(not(all(unix, feature = "compile")), allow(dead_code))]
pub(crate) fn write_atomic_with(
    path: &Path,
    bytes: &[u8],
    mode: Option<u32>,
) -> std::io::Result<()> {
    use std::io::Write;
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let mut file = match std::fs::File::create_new(&tmp) {
        // Left by a killed process that had this process id.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(&tmp)?;
            std::fs::File::create_new(&tmp)?
        }
        other => other?,
    };
    let written = file.write_all(bytes).and_then(|()| {
        #[cfg(unix)]
        if let Some(mode) = mode {
            use std::os::unix::fs::PermissionsExt;
            file.set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
        #[cfg(not(unix))]
        let _ = mode;
        Ok(())
    });
    drop(file);
    written
        .and_then(|()| {
            test_hook_pause();
            std::fs::rename(&tmp, path)
        })
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
}

/// Keeps a cache folder of `<key>.<index>` + `<key>.mgfx` pairs within `max_bytes`: when the
/// pairs take more, removes those whose `<key>.<index>` was touched longest ago (a hit touches
/// it) until at most 80 % is left, the index file first (without it the pair is a miss even if
/// the `.mgfx` stays). Temporary files ([`write_atomic`]'s, starting with a dot) are not
/// entries. Best effort: an entry another process removes first is simply gone.
pub fn prune_pairs(dir: &Path, index: &str, max_bytes: u64) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let suffix = format!(".{index}");
    let mut entries: Vec<(std::time::SystemTime, u64, PathBuf)> = Vec::new();
    let mut total = 0u64;
    for e in read.filter_map(Result::ok) {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.ends_with(&suffix) || name.starts_with('.') {
            continue;
        }
        let path = e.path();
        let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
        let bytes = size(&path).saturating_add(size(&path.with_extension("mgfx")));
        let used = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .unwrap_or(std::time::UNIX_EPOCH);
        total = total.saturating_add(bytes);
        entries.push((used, bytes, path));
    }
    if total <= max_bytes {
        return;
    }
    let target = max_bytes / 5 * 4;
    entries.sort();
    for (_, bytes, path) in entries {
        if total <= target {
            break;
        }
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(path.with_extension("mgfx"));
        total = total.saturating_sub(bytes);
    }
}

/// Debug builds only: `SHADOWDUSK_TEST_WRITE_PAUSE_MS` holds every write between its temporary
/// file and the rename, so a test can kill a build in the middle of writing (`tests/tests/
/// build_faults.rs`). Release builds have no such pause.
fn test_hook_pause() {
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var("SHADOWDUSK_TEST_WRITE_PAUSE_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// Hex blake3 of the contents of `files`, in order (each length-prefixed); `None` when one
/// cannot be read. Contents only, so a manifest moved to another checkout by the shared cache
/// still matches files with the same text.
pub fn sources_hash(files: &[PathBuf]) -> Option<String> {
    let mut h = blake3::Hasher::new();
    for f in files {
        let bytes = std::fs::read(f).ok()?;
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    Some(h.finalize().to_hex().to_string())
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
