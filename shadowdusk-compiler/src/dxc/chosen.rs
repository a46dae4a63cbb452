//! What the DXC decision ([`super::choice`]) chose: the library file, its content identity and
//! the settings that led to it. Its own module because the in-process library
//! ([`super::instance`]) loads what was chosen, while the decision itself loads the system's
//! library through `instance` to learn which file it is.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::identity;
use crate::file_stamp::FileStamp;

/// The DXC library compiles use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The file loaded, symlinks resolved (workers are given this path; this process loads it).
    /// A bare file name only for a system library whose file cannot be found (not Linux).
    pub path: PathBuf,
    /// The file's SHA-256 (lowercase hex), or an `unidentified:` string no other run shares.
    pub sha256: String,
    /// The file as it was identified; `None` when there is no file to `stat`.
    pub(super) stamp: Option<FileStamp>,
    /// What led to this file.
    pub(super) origin: Origin,
}

/// The settings a decision was taken under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// `SHADOWDUSK_DXC` had this value.
    Named(OsString),
    /// The verified copy in the per-user cache at this root (`SHADOWDUSK_DXC` unset).
    Cached(PathBuf),
    /// The system loader's library (`SHADOWDUSK_DXC` unset, nothing cached then).
    System,
}

impl Choice {
    /// The identity cache keys use: the library's content hash and the arguments it is run with.
    pub fn version(&self) -> String {
        super::version_of(&self.sha256)
    }

    /// Whether the file is still the one identified (same stamp).
    pub fn file_unchanged(&self) -> bool {
        match &self.stamp {
            Some(s) => FileStamp::of(&self.path).is_ok_and(|now| now == *s),
            None => true,
        }
    }
}

/// The real path of `path`, its stamp, and its SHA-256 (remembered by the stamp in the per-user
/// cache): the hash is of the file the stamp describes, as the stamp is the same before and after.
pub fn identify(path: &Path) -> std::io::Result<(PathBuf, FileStamp, String)> {
    let real = std::fs::canonicalize(path)?;
    for _ in 0..3 {
        let before = FileStamp::of(&real)?;
        let sha256 = identity::content_id(&real)?;
        if FileStamp::of(&real)? == before {
            return Ok((real, before, sha256));
        }
    }
    Err(std::io::Error::other(
        "the file kept changing while it was identified",
    ))
}
