//! Getting one pinned [`Source`] into a folder: download with the user's
//! own clients (`curl`, `pip`, so their proxy and index settings apply and no TLS stack is built
//! into every build script), check the hash, unpack the members.
//!
//! Every step is bounded ([`Limits`]): a client that cannot connect, or stops receiving, fails
//! within its time-outs and is killed if one run goes on longer than a download may take; no
//! file downloaded or unpacked may be larger than [`Limits::max_bytes`]. A first build holds the
//! cache's install lock while it fetches, so every other build waiting on it is bounded too.
//!
//! Input: a source, an empty scratch folder and the limits. Output: the files named by the
//! source, checked, in that folder, with their SHA-256 (the library first); or a one-line reason
//! that names what timed out or was refused. Nothing here touches the cache (see `provision`).

mod clients;
mod unpack;

use std::io::Read;
use std::path::Path;
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::pins::{ArchiveFormat, Fetch, Source};

/// How long a fetch may take and how large what it writes may be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Time to open a connection (curl; pip's `--timeout` covers connecting too).
    pub connect: Duration,
    /// Time without progress before a try fails: curl below 1 KB/s for this long, pip no byte
    /// for this long.
    pub stall: Duration,
    /// Tries after the first, for each client (`--retry`, `--retries`).
    pub retries: u32,
    /// Longest one client run may take, every try included; the client is then killed. Catches
    /// what the clients' own time-outs do not: a name lookup that hangs (pip has no time-out for
    /// it), a server that trickles just above the stall rate.
    pub run: Duration,
    /// Largest file a fetch downloads or unpacks. The largest pinned file is the wheel's 35 MB
    /// library; a member or download beyond this is broken or hostile, and refused before it
    /// fills memory or the disk.
    pub max_bytes: u64,
    /// Extra environment for the clients: tests point pip at a local index with it.
    #[cfg(test)]
    pub env: Vec<(String, String)>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connect: Duration::from_secs(20),
            stall: Duration::from_secs(30),
            retries: 2,
            // 30 MB (the largest pinned download) in 30 minutes is 17 KB/s.
            run: Duration::from_secs(30 * 60),
            max_bytes: 256 << 20,
            #[cfg(test)]
            env: Vec::new(),
        }
    }
}

/// One file a fetch left in the scratch folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fetched {
    /// Its name in the folder.
    pub name: String,
    /// Its SHA-256 as unpacked.
    pub sha256: String,
}

/// Fetches `source` into `scratch` (an existing, empty folder): every file written, the
/// library first, each with its SHA-256.
pub(crate) fn fetch(
    source: &Source,
    scratch: &Path,
    limits: &Limits,
) -> Result<Vec<Fetched>, String> {
    let library = super::pins::library_file_name();
    match &source.fetch {
        Fetch::PipWheel {
            requirement,
            platform,
            member,
            sha256,
        } => {
            let wheel = clients::pip_download(requirement, platform, scratch, limits)?;
            let got = unpack::zip_member(&wheel, member, &scratch.join(&library), limits)?;
            if got != *sha256 {
                return Err(format!(
                    "{member} in {} has SHA-256 {got}, not the pinned {sha256}",
                    file_name(&wheel)
                ));
            }
            std::fs::remove_file(&wheel).ok();
            Ok(vec![Fetched {
                name: library,
                sha256: got,
            }])
        }
        Fetch::Archive {
            url,
            sha256,
            format,
            members,
        } => {
            let archive = scratch.join(archive_name(url, members));
            clients::download(url, &archive, limits)?;
            let got = sha256_file(&archive)?;
            if got != *sha256 {
                return Err(format!("{url} has SHA-256 {got}, not the pinned {sha256}"));
            }
            let mut fetched = Vec::new();
            for (i, member) in members.iter().enumerate() {
                // The library under the name the cache looks for; the others under their own.
                let name = match i {
                    0 => library.clone(),
                    _ => super::pins::member_file_name(member).to_string(),
                };
                let to = scratch.join(&name);
                let sha256 = match format {
                    ArchiveFormat::Zip => unpack::zip_member(&archive, member, &to, limits)?,
                    ArchiveFormat::TarGz => unpack::tar_gz_member(&archive, member, &to, limits)?,
                };
                fetched.push(Fetched { name, sha256 });
            }
            std::fs::remove_file(&archive).ok();
            Ok(fetched)
        }
    }
}

/// Lowercase hex SHA-256.
#[cfg(test)]
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
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
    Ok(hex(&hasher.finalize()))
}

/// The name a downloaded archive is saved under, for messages: the URL's last segment, unless
/// it is odd or a member will be written under it.
fn archive_name(url: &str, members: &[String]) -> String {
    let last = url.rsplit('/').next().unwrap_or_default();
    let plain = last
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    let taken = last == super::pins::library_file_name()
        || members
            .iter()
            .any(|m| super::pins::member_file_name(m) == last);
    match plain && !last.is_empty() && !last.starts_with('.') && !taken {
        true => last.to_string(),
        false => "download".to_string(),
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}

/// A size for a message: bytes below a megabyte, else megabytes.
fn size(bytes: u64) -> String {
    match bytes {
        n if n < 1 << 20 => format!("{n} bytes"),
        n => format!("{} MB", n >> 20),
    }
}
