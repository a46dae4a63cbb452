//! The builder against real files in temporary crate roots, with DXC.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::*;
use shadowdusk_compiler::artifact::Manifest;

mod builder_id;

const A: &str = "\
// a.fx: a Nez-style pixel effect with a baked default.
sampler s0;
float Amount = 0.25;

float4 MainPS(float2 uv : TEXCOORD0) : COLOR0
{
    return tex2D(s0, uv) * Amount;
}

technique T { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
";

const B: &str = "\
// b.fx: reads its uniform and helper from an include.
#include \"include/common.fxh\"
sampler s0;

float4 MainPS(float2 uv : TEXCOORD0) : COLOR0
{
    return Shade(tex2D(s0, uv));
}

technique T { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
";

const COMMON: &str = "\
float4 Tint = float4(1, 0.5, 0.25, 1);
float4 Shade(float4 c) { return c * Tint; }
";

fn skip(test: &str) -> bool {
    if shadowdusk_compiler::dxc::available() {
        return false;
    }
    let why = "DXC unavailable (run `cargo xtask setup` or set SHADOWDUSK_DXC)";
    shadowdusk_testkit::skip(test, why);
    true
}

/// A crate root with `shaders/{a,b}.fx` and `shaders/include/common.fxh`, and an out dir.
struct Fixture {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    out: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().join("crate");
        let out = tmp.path().join("out");
        let f = Fixture {
            _tmp: tmp,
            root,
            out,
        };
        f.write("shaders/a.fx", A);
        f.write("shaders/b.fx", B);
        f.write("shaders/include/common.fxh", COMMON);
        f
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    fn edit(&self, rel: &str, from: &str, to: &str) {
        let p = self.root.join(rel);
        let text = std::fs::read_to_string(&p).expect("read");
        assert!(text.contains(from), "{rel} does not contain {from:?}");
        std::fs::write(p, text.replace(from, to)).expect("write");
    }

    /// A builder over `shaders/` that never looks at the process environment.
    fn builder(&self, lines: &Arc<Mutex<Vec<String>>>) -> Builder {
        let mut b = Builder::new();
        b.manifest_dir(&self.root)
            .out_dir(&self.out)
            .no_cache_dir()
            .jobs(2)
            .dir("shaders")
            .capture(lines.clone());
        b
    }

    fn build(&self) -> (Result<Artifacts, BuildError>, Vec<String>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let r = self.builder(&lines).try_compile();
        let lines = lines.lock().expect("lines").clone();
        (r, lines)
    }
}

fn ok(r: Result<Artifacts, BuildError>) -> Artifacts {
    r.unwrap_or_else(|e| panic!("build failed:\n{e}"))
}

fn origins(a: &Artifacts) -> Vec<(String, Origin)> {
    a.effects
        .iter()
        .map(|e| (e.relative.display().to_string(), e.origin))
        .collect()
}

fn mtime(p: &Path) -> SystemTime {
    std::fs::metadata(p)
        .and_then(|m| m.modified())
        .expect("mtime")
}

#[test]
fn artifacts_are_written_and_read_back() {
    if skip("artifacts_are_written_and_read_back") {
        return;
    }
    let f = Fixture::new();
    let a = ok(f.build().0);
    assert_eq!(
        origins(&a),
        [
            ("shaders/a.fx".into(), Origin::Compiled),
            ("shaders/b.fx".into(), Origin::Compiled)
        ]
    );
    let b = a.get("shaders/b.fx").expect("b");
    assert_eq!(b.paths.mgfx, f.out.join("shadowdusk/shaders/b.mgfx"));
    let bytes = std::fs::read(&b.paths.mgfx).expect("mgfx");
    let effect = shadowdusk_mgfx::read(&bytes).expect("mgfx reads back");
    assert_eq!(effect.techniques[0].name, "T");
    assert!(effect.parameters.iter().any(|p| p.name == "Tint"));

    let m = Manifest::load(&b.paths.manifest).expect("manifest loads");
    assert_eq!(m.cache_key, b.cache_key);
    assert_eq!(m.relative, Path::new("shaders/b.fx"));
    assert_eq!(m.source, f.root.join("shaders/b.fx"));
    assert_eq!(m.mgfx, b.paths.mgfx);
    assert_eq!(m.layout, cache::layout_of(&effect));
    assert!(m.layout.shaders.iter().all(|s| s.code.is_empty()));
    assert!(!effect.shaders[0].code.is_empty());
    assert_eq!(
        m.reflection.files_read,
        [
            f.root.join("shaders/b.fx"),
            f.root.join("shaders/include/common.fxh")
        ]
    );
    let tint = m
        .reflection
        .parameters
        .iter()
        .find(|p| p.name == "Tint")
        .expect("Tint reflected");
    let loc = tint.location.as_ref().expect("Tint location");
    assert_eq!(
        (loc.file.as_path(), loc.line),
        (f.root.join("shaders/include/common.fxh").as_path(), 1)
    );
    assert_eq!(tint.default.as_deref(), Some(&[1.0, 0.5, 0.25, 1.0][..]));

    let code = std::fs::read_to_string(&b.paths.code).expect("code");
    assert!(code.contains("pub mod b {"), "{code}");
    let mgfx_literal = format!("\"{}\"", b.paths.mgfx.display());
    assert!(
        code.contains("include_bytes!(") && code.contains(&mgfx_literal),
        "no include_bytes!({mgfx_literal}) in\n{code}"
    );
    assert!(code.contains("pub fn set_tint("), "{code}");
}

#[test]
fn directives_name_every_file_read_and_the_folder() {
    if skip("directives_name_every_file_read_and_the_folder") {
        return;
    }
    let f = Fixture::new();
    let (r, lines) = f.build();
    ok(r);
    let rerun = |p: PathBuf| format!("cargo:rerun-if-changed={}", p.display());
    let expected = [
        rerun(f.root.join("shaders/a.fx")),
        rerun(f.root.join("shaders/b.fx")),
        rerun(f.root.join("shaders/include/common.fxh")),
        rerun(f.root.join("shaders")),
        "cargo:rerun-if-env-changed=SHADOWDUSK_DXC".into(),
        "cargo:rerun-if-env-changed=SHADOWDUSK_CACHE_DIR".into(),
    ];
    assert_eq!(lines[..expected.len()], expected, "{lines:#?}");
    assert_eq!(lines.len(), expected.len() + 1, "{lines:#?}");
    let summary = &lines[expected.len()];
    assert!(
        summary.starts_with("shadowdusk: 2 effects (2 compiled, 0 cached) in "),
        "{summary}"
    );

    let lines = Arc::new(Mutex::new(Vec::new()));
    f.builder(&lines)
        .cargo_directives(false)
        .summary(false)
        .try_compile()
        .expect("build");
    assert!(lines.lock().expect("lines").is_empty());
}

#[test]
fn unchanged_effects_are_cache_hits_that_write_nothing() {
    if skip("unchanged_effects_are_cache_hits_that_write_nothing") {
        return;
    }
    let f = Fixture::new();
    let first = ok(f.build().0);
    let files: Vec<PathBuf> = first
        .effects
        .iter()
        .flat_map(|e| {
            [
                e.paths.mgfx.clone(),
                e.paths.manifest.clone(),
                e.paths.code.clone(),
            ]
        })
        .collect();
    let before: Vec<SystemTime> = files.iter().map(|p| mtime(p)).collect();
    std::thread::sleep(std::time::Duration::from_millis(20));

    let (r, lines) = f.build();
    let second = ok(r);
    assert_eq!(second.compiled(), 0);
    assert!(second
        .effects
        .iter()
        .all(|e| e.origin == Origin::OutDir && e.timings.compile.is_none()));
    assert_eq!(
        second
            .effects
            .iter()
            .map(|e| &e.cache_key)
            .collect::<Vec<_>>(),
        first
            .effects
            .iter()
            .map(|e| &e.cache_key)
            .collect::<Vec<_>>()
    );
    let after: Vec<SystemTime> = files.iter().map(|p| mtime(p)).collect();
    assert_eq!(before, after, "a cache hit rewrote artifacts");
    assert!(lines
        .last()
        .is_some_and(|l| l.starts_with("shadowdusk: 2 effects (0 compiled, 2 cached)")));
}

#[test]
fn an_edit_recompiles_exactly_the_effects_that_read_the_file() {
    if skip("an_edit_recompiles_exactly_the_effects_that_read_the_file") {
        return;
    }
    let f = Fixture::new();
    ok(f.build().0);

    f.edit(
        "shaders/a.fx",
        "float Amount = 0.25;",
        "float Amount = 0.75;",
    );
    let a = ok(f.build().0);
    assert_eq!(
        origins(&a),
        [
            ("shaders/a.fx".into(), Origin::Compiled),
            ("shaders/b.fx".into(), Origin::OutDir)
        ]
    );
    let m = Manifest::load(&a.effects[0].paths.manifest).expect("manifest");
    assert_eq!(
        m.reflection.parameters[0].default.as_deref(),
        Some(&[0.75][..])
    );

    f.edit("shaders/include/common.fxh", "0.25, 1)", "0.125, 1)");
    let a = ok(f.build().0);
    assert_eq!(
        origins(&a),
        [
            ("shaders/a.fx".into(), Origin::OutDir),
            ("shaders/b.fx".into(), Origin::Compiled)
        ]
    );

    // A define is an option of every effect.
    let lines = Arc::new(Mutex::new(Vec::new()));
    let a = f
        .builder(&lines)
        .define("EXTRA", None)
        .try_compile()
        .expect("build");
    assert_eq!(a.compiled(), 2);
}

#[test]
fn an_edit_that_keeps_the_bytes_keeps_the_mgfx_current() {
    if skip("an_edit_that_keeps_the_bytes_keeps_the_mgfx_current") {
        return;
    }
    let f = Fixture::new();
    let first = ok(f.build().0);
    let mgfx = &first.get("shaders/a.fx").expect("a").paths.mgfx;
    let bytes = std::fs::read(mgfx).expect("mgfx");
    std::thread::sleep(std::time::Duration::from_millis(20));
    f.edit("shaders/a.fx", "// a.fx:", "// a.fx (comment edited):");

    let a = ok(f.build().0);
    assert_eq!(a.get("shaders/a.fx").expect("a").origin, Origin::Compiled);
    assert_eq!(std::fs::read(mgfx).expect("mgfx"), bytes);
    // include_effect! trusts the artifact only when it is not older than its sources.
    assert!(mtime(mgfx) >= mtime(&f.root.join("shaders/a.fx")));
}

#[test]
fn errors_name_file_line_and_column_and_other_effects_still_build() {
    if skip("errors_name_file_line_and_column_and_other_effects_still_build") {
        return;
    }
    let f = Fixture::new();
    f.write(
        "shaders/bad_type.fx",
        "sampler s0;\n\nfloat4 MainPS(float2 uv : TEXCOORD0) : COLOR0\n{\n    return tex2D(s0, uv) * Missing;\n}\n\ntechnique T { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }\n",
    );
    f.write(
        "shaders/bad_include.fx",
        "#include \"include/common.fxh\"\n#include \"include/nope.fxh\"\n",
    );
    let (r, lines) = f.build();
    let e = r.expect_err("two effects are broken");
    let failed: Vec<_> = e.failures().iter().map(|x| x.relative.clone()).collect();
    assert_eq!(
        failed,
        [
            PathBuf::from("shaders/bad_include.fx"),
            PathBuf::from("shaders/bad_type.fx")
        ]
    );
    let text = e.to_string();
    assert!(
        text.contains("shaders/bad_include.fx:2:10: error[SD0001]: "),
        "{text}"
    );
    assert!(text.contains("shaders/bad_type.fx:5:28: error["), "{text}");
    assert!(text.contains("Missing"), "{text}");
    assert!(text.contains("2 │ #include \"include/nope.fxh\""), "{text}");
    assert!(
        !text.contains(&f.root.display().to_string()),
        "paths are shown relative to the crate root:\n{text}"
    );
    assert!(text.ends_with("error: shadowdusk: 2 of 4 effects failed to compile"));
    assert!(e.failures()[0].error.is_some());

    // The good effects are written; the broken ones are still watched, with what they read.
    assert!(f.out.join("shadowdusk/shaders/a.mgfx").is_file());
    let common = format!(
        "cargo:rerun-if-changed={}",
        f.root.join("shaders/include/common.fxh").display()
    );
    let bad = format!(
        "cargo:rerun-if-changed={}",
        f.root.join("shaders/bad_include.fx").display()
    );
    assert!(
        lines.contains(&common) && lines.contains(&bad),
        "{lines:#?}"
    );
    assert!(lines
        .last()
        .is_some_and(|l| l.contains("(2 compiled, 0 cached, 2 failed)")));
}

#[test]
fn setup_errors_are_errors_not_panics() {
    let f = Fixture::new();
    let lines = Arc::new(Mutex::new(Vec::new()));
    let e = f
        .builder(&lines)
        .dir("no_such_folder")
        .try_compile()
        .expect_err("missing folder");
    let msg = e.setup_error().expect("setup error");
    assert!(msg.contains("`no_such_folder` does not exist"), "{msg}");
}

#[test]
fn shared_cache_serves_another_crate_with_identical_artifacts() {
    if skip("shared_cache_serves_another_crate_with_identical_artifacts") {
        return;
    }
    let shared = tempfile::tempdir().expect("temp");
    let lines = Arc::new(Mutex::new(Vec::new()));
    let one = Fixture::new();
    let a = one
        .builder(&lines)
        .cache_dir(shared.path())
        .try_compile()
        .expect("build one");
    assert_eq!(a.compiled(), 2);
    let entries = std::fs::read_dir(shared.path()).expect("cache").count();
    assert_eq!(entries, 4, "a .mgfx and a .json per effect");

    // Another crate at another place with the same files: every effect comes from the cache.
    let two = Fixture::new();
    let b = two
        .builder(&lines)
        .cache_dir(shared.path())
        .try_compile()
        .expect("build two");
    assert!(b.effects.iter().all(|e| e.origin == Origin::SharedCache));
    let read = |a: &Artifacts| -> Vec<Vec<u8>> {
        a.effects
            .iter()
            .flat_map(|e| [&e.paths.mgfx, &e.paths.manifest, &e.paths.code])
            .map(|p| std::fs::read(p).expect("artifact"))
            .collect()
    };
    let from_cache = read(&b);
    let m = Manifest::load(&b.effects[1].paths.manifest).expect("manifest");
    assert_eq!(m.source, two.root.join("shaders/b.fx"));
    assert_eq!(
        m.reflection.files_read[1],
        two.root.join("shaders/include/common.fxh")
    );

    // The same crate compiled without the cache writes the very same bytes.
    std::fs::remove_dir_all(&two.out).expect("clear out");
    let c = two.builder(&lines).try_compile().expect("build three");
    assert_eq!(c.compiled(), 2);
    assert_eq!(read(&c), from_cache);
}

#[test]
fn a_damaged_shared_entry_is_a_miss() {
    if skip("a_damaged_shared_entry_is_a_miss") {
        return;
    }
    let shared = tempfile::tempdir().expect("temp");
    let lines = Arc::new(Mutex::new(Vec::new()));
    let one = Fixture::new();
    let a = one
        .builder(&lines)
        .cache_dir(shared.path())
        .try_compile()
        .expect("build one");
    let key = &a.effects[0].cache_key;
    std::fs::write(shared.path().join(format!("{key}.mgfx")), b"MGFX truncated").expect("damage");

    let two = Fixture::new();
    let b = two
        .builder(&lines)
        .cache_dir(shared.path())
        .try_compile()
        .expect("build two");
    assert_eq!(origins(&b)[0].1, Origin::Compiled);
    assert_eq!(origins(&b)[1].1, Origin::SharedCache);
    assert!(shadowdusk_mgfx::read(&std::fs::read(&b.effects[0].paths.mgfx).expect("mgfx")).is_ok());
}

#[test]
fn output_does_not_depend_on_job_count() {
    if skip("output_does_not_depend_on_job_count") {
        return;
    }
    let f = Fixture::new();
    let lines = Arc::new(Mutex::new(Vec::new()));
    let serial = f.builder(&lines).jobs(1).try_compile().expect("serial");
    let serial_bytes: Vec<Vec<u8>> = serial
        .effects
        .iter()
        .map(|e| std::fs::read(&e.paths.mgfx).expect("mgfx"))
        .collect();
    std::fs::remove_dir_all(&f.out).expect("clear");
    let parallel = f.builder(&lines).jobs(4).try_compile().expect("parallel");
    assert_eq!(parallel.compiled(), 2);
    let parallel_bytes: Vec<Vec<u8>> = parallel
        .effects
        .iter()
        .map(|e| std::fs::read(&e.paths.mgfx).expect("mgfx"))
        .collect();
    assert_eq!(serial_bytes, parallel_bytes);
}

#[test]
fn module_names_follow_the_file_stem() {
    assert_eq!(run::module_name(Path::new("shaders/TintPS.fx")), "tint_ps");
    assert_eq!(run::module_name(Path::new("a/type.fx")), "type_");
    assert_eq!(run::module_name(Path::new("2d-glow.fx")), "effect_2d_glow");
}

#[test]
fn mgfx_v11_is_an_option_that_recompiles_and_names_sources_and_entries() {
    if skip("mgfx_v11_is_an_option_that_recompiles_and_names_sources_and_entries") {
        return;
    }
    let f = Fixture::new();
    let v10 = ok(f.build().0);
    let a10 = v10.get("shaders/a.fx").expect("a");
    let bytes = std::fs::read(&a10.paths.mgfx).expect("mgfx");
    assert_eq!(shadowdusk_mgfx::read(&bytes).expect("v10").version, 10);

    let lines = Arc::new(Mutex::new(Vec::new()));
    let v11 = ok(f
        .builder(&lines)
        .mgfx_version(MgfxVersion::V11)
        .try_compile());
    let a11 = v11.get("shaders/a.fx").expect("a");
    assert_eq!(
        a11.origin,
        Origin::Compiled,
        "the version is part of the cache key"
    );
    assert_ne!(a11.cache_key, a10.cache_key);
    let effect =
        shadowdusk_mgfx::read(&std::fs::read(&a11.paths.mgfx).expect("mgfx")).expect("v11");
    assert_eq!(effect.version, 11);
    let s = &effect.shaders[0];
    assert_eq!(s.source_file.as_deref(), Some("shaders/a.fx"));
    assert_eq!(s.entry_point.as_deref(), Some("MainPS"));
    // Apart from the version and the two strings, the container is the same.
    let mut as_v10 = effect.clone();
    as_v10.version = 10;
    for s in &mut as_v10.shaders {
        s.source_file = None;
        s.entry_point = None;
    }
    let mut old = shadowdusk_mgfx::read(&bytes).expect("v10");
    old.key = as_v10.key;
    assert_eq!(as_v10, old);
}

#[test]
fn the_shared_cache_is_pruned_oldest_first_to_its_bound() {
    let dir = tempfile::tempdir().expect("temp dir");
    let day = std::time::Duration::from_secs(86_400);
    let now = SystemTime::now();
    // Five entries of 1000 + 24 bytes, used 5, 4, 3, 2 and 1 days ago.
    for (i, key) in ["e", "d", "c", "b", "a"].iter().enumerate() {
        std::fs::write(dir.path().join(format!("{key}.mgfx")), vec![0u8; 1000]).unwrap();
        let json = dir.path().join(format!("{key}.json"));
        std::fs::write(&json, vec![b' '; 24]).unwrap();
        let f = std::fs::File::options().append(true).open(&json).unwrap();
        f.set_modified(now - day * (5 - i as u32)).unwrap();
    }
    std::fs::write(dir.path().join("unrelated.txt"), b"kept").unwrap();
    // Within the bound: nothing goes.
    cache::prune(dir.path(), 10_000);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 11);
    // Over it: the oldest go until at most 80 % of 3000 bytes (two entries) is left.
    cache::prune(dir.path(), 3000);
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["a.json", "a.mgfx", "b.json", "b.mgfx", "unrelated.txt"],
        "the two used last stay"
    );
}

/// `name=value` part `name` of a compiler id, with its value replaced by `f(value)`.
fn with_part(id: &str, name: &str, f: impl Fn(&str) -> String) -> String {
    let parts: Vec<String> = id
        .split(';')
        .map(|p| match p.split_once('=') {
            Some((n, v)) if n == name => format!("{n}={}", f(v)),
            _ => p.to_string(),
        })
        .collect();
    let changed = parts.join(";");
    assert_ne!(changed, id, "part {name} did not change in {id}");
    changed
}

/// Each input of the code that compiles moves the key: the Builder's sources, the compiler's,
/// the MGFX writer's, each pinned dependency version, and the DXC library's content hash.
#[test]
fn every_input_of_the_code_that_compiles_moves_the_key() {
    let id = shadowdusk_compiler::COMPILER_ID;
    let real = cache::Toolchain {
        builder: cache::BUILDER_ID.to_string(),
        compiler: id.to_string(),
        dxc: format!("dxcompiler:{}:-spirv -WX", "ab".repeat(32)),
    };
    let bump = |v: &str| format!("{v}.1");
    let flip = |v: &str| {
        let first = if v.starts_with('0') { "1" } else { "0" };
        format!("{first}{}", &v[1..])
    };
    let compiler = |c: String| cache::Toolchain {
        compiler: c,
        ..real.clone()
    };
    let variants = [
        (
            "Builder sources",
            cache::Toolchain {
                builder: with_part(cache::BUILDER_ID, "sources", flip),
                ..real.clone()
            },
        ),
        (
            "Builder version",
            cache::Toolchain {
                builder: with_part(cache::BUILDER_ID, "version", bump),
                ..real.clone()
            },
        ),
        ("compiler sources", compiler(with_part(id, "sources", flip))),
        ("mgfx sources", compiler(with_part(id, "mgfx", flip))),
        (
            "hassle-rs version",
            compiler(with_part(id, "deps", |d| {
                d.replace("hassle-rs =0.", "hassle-rs =9.")
            })),
        ),
        (
            "spirv-cross2 version",
            compiler(with_part(id, "deps", |d| {
                d.replace("spirv-cross2 =", "spirv-cross2 =9")
            })),
        ),
        (
            "SPIRV-Cross (sys) version",
            compiler(with_part(id, "deps", |d| {
                d.replace("spirv-cross-sys =", "spirv-cross-sys =9")
            })),
        ),
        ("compiler version", compiler(with_part(id, "version", bump))),
        (
            "DXC content",
            cache::Toolchain {
                dxc: real.dxc.replace("abab", "abac"),
                ..real.clone()
            },
        ),
    ];
    let key = |t: &cache::Toolchain| {
        let options = options::for_build(Target::OpenGL, &[], &[], false, MgfxVersion::V10, false);
        let base = cache::key_base(t, Target::OpenGL, &options, Path::new("/crate"));
        base.finalize().to_hex().to_string()
    };
    let mut seen = std::collections::BTreeMap::new();
    seen.insert(key(&real), "the real toolchain");
    for (what, t) in &variants {
        if let Some(other) = seen.insert(key(t), what) {
            panic!("changing the {what} gave the key of {other}");
        }
    }
}

#[test]
fn the_generated_code_carries_the_build_options_for_hot_reload() {
    if skip("the_generated_code_carries_the_build_options_for_hot_reload") {
        return;
    }
    let shared = tempfile::tempdir().expect("temp");
    let lines = Arc::new(Mutex::new(Vec::new()));
    let build = |f: &Fixture| {
        let mut b = f.builder(&lines);
        b.cache_dir(shared.path())
            .define("QUALITY", "2")
            .include_dir("shaders/include")
            .warnings_as_errors(true)
            .mgfx_version(MgfxVersion::V11);
        b.try_compile().expect("build")
    };
    // Compiled by one crate, then served to another by the shared cache: each module names
    // its own crate's files, with the same options.
    let (one, two) = (Fixture::new(), Fixture::new());
    for (f, origin) in [(&one, Origin::Compiled), (&two, Origin::SharedCache)] {
        let a = build(f);
        let b = &a.effects[1];
        assert_eq!(b.origin, origin);
        let code = std::fs::read_to_string(&b.paths.code).expect("module");
        let quoted = |p: PathBuf| format!("{:?}", p.display().to_string());
        for expected in [
            "mgfx_version: 11".to_string(),
            "warnings_as_errors: true".to_string(),
            r#"defines: &[("QUALITY", "2")]"#.to_string(),
            format!(
                "include_dirs: &[{}]",
                quoted(f.root.join("shaders/include"))
            ),
            r#"source_name: "shaders/b.fx""#.to_string(),
            quoted(f.root.join("shaders/include/common.fxh")),
        ] {
            assert!(code.contains(&expected), "{expected} not in\n{code}");
        }
    }
}

/// The wgpu target: a key of its own (a GL-only build of the same sources is not served its
/// output), and a module with the `wgsl` part whether the effect was compiled or came from the
/// shared cache.
#[cfg(feature = "wgpu")]
#[test]
fn the_wgpu_target_has_its_own_key_and_its_module_part_survives_the_shared_cache() {
    if skip("the_wgpu_target_has_its_own_key_and_its_module_part_survives_the_shared_cache") {
        return;
    }
    let shared = tempfile::tempdir().expect("temp");
    let lines = Arc::new(Mutex::new(Vec::new()));
    let build = |f: &Fixture, wgpu: bool| {
        let mut b = f.builder(&lines);
        b.cache_dir(shared.path())
            .include_dir("shaders/include")
            .wgpu(wgpu);
        b.try_compile().expect("build")
    };
    let (gl, one, two) = (Fixture::new(), Fixture::new(), Fixture::new());
    let gl_code = {
        let a = build(&gl, false);
        std::fs::read_to_string(&a.effects[0].paths.code).expect("module")
    };
    assert!(!gl_code.contains("pub mod wgsl"), "{gl_code}");
    let mut codes = Vec::new();
    for (f, origin) in [(&one, Origin::Compiled), (&two, Origin::SharedCache)] {
        let a = build(f, true);
        let e = &a.effects[0];
        assert_eq!(e.origin, origin, "the wgpu build of a.fx");
        let manifest =
            shadowdusk_compiler::artifact::Manifest::load(&e.paths.manifest).expect("manifest");
        let wgpu = manifest.wgpu.expect("the manifest records the wgpu output");
        assert_eq!(wgpu.shaders.len(), manifest.layout.shaders.len());
        let code = std::fs::read_to_string(&e.paths.code).expect("module");
        for expected in [
            "pub mod wgsl",
            "pub static EFFECT",
            "const WGPU",
            "@fragment",
        ] {
            assert!(code.contains(expected), "{expected} not in\n{code}");
        }
        // Each fixture's own folder (crate root, OUT_DIR) aside, the same module.
        let tmp = f
            .root
            .parent()
            .expect("fixture folder")
            .display()
            .to_string();
        codes.push(code.replace(&tmp, "<fixture>"));
    }
    assert_eq!(
        codes[0], codes[1],
        "a shared-cache hit generates the same module"
    );
}

/// Once what an effect read has settled, a build takes its key from the stamps memo (no
/// preprocessing); a header created where it shadows the one read, and an edit, still
/// recompile the effect.
#[test]
fn settled_effects_skip_the_key_and_changes_are_still_seen() {
    if skip("settled_effects_skip_the_key_and_changes_are_still_seen") {
        return;
    }
    let f = Fixture::new();
    // The header only in `other/`, searched after the including file's folder.
    std::fs::remove_file(f.root.join("shaders/include/common.fxh")).expect("remove");
    f.write("other/include/common.fxh", COMMON);
    let build = || {
        let lines = Arc::new(Mutex::new(Vec::new()));
        ok(f.builder(&lines).include_dir("other").try_compile())
    };
    let keyed = |a: &Artifacts| -> Vec<bool> {
        a.effects
            .iter()
            .map(|e| e.timings.key > std::time::Duration::ZERO)
            .collect()
    };
    let settle = || std::thread::sleep(stamps::SETTLE + std::time::Duration::from_millis(200));
    assert_eq!(build().compiled(), 2);
    settle();
    // Keys computed (and remembered, everything having settled), then taken from the memo.
    assert_eq!(keyed(&build()), [true, true]);
    let a = build();
    assert_eq!(keyed(&a), [false, false]);
    assert_eq!(a.cached(), 2);

    // A header that now comes first in the search.
    f.write(
        "shaders/include/common.fxh",
        &COMMON.replace("0.25, 1)", "0.125, 1)"),
    );
    let a = build();
    assert_eq!(
        origins(&a),
        [
            ("shaders/a.fx".into(), Origin::OutDir),
            ("shaders/b.fx".into(), Origin::Compiled)
        ]
    );
    let m = Manifest::load(&a.effects[1].paths.manifest).expect("manifest");
    assert_eq!(
        m.reflection.parameters[0].default.as_deref(),
        Some(&[1.0, 0.5, 0.125, 1.0][..])
    );

    // An edit of a remembered file.
    settle();
    build();
    assert_eq!(keyed(&build()), [false, false]);
    f.edit(
        "shaders/a.fx",
        "float Amount = 0.25;",
        "float Amount = 0.5;",
    );
    let a = build();
    assert_eq!(a.effects[0].origin, Origin::Compiled);
}

/// An effect that compiles for OpenGL but not for wgpu: naga cannot take the struct `modf`
/// returns in SPIR-V (SD0303 today). If the wgpu target learns it, pick another construct it
/// refuses.
#[cfg(feature = "wgpu")]
const GL_ONLY: &str = "\
// legacy/frac.fx: tiles a coordinate with modf.
sampler s0;
float Tiles = 4;

float4 MainPS(float2 uv : TEXCOORD0) : COLOR0
{
    float whole;
    float part = modf(uv.x * Tiles, whole);
    return tex2D(s0, float2(part, uv.y)) * (whole / Tiles);
}

technique T { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
";

/// With the wgpu target on, an effect it refuses fails the build at the construct with the
/// call that keeps it OpenGL-only; with that call it is built as a GL-only build builds it
/// (same key, no `wgsl` part), the others keep theirs, and the next build is served from the
/// stamps memo.
#[cfg(feature = "wgpu")]
#[test]
fn an_effect_wgpu_refuses_fails_with_the_call_that_keeps_it_opengl_only() {
    if skip("an_effect_wgpu_refuses_fails_with_the_call_that_keeps_it_opengl_only") {
        return;
    }
    let f = Fixture::new();
    f.write("shaders/legacy/frac.fx", GL_ONLY);
    let lines = Arc::new(Mutex::new(Vec::new()));
    let build = |gl_only: &[&str]| {
        let mut b = f.builder(&lines);
        b.include_dir("shaders/include").wgpu(true);
        for p in gl_only {
            b.opengl_only(p);
        }
        b.try_compile()
    };

    let e = build(&[]).expect_err("the wgpu target refuses frac.fx");
    assert_eq!(e.failures().len(), 1, "{e}");
    let failure = &e.failures()[0];
    assert_eq!(failure.relative, Path::new("shaders/legacy/frac.fx"));
    let text = e.to_string();
    for expected in [
        "shaders/legacy/frac.fx:12:54: error[SD0303]",
        "shaders/legacy/frac.fx: error: the wgpu target cannot translate this effect, which \
         compiles for OpenGL",
        "= help: to build `shaders/legacy/frac.fx` for OpenGL only (its module then has no \
         `wgsl` part), add `.opengl_only(\"shaders/legacy/frac.fx\")` to the Builder in build.rs",
    ] {
        assert!(text.contains(expected), "{expected:?} not in\n{text}");
    }
    let frac = shadowdusk_compiler::artifact::paths(&f.out, Path::new("shaders/legacy/frac.fx"));
    assert!(!frac.manifest.exists(), "a failed effect has no artifacts");

    // Named by a glob: built for OpenGL only, the others for both.
    let a = ok(build(&["shaders/legacy/*.fx"]));
    let frac = a.get("shaders/legacy/frac.fx").expect("frac.fx built");
    let code = std::fs::read_to_string(&frac.paths.code).expect("module");
    assert!(
        !code.contains("pub mod wgsl") && !code.contains("const WGPU"),
        "{code}"
    );
    assert!(Manifest::load(&frac.paths.manifest)
        .expect("manifest")
        .wgpu
        .is_none());
    let mgfx = std::fs::read(&frac.paths.mgfx).expect("mgfx");
    shadowdusk_mgfx::read(&mgfx).expect("frac.mgfx reads back");
    let a_code =
        std::fs::read_to_string(&a.get("shaders/a.fx").expect("a").paths.code).expect("module");
    assert!(a_code.contains("pub mod wgsl"), "{a_code}");

    // Its key is a GL-only build's: the shared cache serves one to the other.
    let gl = Fixture::new();
    gl.write("shaders/legacy/frac.fx", GL_ONLY);
    let gl_build = {
        let mut b = gl.builder(&lines);
        b.include_dir("shaders/include");
        ok(b.try_compile())
    };
    assert_eq!(
        gl_build
            .get("shaders/legacy/frac.fx")
            .expect("frac")
            .cache_key,
        frac.cache_key
    );
    assert_ne!(
        gl_build.get("shaders/a.fx").expect("a").cache_key,
        a.get("shaders/a.fx").expect("a").cache_key
    );

    // The next builds: nothing compiled, then (settled) nothing keyed.
    std::thread::sleep(stamps::SETTLE + std::time::Duration::from_millis(200));
    let again = ok(build(&["shaders/legacy/*.fx"]));
    assert_eq!(again.compiled(), 0);
    let again = ok(build(&["shaders/legacy/*.fx"]));
    assert!(
        again
            .effects
            .iter()
            .all(|e| e.timings.key.is_zero() && e.origin == Origin::OutDir),
        "{:?}",
        origins(&again)
    );
    // Named no longer: the build fails again rather than serve the GL-only artifacts.
    assert!(build(&[]).is_err());
}

/// A pattern that names no effect is a warning; one that is not a glob, a setup error.
#[cfg(feature = "wgpu")]
#[test]
fn opengl_only_patterns_that_name_nothing_warn() {
    if skip("opengl_only_patterns_that_name_nothing_warn") {
        return;
    }
    let f = Fixture::new();
    let lines = Arc::new(Mutex::new(Vec::new()));
    let mut b = f.builder(&lines);
    b.include_dir("shaders/include")
        .wgpu(true)
        .opengl_only("shaders/legasy/*.fx");
    ok(b.try_compile());
    let lines = lines.lock().expect("lines").clone();
    assert!(
        lines.iter().any(|l| l
            == "cargo:warning=`.opengl_only(\"shaders/legasy/*.fx\")` names no effect of this \
                build (paths and globs are relative to the crate root)"),
        "{lines:#?}"
    );
    let e = f
        .builder(&Arc::new(Mutex::new(Vec::new())))
        .wgpu(true)
        .opengl_only("shaders/[")
        .try_compile()
        .expect_err("a bad glob");
    assert!(
        e.setup_error().is_some_and(|s| s.contains("shaders/[")),
        "{e}"
    );
}

/// Two Builders of one build script write into one `OUT_DIR` with different options: each
/// keeps its artifacts and its stamps, so the next build of both takes every key from the memo
/// and compiles nothing.
#[test]
fn two_builders_in_one_out_dir_keep_each_others_stamps() {
    if skip("two_builders_in_one_out_dir_keep_each_others_stamps") {
        return;
    }
    let f = Fixture::new();
    let lines = Arc::new(Mutex::new(Vec::new()));
    let both = || {
        let first = {
            let mut b = f.builder(&lines);
            b.dirs.clear();
            b.file("shaders/a.fx");
            ok(b.try_compile())
        };
        let second = {
            let mut b = f.builder(&lines);
            b.dirs.clear();
            b.file("shaders/b.fx")
                .include_dir("shaders/include")
                .define("QUALITY", "2");
            ok(b.try_compile())
        };
        [first, second]
    };
    assert!(both().iter().all(|a| a.compiled() == 1));
    std::thread::sleep(stamps::SETTLE + std::time::Duration::from_millis(200));
    // Keys computed from contents and remembered, by both.
    assert!(both().iter().all(|a| a.compiled() == 0));
    for a in both() {
        let e = &a.effects[0];
        assert_eq!(e.origin, Origin::OutDir, "{}", e.relative.display());
        assert!(
            e.timings.key.is_zero(),
            "{} was keyed again: the other Builder dropped its stamps",
            e.relative.display()
        );
        let mgfx = std::fs::read(&e.paths.mgfx).expect("mgfx");
        shadowdusk_mgfx::read(&mgfx).expect("reads back");
    }
}
