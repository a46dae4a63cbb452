//! The one place that knows the order of the stages:
//! preprocess → effect parse → (per shader) lower → DXC → SPIRV-Cross → dialect → layout → write.

use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics};
use crate::preprocess;
use crate::source::SourceFiles;

/// Compiler options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Preprocessor options (platform, defines, include directories, debug).
    pub preprocess: preprocess::Options,
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
}

/// A successfully compiled effect.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The container model.
    pub effect: shadowdusk::mgfx::Effect,
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
    compile(path, None, options)
}

/// Compiles effect source text; `path` names it in diagnostics and anchors relative includes.
pub fn compile_source(
    path: &Path,
    text: &str,
    options: &Options,
) -> Result<Compiled, CompileError> {
    compile(path, Some(text), options)
}

fn compile(path: &Path, text: Option<&str>, options: &Options) -> Result<Compiled, CompileError> {
    let _ = (path, text, options);
    Err(CompileError {
        files: SourceFiles::new(),
        diagnostics: Diagnostic::error(crate::diag::Code::SD0004, "pipeline not implemented yet")
            .into(),
        deps: Vec::new(),
    })
}
