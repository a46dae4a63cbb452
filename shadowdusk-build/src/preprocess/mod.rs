//! Stage 1: the C preprocessor.
//!
//! Input: the effect's path (and, optionally, its text) plus [`Options`].
//! Output: [`Expanded`]: one text with every `#include` inlined, every directive evaluated and
//! every macro expanded, plus a [`SourceMap`] from each output byte to the original file and
//! offset, and the list of files read (for rebuild tracking).
//!
//! Invariants:
//! - Line structure is kept where it can be: a directive line becomes an empty line, a block
//!   comment keeps its newlines, so for the main file DXC's line numbers stay close to the user's.
//! - No `#line` markers are emitted; positions travel through the map instead.
//! - MonoGame's predefined macros for the target are defined first (OpenGL: `MGFX`, `GLSL`,
//!   `OPENGL`, each `1`), then the user's defines.
//!
//! Implements fx-pipeline.md §2.

use std::path::{Path, PathBuf};

use crate::diag::Diagnostics;
use crate::source::{SourceFiles, SourceMap};

/// Which MonoGame platform the effect is compiled for (selects the predefined macros).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub enum Platform {
    /// DesktopGL / GLES / WebGL: `MGFX`, `GLSL`, `OPENGL`.
    #[default]
    OpenGL,
}

/// Preprocessor settings.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Target platform.
    pub platform: Platform,
    /// User defines in order, `(name, value)`; a define without a value has value `"1"`.
    pub defines: Vec<(String, String)>,
    /// Extra include directories, searched after the including file's directory.
    pub include_dirs: Vec<PathBuf>,
    /// Adds `DEBUG` like mgfxc's `/Debug`.
    pub debug: bool,
}

/// The preprocessed effect.
#[derive(Clone, Debug)]
pub struct Expanded {
    /// The expanded text.
    pub text: String,
    /// Output offset → original file and offset.
    pub map: SourceMap,
    /// Every file that was read, the main file first, in read order (deduplicated).
    pub deps: Vec<PathBuf>,
}

/// Preprocesses the file at `path`. When `text` is given it is used instead of reading `path`
/// (includes are still resolved relative to `path`'s directory). Every file read is added to
/// `files`, so diagnostics can be rendered with snippets.
pub fn preprocess(
    path: &Path,
    text: Option<&str>,
    options: &Options,
    files: &mut SourceFiles,
) -> Result<Expanded, Diagnostics> {
    let _ = (path, text, options, files);
    Err(crate::diag::Diagnostic::error(crate::diag::Code::SD0004, "preprocessor not implemented yet").into())
}
