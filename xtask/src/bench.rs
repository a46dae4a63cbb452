//! `cargo xtask bench [corpus] [build] [hostile] [draws] [hot]`: compiler and runtime figures, printed,
//! never asserted (except that drawing allocates nothing; see `draws`).
//!
//! Runs in release (re-executing itself with `--release` when started from a debug build), so
//! the figures are what a build script sees with an optimised compiler. Each effect of
//! `tests/corpus` is compiled once to warm up (DXC load, caches), then `RUNS` times; every
//! figure is the median over those runs. `draws` runs `src/bin/bench_draws.rs` (the cost of a
//! typed draw on headless EGL, and its allocations).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use shadowdusk_compiler::pipeline::{compile_file, Options, StageTimings};

const RUNS: usize = 7;

pub fn run(extra: &[String]) -> Result<(), String> {
    crate::setup::run()?;
    let root = crate::setup::workspace_root();
    if cfg!(debug_assertions) {
        // A debug compiler would make every Rust stage look 10-30x slower than users see.
        let mut args = vec!["--", "bench"];
        args.extend(extra.iter().map(String::as_str));
        return run_release(&root, &args, "release bench");
    }
    std::env::set_var("SHADOWDUSK_DXC", crate::setup::dxc_path());
    // `cargo xtask bench [corpus] [build] [hostile] [draws] [hot]`: the parts named, or all of them.
    let all = !extra
        .iter()
        .any(|a| ["corpus", "build", "hostile", "draws", "hot"].contains(&a.as_str()));
    let wants = |part: &str| all || extra.iter().any(|a| a == part);
    if wants("corpus") {
        corpus(&root)?;
    }
    if wants("build") {
        crate::bench_build::run(&root)?;
    }
    if wants("hostile") {
        crate::bench_hostile::run()?;
    }
    if wants("draws") {
        draws(&root)?;
    }
    if wants("hot") {
        crate::bench_hot::run(&root)?;
    }
    crate::bench_targets::print();
    Ok(())
}

/// Runs the `bench_draws` binary in release. It is a binary of its own because it embeds an
/// effect with `include_effect!`, which needs DXC when it compiles, and `xtask` itself must
/// build before `cargo xtask setup` has fetched DXC.
fn draws(root: &Path) -> Result<(), String> {
    run_release(root, &["--bin", "bench_draws"], "bench draws")
}

/// `cargo run --release --package xtask <args>` with the fetched DXC, from the workspace root.
fn run_release(root: &Path, args: &[&str], what: &str) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["run", "--quiet", "--release", "--package", "xtask"])
        .args(args)
        .env("SHADOWDUSK_DXC", crate::setup::dxc_path())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// Per-stage and per-effect compile times over `tests/corpus`.
fn corpus(root: &Path) -> Result<(), String> {
    let dir = root.join("tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fx"))
        .collect();
    files.sort();
    let options = Options::default();

    println!(
        "== corpus compile ({} effects, median of {RUNS} runs after one warm-up, release)",
        files.len()
    );
    println!(
        "{:<28} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9}",
        "effect", "prep", "parse", "lower", "dxc", "cross", "rewrite", "write", "total"
    );
    let mut all_stages: Vec<[Duration; 7]> = Vec::new();
    let mut totals = Vec::new();
    for f in &files {
        compile_file(f, &options).map_err(|e| format!("{}:\n{}", f.display(), e.render(false)))?;
        let mut runs: Vec<([Duration; 7], Duration)> = Vec::with_capacity(RUNS);
        for _ in 0..RUNS {
            let t = Instant::now();
            let c = compile_file(f, &options).map_err(|e| e.render(false))?;
            runs.push((stages(&c.timings), t.elapsed()));
        }
        let median_stages: [Duration; 7] =
            std::array::from_fn(|i| median(runs.iter().map(|r| r.0[i]).collect()));
        let total = median(runs.iter().map(|r| r.1).collect());
        let name = f.file_name().unwrap_or_default().to_string_lossy();
        print!("{name:<28}");
        for s in median_stages {
            print!(" {:>8}", ms(s));
        }
        println!(" {:>9}", ms(total));
        all_stages.push(median_stages);
        totals.push(total);
    }
    let sum: [Duration; 7] = std::array::from_fn(|i| all_stages.iter().map(|s| s[i]).sum());
    let total: Duration = totals.iter().sum();
    print!("{:<28}", "SUM (corpus)");
    for s in sum {
        print!(" {:>8}", ms(s));
    }
    println!(" {:>9}", ms(total));
    println!(
        "median effect: {} ms; slowest: {} ms; stage share of the sum: {}",
        ms(median(totals.clone())),
        ms(totals.iter().copied().max().unwrap_or_default()),
        ["prep", "parse", "lower", "dxc", "cross", "rewrite", "write"]
            .iter()
            .zip(sum)
            .map(|(n, s)| format!(
                "{n} {:.0}%",
                100.0 * s.as_secs_f64() / total.as_secs_f64().max(1e-9)
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    isolation_cost(&files, &options, sum[3], total)?;
    wgpu_cost(&files)
}

/// The corpus with the wgpu target on (`Options::wgpu`): what the WGSL translation (SPIR-V
/// rewrites, naga parse + validate + write) adds per effect, against the GL compile of the same
/// run (every other stage). Aim: under 25 % more.
fn wgpu_cost(files: &[PathBuf]) -> Result<(), String> {
    let options = Options {
        wgpu: true,
        ..Options::default()
    };
    let mut wgsl = Duration::ZERO;
    let mut gl = Duration::ZERO;
    for f in files {
        compile_file(f, &options).map_err(|e| e.render(false))?;
        let mut runs = Vec::with_capacity(RUNS);
        for _ in 0..RUNS {
            let t = Instant::now();
            let c = compile_file(f, &options).map_err(|e| e.render(false))?;
            let total = t.elapsed();
            runs.push((c.timings.wgsl, total.saturating_sub(c.timings.wgsl)));
        }
        wgsl += median(runs.iter().map(|r| r.0).collect());
        gl += median(runs.iter().map(|r| r.1).collect());
    }
    let share = wgsl.as_secs_f64() / gl.as_secs_f64().max(1e-9);
    println!(
        "wgpu target (corpus sums): WGSL {} ms on top of the GL compile's {} ms ({:+.1}%), {} ms per effect",
        ms(wgsl),
        ms(gl),
        100.0 * share,
        ms(wgsl / files.len().max(1) as u32)
    );
    crate::bench_targets::ratio(
        "wgpu target: compile time with WGSL / GL alone",
        1.0 + share,
        1.25,
        false,
    );
    Ok(())
}

/// The corpus again with DXC in this process (`SHADOWDUSK_DXC_IN_PROCESS=1`) against the worker
/// processes measured above: what isolation costs per compile.
fn isolation_cost(
    files: &[PathBuf],
    options: &Options,
    dxc_workers: Duration,
    total_workers: Duration,
) -> Result<(), String> {
    let var = shadowdusk_compiler::dxc::IN_PROCESS_VAR;
    std::env::set_var(var, "1");
    let mut dxc = Duration::ZERO;
    let mut total = Duration::ZERO;
    for f in files {
        compile_file(f, options).map_err(|e| e.render(false))?;
        let mut runs = Vec::with_capacity(RUNS);
        for _ in 0..RUNS {
            let t = Instant::now();
            let c = compile_file(f, options).map_err(|e| e.render(false))?;
            runs.push((c.timings.dxc, t.elapsed()));
        }
        dxc += median(runs.iter().map(|r| r.0).collect());
        total += median(runs.iter().map(|r| r.1).collect());
    }
    std::env::remove_var(var);
    let pct =
        |a: Duration, b: Duration| 100.0 * (a.as_secs_f64() / b.as_secs_f64().max(1e-9) - 1.0);
    println!(
        "DXC isolation (workers vs in process, corpus sums): dxc stage {} vs {} ms ({:+.1}%), \
         whole compile {} vs {} ms ({:+.1}%)",
        ms(dxc_workers),
        ms(dxc),
        pct(dxc_workers, dxc),
        ms(total_workers),
        ms(total),
        pct(total_workers, total)
    );
    Ok(())
}

fn stages(t: &StageTimings) -> [Duration; 7] {
    [
        t.preprocess,
        t.parse,
        t.lower,
        t.dxc,
        t.cross,
        t.rewrite,
        t.write,
    ]
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}
