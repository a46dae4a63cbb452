//! `cargo xtask test`: install the system packages the tests need ([`crate::system_packages`]),
//! make sure DXC and naga's command line ([`crate::naga_cli`]) are there, then run every test in the workspace (all targets, then doctests), or
//! with arguments `cargo test <arguments>`.
//!
//! A test that cannot find DXC, headless EGL, a wgpu adapter, Xvfb or `../shared` skips: it passes with a
//! `!!! SKIPPED` line ([`shadowdusk_testkit::skip`]), and at the end (pass or fail) this prints
//! how many skipped, grouped by why, from the log the tests append to (`SHADOWDUSK_SKIP_LOG`,
//! `target/xtask-test-skips.log`). `SHADOWDUSK_REQUIRE_ALL` is passed through as the caller set
//! it: CI sets it to `1`, so there a skip fails instead.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use shadowdusk_testkit::{logged_skips, REQUIRE_ALL, SKIP_LOG};

pub fn run(extra: &[String]) -> Result<(), String> {
    let mut packages = [crate::system_packages::GL, crate::system_packages::VULKAN].concat();
    packages.push(crate::system_packages::XVFB);
    crate::system_packages::ensure(&packages)?;
    crate::setup::run()?;
    crate::naga_cli::ensure()?;
    let root = crate::setup::workspace_root();
    let log = skip_log(&root);
    if let Some(dir) = log.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    match std::fs::remove_file(&log) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!("cannot clear {}: {e}", log.display()));
        }
        _ => {}
    }
    let result = cargo_test(&root, &log, extra);
    print_summary(&log);
    result
}

/// `cargo test` on all targets, then on doctests, with the skip log set; with arguments, just
/// `cargo test <arguments>` (`cargo xtask test -p shadowdusk-mgfx --lib`).
fn cargo_test(root: &Path, log: &Path, extra: &[String]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let test = |args: &[&str], extra: &[String]| {
        Command::new(&cargo)
            .current_dir(root)
            .arg("test")
            .args(args)
            .args(extra)
            .env("SHADOWDUSK_DXC", crate::setup::dxc_path())
            .env(SKIP_LOG, log)
            .status()
            .map_err(|e| format!("cannot run cargo: {e}"))
    };
    if !extra.is_empty() {
        let status = test(&[], extra)?;
        return match status.success() {
            true => Ok(()),
            false => Err(format!("cargo test failed ({status})")),
        };
    }
    let status = test(&["--workspace", "--all-targets"], &[])?;
    if !status.success() {
        return Err(format!("cargo test failed ({status})"));
    }
    let status = test(&["--workspace", "--doc"], &[])?;
    if !status.success() {
        return Err(format!("cargo test --doc failed ({status})"));
    }
    Ok(())
}

/// `<target dir>/xtask-test-skips.log`, absolute: the tests run in their own crates' folders.
fn skip_log(root: &Path) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let target = std::path::absolute(&target).unwrap_or(target);
    target.join("xtask-test-skips.log")
}

/// How many skipped and why, most common reason first.
fn print_summary(log: &Path) {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut by_reason: BTreeMap<String, usize> = BTreeMap::new();
    for (_, why) in logged_skips(&text) {
        *by_reason.entry(reason(why)).or_default() += 1;
    }
    let total: usize = by_reason.values().sum();
    if total == 0 {
        println!("xtask test: nothing skipped");
        return;
    }
    let mut groups: Vec<(String, usize)> = by_reason.into_iter().collect();
    groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let groups: Vec<String> = groups.iter().map(|(r, n)| format!("{n}: {r}")).collect();
    println!(
        "xtask test: {total} tests (or parts of tests) skipped (search the output for `!!! \
         SKIPPED`; {REQUIRE_ALL}=1 makes a skip fail):\n  {}",
        groups.join("\n  ")
    );
}

/// A skip's reason with the paths and error details of one test left out, so that like skips
/// group together: the known causes by name, any other by its text before the first `:`.
fn reason(why: &str) -> String {
    const KNOWN: &[(&str, &str)] = &[
        ("shared/golden", "../shared is absent (the golden corpus)"),
        ("OpenGL", "headless OpenGL unavailable (EGL/Mesa)"),
        ("Xvfb", "Xvfb is not installed or did not start"),
        ("DXC", "DXC unavailable (cargo xtask setup)"),
    ];
    if let Some((_, label)) = KNOWN.iter().find(|(needle, _)| why.contains(needle)) {
        return (*label).to_string();
    }
    why.split(':').next().unwrap_or(why).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::reason;

    #[test]
    fn like_skips_share_a_reason() {
        let shared = [
            "../shared/golden not found at /home/x/shared/golden",
            "/w/tests/../../shared/golden/shadowdusk-opengl is absent; golden codegen was NOT checked",
        ];
        for why in shared {
            assert_eq!(reason(why), "../shared is absent (the golden corpus)");
        }
        let gl = "GL check (Gles2): headless OpenGL unavailable: EGL_NOT_INITIALIZED";
        assert_eq!(reason(gl), "headless OpenGL unavailable (EGL/Mesa)");
        let dxc = "no DXC at /w/.tools/dxc/libdxcompiler.so (run `cargo xtask setup`)";
        assert_eq!(reason(dxc), "DXC unavailable (cargo xtask setup)");
        assert_eq!(reason("no network: connection refused"), "no network");
    }
}
