//! `cargo xtask bench hot`: shader hot reload, from file save to the new program being ready.
//!
//! Every effect of `tests/corpus` is copied (with the corpus's includes) to a temporary folder
//! and watched by `shadowdusk_compiler::watch::Watcher`, as `shadowdusk::hot::HotEffect` does.
//! Each round saves the effect the way editors do (a new file renamed over the old one, with a
//! comment changed), waits for the recompile, and links the new effect on a headless GL context.
//! "Ready" is when the program is linked: what a game's next frame would draw with. Then the
//! same for wgpu, as `WgpuHotEffect` does: recompiled with the wgpu target on, and ready when
//! its shader modules are made on a headless wgpu device (lavapipe). Figures are printed; the
//! aim, checked by `bench_targets`, is a median under 50 ms on each runtime.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use shadowdusk::gl::headless::HeadlessGl;
use shadowdusk::gl::DynEffect;
use shadowdusk::wgpu_runtime::headless::HeadlessWgpu;
use shadowdusk::wgpu_runtime::DynWgpuEffect;
use shadowdusk_compiler::pipeline::Compiled;
use shadowdusk_compiler::watch::Watcher;
use shadowdusk_compiler::Options;

const ROUNDS: usize = 5;

/// Whether a runtime loads a compile.
type Loads<'a> = dyn Fn(&Compiled) -> bool + 'a;

/// Per round: compile, load, and save → ready.
type Times = (Vec<Duration>, Vec<Duration>, Vec<Duration>);

pub fn run(root: &Path) -> Result<(), String> {
    let corpus = root.join("tests/corpus");
    let tmp = std::env::temp_dir().join(format!("shadowdusk-bench-hot-{}", std::process::id()));
    copy_dir(&corpus, &tmp)?;
    let gl = HeadlessGl::new(64, 64).map_err(|e| format!("headless GL: {e}"))?;
    let mut effects: Vec<PathBuf> = std::fs::read_dir(&tmp)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "fx"))
        .collect();
    effects.sort();

    let gpu = HeadlessWgpu::new().map_err(|e| format!("headless wgpu: {e}"))?;
    let gl_loads = |c: &Compiled| DynEffect::new(gl.context(), &c.bytes).is_ok();
    let wgpu_loads = |c: &Compiled| {
        c.wgpu
            .as_ref()
            .is_some_and(|w| DynWgpuEffect::from_output(gpu.device(), "bench", w, &c.bytes).is_ok())
    };
    let wgpu_options = Options {
        wgpu: true,
        ..Options::default()
    };
    let runs: [(&str, &str, Options, &Loads<'_>); 2] = [
        ("OpenGL", "link", Options::default(), &gl_loads),
        ("wgpu", "modules", wgpu_options, &wgpu_loads),
    ];
    for (runtime, load, options, loads) in runs {
        println!(
            "\nhot reload on {runtime}: save → recompiled → {load} ({ROUNDS} saves per effect, \
             median; `compile` includes the watcher's 15 ms settle for an editor's burst of events)"
        );
        println!(
            "{:<34} {:>10} {:>10} {:>10}",
            "effect", "compile", load, "save→ready"
        );
        let mut all: Vec<(String, Duration)> = Vec::new();
        let mut skipped = Vec::new();
        for fx in &effects {
            let name = fx
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            match rounds(fx, &tmp, &options, loads)? {
                Some((compile, link, ready)) => {
                    let r = median(ready);
                    println!(
                        "{name:<34} {:>10} {:>10} {:>10}",
                        ms(median(compile)),
                        ms(median(link)),
                        ms(r)
                    );
                    all.push((name, r));
                }
                None => skipped.push(name),
            }
        }
        if all.is_empty() {
            return Err(format!(
                "no corpus effect could be hot-reloaded on {runtime}"
            ));
        }
        all.sort_by_key(|(_, d)| *d);
        crate::bench_targets::at_most(
            &format!("hot reload on {runtime}: save → ready (median over the corpus)"),
            all[all.len() / 2].1,
            Duration::from_millis(50),
        );
        let (slowest, worst) = all.last().expect("not empty");
        println!(
            "{} effects: median save→ready {}, slowest {} ({slowest}); aim: under 50 ms",
            all.len(),
            ms(all[all.len() / 2].1),
            ms(*worst)
        );
        if !skipped.is_empty() {
            println!(
                "not loadable on {runtime}, so not measured: {}",
                skipped.join(", ")
            );
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(())
}

/// Times a round of saves of `fx` (copied in `tmp`): each recompile with `options` and its load
/// (`loads` says whether the runtime took it). `None` when a compile or load fails.
fn rounds(
    fx: &Path,
    tmp: &Path,
    options: &Options,
    loads: &Loads<'_>,
) -> Result<Option<Times>, String> {
    let original = std::fs::read_to_string(fx).map_err(|e| e.to_string())?;
    let watcher = Watcher::new(fx, &[], options.clone(), tmp)?;
    let (mut compile, mut link, mut ready) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let saved = Instant::now();
        save(fx, &format!("{original}\n// edit {round}\n"))?;
        let Some(update) = watcher.wait(Duration::from_secs(30)) else {
            return Err(format!(
                "{}: no recompile within 30 s of a save",
                fx.display()
            ));
        };
        let Ok(compiled) = update.result else {
            break;
        };
        let start = Instant::now();
        // Effects a runtime refuses (no pixel shader, …) are not hot-reloadable there.
        if !loads(&compiled) {
            break;
        }
        let now = Instant::now();
        compile.push(update.compiled_at - update.changed_at);
        link.push(now - start);
        ready.push(now - saved);
    }
    std::fs::write(fx, &original).map_err(|e| e.to_string())?;
    Ok((ready.len() == ROUNDS).then_some((compile, link, ready)))
}

/// Writes a new file and renames it over `path`, as editors save.
fn save(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("fx.saving");
    std::fs::write(&tmp, text).map_err(|e| e.to_string())?;
    std::fs::rename(&tmp, path).map_err(|e| e.to_string())
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    for entry in walkdir(from)? {
        let rel = entry.strip_prefix(from).map_err(|e| e.to_string())?;
        let dest = to.join(rel);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::copy(&entry, &dest).map_err(|e| format!("{}: {e}", entry.display()))?;
    }
    Ok(())
}

fn walkdir(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let p = e.map_err(|e| e.to_string())?.path();
        if p.is_dir() {
            out.extend(walkdir(&p)?);
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}
