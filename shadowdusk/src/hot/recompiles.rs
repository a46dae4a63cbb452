//! [`Recompiles<E>`]: the recompiles of an effect for wgpu without a runtime's effect to swap,
//! for glue that swaps shaders its own way (`shadowdusk-bevy` puts them in Bevy's assets). The
//! same watcher, options and layout check as [`Hot`](super::Hot).

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use super::{failed, refused, Follow, HotError, Reload};
use crate::Effect;

/// The recompiles of `E`, with the wgpu target, as its source files change.
pub struct Recompiles<E> {
    follow: Follow,
    running: crate::mgfx::Effect,
    _effect: PhantomData<fn() -> E>,
}

impl<E: Effect> Recompiles<E> {
    /// Watches the files the build read to compile `E` (`E::SOURCE` and `E::FILES_READ`), to
    /// recompile with the build's options (`E::OPTIONS`) and the wgpu target. Compiles nothing
    /// until one of them changes.
    pub fn new() -> Result<Recompiles<E>, HotError> {
        let (source, files_read) = Follow::files::<E>().map_err(HotError::Watch)?;
        Self::start(source, &files_read)
    }

    /// Watches `source` instead (a copy of the shaders, say).
    pub fn watching(source: &Path) -> Result<Recompiles<E>, HotError> {
        Self::start(source, &[])
    }

    fn start(source: &Path, files_read: &[PathBuf]) -> Result<Recompiles<E>, HotError> {
        super::compiler_options(&E::OPTIONS).map_err(HotError::Options)?;
        let running = crate::mgfx::read(E::MGFX)
            .map_err(|e| HotError::Watch(format!("{}'s MGFX does not read: {e}", E::NAME)))?;
        let follow = Follow::start::<E>(source, files_read, true).map_err(HotError::Watch)?;
        Ok(Recompiles {
            follow,
            running,
            _effect: PhantomData,
        })
    }

    /// The newest finished recompile, if any: its model and wgpu output when its layout fits
    /// `E`'s generated code, else why not ([`Reload::Refused`], or [`Reload::Failed`] with the
    /// build's error text).
    pub fn poll(&mut self) -> Option<Result<Recompiled, Reload>> {
        let result = self.follow.poll()?;
        let source = &self.follow.source;
        Some(match result {
            Err(text) => Err(Reload::Failed(text)),
            Ok(mut compiled) => {
                if let Err(change) = crate::effect::check_fits::<E>(&self.running, &compiled.effect)
                {
                    return Some(Err(refused(source, change)));
                }
                match compiled.wgpu.take() {
                    Some(wgpu) => Ok(Recompiled {
                        effect: compiled.effect,
                        wgpu,
                    }),
                    // The wgpu target refused the new source: its error as the build prints it.
                    None => Err(match compiled.wgpu_failure() {
                        Some(e) => Reload::Failed(e.render(false)),
                        None => failed(source, "the recompile has no wgpu output"),
                    }),
                }
            }
        })
    }

    /// The file being watched.
    pub fn source(&self) -> &Path {
        &self.follow.source
    }
}

/// A recompile whose layout fits the generated code.
#[derive(Clone, Debug)]
pub struct Recompiled {
    /// The MGFX model (passes and their states).
    pub effect: crate::mgfx::Effect,
    /// The wgpu output, one shader per shader of `effect`.
    pub wgpu: crate::mgfx::wgpu::WgpuEffect,
}
