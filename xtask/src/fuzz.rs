//! `cargo xtask fuzz [--seconds N] [target...]`: run the cargo-fuzz targets of `fuzz/`.
//!
//! 1. Makes sure the nightly toolchain and `cargo-fuzz` are there (installs cargo-fuzz with
//!    `cargo install cargo-fuzz --locked` when it is missing), and DXC for the `pipeline` target.
//! 2. Seeds `fuzz/corpus/<target>/` from the project's real inputs, at run time so nothing
//!    generated is committed: the `.fx` effects and headers of `tests/corpus` and
//!    `tests/golden_parity` for the source targets, and the mgfxc outputs (`.mgfx`, `.mgfxo`) of
//!    `../shared/golden` for `mgfx_read` (MGFX compiled from `tests/corpus` when `../shared` is
//!    not beside the checkout).
//! 3. Builds every target once, then runs each for N seconds (default 600) with
//!    `cargo +nightly fuzz run <target> -- -max_total_time=N ...`, its output in
//!    `fuzz/logs/<target>.log`, and prints one summary line per target (executions, time,
//!    crashes, from libFuzzer's final statistics).
//!
//! Fails when a target crashed (panic, abort, sanitizer report, out-of-memory, timeout),
//! naming the artifact file that reproduces it; `cargo +nightly fuzz tmin <target> <artifact>`
//! minimizes it. Fails too when the `pipeline` target made DXC crash (SD0104): the worker
//! process kept the compiler alive, but `pipeline::dxc_guard` let through text DXC cannot take,
//! which ARCHITECTURE.md's invariant forbids. The target saved each such input into the guard's
//! regression set (`tests/dxc_crashes/fuzz-<hash>.fx`, where `cargo xtask test` fails on it
//! until the guard refuses it); the failure names the files and prints their text, so a CI log
//! keeps what a CI checkout loses.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every fuzz target (`fuzz/fuzz_targets/<name>.rs`).
pub const TARGETS: [&str; 4] = ["preprocess", "effect_parse", "mgfx_read", "pipeline"];

/// Seconds per target when `--seconds` is not given: the full run of the reliability issue.
const DEFAULT_SECONDS: u64 = 600;
/// The largest input libFuzzer builds: room for any real effect file (the largest seed, the
/// stock BasicEffect.fx, is under 9 KiB).
const MAX_LEN: usize = 65536;
/// A process above this resident size is reported as out-of-memory (an `oom-` artifact).
const RSS_LIMIT_MB: u64 = 4096;
/// One input taking longer than this is reported as a hang (a `timeout-` artifact). Generous:
/// a real effect compiles through DXC in well under a second.
const TIMEOUT_SECONDS: u64 = 60;
/// What the `pipeline` target prints before the path of an input that crashed DXC
/// (`DXC_CRASH_LINE` in `fuzz/src/lib.rs`; a test keeps the two equal).
const DXC_CRASH_LINE: &str =
    "DXC crashed (SD0104) past pipeline::dxc_guard; saved as a regression case: ";
/// Where the guard's regression set is, and the test that enforces it.
const REGRESSION_SET: &str = "tests/dxc_crashes/";
const REGRESSION_TEST: &str = "tests/tests/dxc_guard_regressions.rs";
/// How much of a saved input a failure prints.
const PRINTED_INPUT: usize = 4096;

/// The sanitizer each target is built with. AddressSanitizer everywhere: DXC (C++, dlopened,
/// not instrumented) loads and runs under it, and leak detection stays on.
fn sanitizer(_target: &str) -> &'static str {
    "address"
}

/// Whether the target reads effect source text (seeded with `.fx` files, given the dictionary).
fn takes_source(target: &str) -> bool {
    target != "mgfx_read"
}

struct Args {
    seconds: u64,
    targets: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut seconds = DEFAULT_SECONDS;
    let mut targets = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let value = if a == "--seconds" {
            Some(it.next().ok_or("--seconds needs a number")?.as_str())
        } else {
            a.strip_prefix("--seconds=")
        };
        if let Some(v) = value {
            seconds = v
                .parse()
                .ok()
                .filter(|&s| s > 0)
                .ok_or_else(|| format!("--seconds: `{v}` is not a positive number"))?;
        } else if TARGETS.contains(&a.as_str()) {
            if !targets.contains(a) {
                targets.push(a.clone());
            }
        } else {
            return Err(format!(
                "unknown argument `{a}`; usage: cargo xtask fuzz [--seconds N] [{}]...",
                TARGETS.join("|")
            ));
        }
    }
    if targets.is_empty() {
        targets = TARGETS.iter().map(|t| t.to_string()).collect();
    }
    Ok(Args { seconds, targets })
}

pub fn run(args: &[String]) -> Result<(), String> {
    let args = parse_args(args)?;
    let started = Instant::now();
    let root = crate::setup::workspace_root();
    let fuzz_dir = root.join("fuzz");

    ensure_nightly()?;
    ensure_cargo_fuzz()?;
    if args.targets.iter().any(|t| t == "pipeline") || !golden_dir(&root).is_dir() {
        // The pipeline target compiles through DXC; seeding mgfx_read without ../shared does too.
        crate::setup::run()?;
    }

    for t in &args.targets {
        let n = seed(&root, t)?;
        println!("fuzz: {t}: {n} seed files in fuzz/corpus/{t}");
    }

    // Build first, so the build is not counted in any target's time and a build failure is
    // reported as such; one build per sanitizer covers all targets.
    let mut sanitizers: Vec<&str> = args.targets.iter().map(|t| sanitizer(t)).collect();
    sanitizers.dedup();
    for s in sanitizers {
        let t = Instant::now();
        println!("fuzz: building the fuzz targets (sanitizer {s})...");
        let status = cargo_fuzz(&root, "build")
            .args(["--sanitizer", s])
            .status()
            .map_err(|e| format!("cannot run `cargo +nightly fuzz build`: {e}"))?;
        if !status.success() {
            return Err(format!("`cargo +nightly fuzz build` failed ({status})"));
        }
        println!("fuzz: built in {:.0} s", t.elapsed().as_secs_f64());
    }

    let logs = fuzz_dir.join("logs");
    fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let mut results = Vec::new();
    for t in &args.targets {
        results.push(run_target(&root, t, args.seconds, &logs)?);
    }

    println!();
    println!("fuzz summary ({} s per target):", args.seconds);
    for r in &results {
        println!("{}", r.summary());
    }
    println!(
        "fuzz: done in {:.0} s end to end",
        started.elapsed().as_secs_f64()
    );
    let failed: Vec<String> = results.iter().filter_map(Outcome::failure).collect();
    if failed.is_empty() {
        return Ok(());
    }
    let hint = if results.iter().any(|r| !r.artifacts.is_empty()) {
        " (reproduce: cargo +nightly fuzz run <target> <artifact>; minimize: cargo +nightly \
         fuzz tmin <target> <artifact>)"
    } else {
        ""
    };
    Err(format!("{}{hint}", failed.join("; ")))
}

/// `cargo +nightly fuzz <subcommand>` on `fuzz/`, in the workspace root, with the environment `cargo xtask` (stable
/// cargo) leaves behind removed, so rustup and cargo pick the nightly toolchain's tools.
fn cargo_fuzz(root: &Path, subcommand: &str) -> Command {
    let mut c = Command::new("cargo");
    c.current_dir(root)
        .args(["+nightly", "fuzz", subcommand, "--fuzz-dir"])
        .arg(root.join("fuzz"))
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("CARGO")
        .env_remove("RUSTC")
        .env_remove("RUSTDOC");
    c
}

fn ensure_nightly() -> Result<(), String> {
    let works = || {
        Command::new("cargo")
            .args(["+nightly", "--version"])
            .env_remove("RUSTUP_TOOLCHAIN")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if works() {
        return Ok(());
    }
    println!("fuzz: no nightly toolchain; installing it (rustup toolchain install nightly)...");
    let status = Command::new("rustup")
        .args(["toolchain", "install", "nightly", "--profile", "minimal"])
        .status();
    if status.is_ok_and(|s| s.success()) && works() {
        return Ok(());
    }
    Err(
        "cargo-fuzz needs the nightly toolchain (sanitizer and coverage flags): \
         `rustup toolchain install nightly` failed or is not available"
            .into(),
    )
}

fn ensure_cargo_fuzz() -> Result<(), String> {
    let version = || {
        Command::new("cargo")
            .args(["+nightly", "fuzz", "--version"])
            .env_remove("RUSTUP_TOOLCHAIN")
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    if let Some(v) = version() {
        println!("fuzz: {v}");
        return Ok(());
    }
    println!("fuzz: cargo-fuzz is missing; installing it (cargo install cargo-fuzz --locked)...");
    let install = |locked: bool| {
        let mut c = Command::new("cargo");
        c.args(["install", "cargo-fuzz"]);
        if locked {
            c.arg("--locked");
        }
        c.env_remove("RUSTUP_TOOLCHAIN")
            .status()
            .is_ok_and(|s| s.success())
    };
    if !install(true) {
        println!("fuzz: `cargo install cargo-fuzz --locked` failed; trying without --locked");
        if !install(false) {
            return Err("cannot install cargo-fuzz (`cargo install cargo-fuzz` failed)".into());
        }
    }
    match version() {
        Some(v) => {
            println!("fuzz: installed {v}");
            Ok(())
        }
        None => Err("cargo-fuzz was installed but `cargo +nightly fuzz --version` fails".into()),
    }
}

/// mgfxc's outputs, beside the checkout (read-only; copied, never committed).
fn golden_dir(root: &Path) -> PathBuf {
    root.join("../shared/golden")
}

/// Fills `fuzz/corpus/<target>/` with `seed-*` copies of the project's inputs (replacing older
/// seeds; inputs the fuzzer added are kept). Returns how many seeds it wrote.
fn seed(root: &Path, target: &str) -> Result<usize, String> {
    let dir = root.join("fuzz/corpus").join(target);
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for e in fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let p = e.map_err(|e| e.to_string())?.path();
        if p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("seed-"))
        {
            fs::remove_file(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    let mut seeds: Vec<(String, Vec<u8>)> = Vec::new();
    let mut add_files = |base: &Path, exts: &[&str]| -> Result<(), String> {
        let mut files = Vec::new();
        walk(base, &mut files);
        files.retain(|f| {
            f.extension()
                .is_some_and(|x| exts.iter().any(|e| x.eq_ignore_ascii_case(e)))
        });
        files.sort();
        for f in files {
            let bytes = fs::read(&f).map_err(|e| format!("{}: {e}", f.display()))?;
            if bytes.len() <= MAX_LEN {
                let rel = f.strip_prefix(base).unwrap_or(&f);
                seeds.push((rel.to_string_lossy().replace(['/', '\\'], "_"), bytes));
            }
        }
        Ok(())
    };
    if takes_source(target) {
        add_files(&root.join("tests/corpus"), &["fx", "fxh"])?;
        add_files(&root.join("tests/golden_parity"), &["fx", "fxh"])?;
    } else {
        let golden = golden_dir(root);
        if golden.is_dir() {
            add_files(&golden, &["mgfx", "mgfxo"])?;
        }
        if seeds.is_empty() {
            println!(
                "fuzz: {} has no .mgfx files; seeding mgfx_read with tests/corpus compiled",
                golden.display()
            );
            seeds.extend(compiled_corpus(root)?);
        }
    }
    for (i, (name, bytes)) in seeds.iter().enumerate() {
        let p = dir.join(format!("seed-{i:03}-{name}"));
        fs::write(&p, bytes).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(seeds.len())
}

/// MGFX compiled from the effects of `tests/corpus` (the ones that compile).
fn compiled_corpus(root: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    std::env::set_var("SHADOWDUSK_DXC", crate::setup::dxc_path());
    let mut files = Vec::new();
    walk(&root.join("tests/corpus"), &mut files);
    files.retain(|f| f.extension().is_some_and(|x| x == "fx"));
    files.sort();
    let options = shadowdusk_compiler::pipeline::Options::default();
    let mut out = Vec::new();
    for f in files {
        if let Ok(c) = shadowdusk_compiler::pipeline::compile_file(&f, &options) {
            let stem = f.file_stem().unwrap_or_default().to_string_lossy();
            out.push((format!("{stem}.mgfx"), c.bytes));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() => walk(&p, out),
            Ok(t) if t.is_file() => out.push(p),
            _ => {}
        }
    }
}

/// One target's run.
struct Outcome {
    target: String,
    executions: Option<u64>,
    /// libFuzzer's own count of seconds when it printed one, else the wall time of the run.
    seconds: f64,
    /// `crash-`, `oom-`, `timeout-` and `leak-` files written.
    artifacts: Vec<String>,
    /// `slow-unit-` files written (reported, not a failure).
    slow: Vec<String>,
    /// Inputs that crashed DXC in its worker process (the compile ended in SD0104), as saved
    /// into the guard's regression set: a failure, since the guard should have refused them.
    dxc_crashes: Vec<String>,
    /// The run failed without writing an artifact (it did not build or start).
    error: Option<String>,
    log: PathBuf,
}

impl Outcome {
    fn summary(&self) -> String {
        let execs = match self.executions {
            Some(n) => format!(
                "{n} executions in {:.0} s ({:.0}/s)",
                self.seconds,
                n as f64 / self.seconds.max(1.0)
            ),
            None => format!("? executions in {:.0} s", self.seconds),
        };
        let mut s = format!(
            "  {:<13} {execs}, {} crash{}",
            self.target,
            self.artifacts.len(),
            if self.artifacts.len() == 1 { "" } else { "es" }
        );
        for a in &self.artifacts {
            s.push_str(&format!(": {a}"));
        }
        if !self.slow.is_empty() {
            s.push_str(&format!(", slow input: {}", self.slow.join(", ")));
        }
        if !self.dxc_crashes.is_empty() {
            s.push_str(&format!(
                ", {} DXC crash{} past the guard (SD0104): {}",
                self.dxc_crashes.len(),
                if self.dxc_crashes.len() == 1 {
                    ""
                } else {
                    "es"
                },
                self.dxc_crashes.join(", ")
            ));
        }
        if let Some(e) = &self.error {
            s.push_str(&format!(", FAILED: {e} (log: {})", self.log.display()));
        }
        s
    }

    fn failure(&self) -> Option<String> {
        if !self.artifacts.is_empty() {
            Some(format!(
                "fuzz target `{}` crashed: {}",
                self.target,
                self.artifacts.join(", ")
            ))
        } else if !self.dxc_crashes.is_empty() {
            Some(format!(
                "fuzz target `{}` made DXC crash (SD0104) on {} input{} that pipeline::dxc_guard \
                 let through. Each is saved in the guard's regression set ({REGRESSION_SET}): {}. \
                 `cargo xtask test` ({REGRESSION_TEST}) fails on them until the guard refuses \
                 each before DXC; minimize each by hand, note where it came from and the guard's \
                 code (`The guard: SD0028`), and commit it with the fix",
                self.target,
                self.dxc_crashes.len(),
                if self.dxc_crashes.len() == 1 { "" } else { "s" },
                self.dxc_crashes.join(", ")
            ))
        } else {
            self.error
                .as_ref()
                .map(|e| format!("fuzz target `{}` failed: {e}", self.target))
        }
    }
}

fn run_target(root: &Path, target: &str, seconds: u64, logs: &Path) -> Result<Outcome, String> {
    let log = logs.join(format!("{target}.log"));
    let file = fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    let corpus = root.join("fuzz/corpus").join(target);
    let mut cmd = cargo_fuzz(root, "run");
    cmd.args(["--sanitizer", sanitizer(target), target])
        .arg(&corpus)
        .arg("--")
        .arg(format!("-max_total_time={seconds}"))
        .arg(format!("-rss_limit_mb={RSS_LIMIT_MB}"))
        .arg(format!("-max_len={MAX_LEN}"))
        .arg(format!("-timeout={TIMEOUT_SECONDS}"))
        .arg("-print_final_stats=1");
    // A short run (the CI smoke) starts from one seed, so it explores alike from run to run; it
    // does not repeat exactly (hash-map seeds differ per process, and with them coverage). A
    // full run explores with a fresh seed.
    if seconds <= 60 {
        cmd.arg("-seed=1");
    }
    if takes_source(target) {
        cmd.arg(format!("-dict={}", root.join("fuzz/hlsl.dict").display()));
    }
    cmd.env("SHADOWDUSK_DXC", crate::setup::dxc_path())
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err);
    println!(
        "fuzz: {target}: running for {seconds} s (log: {})",
        log.strip_prefix(root).unwrap_or(&log).display()
    );
    let t = Instant::now();
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run `cargo +nightly fuzz run {target}`: {e}"))?;
    let wall = t.elapsed();
    let text = fs::read_to_string(&log).unwrap_or_default();
    let mut out = parse_log(target, &text, wall, log.clone());
    if !status.success() && out.artifacts.is_empty() {
        out.error = Some(format!("exit {status}"));
    }
    if !status.success() {
        println!("---- {} (excerpt) ----", log.display());
        for l in failure_excerpt(&text) {
            println!("{l}");
        }
        println!("----");
    }
    println!("{}", out.summary());
    for l in saved_inputs(&out.dxc_crashes) {
        println!("{l}");
    }
    Ok(out)
}

/// The text of each input saved into the guard's regression set, for the log (a CI checkout
/// is thrown away with the files): up to [`PRINTED_INPUT`] bytes each, escaped.
fn saved_inputs(paths: &[String]) -> Vec<String> {
    paths
        .iter()
        .map(|p| match fs::read_to_string(p) {
            Ok(text) => {
                let cut = text
                    .char_indices()
                    .nth(PRINTED_INPUT)
                    .map_or(text.as_str(), |(i, _)| &text[..i]);
                let more = text.len() - cut.len();
                let tail = if more > 0 {
                    format!(" [... {more} more bytes]")
                } else {
                    String::new()
                };
                format!("---- {p} ----\n{cut:?}{tail}")
            }
            Err(e) => format!("---- {p}: {e}"),
        })
        .collect()
}

/// The part of a failed run's log worth printing: from the panic message or sanitizer report
/// (with the top of its backtrace) on, or the end of the log when there is none (a build
/// failure). Long lines are cut: cargo-fuzz prints the whole input as one `Debug` line.
fn failure_excerpt(text: &str) -> Vec<String> {
    const MARKERS: [&str; 3] = [
        "panicked at",
        "ERROR: AddressSanitizer",
        "ERROR: LeakSanitizer",
    ];
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| MARKERS.iter().any(|m| l.contains(m)))
        .or_else(|| lines.iter().position(|l| l.contains("ERROR: libFuzzer")))
        .unwrap_or(lines.len().saturating_sub(40));
    lines[start..]
        .iter()
        .take(50)
        .map(|l| match l.char_indices().nth(300) {
            Some((i, _)) => format!("{} [... {} more bytes]", &l[..i], l.len() - i),
            None => l.to_string(),
        })
        .collect()
}

/// Reads libFuzzer's output: `Done N runs in T second(s)` (a run that ran its time),
/// `stat::number_of_executed_units: N` (`-print_final_stats`, also printed after a crash) and
/// `Test unit written to PATH` (artifacts).
fn parse_log(target: &str, text: &str, wall: Duration, log: PathBuf) -> Outcome {
    let mut out = Outcome {
        target: target.to_string(),
        executions: None,
        seconds: wall.as_secs_f64(),
        artifacts: Vec::new(),
        slow: Vec::new(),
        dxc_crashes: Vec::new(),
        error: None,
        log,
    };
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("stat::number_of_executed_units:") {
            out.executions = n.trim().parse().ok().or(out.executions);
        } else if let Some(rest) = line.strip_prefix("Done ") {
            let mut w = rest.split_whitespace();
            if let (Some(n), Some("runs"), Some("in"), Some(s)) =
                (w.next(), w.next(), w.next(), w.next())
            {
                if let (Ok(n), Ok(s)) = (n.parse::<u64>(), s.parse::<f64>()) {
                    out.executions.get_or_insert(n);
                    out.seconds = s;
                }
            }
        } else if let Some(path) = line.strip_prefix(DXC_CRASH_LINE) {
            out.dxc_crashes.push(path.trim().to_string());
        } else if let Some(i) = line.find("Test unit written to ") {
            let path = line[i + "Test unit written to ".len()..].trim().to_string();
            let name = Path::new(&path)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if name.starts_with("slow-unit-") {
                out.slow.push(path);
            } else if !out.artifacts.contains(&path) {
                out.artifacts.push(path);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_clean_run_and_a_crash() {
        let clean = "#1024\tpulse  cov: 10 ft: 12 corp: 3/10b exec/s: 512 rss: 60Mb\n\
                     #52000\tDONE   cov: 900 ft: 3000 corp: 400/40Kb lim: 4096 exec/s: 866 rss: 400Mb\n\
                     Done 52000 runs in 60 second(s)\n\
                     stat::number_of_executed_units: 52001\n";
        let o = parse_log("preprocess", clean, Duration::from_secs(62), PathBuf::new());
        assert_eq!(o.executions, Some(52001));
        assert_eq!(o.seconds, 60.0);
        assert!(o.artifacts.is_empty() && o.failure().is_none());

        let crash = "thread '<unnamed>' panicked at src/x.rs:1:1:\n\
                     ==1== ERROR: libFuzzer: deadly signal\n\
                     artifact_prefix='/w/fuzz/artifacts/pipeline/'; Test unit written to /w/fuzz/artifacts/pipeline/crash-0a1b\n\
                     stat::number_of_executed_units: 77\n";
        let o = parse_log("pipeline", crash, Duration::from_secs(3), PathBuf::new());
        assert_eq!(o.executions, Some(77));
        assert!(o.dxc_crashes.is_empty());
        assert_eq!(o.artifacts, ["/w/fuzz/artifacts/pipeline/crash-0a1b"]);
        assert!(o.failure().unwrap().contains("crash-0a1b"));
    }

    /// A DXC crash the worker survived is a failure of the run, naming where the input went
    /// and that it belongs in the guard's regression set.
    #[test]
    fn a_dxc_crash_past_the_guard_fails_the_run() {
        let log = format!(
            "{DXC_CRASH_LINE}/w/tests/dxc_crashes/fuzz-01.fx\n\
             {DXC_CRASH_LINE}/w/tests/dxc_crashes/fuzz-02.fx\n\
             Done 10 runs in 20 second(s)\n"
        );
        let o = parse_log("pipeline", &log, Duration::from_secs(20), PathBuf::new());
        assert_eq!(
            o.dxc_crashes,
            [
                "/w/tests/dxc_crashes/fuzz-01.fx",
                "/w/tests/dxc_crashes/fuzz-02.fx"
            ]
        );
        assert!(o.artifacts.is_empty());
        let failure = o.failure().expect("a DXC crash fails the run");
        for part in [
            "SD0104",
            "pipeline::dxc_guard",
            "/w/tests/dxc_crashes/fuzz-01.fx",
            "/w/tests/dxc_crashes/fuzz-02.fx",
            REGRESSION_SET,
            REGRESSION_TEST,
        ] {
            assert!(failure.contains(part), "`{part}` missing from: {failure}");
        }
        assert!(
            o.summary().contains("2 DXC crashes past the guard"),
            "{}",
            o.summary()
        );
    }

    /// The log keeps the saved input's text (escaped and cut), and a missing file says so.
    #[test]
    fn saved_inputs_are_printed_escaped_and_cut() {
        let dir = std::env::temp_dir().join(format!("xtask-fuzz-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let short = dir.join("fuzz-short.fx");
        fs::write(&short, "float4 PS() : COLOR0 {\n\treturn 1;\n}").unwrap();
        let long = dir.join("fuzz-long.fx");
        fs::write(&long, "x".repeat(PRINTED_INPUT + 10)).unwrap();
        let paths = [short, long, dir.join("gone.fx")].map(|p| p.display().to_string());
        let lines = saved_inputs(&paths);
        assert!(
            lines[0].contains(r"COLOR0 {\n\treturn 1;\n}"),
            "{}",
            lines[0]
        );
        assert!(lines[1].ends_with("[... 10 more bytes]"), "{}", lines[1]);
        assert!(lines[2].contains("gone.fx:"), "{}", lines[2]);
        let _ = fs::remove_dir_all(dir);
    }

    /// The fuzz crate (its own workspace, not a dependency) prints exactly the line read here.
    #[test]
    fn the_crash_line_is_the_fuzz_targets() {
        let lib = crate::setup::workspace_root().join("fuzz/src/lib.rs");
        let text = fs::read_to_string(&lib).expect("fuzz/src/lib.rs");
        assert!(
            text.contains(&format!("{DXC_CRASH_LINE:?}")),
            "{} does not print {DXC_CRASH_LINE:?}",
            lib.display()
        );
    }

    #[test]
    fn arguments() {
        let a = parse_args(&["--seconds".into(), "20".into()]).unwrap();
        assert_eq!((a.seconds, a.targets.len()), (20, 4));
        let a = parse_args(&["pipeline".into(), "--seconds=5".into()]).unwrap();
        assert_eq!((a.seconds, a.targets), (5, vec!["pipeline".to_string()]));
        assert!(parse_args(&["nope".into()]).is_err());
        assert!(parse_args(&["--seconds".into(), "0".into()]).is_err());
    }
}
