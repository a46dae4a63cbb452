//! The versions Cargo resolved for the crates whose code shapes the compiler's output besides
//! its own (the DXC binding and SPIRV-Cross, whose C++ is compiled into the binding crate), read
//! from the `Cargo.lock` of the build. A build script sees no dependency's version otherwise:
//! these crates declare no `links`, so no `DEP_*` variables, and export no version constant.
//!
//! Which lock: the nearest above the target folder (`OUT_DIR`), else the nearest above this
//! crate, that resolved this crate at this version; a lock beside the target folder is the one
//! cargo used for this build (a workspace, the fuzz crate or a consumer crate with its own).

use std::path::PathBuf;

/// The crates whose resolved versions are part of the compiler's build id.
pub const CRATES: &[&str] = &["hassle-rs", "spirv-cross-sys", "spirv-cross2"];

/// The lock file of this build: the first one above `starts` (in order) that lists
/// `package` at `version`.
pub fn find_lock(starts: &[PathBuf], package: &str, version: &str) -> Option<(PathBuf, String)> {
    starts
        .iter()
        .flat_map(|s| s.ancestors())
        .map(|d| d.join("Cargo.lock"))
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .find(|(_, text)| {
            packages(text)
                .iter()
                .any(|(n, v)| n == package && v == version)
        })
}

/// `name version` of every locked package named in [`CRATES`], sorted, comma-separated
/// (several versions of one crate all count).
pub fn versions(lock: &str) -> String {
    let mut found: Vec<String> = packages(lock)
        .into_iter()
        .filter(|(n, _)| CRATES.contains(&n.as_str()))
        .map(|(n, v)| format!("{n} {v}"))
        .collect();
    found.sort();
    found.join(",")
}

/// `(name, version)` of each `[[package]]` entry.
fn packages(lock: &str) -> Vec<(String, String)> {
    lock.split("[[package]]")
        .skip(1)
        .filter_map(|block| Some((value(block, "name")?, value(block, "version")?)))
        .collect()
}

fn value(block: &str, key: &str) -> Option<String> {
    block.lines().find_map(|l| {
        let rest = l.trim().strip_prefix(key)?.trim_start().strip_prefix('=')?;
        Some(rest.trim().trim_matches('"').to_string())
    })
}

/// Where the lock would be, for a build without one (`cargo install` without `--locked`, or a
/// target folder outside the project): nothing to read, so the id says so.
pub fn lock_or_unresolved(found: Option<&(PathBuf, String)>) -> String {
    found.map_or_else(|| "unresolved".to_string(), |(_, text)| versions(text))
}
