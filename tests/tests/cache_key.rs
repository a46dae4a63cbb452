//! The Builder's cache key follows the DXC library by content, as a build script sees it: each
//! build is a process of its own (`sd_build`), loading DXC from the file `SHADOWDUSK_DXC` names.
//! The same path with other bytes, or a symlink pointed at another file, recompiles; an
//! unchanged library is an `OUT_DIR` hit, its hash remembered in the per-user cache.
//!
//! The other inputs of the key (the compiler's and the MGFX writer's sources, the resolved
//! dependency versions) are compile-time constants, checked by `shadowdusk-build`'s
//! `every_input_of_the_code_that_compiles_moves_the_key` and the compiler's `build_id` tests.
//! Unix only: the cases are symlinks, and a system library found on `LD_LIBRARY_PATH`.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;

const EFFECT: &str = "\
float4 Tint = float4(1, 0.5, 0.25, 1);
float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return Tint * uv.x; }
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
";

/// The DXC library file this process loaded, or a loud skip.
fn loaded_dxc(test: &str) -> Option<PathBuf> {
    match shadowdusk_compiler::dxc::setup() {
        Ok((Some(path), _)) => Some(path),
        Ok((None, _)) => {
            shadowdusk_tests::skip(test, "DXC is the system loader's; set SHADOWDUSK_DXC");
            None
        }
        Err(e) => {
            shadowdusk_tests::skip(test, &format!("DXC unavailable: {e}"));
            None
        }
    }
}

/// A crate with one effect, its `OUT_DIR`, and an empty per-user cache.
struct Fixture {
    tmp: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let tmp = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(tmp.path().join("crate/shaders")).expect("mkdir");
        std::fs::write(tmp.path().join("crate/shaders/tint.fx"), EFFECT).expect("write");
        Fixture { tmp }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.tmp.path().join(rel)
    }

    /// A copy of the DXC library `dxc` at `rel`, with `extra` bytes appended (ELF ignores
    /// trailing bytes, so it still loads; its content hash is another).
    fn copy_dxc(&self, dxc: &Path, rel: &str, extra: &[u8]) -> PathBuf {
        let to = self.path(rel);
        std::fs::create_dir_all(to.parent().expect("a folder")).expect("mkdir");
        let mut bytes = std::fs::read(dxc).expect("read DXC");
        bytes.extend_from_slice(extra);
        std::fs::write(&to, bytes).expect("write DXC copy");
        to
    }

    /// One build with `env` set, offline, with this fixture's per-user cache; the origin of
    /// its one effect (`compiled`, `out-dir`).
    fn build(&self, env: &[(&str, &Path)]) -> String {
        let mut c = Command::new(env!("CARGO_BIN_EXE_sd_build"));
        c.arg(self.path("crate"))
            .arg(self.path("out"))
            .args(["--dir", "shaders", "--jobs", "1"])
            .env_remove("SHADOWDUSK_DXC")
            .env("SHADOWDUSK_DXC_CACHE", self.path("user-cache"))
            .env("SHADOWDUSK_OFFLINE", "1");
        for (k, v) in env {
            c.env(k, v);
        }
        let o = c.output().expect("run sd_build");
        let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            o.status.success(),
            "{:?}\n{stdout}\n{}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
        );
        let line = stdout.lines().next().unwrap_or_default();
        line.split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    }
}

fn point(link: &Path, at: &Path) {
    let _ = std::fs::remove_file(link);
    std::os::unix::fs::symlink(at, link).expect("symlink");
}

#[test]
fn a_different_dxc_at_the_same_path_or_behind_a_retargeted_symlink_recompiles() {
    let test = "a_different_dxc_at_the_same_path_or_behind_a_retargeted_symlink_recompiles";
    let Some(dxc) = loaded_dxc(test) else {
        return;
    };
    let f = Fixture::new();
    let name = dxc
        .file_name()
        .expect("a library file name")
        .to_string_lossy();
    let a = f.copy_dxc(&dxc, &format!("dxc-a/{name}"), b"");
    let b = f.copy_dxc(&dxc, &format!("dxc-b/{name}"), b"");
    let link = f.path(&name);
    point(&link, &a);
    let env = [("SHADOWDUSK_DXC", link.as_path())];

    assert_eq!(f.build(&env), "compiled");
    assert_eq!(f.build(&env), "out-dir");
    let memo = std::fs::read_to_string(f.path("user-cache/library-ids.json")).expect("memo");
    assert!(
        memo.contains(&*a.canonicalize().unwrap().to_string_lossy()),
        "{memo}"
    );

    // Other bytes at the same path.
    f.copy_dxc(&dxc, &format!("dxc-a/{name}"), b"\0");
    assert_eq!(f.build(&env), "compiled", "same path, new bytes");
    assert_eq!(f.build(&env), "out-dir");

    // The symlink pointed at another file (the original bytes).
    point(&link, &b);
    assert_eq!(f.build(&env), "compiled", "retargeted symlink");
    assert_eq!(f.build(&env), "out-dir");
}

/// The system's DXC as distributions install it: `libdxcompiler.so` a symlink to a versioned
/// file, found by the loader on `LD_LIBRARY_PATH`. Upgrading it (the symlink now points at
/// `libdxcompiler.so.3.8`) recompiles; it was once keyed as "system:unhashed", so it never did.
#[cfg(target_os = "linux")]
#[test]
fn an_upgraded_system_dxc_behind_a_versioned_symlink_recompiles() {
    let test = "an_upgraded_system_dxc_behind_a_versioned_symlink_recompiles";
    let Some(dxc) = loaded_dxc(test) else {
        return;
    };
    let f = Fixture::new();
    let v37 = f.copy_dxc(&dxc, "system/libdxcompiler.so.3.7", b"");
    let v38 = f.copy_dxc(&dxc, "system/libdxcompiler.so.3.8", b"\0");
    let link = f.path("system/libdxcompiler.so");
    point(&link, &v37);
    let system = f.path("system");
    let env = [("LD_LIBRARY_PATH", system.as_path())];

    assert_eq!(f.build(&env), "compiled");
    assert_eq!(f.build(&env), "out-dir");
    point(&link, &v38);
    assert_eq!(f.build(&env), "compiled", "the upgraded system library");
    assert_eq!(f.build(&env), "out-dir");
}
