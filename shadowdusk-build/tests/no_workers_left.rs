//! A build leaves no DXC worker process behind: the build script that ran the Builder ends with
//! no child of its own. Its own test binary, so no other test's compile is running meanwhile.

use std::process::Command;

const EFFECT: &str = "\
sampler s0;
float Amount = 0.25;
float4 MainPS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(s0, uv) * Amount; }
float4 OtherPS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(s0, uv) + Amount; }
technique T { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
technique U { pass P0 { PixelShader = compile ps_2_0 OtherPS(); } }
";

#[test]
fn a_build_leaves_no_dxc_worker_behind() {
    let test = "a_build_leaves_no_dxc_worker_behind";
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_testkit::skip(test, "DXC unavailable (run `cargo xtask setup`)");
        return;
    }
    if cfg!(windows) {
        shadowdusk_testkit::skip(test, "DXC compiles in process on Windows");
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path().join("crate");
    std::fs::create_dir_all(root.join("shaders")).expect("mkdir");
    for name in ["a", "b", "c"] {
        std::fs::write(root.join(format!("shaders/{name}.fx")), EFFECT).expect("write");
    }
    let artifacts = shadowdusk_build::Builder::new()
        .manifest_dir(&root)
        .out_dir(tmp.path().join("out"))
        .no_cache_dir()
        .jobs(2)
        .cargo_directives(false)
        .summary(false)
        .dir("shaders")
        .try_compile()
        .unwrap_or_else(|e| panic!("build failed:\n{e}"));
    assert_eq!(artifacts.compiled(), 3);
    let children = Command::new("pgrep")
        .args(["-a", "-P", &std::process::id().to_string()])
        .output()
        .expect("pgrep runs");
    let workers: Vec<_> = String::from_utf8_lossy(&children.stdout)
        .lines()
        .filter(|l| l.contains("shadowdusk-dxc-worker"))
        .map(str::to_string)
        .collect();
    assert!(workers.is_empty(), "left behind: {workers:?}");
}
