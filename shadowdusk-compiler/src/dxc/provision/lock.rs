//! The install lock of one source: `<root>/<key>.lock`, an OS file lock held while one process
//! checks, fetches and installs that source (the OS drops it when the process ends, however it
//! ends). Beside it, `<key>.state` says what the holder is doing (its process id, since when,
//! what it fetches where), and after a failed fetch why it failed; a successful install removes
//! it. The lock file itself is never written, so it can be read while locked on every platform.
//!
//! Waiting is bounded: a process that finds the lock held polls it, says after a while whom it
//! waits for, and gives up after the wait it was given (the holder's own time-outs are shorter,
//! so only a holder that is stopped or stuck outside its fetch runs into it). A process that
//! waited for a fetch that then failed takes that failure as its own instead of trying the same
//! fetch again: ten build scripts waiting on a dead network fail together, not one after another.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How often a waiting process tries the lock again.
const POLL: Duration = Duration::from_millis(100);
/// After this long (or half the whole wait, if less), a waiting process says whom it waits for.
const SAY_AFTER: Duration = Duration::from_secs(15);

/// The lock of one source, held.
pub(super) struct Held {
    /// Holds the OS lock until dropped.
    _file: File,
    state: PathBuf,
    /// When this process began waiting for another's fetch (`None`: the lock was free).
    waited_from: Option<u128>,
}

/// Takes the lock of source `key` in `root`, waiting at most `wait` for another process that
/// holds it; `notice` gets one line if the wait is long.
pub(super) fn acquire(
    root: &Path,
    key: &str,
    wait: Duration,
    notice: &dyn Fn(&str),
) -> Result<Held, String> {
    let path = root.join(format!("{key}.lock"));
    let held = |file, waited_from| Held {
        _file: file,
        state: root.join(format!("{key}.state")),
        waited_from,
    };
    let file = open(&path)?;
    if try_lock(&file, &path)? {
        return Ok(held(file, None));
    }
    let waited_from = now_ms();
    let started = Instant::now();
    let say_after = SAY_AFTER.min(wait / 2);
    let mut said = false;
    loop {
        std::thread::sleep(POLL);
        if try_lock(&file, &path)? {
            return Ok(held(file, Some(waited_from)));
        }
        let holder = || describe(&root.join(format!("{key}.state")));
        if !said && started.elapsed() >= say_after {
            notice(&format!(
                "shadowdusk: waiting for {} (giving up after {} s)",
                holder(),
                wait.as_secs()
            ));
            said = true;
        }
        if started.elapsed() >= wait {
            return Err(format!(
                "waited {} s for {}, and gave up (its lock is {}; end that process if it is \
                 stuck)",
                wait.as_secs(),
                holder(),
                path.display()
            ));
        }
    }
}

/// Opens (creates) a lock file without truncating it: it may be locked by another process.
pub(super) fn open(path: &Path) -> Result<File, String> {
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))
}

/// Takes the lock if it is free; `false` if another holds it.
pub(super) fn try_lock(file: &File, path: &Path) -> Result<bool, String> {
    match file.try_lock() {
        Ok(()) => Ok(true),
        Err(TryLockError::WouldBlock) => Ok(false),
        Err(TryLockError::Error(e)) => Err(format!("cannot lock {}: {e}", path.display())),
    }
}

impl Held {
    /// Why the fetch this process waited for failed, when it failed while this one waited.
    pub(super) fn failure_waited_for(&self) -> Option<String> {
        let since = self.waited_from?;
        match read(&self.state)? {
            State {
                failed: true,
                pid,
                at_ms,
                text,
            } if at_ms >= since => Some(format!(
                "process {pid} tried it while this one waited, and failed: {text}"
            )),
            _ => None,
        }
    }

    /// Says that this process now fetches `what` into `dir`.
    pub(super) fn fetching(&self, what: &str, dir: &Path) {
        self.write(false, &format!("{what} into {}", dir.display()));
    }

    /// Says that the fetch failed, and why, for the processes waiting.
    pub(super) fn failed(&self, why: &str) {
        self.write(true, why);
    }

    /// The install is done: nothing to say.
    pub(super) fn done(&self) {
        let _ = std::fs::remove_file(&self.state);
    }

    /// Best effort: the state only words a waiting process's message or shares a failure.
    fn write(&self, failed: bool, text: &str) {
        let kind = if failed { "failed" } else { "fetching" };
        let body = format!("{kind}\n{}\n{}\n{text}\n", std::process::id(), now_ms());
        let _ = std::fs::write(&self.state, body);
    }
}

/// What a `<key>.state` file says.
struct State {
    failed: bool,
    pid: u32,
    /// When the fetch began (`fetching`) or failed (`failed`), in ms since the Unix epoch.
    at_ms: u128,
    text: String,
}

fn read(path: &Path) -> Option<State> {
    let body = std::fs::read_to_string(path).ok()?;
    let mut lines = body.lines();
    let failed = match lines.next()? {
        "fetching" => false,
        "failed" => true,
        _ => return None,
    };
    Some(State {
        failed,
        pid: lines.next()?.parse().ok()?,
        at_ms: lines.next()?.parse().ok()?,
        text: lines.collect::<Vec<_>>().join(" "),
    })
}

/// Whom a waiting process waits for, as far as the holder said.
fn describe(state: &Path) -> String {
    match read(state) {
        Some(State {
            failed: false,
            pid,
            at_ms,
            text,
        }) => format!(
            "process {pid}, which has been fetching {text} for {} s",
            now_ms().saturating_sub(at_ms) / 1000
        ),
        _ => "another process holding the DXC install lock".into(),
    }
}

fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
}
