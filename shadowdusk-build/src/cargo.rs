//! The one door to cargo: the environment a build script is given, and the lines it prints.
//!
//! Every environment read of the builder goes through [`env`], so the list in the
//! [`Builder`](crate::Builder) docs stays complete; every line for cargo (directives, the summary,
//! warnings) goes through a [`Sink`], so tests capture them instead of printing.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// `OUT_DIR`: where the artifacts go.
pub(crate) const OUT_DIR: &str = "OUT_DIR";
/// `CARGO_MANIFEST_DIR`: the crate root effect paths are relative to.
pub(crate) const MANIFEST_DIR: &str = "CARGO_MANIFEST_DIR";
/// `NUM_JOBS`: cargo's `-j`.
pub(crate) const NUM_JOBS: &str = "NUM_JOBS";
/// The shared cache folder.
pub(crate) const CACHE_DIR: &str = "SHADOWDUSK_CACHE_DIR";

/// Reads one variable. An empty value counts as unset: `SHADOWDUSK_CACHE_DIR=` in a CI
/// matrix means "no shared cache", not "cache in the current directory".
pub(crate) fn env(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// A path from the environment.
pub(crate) fn env_path(name: &str) -> Option<PathBuf> {
    env(name).map(PathBuf::from)
}

/// Cargo's job count, when it gave one that parses.
pub(crate) fn num_jobs() -> Option<usize> {
    env(NUM_JOBS)?
        .to_str()?
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
}

/// One `cargo:warning=` line on standard output, for messages from outside the builder (the
/// compiler's line about fetching DXC).
pub(crate) fn print_warning(line: &str) {
    Sink::Stdout.warning(line);
}

/// Where the builder's lines go.
#[derive(Clone, Debug, Default)]
pub(crate) enum Sink {
    /// Standard output, where cargo reads directives from.
    #[default]
    Stdout,
    /// A list (unit tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Capture(Arc<Mutex<Vec<String>>>),
}

impl Sink {
    pub(crate) fn line(&self, line: impl Into<String>) {
        let line = line.into();
        match self {
            #[allow(clippy::print_stdout)] // Cargo reads directives from stdout.
            Sink::Stdout => println!("{line}"),
            Sink::Capture(lines) => {
                if let Ok(mut l) = lines.lock() {
                    l.push(line);
                }
            }
        }
    }

    /// `cargo:warning=` takes one line; a multi-line message becomes several.
    pub(crate) fn warning(&self, text: &str) {
        for l in text.lines() {
            self.line(format!("cargo:warning={l}"));
        }
    }
}
