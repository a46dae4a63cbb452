//! This side of `worker.c`, the DXC worker executable: where the executable is, how it is
//! started, and its requests and answers (the byte layout is in `worker.c`'s header).
//!
//! The build script compiles `worker.c` for the target this crate is built for, and the bytes
//! are embedded here. At run time the executable is used where the build left it, or, when that
//! folder is gone (a game binary copied elsewhere), written once into the per-user cache (then
//! the temporary folder) under its content hash.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::isolate::{Died, Limits, Worker};

const EXECUTABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/shadowdusk-dxc-worker"));
const BUILT_AT: &str = concat!(env!("OUT_DIR"), "/shadowdusk-dxc-worker");

/// Starts a worker that loads `library` (a path, or a file name for the system loader).
pub fn spawn(library: &Path, limits: &Limits) -> Result<Worker, Died> {
    let exe = executable().map_err(|e| Died::Spawn(e.clone()))?;
    let mut command = Command::new(exe);
    command
        .arg(library)
        .arg(limits.idle.as_secs().max(1).to_string())
        .arg(limits.worker_alarm().as_secs().max(1).to_string());
    Worker::spawn(command, limits.request)
}

/// The worker executable's path, found or written once per process.
pub fn executable() -> Result<&'static Path, &'static String> {
    static PATH: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PATH.get_or_init(find_or_write)
        .as_ref()
        .map(PathBuf::as_path)
}

fn find_or_write() -> Result<PathBuf, String> {
    let built = Path::new(BUILT_AT);
    if std::fs::metadata(built).is_ok_and(|m| m.len() == EXECUTABLE.len() as u64) {
        return Ok(built.to_path_buf());
    }
    let hash = blake3::hash(EXECUTABLE).to_hex();
    let folders = dirs::cache_dir()
        .map(|c| c.join("shadowdusk"))
        .into_iter()
        .chain([std::env::temp_dir().join("shadowdusk")]);
    let mut failures = Vec::new();
    for folder in folders {
        let dir = folder.join("worker").join(&hash.as_str()[..16]);
        match write_executable(&dir) {
            Ok(p) => return Ok(p),
            Err(e) => failures.push(format!("{}: {e}", dir.display())),
        }
    }
    Err(format!(
        "the DXC worker executable could not be written ({})",
        failures.join("; ")
    ))
}

/// Writes the executable into `dir` unless a complete copy is there, atomically (a temporary
/// file renamed), so concurrent builds never run a half-written file.
fn write_executable(dir: &Path) -> std::io::Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("shadowdusk-dxc-worker");
    if std::fs::read(&path).is_ok_and(|b| b == EXECUTABLE) {
        return Ok(path);
    }
    std::fs::create_dir_all(dir)?;
    let temp = dir.join(format!(".shadowdusk-dxc-worker.{}", std::process::id()));
    std::fs::write(&temp, EXECUTABLE)?;
    std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(0o755))?;
    std::fs::rename(&temp, &path)?;
    Ok(path)
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

    #[test]
    fn the_executable_is_found_or_written() {
        let exe = executable().expect("worker executable");
        assert_eq!(std::fs::read(exe).expect("readable"), EXECUTABLE);
    }

    #[test]
    fn a_written_copy_is_reused_and_a_damaged_one_replaced() {
        let dir = tempfile::tempdir().expect("temp dir");
        let first = write_executable(dir.path()).expect("written");
        std::fs::write(&first, b"half").expect("damage it");
        let second = write_executable(dir.path()).expect("rewritten");
        assert_eq!(first, second);
        assert_eq!(std::fs::read(&second).expect("read"), EXECUTABLE);
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
