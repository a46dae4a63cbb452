//! A source saved in the middle of a build: the build compiles the text it read, stores it under
//! that text's key, and the next build recompiles; the artifact then equals a clean build of the
//! new text, and after a revert, a clean build of the old one (a revert is what finds an artifact
//! stored under the wrong key: the cache serves it).
//!
//! The builds run as processes of their own (`sd_build`, `sd_expand`), held at one point by a
//! debug-build gate (`shadowdusk_compiler::plumbing::test_gate`): the Builder while a compile
//! waits for its job token (`SHADOWDUSK_TEST_TOKEN_GATE`) and once its compile has started
//! (`SHADOWDUSK_TEST_COMPILE_GATE`), and `include_effect!(…, in_process)` once its compile has
//! started. The source is edited while the gate is shut, and the gate is opened more than the
//! stamps' settling time later, so a stamp taken after the edit would look settled.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use shadowdusk_compiler::artifact::{self, Manifest};

/// No build here takes this long; a run that does has hung.
const HANG: Duration = Duration::from_secs(240);
/// More than the Builder's stamps need to settle (`stamps::SETTLE`, two seconds).
const SETTLED: Duration = Duration::from_millis(2300);

const TINT: &str = "\
sampler s0;
float Amount = 0.25;

float4 MainPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return tex2D(s0, uv) * color * Amount;
}

technique Tint { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
";

const GLOW: &str = "\
#include \"include/common.fxh\"
sampler s0;

float4 MainPS(float2 uv : TEXCOORD0) : COLOR0
{
    return tex2D(s0, uv) * Glow;
}

technique Glow { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
";

const COMMON: &str = "float4 Glow = float4(1, 0.5, 0.25, 1);\n";

fn dxc_or_skip(test: &str) -> bool {
    if shadowdusk_compiler::dxc::available() {
        return true;
    }
    shadowdusk_tests::skip(test, "DXC unavailable (run `cargo xtask setup`)");
    false
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).expect("read");
    assert!(text.contains(from), "{} lacks {from:?}", path.display());
    std::fs::write(path, text.replace(from, to)).expect("write");
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Waits for `child`, killing it and failing the test after [`HANG`].
fn finish(mut child: Child, what: &str) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            let out = child.wait_with_output().expect("output");
            assert!(
                out.status.success(),
                "{what}: {:?}\n{}{}",
                out.status,
                text(&out.stdout),
                text(&out.stderr)
            );
            return out;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("{what} hung for {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A gate (`plumbing::test_gate`) the child process named by `var` waits at.
struct Gate {
    dir: PathBuf,
    var: &'static str,
}

impl Gate {
    fn new(dir: PathBuf, var: &'static str) -> Gate {
        Gate { dir, var }
    }

    /// Waits until `child` is held at the gate.
    fn wait_until_held(&self, child: &mut Child) {
        let start = Instant::now();
        while !self.dir.join("waiting").exists() {
            assert!(
                child.try_wait().expect("wait").is_none(),
                "the build ended before the gate"
            );
            assert!(start.elapsed() < HANG, "the build never reached the gate");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn open(&self) {
        std::fs::write(self.dir.join("open"), b"").expect("open the gate");
    }
}

/// A crate root with effects, and the Builder run on it as a build script would.
struct Crate {
    tmp: tempfile::TempDir,
    root: PathBuf,
}

impl Crate {
    fn new(files: &[(&str, &str)]) -> Crate {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().join("crate");
        for (rel, text) in files {
            write(&root.join(rel), text);
        }
        // Settled before the first build reads them: the stamps of that read are remembered.
        std::thread::sleep(SETTLED);
        Crate { tmp, root }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    fn scratch(&self, name: &str) -> PathBuf {
        self.tmp.path().join(name)
    }

    /// `sd_build` into `out` with the shared cache `cache`, one job.
    fn sd_build(&self, out: &Path, cache: &Path) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_sd_build"));
        c.arg(&self.root)
            .arg(out)
            .args(["--dir", "shaders", "--jobs", "1", "--cache"])
            .arg(cache)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }

    /// A build into `out` with `cache`: each effect's origin (`compiled`, `out-dir`, …).
    fn build(&self, out: &Path, cache: &Path, what: &str) -> BTreeMap<String, String> {
        let child = self.sd_build(out, cache).spawn().expect("spawn sd_build");
        let o = finish(child, what);
        text(&o.stdout)
            .lines()
            .filter_map(|l| l.split_once(' '))
            .map(|(origin, rel)| (rel.to_string(), origin.to_string()))
            .collect()
    }

    /// The artifacts a build from nothing makes of the sources as they are now.
    fn clean_build(&self, name: &str) -> BTreeMap<String, Vec<u8>> {
        let out = self.scratch(name);
        let origins = self.build(&out, &self.scratch(&format!("{name}-cache")), name);
        assert!(origins.values().all(|o| o == "compiled"), "{origins:?}");
        artifacts(&out)
    }
}

/// Every artifact under `out/shadowdusk`, by path relative to it, with `out` written as
/// `<OUT>` (manifests name their `.mgfx` absolutely).
fn artifacts(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let base = out.join(artifact::DIR);
    let mut files = BTreeMap::new();
    for e in walkdir::WalkDir::new(&base)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
    {
        let rel = e.path().strip_prefix(&base).expect("under base");
        let bytes = std::fs::read(e.path()).expect("read artifact");
        let bytes = text(&bytes)
            .replace(&out.display().to_string(), "<OUT>")
            .into_bytes();
        files.insert(rel.display().to_string(), bytes);
    }
    files
}

/// Whether the artifacts equal a clean build's, naming the first file that differs.
fn assert_same(got: &BTreeMap<String, Vec<u8>>, want: &BTreeMap<String, Vec<u8>>, when: &str) {
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>(),
        "{when}"
    );
    for (name, bytes) in want {
        assert!(
            got[name] == *bytes,
            "{when}: {name} differs from a clean build of the same text:\n{}\n--- clean ---\n{}",
            text(&got[name]),
            text(bytes)
        );
    }
}

/// Every manifest in `out` records the hash of the files as they are now (what
/// `include_effect!` checks before it takes an artifact).
fn all_current(out: &Path) -> bool {
    walkdir::WalkDir::new(out)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| Manifest::load(e.path()))
        .all(|m| {
            artifact::sources_hash(&m.reflection.files_read).as_deref()
                == Some(m.sources_hash.as_str())
        })
}

/// One Builder scenario: build with `var`'s gate shut, edit `rel` from `from` to `to` while it
/// is held, open the gate past the settling time; then the next build recompiles and equals a
/// clean build of the new text, and after a revert, a clean build of the old text.
fn builder_scenario(files: &[(&str, &str)], var: &'static str, rel: &str, from: &str, to: &str) {
    let k = Crate::new(files);
    let (out, cache) = (k.scratch("out"), k.scratch("cache"));
    let gate = Gate::new(k.scratch("gate"), var);
    let mut child = k
        .sd_build(&out, &cache)
        .env(gate.var, &gate.dir)
        .spawn()
        .expect("spawn sd_build");
    gate.wait_until_held(&mut child);
    edit(&k.path(rel), from, to);
    std::thread::sleep(SETTLED);
    gate.open();
    finish(child, "the held build");
    // What it stored is the text it read, under that text's key: not current any more.
    assert!(
        !all_current(&out),
        "the held build's artifacts claim the edited text"
    );

    let origins = k.build(&out, &cache, "the build after the edit");
    assert!(
        origins.values().all(|o| o == "compiled"),
        "the edit was not recompiled: {origins:?}"
    );
    assert!(all_current(&out));
    assert_same(
        &artifacts(&out),
        &k.clean_build("clean-new"),
        "after the edit",
    );

    edit(&k.path(rel), to, from);
    let origins = k.build(&out, &cache, "the build after the revert");
    assert!(origins.values().all(|o| o != "out-dir"), "{origins:?}");
    assert!(all_current(&out));
    assert_same(
        &artifacts(&out),
        &k.clean_build("clean-old"),
        "after the revert",
    );
}

#[test]
fn a_source_saved_while_its_compile_runs_is_recompiled_next_build() {
    if !dxc_or_skip("a_source_saved_while_its_compile_runs_is_recompiled_next_build") {
        return;
    }
    builder_scenario(
        &[("shaders/tint.fx", TINT)],
        shadowdusk_compiler::plumbing::COMPILE_GATE,
        "shaders/tint.fx",
        "float Amount = 0.25;",
        "float Amount = 0.75;",
    );
}

#[test]
fn an_include_saved_while_its_compile_waits_for_a_token_is_recompiled_next_build() {
    let test = "an_include_saved_while_its_compile_waits_for_a_token_is_recompiled_next_build";
    if !dxc_or_skip(test) {
        return;
    }
    builder_scenario(
        &[
            ("shaders/glow.fx", GLOW),
            ("shaders/include/common.fxh", COMMON),
        ],
        "SHADOWDUSK_TEST_TOKEN_GATE",
        "shaders/include/common.fxh",
        "float4(1, 0.5, 0.25, 1)",
        "float4(0.5, 0.5, 0.5, 1)",
    );
}

/// `include_effect!(…, in_process)` of `shaders/tint.fx` in `k`, cached in `cache`: the tokens
/// with the cache folder written as `<CACHE>`, and the bytes of the `.mgfx` they include.
fn expand(k: &Crate, cache: &Path, gate: Option<&Gate>) -> (String, Vec<u8>) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sd_expand"));
    c.arg(&k.root)
        .arg("shaders/tint.fx")
        .arg(cache)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match gate {
        Some(g) => c.env(g.var, &g.dir).spawn(),
        None => c.spawn(),
    }
    .expect("spawn sd_expand");
    if let Some(g) = gate {
        g.wait_until_held(&mut child);
        edit(
            &k.path("shaders/tint.fx"),
            "float Amount = 0.25;",
            "float Amount = 0.75;",
        );
        std::thread::sleep(SETTLED);
        g.open();
    }
    let tokens = text(&finish(child, "sd_expand").stdout);
    assert!(!tokens.contains("compile_error"), "{tokens}");
    let shown = cache.display().to_string();
    let at = tokens
        .find(&shown)
        .unwrap_or_else(|| panic!("MGFX is not in the cache folder:\n{tokens}"));
    let end = at + tokens[at..].find(".mgfx").expect("the .mgfx path") + ".mgfx".len();
    let bytes = std::fs::read(&tokens[at..end]).expect("the cached .mgfx");
    (tokens.replace(&shown, "<CACHE>"), bytes)
}

#[test]
fn in_process_a_source_saved_while_its_compile_runs_is_recompiled_next_expansion() {
    let test = "in_process_a_source_saved_while_its_compile_runs_is_recompiled_next_expansion";
    if !dxc_or_skip(test) {
        return;
    }
    let k = Crate::new(&[("shaders/tint.fx", TINT)]);
    let cache = k.scratch("expansions");
    let gate = Gate::new(
        k.scratch("gate"),
        shadowdusk_compiler::plumbing::COMPILE_GATE,
    );
    let held = expand(&k, &cache, Some(&gate));
    let clean = |name: &str| expand(&k, &k.scratch(name), None);

    let next = expand(&k, &cache, None);
    assert_same_expansion(&next, &clean("clean-new"), "after the edit");
    assert!(defaults(&next.0).contains("0.75"), "{}", next.0);

    edit(
        &k.path("shaders/tint.fx"),
        "float Amount = 0.75;",
        "float Amount = 0.25;",
    );
    let reverted = expand(&k, &cache, None);
    let old = clean("clean-old");
    assert_same_expansion(&reverted, &old, "after the revert");
    // The held expansion was of the text it read.
    assert_same_expansion(&held, &old, "the held expansion");
}

/// The `Params::DEFAULT` of an expansion: where the edited `Amount` shows.
fn defaults(tokens: &str) -> &str {
    let at = tokens.find("pub const DEFAULT").unwrap_or(0);
    let end = tokens[at..].find(';').map_or(tokens.len(), |e| at + e);
    &tokens[at..end]
}

fn assert_same_expansion(got: &(String, Vec<u8>), want: &(String, Vec<u8>), when: &str) {
    assert!(
        got == want,
        "{when}: not a clean expansion of the same text (`{}`; clean: `{}`)",
        defaults(&got.0),
        defaults(&want.0)
    );
}
