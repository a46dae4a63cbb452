//! Two checkouts of one game crate sharing one target folder, through real cargo: Cargo names a
//! build script's `OUT_DIR` by the package, not by where it lives, so both build scripts write
//! into the same folder. Each build must still give its own checkout's shaders, every time, and
//! tell cargo about its own files only.
//!
//! The checkouts are copies of `tests/rebuild/consumer` (as `rebuild.rs` makes them) whose
//! `shaders/tint.fx` bakes a different `Amount`; they build alternately, five times each, into
//! `target/rebuild-tests` (shared with `rebuild.rs`, so the dependencies compile once). Their
//! files have settled before the first build, so each build remembers its stamps: what the other
//! checkout's build finds in `OUT_DIR`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use shadowdusk_tests::fixture::{copy_dir, dxc};

const PACKAGE: &str = "rebuild-consumer";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// A fresh copy of the consumer at `dir` whose tint effect bakes `amount`.
fn checkout(dir: &Path, amount: &str) {
    let ws = workspace();
    if dir.exists() {
        std::fs::remove_dir_all(dir).expect("remove the previous copy");
    }
    copy_dir(&ws.join("tests/rebuild/consumer"), dir);
    let template = std::fs::read_to_string(dir.join("Cargo.toml.in")).expect("Cargo.toml.in");
    let ws_str = ws.to_str().expect("UTF-8 workspace path");
    std::fs::write(
        dir.join("Cargo.toml"),
        template.replace("@WORKSPACE@", ws_str),
    )
    .expect("write Cargo.toml");
    std::fs::remove_file(dir.join("Cargo.toml.in")).expect("remove template");
    std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");
    let tint = dir.join("shaders/tint.fx");
    let text = std::fs::read_to_string(&tint).expect("tint.fx");
    assert!(text.contains("float Amount = 0.25;"));
    std::fs::write(
        &tint,
        text.replace("float Amount = 0.25;", &format!("float Amount = {amount};")),
    )
    .expect("write tint.fx");
}

/// `cargo build -vv` of the checkout at `dir` into `target`: its log.
fn build(dir: &Path, target: &Path, dxc: &Path) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let run = |offline: bool| {
        let mut cmd = Command::new(&cargo);
        cmd.current_dir(dir)
            .args(["build", "-vv", "--color", "never"])
            .env("CARGO_TARGET_DIR", target)
            .env("SHADOWDUSK_DXC", dxc)
            .env_remove("SHADOWDUSK_CACHE_DIR");
        if offline {
            cmd.arg("--offline");
        }
        cmd.output().expect("run cargo")
    };
    let mut out = run(true);
    if !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--offline") {
        out = run(false);
    }
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{} failed:\n{log}", dir.display());
    log
}

/// What the built binary says: its `OUT_DIR`, then one line per effect.
fn run(target: &Path) -> Vec<String> {
    let out = Command::new(target.join("debug").join(PACKAGE))
        .output()
        .expect("run the consumer");
    assert!(out.status.success(), "the consumer failed");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn two_checkouts_sharing_a_target_folder_each_get_their_own_shaders() {
    let test = "two_checkouts_sharing_a_target_folder_each_get_their_own_shaders";
    let Some(dxc) = dxc(test) else {
        return;
    };
    let target = workspace().join("target/rebuild-tests");
    let (a, b) = (target.join("checkout-a"), target.join("checkout-b"));
    checkout(&a, "0.25");
    checkout(&b, "0.5");
    // Settled: each build remembers the stamps of what it read.
    std::thread::sleep(Duration::from_millis(2300));

    let mut out_dirs = Vec::new();
    for round in 1..=5 {
        for (dir, other, amount) in [(&a, &b, "0.25"), (&b, &a, "0.5")] {
            let log = build(dir, &target, &dxc);
            let when = format!("round {round}, {}", dir.display());
            // The build script ran, and named this checkout's files to cargo, not the other's.
            let own = format!(
                "cargo:rerun-if-changed={}",
                dir.join("shaders/tint.fx").display()
            );
            assert!(log.contains(&own), "{when}: no `{own}`:\n{log}");
            assert!(
                !log.contains(&format!("cargo:rerun-if-changed={}", other.display())),
                "{when}: the other checkout's files were named:\n{log}"
            );
            let lines = run(&target);
            out_dirs.push(lines[0].clone());
            let line = |effect: &str| {
                lines
                    .iter()
                    .find(|l| l.starts_with(&format!("shaders/{effect}: ")))
                    .unwrap_or_else(|| panic!("{when}: no line for {effect} in {lines:#?}"))
                    .clone()
            };
            let tint = line("tint.fx");
            assert!(
                tint.contains(&format!("[[{amount}, 0.0, 0.0, 0.0]]")),
                "{when}: {tint}"
            );
            // The other effects are the same text in both checkouts, and so the same effect.
            assert!(
                line("glow.fx").contains("[[1.0, 0.5, 0.25, 1.0]]"),
                "{when}: {lines:#?}"
            );
            // The tint effect's bytes are this checkout's: those of its own file, compiled.
            let out_dir = PathBuf::from(lines[0].trim_start_matches("out_dir="));
            let mgfx = std::fs::read(out_dir.join("shadowdusk/shaders/tint.mgfx")).expect("mgfx");
            let effect = shadowdusk::mgfx::read(&mgfx).expect("tint.mgfx reads back");
            let amount: f32 = amount.parse().expect("number");
            let baked = effect
                .parameters
                .iter()
                .find(|p| p.name == "Amount")
                .and_then(|p| p.data.as_ref()?.first().copied());
            assert_eq!(
                baked,
                Some(amount.to_bits()),
                "{when}: tint.mgfx bakes another Amount"
            );
            assert!(
                tint.contains(&format!("{} bytes", mgfx.len())),
                "{when}: {tint}"
            );
        }
    }
    // Cargo did give both checkouts one OUT_DIR: the case this test is about.
    out_dirs.dedup();
    assert_eq!(out_dirs.len(), 1, "{out_dirs:#?}");
}
