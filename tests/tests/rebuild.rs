//! Rebuild tracking through real cargo: a copy of `tests/rebuild/consumer` (a crate whose
//! build.rs runs `shadowdusk_build::Builder` over `shaders/` and whose binary embeds every effect
//! through `shadowdusk::include_effect!`) is built, edited and rebuilt.
//!
//! Each step checks both sides: cargo re-ran the build script, or did not (`cargo build -vv`
//! echoes the script's output, `-v` says `Fresh`), the script's summary line says how many
//! effects it compiled, and the rebuilt binary prints values derived from the edited shader.
//!
//! The copy lives at a fixed place, `target/rebuild-tests/consumer`, built into the target dir
//! `target/rebuild-tests`: only the first run compiles the dependencies (about two minutes), and
//! later runs reuse the same package identity instead of piling up new build folders. The
//! workspace's `Cargo.lock` is copied in, so the build needs no registry access (`--offline`;
//! the workspace build has already fetched every crate the consumer uses).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use shadowdusk_tests::fixture::copy_dir;

const PACKAGE: &str = "rebuild-consumer";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

struct Consumer {
    dir: PathBuf,
    target: PathBuf,
    dxc: PathBuf,
}

/// Cargo's output of one build.
struct Build {
    /// stdout + stderr.
    log: String,
}

impl Build {
    /// The build script's `shadowdusk: …` summary, if the script ran.
    fn summary(&self) -> Option<&str> {
        // `-vv` echoes each line the script prints, prefixed with the package.
        let prefix = format!("[{PACKAGE} 0.1.0] ");
        self.log
            .lines()
            .filter_map(|l| l.strip_prefix(&prefix))
            .find(|l| l.starts_with("shadowdusk: "))
    }

    fn expect_summary(&self, counts: &str) {
        let s = self
            .summary()
            .unwrap_or_else(|| panic!("the build script did not run:\n{}", self.log));
        assert!(
            s.starts_with(&format!("shadowdusk: {counts} in ")),
            "expected `{counts}`, the build script said `{s}`"
        );
    }
}

/// Removes the artifacts earlier runs left in the consumer's `OUT_DIR`, so every run starts
/// from "nothing compiled". The fresh copy's files are newer than the last build, so cargo
/// re-runs the build script, which writes them again.
fn forget_artifacts(target: &Path) {
    let Ok(dirs) = std::fs::read_dir(target.join("debug/build")) else {
        return;
    };
    for d in dirs.flatten() {
        let ours = d
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(&format!("{PACKAGE}-")));
        let artifacts = d.path().join("out/shadowdusk");
        if ours && artifacts.is_dir() {
            std::fs::remove_dir_all(&artifacts).expect("remove old artifacts");
        }
    }
}

impl Consumer {
    /// A fresh copy of the fixture; `None` (after a loud line) when DXC is missing.
    fn new(test: &str) -> Option<Consumer> {
        let ws = workspace();
        let cached = || {
            shadowdusk_compiler::dxc::provision::Provisioner::from_env()
                .ok()
                .and_then(|p| p.cached())
                .map(|c| c.path)
        };
        let dxc = match std::env::var_os("SHADOWDUSK_DXC") {
            Some(p) => PathBuf::from(p),
            None => cached().unwrap_or_else(|| PathBuf::from("libdxcompiler.so")),
        };
        if !dxc.is_file() {
            let why = format!("no DXC at {} (run `cargo xtask setup`)", dxc.display());
            shadowdusk_tests::skip(test, &why);
            return None;
        }
        let target = ws.join("target/rebuild-tests");
        let dir = target.join("consumer");
        if dir.exists() {
            std::fs::remove_dir_all(&dir).expect("remove the previous copy");
        }
        copy_dir(&ws.join("tests/rebuild/consumer"), &dir);
        let template =
            std::fs::read_to_string(dir.join("Cargo.toml.in")).expect("read Cargo.toml.in");
        let ws_str = ws.to_str().expect("UTF-8 workspace path");
        std::fs::write(
            dir.join("Cargo.toml"),
            template.replace("@WORKSPACE@", ws_str),
        )
        .expect("write Cargo.toml");
        std::fs::remove_file(dir.join("Cargo.toml.in")).expect("remove template");
        std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");
        forget_artifacts(&target);
        Some(Consumer { dir, target, dxc })
    }

    fn cargo(&self, args: &[&str], offline: bool, env: &[(&str, &str)]) -> std::process::Output {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(&self.dir)
            .envs(env.iter().copied())
            .args(args)
            .args(["--color", "never"])
            .env("CARGO_TARGET_DIR", &self.target)
            .env("SHADOWDUSK_DXC", &self.dxc)
            .env_remove("SHADOWDUSK_CACHE_DIR");
        if offline {
            cmd.arg("--offline");
        }
        cmd.output().expect("run cargo")
    }

    /// `cargo build` with `verbosity` (`-v`, `-vv`): whether it succeeded, and its output.
    fn try_build(&self, verbosity: &str) -> (bool, Build) {
        self.try_build_with(verbosity, &[])
    }

    /// [`Consumer::try_build`] with extra environment variables.
    fn try_build_with(&self, verbosity: &str, env: &[(&str, &str)]) -> (bool, Build) {
        let mut out = self.cargo(&["build", verbosity], true, env);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if !out.status.success() && stderr.contains("--offline") {
            // Only when a crate the consumer needs was never downloaded on this machine.
            eprintln!("rebuild: --offline failed, retrying with the network:\n{stderr}");
            out = self.cargo(&["build", verbosity], false, env);
        }
        let log = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), Build { log })
    }

    /// [`Consumer::try_build`] that must succeed.
    fn build(&self, verbosity: &str) -> Build {
        let (ok, b) = self.try_build(verbosity);
        assert!(ok, "cargo build failed:\n{}", b.log);
        b
    }

    /// The binary's output: `out_dir=…` then one line per effect.
    fn run(&self) -> Vec<String> {
        let out = Command::new(self.target.join("debug").join(PACKAGE))
            .output()
            .expect("run the consumer");
        assert!(out.status.success(), "consumer failed");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn line_for(&self, lines: &[String], effect: &str) -> String {
        lines
            .iter()
            .find(|l| l.starts_with(&format!("shaders/{effect}: ")))
            .unwrap_or_else(|| panic!("no line for {effect} in {lines:#?}"))
            .clone()
    }

    /// Rewrites a file, after a pause long enough for file systems that keep whole seconds (an
    /// edit in the same second as the last build would not look newer to cargo).
    fn edit(&self, rel: &str, from: &str, to: &str) {
        std::thread::sleep(Duration::from_millis(1100));
        let p = self.dir.join(rel);
        let text = std::fs::read_to_string(&p).expect("read");
        assert!(text.contains(from), "{rel} lacks {from:?}");
        std::fs::write(p, text.replace(from, to)).expect("write");
    }

    fn expect_nothing_rerun(&self, when: &str) {
        let b = self.build("-v");
        assert!(
            b.log.contains(&format!("Fresh {PACKAGE} v0.1.0")),
            "{when}: expected `Fresh {PACKAGE}`:\n{}",
            b.log
        );
        for bad in [
            format!("Compiling {PACKAGE}"),
            "build-script-build".to_string(),
        ] {
            assert!(
                !b.log.contains(&bad),
                "{when}: a no-change build re-ran something (`{bad}`):\n{}",
                b.log
            );
        }
    }
}

#[test]
fn edits_includes_and_new_effects_rebuild_and_nothing_else_does() {
    let Some(c) = Consumer::new("edits_includes_and_new_effects_rebuild_and_nothing_else_does")
    else {
        return;
    };

    let b = c.build("-vv");
    b.expect_summary("3 effects (3 compiled, 0 cached)");
    for f in [
        "shaders/tint.fx",
        "shaders/glow.fx",
        "shaders/include/common.fxh",
        "shaders",
    ] {
        let line = format!("cargo:rerun-if-changed={}", c.dir.join(f).display());
        assert!(b.log.contains(&line), "missing `{line}`:\n{}", b.log);
    }
    let lines = c.run();
    assert!(lines[0].starts_with("out_dir="), "{lines:#?}");
    assert_eq!(lines.len(), 4, "{lines:#?}");
    let tint = c.line_for(&lines, "tint.fx");
    assert!(tint.contains("[[0.25, 0.0, 0.0, 0.0]]"), "{tint}");
    let glow = c.line_for(&lines, "glow.fx");
    assert!(glow.contains("[[1.0, 0.5, 0.25, 1.0]]"), "{glow}");

    c.expect_nothing_rerun("after the first build");

    // Editing an effect: exactly it is recompiled, and the binary sees the new default.
    c.edit(
        "shaders/tint.fx",
        "float Amount = 0.25;",
        "float Amount = 0.75;",
    );
    c.build("-vv")
        .expect_summary("3 effects (1 compiled, 2 cached)");
    let lines = c.run();
    let tint = c.line_for(&lines, "tint.fx");
    assert!(tint.contains("[[0.75, 0.0, 0.0, 0.0]]"), "{tint}");

    // Editing an include: exactly the effect that reads it.
    c.edit(
        "shaders/include/common.fxh",
        "float4(1, 0.5, 0.25, 1)",
        "float4(0.5, 0.5, 0.5, 1)",
    );
    c.build("-vv")
        .expect_summary("3 effects (1 compiled, 2 cached)");
    let lines = c.run();
    let glow = c.line_for(&lines, "glow.fx");
    assert!(glow.contains("[[0.5, 0.5, 0.5, 1.0]]"), "{glow}");

    // Adding an effect: the folder is watched.
    std::thread::sleep(Duration::from_millis(1100));
    let tint_src = std::fs::read_to_string(c.dir.join("shaders/tint.fx")).expect("read");
    std::fs::write(
        c.dir.join("shaders/added.fx"),
        tint_src.replace("float Amount = 0.75;", "float Amount = 0.5;"),
    )
    .expect("write added.fx");
    c.build("-vv")
        .expect_summary("4 effects (1 compiled, 3 cached)");
    let lines = c.run();
    let added = c.line_for(&lines, "added.fx");
    assert!(added.contains("[[0.5, 0.0, 0.0, 0.0]]"), "{added}");
    let out_dir = PathBuf::from(lines[0].trim_start_matches("out_dir="));
    let mgfx = std::fs::read(out_dir.join("shadowdusk/shaders/added.mgfx")).expect("added.mgfx");
    shadowdusk::mgfx::read(&mgfx).expect("added.mgfx reads back");

    c.expect_nothing_rerun("after the last edit");

    // A shader error fails the build with the shader's position, not a panic; the good effects
    // stay cached, and fixing the file re-runs the script.
    std::thread::sleep(Duration::from_millis(1100));
    std::fs::write(
        c.dir.join("shaders/broken.fx"),
        tint_src.replace("* Amount;", "* Amout;"),
    )
    .expect("write broken.fx");
    let (ok, b) = c.try_build("-vv");
    assert!(!ok, "a broken shader built:\n{}", b.log);
    b.expect_summary("5 effects (0 compiled, 4 cached, 1 failed)");
    assert!(
        b.log.contains(
            "shaders/broken.fx:7:36: error[SD0100]: DXC: use of undeclared identifier 'Amout'"
        ),
        "{}",
        b.log
    );
    assert!(
        b.log
            .contains("7 │     return tex2D(s0, uv) * color * Amout;"),
        "{}",
        b.log
    );
    assert!(
        b.log
            .contains("error: shadowdusk: 1 of 5 effects failed to compile"),
        "{}",
        b.log
    );
    assert!(!b.log.contains("panicked"), "{}", b.log);
    c.edit("shaders/broken.fx", "* Amout;", "* Amount;");
    c.build("-vv")
        .expect_summary("5 effects (1 compiled, 4 cached)");
    c.expect_nothing_rerun("after fixing the broken effect");

    // Without DXC the build fails with one message saying how to get it, not one per effect.
    let missing = Consumer {
        dir: c.dir.clone(),
        target: c.target.clone(),
        dxc: PathBuf::from("/nonexistent/libdxcompiler.so"),
    };
    // Quiet: `-vv` would echo the script's stderr live and again in the failure report.
    let (ok, b) = missing.try_build("-q");
    assert!(!ok, "built without DXC:\n{}", b.log);
    assert_eq!(
        b.log
            .matches("SHADOWDUSK_DXC is set to `/nonexistent/libdxcompiler.so`")
            .count(),
        1,
        "{}",
        b.log
    );
    assert!(!b.log.contains("panicked"), "{}", b.log);
    c.build("-vv")
        .expect_summary("5 effects (0 compiled, 5 cached)");

    // fxc's warnings are warnings: an effect that truncates a float4 into a float3 builds, and
    // cargo shows the warning at its place in the shader, also when the effect comes from the
    // cache; warnings-as-errors makes the same effect fail the build.
    std::thread::sleep(Duration::from_millis(1100));
    std::fs::write(c.dir.join("shaders/warns.fx"), WARNS_FX).expect("write warns.fx");
    let b = c.build("-vv");
    b.expect_summary("6 effects (1 compiled, 5 cached)");
    let warning = "shaders/warns.fx:6:12: warning[SD0110]: implicit truncation of vector type";
    assert!(
        b.log.contains(&format!("cargo:warning={warning}")),
        "{}",
        b.log
    );
    assert!(
        b.log.contains("6 │     float3 color = tex2D(s0, uv);"),
        "{}",
        b.log
    );
    let lines = c.run();
    assert!(
        c.line_for(&lines, "warns.fx").contains("bytes"),
        "{lines:#?}"
    );
    // Another effect changes: warns.fx comes from OUT_DIR and its warning is shown again.
    c.edit(
        "shaders/tint.fx",
        "float Amount = 0.75;",
        "float Amount = 0.7;",
    );
    let b = c.build("-vv");
    b.expect_summary("6 effects (1 compiled, 5 cached)");
    assert!(
        b.log.contains(&format!("cargo:warning={warning}")),
        "{}",
        b.log
    );

    let (ok, b) = c.try_build_with("-vv", &[("CONSUMER_WARNINGS_AS_ERRORS", "1")]);
    assert!(
        !ok,
        "warnings-as-errors built an effect with a warning:\n{}",
        b.log
    );
    assert!(
        b.log
            .contains("shaders/warns.fx:6:12: error[SD0110]: implicit truncation of vector type"),
        "{}",
        b.log
    );
    assert!(!b.log.contains("panicked"), "{}", b.log);
}

/// A SpriteBatch effect written the XNA way: `float3 color = tex2D(...)` truncates, which fxc
/// (and so mgfxc) only warns about.
const WARNS_FX: &str = "sampler s0;
float Strength = 0.5;

float4 MainPS(float4 pos : SV_Position, float4 tint : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float3 color = tex2D(s0, uv);
    return float4(color * Strength, 1) * tint;
}

technique Warns { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
";
