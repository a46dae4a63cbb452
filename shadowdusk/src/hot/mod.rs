//! Shader hot reload that keeps the typed contract (feature `hot-reload`, meant for debug
//! builds).
//!
//! A [`HotEffect<E>`] is a [`GlEffect<E>`] whose source file is watched: after a change to any
//! file the effect read (includes too), it is recompiled on a background thread by the same
//! compiler the build uses (`shadowdusk_compiler::watch`, DXC found the same way) with the
//! build's options ([`Effect::OPTIONS`]: MGFX version, `/WX`, defines, include folders), and
//! [`HotEffect::poll`], called once a frame, swaps the new program in when it is ready. Nothing
//! is compiled when it starts: the files to watch are the ones the build read
//! ([`Effect::FILES_READ`]). The generated `E::Params`, passes and texture slots were made for
//! `E`'s layout (registers, parameters, texture units, techniques: [`Effect::LAYOUT`]), so a
//! new effect is swapped in only if its layout is that one; otherwise it is refused with the
//! parameter or texture named and the old effect keeps running. A compile error is reported as
//! the build prints it (`path:line:col: error[CODE]: …` and a snippet), and nothing is
//! swapped. A reload leaves the program that was bound before it bound.
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
use shadowdusk_compiler::MgfxVersion;

use crate::gl::{GlContext, GlEffect, GlError, ReplaceError};
use crate::{BuildOptions, Effect};

mod recompiles;
#[cfg(feature = "wgpu")]
mod wgpu;
pub use self::recompiles::{Recompiled, Recompiles};
#[cfg(feature = "wgpu")]
pub use self::wgpu::WgpuHotEffect;

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
    /// Loading the effect on the wgpu device failed.
    #[cfg(feature = "wgpu")]
    #[error(transparent)]
    Wgpu(#[from] crate::wgpu_runtime::WgpuError),
    /// The effect's source file is not known (`E::SOURCE` is empty) or cannot be watched.
    #[error("cannot watch the effect's source: {0}")]
    Watch(String),
    /// The build's options ([`Effect::OPTIONS`]) ask for what this compiler cannot do.
    #[error("cannot recompile the effect as the build did: {0}")]
    Options(String),
}

/// An effect that follows its source file (see the module docs): [`HotEffect<E>`] on GL,
/// [`WgpuHotEffect<E>`] on wgpu. It derefs to the effect it currently is.
pub struct Hot<F> {
    effect: F,
    follow: Follow,
}

/// A [`GlEffect<E>`] that follows its source file.
pub type HotEffect<E> = Hot<GlEffect<E>>;

/// What a runtime's effect does with a recompile of itself: implemented for
/// [`GlEffect<E>`] and `WgpuEffect<E>`, and sealed.
pub trait Reloadable: sealed::Sealed {
    /// Swaps in `compiled` if it fits, saying what happened (`source` names the file).
    #[doc(hidden)]
    fn reload(&mut self, compiled: &shadowdusk_compiler::Compiled, source: &Path) -> Reload;
}

mod sealed {
    pub trait Sealed {}
    impl<E: crate::Effect> Sealed for crate::gl::GlEffect<E> {}
    #[cfg(feature = "wgpu")]
    impl<E: crate::Effect> Sealed for crate::wgpu_runtime::WgpuEffect<E> {}
}

impl<E: Effect> Reloadable for GlEffect<E> {
    fn reload(&mut self, compiled: &shadowdusk_compiler::Compiled, source: &Path) -> Reload {
        match self.replace_effect(compiled.effect.clone()) {
            Ok(()) => Reload::Reloaded,
            Err(ReplaceError::Layout(change)) => refused(source, change),
            Err(ReplaceError::Gl(e)) => failed(source, e),
        }
    }
}

/// A reload refused for `change` (the new layout does not fit the generated code).
fn refused(source: &Path, change: impl std::fmt::Display) -> Reload {
    Reload::Refused(format!(
        "{}: the new effect does not fit the code generated for it ({change}); the previous \
         effect stays until the game is rebuilt",
        source.display()
    ))
}

/// A reload the runtime could not make (`e` says why).
fn failed(source: &Path, e: impl std::fmt::Display) -> Reload {
    Reload::Failed(format!("{}: {e}", source.display()))
}

/// A watched source and its recompiles: what both runtimes' hot effects share.
struct Follow {
    watcher: Watcher,
    source: PathBuf,
}

impl Follow {
    /// Watches `source` (and `files_read`, the includes the build read) to recompile `E` with
    /// the build's options, for wgpu too when `wgpu`.
    fn start<E: Effect>(
        source: &Path,
        files_read: &[PathBuf],
        wgpu: bool,
    ) -> Result<Follow, String> {
        let mut options = compiler_options(&E::OPTIONS)?;
        options.wgpu = wgpu;
        let root = std::env::current_dir().unwrap_or_default();
        let watcher = Watcher::new(source, files_read, options, &root)?;
        Ok(Follow {
            watcher,
            source: source.to_path_buf(),
        })
    }

    /// `E`'s source and the files its build read.
    fn files<E: Effect>() -> Result<(&'static Path, Vec<PathBuf>), String> {
        if E::SOURCE.is_empty() {
            return Err(format!("{} has no source path", E::NAME));
        }
        Ok((
            Path::new(E::SOURCE),
            E::FILES_READ.iter().map(PathBuf::from).collect(),
        ))
    }

    /// The newest finished recompile, if any.
    fn poll(&mut self) -> Option<Compile> {
        self.watcher.latest().map(|update| update.result)
    }

    /// The newest recompile, waiting up to `timeout` for one.
    fn wait(&mut self, timeout: Duration) -> Option<Compile> {
        let update = self.watcher.wait(timeout)?;
        // A later save may already have finished compiling: take the newest.
        Some(self.watcher.latest().unwrap_or(update).result)
    }
}

/// A recompile's result: the compile, or the build's error text.
type Compile = Result<Box<shadowdusk_compiler::Compiled>, String>;

impl<E: Effect> Hot<GlEffect<E>> {
    /// Loads `E` and watches the files the build read to compile it (`E::SOURCE` and
    /// `E::FILES_READ`), to recompile with the build's options (`E::OPTIONS`). Compiles
    /// nothing until one of them changes.
    pub fn new(ctx: &GlContext) -> Result<HotEffect<E>, HotError> {
        let (source, files_read) = Follow::files::<E>().map_err(HotError::Watch)?;
        Self::start(ctx, source, &files_read)
    }

    /// Loads `E` and watches `source` instead (a copy of the shaders, say), recompiled with the
    /// build's options (`E::OPTIONS`). The files it includes are learned on the watcher's
    /// thread, by preprocessing it (no compile on the caller's thread).
    pub fn watching(ctx: &GlContext, source: &Path) -> Result<HotEffect<E>, HotError> {
        Self::start(ctx, source, &[])
    }

    fn start(
        ctx: &GlContext,
        source: &Path,
        files_read: &[PathBuf],
    ) -> Result<HotEffect<E>, HotError> {
        compiler_options(&E::OPTIONS).map_err(HotError::Options)?;
        let effect = GlEffect::<E>::new(ctx)?;
        let follow = Follow::start::<E>(source, files_read, false).map_err(HotError::Watch)?;
        Ok(Hot { effect, follow })
    }
}

impl<F: Reloadable> Hot<F> {
    /// Swaps in the newest finished recompile, if there is one. Call it once a frame before
    /// drawing (on GL where the context is current): the new program or shader modules are
    /// made here, so the frame that follows draws with them. Parameter values and textures
    /// carry over (on wgpu the device states too).
    pub fn poll(&mut self) -> Reload {
        match self.follow.poll() {
            None => Reload::Unchanged,
            Some(result) => self.swap(result),
        }
    }

    /// Like [`poll`](Hot::poll), waiting up to `timeout` for a recompile to finish.
    pub fn wait(&mut self, timeout: Duration) -> Reload {
        match self.follow.wait(timeout) {
            None => Reload::Unchanged,
            Some(result) => self.swap(result),
        }
    }

    fn swap(&mut self, result: Compile) -> Reload {
        match result {
            Ok(compiled) => self.effect.reload(&compiled, &self.follow.source),
            Err(text) => Reload::Failed(text),
        }
    }

    /// The file being watched.
    pub fn source(&self) -> &Path {
        &self.follow.source
    }
}

/// The compiler's options for what the build used.
fn compiler_options(build: &BuildOptions) -> Result<shadowdusk_compiler::Options, String> {
    let mgfx_version = match build.mgfx_version {
        10 => MgfxVersion::V10,
        11 => MgfxVersion::V11,
        v => {
            return Err(format!(
                "it was built as MGFX v{v}, which this compiler does not write (v10 or v11); \
                 rebuild the game with the same ShadowDusk version as its runtime"
            ))
        }
    };
    let mut options = shadowdusk_compiler::Options {
        warnings_as_errors: build.warnings_as_errors,
        mgfx_version,
        source_name: (!build.source_name.is_empty()).then(|| build.source_name.to_string()),
        ..Default::default()
    };
    options.preprocess.debug = build.debug;
    options.preprocess.defines = build
        .defines
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    options.preprocess.include_dirs = build.include_dirs.iter().map(PathBuf::from).collect();
    Ok(options)
}

impl<F> Deref for Hot<F> {
    type Target = F;
    fn deref(&self) -> &F {
        &self.effect
    }
}

impl<F> DerefMut for Hot<F> {
    fn deref_mut(&mut self) -> &mut F {
        &mut self.effect
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builds_options_become_the_compilers() {
        let built = BuildOptions {
            mgfx_version: 11,
            warnings_as_errors: true,
            debug: true,
            defines: &[("QUALITY", "2")],
            include_dirs: &["/game/shaders/include"],
            source_name: "shaders/tint.fx",
        };
        let o = compiler_options(&built).expect("options");
        assert_eq!(o.mgfx_version, MgfxVersion::V11);
        assert!(o.warnings_as_errors && o.preprocess.debug);
        assert_eq!(o.preprocess.defines, [("QUALITY".into(), "2".into())]);
        assert_eq!(
            o.preprocess.include_dirs,
            [PathBuf::from("/game/shaders/include")]
        );
        assert_eq!(o.source_name.as_deref(), Some("shaders/tint.fx"));
        assert_eq!(
            compiler_options(&BuildOptions::DEFAULT).expect("defaults"),
            shadowdusk_compiler::Options::default()
        );
        let future = BuildOptions {
            mgfx_version: 12,
            ..BuildOptions::DEFAULT
        };
        let why = compiler_options(&future).unwrap_err();
        assert!(why.contains("MGFX v12"), "{why}");
    }
}
