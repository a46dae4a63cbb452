//! What must be unchanged for something learnt from a file to stand without reading it again:
//! the Builder's remembered keys (`shadowdusk-build`'s stamps memo) and DXC's remembered content
//! hash and choice (`dxc/identity.rs`, `dxc/choice.rs`) both ask this of a file.

use std::io;
use std::path::Path;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

/// A file's size, modification time and, on Unix, device, inode and status-change time. The
/// last three no tool sets back: a file rewritten with the same size and its old modification
/// time restored still gets a new status-change time, and one renamed over another a new inode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    len: u64,
    /// Nanoseconds since the Unix epoch.
    modified_ns: u128,
    /// Unix only (zero elsewhere): nanoseconds since the Unix epoch.
    changed_ns: u128,
    dev: u64,
    ino: u64,
}

impl FileStamp {
    /// The stamp of the file or folder at `path` (symlinks followed).
    pub fn of(path: &Path) -> io::Result<FileStamp> {
        let m = std::fs::metadata(path)?;
        #[cfg(unix)]
        let (changed_ns, dev, ino) = {
            use std::os::unix::fs::MetadataExt;
            let secs = u128::try_from(m.ctime()).unwrap_or(0);
            let nanos = u128::try_from(m.ctime_nsec()).unwrap_or(0);
            (secs * 1_000_000_000 + nanos, m.dev(), m.ino())
        };
        #[cfg(not(unix))]
        let (changed_ns, dev, ino) = (0, 0, 0);
        Ok(FileStamp {
            len: m.len(),
            modified_ns: nanos_since_epoch(m.modified()?),
            changed_ns,
            dev,
            ino,
        })
    }

    /// Whether the file's last change (modification or status change) came before `time`.
    pub fn changed_before(&self, time: SystemTime) -> bool {
        self.modified_ns.max(self.changed_ns) < nanos_since_epoch(time)
    }
}

fn nanos_since_epoch(t: SystemTime) -> u128 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

#[cfg(test)]
mod tests {
    use super::FileStamp;
    use std::time::{Duration, SystemTime};

    #[test]
    fn a_rewrite_with_the_old_size_and_modification_time_is_a_new_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"one").unwrap();
        let before = FileStamp::of(&path).unwrap();
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&path, b"two").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(modified)
            .unwrap();
        let after = FileStamp::of(&path).unwrap();
        assert_eq!(before.len, after.len);
        assert_eq!(before.modified_ns, after.modified_ns);
        if cfg!(unix) {
            assert_ne!(before, after, "the status-change time tells them apart");
        }
    }

    #[test]
    fn changed_before_compares_the_last_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"x").unwrap();
        let stamp = FileStamp::of(&path).unwrap();
        assert!(stamp.changed_before(SystemTime::now() + Duration::from_secs(1)));
        assert!(!stamp.changed_before(SystemTime::now() - Duration::from_secs(3600)));
    }
}
