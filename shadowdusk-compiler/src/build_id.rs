//! [`COMPILER_ID`](crate::COMPILER_ID): what the compiler's output depends on besides its input
//! files and options, as one string the Builder's cache key hashes.
//!
//! The parts, `name=value` joined by `;`:
//! - `version`: this crate's version;
//! - `sources`: a hash of this crate's sources, the pipeline and codegen (`build.rs`);
//! - `mgfx`: [`shadowdusk_mgfx::SOURCE_ID`], the writer and register packing (a crate of its
//!   own, whose files a published compiler cannot see, so it hashes itself);
//! - `deps`: the versions of hassle-rs and SPIRV-Cross, which `Cargo.toml` requires exactly
//!   (`build/pinned.rs`), so Cargo can resolve no other.
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
#[path = "../build/pinned.rs"]
mod pinned;
#[cfg(test)]
#[path = "../build/source_id.rs"]
mod source_id;

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{pinned, source_id};

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

    /// `deps` names each pinned crate at the exact version `Cargo.toml` requires, read now, and
    /// that is the version this workspace's `Cargo.lock` resolved.
    #[test]
    fn deps_are_the_exact_pins_cargo_resolved() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
        let deps = part("deps");
        assert_eq!(deps, pinned::requirements(&manifest));
        let lock = std::fs::read_to_string(root.join("../Cargo.lock")).expect("Cargo.lock");
        for name in pinned::CRATES {
            let req = pinned::requirement(&manifest, name).unwrap_or_default();
            let version = req
                .strip_prefix('=')
                .unwrap_or_else(|| panic!("{name} is required as {req:?}, not exactly"));
            assert!(deps.contains(&format!("{name} ={version}")), "{deps}");
            let locked = locked_versions(&lock, name);
            // Build metadata (`0.7.4+aa217ae`) plays no part in matching a requirement.
            let same = |v: &String| v.split('+').next() == Some(version);
            assert!(
                !locked.is_empty() && locked.iter().all(same),
                "{name}: Cargo.lock has {locked:?}, Cargo.toml pins {version}"
            );
        }
    }

    /// Every version of `name` in a `Cargo.lock`.
    fn locked_versions(lock: &str, name: &str) -> Vec<String> {
        lock.split("[[package]]")
            .filter(|block| block.lines().any(|l| l == format!("name = \"{name}\"")))
            .filter_map(|block| {
                let v = block.lines().find_map(|l| l.strip_prefix("version = "))?;
                Some(v.trim_matches('"').to_string())
            })
            .collect()
    }

    /// Both ways a manifest spells a requirement: inline in the workspace, and as its own table
    /// in the `Cargo.toml` that `cargo package` writes (what users build).
    #[test]
    fn pins_are_read_inline_and_from_a_packaged_manifest() {
        let inline = "[package]\nname = \"x\"\n\n[dependencies]\n\
                      hassle-rs = { version = \"=0.12.0\", optional = true }\n\
                      spirv-cross2 = { version = \"=0.7.2\", default-features = false, features = [\"glsl\"] }\n\
                      spirv-cross-sys = \"=0.7.4\"\n\n[dev-dependencies]\nhassle-rs = \"9\"\n";
        let packaged = "[package]\nname = \"x\"\n\n[dependencies.hassle-rs]\nversion = \"=0.12.0\"\n\
                        optional = true\n\n[dependencies.spirv-cross-sys]\nversion = \"=0.7.4\"\n\n\
                        [dependencies.spirv-cross2]\nversion = \"=0.7.2\"\nfeatures = [\"glsl\"]\n\
                        default-features = false\n\n[build-dependencies.spirv-cross2]\nversion = \"1\"\n";
        let expected = "hassle-rs =0.12.0,spirv-cross-sys =0.7.4,spirv-cross2 =0.7.2";
        assert_eq!(pinned::requirements(inline), expected);
        assert_eq!(pinned::requirements(packaged), expected);
        let bumped = inline.replace("=0.12.0", "=0.12.1");
        assert_ne!(pinned::requirements(&bumped), expected);
        assert_eq!(
            pinned::requirements("[dependencies]\n"),
            "hassle-rs unpinned,spirv-cross-sys unpinned,spirv-cross2 unpinned"
        );
    }
}
