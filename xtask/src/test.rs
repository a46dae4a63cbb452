//! `cargo xtask test`: make sure DXC is there, then run every test in the workspace with
//! `SHADOWDUSK_REQUIRE_ALL=1`, so a test that cannot find DXC, headless EGL, Xvfb or `../shared`
//! fails instead of printing `!!! SKIPPED` and passing. (An explicit `SHADOWDUSK_REQUIRE_ALL=0`
//! in the caller's environment is kept, for machines known to lack one of them.)

use std::process::Command;

use shadowdusk_testkit::REQUIRE_ALL;

/// `1` unless the caller set the variable.
fn require_all() -> String {
    std::env::var(REQUIRE_ALL).unwrap_or_else(|_| "1".into())
}

pub fn run(extra: &[String]) -> Result<(), String> {
    crate::setup::run()?;
    let root = crate::setup::workspace_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo)
        .current_dir(&root)
        .args(["test", "--workspace", "--all-targets"])
        .args(extra)
        .env("SHADOWDUSK_DXC", crate::setup::dxc_path())
        .env(REQUIRE_ALL, require_all())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo test failed ({status})"));
    }
    let status = Command::new(&cargo)
        .current_dir(&root)
        .args(["test", "--workspace", "--doc"])
        .env("SHADOWDUSK_DXC", crate::setup::dxc_path())
        .env(REQUIRE_ALL, require_all())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo test --doc failed ({status})"));
    }
    Ok(())
}
