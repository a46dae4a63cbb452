//! `cargo xtask setup`: fetch the pinned DXC 1.8 from PyPI and put it in `.tools/dxc/`.
//!
//! DXC is shipped inside the `compushady-lrtu` 0.18.0 wheel (a zip); we download the wheel with
//! pip (the only registry client that can fetch it), extract the one member we need, and verify
//! its sha256 before installing it. An existing copy with the right hash is kept.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

/// The wheel that carries DXC 1.8.
const WHEEL: &str = "compushady-lrtu==0.18.0";
/// The member inside the wheel.
const MEMBER: &str = "compushady/backends/libdxcompiler_x86_64.so";
/// sha256 of that member: the value the compiler checks before loading the workspace copy.
pub const DXC_SHA256: &str = shadowdusk_compiler::dxc::locate::PINNED_SHA256;

/// Workspace root (the parent of `xtask/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Where the library is installed.
pub fn dxc_path() -> PathBuf {
    workspace_root().join(".tools/dxc/libdxcompiler.so")
}

fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn run() -> Result<(), String> {
    let target = dxc_path();
    if let Ok(bytes) = fs::read(&target) {
        if sha256_hex(&bytes) == DXC_SHA256 {
            println!("DXC 1.8 already installed: {}", target.display());
            return Ok(());
        }
        println!(
            "{} has the wrong sha256; fetching it again",
            target.display()
        );
    }
    let dl = workspace_root().join(".tools/download");
    fs::create_dir_all(&dl).map_err(|e| format!("cannot create {}: {e}", dl.display()))?;
    println!("fetching {WHEEL} from PyPI (about 15 MB)...");
    let python = if Command::new("python3").arg("--version").output().is_ok() {
        "python3"
    } else {
        "python"
    };
    let status = Command::new(python)
        .args([
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--python-version",
            "3.11",
        ])
        .args(["--platform", "manylinux_2_28_x86_64", WHEEL, "-d"])
        .arg(&dl)
        .status()
        .map_err(|e| format!("cannot run `{python} -m pip` ({e}); install Python 3 with pip"))?;
    if !status.success() {
        return Err(format!("`pip download {WHEEL}` failed ({status})"));
    }
    let wheel = fs::read_dir(&dl)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("compushady_lrtu-0.18.0") && n.ends_with(".whl"))
        })
        .ok_or("pip reported success but no compushady_lrtu-0.18.0 wheel is in .tools/download")?;
    let file = fs::File::open(&wheel).map_err(|e| format!("{}: {e}", wheel.display()))?;
    let mut zip =
        zip::ZipArchive::new(file).map_err(|e| format!("{}: not a zip: {e}", wheel.display()))?;
    let mut member = zip
        .by_name(MEMBER)
        .map_err(|e| format!("{} has no {MEMBER}: {e}", wheel.display()))?;
    let mut bytes = Vec::new();
    member.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    let got = sha256_hex(&bytes);
    if got != DXC_SHA256 {
        return Err(format!(
            "{MEMBER} has sha256 {got}, expected {DXC_SHA256}; refusing to install it"
        ));
    }
    let dir = target.parent().ok_or("bad target path")?;
    fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let tmp = dir.join("libdxcompiler.so.tmp");
    fs::write(&tmp, &bytes).map_err(|e| e.to_string())?;
    fs::rename(&tmp, &target).map_err(|e| e.to_string())?;
    println!(
        "installed DXC 1.8 ({} bytes, sha256 verified): {}",
        bytes.len(),
        target.display()
    );
    Ok(())
}
