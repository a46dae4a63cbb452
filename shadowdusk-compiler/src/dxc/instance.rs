//! The DXC library loaded into this process, and the pool of compiler objects compiles lease.
//!
//! The shared object is loaded once per process: loading it twice would map two copies of LLVM,
//! and a file replaced at the same path cannot be loaded again (the loader hands back the one
//! it mapped). So every in-process compile checks, by content, that the loaded library is the
//! one [`Choice`] names: after the DXC file was replaced on disk, an in-process compile is an
//! error that says to restart the process, never a compile by the old library under the new
//! one's name (worker processes, started anew, take the new file at once).
//! A *failed* load is not remembered: the next use tries again, so a long-lived process (a
//! rust-analyzer session expanding `include_effect!`) recovers once DXC is in place (`shadowdusk setup`, or `SHADOWDUSK_DXC`).
//! The compiler objects hassle-rs creates from it (`DxcCompiler`, `DxcLibrary`) are kept in a
//! process-wide pool of idle instances: a compile takes one out, uses it alone, and puts it back,
//! so a parallel build compiles shaders concurrently without two threads ever sharing an instance,
//! and no instance is ever released (see [`IDLE`] for why that matters at exit).

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use hassle_rs::{Dxc, DxcCompiler, DxcLibrary};

use super::chosen::{self, Choice};
use super::{identity, pins};

struct Loaded {
    dxc: Dxc,
    /// The file loaded (a bare name: the system loader's, its file unknown).
    path: PathBuf,
    /// Its content identity, as [`Choice::sha256`] gives it.
    sha256: String,
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

/// The loaded library, loading `choice`'s when none is; `Err` when it cannot be loaded, or when
/// the library this process loaded is not `choice`'s.
fn library(choice: &Choice) -> Result<&'static Loaded, String> {
    let loaded = match LIBRARY.get() {
        Some(l) => l,
        None => exclusive(|| match LIBRARY.get() {
            Some(l) => Ok(l),
            None => load(choice).map(|l| LIBRARY.get_or_init(|| l)),
        })?,
    };
    if loaded.sha256 == choice.sha256 {
        return Ok(loaded);
    }
    Err(format!(
        "this process loaded DXC from {} ({}) to compile in process, and the DXC to use is now \
         {} ({}): a process loads DXC once, so restart it to compile with the new one",
        loaded.path.display(),
        short(&loaded.sha256),
        choice.path.display(),
        short(&choice.sha256),
    ))
}

/// The first characters of a hash, for messages.
fn short(sha256: &str) -> String {
    let head: String = sha256.chars().take(12).collect();
    format!("SHA-256 {head}…")
}

fn load(choice: &Choice) -> Result<Loaded, String> {
    let dxc = open(Some(choice.path.clone()))?;
    if !choice.file_unchanged() {
        // The loader may have mapped the new file: it is never used under the old one's name.
        // Not unloaded either: no DXC code runs on its way out (see [`IDLE`]).
        std::mem::forget(dxc);
        return Err(format!(
            "the DXC file {} changed while it was loaded; try again",
            choice.path.display()
        ));
    }
    Ok(Loaded {
        dxc,
        path: choice.path.clone(),
        sha256: choice.sha256.clone(),
    })
}

/// Loads the system loader's DXC, unless this process has loaded one, and says which it is:
/// its file (the real, versioned name mapped into this process, or only its name where the file
/// cannot be found) and its content identity. `Err` when the loader finds none.
pub fn load_system() -> Result<(PathBuf, String), String> {
    exclusive(|| {
        if let Some(l) = LIBRARY.get() {
            return Ok((l.path.clone(), l.sha256.clone()));
        }
        let dxc = open(None)?;
        let file = identity::system_library_file();
        let identified = file.as_deref().and_then(|f| chosen::identify(f).ok());
        let (path, sha256) = match identified {
            Some((path, _, sha256)) => (path, sha256),
            None => (pins::library_file_name().into(), identity::unidentified()),
        };
        let l = LIBRARY.get_or_init(|| Loaded { dxc, path, sha256 });
        Ok((l.path.clone(), l.sha256.clone()))
    })
}

/// Loads `path` (`None`: the system loader's) and checks that it can create a compiler.
fn open(path: Option<PathBuf>) -> Result<Dxc, String> {
    let describe = match &path {
        Some(p) => p.display().to_string(),
        None => format!("the system's {}", pins::library_file_name()),
    };
    let failure = match Dxc::new(path) {
        // A library that loads but cannot create a compiler (e.g. the DXC 1.7 COM layout
        // hassle-rs 0.12 does not match) is as useless as a missing one.
        Ok(dxc) if dxc.create_compiler().is_ok() && dxc.create_library().is_ok() => return Ok(dxc),
        Ok(_) => format!("{describe}: loaded but could not create a compiler"),
        Err(e) => format!("{describe}: {e}"),
    };
    Err(format!(
        "could not load the DXC shader compiler ({}): {failure}",
        pins::library_file_name()
    ))
}

/// Whether a DXC library is loaded in this process.
pub fn is_loaded() -> bool {
    LIBRARY.get().is_some()
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
/// `Err` as [`library`] says.
pub fn with_instance<R>(
    choice: &Choice,
    f: impl FnOnce(&DxcCompiler, &DxcLibrary) -> R,
) -> Result<R, String> {
    let lease = lease(choice)?;
    let i = lease
        .0
        .as_ref()
        .expect("a lease holds its instance until dropped");
    Ok(f(&i.compiler, &i.library))
}

fn lease(choice: &Choice) -> Result<Lease, String> {
    let lib = library(choice)?;
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
        let choice = crate::dxc::choice::current().expect("DXC is available");
        let id = std::thread::spawn(move || {
            let lease = lease(&choice).expect("instance");
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
