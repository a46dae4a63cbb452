//! [`DeviceStates`]: what MonoGame's `GraphicsDevice` holds between draws, for the blocks and
//! sampler slots a pass does not set. Both runtimes take it: the wgpu runtime per effect
//! (`WgpuEffect::set_device_states`), the GL runtime on the context
//! (`GlContext::set_device_states`), where it is GL's own state.

use crate::mgfx::{BlendState, DepthStencilState, RasterizerState, SamplerState};

/// Sampler slots of a device (`GraphicsDevice.SamplerStates`; D3D9's `s0`–`s15`).
pub const SAMPLER_SLOTS: usize = 16;

/// The states a MonoGame game sets on its `GraphicsDevice` (`device.BlendState = …`,
/// `device.SamplerStates[n] = …`).
///
/// As in MonoGame, applying a pass that sets a block makes that block the device's, and a pass
/// that sets none keeps the device's (so the block of the last pass applied, or the one set
/// here since). The blend factor is the device blend state's `blend_factor`
/// (`GraphicsDevice.BlendFactor`, which setting a blend state sets) and the stencil reference
/// the device depth-stencil state's `reference_stencil`.
///
/// The default is the device's initial state: `BlendState.Opaque`, `DepthStencilState.Default`,
/// `RasterizerState.CullCounterClockwise`, `SamplerState.LinearWrap` in every slot.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DeviceStates {
    /// `GraphicsDevice.BlendState` (and its `BlendFactor`).
    pub blend: BlendState,
    /// `GraphicsDevice.DepthStencilState` (and its `ReferenceStencil`).
    pub depth_stencil: DepthStencilState,
    /// `GraphicsDevice.RasterizerState`.
    pub rasterizer: RasterizerState,
    /// `GraphicsDevice.SamplerStates[n]`: slot `n`'s state when the effect gives its sampler
    /// none.
    pub samplers: [SamplerState; SAMPLER_SLOTS],
}

impl DeviceStates {
    /// What MonoGame's `SpriteBatch.Begin()` sets with its default arguments:
    /// `BlendState.AlphaBlend` (premultiplied: One, InverseSourceAlpha), `DepthStencilState.None`,
    /// `RasterizerState.CullCounterClockwise` and `SamplerState.LinearClamp` in slot 0 (the other
    /// slots as the device starts). Neither runtime's `SpriteBatch` sets device states: set
    /// these (or your `Begin` arguments) before drawing sprites to draw as MonoGame does.
    pub fn sprite_batch() -> DeviceStates {
        use crate::mgfx::{Blend, TextureAddressMode, TextureFilter};
        let mut states = DeviceStates {
            blend: BlendState {
                color_source_blend: Blend::One,
                alpha_source_blend: Blend::One,
                color_destination_blend: Blend::InverseSourceAlpha,
                alpha_destination_blend: Blend::InverseSourceAlpha,
                ..BlendState::default()
            },
            depth_stencil: DepthStencilState {
                depth_buffer_enable: false,
                depth_buffer_write_enable: false,
                ..DepthStencilState::default()
            },
            ..DeviceStates::default()
        };
        states.samplers[0] = SamplerState {
            filter: TextureFilter::Linear,
            address_u: TextureAddressMode::Clamp,
            address_v: TextureAddressMode::Clamp,
            address_w: TextureAddressMode::Clamp,
            ..SamplerState::default()
        };
        states
    }

    /// Makes the blocks `pass` sets the device's, as applying a pass does in MonoGame (on GL
    /// the device's blocks are GL's own state, which applying a pass sets).
    #[cfg(feature = "wgpu")]
    pub(crate) fn take_pass_blocks(
        &mut self,
        blend: Option<&BlendState>,
        depth_stencil: Option<&DepthStencilState>,
        rasterizer: Option<&RasterizerState>,
    ) {
        if let Some(b) = blend {
            self.blend = *b;
        }
        if let Some(d) = depth_stencil {
            self.depth_stencil = *d;
        }
        if let Some(r) = rasterizer {
            self.rasterizer = *r;
        }
    }
}
