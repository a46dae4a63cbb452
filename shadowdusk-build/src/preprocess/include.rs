//! `#include` resolution: search order, path normalization, file identity.
//!
//! Input: the name written in the directive, whether it was `<...>` or `"..."`, the including
//! file's path and the extra include directories. Output: the first existing file, as a path
//! joined onto the directory it was found in (`./` removed, symlinks kept), or every path that
//! was tried (for SD0001's note).
//! Order: `"f"` tries the includer's directory, then the include directories; `<f>` tries the
//! include directories, then the includer's directory. An absolute name is used as is.
//!
//! Implements fx-pipeline.md §2.2.

use std::path::{Component, Path, PathBuf};

/// Finds an included file, or returns every candidate path tried.
pub(crate) fn resolve(
    name: &str,
    angled: bool,
    includer: &Path,
    include_dirs: &[PathBuf],
) -> Result<PathBuf, Vec<PathBuf>> {
    // Effects written on Windows use `\\` as separator; it is never part of a file name there.
    let name = if cfg!(windows) {
        name.to_string()
    } else {
        name.replace('\\', "/")
    };
    let rel = Path::new(&name);
    if rel.is_absolute() {
        let p = normalize(rel);
        return if p.is_file() { Ok(p) } else { Err(vec![p]) };
    }
    let own = includer.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut dirs: Vec<&Path> = Vec::with_capacity(include_dirs.len() + 1);
    if !angled {
        dirs.push(&own);
    }
    dirs.extend(include_dirs.iter().map(PathBuf::as_path));
    if angled {
        dirs.push(&own);
    }
    let mut tried = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let p = normalize(&dir.join(rel));
        if p.is_file() {
            return Ok(p);
        }
        if !tried.contains(&p) {
            tried.push(p);
        }
    }
    Err(tried)
}

/// Removes `.` components (and a leading `./`) without touching `..` or symlinks, so the path
/// still names the file the way the user's tree does.
pub(crate) fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        if c != Component::CurDir {
            out.push(c.as_os_str());
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// The key that says two paths are the same file (for cycles, `#pragma once` and
/// deduplicating `deps`): the canonical path when the file exists, else the normalized one.
pub(crate) fn identity(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| normalize(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_drops_current_dir_only() {
        assert_eq!(
            normalize(Path::new("./a/./b/../c.fx")),
            PathBuf::from("a/b/../c.fx")
        );
        assert_eq!(normalize(Path::new("")), PathBuf::from("."));
    }
}
