//! `cargo xtask test`: make sure DXC is there, then run every test in the workspace.

use std::process::Command;

pub fn run(extra: &[String]) -> Result<(), String> {
    crate::setup::run()?;
    let root = crate::setup::workspace_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo)
        .current_dir(&root)
        .args(["test", "--workspace", "--all-targets"])
        .args(extra)
        .env("SHADOWDUSK_DXC", crate::setup::dxc_path())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo test failed ({status})"));
    }
    let status = Command::new(&cargo)
        .current_dir(&root)
        .args(["test", "--workspace", "--doc"])
        .env("SHADOWDUSK_DXC", crate::setup::dxc_path())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo test --doc failed ({status})"));
    }
    Ok(())
}
