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
//!   `OPENGL`, each `1`), then `DEBUG` when asked, then the user's defines.
//! - Every output byte maps to (file, offset): copied text byte for byte, a macro expansion to
//!   the invocation's name where it is used; entries are in increasing output order.
//! - `deps` lists the main file first, then each file when it is first read (deduplicated by
//!   file identity); paths are joined onto the directory they were found in, `./` removed.
//! - `#pragma once` is honoured, `#pragma pack_matrix(...)` kept, other pragmas, `#line` and
//!   `#warning` dropped.
//!
//! Refused, with spans in the original files and a help line: SD0001 missing include (searched
//! paths in a note), SD0002 include cycle, SD0003 `#error`, SD0004 malformed directive /
//! unbalanced conditional / bad `#if` / bad macro invocation, SD0005 unreadable file, SD0006
//! unterminated comment or string. Several errors are collected; the first fatal one (missing
//! include, cycle, `#error`, unterminated comment, runaway expansion) stops preprocessing.
//!
//! Known limit: a macro invocation's arguments may contain conditional groups (`#if` ...
//! `#endif`) but no other directive (`#define`, `#include`, ... inside arguments is reported as
//! an unterminated invocation, SD0004).
//!
//! Files: `lexer` (tokens with offsets), `driver` (per-file line walk), `directives`,
//! `macros` (`#define` parsing), `expand` (substitution and rescanning), `expr` (`#if`),
//! `include` (search order), `output` (text + source map), `token` (hide sets).
//!
//! Implements fx-pipeline.md §2.

mod directives;
mod driver;
mod expand;
mod expr;
mod include;
mod lexer;
mod macros;
mod output;
#[cfg(test)]
mod tests;
mod token;

use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::source::{FileId, SourceFiles, SourceMap};

use driver::Pp;
use token::{Loc, Tok};

/// Which MonoGame platform the effect is compiled for (selects the predefined macros).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub enum Platform {
    /// DesktopGL / GLES / WebGL: `MGFX`, `GLSL`, `OPENGL`.
    #[default]
    OpenGL,
}

/// Preprocessor settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Target platform.
    pub platform: Platform,
    /// User defines in order, `(name, value)`; a define without a value has value `"1"`.
    pub defines: Vec<(String, String)>,
    /// Extra include directories: searched after the including file's directory for
    /// `#include "f"`, before it for `#include <f>`.
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
    /// Habits mgfxc tolerates with a warning (an include whose case differs from the file on
    /// disk, an undefined function-like macro in `#if`).
    pub warnings: Diagnostics,
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
    let path = include::normalize(path);
    let text = match text {
        Some(t) => t.to_string(),
        None => match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                return Err(Diagnostic::error(
                    Code::SD0005,
                    format!("cannot read `{}`: {e}", path.display()),
                )
                .with_help("check that the effect file exists and is readable")
                .into())
            }
        },
    };
    let main = files.add(path.clone(), text);
    let key = include::identity(&path);
    let mut pp = Pp::new(options, files);
    pp.loaded.insert(key.clone(), main);
    pp.add_dep(path, key.clone());
    pp.chain.push(key);
    predefine(&mut pp, main)?;
    let ok = pp.process_file(main).is_ok();
    if !ok || pp.diags.has_errors() {
        return Err(pp.diags);
    }
    let (text, map) = pp.out.finish(pp.last_loc);
    Ok(Expanded {
        text,
        map,
        deps: pp.deps,
        warnings: pp.diags,
    })
}

/// The platform's macros, `DEBUG`, then the user's defines (fx-pipeline.md §2.1).
fn predefine(pp: &mut Pp<'_>, main: FileId) -> Result<(), Diagnostics> {
    let mut defs: Vec<(String, String)> = match pp.opts.platform {
        Platform::OpenGL => ["MGFX", "GLSL", "OPENGL"]
            .iter()
            .map(|n| (n.to_string(), "1".to_string()))
            .collect(),
    };
    if pp.opts.debug {
        defs.push(("DEBUG".into(), "1".into()));
    }
    defs.extend(pp.opts.defines.iter().cloned());
    let at = Loc {
        file: main,
        off: 0,
        verbatim: false,
    };
    for (name, value) in defs {
        let line = format!("{} {}", name.trim(), value.trim());
        let toks: Option<Vec<Tok>> =
            lexer::lex_str(&line).map(|v| v.iter().map(|(k, s)| Tok::new(*k, s, at)).collect());
        let parsed = toks
            .ok_or(())
            .and_then(|t| macros::parse_define(&t, at.span(0)).map_err(|_| ()));
        match parsed {
            Ok((n, m)) if !n.is_empty() && line.starts_with(&*n) => {
                pp.macros.insert(n, m);
            }
            _ => {
                return Err(Diagnostic::error(
                    Code::SD0004,
                    format!("invalid define `{}={}`", name, value),
                )
                .with_help("a define is `NAME` or `NAME=value`, where NAME is an identifier")
                .into())
            }
        }
    }
    Ok(())
}
