//! The game's effects, once for both runtimes: [`Effects<R>`] holds every effect as the
//! runtime `R` ([`Gl`] or [`Wgpu`]) loads it, each following its source with `--hot`, and polls
//! them once a frame.

use std::ops::DerefMut;

use shadowdusk::gl::{GlContext, GlEffect};
use shadowdusk::hot::{HotEffect, WgpuHotEffect};
use shadowdusk::wgpu;
use shadowdusk::wgpu_runtime::WgpuEffect;
use shadowdusk::Effect;

use crate::effects::{cube as cube_fx, grayscale, sepia, skinned as skinned_fx, tint, wave};
use crate::hot::{Event, Follows, GlShader, Shader, Status, Watch, WgpuShader};

/// A runtime the game draws with: its device, and its built and hot effects.
pub trait Runtime {
    /// What effects load on (`GlContext`, `wgpu::Device`).
    type Device;
    /// An effect as built (`GlEffect<E>`, `WgpuEffect<E>`).
    type Fixed<E: Effect>;
    /// An effect following its source.
    type Hot<E: Effect>: Follows + DerefMut<Target = Self::Fixed<E>>;
    /// `E`, following what `watch` says.
    fn load<E: Effect>(device: &Self::Device, watch: &Watch) -> Result<Of<Self, E>, String>;
    /// `E` as built.
    fn fixed<E: Effect>(device: &Self::Device) -> Result<Self::Fixed<E>, String>;
}

/// OpenGL (`shadowdusk::gl`).
pub enum Gl {}

/// wgpu (`shadowdusk::wgpu_runtime`).
pub enum Wgpu {}

impl Runtime for Gl {
    type Device = GlContext;
    type Fixed<E: Effect> = GlEffect<E>;
    type Hot<E: Effect> = HotEffect<E>;
    fn load<E: Effect>(ctx: &GlContext, watch: &Watch) -> Result<GlShader<E>, String> {
        GlShader::load(ctx, watch)
    }
    fn fixed<E: Effect>(ctx: &GlContext) -> Result<GlEffect<E>, String> {
        GlEffect::new(ctx).map_err(|e| format!("loading effect {}: {e}", E::NAME))
    }
}

impl Runtime for Wgpu {
    type Device = wgpu::Device;
    type Fixed<E: Effect> = WgpuEffect<E>;
    type Hot<E: Effect> = WgpuHotEffect<E>;
    fn load<E: Effect>(device: &wgpu::Device, watch: &Watch) -> Result<WgpuShader<E>, String> {
        WgpuShader::load(device, watch)
    }
    fn fixed<E: Effect>(device: &wgpu::Device) -> Result<WgpuEffect<E>, String> {
        WgpuEffect::new(device).map_err(|e| format!("loading effect {} for wgpu: {e}", E::NAME))
    }
}

/// An effect of the game on runtime `R`.
pub type Of<R, E> = Shader<<R as Runtime>::Fixed<E>, <R as Runtime>::Hot<E>>;

/// Every effect on the runtime's device; with hot reload each follows its source file.
pub struct Effects<R: Runtime> {
    pub tint: Of<R, tint::Effect>,
    pub sepia: Of<R, sepia::Effect>,
    pub grayscale: Of<R, grayscale::Effect>,
    pub wave: Of<R, wave::Effect>,
    pub cube: Of<R, cube_fx::Effect>,
    pub skinned: Of<R, skinned_fx::Effect>,
    /// `tint` as built, never reloaded: the untouched sprite, the text and the render-target
    /// inset, so the label stays readable and the original stays the original whatever an
    /// edit of `tint.fx` does.
    pub plain: R::Fixed<tint::Effect>,
}

impl<R: Runtime> Effects<R> {
    /// Loads every effect on `device`, following what `watch` says.
    pub fn load(device: &R::Device, watch: &Watch) -> Result<Effects<R>, String> {
        Ok(Effects {
            tint: R::load(device, watch)?,
            sepia: R::load(device, watch)?,
            grayscale: R::load(device, watch)?,
            wave: R::load(device, watch)?,
            cube: R::load(device, watch)?,
            skinned: R::load(device, watch)?,
            plain: R::fixed(device)?,
        })
    }

    /// Swaps in every finished recompile and records what was found in `status` (the game's
    /// `time` stamps it). Once a frame, before drawing.
    pub fn poll(&mut self, status: &mut Status, time: f32) -> Vec<Event> {
        status.record_all([
            Event::of::<tint::Effect>(self.tint.poll(), time),
            Event::of::<sepia::Effect>(self.sepia.poll(), time),
            Event::of::<grayscale::Effect>(self.grayscale.poll(), time),
            Event::of::<wave::Effect>(self.wave.poll(), time),
            Event::of::<cube_fx::Effect>(self.cube.poll(), time),
            Event::of::<skinned_fx::Effect>(self.skinned.poll(), time),
        ])
    }
}
