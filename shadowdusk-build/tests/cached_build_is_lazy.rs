//! A build script run whose effects are all cached never loads DXC nor starts a DXC worker; the
//! first effect no cache holds starts workers, which load DXC (on Unix this process never
//! does). Each build after the first runs in a fresh process
//! (this test binary again, running only [`rebuild_in_a_fresh_process`]), since loading DXC
//! is once per process.

use std::path::Path;
use std::process::Command;

/// Set for the fresh process: the crate to build again, and how many effects it must compile.
const ROOT_VAR: &str = "SHADOWDUSK_LAZY_TEST_ROOT";
const EXPECT_VAR: &str = "SHADOWDUSK_LAZY_TEST_COMPILES";
/// What the fresh process prints when it has checked everything.
const CHECKED: &str = "fresh-process build checked";

const EFFECT: &str = "\
sampler s0;
float Amount = 0.25;
float4 MainPS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(s0, uv) * Amount; }
technique T { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
";

fn build(root: &Path) -> shadowdusk_build::Artifacts {
    shadowdusk_build::Builder::new()
        .manifest_dir(root)
        .out_dir(root.join("out"))
        .no_cache_dir()
        .jobs(2)
        .cargo_directives(false)
        .summary(false)
        .dir("shaders")
        .try_compile()
        .unwrap_or_else(|e| panic!("build failed:\n{e}"))
}

/// Builds `root` again in a fresh process that must compile `compiles` effects.
fn rebuild(root: &Path, compiles: usize) {
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", "rebuild_in_a_fresh_process", "--nocapture"])
        .env(ROOT_VAR, root)
        .env(EXPECT_VAR, compiles.to_string())
        .output()
        .expect("the test binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && text.contains(CHECKED),
        "fresh-process build failed:\n{text}"
    );
}

#[test]
fn a_build_served_from_its_cache_loads_no_dxc() {
    let test = "a_build_served_from_its_cache_loads_no_dxc";
    if std::env::var_os(ROOT_VAR).is_some() {
        return;
    }
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_testkit::skip(test, "DXC unavailable (run `cargo xtask setup`)");
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path();
    std::fs::create_dir_all(root.join("shaders")).expect("mkdir");
    for name in ["a", "b"] {
        std::fs::write(root.join(format!("shaders/{name}.fx")), EFFECT).expect("write");
    }
    assert_eq!(build(root).compiled(), 2);
    // Everything cached: no DXC in the fresh process.
    rebuild(root, 0);
    // One edited effect: DXC is loaded for it alone.
    std::fs::write(root.join("shaders/b.fx"), EFFECT.replace("0.25", "0.5")).expect("edit");
    rebuild(root, 1);
}

/// The fresh process of [`a_build_served_from_its_cache_loads_no_dxc`]; does nothing when run
/// on its own.
#[test]
fn rebuild_in_a_fresh_process() {
    let Some(root) = std::env::var_os(ROOT_VAR) else {
        return;
    };
    let expected: usize = std::env::var(EXPECT_VAR)
        .expect("the count to expect")
        .parse()
        .expect("a count");
    let artifacts = build(Path::new(&root));
    assert_eq!(artifacts.compiled(), expected);
    let loaded = shadowdusk_compiler::dxc::is_loaded();
    let (workers, _) = shadowdusk_compiler::dxc::worker_starts();
    if expected == 0 {
        assert!(
            !loaded && workers == 0,
            "DXC loaded: {loaded}, workers started: {workers}"
        );
    } else if cfg!(unix) {
        // The workers load DXC; this process only finds the file.
        assert!(
            !loaded && workers > 0,
            "DXC loaded: {loaded}, workers started: {workers}"
        );
    } else {
        assert!(loaded);
    }
    println!("{CHECKED}");
}
