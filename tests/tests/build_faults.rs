//! The build script under stress, run as separate processes (`sd_build`, the `Builder` in a
//! process of its own):
//!
//! - the corpus built with 1, 2 and 8 jobs gives byte-identical `.mgfx`, manifests and
//!   generated code;
//! - two builds sharing one `SHADOWDUSK_CACHE_DIR` at once both succeed with identical,
//!   valid outputs, and a third is served entirely from that cache;
//! - a build killed while it writes (SIGKILL between a temporary file and its rename) leaves
//!   nothing a later build or `include_effect!` trusts, and the next build is complete; so does
//!   one of another checkout sharing the `OUT_DIR`, for the first checkout's next build;
//! - faults are one clear message and never a hang: DXC missing, an `OUT_DIR` that cannot be
//!   written, an include folder that disappears in the middle of a build.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use shadowdusk::mgfx as shadowdusk_mgfx;
use shadowdusk_compiler::artifact::{self, Manifest};

/// No build here takes this long; a run that does has hung.
const HANG: Duration = Duration::from_secs(240);

fn dxc() -> Option<PathBuf> {
    if shadowdusk_compiler::dxc::available() {
        return Some(PathBuf::new());
    }
    shadowdusk_tests::skip(
        std::thread::current().name().unwrap_or("build_faults"),
        "DXC unavailable (run `cargo xtask setup`)",
    );
    None
}

fn corpus_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sd_build(root: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sd_build"));
    c.arg(root).arg(out).args(extra);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

/// Waits for `child`, killing it and failing the test after [`HANG`].
fn finish(mut child: Child, what: &str) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("{what} hung for {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn run(mut cmd: impl std::borrow::BorrowMut<Command>, what: &str) -> Output {
    finish(cmd.borrow_mut().spawn().expect("spawn sd_build"), what)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// How a build ended, for a failed assertion: the exit status (a signal shows as such) and what
/// it printed, so a crash after the last effect can be told from one in the middle.
fn report(o: &Output) -> String {
    format!(
        "{:?}\n--- stdout ({} effects done) ---\n{}\n--- stderr ---\n{}",
        o.status,
        text(&o.stdout).lines().count(),
        text(&o.stdout),
        text(&o.stderr)
    )
}

/// Every artifact under `out/shadowdusk`, by path relative to it, with the out folder's own
/// path written as `<OUT>` (manifests name their `.mgfx` absolutely).
fn artifacts(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let base = out.join(artifact::DIR);
    let mut files = BTreeMap::new();
    for e in walkdir::WalkDir::new(&base)
        .into_iter()
        .filter_map(Result::ok)
    {
        if !e.file_type().is_file() {
            continue;
        }
        let rel = e.path().strip_prefix(&base).expect("under base");
        let bytes = std::fs::read(e.path()).expect("read artifact");
        let bytes = text(&bytes)
            .replace(&out.display().to_string(), "<OUT>")
            .into_bytes();
        files.insert(rel.display().to_string(), bytes);
    }
    files
}

fn temporaries(out: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(out)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .map(|e| e.into_path())
        .collect()
}

/// What `include_effect!` would accept: manifests whose recorded sources are the files on disk
/// now. Each of those must have a whole `.mgfx` that parses (a torn write never looks current).
fn trusted(out: &Path) -> Vec<String> {
    let mut ok = Vec::new();
    for e in walkdir::WalkDir::new(out)
        .into_iter()
        .filter_map(Result::ok)
    {
        if e.path().extension().is_none_or(|x| x != "json") {
            continue;
        }
        let Some(m) = Manifest::load(e.path()) else {
            continue;
        };
        if artifact::sources_hash(&m.reflection.files_read).as_deref()
            != Some(m.sources_hash.as_str())
        {
            continue;
        }
        let bytes = std::fs::read(&m.mgfx).expect("a current manifest's .mgfx exists");
        let effect = shadowdusk_mgfx::read(&bytes).expect("a current manifest's .mgfx parses");
        assert!(!effect.techniques.is_empty());
        ok.push(m.relative.display().to_string());
    }
    ok
}

#[test]
fn the_corpus_builds_byte_identical_with_1_2_and_8_jobs() {
    if dxc().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut outputs = Vec::new();
    for jobs in ["1", "2", "8"] {
        let out = tmp.path().join(format!("out-{jobs}"));
        let o = run(
            sd_build(&corpus_root(), &out, &["--dir", "corpus", "--jobs", jobs]),
            "corpus build",
        );
        assert!(o.status.success(), "{jobs} jobs: {}", report(&o));
        outputs.push((jobs, artifacts(&out)));
    }
    let (_, first) = &outputs[0];
    let kinds = |ext: &str| first.keys().filter(|k| k.ends_with(ext)).count();
    assert!(
        kinds(".mgfx") >= 60 && kinds(".rs") == kinds(".mgfx") && kinds(".json") == kinds(".mgfx")
    );
    for (jobs, files) in &outputs[1..] {
        assert_eq!(
            files.keys().collect::<Vec<_>>(),
            first.keys().collect::<Vec<_>>(),
            "{jobs} jobs"
        );
        for (name, bytes) in files {
            assert!(
                bytes == &first[name],
                "{name} differs between 1 and {jobs} jobs"
            );
        }
    }
}

#[test]
fn two_builds_sharing_a_cache_at_once_both_succeed_identically() {
    if dxc().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let cache = tmp.path().join("cache");
    let cache_arg = cache.display().to_string();
    let spawn = |name: &str| {
        let out = tmp.path().join(name);
        let args = ["--dir", "corpus", "--cache", &cache_arg, "--jobs", "2"];
        (
            out.clone(),
            sd_build(&corpus_root(), &out, &args)
                .spawn()
                .expect("spawn"),
        )
    };
    let (out_a, a) = spawn("a");
    let (out_b, b) = spawn("b");
    let (ra, rb) = (finish(a, "build a"), finish(b, "build b"));
    assert!(ra.status.success(), "a: {}", report(&ra));
    assert!(rb.status.success(), "b: {}", report(&rb));
    let (fa, fb) = (artifacts(&out_a), artifacts(&out_b));
    assert_eq!(fa.len(), fb.len());
    for (name, bytes) in &fa {
        let other = text(&fb[name]).replace("<OUT>", "");
        assert_eq!(text(bytes).replace("<OUT>", ""), other, "{name}");
    }
    assert_eq!(trusted(&out_a).len() * 3, fa.len());
    // A third build into an empty folder is served from the shared cache alone.
    let out_c = tmp.path().join("c");
    let rc = run(
        sd_build(
            &corpus_root(),
            &out_c,
            &["--dir", "corpus", "--cache", &cache_arg],
        )
        .stdout(Stdio::piped()),
        "build c",
    );
    assert!(rc.status.success(), "c: {}", report(&rc));
    let lines = text(&rc.stdout);
    let origins: Vec<&str> = lines.lines().filter(|l| !l.starts_with("cargo:")).collect();
    assert!(!origins.is_empty());
    assert!(
        origins.iter().all(|l| l.starts_with("shared-cache ")),
        "not every effect came from the cache:\n{lines}"
    );
    assert_eq!(artifacts(&out_c).len(), fa.len());
}

#[test]
fn a_build_killed_while_writing_leaves_nothing_trusted_and_the_next_build_completes() {
    if dxc().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let reference = tmp.path().join("reference");
    let r = run(
        sd_build(
            &corpus_root(),
            &reference,
            &["--dir", "corpus", "--jobs", "2"],
        ),
        "reference build",
    );
    assert!(r.status.success(), "reference build: {}", report(&r));

    let out = tmp.path().join("killed");
    // Each write pauses between its temporary file and the rename (debug builds only).
    let mut child = sd_build(&corpus_root(), &out, &["--dir", "corpus", "--jobs", "1"])
        .env("SHADOWDUSK_TEST_WRITE_PAUSE_MS", "150")
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    // Let a few effects finish, then kill it while a temporary file is open for renaming.
    loop {
        let done = walkdir::WalkDir::new(&out)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
            .count();
        if done >= 3 && !temporaries(&out).is_empty() {
            break;
        }
        assert!(start.elapsed() < HANG, "the paused build never wrote");
        assert!(
            child.try_wait().expect("wait").is_none(),
            "the build ended before the kill"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    assert!(
        !temporaries(&out).is_empty(),
        "killed between a write and its rename"
    );
    // Whatever it left, everything a later build or the macro would trust is whole and current.
    let half = trusted(&out);
    assert!(!half.is_empty());

    let again = run(
        sd_build(&corpus_root(), &out, &["--dir", "corpus", "--jobs", "2"]),
        "build after the kill",
    );
    assert!(again.status.success(), "{}", report(&again));
    assert!(
        temporaries(&out).is_empty(),
        "stale temporaries were left behind"
    );
    let (got, want) = (artifacts(&out), artifacts(&reference));
    assert_eq!(got.len(), want.len());
    for (name, bytes) in &want {
        assert!(
            got.get(name) == Some(bytes),
            "{name} differs from a clean build"
        );
    }
}

/// A crate with three effects that each include `inc/light.fxh` through an include folder.
fn include_fixture(root: &Path) {
    std::fs::create_dir_all(root.join("shaders")).expect("mkdir");
    std::fs::create_dir_all(root.join("inc")).expect("mkdir");
    std::fs::write(
        root.join("inc/light.fxh"),
        "float4 Light = float4(1, 0.5, 0.25, 1);\n",
    )
    .expect("write");
    for name in ["a", "b", "c", "d", "e", "f"] {
        std::fs::write(
            root.join(format!("shaders/{name}.fx")),
            format!(
                "#include \"light.fxh\"\nfloat4 {name}PS(float2 uv : TEXCOORD0) : COLOR0 {{ return Light * uv.x; }}\n\
                 technique T {{ pass P {{ PixelShader = compile ps_2_0 {name}PS(); }} }}\n"
            ),
        )
        .expect("write");
    }
}

#[test]
fn faults_are_one_clear_message_and_never_a_hang() {
    if dxc().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path().join("crate");
    include_fixture(&root);
    let args = ["--dir", "shaders", "--include", "inc", "--jobs", "1"];

    // DXC missing: one message that says how to get it, not one per effect.
    let o = run(
        sd_build(&root, &tmp.path().join("o1"), &args)
            .env("SHADOWDUSK_DXC", "/nonexistent/libdxcompiler.so"),
        "build without DXC",
    );
    let err = text(&o.stderr);
    assert!(!o.status.success());
    assert_eq!(err.matches("SHADOWDUSK_DXC").count(), 1, "{err}");
    assert!(err.contains("/nonexistent/libdxcompiler.so"), "{err}");
    assert!(err.lines().count() < 6, "{err}");

    // An OUT_DIR nothing can write (not even root): /proc refuses new folders.
    let o = run(
        sd_build(&root, Path::new("/proc/self/shadowdusk-out"), &args),
        "unwritable out",
    );
    let err = text(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("/proc/self/shadowdusk-out"), "{err}");
    assert!(err.lines().count() < 40, "{err}");

    // The include folder disappears while the build runs: the effects after it fail, each
    // naming the include it could not find, and the build ends.
    let out = tmp.path().join("o3");
    let mut child = sd_build(&root, &out, &args)
        .env("SHADOWDUSK_TEST_WRITE_PAUSE_MS", "100")
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    while temporaries(&out).is_empty() {
        assert!(start.elapsed() < HANG, "the paused build never wrote");
        assert!(
            child.try_wait().expect("wait").is_none(),
            "ended before the fault"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    std::fs::remove_dir_all(root.join("inc")).expect("remove the include folder");
    let o = finish(child, "build losing its include folder");
    let err = text(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains("SD0001") && err.contains("light.fxh"), "{err}");
    // The effects built before the fault read the vanished header: none of them is current
    // any more (currency is the contents of every file read, not times).
    assert!(trusted(&out).is_empty());
}

/// Two checkouts share an `OUT_DIR` (as cargo gives them when they share a target folder): the
/// second one's build is killed half-way, having replaced some of the first one's artifacts
/// with its own and remembered nothing. The first one's next build still gives exactly its
/// own artifacts.
#[test]
fn another_checkouts_build_killed_half_way_leaves_nothing_served_to_the_first() {
    if dxc().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    include_fixture(&a);
    include_fixture(&b);
    let light = b.join("inc/light.fxh");
    let header = std::fs::read_to_string(&light).expect("read");
    std::fs::write(&light, header.replace("0.25", "0.75")).expect("write");
    // Settled: the first build remembers its effects by their stamps.
    std::thread::sleep(Duration::from_millis(2300));
    let out = tmp.path().join("out");
    let args = ["--dir", "shaders", "--include", "inc", "--jobs", "1"];
    let built = run(sd_build(&a, &out, &args), "build of a");
    assert!(built.status.success(), "{}", report(&built));

    let mut child = sd_build(&b, &out, &args)
        .env("SHADOWDUSK_TEST_WRITE_PAUSE_MS", "150")
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    let of_b = |out: &Path| {
        walkdir::WalkDir::new(out)
            .into_iter()
            .filter_map(Result::ok)
            .filter_map(|e| Manifest::load(e.path()))
            .filter(|m| m.root == b)
            .count()
    };
    while of_b(&out) < 2 || temporaries(&out).is_empty() {
        assert!(start.elapsed() < HANG, "the paused build never wrote");
        assert!(
            child.try_wait().expect("wait").is_none(),
            "the build ended before the kill"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("SIGKILL");
    let _ = child.wait();

    let again = run(sd_build(&a, &out, &args), "build of a after b's");
    assert!(again.status.success(), "{}", report(&again));
    let clean = tmp.path().join("clean");
    let r = run(sd_build(&a, &clean, &args), "clean build of a");
    assert!(r.status.success(), "{}", report(&r));
    let (got, want) = (artifacts(&out), artifacts(&clean));
    assert_eq!(got.len(), want.len());
    for (name, bytes) in &want {
        assert!(
            got.get(name) == Some(bytes),
            "{name} is not the first checkout's own; the build said:\n{}",
            text(&again.stdout)
        );
    }
}
