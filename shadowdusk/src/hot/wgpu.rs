//! [`WgpuHotEffect<E>`]: a `WgpuEffect<E>` that follows its source file, as
//! [`HotEffect`](super::HotEffect) does on GL (feature `hot-reload` with `wgpu`): the effect is
//! recompiled for wgpu with the build's options on the watcher's thread, and
//! [`poll`](super::Hot::poll), once a frame before drawing, swaps the new shaders in when the
//! layout still fits `E`'s generated code.

use std::path::{Path, PathBuf};

use super::{failed, refused, Follow, Hot, HotError, Reload, Reloadable};
use crate::wgpu_runtime::{ReplaceError, WgpuEffect};
use crate::Effect;

/// A `WgpuEffect<E>` that follows its source file; see the [module docs](super).
pub type WgpuHotEffect<E> = Hot<WgpuEffect<E>>;

impl<E: Effect> Hot<WgpuEffect<E>> {
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
        Ok(Hot { effect, follow })
    }
}

impl<E: Effect> Reloadable for WgpuEffect<E> {
    fn reload(&mut self, compiled: &shadowdusk_compiler::Compiled, source: &Path) -> Reload {
        let Some(wgpu) = compiled.wgpu.as_ref() else {
            // The wgpu target refused the new source: its error as the build prints it.
            return match compiled.wgpu_failure() {
                Some(e) => Reload::Failed(e.render(false)),
                None => failed(source, "the recompile has no wgpu output"),
            };
        };
        match self.replace_effect(wgpu, &compiled.effect) {
            Ok(()) => Reload::Reloaded,
            Err(ReplaceError::Layout(change)) => refused(source, change),
            Err(ReplaceError::Wgpu(e)) => failed(source, e),
        }
    }
}
