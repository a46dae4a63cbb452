//! This side of `worker.c`, the DXC worker executable: where the executable is, how it is
//! started, and its requests and answers (the byte layout is in `worker.c`'s header).
//!
//! The build script compiles `worker.c` for the target this crate is built for, and the bytes
//! are embedded here. The executable runs as the user, so it is run only from where no one else
//! can replace it: its folder and every folder above it owned by the user (or root) and
//! writable by no one else (a folder with the sticky bit, such as `/tmp`, counts above it: no one
//! else may rename what is in it), the file itself too. The places, in order:
//! 1. where the build left it (this crate's `OUT_DIR`);
//! 2. the per-user cache, `<cache>/shadowdusk/worker/<hash>/`, written there once;
//! 3. the temporary folder, only inside `shadowdusk-<uid>`, a private (`0700`) folder of the
//!    user's: one that someone else made first, or with other permissions, is not used, and a
//!    fresh private folder is made for this process instead.
//!
//! Before *every* start the file is checked again: the place as above, and its bytes equal to
//! the embedded executable (about 20 KB, read in well under a millisecond); a copy that fails
//! is written again, never run.

use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{LazyLock, Mutex};

use super::isolate::{Died, Limits, Worker};

const EXECUTABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/shadowdusk-dxc-worker"));
const BUILT_AT: &str = concat!(env!("OUT_DIR"), "/shadowdusk-dxc-worker");
const NAME: &str = "shadowdusk-dxc-worker";

/// Starts a worker that loads `library` (a path, or a file name for the system loader).
pub fn spawn(library: &Path, limits: &Limits) -> Result<Worker, Died> {
    let exe = EXECUTABLE_FILE.path().map_err(Died::Spawn)?;
    let mut command = Command::new(exe);
    command
        .arg(library)
        .arg(limits.idle.as_secs().max(1).to_string())
        .arg(limits.worker_alarm().as_secs().max(1).to_string());
    Worker::spawn(command, limits.request)
}

/// The executable [`spawn`] runs.
static EXECUTABLE_FILE: LazyLock<Executable> =
    LazyLock::new(|| Executable::new(Places::standard()));

/// The worker executable's path, checked just now (see the module docs).
#[cfg(test)]
pub fn executable() -> Result<PathBuf, String> {
    EXECUTABLE_FILE.path()
}

/// Where the executable may live.
pub struct Places {
    /// The build's copy.
    built: Option<PathBuf>,
    /// The per-user cache folder (`<cache>/shadowdusk`).
    cache: Option<PathBuf>,
    /// The temporary folder.
    temp: PathBuf,
}

impl Places {
    fn standard() -> Places {
        let places = Places {
            built: Some(BUILT_AT.into()),
            cache: dirs::cache_dir().map(|c| c.join("shadowdusk")),
            temp: std::env::temp_dir(),
        };
        // A test's child process (see `no_workers_tests`) has only the temporary folder.
        #[cfg(test)]
        if std::env::var_os(TEMP_ONLY_VAR).is_some() {
            return Places {
                built: None,
                cache: None,
                ..places
            };
        }
        places
    }
}

/// Set in a test's child process: the executable may only go to the temporary folder.
#[cfg(test)]
pub const TEMP_ONLY_VAR: &str = "SHADOWDUSK_TEST_WORKER_TEMP_ONLY";

/// The executable in one of its [`Places`], found or written once and checked before each use.
pub struct Executable {
    places: Places,
    /// The place last used.
    chosen: Mutex<Option<PathBuf>>,
}

impl Executable {
    pub fn new(places: Places) -> Executable {
        Executable {
            places,
            chosen: Mutex::new(None),
        }
    }

    /// The executable's real path, checked just now; a copy that fails the check is written
    /// again, or another place is taken.
    pub fn path(&self) -> Result<PathBuf, String> {
        let mut chosen = self.chosen.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = chosen.as_deref().and_then(|p| check(p).ok()) {
            return Ok(p);
        }
        *chosen = None;
        let p = self.find_or_write()?;
        *chosen = Some(p.clone());
        Ok(p)
    }

    fn find_or_write(&self) -> Result<PathBuf, String> {
        let mut failures = Vec::new();
        let mut tried = |at: &Path, r: Result<PathBuf, String>| match r {
            Ok(p) => Some(p),
            Err(e) => {
                failures.push(format!("{}: {e}", at.display()));
                None
            }
        };
        if let Some(built) = &self.places.built {
            if let Some(p) = tried(built, check(built)) {
                return Ok(p);
            }
        }
        let hash = blake3::hash(EXECUTABLE).to_hex();
        let hash = &hash.as_str()[..16];
        if let Some(cache) = &self.places.cache {
            let dir = cache.join("worker").join(hash);
            if let Some(p) = tried(&dir, install(&dir, NAME)) {
                return Ok(p);
            }
        }
        let temp = &self.places.temp;
        let name = format!("{NAME}-{hash}");
        let private = private_folder(temp).and_then(|dir| install(&dir, &name));
        if let Some(p) = tried(temp, private) {
            return Ok(p);
        }
        if let Some(p) = tried(temp, fresh_folder(temp).and_then(|dir| install(&dir, NAME))) {
            return Ok(p);
        }
        Err(format!(
            "the DXC worker executable has no place only this user can change ({})",
            failures.join("; ")
        ))
    }
}

/// The real path of the executable at `path`, if it is one this process may run: a regular
/// file of the user's (or root's) that no one else may write, in folders no one else may change
/// ([`check_folders`]), with the embedded executable's bytes.
fn check(path: &Path) -> Result<PathBuf, String> {
    let real = std::fs::canonicalize(path).map_err(|e| e.to_string())?;
    let folder = real.parent().ok_or("no folder")?;
    check_folders(folder)?;
    let meta = std::fs::symlink_metadata(&real).map_err(|e| e.to_string())?;
    if !meta.file_type().is_file() {
        return Err("not a regular file".into());
    }
    if !trusted(meta.uid()) || meta.mode() & 0o022 != 0 || meta.mode() & 0o100 == 0 {
        return Err(format!(
            "owned by uid {} with mode {:o}: not an executable only this user may change",
            meta.uid(),
            meta.mode() & 0o7777
        ));
    }
    let bytes = std::fs::read(&real).map_err(|e| e.to_string())?;
    if bytes != EXECUTABLE {
        return Err("not this build's worker executable".into());
    }
    Ok(real)
}

/// Checks that no one but the user (and root) can change `folder` or what it holds: it and every
/// folder above it are owned by the user or root and writable by no one else, except that a
/// folder above it may be world-writable with the sticky bit (no one may then rename or remove
/// another's entry).
fn check_folders(folder: &Path) -> Result<(), String> {
    let folder = std::fs::canonicalize(folder).map_err(|e| e.to_string())?;
    for (i, dir) in folder.ancestors().enumerate() {
        let meta = std::fs::symlink_metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mode = meta.mode();
        let shared = mode & 0o022 != 0 && !(i > 0 && mode & 0o1000 != 0);
        if !meta.is_dir() || !trusted(meta.uid()) || shared {
            return Err(format!(
                "{} (owned by uid {}, mode {:o}) may be changed by another user",
                dir.display(),
                meta.uid(),
                mode & 0o7777
            ));
        }
    }
    Ok(())
}

/// Whether a file owned by `uid` is this user's or root's.
fn trusted(uid: u32) -> bool {
    uid == 0 || uid == euid()
}

fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Writes the executable as `dir/name` unless a good copy is there; `dir` is made (`0755`)
/// if missing, and checked before anything is written into it.
fn install(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let path = dir.join(name);
    if let Ok(p) = check(&path) {
        return Ok(p);
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o755)
        .create(dir)
        .map_err(|e| e.to_string())?;
    check_folders(dir)?;
    crate::plumbing::write_atomic_with(&path, EXECUTABLE, Some(0o755))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    check(&path)
}

/// `temp/shadowdusk-<uid>`, made `0700` if missing; `Err` when it is there but is not a private
/// folder of this user's (someone else made it first, or it has other permissions).
fn private_folder(temp: &Path) -> Result<PathBuf, String> {
    let dir = temp.join(format!("shadowdusk-{}", euid()));
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
    }
    check_private(&dir)?;
    Ok(dir)
}

/// A new private folder in `temp`, made by this process (never one that was there before).
fn fresh_folder(temp: &Path) -> Result<PathBuf, String> {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    for _ in 0..16 {
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let seed = format!("{}:{now}:{n}", std::process::id());
        let tag = blake3::hash(seed.as_bytes()).to_hex();
        let dir = temp.join(format!("shadowdusk-{}-{}", euid(), &tag.as_str()[..12]));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => {
                check_private(&dir)?;
                return Ok(dir);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
        }
    }
    Err(format!("cannot make a new folder in {}", temp.display()))
}

/// `dir` is a folder (not a link to one) of this user's that only this user may enter, in
/// folders no one else may change.
fn check_private(dir: &Path) -> Result<(), String> {
    let meta = std::fs::symlink_metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if !meta.is_dir() || meta.uid() != euid() || meta.mode() & 0o077 != 0 {
        return Err(format!(
            "{} is not a private folder of this user's (owned by uid {}, mode {:o}); not used",
            dir.display(),
            meta.uid(),
            meta.mode() & 0o7777
        ));
    }
    check_folders(dir)
}

/// One DXC compile call, as the worker makes it.
pub struct Request<'a> {
    pub source: &'a str,
    pub source_name: &'a str,
    pub entry: &'a str,
    pub profile: &'a str,
    pub arguments: &'a [&'a str],
}

impl Request<'_> {
    /// The request's bytes (without the frame length).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.source.len() + 256);
        for f in [self.source, self.source_name, self.entry, self.profile] {
            put_field(&mut out, f.as_bytes());
        }
        out.extend_from_slice(&(self.arguments.len() as u32).to_le_bytes());
        for a in self.arguments {
            put_field(&mut out, a.as_bytes());
        }
        out
    }
}

fn put_field(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// What DXC returned for one call.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    /// The compile call's own HRESULT (negative = failed).
    pub hresult: i32,
    /// The operation's status (0 = compiled).
    pub status: u32,
    /// The compiled object (SPIR-V), empty unless compiled.
    pub object: Vec<u8>,
    /// DXC's messages as UTF-8, empty when it printed none.
    pub errors: String,
}

impl Answer {
    /// Parses an answer frame; `Err` says what is wrong with it.
    pub fn decode(bytes: &[u8]) -> Result<Answer, String> {
        let mut at = bytes;
        let hresult = take_u32(&mut at)? as i32;
        let status = take_u32(&mut at)?;
        let object = take_field(&mut at)?.to_vec();
        let errors = String::from_utf8_lossy(take_field(&mut at)?).into_owned();
        if !at.is_empty() {
            return Err(format!("{} bytes after the answer", at.len()));
        }
        Ok(Answer {
            hresult,
            status,
            object,
            errors,
        })
    }

    /// Whether the compile succeeded (as hassle-rs decides: both results good).
    pub fn compiled(&self) -> bool {
        self.hresult >= 0 && self.status == 0
    }
}

fn take_u32(at: &mut &[u8]) -> Result<u32, String> {
    let (head, rest) = at.split_first_chunk::<4>().ok_or("the answer ends early")?;
    *at = rest;
    Ok(u32::from_le_bytes(*head))
}

fn take_field<'a>(at: &mut &'a [u8]) -> Result<&'a [u8], String> {
    let len = take_u32(at)? as usize;
    if at.len() < len {
        return Err(format!("a field of {len} bytes in {} left", at.len()));
    }
    let (field, rest) = at.split_at(len);
    *at = rest;
    Ok(field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_executable_is_found_or_written() {
        let exe = executable().expect("worker executable");
        assert_eq!(std::fs::read(exe).expect("readable"), EXECUTABLE);
    }

    /// Places with no build copy and no per-user cache (nothing writable there).
    fn temp_only(temp: &Path) -> Executable {
        Executable::new(Places {
            built: None,
            cache: None,
            temp: temp.to_path_buf(),
        })
    }

    /// The build's copy, when it is not this build's executable (another build's, same size or
    /// not), is not run: the per-user cache's copy is.
    #[test]
    fn a_build_copy_that_differs_is_not_run() {
        let dir = tempfile::tempdir().expect("temp dir");
        let built = dir.path().join("out/shadowdusk-dxc-worker");
        std::fs::create_dir_all(built.parent().unwrap()).unwrap();
        let mut other = EXECUTABLE.to_vec();
        other[EXECUTABLE.len() / 2] ^= 1;
        std::fs::write(&built, &other).unwrap();
        std::fs::set_permissions(&built, std::fs::Permissions::from_mode(0o755)).unwrap();
        let exe = Executable::new(Places {
            built: Some(built.clone()),
            cache: Some(dir.path().join("cache")),
            temp: dir.path().join("tmp"),
        });
        let path = exe.path().expect("an executable");
        assert!(
            path.starts_with(dir.path().canonicalize().unwrap().join("cache")),
            "{path:?}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), EXECUTABLE);
    }

    /// A worker file replaced in the cache after it was written is not run: it is checked before
    /// each start and written again.
    #[test]
    fn a_replaced_worker_file_is_not_run() {
        let dir = tempfile::tempdir().expect("temp dir");
        let exe = Executable::new(Places {
            built: None,
            cache: Some(dir.path().join("cache")),
            temp: dir.path().join("tmp"),
        });
        let first = exe.path().expect("written");
        let marker = dir.path().join("ran");
        let script = format!("#!/bin/sh\ntouch {}\n", marker.display());
        std::fs::write(&first, script).expect("replace it");
        let second = exe.path().expect("checked");
        assert_eq!(first, second);
        assert_eq!(std::fs::read(&second).unwrap(), EXECUTABLE, "written again");
        // The file now started is the worker: it says it cannot load a missing library.
        let mut c = Command::new(&second);
        c.args(["/nonexistent/libdxcompiler.so", "1", "1"]);
        let died = Worker::spawn(c, std::time::Duration::from_secs(20)).err();
        match died {
            Some(Died::Spawn(why)) => assert!(why.contains("cannot load"), "{why}"),
            other => panic!("expected the worker's refusal, got {other:?}"),
        }
        assert!(!marker.exists(), "the replaced file ran");
    }

    /// A copy others may write (mode 0777) is not run either.
    #[test]
    fn a_worker_file_others_may_write_is_not_run() {
        let dir = tempfile::tempdir().expect("temp dir");
        let exe = temp_only(dir.path());
        let first = exe.path().expect("written");
        std::fs::set_permissions(&first, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(check(&first).is_err());
        let again = exe.path().expect("rewritten");
        assert_eq!(std::fs::metadata(&again).unwrap().mode() & 0o777, 0o755);
    }

    /// The temporary folder: a `shadowdusk-<uid>` folder someone else made first, or one with
    /// other permissions, is not used; a fresh private folder is.
    #[test]
    fn a_temp_folder_made_by_another_user_or_open_to_others_is_not_used() {
        for (owner, mode) in [(65534, 0o700), (euid(), 0o777), (euid(), 0o755)] {
            let dir = tempfile::tempdir().expect("temp dir");
            let squatted = dir.path().join(format!("shadowdusk-{}", euid()));
            std::fs::create_dir(&squatted).unwrap();
            std::fs::set_permissions(&squatted, std::fs::Permissions::from_mode(mode)).unwrap();
            if owner != euid() {
                let c = std::ffi::CString::new(squatted.as_os_str().as_encoded_bytes()).unwrap();
                // SAFETY: a valid C path; chown has no other precondition.
                if unsafe { libc::chown(c.as_ptr(), owner, owner) } != 0 {
                    let why = format!(
                        "cannot give a folder to uid {owner} here ({})",
                        std::io::Error::last_os_error()
                    );
                    shadowdusk_testkit::skip(&shadowdusk_testkit::this_test(), &why);
                    continue;
                }
            }
            let path = temp_only(dir.path()).path().expect("an executable");
            let squatted = squatted.canonicalize().unwrap();
            assert!(
                !path.starts_with(&squatted),
                "{path:?} is in the squatted folder"
            );
            assert_eq!(
                std::fs::read_dir(&squatted).unwrap().count(),
                0,
                "nothing written there"
            );
            let folder = std::fs::metadata(path.parent().unwrap()).unwrap();
            assert_eq!((folder.uid(), folder.mode() & 0o777), (euid(), 0o700));
        }
    }

    /// A private temporary folder of this user's is used, and reused.
    #[test]
    fn the_private_temp_folder_is_made_and_reused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let first = temp_only(dir.path()).path().expect("written");
        let private = dir
            .path()
            .canonicalize()
            .unwrap()
            .join(format!("shadowdusk-{}", euid()));
        assert_eq!(first.parent(), Some(private.as_path()));
        let meta = std::fs::metadata(&private).unwrap();
        assert_eq!(meta.mode() & 0o777, 0o700);
        assert_eq!(temp_only(dir.path()).path().expect("found"), first);
    }

    #[test]
    fn answers_decode_and_malformed_ones_do_not() {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&(-5i32).to_le_bytes());
        bytes.extend_from_slice(&1u32.to_le_bytes());
        put_field(&mut bytes, b"");
        put_field(&mut bytes, b"shader.hlsl:1:1: error: x");
        let a = Answer::decode(&bytes).expect("decodes");
        assert_eq!((a.hresult, a.status, a.compiled()), (-5, 1, false));
        assert_eq!(a.errors, "shader.hlsl:1:1: error: x");
        assert!(Answer::decode(&bytes[..bytes.len() - 1]).is_err());
        let mut long = bytes.clone();
        long.push(0);
        assert!(Answer::decode(&long).is_err());
        assert!(Answer::decode(&[1, 2]).is_err());
    }
}
