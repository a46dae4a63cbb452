//! Finding `libdxcompiler.so`: `SHADOWDUSK_DXC`, then the copy `cargo xtask setup` made in the
//! workspace of the crate being built (`<workspace root>/.tools/dxc/libdxcompiler.so`, the root
//! found from the manifest directory cargo gives), then the system loader path.
//!
//! A library is native code run inside every build, so only those three places are searched —
//! never the ancestors of the working directory, where a file dropped higher up the tree would
//! be picked up — and the workspace copy must have the pinned SHA-256 before it is loaded. A file
//! the user names in `SHADOWDUSK_DXC` is trusted as named.
//!
//! Input: the environment and the file system. Output: an ordered list of candidates. Nothing is
//! loaded here (see `super::instance`).

use std::path::{Path, PathBuf};

/// Environment variable naming the DXC library file explicitly.
pub const ENV_VAR: &str = "SHADOWDUSK_DXC";

/// The workspace-relative location `cargo xtask setup` writes to.
pub const LOCAL_PATH: &str = ".tools/dxc/libdxcompiler.so";

/// SHA-256 of the DXC 1.8 `libdxcompiler.so` that `cargo xtask setup` installs (from the
/// `compushady-lrtu==0.18.0` wheel); the workspace copy is loaded only when it matches.
pub const PINNED_SHA256: &str = "ade5a6edc143bee6a6c1e83adbcfb6e1eb9c48c50ef2eead9e763e5bcb689fac";

/// One place to try loading DXC from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Candidate {
    /// A file the user named: loaded as it is.
    Explicit(PathBuf),
    /// A workspace copy from `cargo xtask setup`: loaded only with the pinned SHA-256.
    Pinned(PathBuf),
    /// `libdxcompiler.so` through the system loader search path.
    System,
}

/// Where to load DXC from, in priority order.
///
/// `Err` when `SHADOWDUSK_DXC` is set but names no file: the user asked for that file, so
/// silently falling back to another DXC would hide a misconfiguration.
pub fn candidates() -> Result<Vec<Candidate>, String> {
    candidates_with(
        std::env::var_os(ENV_VAR).map(PathBuf::from),
        &manifest_dirs(),
    )
}

/// The manifest directories whose workspaces may hold a `.tools` copy: the crate cargo is
/// building (`CARGO_MANIFEST_DIR` at run time: a build script or proc macro of the user's crate),
/// then this crate's own (the CLI and tests run from the ShadowDusk workspace).
fn manifest_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("CARGO_MANIFEST_DIR") {
        dirs.push(PathBuf::from(d));
    }
    dirs.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    dirs
}

/// [`candidates`] with the environment passed in (testable without mutating the process env).
fn candidates_with(
    explicit: Option<PathBuf>,
    manifest_dirs: &[PathBuf],
) -> Result<Vec<Candidate>, String> {
    if let Some(p) = explicit {
        if !p.is_file() {
            return Err(format!(
                "{ENV_VAR} is set to `{}`, but no file exists there; point it at libdxcompiler.so \
                 or unset it to use the copy from `cargo xtask setup`",
                p.display()
            ));
        }
        return Ok(vec![Candidate::Explicit(p)]);
    }
    let mut out = Vec::new();
    for dir in manifest_dirs {
        let f = workspace_root(dir).join(LOCAL_PATH);
        let c = Candidate::Pinned(f.clone());
        if f.is_file() && !out.contains(&c) {
            out.push(c);
        }
    }
    out.push(Candidate::System);
    Ok(out)
}

/// The workspace root of the package in `manifest_dir`: the nearest directory at or above it
/// whose `Cargo.toml` declares `[workspace]`, or the package itself when none does. Only
/// manifests are read on the way up; nothing else in those directories is consulted.
pub fn workspace_root(manifest_dir: &Path) -> PathBuf {
    manifest_dir
        .ancestors()
        .find(|d| {
            std::fs::read_to_string(d.join("Cargo.toml"))
                .is_ok_and(|t| t.lines().any(|l| l.trim() == "[workspace]"))
        })
        .unwrap_or(manifest_dir)
        .to_path_buf()
}

/// The searched places, for the "not found" message.
pub fn searched_description() -> String {
    let copies: Vec<String> = manifest_dirs()
        .iter()
        .map(|d| format!("`{}`", workspace_root(d).join(LOCAL_PATH).display()))
        .collect();
    format!(
        "${ENV_VAR} (unset), {} (made by `cargo xtask setup`, sha256 checked), and the system \
         library path (libdxcompiler.so)",
        copies.join(", ")
    )
}

/// Lowercase hex SHA-256 of a file.
pub fn sha256_file(path: &Path) -> Result<String, String> {
    use sha2::{Digest, Sha256};
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The file a shared object named `name` was mapped from in this process (Linux), for hashing
/// what the system loader picked.
pub fn mapped_file(name: &str) -> Option<PathBuf> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    maps.lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .find(|p| Path::new(p).file_name().is_some_and(|f| f == name))
        .map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_copy_comes_from_the_manifest_dirs_workspace_only() {
        let dir = tempfile::tempdir().expect("temp dir");
        let ws = dir.path().join("ws");
        let member = ws.join("crates/game");
        std::fs::create_dir_all(member.join("src")).unwrap();
        std::fs::write(
            ws.join("Cargo.toml"),
            "[workspace]\nmembers = [\"crates/game\"]\n",
        )
        .unwrap();
        std::fs::write(member.join("Cargo.toml"), "[package]\nname = \"game\"\n").unwrap();
        assert_eq!(workspace_root(&member), ws);
        // Without a copy there, only the system loader is left.
        assert_eq!(
            candidates_with(None, std::slice::from_ref(&member)).unwrap(),
            vec![Candidate::System]
        );
        let lib = ws.join(LOCAL_PATH);
        std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
        std::fs::write(&lib, b"not really a library").unwrap();
        assert_eq!(
            candidates_with(None, std::slice::from_ref(&member)).unwrap(),
            vec![Candidate::Pinned(lib), Candidate::System]
        );
        // A copy above the workspace root is never a candidate.
        let above = dir.path().join(LOCAL_PATH);
        std::fs::create_dir_all(above.parent().unwrap()).unwrap();
        std::fs::write(&above, b"planted").unwrap();
        let other = dir.path().join("ws2/pkg");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("Cargo.toml"), "[package]\nname = \"pkg\"\n").unwrap();
        assert_eq!(
            candidates_with(None, &[other]).unwrap(),
            vec![Candidate::System]
        );
    }

    #[test]
    fn explicit_path_must_exist_and_wins() {
        let e =
            candidates_with(Some(PathBuf::from("/nonexistent/libdxcompiler.so")), &[]).unwrap_err();
        assert!(
            e.contains("SHADOWDUSK_DXC") && e.contains("/nonexistent/libdxcompiler.so"),
            "{e}"
        );
        let this_file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        let c = candidates_with(Some(this_file.clone()), &[PathBuf::from("/")]).unwrap();
        assert_eq!(c, vec![Candidate::Explicit(this_file)]);
    }

    #[test]
    fn hashes_files_and_finds_mapped_libraries() {
        let dir = tempfile::tempdir().expect("temp dir");
        let f = dir.path().join("abc");
        std::fs::write(&f, b"abc").unwrap();
        assert_eq!(
            sha256_file(&f).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(sha256_file(&dir.path().join("missing")).is_err());
        assert_eq!(mapped_file("no-such-library.so"), None);
    }
}
