//! ShadowDusk in someone else's game, on a fresh machine: the crates as `cargo package` makes
//! them (unpacked, patched in for crates.io), a game crate outside the workspace
//! (`tests/user-crate`: the README's `build.rs` line and `include_effect!`), a new `HOME` with an
//! empty cache and no `SHADOWDUSK_DXC`.
//!
//! One test, in the order a user meets them:
//! 1. `cargo build` fetches DXC through the provisioning path (the pinned wheel, through pip)
//!    into `$HOME/.cache/shadowdusk/dxc/<sha256>/`, says so in one line, builds, and the binary
//!    prints values from its typed `Params`;
//! 2. an edit rebuilt with `CARGO_NET_OFFLINE=true` reuses the cache (no fetch);
//! 3. a cached library with one flipped byte is refused and fetched again;
//! 4. offline with an empty cache, the build fails with the message that names the fix.
//!
//! Microsoft's release archive is the second source; here it points at a closed port on
//! 127.0.0.1 (`SHADOWDUSK_DXC_MIRROR`), so nothing but the package registry is ever asked. The
//! archive path itself is tested against a local server in `shadowdusk-compiler`
//! (`dxc::provision::tests`). Everything lives under `target/user-crate`; the first run compiles
//! the dependencies (a couple of minutes), later runs reuse them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use shadowdusk_compiler::dxc::pins;
use shadowdusk_tests::fixture::copy_dir;

const PUBLISHED: [&str; 6] = [
    "shadowdusk-mgfx",
    "shadowdusk-compiler",
    "shadowdusk-macros",
    "shadowdusk",
    "shadowdusk-build",
    "shadowdusk-cli",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `cargo package` for every published crate, unpacked into `into`.
fn package(into: &Path, target: &Path) {
    let mut cmd = cargo();
    cmd.current_dir(workspace())
        .args([
            "package",
            "--no-verify",
            "--allow-dirty",
            "--color",
            "never",
        ])
        .env("CARGO_TARGET_DIR", target);
    for p in PUBLISHED {
        cmd.args(["-p", p]);
    }
    let out = cmd.output().expect("run cargo package");
    assert!(
        out.status.success(),
        "cargo package failed:\n{}",
        text(&out)
    );
    if into.exists() {
        std::fs::remove_dir_all(into).expect("remove old packages");
    }
    std::fs::create_dir_all(into).expect("mkdir packages");
    for p in PUBLISHED {
        let file = target.join(format!("package/{p}-0.1.0.crate"));
        let out = Command::new("tar")
            .arg("-xzf")
            .arg(&file)
            .arg("-C")
            .arg(into)
            .output()
            .expect("run tar");
        assert!(
            out.status.success(),
            "unpack {}:\n{}",
            file.display(),
            text(&out)
        );
    }
}

struct Game {
    dir: PathBuf,
    target: PathBuf,
    home: PathBuf,
    real_cargo_home: PathBuf,
    real_rustup_home: PathBuf,
}

impl Game {
    fn cache(&self) -> PathBuf {
        self.home.join(".cache/shadowdusk/dxc")
    }

    fn library(&self) -> PathBuf {
        self.cache()
            .join(pins::WHEEL_LIBRARY_SHA256)
            .join(pins::library_file_name())
    }

    /// `cargo build` as the user runs it: their own HOME, none of ShadowDusk's variables.
    fn build(&self, offline: bool) -> (bool, String) {
        let mut cmd = cargo();
        cmd.current_dir(&self.dir)
            .args(["build", "--color", "never"])
            .env("HOME", &self.home)
            .env("CARGO_HOME", &self.real_cargo_home)
            .env("RUSTUP_HOME", &self.real_rustup_home)
            .env("CARGO_TARGET_DIR", &self.target)
            // Microsoft's archive, the second source, at a port nothing listens on.
            .env("SHADOWDUSK_DXC_MIRROR", "http://127.0.0.1:9/")
            .env_remove("XDG_CACHE_HOME");
        for var in [
            "SHADOWDUSK_DXC",
            "SHADOWDUSK_DXC_CACHE",
            "SHADOWDUSK_DXC_SOURCES",
            "SHADOWDUSK_OFFLINE",
            "SHADOWDUSK_CACHE_DIR",
            "CARGO_NET_OFFLINE",
        ] {
            cmd.env_remove(var);
        }
        if offline {
            cmd.env("CARGO_NET_OFFLINE", "true").arg("--offline");
        }
        let out = cmd.output().expect("run cargo build");
        (out.status.success(), text(&out))
    }

    /// Running DXC worker processes started from this game's build (their executable is in its
    /// target folder).
    fn workers(&self) -> Vec<String> {
        let out = Command::new("pgrep")
            .args(["-a", "-f", "shadowdusk-dxc-worker"])
            .output()
            .expect("run pgrep");
        let target = self.target.display().to_string();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.contains(&target))
            .map(str::to_string)
            .collect()
    }

    fn run(&self) -> String {
        let out = Command::new(self.target.join("debug/user-game"))
            .output()
            .expect("run the game");
        assert!(out.status.success(), "the game failed:\n{}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Changes `Amount`'s default, after a pause long enough for whole-second file times.
    fn set_amount(&self, value: &str) {
        std::thread::sleep(Duration::from_millis(1100));
        let p = self.dir.join("shaders/tint.fx");
        let text = std::fs::read_to_string(&p).expect("read shader");
        let line = text
            .lines()
            .find(|l| l.starts_with("float Amount = "))
            .expect("Amount line")
            .to_string();
        let edited = text.replace(&line, &format!("float Amount = {value};"));
        std::fs::write(p, edited).expect("write shader");
    }
}

/// Lowercase hex SHA-256 of the file at `path`.
fn sha256_file(path: &Path) -> String {
    use sha2::Digest;
    let bytes = std::fs::read(path).expect("the cached library");
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn fetch_lines(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| l.contains("shadowdusk: fetching DXC"))
        .collect()
}

#[test]
fn a_user_crate_fetches_dxc_on_first_build_and_then_respects_the_cache() {
    let test = "a_user_crate_fetches_dxc_on_first_build_and_then_respects_the_cache";
    if (std::env::consts::OS, std::env::consts::ARCH) != ("linux", "x86_64") {
        shadowdusk_tests::skip(test, "the pip source is pinned for Linux x86_64 only");
        return;
    }
    let pip = Command::new("python3")
        .args(["-m", "pip", "--version"])
        .output();
    if !pip.is_ok_and(|o| o.status.success()) {
        shadowdusk_tests::skip(test, "no `python3 -m pip` here to fetch DXC with");
        return;
    }
    let real_home = PathBuf::from(std::env::var_os("HOME").expect("HOME"));
    let env_or = |var: &str, default: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| real_home.join(default))
    };
    let root = workspace().join("target/user-crate");
    let packages = root.join("packages");
    package(&packages, &root.join("package-target"));

    let game = Game {
        dir: root.join("game"),
        target: root.join("target"),
        home: root.join("home"),
        real_cargo_home: env_or("CARGO_HOME", ".cargo"),
        real_rustup_home: env_or("RUSTUP_HOME", ".rustup"),
    };
    for d in [&game.dir, &game.home] {
        if d.exists() {
            std::fs::remove_dir_all(d).expect("remove the previous run");
        }
    }
    std::fs::create_dir_all(&game.home).expect("mkdir home");
    copy_dir(&workspace().join("tests/user-crate"), &game.dir);
    let template = game.dir.join("Cargo.toml.in");
    let manifest = std::fs::read_to_string(&template).expect("read template");
    let packages = packages.to_str().expect("UTF-8 path");
    std::fs::write(
        game.dir.join("Cargo.toml"),
        manifest.replace("@PACKAGES@", packages),
    )
    .expect("write Cargo.toml");
    std::fs::remove_file(template).expect("remove template");
    // The workspace's versions of every dependency, already downloaded on this machine.
    std::fs::copy(workspace().join("Cargo.lock"), game.dir.join("Cargo.lock")).expect("lock");

    // 1. First build: DXC is fetched, once, with one line saying what and where.
    let started = Instant::now();
    let (ok, log) = game.build(false);
    assert!(ok, "the first build failed:\n{log}");
    eprintln!(
        "user crate: first build {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let fetched = fetch_lines(&log);
    assert_eq!(fetched.len(), 1, "one line about the fetch:\n{log}");
    assert!(
        fetched[0].contains("compushady-lrtu 0.18.0")
            && fetched[0].contains("MB")
            && fetched[0].contains(&game.cache().display().to_string()),
        "{}",
        fetched[0]
    );
    let sha = sha256_file(&game.library());
    assert_eq!(sha, pins::WHEEL_LIBRARY_SHA256);
    let workers = game.workers();
    assert!(
        workers.is_empty(),
        "DXC workers outlived the build: {workers:?}"
    );
    let out = game.run();
    assert!(
        out.contains("default tint = [1.0, 0.75, 0.5, 1.0]")
            && out.contains("tint = [1.0, 0.5, 0.25, 1.0]")
            && out.contains("amount = 0.35"),
        "{out}"
    );

    // 2. Offline, the cache serves the recompile.
    game.set_amount("0.5");
    let (ok, log) = game.build(true);
    assert!(ok, "the offline build failed:\n{log}");
    assert!(fetch_lines(&log).is_empty(), "nothing is fetched:\n{log}");
    assert!(game.run().contains("amount = 0.5"));

    // 3. One flipped byte: refused, fetched again, and the build goes on.
    let mut bytes = std::fs::read(game.library()).expect("read library");
    bytes[4096] ^= 0x01;
    std::fs::write(game.library(), bytes).expect("damage library");
    game.set_amount("0.6");
    let (ok, log) = game.build(false);
    assert!(ok, "the build after damage failed:\n{log}");
    assert_eq!(fetch_lines(&log).len(), 1, "fetched again:\n{log}");
    let sha = sha256_file(&game.library());
    assert_eq!(sha, pins::WHEEL_LIBRARY_SHA256);
    assert!(game.run().contains("amount = 0.6"));

    // 4. Offline with an empty cache: a clear error naming the fix.
    std::fs::remove_dir_all(game.cache()).expect("empty the cache");
    game.set_amount("0.7");
    let (ok, log) = game.build(true);
    assert!(!ok, "an offline build without DXC must fail:\n{log}");
    for needle in [
        "SD0103",
        "fetching is off (CARGO_NET_OFFLINE is set)",
        "shadowdusk setup",
        "SHADOWDUSK_DXC=",
    ] {
        assert!(log.contains(needle), "expected `{needle}` in:\n{log}");
    }
    assert!(fetch_lines(&log).is_empty());
}
