//! What a build says: failures rendered like rustc, warnings, and the one summary line.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use shadowdusk_compiler::diag::{render_located, Diagnostic};
use shadowdusk_compiler::pipeline::CompileError;
use shadowdusk_compiler::source::SourceFiles;

/// Why [`Builder::try_compile`](crate::Builder::try_compile) failed: a setup problem (no
/// `OUT_DIR`, a missing `.dir()` folder), or one entry per effect that failed, each with its
/// diagnostics already rendered. Effects that did compile still have their artifacts written.
///
/// `Display` renders every failure; each shader diagnostic starts with a line editors can jump
/// from, then rustc's snippet:
///
/// ```text
/// shaders/tint.fx:12:5: error[SD0010]: unknown identifier `Tnt`
///    ┌─ shaders/tint.fx:12:5
///    │
/// 12 │     Tnt * 2
///    │     ^^^
/// ```
#[derive(Debug)]
pub struct BuildError {
    setup: Option<String>,
    /// The error code of a setup problem that has one (SD0103: no DXC).
    setup_code: Option<&'static str>,
    failures: Vec<EffectFailure>,
    total: usize,
}

impl BuildError {
    pub(crate) fn setup(message: String) -> BuildError {
        BuildError {
            setup: Some(message),
            setup_code: None,
            failures: Vec::new(),
            total: 0,
        }
    }

    /// DXC could not be found, fetched or loaded (SD0103).
    pub(crate) fn no_dxc(message: String) -> BuildError {
        BuildError {
            setup_code: Some("SD0103"),
            ..BuildError::setup(message)
        }
    }

    pub(crate) fn effects(failures: Vec<EffectFailure>, total: usize) -> BuildError {
        BuildError {
            setup: None,
            setup_code: None,
            failures,
            total,
        }
    }

    /// The effects that failed, in build order (sorted by relative path).
    pub fn failures(&self) -> &[EffectFailure] {
        &self.failures
    }

    /// A problem that stopped the build before any effect was compiled.
    pub fn setup_error(&self) -> Option<&str> {
        self.setup.as_deref()
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.setup, self.setup_code) {
            (Some(s), Some(code)) => return write!(f, "error[{code}]: shadowdusk: {s}"),
            (Some(s), None) => return write!(f, "error: shadowdusk: {s}"),
            (None, _) => {}
        }
        for e in &self.failures {
            writeln!(f, "{}", e.rendered.trim_end())?;
            writeln!(f)?;
        }
        write!(
            f,
            "error: shadowdusk: {} of {} effect{} failed to compile",
            self.failures.len(),
            self.total,
            if self.total == 1 { "" } else { "s" }
        )
    }
}

impl std::error::Error for BuildError {}

/// One effect that failed.
#[derive(Debug)]
pub struct EffectFailure {
    /// The effect, relative to the crate root.
    pub relative: PathBuf,
    /// The effect, absolute.
    pub source: PathBuf,
    /// Every file read before the failure (the build script still watches them, so fixing any
    /// of them re-runs it).
    pub deps: Vec<PathBuf>,
    /// The compiler's error, when the shader itself is at fault (not an I/O failure writing the
    /// artifacts).
    pub error: Option<CompileError>,
    rendered: String,
}

impl EffectFailure {
    pub(crate) fn shader(
        relative: PathBuf,
        source: PathBuf,
        error: CompileError,
        root: &Path,
    ) -> EffectFailure {
        let rendered = render(&error.files, &error.diagnostics.0, root, &relative);
        EffectFailure {
            relative,
            source,
            deps: error.deps.clone(),
            error: Some(error),
            rendered,
        }
    }

    /// An effect that compiles for OpenGL but that the wgpu target cannot translate: its
    /// diagnostics, then the line that says so and the help line with the call that keeps it
    /// OpenGL-only.
    pub(crate) fn wgpu(
        relative: PathBuf,
        source: PathBuf,
        error: CompileError,
        root: &Path,
    ) -> EffectFailure {
        let mut failure = EffectFailure::shader(relative, source, error, root);
        failure.rendered = format!(
            "{}\n{}: error: the wgpu target cannot translate this effect, which compiles for \
             OpenGL\n  = {}",
            failure.rendered.trim_end(),
            failure.relative.display(),
            crate::opengl_only::help(&failure.relative)
        );
        failure
    }

    pub(crate) fn other(
        relative: PathBuf,
        source: PathBuf,
        deps: Vec<PathBuf>,
        message: String,
    ) -> EffectFailure {
        let rendered = format!("{}: error: {message}", relative.display());
        EffectFailure {
            relative,
            source,
            deps,
            error: None,
            rendered,
        }
    }

    /// The failure as printed: `path:line:col: error[CODE]: message` and a snippet per
    /// diagnostic, paths relative to the crate root.
    pub fn rendered(&self) -> &str {
        &self.rendered
    }
}

/// Renders diagnostics with paths relative to `root` (the compiler's one renderer for
/// located text).
pub(crate) fn render(
    files: &SourceFiles,
    diags: &[Diagnostic],
    root: &Path,
    effect: &Path,
) -> String {
    render_located(files, diags, root, effect)
}

/// `shadowdusk: 30 effects (1 compiled, 29 cached) in 12 ms`, plus `, N failed` when some did.
pub(crate) fn summary(
    total: usize,
    compiled: usize,
    cached: usize,
    failed: usize,
    elapsed: Duration,
) -> String {
    let mut counts = format!("{compiled} compiled, {cached} cached");
    if failed > 0 {
        counts.push_str(&format!(", {failed} failed"));
    }
    format!(
        "shadowdusk: {total} effect{} ({counts}) in {} ms",
        if total == 1 { "" } else { "s" },
        elapsed.as_millis()
    )
}
