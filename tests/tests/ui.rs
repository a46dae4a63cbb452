//! Compile-fail tests of `include_effect!` (trybuild): a shader syntax error, an HLSL type
//! error, a missing include and a missing file each fail the build with a message naming the
//! shader's file, line and column, under the macro's path literal (compiled `in_process`), and
//! an effect without `in_process` that the crate's build script did not compile is refused with
//! what to do instead of being compiled with other options (`not_built.rs`; trybuild's crates
//! run this crate's `build.rs`, which compiles only `hot/options/`).
//!
//! The typed runtime API refuses another effect's items at compile time: a pass (named, or
//! taken from a technique), a texture slot and a `Params` of `grayscale` handed to a
//! `GlEffect<tint::Effect>` (`wrong_effect_*.rs`), or to a `WgpuEffect<tint::Effect>`
//! (`wrong_effect_wgpu.rs`), are type errors naming both effects, and
//! safe code cannot forge a pass or texture slot (`forged_pass_and_slot.rs`: the constructors
//! are `unsafe`), while a crate that forbids unsafe code still uses generated ones
//! (`pass/forbid_unsafe_code.rs`, which must compile).
//!
//! The expected compiler output is committed beside each case (`tests/ui/*.stderr`; regenerate
//! with `TRYBUILD=overwrite` and review the diff).
//!
//! trybuild compiles each case as a binary of its own crate in
//! `<target>/tests/trybuild/shadowdusk-tests/`, which is that crate's `CARGO_MANIFEST_DIR`.
//! The fixtures (`tests/ui/shaders/`) are copied to `shaders/` there, so each case names its
//! effect the way a user's crate would (`"shaders/type_error.fx"`) and the messages show the
//! same crate-relative paths on every checkout.

use std::path::{Path, PathBuf};

fn trybuild_crate_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is `<target>/tmp`; trybuild uses `<target>/tests/trybuild/<package>`.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR has a parent");
    target
        .join("tests")
        .join("trybuild")
        .join(env!("CARGO_PKG_NAME"))
}

fn copy_fixtures(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/shaders");
    let to = to.join("shaders");
    let _ = std::fs::remove_dir_all(&to);
    std::fs::create_dir_all(&to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for entry in std::fs::read_dir(&from).unwrap_or_else(|e| panic!("{}: {e}", from.display())) {
        let path = entry.expect("fixture entry").path();
        if path.is_file() {
            let dest = to.join(path.file_name().expect("file name"));
            std::fs::copy(&path, &dest).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
        }
    }
}

#[test]
fn include_effect_errors() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(
            "include_effect_errors",
            "DXC unavailable (run `cargo xtask setup`)",
        );
        return;
    }
    copy_fixtures(&trybuild_crate_dir());
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui/pass/*.rs");
}
