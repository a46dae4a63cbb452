//! MonoGame sampler states as wgpu samplers, as `SamplerState.DirectX.cs` builds them, except
//! where the GL runtime (`gl/sampler.rs`) draws something wgpu can also draw:
//!
//! * address modes: Wrap/Clamp/Mirror/Border on all three axes (DX11; MonoGame's GL sets no
//!   `TEXTURE_WRAP_R`, which only a volume texture would show). Border clamps to the nearest of
//!   wgpu's three border colours, measured as the compiler's SD0310 warning measures it;
//! * filters: the nine `TextureFilter`s as DX11's `GetFilter` and the GL runtime's `filters`;
//!   Anisotropic is all-linear with `anisotropy_clamp` = `MaxAnisotropy` in 1..=16 (DX11 takes
//!   `min(MaxAnisotropy, 16)`, GL clamps to 1..the device's maximum);
//! * `MaxMipLevel` (DX11 ignores it) is the GL runtime's `TEXTURE_MAX_LEVEL` when positive, so
//!   `lod_max_clamp`; GL sets it on 2D textures only, here it holds for every kind;
//! * `MipMapLodBias`: wgpu has no sampler bias. At −16 or below every level-of-detail a texture
//!   can have is biased to 0 or less, so GL and DX11 sample level 0 with the magnification
//!   filter: `lod_max_clamp = 0` does exactly that. This is how mgfxc bakes `MipFilter = None`.
//!   Any other bias is dropped (the compiler warns, SD0311).

use std::collections::HashMap;

use crate::mgfx::{SamplerState, TextureAddressMode, TextureFilter};

/// wgpu's border colours, RGBA, in the order ties are resolved (the compiler's `BORDERS`).
const BORDERS: [([u8; 4], wgpu::SamplerBorderColor); 3] = [
    ([0, 0, 0, 0], wgpu::SamplerBorderColor::TransparentBlack),
    ([0, 0, 0, 255], wgpu::SamplerBorderColor::OpaqueBlack),
    ([255, 255, 255, 255], wgpu::SamplerBorderColor::OpaqueWhite),
];

/// A bias at which level 0 is all a texture of at most 2^16 texels a side ever shows.
const NO_MIPS_BIAS: f32 = -16.0;

fn address(mode: TextureAddressMode) -> wgpu::AddressMode {
    match mode {
        TextureAddressMode::Wrap => wgpu::AddressMode::Repeat,
        TextureAddressMode::Clamp => wgpu::AddressMode::ClampToEdge,
        TextureAddressMode::Mirror => wgpu::AddressMode::MirrorRepeat,
        TextureAddressMode::Border => wgpu::AddressMode::ClampToBorder,
    }
}

/// The wgpu border colour nearest to `c` (summed channel distance, first of equals).
fn nearest_border(c: [u8; 4]) -> wgpu::SamplerBorderColor {
    let distance =
        |b: &[u8; 4]| -> u32 { b.iter().zip(c).map(|(x, y)| u32::from(x.abs_diff(y))).sum() };
    BORDERS
        .iter()
        .min_by_key(|(b, _)| distance(b))
        .map_or(wgpu::SamplerBorderColor::OpaqueWhite, |&(_, colour)| colour)
}

/// (min, mag, mip) filters for `filter` (DX11 `GetFilter`; GL `filters` with mipmaps).
fn filters(filter: TextureFilter) -> (wgpu::FilterMode, wgpu::FilterMode, wgpu::MipmapFilterMode) {
    use wgpu::FilterMode::{Linear as L, Nearest as N};
    use wgpu::MipmapFilterMode::{Linear as ML, Nearest as MN};
    match filter {
        TextureFilter::Point => (N, N, MN),
        TextureFilter::Linear | TextureFilter::Anisotropic => (L, L, ML),
        TextureFilter::PointMipLinear => (N, N, ML),
        TextureFilter::LinearMipPoint => (L, L, MN),
        TextureFilter::MinLinearMagPointMipLinear => (L, N, ML),
        TextureFilter::MinLinearMagPointMipPoint => (L, N, MN),
        TextureFilter::MinPointMagLinearMipLinear => (N, L, ML),
        TextureFilter::MinPointMagLinearMipPoint => (N, L, MN),
    }
}

/// The sampler descriptor for `state` (`None`: MonoGame's device default, `SamplerState.LinearWrap`),
/// or why this device cannot express it (a border address mode without
/// `Features::ADDRESS_MODE_CLAMP_TO_BORDER`, say).
pub(crate) fn descriptor(
    state: Option<&SamplerState>,
    features: wgpu::Features,
) -> Result<wgpu::SamplerDescriptor<'static>, String> {
    // mgfx's default is LinearWrap's values (Linear, Wrap ×3, anisotropy 4, white border).
    let s = state.copied().unwrap_or_default();
    let modes = [s.address_u, s.address_v, s.address_w];
    let bordered = modes.contains(&TextureAddressMode::Border);
    if bordered && !features.contains(wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER) {
        return Err(
            "TextureAddressMode.Border needs wgpu's ADDRESS_MODE_CLAMP_TO_BORDER \
                    feature, which this device was not created with"
                .to_string(),
        );
    }
    let (min_filter, mag_filter, mipmap_filter) = filters(s.filter);
    let anisotropy_clamp = if s.filter == TextureFilter::Anisotropic {
        s.max_anisotropy.clamp(1, 16) as u16
    } else {
        1
    };
    let lod_max_clamp = if s.mip_lod_bias <= NO_MIPS_BIAS {
        0.0
    } else if s.max_mip_level > 0 {
        s.max_mip_level as f32
    } else {
        wgpu::SamplerDescriptor::<'static>::default().lod_max_clamp
    };
    Ok(wgpu::SamplerDescriptor {
        label: None,
        address_mode_u: address(s.address_u),
        address_mode_v: address(s.address_v),
        address_mode_w: address(s.address_w),
        mag_filter,
        min_filter,
        mipmap_filter,
        // DX11's MinimumLod.
        lod_min_clamp: 0.0,
        lod_max_clamp,
        compare: None,
        anisotropy_clamp,
        border_color: bordered.then(|| nearest_border(s.border_color)),
    })
}

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
    use super::*;
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
