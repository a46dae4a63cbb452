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
use shadowdusk_compiler::pipeline;

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

/// Takes the first source of an effect's artifacts that is current, in order of cost: the
/// stamps, `OUT_DIR`, the shared folder, a compile.
fn run_one(ctx: &Ctx, f: &EffectFile, gl_only: bool) -> Outcome {
    let start = Instant::now();
    let (build, key_base) = ctx.build(gl_only);
    let paths = artifact::paths(&ctx.out_dir, &f.rel);

    // 0. Nothing it read has changed since the last build: its artifacts are current, under
    // the key remembered for them.
    if let Some(entry) = ctx.stamps.unchanged(&f.rel, &f.abs) {
        if [&paths.mgfx, &paths.code, &paths.manifest]
            .iter()
            .all(|p| p.is_file())
        {
            return stamped(ctx, f, paths, entry, start);
        }
    }
    let (effect, source, mut timings) = ReadEffect::read(ctx, f, paths, key_base, start)?;

    // 2. Already in OUT_DIR, for this effect of this crate.
    let t = Instant::now();
    if let Some(outcome) = effect.out_dir_hit(t, timings) {
        return outcome;
    }

    let module = module_name(&f.rel);
    let options = options::for_effect(build, &f.rel);

    // 3. In the shared folder.
    if let Some(dir) = &ctx.cache_dir {
        let hit = cache::load_shared(dir, &effect.key, &ctx.root, &f.abs, &effect.paths);
        timings.lookup = t.elapsed();
        if let Some(hit) = hit {
            return effect.serve_shared(hit, &module, &options, timings);
        }
    } else {
        timings.lookup = t.elapsed();
    }

    // 4. Compile what was read.
    effect.compile(source, &module, &options, timings)
}

/// The stamps say nothing the effect read has changed: its artifacts are served without
/// reading a file, under the key remembered for them.
fn stamped(
    ctx: &Ctx,
    f: &EffectFile,
    paths: artifact::ArtifactPaths,
    entry: &stamps::Entry,
    start: Instant,
) -> Outcome {
    let mut timings = EffectTimings::default();
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
    Ok(EffectArtifact {
        relative: f.rel.clone(),
        source: f.abs.clone(),
        paths,
        origin: Origin::OutDir,
        cache_key: entry.key.clone(),
        deps,
        warnings: entry.warnings.clone(),
        timings,
    })
}

/// One effect after the build's one read of its files: the key, stamps and dependencies that
/// every later step serves, stores and reports under, so they all describe that one text.
struct ReadEffect<'a> {
    ctx: &'a Ctx,
    f: &'a EffectFile,
    paths: artifact::ArtifactPaths,
    key: String,
    deps: Vec<PathBuf>,
    /// The stamps of the read, when they can be trusted to tell a later change.
    read: Option<stamps::Snapshot>,
    start: Instant,
}

impl<'a> ReadEffect<'a> {
    /// Step 1: the build's one read of the effect's files (the preprocessor alone tells which
    /// files it reads). The key, the stamps remembered for it, the content hash its manifest
    /// records and the compile all take this read, so a file saved at any moment after it is
    /// never stored or served under the key of another text.
    fn read(
        ctx: &'a Ctx,
        f: &'a EffectFile,
        paths: artifact::ArtifactPaths,
        key_base: &blake3::Hasher,
        start: Instant,
    ) -> Result<(Self, pipeline::Preprocessed, EffectTimings), EffectFailure> {
        let mut timings = EffectTimings::default();
        let read_started = SystemTime::now();
        let source = pipeline::preprocess_file(&f.abs, &ctx.options.preprocess)
            .map_err(|e| EffectFailure::shader(f.rel.clone(), f.abs.clone(), e, &ctx.root))?;
        let include_dirs = &ctx.options.preprocess.include_dirs;
        let read = stamps::Snapshot::after_read(source.files(), include_dirs, read_started);
        let key = cache::key(key_base, &f.rel, source.files(), &ctx.root);
        let deps = source.deps().to_vec();
        timings.key = start.elapsed();
        let effect = ReadEffect {
            ctx,
            f,
            paths,
            key,
            deps,
            read,
            start,
        };
        Ok((effect, source, timings))
    }

    /// The next build skips the read when nothing read has changed since these stamps.
    fn remember(&self, warnings: &[String]) {
        if let Some(read) = &self.read {
            self.ctx
                .stamps
                .remember(&self.f.rel, &self.f.abs, &self.key, read, warnings);
        }
    }

    /// A failure that is not the shader's, reported against the files the effect read.
    fn other_failure(&self, deps: Vec<PathBuf>, message: String) -> EffectFailure {
        EffectFailure::other(self.f.rel.clone(), self.f.abs.clone(), deps, message)
    }

    /// A write that failed fails the effect, naming the file.
    fn io_failure(&self, e: output::WriteError) -> EffectFailure {
        self.other_failure(
            self.deps.clone(),
            format!("cannot write {}: {}", e.path.display(), e.error),
        )
    }

    /// A served artifact must not look older than the files it was built from
    /// ([`output::keep_current`]).
    fn keep_current(&self) -> Result<(), EffectFailure> {
        output::keep_current(&self.paths.mgfx, &self.deps).map_err(|error| {
            self.io_failure(output::WriteError {
                path: self.paths.mgfx.clone(),
                error,
            })
        })
    }

    /// Every source of artifacts ends the same way: the artifact under this read's key.
    fn done(&self, origin: Origin, warnings: Vec<String>, mut timings: EffectTimings) -> Outcome {
        timings.total = self.start.elapsed();
        Ok(EffectArtifact {
            relative: self.f.rel.clone(),
            source: self.f.abs.clone(),
            paths: self.paths.clone(),
            origin,
            cache_key: self.key.clone(),
            deps: self.deps.clone(),
            warnings,
            timings,
        })
    }

    /// Step 2: `OUT_DIR` still holds this key's artifacts.
    fn out_dir_hit(&self, t: Instant, mut timings: EffectTimings) -> Option<Outcome> {
        let fresh = cache::out_dir_fresh(&self.paths, &self.key, &self.f.abs, &self.ctx.root)?;
        if let Err(e) = self.keep_current() {
            return Some(Err(e));
        }
        timings.lookup = t.elapsed();
        self.remember(&fresh.warnings);
        Some(self.done(Origin::OutDir, fresh.warnings, timings))
    }

    /// Step 3: another build stored this key in the shared folder: its bytes are written here as a
    /// compile's would be.
    fn serve_shared(
        &self,
        hit: cache::SharedHit,
        module: &str,
        options: &pipeline::Options,
        mut timings: EffectTimings,
    ) -> Outcome {
        let artifact = Artifact {
            bytes: &hit.bytes,
            effect: &hit.effect,
            manifest: &hit.manifest,
        };
        let mut warnings = self.finish(artifact, module, options, &mut timings)?;
        self.remember(&hit.manifest.warnings);
        warnings.extend(hit.manifest.warnings.iter().cloned());
        self.done(Origin::SharedCache, warnings, timings)
    }

    /// Writes the `.mgfx`, the generated module and the manifest, and returns the warnings of
    /// the module's generation.
    fn finish(
        &self,
        artifact: Artifact<'_>,
        module: &str,
        options: &pipeline::Options,
        timings: &mut EffectTimings,
    ) -> Result<Vec<String>, EffectFailure> {
        let t = Instant::now();
        output::write_mgfx(&self.paths, artifact.bytes).map_err(|e| self.io_failure(e))?;
        timings.write += t.elapsed();
        let (code, refused) = output::module_code(
            &self.paths,
            module,
            artifact.effect,
            artifact.manifest,
            options,
            timings,
        );
        output::write_module_and_manifest(&self.paths, &code, artifact.manifest, timings)
            .map_err(|e| self.io_failure(e))?;
        let t = Instant::now();
        self.keep_current()?;
        timings.write += t.elapsed();
        Ok(refused.into_iter().collect::<Vec<_>>())
    }

    /// Step 4: compile what was read, holding a job token, with DXC loaded by the first effect that
    /// gets here.
    fn compile(
        &self,
        source: pipeline::Preprocessed,
        module: &str,
        options: &pipeline::Options,
        mut timings: EffectTimings,
    ) -> Outcome {
        let _token = self.ctx.tokens.acquire();
        if let Err(e) = self.ctx.dxc.ready() {
            // The build reports this once (`Builder::try_compile`), not once per effect.
            return Err(self.other_failure(self.deps.clone(), e));
        }
        let t = Instant::now();
        let sources_hash = source.sources_hash();
        let compiled = pipeline::compile_preprocessed(source, options).map_err(|e| {
            EffectFailure::shader(self.f.rel.clone(), self.f.abs.clone(), e, &self.ctx.root)
        })?;
        self.check_compiled(&compiled)?;
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
                &self.ctx.root,
                &self.f.rel,
            )]
        };
        let manifest = self.manifest(&compiled, options, sources_hash, shader_warnings.clone());
        let artifact = Artifact {
            bytes: &compiled.bytes,
            effect: &compiled.effect,
            manifest: &manifest,
        };
        let mut warnings = self.finish(artifact, module, options, &mut timings)?;
        self.remember(&manifest.warnings);
        warnings.extend(shader_warnings);
        if let Some(dir) = &self.ctx.cache_dir {
            let t = Instant::now();
            let stored =
                cache::store_shared(dir, &self.key, &self.ctx.root, &compiled.bytes, &manifest);
            if let Err(e) = stored {
                warnings.push(format!(
                    "{}: could not store in the shared cache {}: {e}",
                    self.f.rel.display(),
                    dir.display()
                ));
            }
            timings.write += t.elapsed();
        }
        self.done(Origin::Compiled, warnings, timings)
    }

    /// A compile that is fine for OpenGL can still fail the build: nothing is written or
    /// remembered then, so the next build tries again.
    fn check_compiled(&self, compiled: &pipeline::Compiled) -> Result<(), EffectFailure> {
        // The build asked for wgpu too: fail this effect at the construct, with the call that
        // keeps it OpenGL-only.
        if let Some(mut e) = compiled.wgpu_failure() {
            // Its warnings first, as a failed compile prints them.
            let mut all = compiled.warnings.clone();
            all.extend(e.diagnostics);
            e.diagnostics = all;
            return Err(EffectFailure::wgpu(
                self.f.rel.clone(),
                self.f.abs.clone(),
                e,
                &self.ctx.root,
            ));
        }
        // Stored only under the key of the DXC that compiled it.
        if let Err(e) = self.ctx.dxc.check(compiled.dxc.as_deref()) {
            return Err(self.other_failure(compiled.deps.clone(), e));
        }
        Ok(())
    }

    /// What the artifact's manifest records: enough to serve it again, from here or from the
    /// shared folder, without compiling.
    fn manifest(
        &self,
        compiled: &pipeline::Compiled,
        options: &pipeline::Options,
        sources_hash: String,
        warnings: Vec<String>,
    ) -> Manifest {
        Manifest {
            warnings,
            format: FORMAT,
            source: self.f.abs.clone(),
            relative: self.f.rel.clone(),
            root: self.ctx.root.clone(),
            mgfx: self.paths.mgfx.clone(),
            cache_key: self.key.clone(),
            sources_hash,
            defines: options.preprocess.defines.clone(),
            include_dirs: options.preprocess.include_dirs.clone(),
            warnings_as_errors: options.warnings_as_errors,
            reflection: compiled.reflection.clone(),
            layout: cache::layout_of(&compiled.effect),
            wgpu: compiled.wgpu.clone(),
        }
    }
}

/// What an artifact is written from, whether compiled here or loaded from the shared folder.
#[derive(Clone, Copy)]
struct Artifact<'a> {
    bytes: &'a [u8],
    effect: &'a shadowdusk_mgfx::Effect,
    manifest: &'a Manifest,
}

/// How long a compile took: wall time and the pipeline's per-stage sums.
#[derive(Clone, Copy, Debug)]
pub struct CompileTimes {
    /// Wall time of `compile_file`.
    pub wall: Duration,
    /// Per stage.
    pub stages: pipeline::StageTimings,
}
