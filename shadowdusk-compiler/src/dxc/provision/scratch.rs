//! Scratch folders: where a fetch unpacks before its folder is renamed into place, and where a
//! damaged copy is moved aside before it is removed. Both are named
//! `.partial-<first 16 digits of the source's key>-<process id>[…]`, and only the process that
//! holds that source's install lock (`lock`) makes, fills or removes them.
//!
//! A fetch that was killed (Ctrl-C on a build, an OOM kill) leaves its folder behind. Which are
//! stale is decided by the lock, not by age or process id: while a source's lock is held by
//! this process, or can be taken, no live process is using that source's scratch folders (the
//! OS drops a dead process's lock), so all of them go. Age would misjudge a slow download, and a
//! process id may already belong to another process. Folders whose source's lock another
//! process holds are left alone, as is anything else in the cache folder.

use std::path::Path;

/// The start of every scratch folder's name for source `key`.
pub(super) fn prefix(key: &str) -> String {
    format!(".partial-{}-", &key[..key.len().min(16)])
}

/// This process's scratch folder for source `key`, with `suffix`.
pub(super) fn name(key: &str, suffix: &str) -> String {
    format!("{}{}{suffix}", prefix(key), std::process::id())
}

/// Removes the scratch folders of every source in `root` whose lock this process holds (`held`)
/// or can take now; best effort.
pub(super) fn sweep(root: &Path, held: &str) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    for key in names.iter().filter_map(|n| n.strip_suffix(".lock")) {
        let prefix = prefix(key);
        let stale: Vec<&String> = names.iter().filter(|n| n.starts_with(&prefix)).collect();
        if stale.is_empty() {
            continue;
        }
        // Another source's lock, taken only if free, and kept while its folders go.
        let _lock = if key == held {
            None
        } else {
            let path = root.join(format!("{key}.lock"));
            match super::lock::open(&path) {
                Ok(file) if super::lock::try_lock(&file, &path) == Ok(true) => Some(file),
                _ => continue,
            }
        };
        for name in stale {
            let _ = std::fs::remove_dir_all(root.join(name));
        }
    }
}
