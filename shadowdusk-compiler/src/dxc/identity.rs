//! Which DXC library a build used, by content: the SHA-256 of the file, for cache keys.
//!
//! The Builder's cache key must change whenever the DXC that compiles changes, wherever it was
//! loaded from: a copy in the per-user cache, the file `SHADOWDUSK_DXC` names (possibly a
//! symlink that is later pointed elsewhere), or the system's library (on Linux usually reached
//! through a versioned symlink, `libdxcompiler.so` → `libdxcompiler.so.3.7`). A name or a path
//! says nothing about the bytes behind it, so the file is hashed.
//!
//! Hashing 35 MB takes 2.5 s unoptimised, as build scripts and their dependencies are built,
//! and every build script run would pay it (a cached copy is verified against its pin, and
//! `choice` identifies whichever file it picks). So the hash is
//! remembered on disk, in `library-ids.json` in the per-user DXC cache, under the file's real
//! path (symlinks resolved) and its [`FileStamp`]: size and modification time, and on Unix also
//! the device, inode and status-change time, which no tool can set back (a file rewritten to
//! the same size with its old mtime restored still gets a new `ctime`). A stamp that differs in
//! anything is a miss and the file is hashed again. The memo is best effort: a missing,
//! damaged or unwritable file only costs the hash.
//!
//! Input: a library path. Output: its SHA-256 in lowercase hex. A library with no file to hash
//! gets an identity no other run shares ([`unidentified`]), so a cache is never served by an
//! unknown DXC (every build then recompiles).

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::file_stamp::FileStamp;

/// The memo's file name, in the per-user DXC cache folder.
const MEMO_FILE: &str = "library-ids.json";
/// Entries kept in the memo (the most recently hashed): one per DXC a user has loaded lately.
const MEMO_ENTRIES: usize = 16;

/// SHA-256 (lowercase hex) of the file at `path` (symlinks followed), remembered in the
/// per-user cache by real path, size and times.
pub fn content_id(path: &Path) -> io::Result<String> {
    match memo_path() {
        Some(memo) => content_id_with(&memo, path),
        None => hash(path),
    }
}

/// [`content_id`] with the memo at `memo`.
pub(crate) fn content_id_with(memo: &Path, path: &Path) -> io::Result<String> {
    let real = std::fs::canonicalize(path)?;
    let stamp = FileStamp::of(&real)?;
    let mut entries = read_memo(memo);
    if let Some(e) = entries.iter().find(|e| e.path == real && e.stamp == stamp) {
        return Ok(e.sha256.clone());
    }
    let sha256 = hash(&real)?;
    // A file changed while it was hashed gets no entry: the next run hashes it again.
    if FileStamp::of(&real)? == stamp {
        entries.retain(|e| e.path != real);
        entries.insert(
            0,
            Entry {
                path: real,
                stamp,
                sha256: sha256.clone(),
            },
        );
        entries.truncate(MEMO_ENTRIES);
        write_memo(memo, &entries);
    }
    Ok(sha256)
}

fn hash(path: &Path) -> io::Result<String> {
    super::fetch::sha256_file(path).map_err(io::Error::other)
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    path: PathBuf,
    stamp: FileStamp,
    sha256: String,
}

fn memo_path() -> Option<PathBuf> {
    super::cache_dir::cache_root().ok().map(|r| memo_in(&r))
}

/// The memo of the per-user DXC cache folder `root`.
pub(crate) fn memo_in(root: &Path) -> PathBuf {
    root.join(MEMO_FILE)
}

fn read_memo(memo: &Path) -> Vec<Entry> {
    std::fs::read(memo)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Writes through a unique temporary file and a rename, so builds sharing the memo never read
/// half of one; the last writer wins, and a lost entry is only hashed again.
fn write_memo(memo: &Path, entries: &[Entry]) {
    let Ok(text) = serde_json::to_vec_pretty(entries) else {
        return;
    };
    if let Some(dir) = memo.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = crate::plumbing::write_atomic(memo, &text);
}

/// The file the system loader took DXC from: on Linux the file mapped into this process, under
/// its real (versioned) name; otherwise the first match on the loader's search path.
pub fn system_library_file() -> Option<PathBuf> {
    let name = super::pins::library_file_name();
    mapped_file(&name).or_else(|| on_search_path(&name))
}

/// The first `name` in the folders the platform's loader searches by environment.
fn on_search_path(name: &str) -> Option<PathBuf> {
    let var = if cfg!(windows) {
        "PATH"
    } else if cfg!(target_os = "macos") {
        "DYLD_LIBRARY_PATH"
    } else {
        "LD_LIBRARY_PATH"
    };
    let listed = std::env::var_os(var);
    let listed = listed.iter().flat_map(std::env::split_paths);
    let usual = ["/usr/local/lib", "/usr/lib"].map(PathBuf::from);
    listed
        .chain(usual)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// An identity no other run has: a DXC that cannot be identified never shares a cache entry.
pub fn unidentified() -> String {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("unidentified:{}:{now}:{n}", std::process::id())
}

/// The file a shared object named `name` was mapped from in this process, for hashing what the
/// system loader picked: named `name`, or `name` with a version suffix (`libdxcompiler.so.3.7`,
/// the real file behind a distribution's `libdxcompiler.so` symlink). Linux only
/// (`/proc/self/maps`); `None` elsewhere.
#[cfg(target_os = "linux")]
pub fn mapped_file(name: &str) -> Option<PathBuf> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    maps.lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .map(std::path::Path::new)
        .find(|p| {
            p.file_name()
                .is_some_and(|f| is_versioned(&f.to_string_lossy(), name))
        })
        .map(std::path::Path::to_path_buf)
}

/// Whether `file` is `name` or `name` with a version suffix (`.3.7`).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn is_versioned(file: &str, name: &str) -> bool {
    file.strip_prefix(name)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// The file a shared object named `name` was mapped from in this process: Linux only, so `None`.
#[cfg(not(target_os = "linux"))]
pub fn mapped_file(name: &str) -> Option<PathBuf> {
    let _ = name;
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_mapped_libraries() {
        assert_eq!(mapped_file("no-such-library.so"), None);
        // This test binary maps the C library it links dynamically, also found under its
        // unversioned name, as a system DXC behind `libdxcompiler.so` is.
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        {
            assert!(mapped_file("libc.so.6").is_some_and(|f| f.is_file()));
            assert!(mapped_file("libc.so").is_some_and(|f| f.is_file()));
        }
    }

    #[test]
    fn versioned_names_are_the_library() {
        assert!(is_versioned("libdxcompiler.so", "libdxcompiler.so"));
        assert!(is_versioned("libdxcompiler.so.3.7", "libdxcompiler.so"));
        assert!(!is_versioned("libdxcompiler.so_old", "libdxcompiler.so"));
        assert!(!is_versioned("libdxil.so", "libdxcompiler.so"));
    }

    fn sha(bytes: &[u8]) -> String {
        use sha2::Digest;
        sha2::Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// The memo answers for an unchanged file (a planted answer comes back, so nothing was
    /// hashed), and a new content at the same path, size and modification time is hashed again.
    #[test]
    fn the_memo_serves_an_unchanged_file_and_misses_a_rewritten_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let memo = dir.path().join("memo.json");
        let lib = dir.path().join("libdxcompiler.so");
        std::fs::write(&lib, b"first build").unwrap();
        assert_eq!(content_id_with(&memo, &lib).unwrap(), sha(b"first build"));

        let planted = std::fs::read_to_string(&memo)
            .unwrap()
            .replace(&sha(b"first build"), "remembered");
        std::fs::write(&memo, planted).unwrap();
        assert_eq!(content_id_with(&memo, &lib).unwrap(), "remembered");

        let mtime = std::fs::metadata(&lib).unwrap().modified().unwrap();
        std::fs::write(&lib, b"other build").unwrap();
        let f = std::fs::File::options().write(true).open(&lib).unwrap();
        f.set_modified(mtime).unwrap();
        drop(f);
        assert_eq!(std::fs::metadata(&lib).unwrap().modified().unwrap(), mtime);
        assert_eq!(content_id_with(&memo, &lib).unwrap(), sha(b"other build"));
    }

    #[cfg(unix)]
    #[test]
    fn a_retargeted_symlink_is_the_new_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let memo = dir.path().join("memo.json");
        let (a, b) = (dir.path().join("dxc-a.so"), dir.path().join("dxc-b.so"));
        std::fs::write(&a, b"DXC build a").unwrap();
        std::fs::write(&b, b"DXC build b").unwrap();
        let link = dir.path().join("libdxcompiler.so");
        std::os::unix::fs::symlink(&a, &link).unwrap();
        assert_eq!(content_id_with(&memo, &link).unwrap(), sha(b"DXC build a"));
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(&b, &link).unwrap();
        assert_eq!(content_id_with(&memo, &link).unwrap(), sha(b"DXC build b"));
        // Both stay remembered, each under its real path.
        assert_eq!(read_memo(&memo).len(), 2);
    }

    #[test]
    fn a_damaged_memo_is_only_a_miss_and_a_missing_file_an_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        let memo = dir.path().join("memo.json");
        std::fs::write(&memo, b"{ not json").unwrap();
        let lib = dir.path().join("lib.so");
        std::fs::write(&lib, b"abc").unwrap();
        assert_eq!(content_id_with(&memo, &lib).unwrap(), sha(b"abc"));
        assert_eq!(read_memo(&memo).len(), 1, "the memo was rewritten whole");
        assert!(content_id_with(&memo, &dir.path().join("missing.so")).is_err());
    }

    #[test]
    fn the_memo_keeps_the_most_recently_hashed_entries_only() {
        let dir = tempfile::tempdir().expect("temp dir");
        let memo = dir.path().join("memo.json");
        for i in 0..MEMO_ENTRIES + 3 {
            let f = dir.path().join(format!("lib{i}.so"));
            std::fs::write(&f, i.to_string()).unwrap();
            content_id_with(&memo, &f).unwrap();
        }
        let kept = read_memo(&memo);
        assert_eq!(kept.len(), MEMO_ENTRIES);
        assert!(kept[0]
            .path
            .ends_with(format!("lib{}.so", MEMO_ENTRIES + 2)));
    }

    /// A DXC nobody can identify gets an identity no other build shares.
    #[test]
    fn an_unidentified_library_matches_nothing() {
        let (a, b) = (unidentified(), unidentified());
        assert!(a.starts_with("unidentified:"), "{a}");
        assert_ne!(a, b);
    }
}
