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
}
