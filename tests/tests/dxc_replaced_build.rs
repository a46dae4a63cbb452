//! The Builder stores an effect only under the key of the DXC that compiled it, when the DXC is
//! replaced on disk in the middle of a build or between two builds of one long-lived process.
//! Its own test binary: it sets the process environment (`SHADOWDUSK_DXC`, the write pause)
//! and replaces its copies of DXC under itself.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use shadowdusk_build::{Artifacts, Builder, Origin};

const EFFECT: &str = "\
float4 Tint = float4(1, 0.5, 0.25, 1);
float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return Tint * uv.x; }
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
";

/// Every write of an artifact pauses this long in the middle build (`artifact::write_atomic`'s
/// test hook), so the DXC can be replaced between the first effect's compile and the second's.
const PAUSE_VAR: &str = "SHADOWDUSK_TEST_WRITE_PAUSE_MS";

fn build(root: &Path, out: &Path, shared: &Path) -> Result<Artifacts, String> {
    Builder::new()
        .manifest_dir(root)
        .out_dir(out)
        .cache_dir(shared)
        .jobs(1)
        .cargo_directives(false)
        .summary(false)
        .dir("shaders")
        .try_compile()
        .map_err(|e| e.to_string())
}

/// The cache key of each effect, by file name.
fn keys(a: &Artifacts) -> Vec<(String, String)> {
    a.effects
        .iter()
        .map(|e| (e.relative.display().to_string(), e.cache_key.clone()))
        .collect()
}

fn stored(shared: &Path, key: &str) -> bool {
    shared.join(format!("{key}.json")).is_file()
}

/// One build in a fresh process (the `sd_build` binary) with this process's environment: the
/// origin of each effect.
fn fresh_build(root: &Path, out: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_sd_build"))
        .arg(root)
        .arg(out)
        .args(["--dir", "shaders"])
        .env_remove(PAUSE_VAR)
        .output()
        .expect("run sd_build");
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout
}

/// Writes `bytes` beside `path`, to be renamed over it later in one step.
fn staged(path: &Path, bytes: &[u8]) -> PathBuf {
    let new = path.with_extension("new");
    std::fs::write(&new, bytes).expect("write the new DXC");
    new
}

#[test]
fn output_is_stored_only_under_the_key_of_the_dxc_that_compiled_it() {
    let test = "output_is_stored_only_under_the_key_of_the_dxc_that_compiled_it";
    let Some(original) = std::env::var_os("SHADOWDUSK_DXC").map(PathBuf::from) else {
        shadowdusk_tests::skip(test, "SHADOWDUSK_DXC is not set (the DXC to copy)");
        return;
    };
    let Ok(bytes) = std::fs::read(&original) else {
        let why = format!("no DXC at {} to copy", original.display());
        shadowdusk_tests::skip(test, &why);
        return;
    };
    // ELF ignores trailing bytes: the changed copy still loads, with another content hash.
    let changed = [bytes.as_slice(), b"\0"].concat();
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let root = dir.join("crate");
    std::fs::create_dir_all(root.join("shaders")).expect("mkdir");
    // `a` is larger, so it compiles first (one thread, largest first).
    let padding = format!("// {}\n", "a".repeat(400));
    std::fs::write(root.join("shaders/a.fx"), format!("{padding}{EFFECT}")).expect("write");
    std::fs::write(root.join("shaders/b.fx"), EFFECT).expect("write");
    let lib = dir.join("dxc/libdxcompiler.so");
    std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
    std::fs::write(&lib, &bytes).expect("copy DXC");
    // The only thread of this binary touches the environment.
    std::env::set_var("SHADOWDUSK_DXC", &lib);
    std::env::set_var("SHADOWDUSK_DXC_CACHE", dir.join("user-cache"));
    std::env::remove_var("SHADOWDUSK_DXC_IN_PROCESS");

    // The keys of both effects with the original DXC.
    let reference = keys(&build(&root, &dir.join("out-ref"), &dir.join("shared-ref")).unwrap());
    let (a_old, b_old) = (&reference[0].1, &reference[1].1);
    assert!(reference[0].0.ends_with("a.fx"), "{reference:?}");

    // 1. Replaced during a build, after `a` compiled and before `b` did: `b`, compiled by the
    // new DXC, is not stored under the old one's key; the build runs again with the new one.
    let (out, shared) = (dir.join("out"), dir.join("shared"));
    let new = staged(&lib, &changed);
    std::env::set_var(PAUSE_VAR, "400");
    let a_written = shadowdusk_compiler::artifact::paths(&out, Path::new("shaders/a.fx")).mgfx;
    let built = std::thread::scope(|s| {
        let running = s.spawn(|| build(&root, &out, &shared));
        let start = Instant::now();
        while !a_written.is_file() {
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "a was never written"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        std::fs::rename(&new, &lib).expect("replace DXC");
        running.join().expect("the build thread")
    });
    std::env::remove_var(PAUSE_VAR);
    let built = built.expect("the build succeeds with the new DXC");
    assert!(built.effects.iter().all(|e| e.origin == Origin::Compiled));
    let now = keys(&built);
    let (a_new, b_new) = (&now[0].1, &now[1].1);
    assert!(
        a_new != a_old && b_new != b_old,
        "keyed with the new DXC: {now:?}"
    );
    assert!(
        stored(&shared, a_old),
        "a, compiled by the old DXC, under its key"
    );
    assert!(
        !stored(&shared, b_old),
        "b was compiled by the new DXC, never the old one"
    );
    assert!(stored(&shared, a_new) && stored(&shared, b_new));
    // A fresh process keys with the DXC on disk: both are current in OUT_DIR.
    let fresh = fresh_build(&root, &out);
    assert_eq!(fresh, "out-dir shaders/a.fx\nout-dir shaders/b.fx\n");

    // 2. In process (one DXC per process), replaced between two builds: the second build is
    // an error saying so, and stores nothing.
    let lib = dir.join("dxc-in-process/libdxcompiler.so");
    std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
    std::fs::write(&lib, &bytes).expect("copy DXC");
    std::env::set_var("SHADOWDUSK_DXC", &lib);
    std::env::set_var("SHADOWDUSK_DXC_IN_PROCESS", "1");
    let (out, shared) = (dir.join("out-in-process"), dir.join("shared-in-process"));
    let first = build(&root, &out, &shared).expect("builds in process");
    assert_eq!(
        keys(&first),
        reference,
        "the original bytes: the original keys"
    );
    let entries = || std::fs::read_dir(&shared).map_or(0, |d| d.count());
    let before = entries();
    std::fs::rename(staged(&lib, &changed), &lib).expect("replace DXC");
    let e = build(&root, &out, &shared).expect_err("this process holds the old DXC");
    assert!(e.contains("restart"), "{e}");
    assert_eq!(entries(), before, "nothing stored");
    std::env::remove_var("SHADOWDUSK_DXC_IN_PROCESS");
}
