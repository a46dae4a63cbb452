//! Lexical path arithmetic, the one home for it (`shadowdusk-build` takes it through
//! [`crate::plumbing`]): normalising, the crate root, paths relative to it, and the portable
//! spelling used in cache keys. Lexical on purpose: a file that does not exist yet keeps
//! its spelling, and two checkouts of one crate at different places spell their files alike.

use std::path::{Component, Path, PathBuf};

/// Removes `.` and folds `name/..` (never above the start of a relative path).
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else if !matches!(
                    out.components().next_back(),
                    Some(Component::RootDir | Component::Prefix(_))
                ) {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `path` (absolute) relative to `base` (absolute), with `..` when it lies outside; `None` when
/// they share nothing but the root, where a relative spelling would only obscure the file.
pub fn relative(path: &Path, base: &Path) -> Option<PathBuf> {
    let p: Vec<Component> = path.components().collect();
    let b: Vec<Component> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common <= 1 && base.has_root() {
        return None;
    }
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    for c in &p[common..] {
        rel.push(c.as_os_str());
    }
    Some(rel)
}

/// How a file is named in a cache key and in the shared cache's manifests: relative to the
/// crate root when it is inside it (so another checkout or machine with the same layout shares
/// entries), else absolute. `/`-separated.
pub fn portable(path: &Path, root: &Path) -> String {
    let shown = match path.strip_prefix(root) {
        Ok(rel) => rel.to_path_buf(),
        Err(_) => path.to_path_buf(),
    };
    let parts: Vec<String> = shown
        .components()
        .map(|c| match c {
            Component::RootDir => String::new(),
            other => other.as_os_str().to_string_lossy().into_owned(),
        })
        .collect();
    if parts.len() == 1 && parts[0].is_empty() {
        return "/".into();
    }
    parts.join("/")
}

/// The inverse of [`portable`] for `root`.
pub fn from_portable(p: &Path, root: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        root.join(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_folds_parent_dirs() {
        assert_eq!(normalize(Path::new("./a/b/../c.fx")), Path::new("a/c.fx"));
        assert_eq!(normalize(Path::new("../x/./y")), Path::new("../x/y"));
        assert_eq!(normalize(Path::new("/a/../../b")), Path::new("/b"));
    }

    #[test]
    fn relative_and_portable() {
        let root = Path::new("/w/game");
        assert_eq!(
            relative(Path::new("/w/game/shaders/a.fx"), root).as_deref(),
            Some(Path::new("shaders/a.fx"))
        );
        assert_eq!(
            relative(Path::new("/w/common/a.fx"), root).as_deref(),
            Some(Path::new("../common/a.fx"))
        );
        assert_eq!(relative(Path::new("/usr/a.fx"), root), None);
        assert_eq!(portable(Path::new("/w/game/s/a.fx"), root), "s/a.fx");
        assert_eq!(portable(Path::new("/usr/a.fxh"), root), "/usr/a.fxh");
        assert_eq!(
            from_portable(Path::new("s/a.fx"), Path::new("/other")),
            Path::new("/other/s/a.fx")
        );
    }
}
