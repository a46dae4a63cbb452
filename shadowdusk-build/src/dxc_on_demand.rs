//! DXC for one build, readied by the first effect that no cache holds.
//!
//! A build whose effects are all cached (the usual build-script run after an edit elsewhere)
//! must not pay for DXC: mapping the 35 MB library, creating a compiler, starting worker
//! processes. The cache key still names the DXC that compiles, so it comes from
//! [`dxc::expected_version`]: the same decision compiles take, made without loading DXC where
//! the library is a file (its content hash is remembered). The first miss readies DXC (where
//! compiles run in worker processes, they load it, not this one).
//!
//! A DXC replaced on disk while the build runs is the one later compiles take, while the keys
//! still name the old one. Each compile says which DXC did it (`Compiled::dxc`): one that is
//! not the keys' is stored nowhere ([`DxcOnDemand::check`]), and the build runs again, keyed
//! with the DXC now on disk.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use shadowdusk_compiler::dxc;

pub(crate) struct DxcOnDemand {
    /// The identity the keys use, or why DXC is unavailable.
    expected: Result<String, String>,
    /// Set by the first miss: whether DXC loaded.
    loaded: OnceLock<Result<(), String>>,
    /// Set when an effect was compiled by another DXC than the keys name.
    drifted: AtomicBool,
}

impl DxcOnDemand {
    /// The DXC compiles will use, identified without loading it where possible.
    pub(crate) fn expected() -> DxcOnDemand {
        DxcOnDemand::with(dxc::expected_version())
    }

    /// A build with no effect: DXC is not asked about.
    pub(crate) fn unused() -> DxcOnDemand {
        DxcOnDemand::with(Ok(String::new()))
    }

    fn with(expected: Result<String, String>) -> DxcOnDemand {
        DxcOnDemand {
            expected,
            loaded: OnceLock::new(),
            drifted: AtomicBool::new(false),
        }
    }

    /// The identity cache keys use (`dxc:unavailable` when there is none: every key then
    /// misses, and the first miss reports why).
    pub(crate) fn key_identity(&self) -> &str {
        self.expected.as_deref().unwrap_or("dxc:unavailable")
    }

    /// Readies DXC for a compile, once per build ([`dxc::prepare`]: workers load the library,
    /// this process only where it compiles itself); `Err` says why it is unavailable.
    pub(crate) fn ready(&self) -> Result<(), String> {
        self.loaded
            .get_or_init(|| match &self.expected {
                Ok(_) => dxc::prepare(),
                Err(e) => Err(e.clone()),
            })
            .clone()
    }

    /// Why DXC was needed and could not be had, if a compile asked.
    pub(crate) fn failure(&self) -> Option<&str> {
        self.loaded.get()?.as_ref().err().map(String::as_str)
    }

    /// `Ok` when `used`, the DXC that compiled an effect (`Compiled::dxc`; `None`: no shader
    /// needed one), is the one the keys name. Otherwise nothing of that compile may be stored
    /// under its key: `Err` says why, and [`Self::drifted`] is set.
    pub(crate) fn check(&self, used: Option<&str>) -> Result<(), String> {
        let Some(used) = used else { return Ok(()) };
        if Some(used) == self.expected.as_deref().ok() {
            return Ok(());
        }
        self.drifted.store(true, Ordering::Relaxed);
        Err(format!(
            "DXC changed on disk while this build ran (the cache key names DXC {}, and DXC {} \
             compiled the effect), so nothing was stored; build again",
            short(self.key_identity()),
            short(used)
        ))
    }

    /// Whether an effect was compiled by another DXC than the keys name ([`Self::check`]).
    pub(crate) fn drifted(&self) -> bool {
        self.drifted.load(Ordering::Relaxed)
    }
}

/// The start of the content hash in a DXC identity (`dxcompiler:<sha256>:<arguments>`).
fn short(identity: &str) -> String {
    let sha = identity.strip_prefix("dxcompiler:").unwrap_or(identity);
    sha.split(" & ")
        .map(|one| one.chars().take(12).collect::<String>() + "…")
        .collect::<Vec<_>>()
        .join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compile_by_another_dxc_is_refused_and_remembered() {
        let d = DxcOnDemand::with(Ok("dxcompiler:aaaa:-O3".into()));
        assert_eq!(d.check(None), Ok(()));
        assert_eq!(d.check(Some("dxcompiler:aaaa:-O3")), Ok(()));
        assert!(!d.drifted());
        let e = d.check(Some("dxcompiler:bbbb:-O3")).unwrap_err();
        assert!(e.contains("aaaa") && e.contains("bbbb"), "{e}");
        assert!(d.drifted());
    }
}
