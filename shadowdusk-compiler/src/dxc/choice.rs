//! Which DXC library compiles: one decision, taken by the cache key ([`super::expected_version`]),
//! the worker processes and in-process compiles alike, so a key never names a DXC other than the
//! one that compiled.
//!
//! The decision follows `locate`'s order: the file `SHADOWDUSK_DXC` names, else the verified copy
//! in the per-user cache, else the system loader's library (loaded here to learn which file it
//! is), else a fetch into the cache. Found once, it is remembered with the file's [`FileStamp`]
//! (device, inode, size, modification and status-change times) and the settings that led to it.
//! Every later use checks those with a few `stat`s: while they hold, the answer stands; when the
//! file was replaced (a new DXC copied in place, a symlink pointed elsewhere, the cached copy
//! fetched again) or the settings changed, the decision is taken again and the file identified
//! anew (through the remembered hashes of `identity`, so only a changed file is hashed).
//!
//! Input: the environment and the file system. Output: a [`Choice`]: the file to load and its
//! content hash, or why DXC is unavailable. A failure is not remembered: the next use decides
//! again (a long-lived process recovers once DXC is in place).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::chosen::{identify, Choice, Origin};
use super::locate::{self, Candidate};
use super::{cache_dir, instance, pins, provision};

/// Decision-side methods of [`Choice`].
impl Choice {
    /// Whether the decision still stands: the settings that led to it are unchanged, a named
    /// path still resolves to the same file, and the file is unchanged.
    fn stands(&self) -> bool {
        let named = named_library();
        let settings = match (&self.origin, &named) {
            (Origin::Named(was), Some(now)) => {
                was == now && std::fs::canonicalize(now).is_ok_and(|real| real == self.path)
            }
            (Origin::Cached(root), None) => cache_dir::cache_root().is_ok_and(|r| r == *root),
            (Origin::System, None) => true,
            _ => false,
        };
        settings && self.file_unchanged()
    }
}

/// The last decision, while it stands.
static CHOSEN: Mutex<Option<Choice>> = Mutex::new(None);

/// The DXC library the next compile uses, or why there is none.
pub fn current() -> Result<Choice, String> {
    let mut chosen = CHOSEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = chosen.as_ref().filter(|c| c.stands()) {
        return Ok(c.clone());
    }
    *chosen = None;
    let c = decide()?;
    *chosen = Some(c.clone());
    Ok(c)
}

/// `SHADOWDUSK_DXC`, when set and not empty.
fn named_library() -> Option<OsString> {
    std::env::var_os(super::LIBRARY_VAR).filter(|v| !v.is_empty())
}

/// Takes the decision anew: the first candidate there is.
fn decide() -> Result<Choice, String> {
    let mut failures = Vec::new();
    for candidate in locate::candidates()? {
        match candidate {
            Candidate::Explicit(named) => {
                let origin = Origin::Named(named.clone().into_os_string());
                return identified(&named, origin);
            }
            Candidate::Cached(c) => return cached(c),
            Candidate::System => match instance::load_system() {
                Ok(file) => return system(file),
                Err(e) => failures.push(e),
            },
            Candidate::Fetch(cache) => match cache.provide(&provision::notice) {
                Ok(c) => return cached(c),
                Err(e) => failures.push(e),
            },
        }
    }
    Err(format!(
        "could not load the DXC shader compiler ({}): {}",
        pins::library_file_name(),
        failures.join("; ")
    ))
}

/// The file at `path`, identified by content.
fn identified(path: &Path, origin: Origin) -> Result<Choice, String> {
    let (path, stamp, sha256) =
        identify(path).map_err(|e| format!("DXC at {}: {e}", path.display()))?;
    Ok(Choice {
        path,
        sha256,
        stamp: Some(stamp),
        origin,
    })
}

/// A verified copy in the per-user cache.
fn cached(c: provision::Cached) -> Result<Choice, String> {
    let root = cache_dir::cache_root()?;
    let choice = identified(&c.path, Origin::Cached(root))?;
    // Verified a moment ago; another hash now means the copy was replaced meanwhile.
    if choice.sha256 != c.sha256 {
        return Err(format!(
            "the DXC in the per-user cache ({}) changed while it was checked; try again",
            c.path.display()
        ));
    }
    Ok(choice)
}

/// The system loader's library, loaded into this process to learn its file
/// ([`instance::load_system`]): that file, or, where it cannot be found, only its name and the
/// identity the loaded library was given.
fn system((path, sha256): (PathBuf, String)) -> Result<Choice, String> {
    if path.is_absolute() && path.is_file() {
        return identified(&path, Origin::System);
    }
    Ok(Choice {
        path,
        sha256,
        stamp: None,
        origin: Origin::System,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(dir: &Path, bytes: &[u8]) -> Choice {
        let lib = dir.join("libdxcompiler.so");
        std::fs::write(&lib, bytes).unwrap();
        identified(&lib, Origin::System).unwrap()
    }

    /// A file rewritten in place (same path, same size) no longer stands; an untouched one does.
    #[test]
    fn a_rewritten_file_is_a_new_decision() {
        let dir = tempfile::tempdir().expect("temp dir");
        let c = choice(dir.path(), b"DXC build a");
        assert!(c.file_unchanged());
        assert_eq!(
            c.path,
            dir.path().canonicalize().unwrap().join("libdxcompiler.so")
        );
        std::fs::write(&c.path, b"DXC build b").unwrap();
        assert!(!c.file_unchanged());
        let again = choice(dir.path(), b"DXC build b");
        assert_ne!(again.sha256, c.sha256);
        assert_ne!(again.version(), c.version());
    }

    /// A renamed-over file (a new inode at the path) is a change too.
    #[test]
    fn a_file_renamed_over_is_a_change() {
        let dir = tempfile::tempdir().expect("temp dir");
        let c = choice(dir.path(), b"same bytes");
        let other = dir.path().join("new");
        std::fs::write(&other, b"same bytes").unwrap();
        std::fs::rename(&other, &c.path).unwrap();
        assert!(!c.file_unchanged());
    }
}
