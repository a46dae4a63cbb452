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

/// How an include was found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Resolved {
    /// Spelled as on disk.
    Exact(PathBuf),
    /// Only by ignoring letter case, as Windows (where mgfxc runs) would find it.
    CaseInsensitive(PathBuf),
}

/// Why an include was not found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Unresolved {
    /// Every candidate path tried.
    Missing(Vec<PathBuf>),
    /// No exact match, and several files match when case is ignored.
    Ambiguous(Vec<PathBuf>),
}

/// Finds an included file: the exact spelling in every searched directory first, then, in the
/// same order, a file whose name differs only in letter case (per path component). A directory
/// with two such files is ambiguous.
pub(crate) fn resolve(
    name: &str,
    angled: bool,
    includer: &Path,
    include_dirs: &[PathBuf],
) -> Result<Resolved, Unresolved> {
    // Effects written on Windows use `\\` as separator; it is never part of a file name there.
    let name = if cfg!(windows) {
        name.to_string()
    } else {
        name.replace('\\', "/")
    };
    let rel = Path::new(&name);
    if rel.is_absolute() {
        let p = normalize(rel);
        return if p.is_file() {
            Ok(Resolved::Exact(p))
        } else {
            Err(Unresolved::Missing(vec![p]))
        };
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
    for dir in &dirs {
        let p = normalize(&dir.join(rel));
        if p.is_file() {
            return Ok(Resolved::Exact(p));
        }
        if !tried.contains(&p) {
            tried.push(p);
        }
    }
    for dir in &dirs {
        match case_insensitive(dir, rel) {
            CaseMatch::One(p) => return Ok(Resolved::CaseInsensitive(normalize(&p))),
            CaseMatch::Many(ps) => {
                return Err(Unresolved::Ambiguous(
                    ps.iter().map(|p| normalize(p)).collect(),
                ))
            }
            CaseMatch::None => {}
        }
    }
    Err(Unresolved::Missing(tried))
}

enum CaseMatch {
    None,
    One(PathBuf),
    Many(Vec<PathBuf>),
}

/// Walks `rel` below `dir` one component at a time, matching each name without regard to
/// ASCII case (`.` and `..` are taken as written).
fn case_insensitive(dir: &Path, rel: &Path) -> CaseMatch {
    let parts: Vec<Component<'_>> = rel.components().collect();
    let mut here = dir.to_path_buf();
    for (i, c) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let Component::Normal(want) = c else {
            here.push(c.as_os_str());
            continue;
        };
        let want = want.to_string_lossy();
        let Ok(entries) = std::fs::read_dir(if here.as_os_str().is_empty() {
            Path::new(".")
        } else {
            &here
        }) else {
            return CaseMatch::None;
        };
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(&want))
            .map(|e| here.join(e.file_name()))
            .filter(|p| if last { p.is_file() } else { p.is_dir() })
            .collect();
        found.sort();
        match found.len() {
            0 => return CaseMatch::None,
            1 => here = found.remove(0),
            _ => return CaseMatch::Many(found),
        }
    }
    CaseMatch::One(here)
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
