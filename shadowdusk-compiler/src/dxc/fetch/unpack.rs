//! One member of a zip (a wheel is one) or `.tar.gz` archive, copied to a file while it is
//! hashed, never more than [`Limits::max_bytes`]: a member that says it is larger is refused
//! before a byte is read, and one that says less than it holds (a broken or hostile header) is
//! refused when it passes the limit. The copy streams, so a member costs no memory.

use std::io::{Read, Write};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::{file_name, size, Limits};

/// Copies `member` of the zip `archive` to `to`; its SHA-256.
pub(super) fn zip_member(
    archive: &Path,
    member: &str,
    to: &Path,
    limits: &Limits,
) -> Result<String, String> {
    let file = std::fs::File::open(archive).map_err(|e| format!("{}: {e}", archive.display()))?;
    let mut zip = zip::ZipArchive::new(file)
        .map_err(|e| format!("{}: not a zip archive: {e}", file_name(archive)))?;
    let entry = zip
        .by_name(member)
        .map_err(|e| format!("{} has no {member}: {e}", file_name(archive)))?;
    let declared = entry.size();
    copy_capped(entry, declared, to, limits.max_bytes, &|| {
        format!("{member} in {}", file_name(archive))
    })
}

/// Copies `member` of the `.tar.gz` `archive` to `to`; its SHA-256. A leading `./` in the
/// archive's names is ignored.
pub(super) fn tar_gz_member(
    archive: &Path,
    member: &str,
    to: &Path,
    limits: &Limits,
) -> Result<String, String> {
    let file = std::fs::File::open(archive).map_err(|e| format!("{}: {e}", archive.display()))?;
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let bad = |e: std::io::Error| format!("{}: not a .tar.gz archive: {e}", file_name(archive));
    for entry in tar.entries().map_err(bad)? {
        let entry = entry.map_err(bad)?;
        let path = entry.path().map_err(bad)?.to_string_lossy().into_owned();
        if path.trim_start_matches("./") == member {
            let declared = entry.size();
            return copy_capped(entry, declared, to, limits.max_bytes, &|| {
                format!("{member} in {}", file_name(archive))
            });
        }
    }
    Err(format!("{} has no {member}", file_name(archive)))
}

/// Copies `from` (which says it holds `declared` bytes) to a new file `to`, hashing it; refused
/// past `max` bytes. `what` names the member for a message.
fn copy_capped(
    from: impl Read,
    declared: u64,
    to: &Path,
    max: u64,
    what: &dyn Fn() -> String,
) -> Result<String, String> {
    let refuse = |n: String| {
        format!(
            "{} is {n}, more than the {} any file DXC needs may be: refused",
            what(),
            size(max)
        )
    };
    if declared > max {
        return Err(refuse(size(declared)));
    }
    let mut out =
        std::fs::File::create(to).map_err(|e| format!("cannot write {}: {e}", to.display()))?;
    let mut from = from.take(max + 1);
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut copied = 0u64;
    loop {
        let n = from
            .read(&mut buf)
            .map_err(|e| format!("{}: {e}", what()))?;
        if n == 0 {
            break;
        }
        copied += n as u64;
        if copied > max {
            return Err(refuse(format!(
                "over {} (its header said {declared} bytes)",
                size(max)
            )));
        }
        hasher.update(&buf[..n]);
        out.write_all(&buf[..n])
            .map_err(|e| format!("cannot write {}: {e}", to.display()))?;
    }
    out.flush()
        .map_err(|e| format!("cannot write {}: {e}", to.display()))?;
    Ok(super::hex(&hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_longer_than_its_header_says_is_cut_off_at_the_limit_and_refused() {
        let dir = tempfile::tempdir().unwrap();
        let to = dir.path().join("out");
        let what = || "lib in test.zip".to_string();
        // The header says 10 bytes; the stream holds 100; the limit is 50.
        let e = copy_capped(&[7u8; 100][..], 10, &to, 50, &what).unwrap_err();
        assert!(
            e.contains("lib in test.zip") && e.contains("over 50 bytes") && e.contains("refused"),
            "{e}"
        );
        assert!(std::fs::metadata(&to).unwrap().len() <= 50);
        // Up to the limit, exactly: copied and hashed.
        let sha = copy_capped(&[7u8; 50][..], 50, &to, 50, &what).unwrap();
        assert_eq!(sha, super::super::sha256_hex(&[7u8; 50]));
        assert_eq!(std::fs::read(&to).unwrap(), [7u8; 50]);
    }
}
