//! What the `--hot` tests of both runtimes share: a copy of `shaders/` to edit, and editing it
//! the way editors save.

use std::path::{Path, PathBuf};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A fresh copy of `shaders/` in the test's temporary folder, under `name`.
pub fn shaders_copy(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders"), &dir);
    dir
}

/// Saves the way editors do: a new file renamed over the old one.
pub fn save(path: &Path, text: &str) {
    let tmp = path.with_extension("fx.saving");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// `text` with `from` replaced by `to`; `from` must be there.
pub fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "`{from}` not in tint.fx:\n{text}");
    text.replacen(from, to, 1)
}
