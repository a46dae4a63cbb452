//! The content-hash cache.
//!
//! # The key
//!
//! An effect's outputs are a function of: the code that compiles it ([`Toolchain`]: this
//! crate's version and a hash of its sources, since it writes the manifest, the generated
//! module's `Effect::OPTIONS` and the v11 source name; [`shadowdusk_compiler::COMPILER_ID`],
//! which covers the sources of the compiler with its code generator, of the MGFX writer and
//! packing in `shadowdusk-mgfx`, and the hassle-rs and SPIRV-Cross versions it pins; the
//! artifact [`FORMAT`]; the SHA-256 of the loaded DXC library's contents — remembered per file
//! by size and times so a build does not hash 35 MB — and its arguments, from
//! [`expected_version`], which names the library a compile would load without loading it), the
//! options (target, defines in order, include folders, `/WX`, MGFX version), the effect's path
//! relative to the crate root (it names the module and appears in the manifest), and the path
//! and full text of every file the preprocessor read. The key is the blake3 of exactly those,
//! each length-prefixed. It is computed from the build's one read of the effect's files
//! (`pipeline::preprocess_file`: only the preprocessor knows which files an effect reads, an
//! edit can add or remove an `#include`, or a new header can shadow an old one), and a miss
//! compiles that same read: what is stored under a key is always that key's text, whenever a
//! file is saved. Reading costs a fraction of a millisecond per effect against tens for a
//! compile.
//!
//! # Where hits come from
//!
//! 1. `OUT_DIR` itself: when the effect's manifest there carries the same key, names the same
//!    source (absolute), crate root and `.mgfx`, and the `.mgfx` and `.rs` exist, nothing is
//!    written at all. Checkouts sharing a target folder share `OUT_DIR` (Cargo names it by the
//!    package, not its place); the key is the same in each, the paths in the artifacts are not.
//! 2. The shared folder (`SHADOWDUSK_CACHE_DIR` or [`Builder::cache_dir`]): `<key>.mgfx` and
//!    `<key>.json`. A hit is written into `OUT_DIR` as if compiled, so the crate cannot tell.
//!
//! # Sharing between crates and machines
//!
//! Files are hashed under their *portable* name: relative to the crate root when inside it,
//! absolute otherwise. The shared manifest stores every path the same way (effect, files read,
//! declaration locations, include folders) and the `.mgfx` by key, and a hit re-roots them on
//! the crate that reads it. This is sound because the key already covers each portable name:
//! a hit means the other crate had the same files at the same places relative to its root,
//! with the same text, so re-rooting its manifest gives exactly what compiling here would (the
//! MGFX bytes hold no path). Keying on absolute paths instead would have made every checkout
//! and every CI runner a cache miss.
//!
//! Concurrent builds may share the folder: each file is written to a unique temporary name in
//! the folder and renamed into place (atomic on one file system), the `.mgfx` before the
//! `.json`, and a reader checks that the two agree (the `.mgfx` must parse and describe the
//! manifest's layout), so a torn or foreign entry is a miss, never a wrong artifact. Writers of
//! one key write identical bytes, so the last rename winning is harmless. The folder is bounded
//! ([`prune`]): a hit touches its entry, and after a build the entries used longest ago go until
//! the folder holds at most 80 % of the bound. An entry pruned while another build reads it is a
//! miss for that build, never a wrong artifact.
//!
//! [`Builder::cache_dir`]: crate::Builder::cache_dir
//! [`expected_version`]: shadowdusk_compiler::dxc::expected_version

use std::path::{Path, PathBuf};

use shadowdusk_compiler::artifact::{ArtifactPaths, Manifest, FORMAT};
use shadowdusk_compiler::source::SourceFiles;

use crate::Target;
use shadowdusk_compiler::pipeline;
use shadowdusk_compiler::plumbing::{from_portable, portable};

/// Bumped when the key's recipe changes, so old entries stop matching.
const KEY_SCHEMA: u32 = 2;

/// This crate: its version and the hash of its sources (`build.rs`).
pub(crate) const BUILDER_ID: &str = concat!(
    "version=",
    env!("CARGO_PKG_VERSION"),
    ";sources=",
    env!("SHADOWDUSK_BUILD_SOURCES")
);

fn field(h: &mut blake3::Hasher, bytes: &[u8]) {
    h.update(&(bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// What compiles, as the key sees it.
#[derive(Clone, Debug)]
pub(crate) struct Toolchain {
    /// [`BUILDER_ID`]: this crate's version and sources.
    pub builder: String,
    /// [`shadowdusk_compiler::COMPILER_ID`]: the compiler's and the MGFX writer's sources, and
    /// the resolved hassle-rs and SPIRV-Cross versions.
    pub compiler: String,
    /// `dxc::expected_version`: the DXC library's content hash and its arguments.
    pub dxc: String,
}

impl Toolchain {
    /// This process's compiler, with the DXC identified as `dxc` (`dxc::expected_version`).
    pub(crate) fn with_dxc(dxc: &str) -> Toolchain {
        Toolchain {
            builder: BUILDER_ID.to_string(),
            compiler: shadowdusk_compiler::COMPILER_ID.to_string(),
            dxc: dxc.to_string(),
        }
    }
}

/// The part of the key every effect of one build shares: the toolchain and the build's options
/// ([`crate::options::for_build`]), include folders by their portable names.
pub(crate) fn key_base(
    toolchain: &Toolchain,
    target: Target,
    options: &pipeline::Options,
    root: &Path,
) -> blake3::Hasher {
    let mut h = blake3::Hasher::new();
    field(&mut h, b"shadowdusk-build");
    // Code that shapes the output: a change without a version bump is a new key.
    field(&mut h, toolchain.builder.as_bytes());
    field(&mut h, toolchain.compiler.as_bytes());
    field(&mut h, &KEY_SCHEMA.to_le_bytes());
    field(&mut h, &FORMAT.to_le_bytes());
    field(&mut h, toolchain.dxc.as_bytes());
    let pipeline::Options {
        preprocess,
        warnings_as_errors,
        mgfx_version,
        // Each effect's own: its relative path, in the key below.
        source_name: _,
        wgpu,
    } = options;
    field(
        &mut h,
        format!("{target:?} {:?}", preprocess.platform).as_bytes(),
    );
    field(
        &mut h,
        &[u8::from(*warnings_as_errors), u8::from(preprocess.debug)],
    );
    field(&mut h, format!("{mgfx_version:?}").as_bytes());
    field(&mut h, &[u8::from(*wgpu)]);
    field(&mut h, &(preprocess.defines.len() as u64).to_le_bytes());
    for (name, value) in &preprocess.defines {
        field(&mut h, name.as_bytes());
        field(&mut h, value.as_bytes());
    }
    field(
        &mut h,
        &(preprocess.include_dirs.len() as u64).to_le_bytes(),
    );
    for d in &preprocess.include_dirs {
        field(&mut h, portable(d, root).as_bytes());
    }
    h
}

/// The key of one effect, from the shared part, its relative path and every file read.
pub(crate) fn key(base: &blake3::Hasher, rel: &Path, files: &SourceFiles, root: &Path) -> String {
    let mut h = base.clone();
    field(&mut h, portable(rel, Path::new("")).as_bytes());
    field(&mut h, &(files.len() as u64).to_le_bytes());
    for (_, f) in files.iter() {
        field(&mut h, portable(&f.path, root).as_bytes());
        field(&mut h, f.text.as_bytes());
    }
    h.finalize().to_hex().to_string()
}

/// Whether `OUT_DIR` already holds this effect's artifacts for `key`, compiled for this effect
/// file (`source`, absolute) of this crate (`root`).
pub(crate) fn out_dir_fresh(
    paths: &ArtifactPaths,
    key: &str,
    source: &Path,
    root: &Path,
) -> Option<Manifest> {
    let m = Manifest::load(&paths.manifest)?;
    (m.cache_key == key
        && m.source == source
        && m.root == root
        && m.mgfx == paths.mgfx
        && paths.mgfx.is_file()
        && paths.code.is_file())
    .then_some(m)
}

/// The MGFX model with shader code removed, as the manifest's `layout` holds it.
pub(crate) fn layout_of(effect: &shadowdusk_mgfx::Effect) -> shadowdusk_mgfx::Effect {
    let mut layout = effect.clone();
    for s in &mut layout.shaders {
        s.code.clear();
    }
    layout
}

/// Applies `f` to every path a manifest holds.
fn map_paths(m: &mut Manifest, f: impl Fn(&Path) -> PathBuf) {
    m.source = f(&m.source);
    m.mgfx = f(&m.mgfx);
    for d in &mut m.include_dirs {
        *d = f(d);
    }
    let r = &mut m.reflection;
    r.source = f(&r.source);
    for d in &mut r.files_read {
        *d = f(d);
    }
    for p in &mut r.parameters {
        if let Some(loc) = &mut p.location {
            loc.file = f(&loc.file);
        }
    }
}

/// A shared-cache entry, re-rooted on this crate.
pub(crate) struct SharedHit {
    pub bytes: Vec<u8>,
    pub effect: shadowdusk_mgfx::Effect,
    pub manifest: Manifest,
}

fn entry_paths(dir: &Path, key: &str) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("{key}.mgfx")),
        dir.join(format!("{key}.json")),
    )
}

/// Looks `key` up in the shared folder; `None` on a miss or an entry that does not check out.
pub(crate) fn load_shared(
    dir: &Path,
    key: &str,
    root: &Path,
    source: &Path,
    paths: &ArtifactPaths,
) -> Option<SharedHit> {
    let (mgfx, json) = entry_paths(dir, key);
    let text = std::fs::read_to_string(&json).ok()?;
    let mut manifest: Manifest = serde_json::from_str(&text).ok()?;
    if manifest.format != FORMAT || manifest.cache_key != key {
        return None;
    }
    let bytes = std::fs::read(&mgfx).ok()?;
    let effect = shadowdusk_mgfx::read(&bytes).ok()?;
    if layout_of(&effect) != manifest.layout {
        return None;
    }
    map_paths(&mut manifest, |p| from_portable(p, root));
    // Recently used: [`prune`] keeps it.
    if let Ok(f) = std::fs::File::options().append(true).open(&json) {
        let _ = f.set_modified(std::time::SystemTime::now());
    }
    manifest.source = source.to_path_buf();
    manifest.root = root.to_path_buf();
    manifest.mgfx = paths.mgfx.clone();
    Some(SharedHit {
        bytes,
        effect,
        manifest,
    })
}

/// Keeps the shared folder within `max_bytes`: the entries whose manifest was touched longest
/// ago go first, until at most 80 % is left.
pub(crate) fn prune(dir: &Path, max_bytes: u64) {
    shadowdusk_compiler::plumbing::prune_pairs(dir, "json", max_bytes);
}

/// Stores an entry (no-op when one exists: same key, same content).
pub(crate) fn store_shared(
    dir: &Path,
    key: &str,
    root: &Path,
    bytes: &[u8],
    manifest: &Manifest,
) -> std::io::Result<()> {
    let (mgfx, json) = entry_paths(dir, key);
    if mgfx.is_file() && json.is_file() {
        return Ok(());
    }
    std::fs::create_dir_all(dir)?;
    let mut m = manifest.clone();
    map_paths(&mut m, |p| PathBuf::from(portable(p, root)));
    // Whichever crate reads it is the root.
    m.root = PathBuf::new();
    m.mgfx = PathBuf::from(format!("{key}.mgfx"));
    let text = serde_json::to_string_pretty(&m).map_err(std::io::Error::other)?;
    shadowdusk_compiler::plumbing::write_atomic(&mgfx, bytes)?;
    shadowdusk_compiler::plumbing::write_atomic(&json, text.as_bytes())
}
