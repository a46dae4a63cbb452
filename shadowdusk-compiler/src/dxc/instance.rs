//! The process-wide DXC library and the pool of compiler objects compiles lease.
//!
//! The shared object is loaded once per process; loading it twice would map two copies of LLVM.
//! A *failed* load is not remembered: the next use tries again, so a long-lived process (a
//! rust-analyzer session expanding `include_effect!`) recovers once DXC is in place (`shadowdusk setup`, or `SHADOWDUSK_DXC`).
//! The compiler objects hassle-rs creates from it (`DxcCompiler`, `DxcLibrary`) are kept in a
//! process-wide pool of idle instances: a compile takes one out, uses it alone, and puts it back,
//! so a parallel build compiles shaders concurrently without two threads ever sharing an instance,
//! and no instance is ever released (see [`IDLE`] for why that matters at exit).

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use hassle_rs::{Dxc, DxcCompiler, DxcLibrary};

use super::locate::{self, Candidate};
use super::{pins, provision};

struct Loaded {
    dxc: Dxc,
    path: Option<PathBuf>,
    /// SHA-256 of the loaded file (`None` when the system loader's file cannot be found).
    sha256: Option<String>,
}

static LIBRARY: OnceLock<Loaded> = OnceLock::new();
/// Held wherever this process builds DXC state (loading the library, creating an instance, the
/// warm-up compile): two threads never map the library twice or build DXC's lazily initialised
/// global state at once.
static GATE: Mutex<()> = Mutex::new(());

/// Runs `f` exclusively of every other DXC set-up in this process.
pub fn exclusive<R>(f: impl FnOnce() -> R) -> R {
    let _g = GATE.lock().unwrap_or_else(|e| e.into_inner());
    f()
}

fn library() -> Result<&'static Loaded, String> {
    if let Some(l) = LIBRARY.get() {
        return Ok(l);
    }
    exclusive(|| {
        if let Some(l) = LIBRARY.get() {
            return Ok(l);
        }
        let loaded = load()?;
        Ok(LIBRARY.get_or_init(|| loaded))
    })
}

fn load() -> Result<Loaded, String> {
    let mut failures = Vec::new();
    for c in locate::candidates()? {
        let (path, sha256) = match c {
            Candidate::Explicit(p) => {
                let sha256 = locate::sha256_file(&p).ok();
                (Some(p), sha256)
            }
            Candidate::Cached(c) => (Some(c.path), Some(c.sha256)),
            Candidate::System => (None, None),
            Candidate::Fetch(cache) => match cache.provide(&provision::notice) {
                Ok(c) => (Some(c.path), Some(c.sha256)),
                Err(e) => {
                    failures.push(e);
                    continue;
                }
            },
        };
        match Dxc::new(path.clone()) {
            Ok(dxc) => {
                // A library that loads but cannot create a compiler (e.g. the DXC 1.7 COM layout
                // hassle-rs 0.12 does not match) is as useless as a missing one.
                if dxc.create_compiler().is_ok() && dxc.create_library().is_ok() {
                    let sha256 = sha256.or_else(|| {
                        locate::mapped_file(&pins::library_file_name())
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
        "could not load the DXC shader compiler ({}): {}",
        pins::library_file_name(),
        failures.join("; ")
    ))
}

fn describe(p: &Option<PathBuf>) -> String {
    match p {
        Some(p) => p.display().to_string(),
        None => format!("the system's {}", pins::library_file_name()),
    }
}

/// Whether the library is loaded in this process.
pub fn is_loaded() -> bool {
    LIBRARY.get().is_some()
}

/// The path DXC was loaded from (`None` = system loader), or the load error.
pub fn loaded_path() -> Result<Option<PathBuf>, String> {
    library().map(|l| l.path.clone())
}

/// SHA-256 of the loaded library file, or the load error.
pub fn loaded_sha256() -> Result<Option<String>, String> {
    library().map(|l| l.sha256.clone())
}

/// One compiler and its library, used by one thread at a time.
struct Instance {
    compiler: DxcCompiler,
    library: DxcLibrary,
    /// Creation order, for tests to tell instances apart.
    #[cfg_attr(not(test), allow(dead_code))]
    id: usize,
}

static CREATED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

// SAFETY: hassle-rs marks its COM wrappers `!Send` because they hold raw interface pointers.
// DXC's objects are free-threaded (no apartment or thread affinity); what DXC forbids is two
// threads using one instance *at once*, and an `Instance` is only ever reached through `IDLE`'s
// lock or as the exclusive value a single `with_instance` call took out of it. Each DXC call
// installs the instance's own allocator for the duration of the call, so moving an instance to
// another thread between calls carries no per-thread state.
unsafe impl Send for Instance {}

/// Instances no call is using. Taken out for one call and put back after it; never dropped.
///
/// Why not a `thread_local!` per thread: a build's rayon threads exit when its pool is dropped,
/// and a thread-local instance is then released by the exiting thread while the main thread may
/// already be in `exit()`, running libdxcompiler's static destructors (`llvm_shutdown`). That
/// race killed a build script with SIGSEGV after all its work was done. Instances kept here are
/// never released, so no DXC code runs on a thread's way out or during process exit.
static IDLE: Mutex<Vec<Instance>> = Mutex::new(Vec::new());

/// Puts the instance back in [`IDLE`] even if the closure panics.
struct Lease(Option<Instance>);

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(i) = self.0.take() {
            IDLE.lock().unwrap_or_else(|e| e.into_inner()).push(i);
        }
    }
}

/// Runs `f` with a compiler and library no other thread is using, creating them if every
/// existing one is busy (so there are as many as the most concurrent compiles ever were).
pub fn with_instance<R>(f: impl FnOnce(&DxcCompiler, &DxcLibrary) -> R) -> Result<R, String> {
    let lease = lease()?;
    let i = lease
        .0
        .as_ref()
        .expect("a lease holds its instance until dropped");
    Ok(f(&i.compiler, &i.library))
}

fn lease() -> Result<Lease, String> {
    let lib = library()?;
    let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
    let instance = match idle {
        Some(i) => i,
        None => {
            // One thread at a time creates an instance: DXC's lazily initialised global state
            // is not safe to build from two threads at once.
            exclusive(|| -> Result<Instance, String> {
                Ok(Instance {
                    compiler: lib
                        .dxc
                        .create_compiler()
                        .map_err(|e| format!("DXC: cannot create a compiler: {e}"))?,
                    library: lib
                        .dxc
                        .create_library()
                        .map_err(|e| format!("DXC: cannot create a library: {e}"))?,
                    id: CREATED.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
                })
            })?
        }
    };
    Ok(Lease(Some(instance)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Instances are released by nobody: one used on a thread that has since exited is still
    /// idle in the pool afterwards (so that thread's exit ran no DXC code).
    #[test]
    fn an_instance_outlives_the_thread_that_used_it() {
        if super::super::missing_skips() {
            return;
        }
        let id = std::thread::spawn(|| {
            let lease = lease().expect("instance");
            lease.0.as_ref().expect("held").id
        })
        .join()
        .expect("thread");
        // Another test may have it leased for a moment; it comes back unless it was dropped.
        let is_idle = || {
            IDLE.lock()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
                .any(|i| i.id == id)
        };
        let start = std::time::Instant::now();
        while !is_idle() {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "the exited thread's instance was dropped"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}
