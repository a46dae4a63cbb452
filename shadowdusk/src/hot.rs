//! Shader hot reload that keeps the typed contract (feature `hot-reload`, meant for debug
//! builds).
//!
//! A [`HotEffect<E>`] is a [`GlEffect<E>`] whose source file is watched: every file the effect
//! read (includes too) is recompiled on a background thread by the same compiler the build
//! uses (`shadowdusk_compiler::watch`, DXC found the same way), and [`HotEffect::poll`], called
//! once a frame, swaps the new program in when it is ready. The generated `E::Params`, passes
//! and texture slots were made for `E`'s register layout ([`Effect::LAYOUT`]), so a new effect
//! is swapped in only if its layout is the same; otherwise it is refused with the parameter
//! named and the old effect keeps running. A compile error is reported as the build prints it
//! (`path:line:col: error[CODE]: …` and a snippet), and nothing is swapped.
//!
//! ```no_run
//! # fn frame(ctx: &shadowdusk::gl::GlContext) -> Result<(), String> {
//! # shadowdusk::include_effect!("doc/tint.fx", in_process);
//! use shadowdusk::hot::{HotEffect, Reload};
//!
//! let mut fx = HotEffect::<tint::Effect>::new(ctx).map_err(|e| e.to_string())?;
//! // every frame:
//! match fx.poll() {
//!     Reload::Unchanged | Reload::Reloaded => {}
//!     Reload::Refused(why) | Reload::Failed(why) => eprintln!("{why}"),
//! }
//! fx.params_mut().set_tint([1.0, 0.5, 0.5, 1.0]); // a HotEffect is a GlEffect
//! # Ok(())
//! # }
//! ```

use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::time::Duration;

use shadowdusk_compiler::watch::Watcher;

use crate::gl::{GlContext, GlEffect, GlError, ReplaceError};
use crate::Effect;

/// What [`HotEffect::poll`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reload {
    /// No new compile finished since the last poll.
    Unchanged,
    /// The new effect is in use from now on.
    Reloaded,
    /// The new effect compiled but does not fit `E`'s generated code: the reason names the
    /// parameter (or technique) that changed. The old effect keeps running; rebuild the game to
    /// take the new layout.
    Refused(String),
    /// The new source does not compile (the text is the build's error, with file:line:col), or
    /// the driver refused the new program. The old effect keeps running.
    Failed(String),
}

/// Why hot reload could not start.
#[derive(Debug, thiserror::Error)]
pub enum HotError {
    /// Loading the effect into GL failed.
    #[error(transparent)]
    Gl(#[from] GlError),
    /// The effect's source file is not known (`E::SOURCE` is empty) or cannot be watched.
    #[error("cannot watch the effect's source: {0}")]
    Watch(String),
}

/// A [`GlEffect<E>`] that follows its source file; see the module docs.
pub struct HotEffect<E: Effect> {
    effect: GlEffect<E>,
    watcher: Watcher,
    source: PathBuf,
}

impl<E: Effect> HotEffect<E> {
    /// Loads `E` and watches the file it was compiled from at build time (`E::SOURCE`), with
    /// the build's defines and include folders.
    pub fn new(ctx: &GlContext) -> Result<HotEffect<E>, HotError> {
        if E::SOURCE.is_empty() {
            return Err(HotError::Watch(format!("{} has no source path", E::NAME)));
        }
        Self::watching(ctx, Path::new(E::SOURCE))
    }

    /// Loads `E` and watches `source` instead (a copy of the shaders, say), compiled with the
    /// build's defines and include folders.
    pub fn watching(ctx: &GlContext, source: &Path) -> Result<HotEffect<E>, HotError> {
        let effect = GlEffect::<E>::new(ctx)?;
        let mut options = shadowdusk_compiler::Options::default();
        options.preprocess.defines = E::DEFINES
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        options.preprocess.include_dirs = E::INCLUDE_DIRS.iter().map(PathBuf::from).collect();
        let root = std::env::current_dir().unwrap_or_default();
        let watcher = Watcher::new(source, options, &root).map_err(HotError::Watch)?;
        Ok(HotEffect {
            effect,
            watcher,
            source: source.to_path_buf(),
        })
    }

    /// Swaps in the newest finished recompile, if there is one. Call it once a frame, where
    /// the context is current: a reload links the new program here, so the frame that follows
    /// draws with it. Parameter values and textures carry over.
    pub fn poll(&mut self) -> Reload {
        let Some(update) = self.watcher.latest() else {
            return Reload::Unchanged;
        };
        self.swap(update.result)
    }

    /// Like [`HotEffect::poll`], waiting up to `timeout` for a recompile to finish.
    pub fn wait(&mut self, timeout: Duration) -> Reload {
        match self.watcher.wait(timeout) {
            None => Reload::Unchanged,
            Some(update) => {
                // A later save may already have finished compiling: take the newest.
                let newest = self.watcher.latest().unwrap_or(update);
                self.swap(newest.result)
            }
        }
    }

    fn swap(&mut self, result: Result<Box<shadowdusk_compiler::Compiled>, String>) -> Reload {
        let compiled = match result {
            Ok(c) => c,
            Err(text) => return Reload::Failed(text),
        };
        match self.effect.replace_effect(compiled.effect) {
            Ok(()) => Reload::Reloaded,
            Err(ReplaceError::Layout(change)) => Reload::Refused(format!(
                "{}: the new effect does not fit the code generated for it ({change}); the \
                 previous effect stays until the game is rebuilt",
                self.source.display()
            )),
            Err(ReplaceError::Gl(e)) => Reload::Failed(format!("{}: {e}", self.source.display())),
        }
    }

    /// The file being watched.
    pub fn source(&self) -> &Path {
        &self.source
    }
}

impl<E: Effect> Deref for HotEffect<E> {
    type Target = GlEffect<E>;
    fn deref(&self) -> &GlEffect<E> {
        &self.effect
    }
}

impl<E: Effect> DerefMut for HotEffect<E> {
    fn deref_mut(&mut self) -> &mut GlEffect<E> {
        &mut self.effect
    }
}
