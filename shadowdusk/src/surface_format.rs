//! MonoGame's `SurfaceFormat`: how a texture's texels are stored, with MonoGame's numbering (an
//! XNB texture or a `Texture2D` constructor names one) and the size of each mip level's data.

/// MonoGame's `SurfaceFormat`, numbered as MonoGame numbers it ([`SurfaceFormat::from_monogame`]).
///
/// The channels are XNA's (and MonoGame's DirectX runtime's): `Bgr565` is a little-endian `u16`
/// with blue in its low five bits, `Alpha8` samples as `(0, 0, 0, a)`, `Bgr32` as opaque,
/// `NormalizedByte*` as signed normalized, `Rg32` and `Rgba64` as 16-bit unsigned normalized.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // The names are MonoGame's; each variant says what it stores.
pub enum SurfaceFormat {
    /// 8-bit RGBA (`R8G8B8A8_UNorm`).
    Color,
    /// 16-bit `u16`: blue bits 0–4, green 5–10, red 11–15.
    Bgr565,
    /// 16-bit `u16`: blue 0–4, green 5–9, red 10–14, alpha 15.
    Bgra5551,
    /// 16-bit `u16`: blue 0–3, green 4–7, red 8–11, alpha 12–15.
    Bgra4444,
    /// BC1 (DXT1), 8 bytes a 4×4 block.
    Dxt1,
    /// BC2 (DXT3), 16 bytes a 4×4 block.
    Dxt3,
    /// BC3 (DXT5), 16 bytes a 4×4 block.
    Dxt5,
    /// Two signed normalized bytes.
    NormalizedByte2,
    /// Four signed normalized bytes.
    NormalizedByte4,
    /// 10-bit RGB and 2-bit alpha in a little-endian `u32`, red lowest.
    Rgba1010102,
    /// Two 16-bit unsigned normalized channels.
    Rg32,
    /// Four 16-bit unsigned normalized channels.
    Rgba64,
    /// One 8-bit alpha channel.
    Alpha8,
    /// One 32-bit float.
    Single,
    /// Two 32-bit floats.
    Vector2,
    /// Four 32-bit floats.
    Vector4,
    /// One 16-bit float.
    HalfSingle,
    /// Two 16-bit floats.
    HalfVector2,
    /// Four 16-bit floats.
    HalfVector4,
    /// Four 16-bit floats (MonoGame's choice for `HdrBlendable`).
    HdrBlendable,
    /// 8-bit BGR and an unused byte, sampled opaque.
    Bgr32,
    /// 8-bit BGRA.
    Bgra32,
    /// 8-bit RGBA in sRGB.
    ColorSRgb,
    /// 8-bit BGR and an unused byte in sRGB, sampled opaque.
    Bgr32SRgb,
    /// 8-bit BGRA in sRGB.
    Bgra32SRgb,
    /// BC1 in sRGB.
    Dxt1SRgb,
    /// BC2 in sRGB.
    Dxt3SRgb,
    /// BC3 in sRGB.
    Dxt5SRgb,
    /// PVRTC 2 bits a texel, opaque.
    RgbPvrtc2Bpp,
    /// PVRTC 4 bits a texel, opaque.
    RgbPvrtc4Bpp,
    /// PVRTC 2 bits a texel with alpha.
    RgbaPvrtc2Bpp,
    /// PVRTC 4 bits a texel with alpha.
    RgbaPvrtc4Bpp,
    /// ETC1 (an ETC2 RGB subset), 8 bytes a 4×4 block.
    RgbEtc1,
    /// BC1 with its one-bit alpha (MonoGame's GL `RGBA_S3TC_DXT1`).
    Dxt1a,
    /// ATC with explicit alpha, 16 bytes a 4×4 block.
    RgbaAtcExplicitAlpha,
    /// ATC with interpolated alpha, 16 bytes a 4×4 block.
    RgbaAtcInterpolatedAlpha,
    /// ETC2 RGB, 8 bytes a 4×4 block.
    Rgb8Etc2,
    /// ETC2 RGB in sRGB.
    Srgb8Etc2,
    /// ETC2 RGB with punch-through alpha.
    Rgb8A1Etc2,
    /// ETC2 RGB with punch-through alpha, in sRGB.
    Srgb8A1Etc2,
    /// ETC2 RGBA (EAC alpha), 16 bytes a 4×4 block.
    Rgba8Etc2,
    /// ETC2 RGBA in sRGB.
    SRgb8A8Etc2,
    /// ASTC 4×4, 16 bytes a block.
    Astc4X4Rgba,
}

/// Every format with MonoGame's number for it: the one home of the numbering.
const NUMBERS: [(SurfaceFormat, u32); 43] = {
    use SurfaceFormat as F;
    [
        (F::Color, 0),
        (F::Bgr565, 1),
        (F::Bgra5551, 2),
        (F::Bgra4444, 3),
        (F::Dxt1, 4),
        (F::Dxt3, 5),
        (F::Dxt5, 6),
        (F::NormalizedByte2, 7),
        (F::NormalizedByte4, 8),
        (F::Rgba1010102, 9),
        (F::Rg32, 10),
        (F::Rgba64, 11),
        (F::Alpha8, 12),
        (F::Single, 13),
        (F::Vector2, 14),
        (F::Vector4, 15),
        (F::HalfSingle, 16),
        (F::HalfVector2, 17),
        (F::HalfVector4, 18),
        (F::HdrBlendable, 19),
        (F::Bgr32, 20),
        (F::Bgra32, 21),
        (F::ColorSRgb, 30),
        (F::Bgr32SRgb, 31),
        (F::Bgra32SRgb, 32),
        (F::Dxt1SRgb, 33),
        (F::Dxt3SRgb, 34),
        (F::Dxt5SRgb, 35),
        (F::RgbPvrtc2Bpp, 50),
        (F::RgbPvrtc4Bpp, 51),
        (F::RgbaPvrtc2Bpp, 52),
        (F::RgbaPvrtc4Bpp, 53),
        (F::RgbEtc1, 60),
        (F::Dxt1a, 70),
        (F::RgbaAtcExplicitAlpha, 80),
        (F::RgbaAtcInterpolatedAlpha, 81),
        (F::Rgb8Etc2, 90),
        (F::Srgb8Etc2, 91),
        (F::Rgb8A1Etc2, 92),
        (F::Srgb8A1Etc2, 93),
        (F::Rgba8Etc2, 94),
        (F::SRgb8A8Etc2, 95),
        (F::Astc4X4Rgba, 96),
    ]
};

/// How a format's data is laid out: blocks of `width` × `height` texels of `bytes` each (1 × 1
/// for an uncompressed format).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Texels across.
    pub width: u32,
    /// Texels down.
    pub height: u32,
    /// Bytes.
    pub bytes: u32,
}

impl SurfaceFormat {
    /// Every format, in MonoGame's order.
    pub const ALL: [SurfaceFormat; 43] = {
        let mut all = [SurfaceFormat::Color; 43];
        let mut i = 0;
        while i < NUMBERS.len() {
            all[i] = NUMBERS[i].0;
            i += 1;
        }
        all
    };

    /// The format MonoGame numbers `n` (`(int)SurfaceFormat.Dxt5` is 6).
    pub fn from_monogame(n: u32) -> Option<SurfaceFormat> {
        NUMBERS.iter().find(|(_, k)| *k == n).map(|(f, _)| *f)
    }

    /// MonoGame's number for it.
    pub fn monogame(self) -> u32 {
        NUMBERS
            .iter()
            .find(|(f, _)| *f == self)
            .map_or(0, |(_, k)| *k)
    }

    /// Its block: 1 × 1 texel for an uncompressed format.
    pub fn block(self) -> Block {
        use SurfaceFormat as F;
        let block = |width, height, bytes| Block {
            width,
            height,
            bytes,
        };
        match self {
            F::Dxt1 | F::Dxt1SRgb | F::Dxt1a | F::RgbEtc1 => block(4, 4, 8),
            F::Rgb8Etc2 | F::Srgb8Etc2 | F::Rgb8A1Etc2 | F::Srgb8A1Etc2 => block(4, 4, 8),
            F::Dxt3 | F::Dxt3SRgb | F::Dxt5 | F::Dxt5SRgb | F::Astc4X4Rgba => block(4, 4, 16),
            F::RgbaAtcExplicitAlpha | F::RgbaAtcInterpolatedAlpha => block(4, 4, 16),
            F::Rgba8Etc2 | F::SRgb8A8Etc2 => block(4, 4, 16),
            F::RgbPvrtc2Bpp | F::RgbaPvrtc2Bpp => block(8, 4, 8),
            F::RgbPvrtc4Bpp | F::RgbaPvrtc4Bpp => block(4, 4, 8),
            F::Alpha8 => block(1, 1, 1),
            F::Bgr565 | F::Bgra5551 | F::Bgra4444 | F::HalfSingle | F::NormalizedByte2 => {
                block(1, 1, 2)
            }
            F::Color | F::ColorSRgb | F::Single | F::Rg32 | F::HalfVector2 => block(1, 1, 4),
            F::NormalizedByte4 | F::Rgba1010102 | F::Bgra32 | F::Bgra32SRgb => block(1, 1, 4),
            F::Bgr32 | F::Bgr32SRgb => block(1, 1, 4),
            F::HalfVector4 | F::HdrBlendable | F::Rgba64 | F::Vector2 => block(1, 1, 8),
            F::Vector4 => block(1, 1, 16),
        }
    }

    /// Whether it is block-compressed.
    pub fn is_compressed(self) -> bool {
        self.block().width > 1
    }

    /// Whether its colour channels are sRGB-encoded (sampling converts them to linear).
    pub fn is_srgb(self) -> bool {
        use SurfaceFormat as F;
        matches!(
            self,
            F::ColorSRgb
                | F::Bgr32SRgb
                | F::Bgra32SRgb
                | F::Dxt1SRgb
                | F::Dxt3SRgb
                | F::Dxt5SRgb
                | F::Srgb8Etc2
                | F::Srgb8A1Etc2
                | F::SRgb8A8Etc2
        )
    }

    /// The bytes of one mip level (one face or slice) of `width` × `height` texels, as MonoGame
    /// sizes it: whole blocks, and PVRTC's smallest image (16 × 8 texels at 2 bits, 8 × 8 at 4).
    pub fn level_size(self, width: u32, height: u32) -> u64 {
        let (width, height) = match self {
            SurfaceFormat::RgbPvrtc2Bpp | SurfaceFormat::RgbaPvrtc2Bpp => {
                (width.max(16), height.max(8))
            }
            SurfaceFormat::RgbPvrtc4Bpp | SurfaceFormat::RgbaPvrtc4Bpp => {
                (width.max(8), height.max(8))
            }
            _ => (width, height),
        };
        let b = self.block();
        u64::from(width.div_ceil(b.width))
            * u64::from(height.div_ceil(b.height))
            * u64::from(b.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monogame_numbers_round_trip_and_are_unique() {
        for f in SurfaceFormat::ALL {
            assert_eq!(SurfaceFormat::from_monogame(f.monogame()), Some(f), "{f:?}");
        }
        let mut numbers: Vec<u32> = SurfaceFormat::ALL.iter().map(|f| f.monogame()).collect();
        numbers.dedup();
        assert_eq!(numbers.len(), SurfaceFormat::ALL.len());
        assert_eq!(SurfaceFormat::from_monogame(6), Some(SurfaceFormat::Dxt5));
        assert_eq!(SurfaceFormat::from_monogame(22), None);
    }

    #[test]
    fn level_sizes_count_whole_blocks_as_monogame_does() {
        use SurfaceFormat as F;
        assert_eq!(F::Color.level_size(3, 5), 60);
        assert_eq!(F::Dxt1.level_size(4, 4), 8);
        assert_eq!(F::Dxt5.level_size(1, 1), 16);
        assert_eq!(F::Dxt5.level_size(6, 9), 2 * 3 * 16);
        assert_eq!(F::RgbPvrtc2Bpp.level_size(4, 4), 16 * 8 * 2 / 8);
        assert_eq!(F::RgbaPvrtc4Bpp.level_size(16, 16), 16 * 16 * 4 / 8);
        assert_eq!(F::Vector4.level_size(2, 2), 64);
    }
}
