//! The process-wide DXC library and the per-thread compiler objects.
//!
//! The shared object is loaded once per process ([`OnceLock`]); loading it twice would map two
//! copies of LLVM. The COM objects hassle-rs creates from it (`DxcCompiler`, `DxcLibrary`) are
//! neither `Send` nor `Sync` (raw COM pointers with non-atomic reference counts), so they cannot
//! live in a `static Mutex`. Instead every thread lazily creates its own pair in a
//! `thread_local!`; DXC supports one compiler instance per thread, which also lets a parallel
//! build compile shaders concurrently without sharing an instance.

use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::OnceLock;

use hassle_rs::{Dxc, DxcCompiler, DxcLibrary};

use super::locate::{self, Candidate};

struct Loaded {
    dxc: Dxc,
    path: Option<PathBuf>,
}

static LIBRARY: OnceLock<Result<Loaded, String>> = OnceLock::new();

fn library() -> Result<&'static Loaded, String> {
    LIBRARY.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn load() -> Result<Loaded, String> {
    let candidates = locate::candidates()?;
    let mut failures = Vec::new();
    for c in candidates {
        let path = match &c {
            Candidate::File(p) => Some(p.clone()),
            Candidate::System => None,
        };
        match Dxc::new(path.clone()) {
            Ok(dxc) => {
                // A library that loads but cannot create a compiler (e.g. the DXC 1.7 COM layout
                // hassle-rs 0.12 does not match) is as useless as a missing one.
                if dxc.create_compiler().is_ok() && dxc.create_library().is_ok() {
                    return Ok(Loaded { dxc, path });
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

thread_local! {
    static INSTANCE: RefCell<Option<(DxcCompiler, DxcLibrary)>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's compiler and library, creating them on first use.
pub fn with_instance<R>(f: impl FnOnce(&DxcCompiler, &DxcLibrary) -> R) -> Result<R, String> {
    let lib = library()?;
    INSTANCE.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
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
