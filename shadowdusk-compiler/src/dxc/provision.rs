//! The per-user DXC cache: find a verified copy, or fill it from the pinned sources.
//!
//! Layout: `<root>/<key>/` per [`Source`], `key` being the pinned hash of what the source
//! fetches. The folder holds the library, `library.sha256` (the library's SHA-256 as fetched)
//! and, for an archive with more members (Windows' `dxil.dll`), `members.sha256`: each other
//! member's SHA-256 as unpacked, `<hash>  <file>` a line. A copy is used only when the library's
//! SHA-256 equals the pin (the wheel's) or that record (an archive's, whose own hash was
//! pinned), and every other member equals its record; anything else (a flipped byte, a
//! truncated file, a missing record) is fetched again, never loaded. Each process that loads
//! DXC checks its copy; the hashes are remembered in `<root>/library-ids.json` by the files'
//! sizes and times (`super::identity`), so a rewritten file is hashed again and an unchanged one
//! is not (35 MB, 2.5 s unoptimised, on every build script run otherwise).
//!
//! Filling is safe with builds running at once: each source has a lock (`lock`) held while one
//! process checks, fetches and installs. The others wait on it, a bounded time, and then find
//! the copy, or take the holder's failure as theirs. A fetch is unpacked into a scratch folder
//! under `<root>` and renamed into place, so a reader sees a whole copy or none; scratch
//! folders a killed fetch left are removed by the next install (`scratch`). The fetch itself is
//! bounded by time-outs and sizes (`super::fetch::Limits`).
//!
//! Input: the environment ([`Provisioner::from_env`]) or explicit settings (tests). Output: the
//! library's path and SHA-256.

mod lock;
mod scratch;

use std::path::PathBuf;
use std::time::Duration;

use super::cache_dir::cache_root;
pub use super::cache_dir::CACHE_ENV;
use super::fetch::{self, Limits};
use super::pins::{self, Fetch, Source};

/// `1`/`true`: never fetch (as `CARGO_NET_OFFLINE=true`).
pub const OFFLINE_ENV: &str = "SHADOWDUSK_OFFLINE";
/// Comma-separated source names to try, in order (`pip`, `release`); default: all pinned.
pub const SOURCES_ENV: &str = "SHADOWDUSK_DXC_SOURCES";
/// A folder (URL) holding Microsoft's release archives, to use instead of Microsoft's.
pub const MIRROR_ENV: &str = "SHADOWDUSK_DXC_MIRROR";

/// The record of an archive's library hash, beside the library.
const RECORD: &str = "library.sha256";
/// The record of an archive's other members' hashes (`<hash>  <file>` lines), beside them.
const MEMBERS_RECORD: &str = "members.sha256";
/// How much longer than one client run (`Limits::run`) a process waits for another's install:
/// the holder also hashes, unpacks and renames.
const WAIT_MARGIN: Duration = Duration::from_secs(120);

/// A DXC library found or installed in the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cached {
    /// The library file.
    pub path: PathBuf,
    /// Its SHA-256, checked.
    pub sha256: String,
}

/// Where the cache is, what fills it, and whether fetching is allowed.
#[derive(Clone, Debug)]
pub struct Provisioner {
    root: PathBuf,
    sources: Vec<Source>,
    /// Why fetching is off (`CARGO_NET_OFFLINE=true`), if it is.
    offline: Option<String>,
    /// Time-outs and sizes of a fetch.
    limits: Limits,
    /// Longest wait for another process installing the same source.
    lock_wait: Duration,
}

impl Provisioner {
    /// A cache at `root` filled from `sources`, fetching allowed.
    pub fn new(root: impl Into<PathBuf>, sources: Vec<Source>) -> Provisioner {
        let limits = Limits::default();
        Provisioner {
            root: root.into(),
            sources,
            offline: None,
            lock_wait: limits.run + WAIT_MARGIN,
            limits,
        }
    }

    /// Other time-outs and sizes (tests: seconds instead of minutes).
    #[cfg(test)]
    fn with_limits(mut self, limits: Limits, lock_wait: Duration) -> Provisioner {
        self.limits = limits;
        self.lock_wait = lock_wait;
        self
    }

    /// Never fetch; `why` names the setting, for the error.
    pub fn offline(mut self, why: impl Into<String>) -> Provisioner {
        self.offline = Some(why.into());
        self
    }

    /// The cache, sources and offline setting the environment gives (see the `*_ENV`
    /// constants and `CARGO_NET_OFFLINE`).
    pub fn from_env() -> Result<Provisioner, String> {
        let root = cache_root()?;
        let mirror = std::env::var(MIRROR_ENV).ok().filter(|m| !m.is_empty());
        let mut sources = pins::for_this_platform(mirror.as_deref());
        if let Ok(names) = std::env::var(SOURCES_ENV) {
            sources = pick(sources, &names)?;
        }
        let mut p = Provisioner::new(root, sources);
        for var in ["CARGO_NET_OFFLINE", OFFLINE_ENV] {
            if std::env::var(var).is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true")) {
                p = p.offline(format!("{var} is set"));
            }
        }
        Ok(p)
    }

    /// A verified copy of any source, in source order, without fetching.
    pub fn cached(&self) -> Option<Cached> {
        self.sources.iter().find_map(|s| self.verified(s))
    }

    /// A verified copy, fetched first if none is cached. `notice` gets one line before a
    /// download starts (what, how big, where to).
    pub fn provide(&self, notice: &dyn Fn(&str)) -> Result<Cached, String> {
        if let Some(c) = self.cached() {
            return Ok(c);
        }
        if self.sources.is_empty() {
            return Err(format!(
                "no DXC build is pinned for {}-{}: build DXC 1.8 and set \
                 SHADOWDUSK_DXC=/path/to/{}",
                std::env::consts::OS,
                std::env::consts::ARCH,
                pins::library_file_name()
            ));
        }
        if let Some(why) = &self.offline {
            return Err(format!(
                "DXC is not in the cache ({}) and fetching is off ({why}). Run `shadowdusk \
                 setup` once where the network is reachable, or set SHADOWDUSK_DXC=/path/to/{}",
                self.root.display(),
                pins::library_file_name()
            ));
        }
        let mut tried = Vec::new();
        for source in &self.sources {
            match self.install(source, notice) {
                Ok(c) => return Ok(c),
                Err(e) => tried.push(format!("{} ({e})", source.what)),
            }
        }
        Err(format!(
            "could not fetch DXC into {}: tried {}. Set SHADOWDUSK_DXC=/path/to/{} (a DXC 1.8 \
             build), or run `shadowdusk setup` where the network is reachable",
            self.root.display(),
            tried.join("; then "),
            pins::library_file_name()
        ))
    }

    /// The source's folder in the cache.
    fn dir(&self, source: &Source) -> PathBuf {
        self.root.join(&source.key)
    }

    /// The source's copy, if it is whole and every file has the hash it must have.
    fn verified(&self, source: &Source) -> Option<Cached> {
        let dir = self.dir(source);
        let path = dir.join(pins::library_file_name());
        let expected = match &source.fetch {
            Fetch::PipWheel { sha256, .. } => sha256.to_string(),
            Fetch::Archive { .. } => std::fs::read_to_string(dir.join(RECORD))
                .ok()?
                .trim()
                .to_string(),
        };
        // Remembered by size and times: every process that loads DXC verifies its copy.
        let memo = super::identity::memo_in(&self.root);
        let sha256 = super::identity::content_id_with(&memo, &path).ok()?;
        if sha256 != expected {
            return None;
        }
        if let Fetch::Archive { members, .. } = &source.fetch {
            if members.len() > 1 {
                let record = std::fs::read_to_string(dir.join(MEMBERS_RECORD)).ok()?;
                for member in &members[1..] {
                    let name = pins::member_file_name(member);
                    let recorded = record.lines().find_map(|l| {
                        let (hash, file) = l.split_once("  ")?;
                        (file == name).then_some(hash)
                    })?;
                    let got = super::identity::content_id_with(&memo, &dir.join(name)).ok()?;
                    if got != recorded {
                        return None;
                    }
                }
            }
        }
        Some(Cached { path, sha256 })
    }

    /// Fetches `source` into the cache under its lock, unless another process just did (or
    /// just failed to, while this one waited).
    fn install(&self, source: &Source, notice: &dyn Fn(&str)) -> Result<Cached, String> {
        std::fs::create_dir_all(&self.root)
            .map_err(|e| format!("cannot create {}: {e}", self.root.display()))?;
        let held = lock::acquire(&self.root, &source.key, self.lock_wait, notice)?;
        if let Some(c) = self.verified(source) {
            return Ok(c);
        }
        if let Some(failure) = held.failure_waited_for() {
            return Err(failure);
        }
        scratch::sweep(&self.root, &source.key);
        let dir = self.dir(source);
        held.fetching(&source.what, &dir);
        notice(&format!(
            "shadowdusk: fetching {}, about {} MB, into {} (once per machine; \
             SHADOWDUSK_DXC=/path/to/{} uses your own)",
            source.what,
            source.megabytes,
            dir.display(),
            pins::library_file_name()
        ));
        let scratch = self.root.join(scratch::name(&source.key, ""));
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&scratch)
            .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
        let result = fetch::fetch(source, &scratch, &self.limits).and_then(|fetched| {
            write_records(&scratch, &fetched)?;
            // A copy that failed its check is moved aside whole (rename is atomic), then removed.
            if dir.exists() {
                let damaged = self.root.join(scratch::name(&source.key, "-damaged"));
                let _ = std::fs::remove_dir_all(&damaged);
                std::fs::rename(&dir, &damaged)
                    .map_err(|e| format!("cannot move the damaged {} aside: {e}", dir.display()))?;
                let _ = std::fs::remove_dir_all(&damaged);
            }
            std::fs::rename(&scratch, &dir)
                .map_err(|e| format!("cannot install into {}: {e}", dir.display()))
        });
        let result = result.and_then(|()| {
            self.verified(source)
                .ok_or_else(|| format!("{} failed its check right after install", dir.display()))
        });
        match &result {
            Ok(_) => held.done(),
            Err(e) => {
                let _ = std::fs::remove_dir_all(&scratch);
                held.failed(e);
            }
        }
        result
    }
}

/// The records beside a fetched copy: the library's hash, and the other members' hashes.
fn write_records(scratch: &std::path::Path, fetched: &[fetch::Fetched]) -> Result<(), String> {
    let write = |name: &str, text: String| {
        let path = scratch.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    let (library, others) = fetched.split_first().ok_or("the fetch left no library")?;
    write(RECORD, format!("{}\n", library.sha256))?;
    if !others.is_empty() {
        let lines: String = others
            .iter()
            .map(|f| format!("{}  {}\n", f.sha256, f.name))
            .collect();
        write(MEMBERS_RECORD, lines)?;
    }
    Ok(())
}

/// The sources `names` (comma-separated) lists, in its order.
fn pick(sources: Vec<Source>, names: &str) -> Result<Vec<Source>, String> {
    let known: Vec<&str> = sources.iter().map(|s| s.name).collect();
    names
        .split(',')
        .map(str::trim)
        .map(|w| {
            sources
                .iter()
                .find(|s| s.name == w)
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "{SOURCES_ENV} names `{w}`; the sources here are {}",
                        known.join(", ")
                    )
                })
        })
        .collect()
}

/// Where the one line about a fetch goes: standard error unless a caller knows better (the
/// Builder makes it a cargo warning, which cargo shows while a build script's stderr is not).
static NOTICE: std::sync::RwLock<fn(&str)> = std::sync::RwLock::new(print_notice);

fn print_notice(line: &str) {
    eprintln!("{line}");
}

/// Sends the line printed before a fetch to `f` from now on, in this process. For
/// `shadowdusk-build`, which makes it a cargo warning; not an API.
#[doc(hidden)]
pub fn set_notice(f: fn(&str)) {
    *NOTICE.write().unwrap_or_else(|e| e.into_inner()) = f;
}

/// Prints a line through the sink [`set_notice`] chose.
pub(crate) fn notice(line: &str) {
    let f = *NOTICE.read().unwrap_or_else(|e| e.into_inner());
    f(line);
}

#[cfg(test)]
mod tests;
