//! What ShadowDusk's own crates share that is no API: `shadowdusk-build` and the CLI write
//! files and name paths as the compiler does, and tests hold builds at chosen points. Hidden
//! from the documentation and from the public-API listing; it changes whenever they need it to.

use std::path::{Path, PathBuf};

pub use crate::file_stamp::FileStamp;
pub use crate::paths::{from_portable, normalize, portable, relative};

/// Holds the compile of an effect after its files were read, before its first stage
/// ([`test_gate`]).
pub const COMPILE_GATE: &str = "SHADOWDUSK_TEST_COMPILE_GATE";

/// Debug builds only: when the environment variable `var` names a folder, waits there: creates
/// `<folder>/waiting`, then returns once `<folder>/open` exists (or after two minutes, so a
/// forgotten gate cannot hang a build for ever). How a test edits a source at a chosen moment
/// of a build run as another process (`tests/tests/edits_during_a_build.rs`). Release builds
/// never wait.
pub fn test_gate(var: &str) {
    #[cfg(debug_assertions)]
    if let Some(dir) = std::env::var_os(var).filter(|d| !d.is_empty()) {
        let dir = std::path::PathBuf::from(dir);
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(dir.join("waiting"), b"");
        let start = std::time::Instant::now();
        while !dir.join("open").exists() && start.elapsed().as_secs() < 120 {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = var;
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
