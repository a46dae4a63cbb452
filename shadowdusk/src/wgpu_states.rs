//! MonoGame's blend, rasterizer and sampler states (and the compiler's texture view dimensions)
//! as wgpu values, written once for every wgpu major a glue is built on: the wgpu runtime's (wgpu 30) and `shadowdusk-bevy`'s (Bevy's wgpu 29). The
//! two majors' types are different types with the same names and fields, so the mapping is a
//! macro over the wgpu crate's name; each glue expands it once, into a module
//! `monogame_states`, and no copy of the table can drift from the other.
//!
//! Blend states map as MonoGame's DirectX 11 runtime maps them (`TargetBlendState.GetState`,
//! `GetBlendOption`); sampler states as `SamplerState.DirectX.cs` builds them, except where
//! the GL runtime (`gl/sampler.rs`) draws something wgpu can also draw:
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

/// Expands to `mod monogame_states` mapping MonoGame's blend and sampler states to the wgpu
/// crate named `$wgpu` (`color_target`, `blend_constant`, `sampler_descriptor`). Not API: the
/// glue crates' shared table.
#[doc(hidden)]
#[macro_export]
macro_rules! __wgpu_states {
    ($wgpu:ident) => {
        #[allow(dead_code)]
        pub(crate) mod monogame_states {
            use $crate::mgfx::{
                Blend, BlendFunction, BlendState, CullMode, FillMode, RasterizerState,
                SamplerState, TextureAddressMode, TextureFilter,
            };

            /// MonoGame's opaque test (`TargetBlendState.GetState` on DX11, `PlatformApplyState` on GL): the
            /// functions are not looked at, so One/Zero with `ReverseSubtract` still writes the source.
            pub fn blends(b: &BlendState) -> bool {
                !(b.color_source_blend == Blend::One
                    && b.color_destination_blend == Blend::Zero
                    && b.alpha_source_blend == Blend::One
                    && b.alpha_destination_blend == Blend::Zero)
            }

            /// `GetBlendOption`: in the alpha slot a colour factor becomes its alpha counterpart, as D3D11
            /// requires (wgpu would read the alpha channel for them anyway).
            pub fn blend_factor(b: Blend, alpha: bool) -> $wgpu::BlendFactor {
                use $wgpu::BlendFactor as F;
                match b {
                    Blend::One => F::One,
                    Blend::Zero => F::Zero,
                    Blend::SourceColor if alpha => F::SrcAlpha,
                    Blend::SourceColor => F::Src,
                    Blend::InverseSourceColor if alpha => F::OneMinusSrcAlpha,
                    Blend::InverseSourceColor => F::OneMinusSrc,
                    Blend::SourceAlpha => F::SrcAlpha,
                    Blend::InverseSourceAlpha => F::OneMinusSrcAlpha,
                    Blend::DestinationColor if alpha => F::DstAlpha,
                    Blend::DestinationColor => F::Dst,
                    Blend::InverseDestinationColor if alpha => F::OneMinusDstAlpha,
                    Blend::InverseDestinationColor => F::OneMinusDst,
                    Blend::DestinationAlpha => F::DstAlpha,
                    Blend::InverseDestinationAlpha => F::OneMinusDstAlpha,
                    Blend::BlendFactor => F::Constant,
                    Blend::InverseBlendFactor => F::OneMinusConstant,
                    Blend::SourceAlphaSaturation => F::SrcAlphaSaturated,
                }
            }

            /// One blend component. wgpu refuses Min/Max with factors other than One; D3D11 and GL ignore
            /// the factors there, so One changes nothing.
            pub fn component(
                function: BlendFunction,
                src: Blend,
                dst: Blend,
                alpha: bool,
            ) -> $wgpu::BlendComponent {
                use $wgpu::BlendOperation as Op;
                let operation = match function {
                    BlendFunction::Add => Op::Add,
                    BlendFunction::Subtract => Op::Subtract,
                    BlendFunction::ReverseSubtract => Op::ReverseSubtract,
                    BlendFunction::Min => Op::Min,
                    BlendFunction::Max => Op::Max,
                };
                let (src_factor, dst_factor) = match operation {
                    Op::Min | Op::Max => ($wgpu::BlendFactor::One, $wgpu::BlendFactor::One),
                    _ => (blend_factor(src, alpha), blend_factor(dst, alpha)),
                };
                $wgpu::BlendComponent {
                    src_factor,
                    dst_factor,
                    operation,
                }
            }

            /// `ColorWriteChannels` bits (1 R, 2 G, 4 B, 8 A) as wgpu's write mask.
            pub fn write_mask(channels: u8) -> $wgpu::ColorWrites {
                let mut mask = $wgpu::ColorWrites::empty();
                for (bit, write) in [
                    (1, $wgpu::ColorWrites::RED),
                    (2, $wgpu::ColorWrites::GREEN),
                    (4, $wgpu::ColorWrites::BLUE),
                    (8, $wgpu::ColorWrites::ALPHA),
                ] {
                    if channels & bit != 0 {
                        mask |= write;
                    }
                }
                mask
            }

            /// The colour target of a pass drawn into `format`: blend (None when the state is opaque, so
            /// formats that cannot blend still draw it) and write mask. `Err(())` when the state blends and
            /// `format` cannot be blended.
            ///
            /// Blendability is what wgpu guarantees without features: a device with `FLOAT32_BLENDABLE`
            /// could blend 32-bit float targets, but this function cannot see the device, so they are
            /// refused.
            pub fn color_target(
                blend: Option<&BlendState>,
                format: $wgpu::TextureFormat,
            ) -> Result<$wgpu::ColorTargetState, ()> {
                let b = blend.copied().unwrap_or_default();
                let state = if blends(&b) {
                    let blendable = format
                        .guaranteed_format_features($wgpu::Features::empty())
                        .flags
                        .contains($wgpu::TextureFormatFeatureFlags::BLENDABLE);
                    if !blendable {
                        return Err(());
                    }
                    Some($wgpu::BlendState {
                        color: component(
                            b.color_blend_function,
                            b.color_source_blend,
                            b.color_destination_blend,
                            false,
                        ),
                        alpha: component(
                            b.alpha_blend_function,
                            b.alpha_source_blend,
                            b.alpha_destination_blend,
                            true,
                        ),
                    })
                } else {
                    None
                };
                Ok($wgpu::ColorTargetState {
                    format,
                    blend: state,
                    // Both MonoGame runtimes apply the first target's channels (one target here).
                    write_mask: write_mask(b.color_write_channels[0]),
                })
            }

            /// Cull mode and winding for `topology`: `IsFrontCounterClockwise = false`, so clockwise
            /// triangles are front faces; CullCounterClockwiseFace culls the back, CullClockwiseFace the
            /// front (`RasterizerState.DirectX.cs`). Wireframe needs the device's `POLYGON_MODE_LINE`.
            pub fn primitive(
                rasterizer: Option<&RasterizerState>,
                topology: $wgpu::PrimitiveTopology,
            ) -> $wgpu::PrimitiveState {
                let r = rasterizer.copied().unwrap_or_default();
                $wgpu::PrimitiveState {
                    topology,
                    strip_index_format: None,
                    front_face: $wgpu::FrontFace::Cw,
                    cull_mode: match r.cull_mode {
                        CullMode::None => None,
                        CullMode::CullClockwiseFace => Some($wgpu::Face::Front),
                        CullMode::CullCounterClockwiseFace => Some($wgpu::Face::Back),
                    },
                    // MonoGame's DepthClipEnable defaults on and mgfx has no field for it.
                    unclipped_depth: false,
                    polygon_mode: match r.fill_mode {
                        FillMode::Solid => $wgpu::PolygonMode::Fill,
                        FillMode::WireFrame => $wgpu::PolygonMode::Line,
                    },
                    conservative: false,
                }
            }

            /// A texture binding's view dimension.
            pub fn view_dimension(
                d: $crate::wgsl::TextureDimension,
            ) -> $wgpu::TextureViewDimension {
                match d {
                    $crate::wgsl::TextureDimension::D1 => $wgpu::TextureViewDimension::D1,
                    $crate::wgsl::TextureDimension::D2 => $wgpu::TextureViewDimension::D2,
                    $crate::wgsl::TextureDimension::D3 => $wgpu::TextureViewDimension::D3,
                    $crate::wgsl::TextureDimension::Cube => $wgpu::TextureViewDimension::Cube,
                }
            }

            /// `BlendState.BlendFactor` as wgpu's blend constant (`GetBlendFactor`: each byte / 255).
            pub fn blend_constant(blend: Option<&BlendState>) -> $wgpu::Color {
                let [r, g, b, a] = blend
                    .copied()
                    .unwrap_or_default()
                    .blend_factor
                    .map(|c| f64::from(c) / 255.0);
                $wgpu::Color { r, g, b, a }
            }

            /// A bias at which level 0 is all a texture of at most 2^16 texels a side ever shows.
            pub const NO_MIPS_BIAS: f32 = -16.0;

            pub fn address(mode: TextureAddressMode) -> $wgpu::AddressMode {
                match mode {
                    TextureAddressMode::Wrap => $wgpu::AddressMode::Repeat,
                    TextureAddressMode::Clamp => $wgpu::AddressMode::ClampToEdge,
                    TextureAddressMode::Mirror => $wgpu::AddressMode::MirrorRepeat,
                    TextureAddressMode::Border => $wgpu::AddressMode::ClampToBorder,
                }
            }

            /// The wgpu border colour MonoGame's `c` becomes (the one table:
            /// `WgpuBorder`, which the compiler's SD0310 warning names too).
            pub fn nearest_border(c: [u8; 4]) -> $wgpu::SamplerBorderColor {
                match $crate::mgfx::wgpu::WgpuBorder::nearest(c) {
                    $crate::mgfx::wgpu::WgpuBorder::TransparentBlack => {
                        $wgpu::SamplerBorderColor::TransparentBlack
                    }
                    $crate::mgfx::wgpu::WgpuBorder::OpaqueBlack => {
                        $wgpu::SamplerBorderColor::OpaqueBlack
                    }
                    $crate::mgfx::wgpu::WgpuBorder::OpaqueWhite => {
                        $wgpu::SamplerBorderColor::OpaqueWhite
                    }
                }
            }

            /// (min, mag, mip) filters for `filter` (DX11 `GetFilter`; GL `filters` with mipmaps).
            pub fn filters(
                filter: TextureFilter,
            ) -> (
                $wgpu::FilterMode,
                $wgpu::FilterMode,
                $wgpu::MipmapFilterMode,
            ) {
                use $wgpu::FilterMode::{Linear as L, Nearest as N};
                use $wgpu::MipmapFilterMode::{Linear as ML, Nearest as MN};
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
            pub fn sampler_descriptor(
                state: Option<&SamplerState>,
                features: $wgpu::Features,
            ) -> Result<$wgpu::SamplerDescriptor<'static>, String> {
                // mgfx's default is LinearWrap's values (Linear, Wrap ×3, anisotropy 4, white border).
                let s = state.copied().unwrap_or_default();
                let modes = [s.address_u, s.address_v, s.address_w];
                let bordered = modes.contains(&TextureAddressMode::Border);
                if bordered && !features.contains($wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER) {
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
                    $wgpu::SamplerDescriptor::<'static>::default().lod_max_clamp
                };
                Ok($wgpu::SamplerDescriptor {
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
        }
    };
}
