//! The wgpu target never costs OpenGL output, through real cargo: a copy of
//! `tests/rebuild/gl-only` (a crate whose build.rs runs one Builder with the wgpu target over
//! `shaders/` and one without it over `gl/`, into the same `OUT_DIR`) holds one effect the wgpu
//! target refuses.
//!
//! - Not named by `Builder::opengl_only`, it fails the build at its construct, with the help line
//!   that shows the call to add.
//! - Named (by a glob), the crate builds: that effect's module has no wgpu part and its MGFX
//!   reads back, the others keep theirs.
//! - The script run again with nothing changed compiles nothing, and both Builders take every
//!   key from the stamps memo (neither removed the other's), and cargo then re-runs nothing.
//!
//! Built into `target/rebuild-tests` (shared with `rebuild.rs`, so the dependencies compile
//! once), offline with the workspace's `Cargo.lock`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use shadowdusk_tests::fixture::{copy_dir, dxc};

const PACKAGE: &str = "gl-only-consumer";
const GLOB: &str = "shaders/legacy/*.fx";

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

impl Consumer {
    fn new(dxc: PathBuf) -> Consumer {
        let ws = workspace();
        let target = ws.join("target/rebuild-tests");
        let dir = target.join("gl-only");
        if dir.exists() {
            std::fs::remove_dir_all(&dir).expect("remove the previous copy");
        }
        copy_dir(&ws.join("tests/rebuild/gl-only"), &dir);
        let template = std::fs::read_to_string(dir.join("Cargo.toml.in")).expect("Cargo.toml.in");
        let ws_str = ws.to_str().expect("UTF-8 workspace path");
        std::fs::write(
            dir.join("Cargo.toml"),
            template.replace("@WORKSPACE@", ws_str),
        )
        .expect("write Cargo.toml");
        std::fs::remove_file(dir.join("Cargo.toml.in")).expect("remove template");
        std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");
        // Earlier runs' artifacts would be served by key; every run starts from none.
        if let Ok(dirs) = std::fs::read_dir(target.join("debug/build")) {
            for d in dirs.flatten() {
                let ours = d
                    .file_name()
                    .to_str()
                    .is_some_and(|n| n.starts_with(&format!("{PACKAGE}-")));
                let out = d.path().join("out");
                if ours && out.is_dir() {
                    std::fs::remove_dir_all(&out).expect("remove old artifacts");
                }
            }
        }
        Consumer { dir, target, dxc }
    }

    /// `cargo build` with `verbosity` and `env`: whether it succeeded, and its output.
    fn build(&self, verbosity: &str, env: &[(&str, &str)]) -> (bool, String) {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let run = |offline: bool| {
            let mut cmd = Command::new(&cargo);
            cmd.current_dir(&self.dir)
                .args(["build", verbosity, "--color", "never"])
                .env("CARGO_TARGET_DIR", &self.target)
                .env("SHADOWDUSK_DXC", &self.dxc)
                .env_remove("SHADOWDUSK_CACHE_DIR")
                .env_remove("CONSUMER_OPENGL_ONLY")
                .env_remove("CONSUMER_RUN")
                .envs(env.iter().copied());
            if offline {
                cmd.arg("--offline");
            }
            cmd.output().expect("run cargo")
        };
        let mut out = run(true);
        if !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--offline") {
            out = run(false);
        }
        let log = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), log)
    }

    /// What the built binary prints: its `OUT_DIR`, then one line per effect.
    fn run(&self) -> Vec<String> {
        let out = Command::new(self.target.join("debug").join(PACKAGE))
            .output()
            .expect("run the consumer");
        assert!(out.status.success(), "the consumer failed");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// The build script's `consumer: <effect> <origin> keyed=<bool>` lines (echoed by `-vv`).
fn served(log: &str) -> Vec<String> {
    let prefix = format!("[{PACKAGE} 0.1.0] consumer: ");
    log.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(str::to_string)
        .collect()
}

#[test]
fn an_effect_wgpu_refuses_builds_for_opengl_once_the_builder_names_it() {
    let test = "an_effect_wgpu_refuses_builds_for_opengl_once_the_builder_names_it";
    let Some(dxc) = dxc(test) else {
        return;
    };
    let c = Consumer::new(dxc);
    // Settled: each build remembers the stamps of what it read.
    std::thread::sleep(Duration::from_millis(2300));

    // Not named: the build fails at the construct, and says what to add.
    let (ok, log) = c.build("-q", &[]);
    assert!(!ok, "built with an effect wgpu refuses:\n{log}");
    for expected in [
        "shaders/legacy/frac.fx:14:57: error[SD0303]",
        "shaders/legacy/frac.fx: error: the wgpu target cannot translate this effect, which \
         compiles for OpenGL",
        "= help: to build `shaders/legacy/frac.fx` for OpenGL only (its module then has no \
         `wgsl` part), add `.opengl_only(\"shaders/legacy/frac.fx\")` to the Builder in build.rs",
        "error: shadowdusk: 1 of 2 effects failed to compile",
    ] {
        assert!(log.contains(expected), "{expected:?} not in:\n{log}");
    }
    assert!(!log.contains("panicked"), "{log}");

    // Named by a glob: built, the effect for OpenGL only.
    let named = [("CONSUMER_OPENGL_ONLY", GLOB)];
    let (ok, log) = c.build("-vv", &named);
    assert!(ok, "the build failed with the effect named:\n{log}");
    let lines = c.run();
    assert!(lines[0].starts_with("out_dir="), "{lines:#?}");
    assert_eq!(
        lines[1..],
        [
            "shaders/legacy/frac.fx: techniques=1 wgpu=false",
            "shaders/tint.fx: techniques=1 wgpu=true",
            "gl/glow.fx: techniques=1 wgpu=false",
        ],
        "{log}"
    );
    let out_dir = PathBuf::from(lines[0].trim_start_matches("out_dir="));
    let module = std::fs::read_to_string(out_dir.join("shadowdusk/shaders/legacy/frac.rs"))
        .expect("frac.rs");
    assert!(!module.contains("pub mod wgsl"), "{module}");
    let mgfx = std::fs::read(out_dir.join("shadowdusk/shaders/legacy/frac.mgfx")).expect("mgfx");
    shadowdusk::mgfx::read(&mgfx).expect("frac.mgfx reads back");
    let first = served(&log);
    assert_eq!(first.len(), 3, "{log}");

    // The script again, nothing changed: nothing compiled, and both Builders' keys come from
    // the stamps memo, so neither removed the other's.
    let again = [("CONSUMER_OPENGL_ONLY", GLOB), ("CONSUMER_RUN", "2")];
    let (ok, log) = c.build("-vv", &again);
    assert!(ok, "{log}");
    assert_eq!(
        served(&log),
        [
            "shaders/legacy/frac.fx OutDir keyed=false",
            "shaders/tint.fx OutDir keyed=false",
            "gl/glow.fx OutDir keyed=false",
        ],
        "{log}"
    );
    assert!(
        log.contains(&format!(
            "[{PACKAGE} 0.1.0] shadowdusk: 2 effects (0 compiled, 2 cached)"
        )),
        "{log}"
    );
    assert!(
        log.contains(&format!(
            "[{PACKAGE} 0.1.0] shadowdusk: 1 effect (0 compiled, 1 cached)"
        )),
        "{log}"
    );
    // And cargo, asked again with the same environment, runs nothing.
    let (ok, log) = c.build("-v", &again);
    assert!(ok, "{log}");
    assert!(log.contains(&format!("Fresh {PACKAGE} v0.1.0")), "{log}");
    assert!(!log.contains("build-script-build"), "{log}");
}
