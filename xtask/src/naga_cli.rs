//! naga's own command line (`naga FILE.wgsl` validates a WGSL file), which
//! `shadowdusk-cli/tests/wgpu_dump.rs` runs on what `--dump /Profile:Wgpu` prints: installed
//! with `cargo install naga-cli` (the major of the naga the compiler pins) when missing.

use std::process::Command;

/// naga-cli's versions follow naga's; the compiler pins naga 30.
const VERSION: &str = "^30";

/// `naga --version`, installing naga-cli first when there is none.
pub fn ensure() -> Result<(), String> {
    let version = || {
        Command::new("naga")
            .arg("--version")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    if let Some(v) = version() {
        println!("naga command line: {v}");
        return Ok(());
    }
    println!("naga command line: missing; installing it (cargo install naga-cli --version {VERSION} --locked)...");
    let installed = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["install", "naga-cli", "--version", VERSION, "--locked"])
        .status()
        .is_ok_and(|s| s.success());
    match (installed, version()) {
        (true, Some(v)) => {
            println!("naga command line: installed {v}");
            Ok(())
        }
        (true, None) => Err(
            "naga-cli was installed but `naga --version` fails (is cargo's bin folder on PATH?)"
                .into(),
        ),
        (false, _) => Err(format!(
            "cannot install naga-cli (`cargo install naga-cli --version {VERSION}` failed)"
        )),
    }
}
