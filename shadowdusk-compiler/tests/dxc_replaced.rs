//! A DXC replaced on disk inside a long-lived process (a game doing hot reload): the next compile
//! uses the new file and says so (`Compiled::dxc`, the identity the cache key takes), its workers
//! started anew; an in-process compile, which cannot load a second DXC, refuses with an error
//! that says so rather than compiling with the old one under the new one's name. Its own test
//! binary: it sets the process environment, and its copies of DXC are replaced under it.

#![cfg(unix)]

use std::path::{Path, PathBuf};

use shadowdusk_compiler::{dxc, pipeline};

const EFFECT: &str = "\
float4 Tint = float4(1, 0.5, 0.25, 1);
float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return Tint * uv.x; }
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
";

fn compile() -> Result<pipeline::Compiled, pipeline::CompileError> {
    pipeline::compile_source(Path::new("tint.fx"), EFFECT, &pipeline::Options::default())
}

/// This process's children that are DXC workers.
fn workers() -> Vec<u32> {
    let out = std::process::Command::new("pgrep")
        .args([
            "-P",
            &std::process::id().to_string(),
            "-f",
            "shadowdusk-dxc-worker",
        ])
        .output()
        .expect("pgrep runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Writes `bytes` to a new file beside `path`, then renames it over `path` (as an installer
/// does), so a process that mapped the old file keeps it intact.
fn rename_over(path: &Path, bytes: &[u8]) {
    let new = path.with_extension("new");
    std::fs::write(&new, bytes).expect("write the new DXC");
    std::fs::rename(&new, path).expect("rename it over");
}

#[test]
fn a_dxc_replaced_on_disk_is_the_next_compiles_dxc() {
    let test = "a_dxc_replaced_on_disk_is_the_next_compiles_dxc";
    let Some(original) = std::env::var_os("SHADOWDUSK_DXC").map(PathBuf::from) else {
        shadowdusk_testkit::skip(test, "SHADOWDUSK_DXC is not set (the DXC to copy)");
        return;
    };
    let Ok(bytes) = std::fs::read(&original) else {
        let why = format!("no DXC at {} to copy", original.display());
        shadowdusk_testkit::skip(test, &why);
        return;
    };
    // ELF ignores trailing bytes: the changed copy still loads, with another content hash.
    let changed = [bytes.as_slice(), b"\0"].concat();
    let dir = tempfile::tempdir().expect("temp dir");
    let lib = dir.path().join("workers/libdxcompiler.so");
    std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
    std::fs::write(&lib, &bytes).expect("copy DXC");
    // The only thread of this binary touches the environment.
    std::env::set_var("SHADOWDUSK_DXC", &lib);
    std::env::set_var("SHADOWDUSK_DXC_CACHE", dir.path().join("user-cache"));
    std::env::remove_var(dxc::IN_PROCESS_VAR);

    // 1. Workers: replaced in place (the same file rewritten), the next compile takes the new
    // one, through a new worker.
    let first = compile().expect("compiles");
    let before = dxc::expected_version().expect("DXC is available");
    assert_eq!(first.dxc.as_deref(), Some(before.as_str()));
    let old_workers = workers();
    assert_eq!(old_workers.len(), 1, "one idle worker: {old_workers:?}");
    let started = dxc::worker_starts().0;

    std::fs::write(&lib, &changed).expect("rewrite DXC in place");
    let after = dxc::expected_version().expect("DXC is available");
    assert_ne!(after, before, "the key follows the new bytes");
    let second = compile().expect("compiles with the new DXC");
    assert_eq!(second.dxc.as_deref(), Some(after.as_str()));
    assert_eq!(
        dxc::worker_starts().0,
        started + 1,
        "a worker on the new file"
    );
    let now = workers();
    assert!(
        old_workers.iter().all(|p| !now.contains(p)),
        "the old worker was ended: before {old_workers:?}, now {now:?}"
    );
    assert_eq!(
        second.bytes, first.bytes,
        "the same DXC code, so the same output"
    );
    dxc::release_workers();

    // 2. In process: the library this process loaded is not the one the identity names once
    // the file was replaced, so the compile is refused, never attributed to the new one.
    assert!(
        !dxc::is_loaded(),
        "the workers loaded DXC, not this process"
    );
    let lib = dir.path().join("in-process/libdxcompiler.so");
    std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
    std::fs::write(&lib, &bytes).expect("copy DXC");
    std::env::set_var("SHADOWDUSK_DXC", &lib);
    std::env::set_var(dxc::IN_PROCESS_VAR, "1");
    let loaded = compile().expect("compiles in process");
    assert_eq!(loaded.dxc, Some(before.clone()), "the original bytes again");
    assert!(dxc::is_loaded());

    rename_over(&lib, &changed);
    assert_eq!(dxc::expected_version().as_deref(), Ok(after.as_str()));
    let refused = compile().expect_err("the loaded DXC is no longer the file named");
    let text = refused.render(false);
    assert!(
        text.contains("SD0103") && text.contains("restart"),
        "{text}"
    );

    // Back to workers, the new file compiles.
    std::env::remove_var(dxc::IN_PROCESS_VAR);
    let third = compile().expect("compiles in a worker");
    assert_eq!(third.dxc.as_deref(), Some(after.as_str()));
    dxc::release_workers();
}
