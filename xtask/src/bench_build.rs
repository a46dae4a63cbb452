//! Build-script figures: `shadowdusk_build::Builder` over the corpus, called in-process the way a
//! build script calls it, plus a no-op `cargo build` of a consumer crate. Printed, never
//! asserted. Targets (issue 3): a no-op build-script run under 50 ms, a parallel speed-up of at
//! least 1.7x on 2 cores, and a one-file edit that recompiles exactly one effect.
//!
//! Everything happens under `target/bench-build/` (a crate root holding a copy of
//! `tests/corpus` as `shaders/`, out dirs, a shared cache folder), recreated on each run. The
//! Rust stages run at this binary's optimisation level (`cargo xtask bench` runs in release);
//! DXC runs at its own speed either way.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use shadowdusk_build::{Artifacts, Builder};

const COLD_RUNS: usize = 5;
const WARM_RUNS: usize = 11;
const CARGO_RUNS: usize = 5;
/// The effect the one-file-edit scenario edits.
const EDITED: &str = "shaders/nez_sepia.fx";

/// One measured scenario.
struct Row {
    name: String,
    median: Duration,
    runs: usize,
    compiled: String,
    cached: String,
}

pub fn run(root: &Path) -> Result<(), String> {
    let work = root.join("target/bench-build");
    if work.exists() {
        std::fs::remove_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    }
    let krate = work.join("crate");
    copy_dir(&root.join("tests/corpus"), &krate.join("shaders"))?;
    let cache = work.join("cache");
    let builder = |out: &str, jobs: usize, shared: bool| {
        let mut b = Builder::new();
        b.manifest_dir(&krate)
            .out_dir(work.join(out))
            .jobs(jobs)
            .dir("shaders")
            .cargo_directives(false)
            .summary(false);
        if shared {
            b.cache_dir(&cache);
        } else {
            b.no_cache_dir();
        }
        b
    };
    let build = |b: &Builder| b.try_compile().map_err(|e| e.to_string());

    // Warm-up: loads DXC and checks that the whole corpus builds.
    let first = build(&builder("out-warmup", 2, false))?;
    let effects = first.effects.len();
    let mut rows = Vec::new();

    let cold = |jobs: usize| -> Result<Row, String> {
        let out = format!("out-cold-{jobs}");
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..COLD_RUNS {
            let _ = std::fs::remove_dir_all(work.join(&out));
            let t = Instant::now();
            let a = build(&builder(&out, jobs, false))?;
            times.push(t.elapsed());
            last = Some(a);
        }
        Ok(row(
            &format!("cold, no cache, jobs {jobs}"),
            times,
            last.as_ref(),
        ))
    };
    let serial = cold(1)?;
    let parallel = cold(2)?;
    let speedup = serial.median.as_secs_f64() / parallel.median.as_secs_f64().max(1e-9);
    rows.push(serial);
    rows.push(parallel);

    // No-op: OUT_DIR already current (what a build script costs when cargo re-runs it for
    // nothing new).
    let noop = builder("out-warmup", 2, false);
    let (times, last) = repeat(WARM_RUNS, || build(&noop))?;
    rows.push(row("no-op (OUT_DIR current)", times, last.as_ref()));

    // Shared cache: a fresh OUT_DIR filled from SHADOWDUSK_CACHE_DIR (another crate or machine
    // compiled everything).
    build(&builder("out-fill", 2, true))?;
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..WARM_RUNS {
        let _ = std::fs::remove_dir_all(work.join("out-shared"));
        let t = Instant::now();
        last = Some(build(&builder("out-shared", 2, true))?);
        times.push(t.elapsed());
    }
    rows.push(row(
        "warm shared cache, empty OUT_DIR",
        times,
        last.as_ref(),
    ));

    // One-file edit on a current OUT_DIR.
    let edited = krate.join(EDITED);
    let original = std::fs::read_to_string(&edited).map_err(|e| format!("{EDITED}: {e}"))?;
    let mut times = Vec::new();
    let mut compiled_counts = Vec::new();
    let mut last = None;
    for i in 0..COLD_RUNS {
        std::fs::write(&edited, format!("{original}\n// edit {i}\n"))
            .map_err(|e| format!("{EDITED}: {e}"))?;
        let t = Instant::now();
        let a = build(&noop)?;
        times.push(t.elapsed());
        compiled_counts.push(a.compiled());
        last = Some(a);
    }
    std::fs::write(&edited, &original).map_err(|e| format!("{EDITED}: {e}"))?;
    let mut edit_row = row(&format!("one-file edit ({EDITED})"), times, last.as_ref());
    edit_row.compiled = format!("{compiled_counts:?}");
    rows.push(edit_row);

    println!();
    println!(
        "== build script (Builder in-process, {effects} effects of tests/corpus, median of runs)"
    );
    println!(
        "{:<40} {:>10} {:>5} {:>16} {:>7}",
        "scenario", "median", "runs", "compiled", "cached"
    );
    for r in &rows {
        println!(
            "{:<40} {:>10} {:>5} {:>16} {:>7}",
            r.name,
            ms(r.median),
            r.runs,
            r.compiled,
            r.cached
        );
    }
    println!("parallel speed-up (jobs 1 / jobs 2): {speedup:.2}x (target >= 1.7x on 2 cores)");
    println!(
        "no-op build-script run: {} (target < 50 ms)",
        ms(rows[2].median)
    );

    // The edit loop left OUT_DIR one edit behind the restored file.
    build(&noop)?;
    macro_expansion(&krate, &work.join("out-warmup"), &first)?;

    match cargo_noop(root, &work) {
        Ok((noop, touch, script)) => {
            println!(
                "no-op `cargo build` of a consumer crate with {effects} effects: {} (median of \
                 {CARGO_RUNS})",
                ms(noop)
            );
            println!(
                "`cargo build` after touching one .fx (script re-runs in a fresh process, then \
                 rustc re-expands every include_effect!): {}; the script said `{script}`",
                ms(touch)
            );
        }
        Err(e) => println!("!!! SKIPPED no-op cargo build: {e}"),
    }
    Ok(())
}

fn repeat(
    n: usize,
    mut f: impl FnMut() -> Result<Artifacts, String>,
) -> Result<(Vec<Duration>, Option<Artifacts>), String> {
    let mut times = Vec::with_capacity(n);
    let mut last = None;
    for _ in 0..n {
        let t = Instant::now();
        last = Some(f()?);
        times.push(t.elapsed());
    }
    Ok((times, last))
}

fn row(name: &str, times: Vec<Duration>, last: Option<&Artifacts>) -> Row {
    Row {
        name: name.to_string(),
        runs: times.len(),
        median: median(times),
        compiled: last.map_or("-".into(), |a| a.compiled().to_string()),
        cached: last.map_or("-".into(), |a| a.cached().to_string()),
    }
}

/// Builds `tests/rebuild/consumer` with the corpus as its shaders once, then times `cargo build`
/// with nothing changed, and once after touching one effect (returned with the build script's
/// summary line, whose time is the script's own in a fresh process, DXC load included). Shares
/// `target/rebuild-tests` with the rebuild test, so only the first run on a machine compiles the
/// dependencies.
fn cargo_noop(root: &Path, work: &Path) -> Result<(Duration, Duration, String), String> {
    let krate = work.join("consumer");
    copy_dir(&root.join("tests/rebuild/consumer"), &krate)?;
    let shaders = krate.join("shaders");
    std::fs::remove_dir_all(&shaders).map_err(|e| e.to_string())?;
    copy_dir(&root.join("tests/corpus"), &shaders)?;
    let template =
        std::fs::read_to_string(krate.join("Cargo.toml.in")).map_err(|e| e.to_string())?;
    let root_str = root.to_str().ok_or("workspace path is not UTF-8")?;
    std::fs::write(
        krate.join("Cargo.toml"),
        template.replace("@WORKSPACE@", root_str),
    )
    .map_err(|e| e.to_string())?;
    std::fs::copy(root.join("Cargo.lock"), krate.join("Cargo.lock")).map_err(|e| e.to_string())?;

    let target = root.join("target/rebuild-tests");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let build_with = |verbosity: &str| {
        Command::new(&cargo)
            .current_dir(&krate)
            .args(["build", "--offline", verbosity])
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("SHADOWDUSK_CACHE_DIR")
            .output()
            .map_err(|e| format!("cannot run cargo: {e}"))
    };
    let build = || build_with("--quiet");
    println!("(building the consumer crate once; the first time on a machine takes minutes)");
    let first = build()?;
    if !first.status.success() {
        return Err(format!(
            "the consumer crate does not build:\n{}",
            String::from_utf8_lossy(&first.stderr)
        ));
    }
    let mut times = Vec::new();
    for _ in 0..CARGO_RUNS {
        let t = Instant::now();
        let out = build()?;
        times.push(t.elapsed());
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned());
        }
    }
    let touched = krate.join(EDITED);
    std::fs::File::options()
        .write(true)
        .open(&touched)
        .and_then(|f| f.set_modified(std::time::SystemTime::now()))
        .map_err(|e| format!("{}: {e}", touched.display()))?;
    let t = Instant::now();
    // `-vv` echoes the build script's lines, prefixed with the package.
    let out = build_with("-vv")?;
    let touch = t.elapsed();
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let script = log
        .lines()
        .find_map(|l| {
            l.split_once("] shadowdusk: ")
                .map(|(_, s)| format!("shadowdusk: {s}"))
        })
        .unwrap_or_else(|| "(the build script did not run)".into());
    Ok((median(times), touch, script))
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for e in entries {
        let e = e.map_err(|e| e.to_string())?;
        let dest: PathBuf = to.join(e.file_name());
        if e.file_type().map_err(|e| e.to_string())?.is_dir() {
            copy_dir(&e.path(), &dest)?;
        } else {
            std::fs::copy(e.path(), &dest).map_err(|e| format!("{}: {e}", dest.display()))?;
        }
    }
    Ok(())
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// `include_effect!` expansion, timed on the library function the proc macro calls, once per
/// corpus effect: from the build script's artifacts (the usual case) and with `in_process` (a
/// crate without a build script).
fn macro_expansion(krate: &Path, out_dir: &Path, built: &Artifacts) -> Result<(), String> {
    use shadowdusk_compiler::include_effect::{expand, MacroEnv};
    let inputs = |suffix: &str| -> Result<Vec<proc_macro2::TokenStream>, String> {
        built
            .effects
            .iter()
            .map(|e| {
                format!(
                    "{:?}{suffix}",
                    e.relative.to_string_lossy().replace('\\', "/")
                )
                .parse::<proc_macro2::TokenStream>()
                .map_err(|e| format!("macro input: {e}"))
            })
            .collect()
    };
    let mut with_artifacts = MacroEnv::new(krate);
    with_artifacts.out_dir = Some(out_dir.to_path_buf());
    let in_process = MacroEnv::new(krate);
    println!();
    println!(
        "== include_effect! expansion ({} effects, per invocation, median of {WARM_RUNS} rounds)",
        built.effects.len()
    );
    for (label, env, inputs) in [
        ("from build-script artifacts", &with_artifacts, inputs("")?),
        (
            "`in_process` (no build script)",
            &in_process,
            inputs(", in_process")?,
        ),
    ] {
        let mut per_call = Vec::new();
        let mut rounds = Vec::new();
        for _ in 0..WARM_RUNS {
            let t = Instant::now();
            for input in &inputs {
                let c = Instant::now();
                let out = expand(input.clone(), env);
                per_call.push(c.elapsed());
                if out.to_string().contains("compile_error") {
                    return Err(format!("{label}: expansion failed for {input}"));
                }
            }
            rounds.push(t.elapsed());
        }
        println!(
            "{label:<40} median per invocation {:>8}, slowest {:>8}, all {} effects {:>9}",
            ms(median(per_call.clone())),
            ms(per_call.iter().copied().max().unwrap_or_default()),
            inputs.len(),
            ms(median(rounds))
        );
    }
    Ok(())
}
