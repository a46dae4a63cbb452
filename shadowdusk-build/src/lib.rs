//! [`Builder`]: compile a crate's effects from its build script, in the spirit of the `cc` crate.
//!
//! ```no_run
//! // build.rs
//! fn main() {
//!     shadowdusk_build::Builder::new()
//!         .dir("shaders") // every *.fx below it; includes are followed, not compiled alone
//!         .define("QUALITY", "2")
//!         .compile();
//! }
//! ```
//!
//! and in the crate, for `shaders/tint.fx`:
//!
//! ```ignore
//! shadowdusk::include_effect!("shaders/tint.fx"); // pub mod tint { … }
//! // or, without the macro, the module the build script generated:
//! include!(concat!(env!("OUT_DIR"), "/shadowdusk/shaders/tint.rs"));
//! ```
//!
//! # What it writes
//!
//! For each effect at `rel` (relative to the crate root), the three files of
//! [`artifact::paths`](shadowdusk_compiler::artifact::paths): `OUT_DIR/shadowdusk/<rel>.mgfx` (the bytes),
//! `.json` (the [`Manifest`](shadowdusk_compiler::artifact::Manifest): reflection, layout, every file read,
//! the cache key) and `.rs` (the typed module, readable: this is where to look at what
//! `include_effect!` generates). Files are rewritten only when their content changes.
//!
//! # What it tells cargo
//!
//! `cargo:rerun-if-changed` for every effect, every file any effect read (so editing an
//! included `.fxh` re-runs the script), every `.dir()` folder (so a new `.fx` is noticed) and
//! every include folder (a new header there can shadow another); then
//! `cargo:rerun-if-env-changed` for `SHADOWDUSK_DXC` and `SHADOWDUSK_CACHE_DIR`. As with any
//! `rerun-if-changed`, cargo then stops re-running the script for other changes in the
//! package; [`Builder::cargo_directives`]`(false)` turns all of this off. A failed effect
//! still reports what it read, so fixing it re-runs the script. Last comes one line for people
//! (cargo keeps it in the script's `output` file):
//! `shadowdusk: 30 effects (1 compiled, 29 cached) in 12 ms`.
//!
//! # Environment
//!
//! | Variable | Used for | Setter that overrides it |
//! |---|---|---|
//! | `CARGO_MANIFEST_DIR` | the crate root every path is relative to | [`Builder::manifest_dir`] |
//! | `OUT_DIR` | where artifacts go | [`Builder::out_dir`] |
//! | `NUM_JOBS` | how many effects compile at once (else the machine's parallelism) | [`Builder::jobs`] |
//! | `SHADOWDUSK_CACHE_DIR` | a cache folder shared between crates and machines | [`Builder::cache_dir`], [`Builder::no_cache_dir`] |
//! | `SHADOWDUSK_DXC` | `libdxcompiler.so` (see [`LIBRARY_VAR`](shadowdusk_compiler::dxc::LIBRARY_VAR)) | — |
//!
//! # Cache
//!
//! Each effect has a content key (this crate, the compiler and DXC, the options, and every file
//! read, read once per build: the compile takes that same read, so a shader saved while the
//! build runs is compiled by the next one); an effect whose artifacts in `OUT_DIR` carry its
//! key and were compiled for this crate root is not recompiled, and with a shared cache folder a
//! key compiled by another crate or machine is copied instead of compiled. Details, and why
//! sharing is keyed on crate-relative paths: the `cache` module's documentation (source of
//! `src/cache.rs`).

#![warn(missing_docs)]
// The example is a whole build.rs, whose `fn main` is the point.
#![allow(clippy::needless_doctest_main)]

mod cache;
mod cargo;
mod discover;
mod dxc_on_demand;
mod opengl_only;
mod options;
mod output;
mod report;
mod run;
mod stamps;
#[cfg(test)]
mod tests;
mod tokens;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use shadowdusk_compiler::artifact::ArtifactPaths;
use shadowdusk_compiler::pipeline;

use dxc_on_demand::DxcOnDemand;

pub use report::{BuildError, EffectFailure};
pub use run::CompileTimes;
/// What [`Builder::mgfx_version`] takes, so a build script needs no other ShadowDusk crate.
pub use shadowdusk_compiler::MgfxVersion;

/// The graphics back end effects are compiled for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Target {
    /// MonoGame DesktopGL / GLES / WebGL (MGFX v10, MojoShader-dialect GLSL).
    #[default]
    OpenGL,
}

/// Where the shared cache folder comes from.
#[derive(Clone, Debug, Default)]
enum CacheSetting {
    /// `SHADOWDUSK_CACHE_DIR`, when set.
    #[default]
    FromEnv,
    Dir(PathBuf),
    Off,
}

/// Compiles effect files from a build script. See the [module docs](self) for what it writes
/// and prints.
///
/// Setters take and return `&mut Builder`, so options can be set conditionally; `compile` and
/// `try_compile` take `&self` and can be called again.
#[derive(Clone, Debug, Default)]
pub struct Builder {
    dirs: Vec<PathBuf>,
    files: Vec<PathBuf>,
    defines: Vec<(String, String)>,
    include_dirs: Vec<PathBuf>,
    target: Target,
    out_dir: Option<PathBuf>,
    manifest_dir: Option<PathBuf>,
    cache: CacheSetting,
    jobs: Option<usize>,
    no_directives: bool,
    no_summary: bool,
    no_warnings: bool,
    warnings_as_errors: bool,
    mgfx_version: MgfxVersion,
    wgpu: bool,
    opengl_only: Vec<String>,
    cache_max_bytes: Option<u64>,
    sink: cargo::Sink,
}

/// Where one effect's artifacts came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Compiled by this run.
    Compiled,
    /// `OUT_DIR` already held artifacts with the same key; nothing was written.
    OutDir,
    /// Copied from the shared cache folder.
    SharedCache,
}

/// How long one effect took, by step (what `cargo xtask bench build` sums).
#[derive(Clone, Copy, Debug, Default)]
pub struct EffectTimings {
    /// Preprocessing and hashing (the cache key).
    pub key: Duration,
    /// Looking the key up: the manifest in `OUT_DIR`, the shared folder.
    pub lookup: Duration,
    /// The compile, when there was one.
    pub compile: Option<CompileTimes>,
    /// Generating the Rust module's tokens.
    pub codegen: Duration,
    /// Formatting them into the module's text.
    pub format: Duration,
    /// Serialising the manifest.
    pub manifest: Duration,
    /// Writing the files (and storing them in the shared folder).
    pub write: Duration,
    /// Everything, from the first step to the last (waiting for a job token included).
    pub total: Duration,
}

/// One effect of a successful build.
#[derive(Clone, Debug)]
pub struct EffectArtifact {
    /// The effect, relative to the crate root (as `include_effect!` names it).
    pub relative: PathBuf,
    /// The effect, absolute.
    pub source: PathBuf,
    /// Its files in `OUT_DIR`.
    pub paths: ArtifactPaths,
    /// Compiled, or from which cache.
    pub origin: Origin,
    /// The content key (hex blake3).
    pub cache_key: String,
    /// Every file the effect read, the effect first.
    pub deps: Vec<PathBuf>,
    /// Warnings printed for it (`cargo:warning=`).
    pub warnings: Vec<String>,
    /// Timings.
    pub timings: EffectTimings,
}

/// What [`Builder::try_compile`] produced.
#[derive(Clone, Debug)]
pub struct Artifacts {
    /// One entry per effect, sorted by relative path.
    pub effects: Vec<EffectArtifact>,
    /// Wall time of the whole build.
    pub elapsed: Duration,
}

impl Artifacts {
    /// The effect at `relative` (as given to `.file()` or found under `.dir()`).
    pub fn get(&self, relative: impl AsRef<Path>) -> Option<&EffectArtifact> {
        let r = shadowdusk_compiler::plumbing::normalize(relative.as_ref());
        self.effects.iter().find(|e| e.relative == r)
    }

    /// How many effects this run compiled.
    pub fn compiled(&self) -> usize {
        self.count(|o| o == Origin::Compiled)
    }

    /// How many came from a cache (`OUT_DIR` or the shared folder).
    pub fn cached(&self) -> usize {
        self.count(|o| o != Origin::Compiled)
    }

    fn count(&self, f: impl Fn(Origin) -> bool) -> usize {
        self.effects.iter().filter(|e| f(e.origin)).count()
    }
}

impl Builder {
    /// A builder with no effects, target OpenGL, and everything else from cargo's environment.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Compiles every `*.fx` file under `dir` (recursively, relative to the crate root).
    /// Other files there (`.fxh`, …) are compiled only as includes. Cargo watches the folder, so
    /// adding an effect re-runs the build script.
    pub fn dir(&mut self, dir: impl AsRef<Path>) -> &mut Builder {
        self.dirs.push(dir.as_ref().to_path_buf());
        self
    }

    /// Compiles one effect file (relative to the crate root), whatever its extension.
    pub fn file(&mut self, file: impl AsRef<Path>) -> &mut Builder {
        self.files.push(file.as_ref().to_path_buf());
        self
    }

    /// Defines a preprocessor macro for every effect, like mgfxc's `/Defines:NAME=VALUE`;
    /// `None` defines it as `1`. Part of the cache key.
    pub fn define<'a>(&mut self, name: &str, value: impl Into<Option<&'a str>>) -> &mut Builder {
        let value = value.into().unwrap_or("1");
        self.defines.push((name.to_string(), value.to_string()));
        self
    }

    /// Makes every warning (implicit truncation, a shadowed name, a case-mismatched
    /// `#include` …) fail the build, like mgfxc's `/WX`. Off by default: fxc only warns, and
    /// warnings are printed as `cargo:warning=` lines. Part of the cache key.
    pub fn warnings_as_errors(&mut self, on: bool) -> &mut Builder {
        self.warnings_as_errors = on;
        self
    }

    /// Writes MGFX v11 (MonoGame's develop / 3.8.5 line, whose shader records name their source
    /// file and entry point) instead of the default v10, which every MonoGame 3.8 release and
    /// KNI load. Part of the cache key.
    pub fn mgfx_version(&mut self, version: MgfxVersion) -> &mut Builder {
        self.mgfx_version = version;
        self
    }

    /// Also compiles every effect for wgpu: WGSL through naga, validated at build time, and in
    /// each generated module a `wgsl` part (`tint::wgsl::EFFECT`, `Effect::WGPU`: each shader's
    /// WGSL, bind-group layout entries and vertex inputs, each pass's states). `Params` is the
    /// same for both. States wgpu cannot express are warnings at the state (SD0310–SD0314).
    /// An effect the target cannot translate fails the build (at the construct, with the call
    /// that keeps it OpenGL-only: [`Builder::opengl_only`]). Off by default; needs this crate's
    /// feature `wgpu` (naga in the build). Part of the cache key.
    #[cfg(feature = "wgpu")]
    pub fn wgpu(&mut self, on: bool) -> &mut Builder {
        self.wgpu = on;
        self
    }

    /// Builds the effects `path` names for OpenGL only, when the wgpu target is on: a file, a
    /// folder (every effect below it) or a glob (`*` and `?` within one folder, `**` across
    /// them), relative to the crate root, e.g. `.opengl_only("shaders/legacy/*.fx")`. Such an
    /// effect is compiled as a build without [`Builder::wgpu`] compiles it: its generated module
    /// has no `wgsl` part (`Effect::WGPU` is `None`). Without this, an effect the wgpu target
    /// cannot translate fails the build, with an error at the construct and a help line that
    /// shows this call. A pattern that names no effect is a warning. Part of each named
    /// effect's cache key.
    pub fn opengl_only(&mut self, path: impl AsRef<Path>) -> &mut Builder {
        self.opengl_only
            .push(path.as_ref().to_string_lossy().into_owned());
        self
    }

    /// Adds an include search folder (relative to the crate root), like mgfxc's `/I:`. Cargo
    /// watches it.
    pub fn include_dir(&mut self, dir: impl AsRef<Path>) -> &mut Builder {
        self.include_dirs.push(dir.as_ref().to_path_buf());
        self
    }

    /// The back end. Default (and only one so far): [`Target::OpenGL`].
    pub fn target(&mut self, target: Target) -> &mut Builder {
        self.target = target;
        self
    }

    /// Where artifacts go. Default: `OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Builder {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The crate root that effect paths are relative to. Default: `CARGO_MANIFEST_DIR`.
    pub fn manifest_dir(&mut self, dir: impl AsRef<Path>) -> &mut Builder {
        self.manifest_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// A cache folder shared between crates, checkouts and machines. Default:
    /// `SHADOWDUSK_CACHE_DIR` when set (non-empty), else none.
    pub fn cache_dir(&mut self, dir: impl AsRef<Path>) -> &mut Builder {
        self.cache = CacheSetting::Dir(dir.as_ref().to_path_buf());
        self
    }

    /// The most the shared cache folder may hold; after a build, the entries used longest ago
    /// are removed until it holds at most 80 % of this. Default: `SHADOWDUSK_CACHE_MAX_MB`
    /// megabytes when set, else 1024 MB.
    pub fn cache_max_size(&mut self, bytes: u64) -> &mut Builder {
        self.cache_max_bytes = Some(bytes);
        self
    }

    /// No shared cache folder, even when `SHADOWDUSK_CACHE_DIR` is set.
    pub fn no_cache_dir(&mut self) -> &mut Builder {
        self.cache = CacheSetting::Off;
        self
    }

    /// How many effects compile at once. Default: cargo's `NUM_JOBS` (its `-j`), else the
    /// machine's available parallelism.
    pub fn jobs(&mut self, jobs: usize) -> &mut Builder {
        self.jobs = Some(jobs.max(1));
        self
    }

    /// Whether to print `cargo:rerun-if-changed` / `rerun-if-env-changed` (default `true`).
    pub fn cargo_directives(&mut self, on: bool) -> &mut Builder {
        self.no_directives = !on;
        self
    }

    /// Whether to print the `shadowdusk: N effects (…)` summary line (default `true`).
    pub fn summary(&mut self, on: bool) -> &mut Builder {
        self.no_summary = !on;
        self
    }

    /// Whether to print each effect's warnings as `cargo:warning=` lines (default `true`);
    /// they are in [`EffectArtifact::warnings`] either way.
    pub fn print_warnings(&mut self, on: bool) -> &mut Builder {
        self.no_warnings = !on;
        self
    }

    /// Sends every printed line to `lines` instead of stdout.
    #[cfg(test)]
    pub(crate) fn capture(
        &mut self,
        lines: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    ) -> &mut Builder {
        self.sink = cargo::Sink::Capture(lines);
        self
    }

    /// Compiles, or prints every failed effect's diagnostics to stderr and exits the build
    /// script with status 1 (cargo then shows them; no panic backtrace).
    pub fn compile(&self) -> Artifacts {
        match self.try_compile() {
            Ok(a) => a,
            Err(e) => {
                #[allow(clippy::print_stderr)] // Cargo shows a failed script's stderr.
                {
                    eprintln!("{e}");
                }
                std::process::exit(1)
            }
        }
    }

    /// Compiles every effect, writes its artifacts and prints the cargo directives. Every
    /// effect is attempted; on failure the error lists each failed one.
    pub fn try_compile(&self) -> Result<Artifacts, BuildError> {
        let start = Instant::now();
        let root = self.root()?;
        let (out_dir, cache_dir) = self.folders(&root)?;
        let effects =
            discover::effects(&root, &self.dirs, &self.files).map_err(BuildError::setup)?;
        // A first build on a machine may fetch DXC into the per-user cache; cargo shows a
        // build script's warnings, never its stderr, so the one line about it is a warning.
        if matches!(self.sink, cargo::Sink::Stdout) {
            shadowdusk_compiler::dxc::provision::set_notice(cargo::print_warning);
        }
        let include_dirs: Vec<PathBuf> = self
            .include_dirs
            .iter()
            .map(|d| discover::resolve(&root, d))
            .collect();
        let options = options::for_build(
            self.target,
            &self.defines,
            &include_dirs,
            self.warnings_as_errors,
            self.mgfx_version,
            self.wgpu,
        );
        let opengl_only =
            opengl_only::OpenGlOnly::new(&root, &self.opengl_only).map_err(BuildError::setup)?;
        let gl_only: Vec<bool> = effects
            .iter()
            .map(|f| options.wgpu && opengl_only.names(&f.rel))
            .collect();
        let folders = (root.clone(), out_dir, cache_dir);
        let (ctx, outcomes) = self.run(folders, options, &effects, &gl_only)?;
        if let Some(dir) = &ctx.cache_dir {
            cache::prune(dir, self.cache_max_bytes());
        }
        self.directives(&outcomes, &root, &include_dirs);
        if ctx.options.wgpu && !self.no_warnings {
            for w in opengl_only.unused() {
                self.sink.warning(&format!(
                    "`.opengl_only({w:?})` names no effect of this build (paths and globs are \
                     relative to the crate root)"
                ));
            }
        }
        self.report(outcomes, effects.len(), start)
    }

    /// Where the artifacts go (`OUT_DIR` unless `.out_dir(…)` names a folder) and the shared
    /// cache, if any, both absolute.
    fn folders(&self, root: &Path) -> Result<(PathBuf, Option<PathBuf>), BuildError> {
        let out_dir = match &self.out_dir {
            Some(d) => discover::resolve(root, d),
            None => cargo::env_path(cargo::OUT_DIR).ok_or_else(|| {
                BuildError::setup(
                    "OUT_DIR is not set: run the Builder from a build script, or call \
                     .out_dir(…)"
                        .into(),
                )
            })?,
        };
        let cache_dir = match &self.cache {
            CacheSetting::FromEnv => cargo::env_path(cargo::CACHE_DIR),
            CacheSetting::Dir(d) => Some(d.clone()),
            CacheSetting::Off => None,
        }
        .map(|d| discover::resolve(root, &d));
        Ok((out_dir, cache_dir))
    }

    /// Compiles (or serves) every effect, keyed by the DXC on disk; when DXC was replaced
    /// during the build, once again, since what the old one compiled under the new one's keys
    /// was stored nowhere. Returns the context as it ended.
    fn run(
        &self,
        (root, out_dir, cache_dir): (PathBuf, PathBuf, Option<PathBuf>),
        options: pipeline::Options,
        effects: &[discover::EffectFile],
        gl_only: &[bool],
    ) -> Result<(run::Ctx, Vec<run::Outcome>), BuildError> {
        let jobs = self.jobs.or_else(cargo::num_jobs).unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        // The named effects' options: the build's without the wgpu target, so their keys and
        // artifacts are a build's without it.
        let gl_options = pipeline::Options {
            wgpu: false,
            ..options.clone()
        };
        // DXC is loaded by the first effect no cache holds, not here.
        let dxc = if effects.is_empty() {
            DxcOnDemand::unused()
        } else {
            DxcOnDemand::expected()
        };
        let artifact_dir = out_dir.join(shadowdusk_compiler::artifact::DIR);
        let mut ctx = run::Ctx {
            stamps: stamps::Stamps::default(),
            key_base: self.key_base(&dxc, &options, &root),
            gl_key_base: self.key_base(&dxc, &gl_options, &root),
            root,
            out_dir,
            cache_dir,
            options,
            gl_options,
            dxc,
            tokens: tokens::Tokens::from_env(),
        };
        ctx.stamps = load_stamps(&ctx, effects, gl_only);
        output::remove_stale_temporaries(&artifact_dir);
        let mut outcomes = run::run_all(&ctx, effects, gl_only, jobs).map_err(BuildError::setup);
        if ctx.dxc.drifted() {
            ctx.dxc = DxcOnDemand::expected();
            ctx.key_base = self.key_base(&ctx.dxc, &ctx.options, &ctx.root);
            ctx.gl_key_base = self.key_base(&ctx.dxc, &ctx.gl_options, &ctx.root);
            ctx.stamps = load_stamps(&ctx, effects, gl_only);
            outcomes = run::run_all(&ctx, effects, gl_only, jobs).map_err(BuildError::setup);
        }
        ctx.stamps.save();
        // The build is done with DXC: its worker processes end now, not when they expire, so
        // the build script leaves none behind.
        shadowdusk_compiler::dxc::release_workers();
        // Without DXC every compile fails the same way: say it once. (A failed build script
        // always runs again, so no directive is needed to notice DXC arriving.)
        if let Some(e) = ctx.dxc.failure() {
            return Err(BuildError::no_dxc(e.to_string()));
        }
        let outcomes = outcomes?;
        Ok((ctx, outcomes))
    }

    /// The part of every effect's cache key that the build shares: toolchain (with the DXC
    /// `dxc` names), target, options and crate root.
    fn key_base(
        &self,
        dxc: &DxcOnDemand,
        options: &pipeline::Options,
        root: &Path,
    ) -> blake3::Hasher {
        cache::key_base(
            &cache::Toolchain::with_dxc(dxc.key_identity()),
            self.target,
            options,
            root,
        )
    }

    /// The cache's size limit: `.cache_max_bytes(…)`, else `SHADOWDUSK_CACHE_MAX_MB`, else 1 GiB.
    fn cache_max_bytes(&self) -> u64 {
        self.cache_max_bytes.unwrap_or_else(|| {
            std::env::var("SHADOWDUSK_CACHE_MAX_MB")
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .unwrap_or(1024)
                .saturating_mul(1 << 20)
        })
    }

    /// Passes on each effect's warnings, prints the one-line summary, and gives the artifacts,
    /// or the error that lists every effect that failed.
    fn report(
        &self,
        outcomes: Vec<run::Outcome>,
        count: usize,
        start: Instant,
    ) -> Result<Artifacts, BuildError> {
        let mut artifacts = Vec::new();
        let mut failures = Vec::new();
        for o in outcomes {
            match o {
                Ok(a) => {
                    if !self.no_warnings {
                        for w in &a.warnings {
                            self.sink.warning(w);
                        }
                    }
                    artifacts.push(a);
                }
                Err(f) => failures.push(f),
            }
        }
        let result = Artifacts {
            effects: artifacts,
            elapsed: start.elapsed(),
        };
        if !self.no_summary {
            self.sink.line(report::summary(
                count,
                result.compiled(),
                result.cached(),
                failures.len(),
                result.elapsed,
            ));
        }
        if failures.is_empty() {
            Ok(result)
        } else {
            Err(BuildError::effects(failures, count))
        }
    }

    /// The crate root, absolute.
    fn root(&self) -> Result<PathBuf, BuildError> {
        let root = match &self.manifest_dir {
            Some(d) => d.clone(),
            None => cargo::env_path(cargo::MANIFEST_DIR).ok_or_else(|| {
                BuildError::setup(
                    "CARGO_MANIFEST_DIR is not set: run the Builder from a build script, or \
                     call .manifest_dir(…)"
                        .into(),
                )
            })?,
        };
        let root = if root.is_absolute() {
            root
        } else {
            let cwd = std::env::current_dir().map_err(|e| {
                BuildError::setup(format!("cannot read the current directory: {e}"))
            })?;
            cwd.join(root)
        };
        Ok(shadowdusk_compiler::plumbing::normalize(&root))
    }

    fn directives(&self, outcomes: &[run::Outcome], root: &Path, include_dirs: &[PathBuf]) {
        if self.no_directives {
            return;
        }
        let mut watched: Vec<PathBuf> = Vec::new();
        let mut watch = |p: &Path| {
            let p = shadowdusk_compiler::plumbing::normalize(p);
            if !watched.contains(&p) {
                watched.push(p);
            }
        };
        for o in outcomes {
            let (source, deps) = match o {
                Ok(a) => (&a.source, &a.deps),
                Err(f) => (&f.source, &f.deps),
            };
            watch(source);
            deps.iter().for_each(|d| watch(d));
        }
        for d in &self.dirs {
            watch(&discover::resolve(root, d));
        }
        include_dirs.iter().for_each(|d| watch(d));
        for p in watched {
            self.sink
                .line(format!("cargo:rerun-if-changed={}", p.display()));
        }
        for var in [shadowdusk_compiler::dxc::LIBRARY_VAR, cargo::CACHE_DIR] {
            self.sink.line(format!("cargo:rerun-if-env-changed={var}"));
        }
    }
}

/// The keys each effect's stamps remember from the last build, under `ctx`'s key bases.
fn load_stamps(
    ctx: &run::Ctx,
    effects: &[discover::EffectFile],
    gl_only: &[bool],
) -> stamps::Stamps {
    let of: Vec<stamps::Effect<'_>> = effects
        .iter()
        .zip(gl_only)
        .map(|(f, &gl_only)| stamps::Effect {
            rel: &f.rel,
            source: &f.abs,
            key_base: ctx.build(gl_only).1,
        })
        .collect();
    stamps::Stamps::load(&ctx.out_dir, &ctx.root, &of)
}
