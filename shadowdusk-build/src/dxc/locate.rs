//! Finding `libdxcompiler.so`: `SHADOWDUSK_DXC`, then the workspace-local copy made by
//! `cargo xtask setup` (`.tools/dxc/libdxcompiler.so` in an ancestor directory), then the system
//! loader path.
//!
//! Input: the environment and the file system. Output: an ordered list of candidates, each
//! either an explicit file or "the system loader". Nothing is loaded here (see `super::instance`).

use std::path::{Path, PathBuf};

/// Environment variable naming the DXC library file explicitly.
pub const ENV_VAR: &str = "SHADOWDUSK_DXC";

/// The workspace-relative location `cargo xtask setup` writes to.
pub const LOCAL_PATH: &str = ".tools/dxc/libdxcompiler.so";

/// One place to try loading DXC from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Candidate {
    /// A specific file.
    File(PathBuf),
    /// `libdxcompiler.so` through the system loader search path.
    System,
}

/// Where to load DXC from, in priority order.
///
/// `Err` when `SHADOWDUSK_DXC` is set but names no file: the user asked for that file, so
/// silently falling back to another DXC would hide a misconfiguration.
pub fn candidates() -> Result<Vec<Candidate>, String> {
    let mut roots: Vec<PathBuf> = Vec::new();
    if let Some(d) = std::env::var_os("CARGO_MANIFEST_DIR") {
        roots.push(PathBuf::from(d));
    }
    if let Ok(d) = std::env::current_dir() {
        roots.push(d);
    }
    roots.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    candidates_with(std::env::var_os(ENV_VAR).map(PathBuf::from), &roots)
}

/// [`candidates`] with the environment passed in (testable without mutating the process env).
fn candidates_with(explicit: Option<PathBuf>, roots: &[PathBuf]) -> Result<Vec<Candidate>, String> {
    if let Some(p) = explicit {
        if !p.is_file() {
            return Err(format!(
                "{ENV_VAR} is set to `{}`, but no file exists there; point it at libdxcompiler.so \
                 or unset it to use the copy from `cargo xtask setup`",
                p.display()
            ));
        }
        return Ok(vec![Candidate::File(p)]);
    }
    let mut out = Vec::new();
    for r in roots {
        if let Some(f) = find_in_ancestors(r) {
            let c = Candidate::File(f);
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out.push(Candidate::System);
    Ok(out)
}

/// The searched places, for the "not found" message.
pub fn searched_description() -> String {
    let mut roots = Vec::new();
    if let Some(d) = std::env::var_os("CARGO_MANIFEST_DIR") {
        roots.push(format!(
            "ancestors of $CARGO_MANIFEST_DIR ({})",
            Path::new(&d).display()
        ));
    }
    if let Ok(d) = std::env::current_dir() {
        roots.push(format!(
            "ancestors of the current directory ({})",
            d.display()
        ));
    }
    roots.push(format!("ancestors of {}", env!("CARGO_MANIFEST_DIR")));
    format!(
        "${ENV_VAR} (unset), `{LOCAL_PATH}` in {}, and the system library path (libdxcompiler.so)",
        roots.join(", ")
    )
}

fn find_in_ancestors(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|a| a.join(LOCAL_PATH))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_workspace_copy_from_a_nested_dir() {
        let ws = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        if !ws.join(LOCAL_PATH).is_file() {
            eprintln!(
                "SKIPPED: {} missing (run `cargo xtask setup`)",
                ws.join(LOCAL_PATH).display()
            );
            return;
        }
        let nested = ws.join("shadowdusk-build/src/dxc");
        assert_eq!(find_in_ancestors(&nested), Some(ws.join(LOCAL_PATH)));
        assert_eq!(find_in_ancestors(Path::new("/")), None);
    }

    #[test]
    fn explicit_path_must_exist_and_wins() {
        let e =
            candidates_with(Some(PathBuf::from("/nonexistent/libdxcompiler.so")), &[]).unwrap_err();
        assert!(
            e.contains("SHADOWDUSK_DXC") && e.contains("/nonexistent/libdxcompiler.so"),
            "{e}"
        );
        let this_file = PathBuf::from(file!())
            .canonicalize()
            .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"));
        let c = candidates_with(Some(this_file.clone()), &[PathBuf::from("/")]).unwrap();
        assert_eq!(c, vec![Candidate::File(this_file)]);
        assert_eq!(
            candidates_with(None, &[PathBuf::from("/")]).unwrap(),
            vec![Candidate::System]
        );
    }

    #[test]
    fn system_loader_is_last_resort() {
        if std::env::var_os(ENV_VAR).is_some() {
            eprintln!("SKIPPED: {ENV_VAR} is set");
            return;
        }
        let c = candidates().unwrap();
        assert_eq!(c.last(), Some(&Candidate::System));
    }
}
