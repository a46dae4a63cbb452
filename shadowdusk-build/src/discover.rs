//! Which effects to compile: the `.file()`s plus every `*.fx` under each `.dir()`.
//!
//! Includes (`.fxh` or anything else) are not compiled on their own; the preprocessor reports
//! which ones each effect reads. The list is sorted by relative path and deduplicated, so the
//! order setters were called in changes nothing.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use shadowdusk_compiler::plumbing::{normalize, relative};

/// One effect to compile.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct EffectFile {
    /// Relative to the crate root (may start with `..`), as `include_effect!` names it.
    pub rel: PathBuf,
    /// Absolute, normalized.
    pub abs: PathBuf,
}

/// `p` as given to a setter, resolved against the crate root.
pub(crate) fn resolve(root: &Path, p: &Path) -> PathBuf {
    normalize(&root.join(p))
}

fn effect(root: &Path, abs: PathBuf) -> EffectFile {
    let rel = relative(&abs, root).unwrap_or_else(|| abs.clone());
    EffectFile { rel, abs }
}

/// The effects named by `files` and found under `dirs`. A folder that cannot be walked is an
/// error (a typo in `.dir()` should not silently compile nothing); a missing `.file()` is left
/// to the compiler, which reports it like any unreadable effect.
pub(crate) fn effects(
    root: &Path,
    dirs: &[PathBuf],
    files: &[PathBuf],
) -> Result<Vec<EffectFile>, String> {
    let mut out: Vec<EffectFile> = files
        .iter()
        .map(|f| effect(root, resolve(root, f)))
        .collect();
    for d in dirs {
        let abs = resolve(root, d);
        if !abs.is_dir() {
            return Err(format!(
                "effect folder `{}` does not exist (resolved to {}); `.dir()` paths are relative \
                 to the crate root",
                d.display(),
                abs.display()
            ));
        }
        for entry in WalkDir::new(&abs).follow_links(true).sort_by_file_name() {
            let entry =
                entry.map_err(|e| format!("cannot walk effect folder `{}`: {e}", abs.display()))?;
            let is_fx = entry
                .path()
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("fx"));
            if is_fx && entry.file_type().is_file() {
                out.push(effect(root, normalize(entry.path())));
            }
        }
    }
    out.sort();
    out.dedup_by(|a, b| a.abs == b.abs);
    Ok(out)
}
