//! The samplers an effect makes from MonoGame sampler states (mapped in `crate::wgpu_states`,
//! the table the Bevy glue shares), one per distinct state.

use std::collections::HashMap;

use crate::mgfx::{SamplerState, TextureAddressMode, TextureFilter};

pub(crate) use super::monogame_states::sampler_descriptor as descriptor;

/// A sampler state as a hash key (`SamplerState` holds a float: its bits stand for it).
type Key = (
    [TextureAddressMode; 3],
    [u8; 4],
    TextureFilter,
    i32,
    i32,
    u32,
);

fn key(s: &SamplerState) -> Key {
    (
        [s.address_u, s.address_v, s.address_w],
        s.border_color,
        s.filter,
        s.max_anisotropy,
        s.max_mip_level,
        s.mip_lod_bias.to_bits(),
    )
}

/// The samplers an effect has made: one per distinct state, made the first time the state is
/// asked for and then found by it, so changing a device sampler state between draws costs a
/// lookup.
#[derive(Debug, Default)]
pub(crate) struct SamplerCache {
    ids: HashMap<Key, u16>,
    samplers: Vec<wgpu::Sampler>,
}

impl SamplerCache {
    /// The id of the sampler for `state`, made if new; `Err` says why this device cannot
    /// express it.
    pub(crate) fn id(
        &mut self,
        device: &wgpu::Device,
        state: &SamplerState,
    ) -> Result<u16, String> {
        let key = key(state);
        if let Some(&id) = self.ids.get(&key) {
            return Ok(id);
        }
        let desc = descriptor(Some(state), device.features())?;
        let id = u16::try_from(self.samplers.len())
            .map_err(|_| "more than 65,536 distinct sampler states on one effect".to_string())?;
        self.samplers.push(device.create_sampler(&desc));
        self.ids.insert(key, id);
        Ok(id)
    }

    /// The ids of the samplers for `state` as it is, and with every filter nearest (for a
    /// texture the device cannot filter: wgpu samples it only with a non-filtering sampler).
    pub(crate) fn pair(
        &mut self,
        device: &wgpu::Device,
        state: &SamplerState,
    ) -> Result<[u16; 2], String> {
        let nearest = SamplerState {
            filter: TextureFilter::Point,
            ..*state
        };
        Ok([self.id(device, state)?, self.id(device, &nearest)?])
    }

    /// The sampler of `id` (from [`SamplerCache::id`]).
    pub(crate) fn get(&self, id: u16) -> &wgpu::Sampler {
        &self.samplers[usize::from(id)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::monogame_states::nearest_border;
    use super::*;
    use crate::mgfx::{TextureAddressMode, TextureFilter};
    use wgpu::{AddressMode, FilterMode, MipmapFilterMode};

    const BORDER: wgpu::Features = wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER;

    fn with(f: impl FnOnce(&mut SamplerState)) -> SamplerState {
        let mut s = SamplerState::default();
        f(&mut s);
        s
    }

    #[test]
    fn absent_state_is_linear_wrap() {
        let d = descriptor(None, wgpu::Features::empty()).unwrap();
        assert_eq!(
            [d.address_mode_u, d.address_mode_v, d.address_mode_w],
            [AddressMode::Repeat; 3]
        );
        assert_eq!(
            (d.min_filter, d.mag_filter),
            (FilterMode::Linear, FilterMode::Linear)
        );
        assert_eq!(d.mipmap_filter, MipmapFilterMode::Linear);
        assert_eq!(d.anisotropy_clamp, 1);
        assert_eq!((d.lod_min_clamp, d.lod_max_clamp), (0.0, 32.0));
        assert_eq!(d.border_color, None);
        assert_eq!(d.compare, None);
    }

    #[test]
    fn address_modes_map_per_axis() {
        let s = with(|s| {
            s.address_u = TextureAddressMode::Clamp;
            s.address_v = TextureAddressMode::Mirror;
            s.address_w = TextureAddressMode::Wrap;
        });
        let d = descriptor(Some(&s), wgpu::Features::empty()).unwrap();
        assert_eq!(
            [d.address_mode_u, d.address_mode_v, d.address_mode_w],
            [
                AddressMode::ClampToEdge,
                AddressMode::MirrorRepeat,
                AddressMode::Repeat
            ]
        );
    }

    #[test]
    fn border_needs_the_feature_and_takes_the_nearest_colour() {
        let s = with(|s| {
            s.address_w = TextureAddressMode::Border;
            s.border_color = [10, 0, 0, 250];
        });
        let err = descriptor(Some(&s), wgpu::Features::empty()).unwrap_err();
        assert!(err.contains("ADDRESS_MODE_CLAMP_TO_BORDER"), "{err}");
        let d = descriptor(Some(&s), BORDER).unwrap();
        assert_eq!(d.address_mode_w, AddressMode::ClampToBorder);
        assert_eq!(d.address_mode_u, AddressMode::Repeat);
        assert_eq!(d.border_color, Some(wgpu::SamplerBorderColor::OpaqueBlack));
        assert_eq!(
            nearest_border([250, 250, 240, 255]),
            wgpu::SamplerBorderColor::OpaqueWhite
        );
        assert_eq!(
            nearest_border([10, 0, 0, 5]),
            wgpu::SamplerBorderColor::TransparentBlack
        );
        // MonoGame's default border (white) on a sampler that clamps to it.
        let white = with(|s| s.address_u = TextureAddressMode::Border);
        assert_eq!(
            descriptor(Some(&white), BORDER).unwrap().border_color,
            Some(wgpu::SamplerBorderColor::OpaqueWhite)
        );
    }

    #[test]
    fn the_nine_filters_match_dx11_and_the_gl_runtime() {
        use FilterMode::{Linear as L, Nearest as N};
        use MipmapFilterMode::{Linear as ML, Nearest as MN};
        let cases = [
            (TextureFilter::Point, (N, N, MN)),
            (TextureFilter::Linear, (L, L, ML)),
            (TextureFilter::Anisotropic, (L, L, ML)),
            (TextureFilter::PointMipLinear, (N, N, ML)),
            (TextureFilter::LinearMipPoint, (L, L, MN)),
            (TextureFilter::MinLinearMagPointMipLinear, (L, N, ML)),
            (TextureFilter::MinLinearMagPointMipPoint, (L, N, MN)),
            (TextureFilter::MinPointMagLinearMipLinear, (N, L, ML)),
            (TextureFilter::MinPointMagLinearMipPoint, (N, L, MN)),
        ];
        for (filter, want) in cases {
            let d = descriptor(Some(&with(|s| s.filter = filter)), BORDER).unwrap();
            assert_eq!(
                (d.min_filter, d.mag_filter, d.mipmap_filter),
                want,
                "{filter:?}"
            );
            if filter != TextureFilter::Anisotropic {
                assert_eq!(d.anisotropy_clamp, 1, "{filter:?}");
            }
        }
    }

    #[test]
    fn anisotropy_is_clamped_to_one_through_sixteen() {
        let aniso = |max_anisotropy| {
            let s = with(|s| {
                s.filter = TextureFilter::Anisotropic;
                s.max_anisotropy = max_anisotropy;
            });
            descriptor(Some(&s), wgpu::Features::empty())
                .unwrap()
                .anisotropy_clamp
        };
        assert_eq!(aniso(4), 4);
        assert_eq!(aniso(0), 1);
        assert_eq!(aniso(-3), 1);
        assert_eq!(aniso(64), 16);
        // Only the Anisotropic filter uses it.
        let linear = with(|s| s.max_anisotropy = 16);
        assert_eq!(
            descriptor(Some(&linear), BORDER).unwrap().anisotropy_clamp,
            1
        );
    }

    #[test]
    fn max_mip_level_and_mip_filter_none_clamp_the_level_of_detail() {
        let lod = |s: SamplerState| {
            let d = descriptor(Some(&s), wgpu::Features::empty()).unwrap();
            (d.lod_min_clamp, d.lod_max_clamp)
        };
        assert_eq!(lod(with(|s| s.max_mip_level = 3)), (0.0, 3.0));
        // mgfxc's MipFilter = None: bias -16 and MaxMipLevel 0.
        assert_eq!(lod(with(|s| s.mip_lod_bias = -16.0)), (0.0, 0.0));
        assert_eq!(
            lod(with(|s| {
                s.mip_lod_bias = -20.0;
                s.max_mip_level = 2;
            })),
            (0.0, 0.0)
        );
        // A bias wgpu cannot express is dropped.
        assert_eq!(lod(with(|s| s.mip_lod_bias = 0.5)), (0.0, 32.0));
        assert_eq!(lod(with(|s| s.mip_lod_bias = -1.0)), (0.0, 32.0));
    }
}
