//! Build-script figures: `shadowdusk_build::Builder` over the corpus, called in-process the way a
//! build script calls it, where each effect's time goes, and a consumer crate built by cargo:
//! its build script alone in a fresh process, and `cargo build` after an edit. Printed, never
//! asserted; the figures with targets also go to the table `cargo xtask bench` ends with.
//!
//! Everything happens under `target/bench-build/` (a crate root holding a copy of
//! `tests/corpus` as `shaders/`, out dirs, a shared cache folder), recreated on each run. The
//! Rust stages run at this binary's optimisation level (`cargo xtask bench` runs in release);
//! DXC runs at its own speed either way. The consumer crate is built as users build theirs:
//! the dev profile, so its build script and `include_effect!` run unoptimised.

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
            .summary(false)
            .print_warnings(false);
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
    let pipeline_sum = pipeline_sum(&krate, &first)?;
    let mut rows = Vec::new();

    let cold = |jobs: usize| -> Result<(Row, Option<Artifacts>), String> {
        let out = format!("out-cold-{jobs}");
        let mut times = Vec::new();
        let mut last = None;
        let starts_before = shadowdusk_compiler::dxc::worker_starts();
        for _ in 0..COLD_RUNS {
            let _ = std::fs::remove_dir_all(work.join(&out));
            let t = Instant::now();
            let a = build(&builder(&out, jobs, false))?;
            times.push(t.elapsed());
            last = Some(a);
        }
        let starts = shadowdusk_compiler::dxc::worker_starts();
        let count = starts.0 - starts_before.0;
        println!(
            "(cold, jobs {jobs}: {count} DXC worker starts in {COLD_RUNS} builds, {} each, \
             inside the dxc stage)",
            ms((starts.1 - starts_before.1) / count.max(1) as u32)
        );
        let row = row(
            &format!("cold, no cache, jobs {jobs}"),
            times,
            last.as_ref(),
        );
        Ok((row, last))
    };
    let (serial, serial_last) = cold(1)?;
    let (parallel, _) = cold(2)?;
    let speedup = serial.median.as_secs_f64() / parallel.median.as_secs_f64().max(1e-9);
    let overhead = serial.median.as_secs_f64() / pipeline_sum.as_secs_f64().max(1e-9);
    let breakdown = serial_last.map(|a| breakdown(&a));
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
    println!(
        "summed pipeline (compile_file per effect, median of {PIPELINE_RUNS}): {}; cold jobs 1 \
         is {overhead:.2}x that",
        ms(pipeline_sum)
    );
    if let Some(b) = breakdown {
        println!("{b}");
    }
    println!("parallel speed-up (jobs 1 / jobs 2): {speedup:.2}x");
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    crate::bench_targets::ratio(
        &format!("cold Builder, 1 job, against the summed pipeline ({effects} effects)"),
        overhead,
        1.10,
        false,
    );
    crate::bench_targets::ratio(
        &format!("parallel speed-up, 2 jobs against 1 ({cores} cores)"),
        speedup,
        1.8,
        true,
    );
    crate::bench_targets::at_most(
        "no-op build-script run (Builder in process, OUT_DIR current)",
        rows[2].median,
        Duration::from_millis(5),
    );

    // The edit loop left OUT_DIR one edit behind the restored file.
    build(&noop)?;
    macro_expansion(&krate, &work.join("out-warmup"), &first)?;

    match consumer(root, &work) {
        Ok(c) => {
            println!(
                "no-op `cargo build` of a consumer crate with {effects} effects: {} (median of \
                 {CARGO_RUNS})",
                ms(c.noop)
            );
            println!(
                "its build script alone, fresh process, after editing one .fx: {} (median of \
                 {CARGO_RUNS}; it said `{}`)",
                ms(c.script_edit),
                c.script_said
            );
            println!(
                "`cargo build` after editing one .fx (the script re-runs, then rustc builds the \
                 crate again): {} (median of {CARGO_RUNS})",
                ms(c.build_edit)
            );
            crate::bench_targets::at_most(
                &format!("build script after editing one .fx, fresh process, {effects} effects"),
                c.script_edit,
                Duration::from_millis(50),
            );
            crate::bench_targets::at_most(
                &format!("`cargo build` after editing one .fx ({effects}-effect consumer)"),
                c.build_edit,
                Duration::from_millis(400),
            );
        }
        Err(e) => {
            println!("!!! SKIPPED the consumer crate: {e}");
            crate::bench_targets::missing("`cargo build` after editing one .fx", &e);
        }
    }
    Ok(())
}

/// Runs of `compile_file` per effect for the summed pipeline time.
const PIPELINE_RUNS: usize = 3;

/// The pipeline alone, summed over the corpus: per effect the median of [`PIPELINE_RUNS`]
/// `compile_file` calls with the options the Builder uses (DXC warm, as after the warm-up).
fn pipeline_sum(krate: &Path, built: &Artifacts) -> Result<Duration, String> {
    let mut sum = Duration::ZERO;
    for e in &built.effects {
        let options = shadowdusk_compiler::pipeline::Options {
            source_name: Some(e.relative.to_string_lossy().replace('\\', "/")),
            ..Default::default()
        };
        let mut runs = Vec::with_capacity(PIPELINE_RUNS);
        for _ in 0..PIPELINE_RUNS {
            let t = Instant::now();
            shadowdusk_compiler::pipeline::compile_file(&krate.join(&e.relative), &options)
                .map_err(|err| format!("{}: {}", e.relative.display(), err.render(false)))?;
            runs.push(t.elapsed());
        }
        sum += median(runs);
    }
    Ok(sum)
}

/// Where a build's time went, summed over its effects (`EffectTimings`).
fn breakdown(a: &Artifacts) -> String {
    let sum = |f: &dyn Fn(&shadowdusk_build::EffectTimings) -> Duration| -> Duration {
        a.effects.iter().map(|e| f(&e.timings)).sum()
    };
    let compile = sum(&|t| t.compile.map_or(Duration::ZERO, |c| c.wall));
    let stages = sum(&|t| {
        t.compile.map_or(Duration::ZERO, |c| {
            let s = c.stages;
            s.preprocess + s.parse + s.lower + s.dxc + s.cross + s.rewrite + s.write
        })
    });
    let dxc = sum(&|t| t.compile.map_or(Duration::ZERO, |c| c.stages.dxc));
    let total = sum(&|t| t.total);
    let (key, lookup, codegen, format, manifest, write) = (
        sum(&|t| t.key),
        sum(&|t| t.lookup),
        sum(&|t| t.codegen),
        sum(&|t| t.format),
        sum(&|t| t.manifest),
        sum(&|t| t.write),
    );
    let accounted = key + lookup + compile + codegen + format + manifest + write;
    format!(
        "where cold jobs 1 went (sums over {} effects): key {}, lookup {}, compile {} \
         (stages {}, of which dxc {}; outside the stages {}), codegen {} + formatting {}, \
         manifest {}, file writes {}, other in effects {}; build wall {} (outside effects {})",
        a.effects.len(),
        ms(key),
        ms(lookup),
        ms(compile),
        ms(stages),
        ms(dxc),
        ms(compile.saturating_sub(stages)),
        ms(codegen),
        ms(format),
        ms(manifest),
        ms(write),
        ms(total.saturating_sub(accounted)),
        ms(a.elapsed),
        ms(a.elapsed.saturating_sub(total)),
    )
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

/// What the consumer crate measured.
struct Consumer {
    /// `cargo build` with nothing changed.
    noop: Duration,
    /// Its build script alone, run as cargo runs it, after an edit of one effect.
    script_edit: Duration,
    /// The script's own summary line of its last run.
    script_said: String,
    /// `cargo build` after an edit of one effect.
    build_edit: Duration,
}

/// Builds `tests/rebuild/consumer` with the corpus as its shaders once, then times `cargo build`
/// with nothing changed, the build script alone (the command cargo runs it with, in a fresh
/// process) after editing one effect, and `cargo build` after editing one effect. Shares
/// `target/rebuild-tests` with the rebuild test, so only the first run on a machine compiles
/// the dependencies.
fn consumer(root: &Path, work: &Path) -> Result<Consumer, String> {
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
        let out = Command::new(&cargo)
            .current_dir(&krate)
            .args(["build", "--offline", verbosity])
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("SHADOWDUSK_CACHE_DIR")
            .output()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "the consumer crate does not build:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(out)
    };
    let build = || build_with("--quiet");
    println!("(building the consumer crate once; the first time on a machine takes minutes)");
    build()?;
    let mut noop = Vec::new();
    for _ in 0..CARGO_RUNS {
        let t = Instant::now();
        build()?;
        noop.push(t.elapsed());
    }

    let edited = krate.join(EDITED);
    let original = std::fs::read_to_string(&edited).map_err(|e| format!("{EDITED}: {e}"))?;
    let mut edits = 0;
    let mut edit = || {
        edits += 1;
        std::fs::write(&edited, format!("{original}\n// edit {edits}\n"))
            .map_err(|e| format!("{EDITED}: {e}"))
    };

    // `-vv` echoes how cargo runs the build script: its environment and path.
    edit()?;
    let out = build_with("-vv")?;
    let script = script_command(&String::from_utf8_lossy(&out.stderr))
        .ok_or("cargo -vv did not show the build script's command")?;
    let mut script_edit = Vec::new();
    let mut script_said = String::new();
    for _ in 0..CARGO_RUNS {
        edit()?;
        let t = Instant::now();
        let out = Command::new("sh")
            .current_dir(&krate)
            .args(["-c", &script])
            .output()
            .map_err(|e| format!("cannot run the build script: {e}"))?;
        script_edit.push(t.elapsed());
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Err(format!("the build script failed:\n{stdout}"));
        }
        script_said = stdout
            .lines()
            .find(|l| l.starts_with("shadowdusk: "))
            .unwrap_or("(no summary line)")
            .to_string();
    }

    let mut build_edit = Vec::new();
    for _ in 0..CARGO_RUNS {
        edit()?;
        let t = Instant::now();
        build()?;
        build_edit.push(t.elapsed());
    }
    std::fs::write(&edited, &original).map_err(|e| format!("{EDITED}: {e}"))?;
    Ok(Consumer {
        noop: median(noop),
        script_edit: median(script_edit),
        script_said,
        build_edit: median(build_edit),
    })
}

/// The shell command of the `build-script-build` run in `cargo -vv` output.
fn script_command(log: &str) -> Option<String> {
    log.lines().find_map(|l| {
        let command = l.trim().strip_prefix("Running `")?.strip_suffix('`')?;
        command
            .ends_with("build-script-build")
            .then(|| command.to_string())
    })
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
    // `in_process` with the expansion cache the real macro uses, in a folder of its own so
    // the first round is a real miss.
    let mut in_process = MacroEnv::new(krate);
    let expansions = out_dir.with_file_name("expansions");
    let _ = std::fs::remove_dir_all(&expansions);
    in_process.expansion_cache = Some(expansions);
    println!();
    println!(
        "== include_effect! expansion ({} effects, per invocation, median of {WARM_RUNS} rounds \
         after a first)",
        built.effects.len()
    );
    // `fresh`: forget the in-memory expansions before each call, as a new rustc process
    // has none (the folder still holds them).
    for (label, env, inputs, fresh) in [
        (
            "from build-script artifacts",
            &with_artifacts,
            inputs("")?,
            false,
        ),
        (
            "from artifacts, `name = …`",
            &with_artifacts,
            inputs(", name = renamed")?,
            false,
        ),
        (
            "`in_process`, memory hit (rust-analyzer)",
            &in_process,
            inputs(", in_process")?,
            false,
        ),
        (
            "`in_process`, folder hit (a fresh rustc)",
            &in_process,
            inputs(", in_process")?,
            true,
        ),
    ] {
        // The first round expands each effect once more after the build (for `in_process` in
        // a new cache: compiled and stored); the others expand effects unchanged since.
        let mut first_round = Duration::ZERO;
        let mut per_call = Vec::new();
        let mut rounds = Vec::new();
        for round in 0..=WARM_RUNS {
            let t = Instant::now();
            for input in &inputs {
                if fresh {
                    env.forget_in_memory_expansions();
                }
                let c = Instant::now();
                let out = expand(input.clone(), env);
                if round > 0 {
                    per_call.push(c.elapsed());
                }
                if out.to_string().contains("compile_error") {
                    return Err(format!("{label}: expansion failed for {input}"));
                }
            }
            if round == 0 {
                first_round = t.elapsed();
            } else {
                rounds.push(t.elapsed());
            }
        }
        let per_invocation = median(per_call.clone());
        println!(
            "{label:<44} unchanged: median per invocation {:>8}, slowest {:>8}, all {} \
             {:>9} (first round {:>9})",
            ms(per_invocation),
            ms(per_call.iter().copied().max().unwrap_or_default()),
            inputs.len(),
            ms(median(rounds)),
            ms(first_round)
        );
        if fresh {
            crate::bench_targets::at_most(
                "`include_effect!(…, in_process)` of an unchanged effect, fresh rustc",
                per_invocation,
                Duration::from_micros(500),
            );
        }
    }
    Ok(())
}
