//! One effect from source to artifacts (key → `OUT_DIR` hit → shared hit → compile), and the
//! rayon pool that runs them, bounded by the job count. Results come back in input order, so
//! the output does not depend on which thread finished first.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use shadowdusk_compiler::artifact::{self, Manifest, FORMAT};
use shadowdusk_compiler::pipeline::{self, CompileError};
use shadowdusk_compiler::preprocess;
use shadowdusk_compiler::source::SourceFiles;

use crate::discover::EffectFile;
use crate::report::EffectFailure;
use crate::{cache, output, EffectArtifact, EffectTimings, Origin};

/// What every effect of one build shares.
pub(crate) struct Ctx {
    pub root: PathBuf,
    pub out_dir: PathBuf,
    pub cache_dir: Option<PathBuf>,
    pub options: pipeline::Options,
    pub key_base: blake3::Hasher,
}

/// The result of one effect.
pub(crate) type Outcome = Result<EffectArtifact, EffectFailure>;

/// Runs every effect on a pool of `jobs` threads; outcomes are in `effects` order.
pub(crate) fn run_all(
    ctx: &Ctx,
    effects: &[EffectFile],
    jobs: usize,
) -> Result<Vec<Outcome>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .thread_name(|i| format!("shadowdusk-{i}"))
        .build()
        .map_err(|e| format!("cannot start {jobs} compile threads: {e}"))?;
    Ok(pool.install(|| effects.par_iter().map(|f| guarded(ctx, f)).collect()))
}

/// A panic is a compiler bug; it fails that effect with a message naming it, not the whole
/// build script with a backtrace from a pool thread.
fn guarded(ctx: &Ctx, f: &EffectFile) -> Outcome {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_one(ctx, f))).unwrap_or_else(
        |payload| {
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
        },
    )
}

/// The generated module's name: the file stem in snake_case, as `include_effect!` names it.
pub(crate) fn module_name(rel: &Path) -> String {
    shadowdusk_compiler::codegen::module_name(rel)
}

fn run_one(ctx: &Ctx, f: &EffectFile) -> Outcome {
    let start = Instant::now();
    let shader_failure =
        |e: CompileError| EffectFailure::shader(f.rel.clone(), f.abs.clone(), e, &ctx.root);

    // 1. The key: the preprocessor alone tells which files the effect reads.
    let mut files = SourceFiles::new();
    let expanded = match preprocess::preprocess(&f.abs, None, &ctx.options.preprocess, &mut files) {
        Ok(e) => e,
        Err(diagnostics) => {
            let deps = files.iter().map(|(_, s)| s.path.clone()).collect();
            return Err(shader_failure(CompileError {
                files,
                diagnostics,
                deps,
            }));
        }
    };
    let key = cache::key(&ctx.key_base, &f.rel, &files, &ctx.root);
    let key_time = start.elapsed();
    let paths = artifact::paths(&ctx.out_dir, &f.rel);
    let io_failure = |deps: &[PathBuf], e: output::WriteError| {
        EffectFailure::other(
            f.rel.clone(),
            f.abs.clone(),
            deps.to_vec(),
            format!("cannot write {}: {}", e.path.display(), e.error),
        )
    };
    let done = |origin, deps: Vec<PathBuf>, compile, warnings| {
        Ok(EffectArtifact {
            relative: f.rel.clone(),
            source: f.abs.clone(),
            paths: paths.clone(),
            origin,
            cache_key: key.clone(),
            deps,
            warnings,
            timings: EffectTimings {
                key: key_time,
                compile,
                total: start.elapsed(),
            },
        })
    };

    // 2. Already in OUT_DIR.
    if let Some(fresh) = cache::out_dir_fresh(&paths, &key, &f.abs) {
        let deps = expanded.deps;
        output::keep_current(&paths.mgfx, &deps).map_err(|error| {
            io_failure(
                &deps,
                output::WriteError {
                    path: paths.mgfx.clone(),
                    error,
                },
            )
        })?;
        return done(Origin::OutDir, deps, None, fresh.warnings);
    }

    let module = module_name(&f.rel);
    let finish =
        |bytes: &[u8], effect: &shadowdusk_mgfx::Effect, manifest: &Manifest, deps: &[PathBuf]| {
            let warnings = output::write_artifacts(&paths, &module, bytes, effect, manifest)
                .map_err(|e| io_failure(deps, e))?;
            output::keep_current(&paths.mgfx, deps).map_err(|error| {
                io_failure(
                    deps,
                    output::WriteError {
                        path: paths.mgfx.clone(),
                        error,
                    },
                )
            })?;
            Ok::<_, EffectFailure>(warnings)
        };

    // 3. In the shared folder.
    if let Some(dir) = &ctx.cache_dir {
        if let Some(hit) = cache::load_shared(dir, &key, &ctx.root, &f.abs, &paths) {
            let deps = expanded.deps;
            let mut warnings = finish(&hit.bytes, &hit.effect, &hit.manifest, &deps)?;
            warnings.extend(hit.manifest.warnings.iter().cloned());
            return done(Origin::SharedCache, deps, None, warnings);
        }
    }

    // 4. Compile.
    let t = Instant::now();
    // v11 shader records name the effect as the crate sees it, the same on every machine.
    let options = pipeline::Options {
        source_name: Some(output::source_name(&f.rel)),
        ..ctx.options.clone()
    };
    let compiled = pipeline::compile_file(&f.abs, &options).map_err(shader_failure)?;
    let compile_time = t.elapsed();
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
        mgfx: paths.mgfx.clone(),
        cache_key: key.clone(),
        sources_hash: artifact::sources_hash(&compiled.reflection.files_read).unwrap_or_default(),
        defines: ctx.options.preprocess.defines.clone(),
        include_dirs: ctx.options.preprocess.include_dirs.clone(),
        warnings_as_errors: ctx.options.warnings_as_errors,
        reflection: compiled.reflection.clone(),
        layout: cache::layout_of(&compiled.effect),
    };
    let mut warnings = finish(&compiled.bytes, &compiled.effect, &manifest, &compiled.deps)?;
    warnings.extend(shader_warnings);
    if let Some(dir) = &ctx.cache_dir {
        if let Err(e) = cache::store_shared(dir, &key, &ctx.root, &compiled.bytes, &manifest) {
            warnings.push(format!(
                "{}: could not store in the shared cache {}: {e}",
                f.rel.display(),
                dir.display()
            ));
        }
    }
    done(
        Origin::Compiled,
        compiled.deps,
        Some(CompileTimes {
            wall: compile_time,
            stages: compiled.timings,
        }),
        warnings,
    )
}

/// How long a compile took: wall time and the pipeline's per-stage sums.
#[derive(Clone, Copy, Debug)]
pub struct CompileTimes {
    /// Wall time of `compile_file`.
    pub wall: Duration,
    /// Per stage.
    pub stages: pipeline::StageTimings,
}
