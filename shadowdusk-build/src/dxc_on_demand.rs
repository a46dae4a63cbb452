//! DXC for one build, loaded by the first effect that no cache holds.
//!
//! A build whose effects are all cached (the usual build-script run after an edit elsewhere)
//! must not pay for DXC: mapping the 35 MB library, creating a compiler, starting worker
//! processes. The cache key still names the DXC that would compile, so it comes from
//! [`dxc::expected_version`], which identifies the library by its remembered content hash
//! without loading it. The first miss readies DXC (where compiles run in worker processes, they
//! load it, not this one); should a library this process loaded not be the one
//! predicted (the predicted file failed to load and the loader fell back to another), the keys
//! were wrong and the caller builds again with the loaded one's.

use std::sync::OnceLock;

use shadowdusk_compiler::dxc;

pub(crate) struct DxcOnDemand {
    /// The identity the keys use, or why DXC is unavailable.
    expected: Result<String, String>,
    /// Set by the first miss: whether DXC loaded.
    loaded: OnceLock<Result<(), String>>,
}

impl DxcOnDemand {
    /// The DXC this process would load, identified without loading it where possible.
    pub(crate) fn expected() -> DxcOnDemand {
        DxcOnDemand {
            expected: dxc::expected_version(),
            loaded: OnceLock::new(),
        }
    }

    /// A build keyed on `version` (after [`Self::drifted`] said the first guess was wrong).
    pub(crate) fn known(version: String) -> DxcOnDemand {
        DxcOnDemand {
            expected: Ok(version),
            loaded: OnceLock::new(),
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

    /// The loaded DXC's identity, when it is not the one the keys were made with. Workers load
    /// the predicted file itself; only a library this process loaded (the system's, or a
    /// fallback after the predicted one failed) can differ.
    pub(crate) fn drifted(&self) -> Option<String> {
        self.loaded.get()?.as_ref().ok()?;
        if !dxc::is_loaded() {
            return None;
        }
        let loaded = dxc::version()?;
        (Some(loaded.as_str()) != self.expected.as_deref().ok()).then_some(loaded)
    }
}
