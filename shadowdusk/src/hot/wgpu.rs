//! [`WgpuHotEffect<E>`]: a [`WgpuEffect<E>`] that follows its source file, as [`HotEffect`]
//! does on GL (feature `hot-reload` with `wgpu`): the effect is recompiled for wgpu with the
//! build's options on the watcher's thread, and [`poll`](WgpuHotEffect::poll), once a frame
//! before drawing, swaps the new shaders in when the layout still fits `E`'s generated code.
//!
//! [`HotEffect`]: super::HotEffect

use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{Compile, Follow, HotError, Reload};
use crate::wgpu_runtime::{ReplaceError, WgpuEffect};
use crate::Effect;

/// A [`WgpuEffect<E>`] that follows its source file; see the [module docs](super).
pub struct WgpuHotEffect<E: Effect> {
    effect: WgpuEffect<E>,
    follow: Follow,
}

impl<E: Effect> WgpuHotEffect<E> {
    /// Loads `E` on `device` and watches the files the build read to compile it (`E::SOURCE`
    /// and `E::FILES_READ`), to recompile with the build's options (`E::OPTIONS`) for wgpu.
    /// Compiles nothing until one of them changes.
    pub fn new(device: &wgpu::Device) -> Result<WgpuHotEffect<E>, HotError> {
        let (source, files_read) = Follow::files::<E>().map_err(HotError::Watch)?;
        Self::start(device, source, &files_read)
    }

    /// Loads `E` and watches `source` instead (a copy of the shaders, say).
    pub fn watching(device: &wgpu::Device, source: &Path) -> Result<WgpuHotEffect<E>, HotError> {
        Self::start(device, source, &[])
    }

    fn start(
        device: &wgpu::Device,
        source: &Path,
        files_read: &[PathBuf],
    ) -> Result<WgpuHotEffect<E>, HotError> {
        super::compiler_options(&E::OPTIONS).map_err(HotError::Options)?;
        let effect = WgpuEffect::<E>::new(device)?;
        let follow = Follow::start::<E>(source, files_read, true).map_err(HotError::Watch)?;
        Ok(WgpuHotEffect { effect, follow })
    }

    /// Swaps in the newest finished recompile, if there is one. Call it once a frame before
    /// preparing or applying: the shader modules are made here, so the frame that follows
    /// draws with them. Parameter values, textures and device states carry over.
    pub fn poll(&mut self) -> Reload {
        match self.follow.poll() {
            None => Reload::Unchanged,
            Some(result) => self.swap(result),
        }
    }

    /// Like [`poll`](WgpuHotEffect::poll), waiting up to `timeout` for a recompile to finish.
    pub fn wait(&mut self, timeout: Duration) -> Reload {
        match self.follow.wait(timeout) {
            None => Reload::Unchanged,
            Some(result) => self.swap(result),
        }
    }

    fn swap(&mut self, result: Compile) -> Reload {
        let compiled = match result {
            Ok(c) => c,
            Err(text) => return Reload::Failed(text),
        };
        let Some(wgpu) = compiled.wgpu.as_ref() else {
            // The wgpu target refused the new source: its error as the build prints it.
            return match compiled.wgpu_failure() {
                Some(e) => Reload::Failed(e.render(false)),
                None => self.follow.failed("the recompile has no wgpu output"),
            };
        };
        match self.effect.replace_effect(wgpu, &compiled.effect) {
            Ok(()) => Reload::Reloaded,
            Err(ReplaceError::Layout(change)) => self.follow.refused(change),
            Err(ReplaceError::Wgpu(e)) => self.follow.failed(e),
        }
    }

    /// The file being watched.
    pub fn source(&self) -> &Path {
        &self.follow.source
    }
}

impl<E: Effect> Deref for WgpuHotEffect<E> {
    type Target = WgpuEffect<E>;
    fn deref(&self) -> &WgpuEffect<E> {
        &self.effect
    }
}

impl<E: Effect> DerefMut for WgpuHotEffect<E> {
    fn deref_mut(&mut self) -> &mut WgpuEffect<E> {
        &mut self.effect
    }
}
