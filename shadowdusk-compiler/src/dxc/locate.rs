//! Where DXC is loaded from, in order: the file `SHADOWDUSK_DXC` names (loaded as named), a
//! verified copy in the per-user cache (`super::provision`), the system loader path, and last a
//! fetch of a pinned DXC 1.8 into that cache (unless offline).
//!
//! A library is native code run inside every build, so nothing else is searched: never the
//! working directory or its parents, where a file dropped higher up the tree would be picked up.
//! A cached copy is loaded only when its SHA-256 is the one it must have.
//!
//! Input: the environment and the file system. Output: an ordered list of candidates. Nothing is
//! loaded here; `super::choice` takes the first that is there.

use std::path::PathBuf;

use super::provision::{Cached, Provisioner};
use super::LIBRARY_VAR as ENV_VAR;

/// One place to try loading DXC from.
#[derive(Clone, Debug)]
pub enum Candidate {
    /// A file the user named: loaded as it is.
    Explicit(PathBuf),
    /// A copy in the per-user cache, its hash checked.
    Cached(Cached),
    /// The library through the system loader search path.
    System,
    /// Fetch a pinned DXC into this cache, then load it.
    Fetch(Provisioner),
}

/// Where to load DXC from, in priority order.
///
/// `Err` when `SHADOWDUSK_DXC` is set but names no file: the user asked for that file, so
/// silently falling back to another DXC would hide a misconfiguration.
pub fn candidates() -> Result<Vec<Candidate>, String> {
    let explicit = std::env::var_os(ENV_VAR)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    if let Some(p) = explicit {
        return explicit_candidate(p).map(|c| vec![c]);
    }
    let cache = Provisioner::from_env()?;
    Ok(candidates_with(cache))
}

fn explicit_candidate(p: PathBuf) -> Result<Candidate, String> {
    if !p.is_file() {
        return Err(format!(
            "{ENV_VAR} is set to `{}`, but no file exists there; point it at {} or unset it to \
             use the per-user cache",
            p.display(),
            super::pins::library_file_name()
        ));
    }
    Ok(Candidate::Explicit(p))
}

/// The candidates without `SHADOWDUSK_DXC`, for this cache.
fn candidates_with(cache: Provisioner) -> Vec<Candidate> {
    let mut out = Vec::new();
    if let Some(c) = cache.cached() {
        out.push(Candidate::Cached(c));
    }
    out.push(Candidate::System);
    out.push(Candidate::Fetch(cache));
    out
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
    use super::super::pins;
    use super::*;

    #[test]
    fn a_verified_cache_copy_comes_before_the_system_and_a_fetch_comes_last() {
        let dir = tempfile::tempdir().expect("temp dir");
        let sources = pins::for_platform("linux", "x86_64", None);
        let names = |c: &[Candidate]| -> Vec<&'static str> {
            c.iter()
                .map(|c| match c {
                    Candidate::Explicit(_) => "explicit",
                    Candidate::Cached(_) => "cached",
                    Candidate::System => "system",
                    Candidate::Fetch(_) => "fetch",
                })
                .collect()
        };
        let empty = candidates_with(Provisioner::new(dir.path(), sources.clone()));
        assert_eq!(names(&empty), ["system", "fetch"]);
        // A copy whose bytes do not hash to the pin is not a candidate: it is fetched again.
        let planted = dir.path().join(&sources[0].key);
        std::fs::create_dir_all(&planted).unwrap();
        std::fs::write(planted.join(pins::library_file_name()), b"not DXC").unwrap();
        let planted = candidates_with(Provisioner::new(dir.path(), sources));
        assert_eq!(names(&planted), ["system", "fetch"]);
    }

    #[test]
    fn explicit_path_must_exist() {
        let e = explicit_candidate(PathBuf::from("/nonexistent/libdxcompiler.so")).unwrap_err();
        assert!(
            e.contains("SHADOWDUSK_DXC") && e.contains("/nonexistent/libdxcompiler.so"),
            "{e}"
        );
        let this_file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        assert!(matches!(
            explicit_candidate(this_file),
            Ok(Candidate::Explicit(_))
        ));
    }

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
}
