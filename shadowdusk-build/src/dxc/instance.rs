//! The process-wide DXC library and the per-thread compiler objects.
//!
//! The shared object is loaded once per process; loading it twice would map two copies of LLVM.
//! A *failed* load is not remembered: the next use tries again, so a long-lived process (a
//! rust-analyzer session expanding `include_effect!`) recovers once `cargo xtask setup` has run.
//! The COM objects hassle-rs creates from it (`DxcCompiler`, `DxcLibrary`) are neither `Send`
//! nor `Sync` (raw COM pointers with non-atomic reference counts), so they cannot live in a
//! `static Mutex`. Instead every thread lazily creates its own pair in a `thread_local!`; DXC
//! supports one compiler instance per thread, which also lets a parallel build compile shaders
//! concurrently without sharing an instance.

use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use hassle_rs::{Dxc, DxcCompiler, DxcLibrary};

use super::locate::{self, Candidate};

struct Loaded {
    dxc: Dxc,
    path: Option<PathBuf>,
    /// SHA-256 of the loaded file (`None` when the system loader's file cannot be found).
    sha256: Option<String>,
}

static LIBRARY: OnceLock<Loaded> = OnceLock::new();
/// Serialises load attempts, so two threads never map the library twice.
static LOADING: Mutex<()> = Mutex::new(());

fn library() -> Result<&'static Loaded, String> {
    if let Some(l) = LIBRARY.get() {
        return Ok(l);
    }
    let _attempt = LOADING.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(l) = LIBRARY.get() {
        return Ok(l);
    }
    let loaded = load()?;
    Ok(LIBRARY.get_or_init(|| loaded))
}

fn load() -> Result<Loaded, String> {
    let candidates = locate::candidates()?;
    let mut failures = Vec::new();
    for c in candidates {
        let (path, sha256) = match &c {
            Candidate::Explicit(p) => (Some(p.clone()), locate::sha256_file(p).ok()),
            Candidate::Pinned(p) => match locate::sha256_file(p) {
                Ok(h) if h == locate::PINNED_SHA256 => (Some(p.clone()), Some(h)),
                Ok(h) => {
                    failures.push(format!(
                        "{}: sha256 {h} is not the pinned DXC 1.8 ({}); not loaded (run `cargo \
                         xtask setup` again)",
                        p.display(),
                        locate::PINNED_SHA256
                    ));
                    continue;
                }
                Err(e) => {
                    failures.push(e);
                    continue;
                }
            },
            Candidate::System => (None, None),
        };
        match Dxc::new(path.clone()) {
            Ok(dxc) => {
                // A library that loads but cannot create a compiler (e.g. the DXC 1.7 COM layout
                // hassle-rs 0.12 does not match) is as useless as a missing one.
                if dxc.create_compiler().is_ok() && dxc.create_library().is_ok() {
                    let sha256 = sha256.or_else(|| {
                        locate::mapped_file("libdxcompiler.so")
                            .and_then(|f| locate::sha256_file(&f).ok())
                    });
                    return Ok(Loaded { dxc, path, sha256 });
                }
                failures.push(format!(
                    "{}: loaded but could not create a compiler",
                    describe(&path)
                ));
            }
            Err(e) => failures.push(format!("{}: {e}", describe(&path))),
        }
    }
    Err(format!(
        "could not load the DXC shader compiler (libdxcompiler.so). Searched {}. Run `cargo xtask \
         setup` in the ShadowDusk workspace, or set SHADOWDUSK_DXC=/path/to/libdxcompiler.so. \
         Details: {}",
        locate::searched_description(),
        failures.join("; ")
    ))
}

fn describe(p: &Option<PathBuf>) -> String {
    match p {
        Some(p) => p.display().to_string(),
        None => "system libdxcompiler.so".into(),
    }
}

/// The path DXC was loaded from (`None` = system loader), or the load error.
pub fn loaded_path() -> Result<Option<PathBuf>, String> {
    library().map(|l| l.path.clone())
}

/// SHA-256 of the loaded library file, or the load error.
pub fn loaded_sha256() -> Result<Option<String>, String> {
    library().map(|l| l.sha256.clone())
}

thread_local! {
    static INSTANCE: RefCell<Option<(DxcCompiler, DxcLibrary)>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's compiler and library, creating them on first use.
pub fn with_instance<R>(f: impl FnOnce(&DxcCompiler, &DxcLibrary) -> R) -> Result<R, String> {
    let lib = library()?;
    INSTANCE.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            // One thread at a time sets up its instance: DXC's lazily initialised global state
            // is not safe to build from two threads at once (a parallel build's first compiles
            // crashed in a worker thread under load).
            let _setup = LOADING.lock().unwrap_or_else(|e| e.into_inner());
            let compiler = lib
                .dxc
                .create_compiler()
                .map_err(|e| format!("DXC: cannot create a compiler: {e}"))?;
            let library = lib
                .dxc
                .create_library()
                .map_err(|e| format!("DXC: cannot create a library: {e}"))?;
            *slot = Some((compiler, library));
        }
        let (c, l) = slot.as_ref().expect("initialised above");
        Ok(f(c, l))
    })
}
