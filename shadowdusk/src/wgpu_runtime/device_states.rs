//! [`DeviceStates`]: what MonoGame's `GraphicsDevice` holds between draws, for the blocks a
//! pass does not set.

use crate::mgfx::{BlendState, DepthStencilState, RasterizerState, SamplerState};

/// The states a MonoGame game sets on its `GraphicsDevice` (`device.BlendState = …`) and a pass
/// keeps when it sets no block of its own; on wgpu they are part of each pipeline, so an effect
/// holds them ([`WgpuEffect::set_device_states`](super::WgpuEffect::set_device_states)).
///
/// The default is the device's initial state: `BlendState.Opaque`, `DepthStencilState.Default`,
/// `RasterizerState.CullCounterClockwise`, `SamplerState.LinearWrap`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DeviceStates {
    /// `GraphicsDevice.BlendState`.
    pub blend: BlendState,
    /// `GraphicsDevice.DepthStencilState`.
    pub depth_stencil: DepthStencilState,
    /// `GraphicsDevice.RasterizerState`.
    pub rasterizer: RasterizerState,
    /// `GraphicsDevice.SamplerStates[n]`, for every sampler the effect gives no state.
    pub sampler: SamplerState,
}
