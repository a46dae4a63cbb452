//! The one place that knows the order of the stages:
//! preprocess → effect parse → (per shader) lower → DXC → SPIRV-Cross → dialect → layout → write.

use std::path::{Path, PathBuf};

mod construct_hint;
mod dxc_guard;
mod dxc_messages;
mod non_square_hint;
mod plan;
mod reflection;
mod shader;
mod wgpu_states;

use std::time::Instant;

use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::source::SourceFiles;
use crate::wgsl::WgpuEffect;
use crate::{effect, layout, preprocess};

/// Compiler options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Preprocessor options (platform, defines, include directories, debug).
    pub preprocess: preprocess::Options,
    /// Fail on any warning (CLI `/WX`, `Builder::warnings_as_errors`); off by default, as in
    /// mgfxc, whose fxc only warns.
    pub warnings_as_errors: bool,
    /// Which MGFX version to write (v10 by default, what every MonoGame 3.8 release loads).
    pub mgfx_version: MgfxVersion,
    /// The effect's name in v11 shader records (mgfxc writes the path relative to the build);
    /// the path as given when `None`.
    pub source_name: Option<String>,
    /// Also compile every shader for wgpu (WGSL through naga, [`Compiled::wgpu`]); needs the
    /// crate's feature `wgsl`, else the compile fails with SD0304.
    pub wgpu: bool,
}

/// The MGFX container version written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MgfxVersion {
    /// Version 10: MonoGame 3.8.0–3.8.4, KNI.
    #[default]
    V10,
    /// Version 11 (MonoGame's develop / 3.8.5 line): every shader record also names its source
    /// file and entry point, for run-time GLSL error messages (mgfx-format.md §10).
    V11,
}

/// Wall-clock time spent in each stage, summed over all shaders of the effect.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct StageTimings {
    /// Preprocessing.
    pub preprocess: std::time::Duration,
    /// Effect-syntax parse.
    pub parse: std::time::Duration,
    /// Lowering.
    pub lower: std::time::Duration,
    /// DXC.
    pub dxc: std::time::Duration,
    /// SPIRV-Cross.
    pub cross: std::time::Duration,
    /// Dialect rewrite.
    pub rewrite: std::time::Duration,
    /// Layout + MGFX write.
    pub write: std::time::Duration,
    /// The wgpu target: SPIR-V rewrites, naga parse, validation and WGSL write (zero when
    /// [`Options::wgpu`] is off).
    pub wgsl: std::time::Duration,
}

/// A successfully compiled effect.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The container model.
    pub effect: shadowdusk_mgfx::Effect,
    /// The MGFX bytes.
    pub bytes: Vec<u8>,
    /// Source-level reflection (locations, declarations, defaults), parallel to `effect`.
    pub reflection: crate::reflect::EffectReflection,
    /// Every file read, main file first.
    pub deps: Vec<PathBuf>,
    /// The source files (for rendering warnings).
    pub files: SourceFiles,
    /// Warnings.
    pub warnings: Diagnostics,
    /// Per-stage timings.
    pub timings: StageTimings,
    /// The DXC that compiled its shaders, as `dxc::expected_version` names a DXC (`None` when
    /// no shader needed one): a cache stores the effect only under this DXC's key.
    pub dxc: Option<String>,
    /// The wgpu output, when [`Options::wgpu`] asked for it and the wgpu target translated
    /// every shader: one WGSL shader per MGFX shader. `None` when it failed: see
    /// [`Compiled::wgpu_errors`].
    pub wgpu: Option<crate::wgsl::WgpuEffect>,
    /// Why the wgpu target could not translate the effect (SD0300–SD0304, at the construct),
    /// when [`Options::wgpu`] asked for it; empty when it succeeded or was not asked for. The
    /// OpenGL output above is complete either way: the wgpu target never costs it.
    pub wgpu_errors: Diagnostics,
}

impl Compiled {
    /// The wgpu target's failure as an error to render (with this effect's files), when it
    /// failed.
    pub fn wgpu_failure(&self) -> Option<CompileError> {
        (!self.wgpu_errors.is_empty()).then(|| {
            CompileError::new(
                self.files.clone(),
                self.wgpu_errors.clone(),
                self.deps.clone(),
            )
        })
    }
}

/// A failed compile: the diagnostics plus the files needed to render them.
#[derive(Clone, Debug)]
pub struct CompileError {
    /// Files read before the failure.
    pub files: SourceFiles,
    /// At least one error.
    pub diagnostics: Diagnostics,
    /// Files read before the failure (for rebuild tracking even on error).
    pub deps: Vec<PathBuf>,
}

impl CompileError {
    fn new(files: SourceFiles, diagnostics: Diagnostics, deps: Vec<PathBuf>) -> Self {
        CompileError {
            files,
            diagnostics,
            deps,
        }
    }

    /// Renders rustc-style with snippets.
    pub fn render(&self, color: bool) -> String {
        crate::diag::render_plain(&self.files, &self.diagnostics.0, color)
    }
    /// Renders mgfxc's `file(line,col): error CODE: message` form.
    pub fn render_mgfxc(&self) -> String {
        crate::diag::render_mgfxc(&self.files, &self.diagnostics.0)
    }
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for CompileError {}

/// Compiles the effect file at `path`.
pub fn compile_file(path: &Path, options: &Options) -> Result<Compiled, CompileError> {
    compile_preprocessed(read(path, None, &options.preprocess)?, options)
}

/// Compiles effect source text; `path` names it in diagnostics and anchors relative includes.
pub fn compile_source(
    path: &Path,
    text: &str,
    options: &Options,
) -> Result<Compiled, CompileError> {
    compile_preprocessed(read(path, Some(text), &options.preprocess)?, options)
}

/// An effect whose files have been read and preprocessed, once: a cache key, the content hash
/// an artifact records and the compile ([`compile_preprocessed`]) all take these texts, so a
/// file saved while the effect waits or compiles is never taken for what was compiled.
#[derive(Clone, Debug)]
pub struct Preprocessed {
    path: PathBuf,
    options: preprocess::Options,
    expanded: preprocess::Expanded,
    files: SourceFiles,
    time: std::time::Duration,
}

impl Preprocessed {
    /// Every file read, the effect first, with the text read.
    pub fn files(&self) -> &SourceFiles {
        &self.files
    }

    /// Every file read, the effect first, in read order (`Expanded::deps`, what
    /// `EffectReflection::files_read` will be).
    pub fn deps(&self) -> &[PathBuf] {
        &self.expanded.deps
    }

    /// [`crate::artifact::sources_hash`] of [`Self::deps`], from the texts read.
    pub fn sources_hash(&self) -> String {
        crate::artifact::hash_texts(self.expanded.deps.iter().map(|d| {
            self.files
                .find(d)
                .map_or("", |id| self.files.get(id).text.as_str())
        }))
    }
}

/// Reads and preprocesses the effect at `path` with `options` (the first stage of
/// [`compile_file`]); a failure carries the files read so far.
pub fn preprocess_file(
    path: &Path,
    options: &preprocess::Options,
) -> Result<Preprocessed, CompileError> {
    read(path, None, options)
}

fn read(
    path: &Path,
    text: Option<&str>,
    options: &preprocess::Options,
) -> Result<Preprocessed, CompileError> {
    let mut files = SourceFiles::new();
    let t = Instant::now();
    match preprocess::preprocess(path, text, options, &mut files) {
        Ok(expanded) => Ok(Preprocessed {
            path: path.to_path_buf(),
            options: options.clone(),
            expanded,
            files,
            time: t.elapsed(),
        }),
        Err(d) => {
            let deps = files.iter().map(|(_, f)| f.path.clone()).collect();
            Err(CompileError::new(files, d, deps))
        }
    }
}

/// Compiles an effect [`preprocess_file`] read, from the texts it read: nothing is read again.
/// The effect was preprocessed with the options given to [`preprocess_file`], which must be
/// `options.preprocess` (checked in debug builds).
pub fn compile_preprocessed(
    source: Preprocessed,
    options: &Options,
) -> Result<Compiled, CompileError> {
    crate::plumbing::test_gate(crate::plumbing::COMPILE_GATE);
    let Preprocessed {
        path,
        options: preprocessed_with,
        expanded,
        files,
        time,
    } = source;
    debug_assert_eq!(
        preprocessed_with, options.preprocess,
        "compiled with other preprocessor options than it was read with"
    );
    let path = path.as_path();
    let mut timings = StageTimings {
        preprocess: time,
        ..StageTimings::default()
    };
    let deps = expanded.deps.clone();

    let t = Instant::now();
    let parsed = match effect::parse(&expanded) {
        Ok(p) => p,
        Err(d) => return Err(CompileError::new(files, d, deps)),
    };
    timings.parse = t.elapsed();

    let plan = plan::shaders(&parsed.ast);
    let mut warnings = expanded.warnings.clone();
    warnings.extend(parsed.warnings.clone());
    if options.wgpu {
        warnings.extend(wgpu_states::check(&expanded, &parsed));
    }
    let ShaderResults {
        shaders,
        diags,
        dxc,
        mut wgpu,
        wgpu_errors,
    } = compile_shaders(
        &expanded,
        &parsed,
        &plan,
        options.wgpu,
        &mut timings,
        &mut warnings,
    );
    if diags.has_errors() {
        // Warnings first, as a compiler prints them in source order before it gives up; then
        // the GL errors, then the wgpu target's.
        warnings.extend(diags);
        warnings.extend(wgpu_errors);
        return Err(CompileError::new(files, warnings, deps));
    }
    // In source order, whichever stage or shader found them.
    warnings
        .0
        .sort_by_key(|d| d.primary.as_ref().map(|p| (p.span.file.0, p.span.start)));
    if options.warnings_as_errors && !warnings.is_empty() {
        return Err(CompileError::new(files, promoted(warnings), deps));
    }

    let t = Instant::now();
    let (effect, bytes) = match write_effect(path, &expanded, &parsed, &plan, &shaders, options) {
        Ok(written) => written,
        Err(d) => return Err(CompileError::new(files, d, deps)),
    };
    timings.write = t.elapsed();

    let reflection = reflection::build(path, &expanded, &parsed, &files, &effect, &plan, &shaders);
    // A shader the wgpu target refused leaves the effect without a wgpu part, never with a
    // partial one.
    if !wgpu_errors.is_empty() {
        wgpu = None;
    }
    Ok(Compiled {
        effect,
        bytes,
        reflection,
        deps,
        files,
        warnings,
        timings,
        dxc,
        wgpu,
        wgpu_errors,
    })
}

/// What the shaders of one effect compiled to, for both targets.
struct ShaderResults {
    shaders: Vec<layout::ShaderInput>,
    /// The OpenGL target's diagnostics; the effect fails when they hold an error.
    diags: Diagnostics,
    dxc: Option<String>,
    wgpu: Option<WgpuEffect>,
    wgpu_errors: Diagnostics,
}

/// Every planned shader is compiled even after one fails, so one build reports every
/// shader's errors; a wgpu failure only drops the wgpu part.
fn compile_shaders(
    expanded: &preprocess::Expanded,
    parsed: &effect::ParsedEffect,
    plan: &plan::ShaderPlan,
    wgpu_asked: bool,
    timings: &mut StageTimings,
    warnings: &mut Diagnostics,
) -> ShaderResults {
    let mut out = ShaderResults {
        shaders: Vec::with_capacity(plan.shaders.len()),
        diags: Diagnostics::new(),
        dxc: None,
        wgpu: wgpu_asked.then(WgpuEffect::default),
        wgpu_errors: Diagnostics::new(),
    };
    for job in &plan.shaders {
        match shader::compile(
            expanded,
            parsed,
            job,
            timings,
            warnings,
            &mut out.dxc,
            wgpu_asked,
        ) {
            Ok((s, w)) => {
                out.shaders.push(s);
                match w {
                    Some(Ok(w)) => {
                        if let Some(all) = out.wgpu.as_mut() {
                            all.shaders.push(w);
                        }
                    }
                    Some(Err(d)) => out.wgpu_errors.extend(d),
                    None => {}
                }
            }
            Err(d) => out.diags.extend(d),
        }
    }
    out
}

/// Under `/WX` the warnings fail the compile, each saying why it is now an error.
fn promoted(warnings: Diagnostics) -> Diagnostics {
    let promoted = warnings
        .into_iter()
        .map(|mut w| {
            w.severity = Severity::Error;
            w.notes
                .push("warnings are errors here (`/WX`, `warnings_as_errors`)".into());
            w
        })
        .collect();
    Diagnostics::from_vec(promoted)
}

/// The MGFX bytes and the model read back from them, so the model carries the key the writer
/// computes and equals the bytes exactly.
fn write_effect(
    path: &Path,
    expanded: &preprocess::Expanded,
    parsed: &effect::ParsedEffect,
    plan: &plan::ShaderPlan,
    shaders: &[layout::ShaderInput],
    options: &Options,
) -> Result<(shadowdusk_mgfx::Effect, Vec<u8>), Diagnostics> {
    let mut effect = layout::build(expanded, &parsed.ast, shaders, &plan.passes)?;
    if options.mgfx_version == MgfxVersion::V11 {
        let source = options
            .source_name
            .clone()
            .unwrap_or_else(|| path.display().to_string());
        effect.version = 11;
        for (s, job) in effect.shaders.iter_mut().zip(&plan.shaders) {
            s.source_file = Some(source.clone());
            s.entry_point = Some(job.shader.entry.clone());
        }
    }
    let bytes = shadowdusk_mgfx::write(&effect).map_err(|e| {
        Diagnostic::error(Code::SD0022, format!("the effect does not fit MGFX: {e}"))
            .with_help("split the effect into smaller ones")
    })?;
    let effect = shadowdusk_mgfx::read(&bytes).map_err(|e| {
        Diagnostic::error(
            Code::SD0022,
            format!("internal error: the written MGFX does not read back ({e:?})"),
        )
        .with_help("please report this with the effect file")
    })?;
    Ok((effect, bytes))
}
