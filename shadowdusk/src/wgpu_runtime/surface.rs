//! How each MonoGame [`SurfaceFormat`] is held on a wgpu device, and the texels converted on
//! the way where wgpu has no format of its own for them.
//!
//! The formats are MonoGame's DirectX runtime's (`SharpDXHelper.ToFormat`), which wgpu shares
//! for most: `Dxt1`–`Dxt5` are BC1–BC3, `Rg32`/`Rgba64` are 16-bit unorm, `NormalizedByte*` are
//! snorm. Where wgpu lacks the format or the device lacks its feature, the texels become one
//! wgpu has, sampled alike:
//!
//! * `Bgr565`, `Bgra5551`, `Bgra4444` and `Alpha8` (no wgpu format) expand to RGBA8, exactly;
//! * `Bgr32` keeps its bytes as BGRA8 with the unused byte made opaque, as DXGI's `B8G8R8X8`
//!   samples;
//! * `Rg32`/`Rgba64` without `TEXTURE_FORMAT_16BIT_NORM` become 32-bit floats, exactly;
//! * block-compressed formats the device cannot sample (BC without `TEXTURE_COMPRESSION_BC`,
//!   ETC without `TEXTURE_COMPRESSION_ETC2`, ASTC without `TEXTURE_COMPRESSION_ASTC`, PVRTC and
//!   ATC always, a volume of blocks without the sliced-3D feature, or a base level that is not
//!   whole blocks) are decoded to BGRA8 (`texture2ddecoder`). `Dxt1` decodes with BC1's one-bit
//!   alpha, as the device's BC1 samples it.

use crate::surface_format::SurfaceFormat;
use crate::wgsl::TextureDimension;

/// A block decoder: 16 texels (BGRA in a little-endian `u32` each) from one 4×4 block.
type BlockDecoder = fn(&[u8], &mut [u32]);

/// How texels of a format are turned into those of the wgpu format that holds them.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Convert {
    /// As they are.
    Copy,
    /// A `u16` of 5-6-5 bits (blue lowest) to RGBA8.
    Bgr565,
    /// A `u16` of 5-5-5-1 bits to RGBA8.
    Bgra5551,
    /// A `u16` of 4-4-4-4 bits to RGBA8.
    Bgra4444,
    /// One alpha byte to RGBA8 `(0, 0, 0, a)`.
    Alpha8,
    /// Four bytes with the fourth made 255.
    Opaque,
    /// 16-bit unorm channels to 32-bit floats.
    Unorm16,
    /// 4×4 blocks of `bytes` decoded to BGRA8 (`opaque`: alpha made 255).
    Blocks {
        decode: BlockDecoder,
        bytes: usize,
        opaque: bool,
    },
    /// PVRTC decoded to BGRA8.
    Pvrtc { two_bits: bool, opaque: bool },
}

/// The wgpu format a surface format is held in, and how its texels get there.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Storage {
    pub(crate) format: wgpu::TextureFormat,
    pub(crate) convert: Convert,
}

/// How `format` is held for a texture of `dimension` whose base level is `width` × `height`, on
/// a device with `features`.
pub(crate) fn storage(
    format: SurfaceFormat,
    dimension: TextureDimension,
    (width, height): (u32, u32),
    features: wgpu::Features,
) -> Storage {
    use wgpu::TextureFormat as T;
    use SurfaceFormat as F;
    let keep = |format| Storage {
        format,
        convert: Convert::Copy,
    };
    let with = |format, convert| Storage { format, convert };
    let bgra = |srgb: bool| {
        if srgb {
            T::Bgra8UnormSrgb
        } else {
            T::Bgra8Unorm
        }
    };
    let norm16 = features.contains(wgpu::Features::TEXTURE_FORMAT_16BIT_NORM);
    if format.is_compressed() {
        if let Some(native) = native_compressed(format, dimension, (width, height), features) {
            return keep(native);
        }
        return with(bgra(format.is_srgb()), decoder(format));
    }
    match format {
        F::Color => keep(T::Rgba8Unorm),
        F::ColorSRgb => keep(T::Rgba8UnormSrgb),
        F::Bgra32 => keep(T::Bgra8Unorm),
        F::Bgra32SRgb => keep(T::Bgra8UnormSrgb),
        F::Bgr32 => with(T::Bgra8Unorm, Convert::Opaque),
        F::Bgr32SRgb => with(T::Bgra8UnormSrgb, Convert::Opaque),
        F::Bgr565 => with(T::Rgba8Unorm, Convert::Bgr565),
        F::Bgra5551 => with(T::Rgba8Unorm, Convert::Bgra5551),
        F::Bgra4444 => with(T::Rgba8Unorm, Convert::Bgra4444),
        F::Alpha8 => with(T::Rgba8Unorm, Convert::Alpha8),
        F::NormalizedByte2 => keep(T::Rg8Snorm),
        F::NormalizedByte4 => keep(T::Rgba8Snorm),
        F::Rgba1010102 => keep(T::Rgb10a2Unorm),
        F::Rg32 if norm16 => keep(T::Rg16Unorm),
        F::Rg32 => with(T::Rg32Float, Convert::Unorm16),
        F::Rgba64 if norm16 => keep(T::Rgba16Unorm),
        F::Rgba64 => with(T::Rgba32Float, Convert::Unorm16),
        F::Single => keep(T::R32Float),
        F::Vector2 => keep(T::Rg32Float),
        F::Vector4 => keep(T::Rgba32Float),
        F::HalfSingle => keep(T::R16Float),
        F::HalfVector2 => keep(T::Rg16Float),
        F::HalfVector4 | F::HdrBlendable => keep(T::Rgba16Float),
        // Compressed formats returned above.
        _ => with(bgra(format.is_srgb()), decoder(format)),
    }
}

/// The device's own format for a compressed `format`, if it can hold this texture in it.
fn native_compressed(
    format: SurfaceFormat,
    dimension: TextureDimension,
    (width, height): (u32, u32),
    features: wgpu::Features,
) -> Option<wgpu::TextureFormat> {
    use wgpu::TextureFormat as T;
    use SurfaceFormat as F;
    let (native, feature, sliced) = match format {
        F::Dxt1 | F::Dxt1a => (T::Bc1RgbaUnorm, BC, BC_3D),
        F::Dxt1SRgb => (T::Bc1RgbaUnormSrgb, BC, BC_3D),
        F::Dxt3 => (T::Bc2RgbaUnorm, BC, BC_3D),
        F::Dxt3SRgb => (T::Bc2RgbaUnormSrgb, BC, BC_3D),
        F::Dxt5 => (T::Bc3RgbaUnorm, BC, BC_3D),
        F::Dxt5SRgb => (T::Bc3RgbaUnormSrgb, BC, BC_3D),
        F::RgbEtc1 | F::Rgb8Etc2 => (T::Etc2Rgb8Unorm, ETC2, NONE),
        F::Srgb8Etc2 => (T::Etc2Rgb8UnormSrgb, ETC2, NONE),
        F::Rgb8A1Etc2 => (T::Etc2Rgb8A1Unorm, ETC2, NONE),
        F::Srgb8A1Etc2 => (T::Etc2Rgb8A1UnormSrgb, ETC2, NONE),
        F::Rgba8Etc2 => (T::Etc2Rgba8Unorm, ETC2, NONE),
        F::SRgb8A8Etc2 => (T::Etc2Rgba8UnormSrgb, ETC2, NONE),
        F::Astc4X4Rgba => (
            T::Astc {
                block: wgpu::AstcBlock::B4x4,
                channel: wgpu::AstcChannel::Unorm,
            },
            ASTC,
            ASTC_3D,
        ),
        // PVRTC and ATC: wgpu has no such format.
        _ => return None,
    };
    let block = format.block();
    let whole_blocks = width % block.width == 0 && height % block.height == 0;
    let dimension_ok = match dimension {
        TextureDimension::D2 | TextureDimension::Cube => true,
        TextureDimension::D3 => !sliced.is_empty() && features.contains(sliced),
        // wgpu has no compressed 1D textures.
        TextureDimension::D1 => false,
    };
    (features.contains(feature) && whole_blocks && dimension_ok).then_some(native)
}

const NONE: wgpu::Features = wgpu::Features::empty();
const BC: wgpu::Features = wgpu::Features::TEXTURE_COMPRESSION_BC;
const BC_3D: wgpu::Features = wgpu::Features::TEXTURE_COMPRESSION_BC_SLICED_3D;
const ETC2: wgpu::Features = wgpu::Features::TEXTURE_COMPRESSION_ETC2;
const ASTC: wgpu::Features = wgpu::Features::TEXTURE_COMPRESSION_ASTC;
const ASTC_3D: wgpu::Features = wgpu::Features::TEXTURE_COMPRESSION_ASTC_SLICED_3D;

/// The decoder of a compressed format.
fn decoder(format: SurfaceFormat) -> Convert {
    use texture2ddecoder as d;
    use SurfaceFormat as F;
    let blocks = |decode: BlockDecoder, bytes, opaque| Convert::Blocks {
        decode,
        bytes,
        opaque,
    };
    match format {
        F::Dxt1 | F::Dxt1SRgb | F::Dxt1a => blocks(bc1_block, 8, false),
        F::Dxt3 | F::Dxt3SRgb => blocks(bc2_block, 16, false),
        F::Dxt5 | F::Dxt5SRgb => blocks(bc3_block, 16, false),
        F::RgbEtc1 => blocks(d::decode_etc1_block, 8, true),
        F::Rgb8Etc2 | F::Srgb8Etc2 => blocks(d::decode_etc2_rgb_block, 8, true),
        F::Rgb8A1Etc2 | F::Srgb8A1Etc2 => blocks(d::decode_etc2_rgba1_block, 8, false),
        F::Rgba8Etc2 | F::SRgb8A8Etc2 => blocks(d::decode_etc2_rgba8_block, 16, false),
        F::RgbaAtcExplicitAlpha => blocks(atc_explicit_block, 16, false),
        F::RgbaAtcInterpolatedAlpha => blocks(d::decode_atc_rgba8_block, 16, false),
        F::Astc4X4Rgba => blocks(astc_4x4_block, 16, false),
        F::RgbPvrtc2Bpp => Convert::Pvrtc {
            two_bits: true,
            opaque: true,
        },
        F::RgbaPvrtc2Bpp => Convert::Pvrtc {
            two_bits: true,
            opaque: false,
        },
        F::RgbPvrtc4Bpp => Convert::Pvrtc {
            two_bits: false,
            opaque: true,
        },
        // The last PVRTC; no other format reaches here (uncompressed ones are matched first).
        _ => Convert::Pvrtc {
            two_bits: false,
            opaque: false,
        },
    }
}

/// A BC1–BC3 colour block (two RGB565 endpoints, 2-bit indices). `bc1`: BC1's rule, where
/// endpoints in ascending order mean three colours and transparent black; BC2 and BC3 always
/// interpolate four colours (the S3TC and D3D10 specifications; `texture2ddecoder` applies
/// BC1's rule to them too, which a device does not).
fn bc_colour(data: &[u8], bc1: bool, out: &mut [u32]) {
    let c0 = u16::from_le_bytes([data[0], data[1]]);
    let c1 = u16::from_le_bytes([data[2], data[3]]);
    let expand = |c: u16| {
        let c = u32::from(c);
        let (r, g, b) = ((c >> 11) & 31, (c >> 5) & 63, c & 31);
        [
            (b << 3) | (b >> 2),
            (g << 2) | (g >> 4),
            (r << 3) | (r >> 2),
        ]
    };
    let (a, b) = (expand(c0), expand(c1));
    let bgra = |[b, g, r]: [u32; 3], alpha: u32| b | (g << 8) | (r << 16) | (alpha << 24);
    let mix = |wa: u32, wb: u32| [0, 1, 2].map(|i| (a[i] * wa + b[i] * wb) / (wa + wb));
    let palette = if !bc1 || c0 > c1 {
        [
            bgra(a, 255),
            bgra(b, 255),
            bgra(mix(2, 1), 255),
            bgra(mix(1, 2), 255),
        ]
    } else {
        [bgra(a, 255), bgra(b, 255), bgra(mix(1, 1), 255), 0]
    };
    let indices = u32::from_le_bytes([data[4], data[5], data[6], data[7]]);
    for (i, texel) in out.iter_mut().take(16).enumerate() {
        *texel = palette[((indices >> (2 * i)) & 3) as usize];
    }
}

/// BC1 as a device samples it (`Dxt1` too): the three-colour mode's fourth colour is
/// transparent black.
fn bc1_block(data: &[u8], out: &mut [u32]) {
    bc_colour(data, true, out);
}

/// BC2: explicit 4-bit alpha, then a four-colour block.
fn bc2_block(data: &[u8], out: &mut [u32]) {
    bc_colour(&data[8..16], false, out);
    explicit_alpha(data, out);
}

/// BC3: a BC4 block of alpha, then a four-colour block.
fn bc3_block(data: &[u8], out: &mut [u32]) {
    let mut alpha = [0u32; 16];
    // BC4 decodes its one channel into red (bits 16–23 of a BGRA texel).
    texture2ddecoder::decode_bc4_block(&data[..8], &mut alpha);
    bc_colour(&data[8..16], false, out);
    for (texel, a) in out.iter_mut().zip(alpha) {
        *texel = (*texel & 0x00ff_ffff) | (((a >> 16) & 0xff) << 24);
    }
}

/// ATC with explicit alpha: a 4-bit alpha per texel (as BC2's), then an ATC colour block.
fn atc_explicit_block(data: &[u8], out: &mut [u32]) {
    texture2ddecoder::decode_atc_rgb4_block(&data[8..16], out);
    explicit_alpha(data, out);
}

/// The 4-bit alpha of each texel, from the block's first 8 bytes (low nibble first).
fn explicit_alpha(data: &[u8], out: &mut [u32]) {
    for (i, texel) in out.iter_mut().take(16).enumerate() {
        let nibble = (data[i / 2] >> (4 * (i % 2))) & 0xf;
        *texel = (*texel & 0x00ff_ffff) | (u32::from(nibble * 17) << 24);
    }
}

fn astc_4x4_block(data: &[u8], out: &mut [u32]) {
    texture2ddecoder::decode_astc_block(data, 4, 4, out);
}

impl Convert {
    /// The bytes of one `width` × `height` image of `texels` (one level of one face or slice,
    /// `level_size` bytes of the surface format) in the wgpu format, appended to `out`.
    pub(crate) fn image(self, texels: &[u8], width: u32, height: u32, out: &mut Vec<u8>) {
        let (w, h) = (width as usize, height as usize);
        match self {
            Convert::Copy => out.extend_from_slice(texels),
            Convert::Bgr565 => unpack16(texels, out, |v| {
                [bits(v, 11, 5), bits(v, 5, 6), bits(v, 0, 5), 255]
            }),
            Convert::Bgra5551 => unpack16(texels, out, |v| {
                [bits(v, 10, 5), bits(v, 5, 5), bits(v, 0, 5), bits(v, 15, 1)]
            }),
            Convert::Bgra4444 => unpack16(texels, out, |v| {
                [bits(v, 8, 4), bits(v, 4, 4), bits(v, 0, 4), bits(v, 12, 4)]
            }),
            Convert::Alpha8 => out.extend(texels.iter().flat_map(|&a| [0, 0, 0, a])),
            Convert::Opaque => {
                out.extend(texels.chunks_exact(4).flat_map(|t| [t[0], t[1], t[2], 255]))
            }
            Convert::Unorm16 => out.extend(texels.chunks_exact(2).flat_map(|c| {
                (f32::from(u16::from_le_bytes([c[0], c[1]])) / 65535.0).to_le_bytes()
            })),
            Convert::Blocks {
                decode,
                bytes,
                opaque,
            } => {
                let mut image = vec![0u32; w * h];
                let mut block = [0u32; 16];
                let across = w.div_ceil(4);
                for (i, data) in texels.chunks_exact(bytes).enumerate() {
                    let (bx, by) = (i % across * 4, i / across * 4);
                    if by >= h {
                        break;
                    }
                    decode(data, &mut block);
                    for (row, line) in block.chunks_exact(4).enumerate() {
                        let y = by + row;
                        let n = 4.min(w - bx);
                        if y < h {
                            image[y * w + bx..][..n].copy_from_slice(&line[..n]);
                        }
                    }
                }
                push_bgra(&image, opaque, out);
            }
            Convert::Pvrtc { two_bits, opaque } => {
                let mut image = vec![0u32; w * h];
                // The data is `level_size` bytes, which is at least what the decoder reads.
                let _ = texture2ddecoder::decode_pvrtc(texels, w, h, &mut image, two_bits);
                push_bgra(&image, opaque, out);
            }
        }
    }
}

/// `count` bits of `v` from bit `at`, scaled to a byte as a unorm value is (`x * 255 / max`,
/// rounded: the nearest byte to what the format samples).
fn bits(v: u16, at: u32, count: u32) -> u8 {
    let max = (1u32 << count) - 1;
    let x = (u32::from(v) >> at) & max;
    ((x * 255 + max / 2) / max) as u8
}

fn unpack16(texels: &[u8], out: &mut Vec<u8>, texel: impl Fn(u16) -> [u8; 4]) {
    out.extend(
        texels
            .chunks_exact(2)
            .flat_map(|c| texel(u16::from_le_bytes([c[0], c[1]]))),
    );
}

/// Decoded texels (BGRA in little-endian `u32`s) as BGRA8 bytes.
fn push_bgra(image: &[u32], opaque: bool, out: &mut Vec<u8>) {
    out.extend(image.iter().flat_map(|&t| {
        let mut bgra = t.to_le_bytes();
        if opaque {
            bgra[3] = 255;
        }
        bgra
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_16_bit_texels_expand_to_the_bytes_they_sample_as() {
        let mut out = Vec::new();
        // Red 31, green 0, blue 31: magenta; then green 63 only.
        Convert::Bgr565.image(&[0x1f, 0xf8, 0xe0, 0x07], 2, 1, &mut out);
        assert_eq!(out, [255, 0, 255, 255, 0, 255, 0, 255]);
        out.clear();
        // Alpha bit set, red 16 (16/31 → 132), blue 1 (1/31 → 8).
        let v: u16 = 0x8000 | (16 << 10) | 1;
        Convert::Bgra5551.image(&v.to_le_bytes(), 1, 1, &mut out);
        assert_eq!(out, [132, 0, 8, 255]);
        out.clear();
        let v: u16 = (0xa << 12) | (0x5 << 8) | (0xf << 4) | 0x1;
        Convert::Bgra4444.image(&v.to_le_bytes(), 1, 1, &mut out);
        assert_eq!(out, [0x55, 0xff, 0x11, 0xaa]);
    }

    #[test]
    fn blocks_land_in_rows_and_edges_are_cut() {
        // A solid BC1 block: colour0 = colour1 = pure red, every index 0.
        let red = [0x00, 0xf8, 0x00, 0xf8, 0, 0, 0, 0];
        let mut data = Vec::new();
        for _ in 0..2 {
            data.extend_from_slice(&red);
        }
        let mut out = Vec::new();
        decoder(SurfaceFormat::Dxt1).image(&data, 6, 3, &mut out);
        assert_eq!(out.len(), 6 * 3 * 4);
        assert!(
            out.chunks_exact(4).all(|t| t == [0, 0, 255, 255]),
            "{out:?}"
        );
    }

    #[test]
    fn bc2_and_bc3_interpolate_four_colours_whatever_the_endpoint_order() {
        // Endpoints black then white (ascending), every index 3: BC1 gives transparent black,
        // BC2 two thirds of the way to white.
        let colour = [0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
        let mut out = [0u32; 16];
        bc1_block(&colour, &mut out);
        assert_eq!(out[5], 0);
        let mut bc2 = [0xffu8; 16];
        bc2[8..].copy_from_slice(&colour);
        bc2_block(&bc2, &mut out);
        assert_eq!(out[5].to_le_bytes(), [170, 170, 170, 255]);
    }

    #[test]
    fn formats_without_their_feature_are_held_in_another_format() {
        let none = wgpu::Features::empty();
        let d2 = TextureDimension::D2;
        let s = storage(SurfaceFormat::Dxt5, d2, (8, 8), none);
        assert_eq!(s.format, wgpu::TextureFormat::Bgra8Unorm);
        let bc = wgpu::Features::TEXTURE_COMPRESSION_BC;
        let s = storage(SurfaceFormat::Dxt5, d2, (8, 8), bc);
        assert_eq!(s.format, wgpu::TextureFormat::Bc3RgbaUnorm);
        // Not whole blocks, or a volume without the sliced-3D feature: decoded.
        let s = storage(SurfaceFormat::Dxt5, d2, (6, 8), bc);
        assert_eq!(s.format, wgpu::TextureFormat::Bgra8Unorm);
        let s = storage(SurfaceFormat::Dxt5SRgb, TextureDimension::D3, (8, 8), bc);
        assert_eq!(s.format, wgpu::TextureFormat::Bgra8UnormSrgb);
        let s = storage(SurfaceFormat::Rgba64, d2, (1, 1), none);
        assert_eq!(s.format, wgpu::TextureFormat::Rgba32Float);
    }
}
