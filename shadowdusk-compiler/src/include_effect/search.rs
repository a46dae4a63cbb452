//! Which effect file an `include_effect!` path names: the file under the crate root, or else
//! the one effect the build script compiled whose path ends with it (`"tint.fx"` after
//! `Builder::new().dir("shaders")`); several or none are an error listing them or the close ones.

use std::path::{Path, PathBuf};

use super::{display_path, MacroEnv};
use crate::artifact::{self, Manifest};
use crate::paths::normalize;

/// The effect file `written` names: relative to the crate root, or else (when `search`) the one
/// effect the build script compiled whose path ends with it. Otherwise the message names the
/// compiled effects that end with it or look like it.
pub(super) fn locate(written: &str, search: bool, env: &MacroEnv) -> Result<PathBuf, String> {
    let abs = normalize(&env.manifest_dir.join(written));
    let error = match std::fs::metadata(&abs) {
        Ok(m) if m.is_file() => return Ok(abs),
        Ok(_) => std::io::Error::other("it is not a file"),
        Err(e) => e,
    };
    let shown = display_path(&abs, &env.manifest_dir);
    let mut message = format!(
        "cannot read effect file `{shown}`: {error}\n\
         help: the path is relative to the crate root (the folder holding Cargo.toml)"
    );
    let compiled = match (&env.out_dir, search) {
        (Some(out_dir), true) => compiled_effects(out_dir),
        _ => Vec::new(),
    };
    let wanted = normalize(Path::new(written));
    let ending: Vec<&PathBuf> = compiled
        .iter()
        .filter(|rel| wanted.is_relative() && rel.ends_with(&wanted))
        .collect();
    if let [one] = ending.as_slice() {
        return Ok(normalize(&env.manifest_dir.join(one)));
    }
    let (what, suggested) = if ending.is_empty() {
        let close: Vec<&PathBuf> = compiled.iter().filter(|r| looks_like(&wanted, r)).collect();
        ("", close)
    } else {
        (
            "; the build script compiled several effects whose path ends with it",
            ending,
        )
    };
    if !suggested.is_empty() {
        let list: Vec<String> = suggested
            .iter()
            .take(5)
            .map(|p| format!("`{}`", p.display()))
            .collect();
        message.push_str(&format!("{what}: did you mean {}?", list.join(" or ")));
    }
    Err(message)
}

/// The effects the build script compiled (the manifests under `OUT_DIR/shadowdusk`), as paths
/// relative to the crate root, sorted.
fn compiled_effects(out_dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(out_dir.join(artifact::DIR))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| Manifest::load(e.path()))
        .map(|m| m.relative)
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Whether the compiled effect `rel` is a likely meaning of the missing `wanted`: its file name,
/// ignoring case, is at most a quarter of its letters (at least one) away.
fn looks_like(wanted: &Path, rel: &Path) -> bool {
    let name = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default()
    };
    let (a, b) = (name(wanted), name(rel));
    !a.is_empty() && strsim::levenshtein(&a, &b) <= (a.chars().count() / 4).max(1)
}
