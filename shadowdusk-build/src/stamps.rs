//! Each effect's cache key, remembered by the stamps of everything that decided it, so a build
//! in which nothing an effect read has changed neither runs the preprocessor for its key nor
//! reads its manifest.
//!
//! The key is computed from contents (`cache.rs`), which needs the preprocessor: only it knows
//! which files an effect reads. This memo, `OUT_DIR/shadowdusk-stamps.json` (beside the
//! artifacts, whose names are the effects'), maps an effect to the key its last build computed,
//! with the stamp (size, modification and status-change times, inode) of every file it read and
//! of every folder an `#include` searched: each file's own folder and the include folders, and
//! the folders below them that a directive's path names. A file edited, replaced or touched
//! changes its stamp; a header created where it would shadow another changes its folder's
//! stamp. Any stamp that differs, or a key base (compiler, Builder, DXC, options) that differs,
//! and the effect takes the full path, which computes its key from contents again.
//!
//! The memo belongs to one crate root, and each entry to one effect file (absolute) and the key
//! base it was keyed under: checkouts sharing a target folder share `OUT_DIR`, and another
//! checkout's entry, whose files are all unchanged, says nothing about this one's. Several
//! Builders of one build script share it too, each with its own effects and options (one with
//! the wgpu target, one without): a build loads and saves only its own effects' entries and
//! keeps the others', so the next build of each is served from the memo.
//!
//! The stamps are those of the read the key was computed from ([`Snapshot::after_read`], taken
//! right after it), and only changes older than [`SETTLE`] before the read began are
//! remembered. A file changed after it was read is therefore never remembered as settled with
//! the key of its old text: its change is newer than the read (the next build keys it from
//! contents), or its stamp moved after the snapshot (the next build sees a different stamp).
//! The margin is for stamps that may not move: a file changed within the file system's
//! timestamp tick of another change (as git's racily clean entries). An `#include` whose path is
//! not a literal, or a folder on a search path that differs from a directive's only in case (the
//! preprocessor finds those), also leaves the effect unremembered.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use shadowdusk_compiler::plumbing::FileStamp;
use shadowdusk_compiler::source::SourceFiles;

/// Changes younger than this when a read began are not remembered.
pub(crate) const SETTLE: Duration = Duration::from_secs(2);
/// Bumped when the file's meaning changes.
const SCHEMA: u32 = 4;
const FILE_NAME: &str = "shadowdusk-stamps.json";

/// The stamp of `path`, `None` when it cannot be read (a folder that does not exist).
fn stamp_of(path: &Path) -> Option<FileStamp> {
    FileStamp::of(path).ok()
}

/// Whether the last change `stamp` records is older than [`SETTLE`] before `read`.
fn settled(stamp: &FileStamp, read: SystemTime) -> bool {
    read.checked_sub(SETTLE)
        .is_some_and(|horizon| stamp.changed_before(horizon))
}

/// The stamps of one read of an effect's files: every file read and every folder its includes
/// searched, as they were when it was read.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Snapshot {
    /// Every file read, the effect first, with its stamp.
    files: Vec<(PathBuf, FileStamp)>,
    /// Every folder searched, with its stamp (`None`: it did not exist).
    dirs: Vec<(PathBuf, Option<FileStamp>)>,
}

/// One effect's remembered key.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub key: String,
    /// The key base the key was computed under (hex): the build's options and toolchain.
    key_base: String,
    /// The effect file, absolute: the entry is this file's, not its name's.
    source: PathBuf,
    /// What the key was computed from.
    read: Snapshot,
    /// What an `OUT_DIR` hit prints (the manifest's warnings).
    pub warnings: Vec<String>,
}

impl Entry {
    /// The files read, the effect first.
    pub fn deps(&self) -> Vec<PathBuf> {
        self.read.files.iter().map(|(p, _)| p.clone()).collect()
    }

    fn unchanged(&self) -> bool {
        let read = &self.read;
        read.files
            .iter()
            .all(|(p, s)| stamp_of(p).as_ref() == Some(s))
            && read.dirs.iter().all(|(p, s)| &stamp_of(p) == s)
    }
}

#[derive(Default, Serialize, Deserialize)]
struct Memo {
    schema: u32,
    /// The crate root the entries are of.
    root: PathBuf,
    effects: BTreeMap<String, Entry>,
}

impl Memo {
    /// The memo at `path` when it is of this schema and of the crate at `root`.
    fn read(path: &Path, root: &Path) -> Result<Memo, Foreign> {
        let bytes = std::fs::read(path).map_err(|_| Foreign::Absent)?;
        serde_json::from_slice::<Memo>(&bytes)
            .ok()
            .filter(|m| m.schema == SCHEMA && m.root == root)
            .ok_or(Foreign::Other)
    }

    fn write(&self, path: &Path) {
        if let Ok(bytes) = serde_json::to_vec(self) {
            let _ = crate::output::write_if_changed(path, &bytes);
        }
    }
}

/// Why there is no memo of this crate root to read.
enum Foreign {
    /// No memo file.
    Absent,
    /// A memo of another crate root or schema (or unreadable).
    Other,
}

/// The memo of one build: last build's entries of its effects, and this build's.
#[derive(Default)]
pub(crate) struct Stamps {
    path: PathBuf,
    root: PathBuf,
    /// This build's effects (by name): the source and the key base (hex) each is keyed under.
    ours: BTreeMap<String, (PathBuf, String)>,
    old: BTreeMap<String, Entry>,
    new: Mutex<BTreeMap<String, Entry>>,
}

/// One effect of a build, as the memo sees it.
pub(crate) struct Effect<'a> {
    pub rel: &'a Path,
    /// Absolute.
    pub source: &'a Path,
    /// The key base its key is computed under.
    pub key_base: &'a blake3::Hasher,
}

impl Stamps {
    /// The memo in `out_dir`, for a build of `effects` of the crate at `root`. A memo of another
    /// crate root is removed at once, and so is every entry of one of `effects` under another
    /// key base or source: this build is about to overwrite the artifacts they describe, and if
    /// it is killed before it saves its own, a later build of that root or key base must not
    /// take them for its own. Entries of other effects (another Builder's) are left as they are.
    pub fn load(out_dir: &Path, root: &Path, effects: &[Effect<'_>]) -> Stamps {
        let path = out_dir.join(FILE_NAME);
        let ours: BTreeMap<String, (PathBuf, String)> = effects
            .iter()
            .map(|e| {
                let base = e.key_base.clone().finalize().to_hex().to_string();
                (name(e.rel), (e.source.to_path_buf(), base))
            })
            .collect();
        let mut memo = match Memo::read(&path, root) {
            Ok(m) => m,
            Err(Foreign::Absent) => Memo::default(),
            Err(Foreign::Other) => {
                let _ = std::fs::remove_file(&path);
                Memo::default()
            }
        };
        let before = memo.effects.len();
        memo.effects.retain(|n, e| {
            ours.get(n)
                .is_none_or(|(source, base)| &e.source == source && &e.key_base == base)
        });
        if memo.effects.len() != before {
            memo.write(&path);
        }
        let old = memo
            .effects
            .into_iter()
            .filter(|(n, _)| ours.contains_key(n))
            .collect();
        Stamps {
            path,
            root: root.to_path_buf(),
            ours,
            old,
            new: Mutex::new(BTreeMap::new()),
        }
    }

    /// The remembered entry of the effect `source` (absolute) at `rel` when nothing it depends
    /// on has changed.
    pub fn unchanged(&self, rel: &Path, source: &Path) -> Option<&Entry> {
        self.old
            .get(&name(rel))
            .filter(|e| e.source == source && e.unchanged())
    }

    /// Keeps `entry` (found unchanged) for the next build.
    pub fn keep(&self, rel: &Path, entry: &Entry) {
        self.lock().insert(name(rel), entry.clone());
    }

    /// Remembers `key` for the effect `source` (absolute) at `rel`, computed from the read
    /// `read` describes.
    pub fn remember(
        &self,
        rel: &Path,
        source: &Path,
        key: &str,
        read: &Snapshot,
        warnings: &[String],
    ) {
        let name = name(rel);
        let Some((_, key_base)) = self.ours.get(&name) else {
            return;
        };
        let entry = Entry {
            key: key.to_string(),
            key_base: key_base.clone(),
            source: source.to_path_buf(),
            read: read.clone(),
            warnings: warnings.to_vec(),
        };
        self.lock().insert(name, entry);
    }

    /// Writes this build's entries beside the other effects' (read again now, so a Builder that
    /// saved in the meantime keeps its own), only when that differs from what is there. Other
    /// effects' entries whose file is gone are dropped.
    pub fn save(&self) {
        let mut effects = Memo::read(&self.path, &self.root)
            .map(|m| m.effects)
            .unwrap_or_default();
        effects.retain(|n, e| !self.ours.contains_key(n) && e.source.is_file());
        effects.append(&mut std::mem::take(&mut *self.lock()));
        Memo {
            schema: SCHEMA,
            root: self.root.clone(),
            effects,
        }
        .write(&self.path);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Entry>> {
        self.new.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn name(rel: &Path) -> String {
    rel.to_string_lossy().replace('\\', "/")
}

impl Snapshot {
    /// The stamps of what `files` (one read's, begun at `read_started`) and the searches of
    /// `include_dirs` depended on, taken right after that read; `None` when something changed
    /// less than [`SETTLE`] before the read began or a search cannot be described.
    pub fn after_read(
        files: &SourceFiles,
        include_dirs: &[PathBuf],
        read_started: SystemTime,
    ) -> Option<Snapshot> {
        let mut stamped = Vec::new();
        for (_, f) in files.iter() {
            let stamp = stamp_of(&f.path)?;
            // Settled before the read began, and stamped after it: the text read is the one
            // this stamp describes.
            if !settled(&stamp, read_started) {
                return None;
            }
            stamped.push((f.path.clone(), stamp));
        }
        let mut roots: Vec<PathBuf> = files
            .iter()
            .filter_map(|(_, f)| f.path.parent().map(Path::to_path_buf))
            .collect();
        roots.extend(include_dirs.iter().cloned());
        let mut dirs: Vec<PathBuf> = roots.clone();
        for (_, f) in files.iter() {
            for target in include_targets(&f.text)? {
                let folders: Vec<&str> = target.split(['/', '\\']).collect();
                let Some((_, folders)) = folders.split_last() else {
                    continue;
                };
                for root in &roots {
                    let mut dir = root.clone();
                    for part in folders.iter().filter(|p| !p.is_empty() && **p != ".") {
                        if *part != ".."
                            && !dir.join(part).is_dir()
                            && case_variant_exists(&dir, part)
                        {
                            return None;
                        }
                        dir = dir.join(part);
                        dirs.push(dir.clone());
                    }
                }
            }
        }
        dirs.sort();
        dirs.dedup();
        let mut stamped_dirs = Vec::with_capacity(dirs.len());
        for d in dirs {
            let stamp = stamp_of(&d);
            if stamp.as_ref().is_some_and(|s| !settled(s, read_started)) {
                return None;
            }
            stamped_dirs.push((d, stamp));
        }
        Some(Snapshot {
            files: stamped,
            dirs: stamped_dirs,
        })
    }
}

/// The paths of every `#include` line of `text`, taken or not; `None` when one is not a
/// literal (a macro), so the folders it searches cannot be listed.
fn include_targets(text: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            continue;
        };
        let rest = rest.trim_start();
        let close = match rest.chars().next() {
            Some('"') => '"',
            Some('<') => '>',
            _ => return None,
        };
        let inner = &rest[1..];
        let end = inner.find(close)?;
        out.push(inner[..end].to_string());
    }
    Some(out)
}

/// Whether `dir` holds an entry named `name` in another case (the preprocessor's include
/// search accepts those, as fxc did on Windows).
fn case_variant_exists(dir: &Path, name: &str) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(name))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_lines_are_found_and_a_macro_include_is_not_describable() {
        let text = "#include \"a/b.fxh\"\n  #  include <c.fxh>\n// #include \"d.fxh\"\nfloat x;";
        assert_eq!(
            include_targets(text),
            Some(vec!["a/b.fxh".to_string(), "c.fxh".to_string()])
        );
        assert_eq!(include_targets("#include HEADER\n"), None);
    }

    #[test]
    fn a_fresh_change_is_not_settled() {
        let dir = tempfile::tempdir().expect("temp dir");
        let f = dir.path().join("a.fx");
        std::fs::write(&f, "x").unwrap();
        let s = stamp_of(&f).unwrap();
        assert!(!settled(&s, SystemTime::now()));
        assert!(settled(&s, SystemTime::now() + SETTLE * 2));
    }
}
