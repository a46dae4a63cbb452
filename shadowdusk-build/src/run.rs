//! One effect from source to artifacts (stamps hit → one read and its key → `OUT_DIR` hit →
//! shared hit → compile of that read), and the threads that run them: as many as the job
//! count, taking effects from one queue, largest file first (the longest compiles start early,
//! so no thread is left alone with one at the end), and inside cargo limited by the job token
//! each compile holds ([`crate::tokens`]). Results come back in input order, so the output does
//! not depend on which thread finished first.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use shadowdusk_compiler::artifact::{self, Manifest, FORMAT};
use shadowdusk_compiler::pipeline::{self, CompileError};

use crate::discover::EffectFile;
use crate::dxc_on_demand::DxcOnDemand;
use crate::report::EffectFailure;
use crate::stamps::{self, Stamps};
use crate::tokens::Tokens;
use crate::{cache, options, output, EffectArtifact, EffectTimings, Origin};

/// What every effect of one build shares.
pub(crate) struct Ctx {
    pub root: PathBuf,
    pub out_dir: PathBuf,
    pub cache_dir: Option<PathBuf>,
    /// The build's compiler options ([`options::for_build`]).
    pub options: pipeline::Options,
    pub key_base: blake3::Hasher,
    /// The options and key base of the effects `Builder::opengl_only` names: the build's
    /// without the wgpu target.
    pub gl_options: pipeline::Options,
    pub gl_key_base: blake3::Hasher,
    /// Loaded by the first miss.
    pub dxc: DxcOnDemand,
    /// Held by each compile.
    pub tokens: Tokens,
    /// Keys remembered by the stamps of what each effect read.
    pub stamps: Stamps,
}

impl Ctx {
    /// The options and key base of an effect, OpenGL-only (`Builder::opengl_only`) or not.
    pub fn build(&self, gl_only: bool) -> (&pipeline::Options, &blake3::Hasher) {
        if gl_only {
            (&self.gl_options, &self.gl_key_base)
        } else {
            (&self.options, &self.key_base)
        }
    }
}

/// The result of one effect.
pub(crate) type Outcome = Result<EffectArtifact, EffectFailure>;

/// Runs every effect on `jobs` threads, those `gl_only` marks without the wgpu target;
/// outcomes are in `effects` order.
pub(crate) fn run_all(
    ctx: &Ctx,
    effects: &[EffectFile],
    gl_only: &[bool],
    jobs: usize,
) -> Result<Vec<Outcome>, String> {
    let size = |f: &EffectFile| std::fs::metadata(&f.abs).map_or(0, |m| m.len());
    let mut order: Vec<(u64, usize)> = effects
        .iter()
        .enumerate()
        .map(|(i, f)| (size(f), i))
        .collect();
    order.sort_by_key(|&(size, i)| (std::cmp::Reverse(size), i));
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Outcome>>> = effects.iter().map(|_| Mutex::new(None)).collect();
    let work = || {
        while let Some(&(_, i)) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            let outcome = guarded(ctx, &effects[i], gl_only.get(i).copied().unwrap_or(false));
            *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(outcome);
        }
    };
    let threads = jobs.clamp(1, effects.len().max(1));
    std::thread::scope(|s| {
        let mut started = 0;
        let mut failure = None;
        for t in 0..threads {
            match std::thread::Builder::new()
                .name(format!("shadowdusk-{t}"))
                .spawn_scoped(s, work)
            {
                Ok(_) => started += 1,
                Err(e) => failure = Some(e),
            }
        }
        // Fewer threads than asked only make the build slower; none at all is an error.
        match failure {
            Some(e) if started == 0 => Err(format!("cannot start {threads} compile threads: {e}")),
            _ => Ok(()),
        }
    })?;
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .ok_or_else(|| "an effect was left unbuilt".to_string())
        })
        .collect()
}

/// A panic is a compiler bug; it fails that effect with a message naming it, not the whole
/// build script with a backtrace from a pool thread.
fn guarded(ctx: &Ctx, f: &EffectFile, gl_only: bool) -> Outcome {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_one(ctx, f, gl_only)))
        .unwrap_or_else(|payload| {
            let what = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Err(EffectFailure::other(
                f.rel.clone(),
                f.abs.clone(),
                vec![f.abs.clone()],
                format!("internal compiler error: {what}; please report this with the effect file"),
            ))
        })
}

/// The generated module's name: the file stem in snake_case, as `include_effect!` names it.
pub(crate) fn module_name(rel: &Path) -> String {
    shadowdusk_compiler::codegen::module_name(rel)
}

fn run_one(ctx: &Ctx, f: &EffectFile, gl_only: bool) -> Outcome {
    let start = Instant::now();
    let (build, key_base) = ctx.build(gl_only);
    let mut timings = EffectTimings::default();
    let paths = artifact::paths(&ctx.out_dir, &f.rel);

    // 0. Nothing it read has changed since the last build: its artifacts are current, under
    // the key remembered for them.
    if let Some(entry) = ctx.stamps.unchanged(&f.rel, &f.abs) {
        if [&paths.mgfx, &paths.code, &paths.manifest]
            .iter()
            .all(|p| p.is_file())
        {
            let deps = entry.deps();
            output::keep_current(&paths.mgfx, &deps).map_err(|e| {
                EffectFailure::other(
                    f.rel.clone(),
                    f.abs.clone(),
                    deps.clone(),
                    format!("cannot write {}: {e}", paths.mgfx.display()),
                )
            })?;
            ctx.stamps.keep(&f.rel, entry);
            timings.lookup = start.elapsed();
            timings.total = start.elapsed();
            return Ok(EffectArtifact {
                relative: f.rel.clone(),
                source: f.abs.clone(),
                paths,
                origin: Origin::OutDir,
                cache_key: entry.key.clone(),
                deps,
                warnings: entry.warnings.clone(),
                timings,
            });
        }
    }
    let shader_failure =
        |e: CompileError| EffectFailure::shader(f.rel.clone(), f.abs.clone(), e, &ctx.root);

    // 1. The build's one read of the effect's files (the preprocessor alone tells which files
    // it reads). The key, the stamps remembered for it, the content hash its manifest records
    // and the compile all take this read, so a file saved at any moment after it is never
    // stored or served under the key of another text.
    let read_started = SystemTime::now();
    let source =
        pipeline::preprocess_file(&f.abs, &ctx.options.preprocess).map_err(shader_failure)?;
    let include_dirs = &ctx.options.preprocess.include_dirs;
    let read = stamps::Snapshot::after_read(source.files(), include_dirs, read_started);
    let key = cache::key(key_base, &f.rel, source.files(), &ctx.root);
    let deps = source.deps().to_vec();
    timings.key = start.elapsed();
    let remember = |warnings: &[String]| {
        if let Some(read) = &read {
            ctx.stamps.remember(&f.rel, &f.abs, &key, read, warnings);
        }
    };
    let io_failure = |e: output::WriteError| {
        EffectFailure::other(
            f.rel.clone(),
            f.abs.clone(),
            deps.clone(),
            format!("cannot write {}: {}", e.path.display(), e.error),
        )
    };
    let keep_current = || {
        output::keep_current(&paths.mgfx, &deps).map_err(|error| {
            io_failure(output::WriteError {
                path: paths.mgfx.clone(),
                error,
            })
        })
    };
    let done = |origin, warnings, mut timings: EffectTimings| {
        timings.total = start.elapsed();
        Ok(EffectArtifact {
            relative: f.rel.clone(),
            source: f.abs.clone(),
            paths: paths.clone(),
            origin,
            cache_key: key.clone(),
            deps: deps.clone(),
            warnings,
            timings,
        })
    };

    // 2. Already in OUT_DIR, for this effect of this crate.
    let t = Instant::now();
    if let Some(fresh) = cache::out_dir_fresh(&paths, &key, &f.abs, &ctx.root) {
        keep_current()?;
        timings.lookup = t.elapsed();
        remember(&fresh.warnings);
        return done(Origin::OutDir, fresh.warnings, timings);
    }

    let module = module_name(&f.rel);
    let options = options::for_effect(build, &f.rel);
    let finish = |bytes: &[u8],
                  effect: &shadowdusk_mgfx::Effect,
                  manifest: &Manifest,
                  timings: &mut EffectTimings| {
        let t = Instant::now();
        output::write_mgfx(&paths, bytes).map_err(io_failure)?;
        timings.write += t.elapsed();
        let (code, refused) =
            output::module_code(&paths, &module, effect, manifest, &options, timings);
        output::write_module_and_manifest(&paths, &code, manifest, timings).map_err(io_failure)?;
        let t = Instant::now();
        keep_current()?;
        timings.write += t.elapsed();
        Ok::<_, EffectFailure>(refused.into_iter().collect::<Vec<_>>())
    };

    // 3. In the shared folder.
    if let Some(dir) = &ctx.cache_dir {
        let hit = cache::load_shared(dir, &key, &ctx.root, &f.abs, &paths);
        timings.lookup = t.elapsed();
        if let Some(hit) = hit {
            let mut warnings = finish(&hit.bytes, &hit.effect, &hit.manifest, &mut timings)?;
            remember(&hit.manifest.warnings);
            warnings.extend(hit.manifest.warnings.iter().cloned());
            return done(Origin::SharedCache, warnings, timings);
        }
    } else {
        timings.lookup = t.elapsed();
    }

    // 4. Compile what was read, holding a job token, with DXC loaded by the first effect that
    // gets here.
    let _token = ctx.tokens.acquire();
    if let Err(e) = ctx.dxc.ready() {
        // The build reports this once (`Builder::try_compile`), not once per effect.
        return Err(EffectFailure::other(
            f.rel.clone(),
            f.abs.clone(),
            deps.clone(),
            e,
        ));
    }
    let t = Instant::now();
    let sources_hash = source.sources_hash();
    let compiled = pipeline::compile_preprocessed(source, &options).map_err(shader_failure)?;
    // The OpenGL output is fine, but the build asked for wgpu too: fail this effect at the
    // construct, with the call that keeps it OpenGL-only. Nothing is written or remembered, so
    // the next build tries again.
    if let Some(mut e) = compiled.wgpu_failure() {
        // Its warnings first, as a failed compile prints them.
        let mut all = compiled.warnings.clone();
        all.extend(e.diagnostics);
        e.diagnostics = all;
        return Err(EffectFailure::wgpu(
            f.rel.clone(),
            f.abs.clone(),
            e,
            &ctx.root,
        ));
    }
    // Stored only under the key of the DXC that compiled it.
    if let Err(e) = ctx.dxc.check(compiled.dxc.as_deref()) {
        return Err(EffectFailure::other(
            f.rel.clone(),
            f.abs.clone(),
            compiled.deps,
            e,
        ));
    }
    timings.compile = Some(CompileTimes {
        wall: t.elapsed(),
        stages: compiled.timings,
    });
    let shader_warnings: Vec<String> = if compiled.warnings.is_empty() {
        Vec::new()
    } else {
        vec![crate::report::render(
            &compiled.files,
            &compiled.warnings.0,
            &ctx.root,
            &f.rel,
        )]
    };
    let manifest = Manifest {
        warnings: shader_warnings.clone(),
        format: FORMAT,
        source: f.abs.clone(),
        relative: f.rel.clone(),
        root: ctx.root.clone(),
        mgfx: paths.mgfx.clone(),
        cache_key: key.clone(),
        sources_hash,
        defines: options.preprocess.defines.clone(),
        include_dirs: options.preprocess.include_dirs.clone(),
        warnings_as_errors: options.warnings_as_errors,
        reflection: compiled.reflection.clone(),
        layout: cache::layout_of(&compiled.effect),
        wgpu: compiled.wgpu.clone(),
    };
    let mut warnings = finish(&compiled.bytes, &compiled.effect, &manifest, &mut timings)?;
    remember(&manifest.warnings);
    warnings.extend(shader_warnings);
    if let Some(dir) = &ctx.cache_dir {
        let t = Instant::now();
        if let Err(e) = cache::store_shared(dir, &key, &ctx.root, &compiled.bytes, &manifest) {
            warnings.push(format!(
                "{}: could not store in the shared cache {}: {e}",
                f.rel.display(),
                dir.display()
            ));
        }
        timings.write += t.elapsed();
    }
    done(Origin::Compiled, warnings, timings)
}

/// How long a compile took: wall time and the pipeline's per-stage sums.
#[derive(Clone, Copy, Debug)]
pub struct CompileTimes {
    /// Wall time of `compile_file`.
    pub wall: Duration,
    /// Per stage.
    pub stages: pipeline::StageTimings,
}
