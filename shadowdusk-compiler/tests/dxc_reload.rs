//! A failed DXC load is not remembered for the life of the process: once the library is where
//! `SHADOWDUSK_DXC` says, the next use loads it (a rust-analyzer session recovers after
//! `shadowdusk setup` without a restart). Its own test binary: it sets the process environment.

use std::path::PathBuf;

#[test]
fn a_failed_load_is_retried_on_the_next_use() {
    let cached = shadowdusk_compiler::dxc::provision::Provisioner::from_env()
        .ok()
        .and_then(|p| p.cached())
        .map(|c| c.path);
    let real = std::env::var_os("SHADOWDUSK_DXC")
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .or(cached)
        .unwrap_or_else(|| PathBuf::from("libdxcompiler.so"));
    if !real.is_file() {
        let why = format!("no DXC at {} to copy", real.display());
        shadowdusk_testkit::skip("a_failed_load_is_retried_on_the_next_use", &why);
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let lib = dir.path().join("libdxcompiler.so");
    // The only thread of this binary touches the environment.
    std::env::set_var("SHADOWDUSK_DXC", &lib);
    let first = shadowdusk_compiler::dxc::load().expect_err("nothing is there yet");
    assert!(first.contains("SHADOWDUSK_DXC"), "{first}");
    std::fs::copy(&real, &lib).expect("copy DXC");
    shadowdusk_compiler::dxc::load().expect("the second use loads the library now in place");
    let v = shadowdusk_compiler::dxc::expected_version().expect("a version once loaded");
    assert!(v.starts_with("dxcompiler:"), "{v}");
}
