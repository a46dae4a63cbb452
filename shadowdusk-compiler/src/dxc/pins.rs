//! The DXC 1.8 builds ShadowDusk fetches, each pinned by hash: the one table `provision`,
//! `shadowdusk setup` and `cargo xtask setup` read.
//!
//! Linux x86_64 tries the `compushady-lrtu` 0.18.0 wheel first: its `libdxcompiler.so` is the
//! exact file CI runs every test against (its SHA-256 is pinned). Microsoft's release archive
//! comes second, for machines without Python's `pip`. Windows x64 has Microsoft's archive. The
//! archive hashes are the ones SDL_shadercross pins in
//! `build-scripts/download-prebuilt-DirectXShaderCompiler.cmake` (libsdl-org/SDL_shadercross,
//! commit 61aab92); xmake's package recipe for DXC 1.8.2502 pins the same two values. DXC 1.7
//! (e.g. in `compushady` 0.17.5) is never listed: its COM layout crashes hassle-rs 0.12.
//!
//! An archive's members (the library, and on Windows `dxil.dll`, which `dxcompiler.dll` loads to
//! sign what it compiles) are checked through the archive's pinned hash: each is hashed as it is
//! unpacked from the checked archive, and the cache serves a copy only while every member still
//! has that hash (`provision`). They have no pin of their own here: no file of those archives
//! can be had on the machines ShadowDusk is developed on (they reach package registries only),
//! and a hash not taken from the real file would be a guess.

/// SHA-256 of the `libdxcompiler.so` in the `compushady-lrtu==0.18.0` wheel (DXC 1.8).
pub const WHEEL_LIBRARY_SHA256: &str =
    "ade5a6edc143bee6a6c1e83adbcfb6e1eb9c48c50ef2eead9e763e5bcb689fac";

/// Where Microsoft's release archives are downloaded from, unless `SHADOWDUSK_DXC_MIRROR`
/// names another folder holding the same files.
pub const RELEASES: &str = "https://github.com/microsoft/DirectXShaderCompiler/releases/download/";

/// One pinned way to get DXC (see [`for_this_platform`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Short name, as `SHADOWDUSK_DXC_SOURCES` lists it (`pip`, `release`).
    pub(crate) name: &'static str,
    /// What is fetched, for the one line a first build prints.
    pub(crate) what: String,
    /// About how many megabytes are downloaded.
    pub(crate) megabytes: u32,
    /// How it is fetched.
    pub(crate) fetch: Fetch,
    /// The cache folder's name: the pinned hash of what is fetched.
    pub(crate) key: String,
}

/// How a [`Source`] is fetched and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fetch {
    /// A wheel downloaded by the user's own `pip` (so pip's index settings apply); `member` is
    /// the library inside it, checked against `sha256`.
    PipWheel {
        /// The requirement, `name==version`.
        requirement: &'static str,
        /// pip's `--platform` tag.
        platform: &'static str,
        /// The library's path in the wheel.
        member: &'static str,
        /// SHA-256 of that member.
        sha256: &'static str,
    },
    /// An archive downloaded with `curl`, checked against `sha256`, then unpacked.
    Archive {
        /// Where it is downloaded from.
        url: String,
        /// SHA-256 of the whole archive.
        sha256: String,
        /// `.zip` or `.tar.gz`.
        format: ArchiveFormat,
        /// Archive members to keep. The first is the library, stored under
        /// [`library_file_name`]; the others under [`member_file_name`].
        members: Vec<String>,
    },
}

/// The archive formats Microsoft ships DXC in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ArchiveFormat {
    /// Windows.
    Zip,
    /// Linux.
    TarGz,
}

/// The library's file name on this platform (`libdxcompiler.so`, `dxcompiler.dll`,
/// `libdxcompiler.dylib`), as hassle-rs names it.
pub fn library_file_name() -> String {
    format!(
        "{}dxcompiler{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    )
}

/// The file name an archive member other than the library is stored under in the cache: its
/// name without its folders (`bin/x64/dxil.dll` → `dxil.dll`).
pub(crate) fn member_file_name(member: &str) -> &str {
    member.rsplit('/').next().unwrap_or(member)
}

/// The pinned sources for this machine, in the order they are tried; `mirror` replaces
/// [`RELEASES`] for Microsoft's archives. Empty where no DXC build is pinned (macOS, Linux on
/// ARM): there the user brings their own through `SHADOWDUSK_DXC`.
pub fn for_this_platform(mirror: Option<&str>) -> Vec<Source> {
    for_platform(std::env::consts::OS, std::env::consts::ARCH, mirror)
}

/// [`for_this_platform`] for a named OS and architecture.
pub fn for_platform(os: &str, arch: &str, mirror: Option<&str>) -> Vec<Source> {
    let base = mirror.unwrap_or(RELEASES);
    let sep = if base.ends_with('/') { "" } else { "/" };
    let release = |file: &str, sha256: &str, format, members: &[&str], megabytes| Source {
        name: "release",
        what: format!("DXC 1.8.2502 from Microsoft's release {file}"),
        megabytes,
        fetch: Fetch::Archive {
            url: format!("{base}{sep}v1.8.2502/{file}"),
            sha256: sha256.into(),
            format,
            members: members.iter().map(|m| m.to_string()).collect(),
        },
        key: sha256.into(),
    };
    match (os, arch) {
        ("linux", "x86_64") => vec![
            Source {
                name: "pip",
                what: "DXC 1.8 from the compushady-lrtu 0.18.0 wheel through pip".into(),
                megabytes: 15,
                fetch: Fetch::PipWheel {
                    requirement: "compushady-lrtu==0.18.0",
                    platform: "manylinux_2_28_x86_64",
                    member: "compushady/backends/libdxcompiler_x86_64.so",
                    sha256: WHEEL_LIBRARY_SHA256,
                },
                key: WHEEL_LIBRARY_SHA256.into(),
            },
            release(
                "linux_dxc_2025_02_20.x86_64.tar.gz",
                "e0580d90dbf6053a783ddd8d5153285f0606e5deaad17a7a6452f03acdf88c71",
                ArchiveFormat::TarGz,
                &["lib/libdxcompiler.so"],
                25,
            ),
        ],
        ("windows", "x86_64") => vec![release(
            "dxc_2025_02_20.zip",
            "70b1913a1bfce4a3e1a5311d16246f4ecdf3a3e613abec8aa529e57668426f85",
            ArchiveFormat::Zip,
            &["bin/x64/dxcompiler.dll", "bin/x64/dxil.dll"],
            30,
        )],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linux_prefers_the_wheel_ci_tests_and_keeps_the_release_as_fallback() {
        let s = for_platform("linux", "x86_64", None);
        assert_eq!(
            s.iter().map(|s| s.name).collect::<Vec<_>>(),
            ["pip", "release"]
        );
        assert_eq!(s[0].key, WHEEL_LIBRARY_SHA256);
        let Fetch::Archive { url, .. } = &s[1].fetch else {
            panic!("the release is an archive")
        };
        assert!(
            url.starts_with(RELEASES) && url.ends_with(".x86_64.tar.gz"),
            "{url}"
        );
    }

    #[test]
    fn a_mirror_replaces_the_release_folder_only() {
        let s = for_platform("windows", "x86_64", Some("http://127.0.0.1:9/dxc"));
        let Fetch::Archive { url, members, .. } = &s[0].fetch else {
            panic!("Windows has the release archive")
        };
        assert_eq!(url, "http://127.0.0.1:9/dxc/v1.8.2502/dxc_2025_02_20.zip");
        assert_eq!(members[0], "bin/x64/dxcompiler.dll");
        assert!(for_platform("macos", "aarch64", None).is_empty());
    }
}
