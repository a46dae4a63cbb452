//! Getting one pinned [`Source`](super::pins::Source) into a folder: download with the user's
//! own clients (`curl`, `pip`, so their proxy and index settings apply and no TLS stack is built
//! into every build script), check the hash, unpack the members.
//!
//! Input: a source and an empty scratch folder. Output: the files named by the source, checked,
//! in that folder; or a one-line reason. Nothing here touches the cache (see `provision`).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sha2::{Digest, Sha256};

use super::pins::{ArchiveFormat, Fetch, Source};

/// Fetches `source` into `scratch` (an existing, empty folder); the library's SHA-256.
pub fn fetch(source: &Source, scratch: &Path) -> Result<String, String> {
    match &source.fetch {
        Fetch::PipWheel {
            requirement,
            platform,
            member,
            sha256,
        } => {
            let wheel = pip_download(requirement, platform, scratch)?;
            let bytes = zip_member(&wheel, member)?;
            let got = sha256_hex(&bytes);
            if got != *sha256 {
                return Err(format!(
                    "{member} in {} has SHA-256 {got}, not the pinned {sha256}",
                    file_name(&wheel)
                ));
            }
            let name = super::pins::library_file_name();
            write(&scratch.join(&name), &bytes)?;
            std::fs::remove_file(&wheel).ok();
            Ok(got)
        }
        Fetch::Archive {
            url,
            sha256,
            format,
            members,
        } => {
            let archive = scratch.join("download");
            download(url, &archive)?;
            let got = sha256_file(&archive)?;
            if got != *sha256 {
                return Err(format!("{url} has SHA-256 {got}, not the pinned {sha256}"));
            }
            let mut library_sha256 = String::new();
            for (i, member) in members.iter().enumerate() {
                let bytes = match format {
                    ArchiveFormat::Zip => zip_member(&archive, member)?,
                    ArchiveFormat::TarGz => tar_gz_member(&archive, member)?,
                };
                let name = if i == 0 {
                    // The library under the name the cache looks for.
                    library_sha256 = sha256_hex(&bytes);
                    super::pins::library_file_name()
                } else {
                    member.rsplit('/').next().unwrap_or(member).to_string()
                };
                write(&scratch.join(&name), &bytes)?;
            }
            std::fs::remove_file(&archive).ok();
            Ok(library_sha256)
        }
    }
}

/// `curl` downloads `url` to `to`, following redirects and failing on an HTTP error.
fn download(url: &str, to: &Path) -> Result<(), String> {
    let out = Command::new("curl")
        .args(["--fail", "--location", "--silent", "--show-error"])
        .args(["--retry", "2", "--connect-timeout", "20", "--output"])
        .arg(to)
        .arg(url)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run curl ({e})"))?;
    if !out.status.success() {
        return Err(format!(
            "curl {url}: {}",
            last_line(&out.stderr, &out.status)
        ));
    }
    Ok(())
}

/// The user's `pip` downloads one wheel for `platform` into `dir`.
fn pip_download(requirement: &str, platform: &str, dir: &Path) -> Result<PathBuf, String> {
    let mut tried = Vec::new();
    for python in ["python3", "python"] {
        let out = Command::new(python)
            .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:"])
            .args(["--python-version", "3.11", "--platform", platform])
            .args(["--disable-pip-version-check", "--no-input", "--quiet"])
            .arg("--dest")
            .arg(dir)
            .arg(requirement)
            .stdin(Stdio::null())
            .output();
        match out {
            Err(e) => tried.push(format!("cannot run {python} ({e})")),
            Ok(out) if out.status.success() => {
                return std::fs::read_dir(dir)
                    .map_err(|e| format!("{}: {e}", dir.display()))?
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .find(|p| p.extension().is_some_and(|x| x == "whl"))
                    .ok_or_else(|| {
                        format!(
                            "pip reported success but left no wheel in {}",
                            dir.display()
                        )
                    })
            }
            Ok(out) => {
                return Err(format!(
                    "`{python} -m pip download {requirement}`: {}",
                    last_line(&out.stderr, &out.status)
                ))
            }
        }
    }
    Err(tried.join("; "))
}

/// One member of a zip archive (a wheel is one).
fn zip_member(archive: &Path, member: &str) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(archive).map_err(|e| format!("{}: {e}", archive.display()))?;
    let mut zip = zip::ZipArchive::new(file)
        .map_err(|e| format!("{}: not a zip archive: {e}", file_name(archive)))?;
    let mut entry = zip
        .by_name(member)
        .map_err(|e| format!("{} has no {member}: {e}", file_name(archive)))?;
    let mut bytes = Vec::new();
    entry
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{member} in {}: {e}", file_name(archive)))?;
    Ok(bytes)
}

/// One member of a `.tar.gz` archive; a leading `./` in the archive's names is ignored.
fn tar_gz_member(archive: &Path, member: &str) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(archive).map_err(|e| format!("{}: {e}", archive.display()))?;
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let bad = |e: std::io::Error| format!("{}: not a .tar.gz archive: {e}", file_name(archive));
    for entry in tar.entries().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        let path = entry.path().map_err(bad)?.to_string_lossy().into_owned();
        if path.trim_start_matches("./") == member {
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).map_err(bad)?;
            return Ok(bytes);
        }
    }
    Err(format!("{} has no {member}", file_name(archive)))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Lowercase hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Lowercase hex SHA-256 of a file, read in pieces (a DXC library is tens of megabytes).
pub fn sha256_file(path: &Path) -> Result<String, String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file
            .read(&mut buf)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}

/// The last non-empty line a client printed, or its exit status.
fn last_line(stderr: &[u8], status: &std::process::ExitStatus) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_owned)
        .unwrap_or_else(|| format!("failed ({status})"))
}
