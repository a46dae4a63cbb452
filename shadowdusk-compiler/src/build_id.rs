//! [`COMPILER_ID`](crate::COMPILER_ID): what the compiler's output depends on besides its input
//! files and options, as one string the Builder's cache key hashes.
//!
//! The parts, `name=value` joined by `;`:
//! - `version`: this crate's version;
//! - `sources`: a hash of this crate's sources, the pipeline and codegen (`build.rs`);
//! - `mgfx`: [`shadowdusk_mgfx::SOURCE_ID`], the writer and register packing (a crate of its
//!   own, whose files a published compiler cannot see, so it hashes itself);
//! - `deps`: the versions Cargo resolved for hassle-rs and SPIRV-Cross (`build/locked.rs`;
//!   `unresolved` when the build had no `Cargo.lock` to read).
//!
//! The DXC library is not a build-time input: the Builder adds its content hash
//! (`dxc::expected_version`) at run time. Joined at compile time (no allocation, still a `&str`).

/// The parts of the id, in order.
pub(crate) const PARTS: [(&str, &str); 4] = [
    ("version", env!("CARGO_PKG_VERSION")),
    ("sources", env!("SHADOWDUSK_COMPILER_SOURCES")),
    ("mgfx", shadowdusk_mgfx::SOURCE_ID),
    ("deps", env!("SHADOWDUSK_COMPILER_DEPS")),
];

const LEN: usize = joined_len(&PARTS);
const BYTES: [u8; LEN] = join(&PARTS);

/// [`PARTS`] as `name=value;name=value;…`.
pub(crate) const ID: &str = match std::str::from_utf8(&BYTES) {
    Ok(id) => id,
    Err(_) => panic!("the build id parts are UTF-8"),
};

const fn joined_len(parts: &[(&str, &str)]) -> usize {
    let mut len = 0;
    let mut i = 0;
    while i < parts.len() {
        len += parts[i].0.len() + 1 + parts[i].1.len();
        if i > 0 {
            len += 1;
        }
        i += 1;
    }
    len
}

const fn join<const N: usize>(parts: &[(&str, &str)]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut at = 0;
    let mut i = 0;
    while i < parts.len() {
        if i > 0 {
            out[at] = b';';
            at += 1;
        }
        at = copy(&mut out, at, parts[i].0.as_bytes());
        out[at] = b'=';
        at = copy(&mut out, at + 1, parts[i].1.as_bytes());
        i += 1;
    }
    out
}

const fn copy<const N: usize>(out: &mut [u8; N], mut at: usize, bytes: &[u8]) -> usize {
    let mut k = 0;
    while k < bytes.len() {
        out[at] = bytes[k];
        at += 1;
        k += 1;
    }
    at
}

// The build script's own code, for the tests to recompute each part with.
#[cfg(test)]
#[path = "../build/locked.rs"]
mod locked;
#[cfg(test)]
#[path = "../build/source_id.rs"]
mod source_id;

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::{locked, source_id};

    fn part(name: &str) -> &'static str {
        super::PARTS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("no part {name}"))
    }

    #[test]
    fn the_id_is_every_part_in_order() {
        let spelled: Vec<String> = super::PARTS
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        assert_eq!(super::ID, spelled.join(";"));
        assert_eq!(crate::COMPILER_ID, super::ID);
    }

    /// `sources` is the hash of the files as they are now: an edit that did not re-run
    /// `build.rs` would leave it stale, and this fails.
    #[test]
    fn sources_is_the_hash_of_the_current_sources() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(part("sources"), source_id::source_id(root));
    }

    #[test]
    fn mgfx_is_the_writer_crates_own_hash() {
        assert_eq!(part("mgfx"), shadowdusk_mgfx::SOURCE_ID);
        assert_eq!(part("mgfx").len(), 64);
    }

    /// `deps` names the versions this workspace's `Cargo.lock` resolved, read now.
    #[test]
    fn deps_are_the_locked_versions() {
        let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock");
        let text = std::fs::read_to_string(&lock).expect("the workspace's Cargo.lock");
        let deps = part("deps");
        assert_eq!(deps, locked::versions(&text));
        for name in locked::CRATES {
            assert!(
                deps.contains(&format!("{name} ")),
                "{name} missing from {deps}"
            );
        }
    }

    #[test]
    fn a_lock_is_read_for_every_crate_named_and_only_a_lock_that_built_this_crate() {
        let lock = "version = 4\n\n[[package]]\nname = \"hassle-rs\"\nversion = \"0.12.0\"\n\n\
                    [[package]]\nname = \"serde\"\nversion = \"1.0.0\"\n\n\
                    [[package]]\nname = \"spirv-cross2\"\nversion = \"0.7.2\"\n\n\
                    [[package]]\nname = \"spirv-cross-sys\"\nversion = \"0.7.4+aa217ae\"\n\n\
                    [[package]]\nname = \"shadowdusk-compiler\"\nversion = \"9.9.9\"\n";
        assert_eq!(
            locked::versions(lock),
            "hassle-rs 0.12.0,spirv-cross-sys 0.7.4+aa217ae,spirv-cross2 0.7.2"
        );
        let bumped = lock.replace("0.12.0", "0.12.1");
        assert_ne!(locked::versions(&bumped), locked::versions(lock));

        let dir = std::env::temp_dir().join(format!("sd-build-id-{}", std::process::id()));
        let nested: PathBuf = dir.join("target/debug/build/x/out");
        std::fs::create_dir_all(&nested).unwrap();
        std::fs::write(dir.join("Cargo.lock"), lock).unwrap();
        let found = locked::find_lock(
            std::slice::from_ref(&nested),
            "shadowdusk-compiler",
            "9.9.9",
        );
        assert_eq!(found.map(|(p, _)| p), Some(dir.join("Cargo.lock")));
        let other = locked::find_lock(&[nested], "shadowdusk-compiler", "1.0.0");
        assert!(
            other.is_none_or(|(p, _)| p != dir.join("Cargo.lock")),
            "a lock of another version"
        );
        assert_eq!(locked::lock_or_unresolved(None), "unresolved");
        let _ = std::fs::remove_dir_all(dir);
    }
}
