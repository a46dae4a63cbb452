//! The cache of `include_effect!(…, in_process)` expansions, by content, so an unchanged effect
//! is not compiled again on every expansion (rustc expands every invocation of every build of
//! the crate; rust-analyzer on every edit).
//!
//! # The key
//!
//! An expansion is a function of: the code that compiles and generates it
//! ([`crate::COMPILER_ID`]: the compiler's and the MGFX writer's sources, hassle-rs and
//! SPIRV-Cross), the DXC library (its content hash and arguments,
//! [`crate::dxc::expected_version`], known without loading DXC; an expansion compiled by
//! another DXC, one replaced on disk meanwhile, is not stored), the compile options, the module name and runtime path the
//! invocation asks for, and the path and full text of every file the preprocessor reads. The
//! key is the blake3 of exactly those, each length-prefixed, computed from the preprocessor's
//! one read of the files (an edit can add or remove an `#include`, or a new header can shadow
//! an old one), the read a miss then compiles. Paths are absolute, not relative to the crate
//! root as in the Builder's cache: the module holds them (`Effect::SOURCE` and
//! `Effect::FILES_READ`, for hot reload), so another checkout's expansion differs and must be
//! a miss.
//!
//! # Where hits come from
//!
//! 1. This process's memory (at most [`MEMORY_ENTRIES`] modules): rust-analyzer's proc-macro
//!    server keeps the macro loaded.
//! 2. A folder (`SHADOWDUSK_EXPANSION_CACHE`, default the per-user cache folder +
//!    `shadowdusk/expansions`): `<key>.rs`, the module's tokens under a header line naming the
//!    key and the blake3 of the `.mgfx` and of the tokens, and `<key>.mgfx`, the bytes, which the
//!    module's `MGFX` takes with `include_bytes!` (so rustc reads them, and rebuilds the crate
//!    if the file goes). The tokens stay in the expansion rather than behind `include!`:
//!    rust-analyzer does not `include!` files outside the workspace.
//!
//! Each file is written through a temporary file and a rename, the `.mgfx` first, and a reader
//! checks the header against the key and both hashes, so a torn, damaged or foreign entry is a
//! miss, never a wrong module. An existing `.mgfx` with the same bytes is left alone: its time
//! is what cargo compares to decide whether the crate is rebuilt. The folder is bounded: a hit
//! touches its `.rs`, and after a store the entries used longest ago go until the folder holds
//! at most 80 % of [`MAX_BYTES`]. A folder that cannot be written is simply no cache.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use crate::artifact::write_atomic;
use crate::source::SourceFiles;

/// Overrides the cache folder (default: the platform's cache folder +
/// `shadowdusk/expansions`); empty turns the cache off.
pub const CACHE_ENV: &str = "SHADOWDUSK_EXPANSION_CACHE";

/// The folder's bound: 64 MiB, a few hundred effects.
const MAX_BYTES: u64 = 64 << 20;

/// Bumped when the key's recipe or the entry's shape changes, so old entries stop matching.
const SCHEMA: u32 = 1;

/// The first line of an entry's `.rs`; the key and the two hashes follow it.
const HEADER: &str = "// shadowdusk include_effect! in_process expansion";

/// The folder the environment names: `SHADOWDUSK_EXPANSION_CACHE`, or the per-user cache folder
/// + `shadowdusk/expansions`; `None` when that is empty or no cache folder is known. Absolute,
///   since generated code `include_bytes!`es from it.
pub(super) fn dir_from_env() -> Option<PathBuf> {
    let dir = match std::env::var_os(CACHE_ENV) {
        Some(dir) if dir.is_empty() => return None,
        Some(dir) => PathBuf::from(dir),
        None => dirs::cache_dir()?.join("shadowdusk").join("expansions"),
    };
    if dir.is_absolute() {
        return Some(dir);
    }
    std::env::current_dir().ok().map(|cwd| cwd.join(dir))
}

/// A module found in the cache (or just stored there).
#[derive(Clone, Debug)]
pub(super) struct Entry {
    /// The module's tokens, as text.
    pub code: String,
    /// The `.mgfx` file its `MGFX` includes.
    pub mgfx: PathBuf,
    /// That file's length, checked on a hit from memory (the file could have been pruned).
    mgfx_len: u64,
}

/// In-memory entries by folder and key.
static MEMORY: Mutex<Option<HashMap<(PathBuf, String), Entry>>> = Mutex::new(None);

/// How many modules memory holds: a long rust-analyzer session sees every edit of an effect as
/// a new key, so beyond this it starts over (the folder still has them).
const MEMORY_ENTRIES: usize = 512;

fn memory<T>(f: impl FnOnce(&mut HashMap<(PathBuf, String), Entry>) -> T) -> T {
    let mut guard = MEMORY.lock().unwrap_or_else(PoisonError::into_inner);
    f(guard.get_or_insert_with(HashMap::new))
}

fn remember(dir: &Path, key: &str, entry: Entry) {
    memory(|m| {
        if m.len() >= MEMORY_ENTRIES {
            m.clear();
        }
        m.insert((dir.to_path_buf(), key.to_string()), entry);
    });
}

fn field(h: &mut blake3::Hasher, bytes: &[u8]) {
    h.update(&(bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// What the expansion is generated with, besides the files.
pub(super) struct KeyInputs<'a> {
    pub options: &'a crate::pipeline::Options,
    pub module_name: &'a str,
    pub crate_path: &'a str,
}

/// The key of an expansion whose preprocessor read `files`, compiled by the DXC `dxc` names
/// ([`dxc::expected_version`](crate::dxc::expected_version)).
pub(super) fn key(inputs: &KeyInputs, dxc: &str, files: &SourceFiles) -> String {
    let mut h = blake3::Hasher::new();
    field(&mut h, b"shadowdusk include_effect in_process");
    field(&mut h, &SCHEMA.to_le_bytes());
    field(&mut h, crate::COMPILER_ID.as_bytes());
    field(&mut h, dxc.as_bytes());
    field(&mut h, format!("{:?}", inputs.options).as_bytes());
    field(&mut h, inputs.module_name.as_bytes());
    field(&mut h, inputs.crate_path.as_bytes());
    field(&mut h, &(files.len() as u64).to_le_bytes());
    for (_, f) in files.iter() {
        field(&mut h, f.path.as_os_str().as_encoded_bytes());
        field(&mut h, f.text.as_bytes());
    }
    h.finalize().to_hex().to_string()
}

/// The cache in one folder.
pub(super) struct ExpansionCache<'a> {
    pub dir: &'a Path,
}

impl ExpansionCache<'_> {
    fn code_path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.rs"))
    }

    /// Where the `.mgfx` of `key` goes: what a module about to be stored includes.
    pub(super) fn mgfx_path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.mgfx"))
    }

    /// The entry for `key`, from memory or the folder; `None` on a miss or an entry that does
    /// not check out.
    pub(super) fn lookup(&self, key: &str) -> Option<Entry> {
        let id = (self.dir.to_path_buf(), key.to_string());
        if let Some(e) = memory(|m| m.get(&id).cloned()) {
            if std::fs::metadata(&e.mgfx).is_ok_and(|m| m.len() == e.mgfx_len) {
                return Some(e);
            }
            memory(|m| m.remove(&id));
        }
        let entry = self.load(key)?;
        remember(self.dir, key, entry.clone());
        Some(entry)
    }

    fn load(&self, key: &str) -> Option<Entry> {
        let path = self.code_path(key);
        let text = std::fs::read_to_string(&path).ok()?;
        let (header, code) = text.split_once('\n')?;
        let mut words = header.strip_prefix(HEADER)?.split_whitespace();
        let (Some(k), Some(mgfx_hash), Some(code_hash), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return None;
        };
        if k != key || blake3::hash(code.as_bytes()).to_hex().as_str() != code_hash {
            return None;
        }
        let mgfx = self.mgfx_path(key);
        let bytes = std::fs::read(&mgfx).ok()?;
        if blake3::hash(&bytes).to_hex().as_str() != mgfx_hash {
            return None;
        }
        // Recently used: pruning keeps it.
        if let Ok(f) = std::fs::File::options().append(true).open(&path) {
            let _ = f.set_modified(std::time::SystemTime::now());
        }
        Some(Entry {
            code: code.to_string(),
            mgfx,
            mgfx_len: bytes.len() as u64,
        })
    }

    /// Writes the `.mgfx` of `key` (unless the same bytes are there); `Err` means no cache, and
    /// the module must embed its bytes instead.
    pub(super) fn store_mgfx(&self, key: &str, bytes: &[u8]) -> std::io::Result<()> {
        let path = self.mgfx_path(key);
        if std::fs::read(&path).is_ok_and(|old| old == bytes) {
            return Ok(());
        }
        write_atomic(&path, bytes)
    }

    /// Stores the module `code` of `key`, whose `.mgfx` [`Self::store_mgfx`] wrote, then keeps
    /// the folder within its bound. Best effort: an entry not written is a miss next time.
    pub(super) fn store_code(&self, key: &str, code: &str, mgfx: &[u8]) {
        let text = format!(
            "{HEADER} {key} {} {}\n{code}",
            blake3::hash(mgfx).to_hex(),
            blake3::hash(code.as_bytes()).to_hex()
        );
        if write_atomic(&self.code_path(key), text.as_bytes()).is_ok() {
            let entry = Entry {
                code: code.to_string(),
                mgfx: self.mgfx_path(key),
                mgfx_len: mgfx.len() as u64,
            };
            remember(self.dir, key, entry);
        }
        prune(self.dir, MAX_BYTES);
    }

    /// Drops this folder's entries from memory (the folder keeps them).
    pub(super) fn forget_in_memory(&self) {
        memory(|m| m.retain(|(dir, _), _| dir != self.dir));
    }
}

/// Keeps `dir` within `max_bytes`, the entries whose `.rs` was touched longest ago going first.
pub(super) fn prune(dir: &Path, max_bytes: u64) {
    crate::artifact::prune_pairs(dir, "rs", max_bytes);
}
