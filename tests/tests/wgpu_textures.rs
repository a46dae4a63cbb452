//! Textures on the wgpu runtime: every MonoGame `SurfaceFormat`, made by `WgpuTexture::new` as
//! a 2D texture with three mip levels, a cube and a volume, is sampled texel by texel (point
//! filtering, at texel centres) by an effect of that texture kind, drawn by `DynWgpuEffect` on
//! lavapipe and read back. Each pixel must equal the texel as the format defines it, computed
//! here from the bytes (bit fields, snorm, halves, sRGB), within 2/255; block-compressed texels
//! are held to `texture2ddecoder`'s decoding, so the device's own BC decoding (with
//! `TEXTURE_COMPRESSION_BC`) is held to the same reference as the runtime's decoded fallback.
//!
//! Every case runs twice: on a device with the runtime's `WANTED_FEATURES`, and on one with no
//! optional feature (32-bit floats unfilterable, no 16-bit unorm, no block compression), as a
//! phone or a browser has. Then: 32-bit floats filtered where the device can and sampled nearest
//! where it cannot, whatever the sampler state; depth views sampled; and every texture a pass
//! cannot sample (integer, stencil, multisampled, no `TEXTURE_BINDING`, another dimension, a
//! depth-stencil view of both aspects) refused with a `WgpuError`, never wgpu's panic.
//!
//! Without a wgpu adapter the tests print a `!!! SKIPPED` line and pass (fail under
//! `SHADOWDUSK_REQUIRE_ALL=1`).

use std::path::Path;

use shadowdusk::wgpu;
use shadowdusk::wgpu_runtime::headless::HeadlessWgpu;
use shadowdusk::wgpu_runtime::{
    DynWgpuEffect, Sprite, SpriteBatch, TextureDesc, WgpuError, WgpuRenderTarget, WgpuTexture,
};
use shadowdusk::wgsl::TextureDimension;
use shadowdusk::SurfaceFormat;
use shadowdusk_compiler::pipeline::{compile_source, Options};
use shadowdusk_tests::parity::wgpu_or_skip;

const TOLERANCE: f32 = 2.0;

/// A 2D texture sampled at the level `Level` (c0.x), texel for pixel at level 0.
const FLAT: &str = r#"
texture Tex;
sampler2D S = sampler_state { Texture = <Tex>; MinFilter = Point; MagFilter = Point;
    MipFilter = Point; AddressU = Clamp; AddressV = Clamp; };
float Level;
float4 PS(float4 c : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return tex2Dlod(S, float4(uv, 0, Level));
}
technique T { pass P { PixelShader = compile ps_3_0 PS(); } }
"#;

/// A cube's +Z face, texel for pixel.
const CUBE: &str = r#"
texture Tex;
samplerCUBE S = sampler_state { Texture = <Tex>; MinFilter = Point; MagFilter = Point;
    MipFilter = Point; };
float4 PS(float4 c : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return texCUBE(S, float3(uv.x * 2 - 1, 1 - uv.y * 2, 1));
}
technique T { pass P { PixelShader = compile ps_3_0 PS(); } }
"#;

/// A volume's slice at depth `Slice` (c0.x, 0..1), texel for pixel.
const VOLUME: &str = r#"
texture Tex;
sampler3D S = sampler_state { Texture = <Tex>; MinFilter = Point; MagFilter = Point;
    MipFilter = Point; AddressU = Clamp; AddressV = Clamp; AddressW = Clamp; };
float Slice;
float4 PS(float4 c : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return tex3D(S, float3(uv, Slice));
}
technique T { pass P { PixelShader = compile ps_3_0 PS(); } }
"#;

/// A 2D texture sampled with a linear filter.
const LINEAR: &str = r#"
texture Tex;
sampler2D S = sampler_state { Texture = <Tex>; MinFilter = Linear; MagFilter = Linear;
    MipFilter = Linear; AddressU = Clamp; AddressV = Clamp; };
float4 PS(float4 c : COLOR0, float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }
technique T { pass P { PixelShader = compile ps_3_0 PS(); } }
"#;

/// An effect and the MGFX parameter index of its texture `Tex`.
struct Fx {
    fx: DynWgpuEffect,
    tex: usize,
}

/// The effect of `source`, on `w`'s device.
fn effect(w: &HeadlessWgpu, name: &'static str, source: &str) -> Fx {
    let options = Options {
        wgpu: true,
        ..Options::default()
    };
    let compiled = compile_source(Path::new(name), source, &options)
        .unwrap_or_else(|e| panic!("{name}: {}", e.render(false)));
    let wgpu = compiled.wgpu.as_ref().expect("wgpu output");
    let model = shadowdusk::mgfx::read(&compiled.bytes).expect("the MGFX reads back");
    let tex = model
        .parameters
        .iter()
        .position(|p| p.name == "Tex")
        .expect("a parameter `Tex`");
    let fx = DynWgpuEffect::from_output(w.device(), name, wgpu, &compiled.bytes)
        .expect("the effect loads");
    Fx { fx, tex }
}

/// Draws pass 0 of `fx` over a `width` × `height` target with `texture` set and `c0` as its
/// first register; the pixels, top row first, or the runtime's error.
fn draw(
    w: &HeadlessWgpu,
    Fx { fx, tex }: &mut Fx,
    texture: &WgpuTexture,
    c0: f32,
    (width, height): (u32, u32),
) -> Result<Vec<[u8; 4]>, WgpuError> {
    let (device, queue) = (w.device(), w.queue());
    fx.set_texture(*tex, Some(texture))?;
    fx.set_registers(0, &[[c0, 0.0, 0.0, 0.0]]);
    let target = WgpuRenderTarget::new(device, width, height, false)?;
    let mut batch = SpriteBatch::new(device);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut rp = shadowdusk_tests::parity::begin_pass(&target, &mut encoder, [0; 4], 0);
        let mut applied = fx.apply(0, 0, &target.target())?;
        let sprite = Sprite {
            uv: [[0.0, 0.0], [1.0, 1.0]],
            ..Sprite::new(0.0, 0.0, width as f32, height as f32)
        };
        batch.draw(&mut rp, &mut applied, &[sprite])?;
    }
    fx.flush(queue);
    batch.flush(queue);
    queue.submit([encoder.finish()]);
    let pixels = target.read_rgba8(device, queue)?;
    Ok(pixels
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect())
}

/// Deterministic bytes (xorshift).
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 32) as u8
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.next(), self.next()])
    }
}

/// `size` bytes of one image of `format`, with values every format samples as finite numbers
/// in a range the checks can see (floats in 0..1, ASTC as constant-colour blocks).
fn image_bytes(format: SurfaceFormat, size: usize, rng: &mut Bytes) -> Vec<u8> {
    use SurfaceFormat as F;
    let mut out = Vec::with_capacity(size);
    while out.len() < size {
        match format {
            F::Single | F::Vector2 | F::Vector4 => {
                out.extend((f32::from(rng.next()) / 255.0).to_le_bytes())
            }
            // Every half at or below 0x3c00 (1.0) is finite and in 0..1.
            F::HalfSingle | F::HalfVector2 | F::HalfVector4 | F::HdrBlendable => {
                out.extend((rng.u16() % 0x3c01).to_le_bytes())
            }
            // ASTC's void-extent block: one RGBA16 colour for the block.
            F::Astc4X4Rgba => {
                out.extend([0xfc, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
                (0..8).for_each(|_| out.push(rng.next()));
            }
            _ => out.push(rng.next()),
        }
    }
    out.truncate(size);
    out
}

/// Texel data for `desc`, laid out as `TextureDesc::data_size` says.
fn texture_bytes(desc: &TextureDesc, seed: u64) -> Vec<u8> {
    let mut rng = Bytes(seed);
    let mut data = Vec::new();
    for level in 0..desc.mip_levels {
        let (w, h, images) = desc.level_extent(level);
        for _ in 0..images {
            let size = desc.format.level_size(w, h) as usize;
            data.extend(image_bytes(desc.format, size, &mut rng));
        }
    }
    data
}

fn srgb(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn half(h: u16) -> f32 {
    let exponent = i32::from((h >> 10) & 0x1f);
    let mantissa = f32::from(h & 0x3ff);
    let magnitude = if exponent == 0 {
        mantissa * 2f32.powi(-24)
    } else {
        (1.0 + mantissa / 1024.0) * 2f32.powi(exponent - 15)
    };
    if h & 0x8000 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// The texels (RGBA as stored: sRGB-encoded for an sRGB format) of one `width` × `height`
/// image of `format`: the reference.
fn reference(format: SurfaceFormat, bytes: &[u8], width: u32, height: u32) -> Vec<[f32; 4]> {
    use SurfaceFormat as F;
    let (w, h) = (width as usize, height as usize);
    let field =
        |v: u32, at: u32, n: u32| ((v >> at) & ((1 << n) - 1)) as f32 / ((1 << n) - 1) as f32;
    let unorm = |b: u8| f32::from(b) / 255.0;
    let snorm = |b: u8| (f32::from(b as i8) / 127.0).max(-1.0);
    let u16s = |c: &[u8]| -> Vec<f32> {
        c.chunks_exact(2)
            .map(|x| f32::from(u16::from_le_bytes([x[0], x[1]])) / 65535.0)
            .collect()
    };
    let halves = |c: &[u8]| -> Vec<f32> {
        c.chunks_exact(2)
            .map(|x| half(u16::from_le_bytes([x[0], x[1]])))
            .collect()
    };
    let floats = |c: &[u8]| -> Vec<f32> {
        c.chunks_exact(4)
            .map(|x| f32::from_le_bytes([x[0], x[1], x[2], x[3]]))
            .collect()
    };
    let texel = format.block().bytes as usize;
    if format.is_compressed() {
        return decoded(format, bytes, w, h);
    }
    bytes
        .chunks_exact(texel)
        .take(w * h)
        .map(|t| {
            let v16 = || u32::from(u16::from_le_bytes([t[0], t[1]]));
            let v32 = || u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
            match format {
                F::Color => [unorm(t[0]), unorm(t[1]), unorm(t[2]), unorm(t[3])],
                F::ColorSRgb => [unorm(t[0]), unorm(t[1]), unorm(t[2]), unorm(t[3])],
                F::Bgra32 | F::Bgra32SRgb => [unorm(t[2]), unorm(t[1]), unorm(t[0]), unorm(t[3])],
                F::Bgr32 | F::Bgr32SRgb => [unorm(t[2]), unorm(t[1]), unorm(t[0]), 1.0],
                F::Bgr565 => [
                    field(v16(), 11, 5),
                    field(v16(), 5, 6),
                    field(v16(), 0, 5),
                    1.0,
                ],
                F::Bgra5551 => [
                    field(v16(), 10, 5),
                    field(v16(), 5, 5),
                    field(v16(), 0, 5),
                    field(v16(), 15, 1),
                ],
                F::Bgra4444 => [
                    field(v16(), 8, 4),
                    field(v16(), 4, 4),
                    field(v16(), 0, 4),
                    field(v16(), 12, 4),
                ],
                F::Alpha8 => [0.0, 0.0, 0.0, unorm(t[0])],
                F::NormalizedByte2 => [snorm(t[0]), snorm(t[1]), 0.0, 1.0],
                F::NormalizedByte4 => [snorm(t[0]), snorm(t[1]), snorm(t[2]), snorm(t[3])],
                F::Rgba1010102 => [
                    field(v32(), 0, 10),
                    field(v32(), 10, 10),
                    field(v32(), 20, 10),
                    field(v32(), 30, 2),
                ],
                F::Rg32 => {
                    let v = u16s(t);
                    [v[0], v[1], 0.0, 1.0]
                }
                F::Rgba64 => {
                    let v = u16s(t);
                    [v[0], v[1], v[2], v[3]]
                }
                F::Single => [floats(t)[0], 0.0, 0.0, 1.0],
                F::Vector2 => {
                    let v = floats(t);
                    [v[0], v[1], 0.0, 1.0]
                }
                F::Vector4 => {
                    let v = floats(t);
                    [v[0], v[1], v[2], v[3]]
                }
                F::HalfSingle => [halves(t)[0], 0.0, 0.0, 1.0],
                F::HalfVector2 => {
                    let v = halves(t);
                    [v[0], v[1], 0.0, 1.0]
                }
                F::HalfVector4 | F::HdrBlendable => {
                    let v = halves(t);
                    [v[0], v[1], v[2], v[3]]
                }
                other => unreachable!("{other:?} is compressed"),
            }
        })
        .collect()
}

/// A compressed image as `texture2ddecoder` decodes it (BGRA in little-endian `u32`s).
fn decoded(format: SurfaceFormat, bytes: &[u8], w: usize, h: usize) -> Vec<[f32; 4]> {
    use texture2ddecoder as d;
    use SurfaceFormat as F;
    let mut image = vec![0u32; w * h];
    let result = match format {
        F::Dxt1 | F::Dxt1SRgb | F::Dxt1a => d::decode_bc1a(bytes, w, h, &mut image),
        F::Dxt3 | F::Dxt3SRgb => d::decode_bc2(&four_colours(bytes), w, h, &mut image),
        F::Dxt5 | F::Dxt5SRgb => d::decode_bc3(&four_colours(bytes), w, h, &mut image),
        F::RgbEtc1 => d::decode_etc1(bytes, w, h, &mut image),
        F::Rgb8Etc2 | F::Srgb8Etc2 => d::decode_etc2_rgb(bytes, w, h, &mut image),
        F::Rgb8A1Etc2 | F::Srgb8A1Etc2 => d::decode_etc2_rgba1(bytes, w, h, &mut image),
        F::Rgba8Etc2 | F::SRgb8A8Etc2 => d::decode_etc2_rgba8(bytes, w, h, &mut image),
        F::RgbaAtcInterpolatedAlpha => d::decode_atc_rgba8(bytes, w, h, &mut image),
        F::RgbaAtcExplicitAlpha => {
            // An explicit 4-bit alpha per texel, then an ATC colour block.
            let colours: Vec<u8> = bytes
                .chunks_exact(16)
                .flat_map(|b| b[8..16].to_vec())
                .collect();
            d::decode_atc_rgb4(&colours, w, h, &mut image).map(|()| {
                let across = w.div_ceil(4);
                for (i, t) in image.iter_mut().enumerate() {
                    let (x, y) = (i % w, i / w);
                    let block = &bytes[(y / 4 * across + x / 4) * 16..];
                    let k = (y % 4) * 4 + x % 4;
                    let a = (block[k / 2] >> (4 * (k % 2))) & 0xf;
                    *t = (*t & 0x00ff_ffff) | (u32::from(a * 17) << 24);
                }
            })
        }
        F::Astc4X4Rgba => d::decode_astc(bytes, w, h, 4, 4, &mut image),
        F::RgbPvrtc2Bpp | F::RgbaPvrtc2Bpp => d::decode_pvrtc_2bpp(bytes, w, h, &mut image),
        F::RgbPvrtc4Bpp | F::RgbaPvrtc4Bpp => d::decode_pvrtc_4bpp(bytes, w, h, &mut image),
        other => unreachable!("{other:?} is not compressed"),
    };
    result.unwrap_or_else(|e| panic!("{format:?}: the reference decoder: {e}"));
    let opaque = matches!(
        format,
        F::RgbEtc1 | F::Rgb8Etc2 | F::Srgb8Etc2 | F::RgbPvrtc2Bpp | F::RgbPvrtc4Bpp
    );
    image
        .iter()
        .map(|t| {
            let [b, g, r, a] = t.to_le_bytes().map(|c| f32::from(c) / 255.0);
            [r, g, b, if opaque { 1.0 } else { a }]
        })
        .collect()
}

/// BC2/BC3 blocks rewritten so that `texture2ddecoder`, which applies BC1's three-colour rule
/// to them, decodes them as the specification (and a device) does: four colours whatever the
/// endpoint order. Ascending endpoints are swapped with their indices (0 ↔ 1, 2 ↔ 3); equal
/// ones, whose four colours are all the first, get index 0 throughout.
fn four_colours(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for block in out.chunks_exact_mut(16) {
        let colour = &mut block[8..];
        let c0 = u16::from_le_bytes([colour[0], colour[1]]);
        let c1 = u16::from_le_bytes([colour[2], colour[3]]);
        if c0 == c1 {
            colour[4..].fill(0);
        } else if c0 < c1 {
            let (a, b) = ([colour[0], colour[1]], [colour[2], colour[3]]);
            colour[..2].copy_from_slice(&b);
            colour[2..4].copy_from_slice(&a);
            colour[4..].iter_mut().for_each(|i| *i ^= 0x55);
        }
    }
    out
}

/// The first pixel (x, y) more than the tolerance from texel `want` (RGBA as stored, clamped
/// to 0..1 as the RGBA8 target stores it). An sRGB format's colour channels are decoded to
/// linear, and may be one step of their 8-bit encoding off: a device may round an
/// interpolated block colour before or after decoding it.
fn mismatch(
    got: &[[u8; 4]],
    width: u32,
    srgb_encoded: bool,
    want: impl Fn(u32, u32) -> [f32; 4],
) -> Option<String> {
    got.iter().enumerate().find_map(|(i, p)| {
        let (x, y) = (i as u32 % width, i as u32 / width);
        let texel = want(x, y).map(|v| v.clamp(0.0, 1.0));
        let bad = p.iter().zip(texel).enumerate().any(|(c, (&g, v))| {
            let (lo, hi) = if srgb_encoded && c < 3 {
                let step = 1.0 / 255.0;
                (srgb((v - step).max(0.0)), srgb((v + step).min(1.0)))
            } else {
                (v, v)
            };
            let g = f32::from(g);
            g < lo * 255.0 - TOLERANCE || g > hi * 255.0 + TOLERANCE
        });
        bad.then(|| {
            let shown = texel.map(|v| (v * 255.0).round());
            format!("pixel ({x}, {y}) is {p:?}, the texel is {shown:?} (sRGB {srgb_encoded})")
        })
    })
}

/// The bytes of image `image` of `level` within `data`.
fn image_of(desc: &TextureDesc, data: &[u8], level: u32, image: u32) -> Vec<u8> {
    let mut at = 0usize;
    for l in 0..level {
        let (w, h, n) = desc.level_extent(l);
        at += desc.format.level_size(w, h) as usize * n as usize;
    }
    let (w, h, _) = desc.level_extent(level);
    let size = desc.format.level_size(w, h) as usize;
    data[at + size * image as usize..][..size].to_vec()
}

/// Every format of every kind on `w`: the failures, one line each.
fn every_format(w: &HeadlessWgpu, device_name: &str) -> Vec<String> {
    let mut flat = effect(w, "flat.fx", FLAT);
    let mut cube = effect(w, "cube.fx", CUBE);
    let mut volume = effect(w, "volume.fx", VOLUME);
    let mut failures = Vec::new();
    for (n, format) in SurfaceFormat::ALL.into_iter().enumerate() {
        let seed = 0x9e37_79b9_7f4a_7c15 ^ (n as u64 + 1);
        let mut check = |what: &str, result: Result<Option<String>, WgpuError>| match result {
            Ok(None) => {}
            Ok(Some(m)) => failures.push(format!("{device_name}: {format:?} {what}: {m}")),
            Err(e) => failures.push(format!("{device_name}: {format:?} {what}: {e}")),
        };
        // 2D, three levels: level 0 texel for pixel, level 1 a texel per 2 × 2 pixels.
        let desc = TextureDesc::d2(format, 16, 8).with_mip_levels(3);
        let data = texture_bytes(&desc, seed);
        let texture = WgpuTexture::new(w.device(), w.queue(), &desc, &data);
        for level in [0, 1] {
            let (lw, lh, _) = desc.level_extent(level);
            let texels = reference(format, &image_of(&desc, &data, level, 0), lw, lh);
            let result = texture.as_ref().map_err(clone_error).and_then(|t| {
                let got = draw(w, &mut flat, t, level as f32, (16, 8))?;
                Ok(mismatch(&got, 16, format.is_srgb(), |x, y| {
                    texels[((y >> level) * lw + (x >> level)) as usize]
                }))
            });
            check(&format!("2D level {level}"), result);
        }
        // A cube: its +Z face (the fifth).
        let desc = TextureDesc::cube(format, 8);
        let data = texture_bytes(&desc, seed ^ 1);
        let texels = reference(format, &image_of(&desc, &data, 0, 4), 8, 8);
        let result = WgpuTexture::new(w.device(), w.queue(), &desc, &data).and_then(|t| {
            let got = draw(w, &mut cube, &t, 0.0, (8, 8))?;
            Ok(mismatch(&got, 8, format.is_srgb(), |x, y| {
                texels[(y * 8 + x) as usize]
            }))
        });
        check("cube +Z", result);
        // A volume of four slices: the third.
        let desc = TextureDesc::d3(format, 16, 8, 4);
        let data = texture_bytes(&desc, seed ^ 2);
        let texels = reference(format, &image_of(&desc, &data, 0, 2), 16, 8);
        let result = WgpuTexture::new(w.device(), w.queue(), &desc, &data).and_then(|t| {
            let got = draw(w, &mut volume, &t, 2.5 / 4.0, (16, 8))?;
            Ok(mismatch(&got, 16, format.is_srgb(), |x, y| {
                texels[(y * 16 + x) as usize]
            }))
        });
        check("volume slice 2", result);
    }
    failures
}

fn clone_error(e: &WgpuError) -> WgpuError {
    WgpuError::Texture(e.to_string())
}

/// A device with no optional feature, or `None` after the skip line.
fn plain_device(test: &str) -> Option<HeadlessWgpu> {
    HeadlessWgpu::with_features(wgpu::Features::empty())
        .map_err(|e| shadowdusk_tests::skip(test, &format!("no wgpu adapter: {e}")))
        .ok()
}

#[test]
fn every_surface_format_samples_as_monogame_defines_it() {
    let Some(full) = wgpu_or_skip("every_surface_format_samples_as_monogame_defines_it") else {
        return;
    };
    let Some(plain) = plain_device("every_surface_format_samples_as_monogame_defines_it") else {
        return;
    };
    let mut failures = every_format(&full, "wanted features");
    failures.extend(every_format(&plain, "no optional feature"));
    assert!(
        failures.is_empty(),
        "{} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn float32_textures_filter_where_the_device_can_and_sample_nearest_where_it_cannot() {
    let test = "float32_textures_filter_where_the_device_can";
    let Some(full) = wgpu_or_skip(test) else {
        return;
    };
    let Some(plain) = plain_device(test) else {
        return;
    };
    // Two texels, 0 and 1, drawn over four pixels: a linear filter gives 0, 1/4, 3/4, 1.
    let bytes: Vec<u8> = [0.0f32, 1.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    let desc = TextureDesc::d2(SurfaceFormat::Single, 2, 1);
    for (w, filtered) in [
        (
            &full,
            full.device()
                .features()
                .contains(wgpu::Features::FLOAT32_FILTERABLE),
        ),
        (&plain, false),
    ] {
        let mut fx = effect(w, "linear.fx", LINEAR);
        let texture = WgpuTexture::new(w.device(), w.queue(), &desc, &bytes).unwrap();
        let got = draw(w, &mut fx, &texture, 0.0, (4, 1)).unwrap();
        let red: Vec<u8> = got.iter().map(|p| p[0]).collect();
        let want: [u8; 4] = if filtered {
            [0, 64, 191, 255]
        } else {
            [0, 0, 255, 255]
        };
        assert!(
            red.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 1),
            "filtered {filtered}: red {red:?}, want {want:?}"
        );
        // The same effect then samples a filterable texture filtered again.
        let rgba = WgpuTexture::new(
            w.device(),
            w.queue(),
            &TextureDesc::d2(SurfaceFormat::Color, 2, 1),
            &[0, 0, 0, 255, 255, 0, 0, 255],
        )
        .unwrap();
        let got = draw(w, &mut fx, &rgba, 0.0, (4, 1)).unwrap();
        let red: Vec<u8> = got.iter().map(|p| p[0]).collect();
        assert!(
            red.iter()
                .zip([0u8, 64, 191, 255])
                .all(|(&g, w)| g.abs_diff(w) <= 1),
            "RGBA8 after R32Float: {red:?}"
        );
    }
}

/// A texture of `format` (a render attachment too, so it can be cleared), viewed as `aspect`.
fn raw_texture(
    w: &HeadlessWgpu,
    format: wgpu::TextureFormat,
    samples: u32,
    usage: wgpu::TextureUsages,
    dimension: TextureDimension,
) -> wgpu::Texture {
    let layers = if dimension == TextureDimension::Cube {
        6
    } else {
        1
    };
    w.device().create_texture(&wgpu::TextureDescriptor {
        label: Some("raw"),
        size: wgpu::Extent3d {
            width: 8,
            height: 8,
            depth_or_array_layers: layers,
        },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

/// Clears depth texture `texture` to `depth`.
fn clear_depth(w: &HeadlessWgpu, texture: &wgpu::Texture, depth: f32) {
    let view = texture.create_view(&Default::default());
    let mut encoder = w.device().create_command_encoder(&Default::default());
    let stencil = texture.format().has_stencil_aspect();
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("clear depth"),
        color_attachments: &[],
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view: &view,
            depth_ops: Some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(depth),
                store: wgpu::StoreOp::Store,
            }),
            stencil_ops: stencil.then_some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(0),
                store: wgpu::StoreOp::Store,
            }),
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    w.queue().submit([encoder.finish()]);
}

#[test]
fn depth_views_sample_their_depth_in_red() {
    let Some(w) = wgpu_or_skip("depth_views_sample_their_depth_in_red") else {
        return;
    };
    let usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT;
    let mut fx = effect(&w, "linear.fx", LINEAR);
    for (format, depth) in [
        (wgpu::TextureFormat::Depth32Float, 0.25),
        (wgpu::TextureFormat::Depth24PlusStencil8, 0.5),
        (wgpu::TextureFormat::Depth16Unorm, 0.75),
    ] {
        let texture = raw_texture(&w, format, 1, usage, TextureDimension::D2);
        clear_depth(&w, &texture, depth);
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            aspect: wgpu::TextureAspect::DepthOnly,
            ..Default::default()
        });
        let got = draw(
            &w,
            &mut fx,
            &WgpuTexture::from_view(view, TextureDimension::D2),
            0.0,
            (8, 8),
        )
        .unwrap_or_else(|e| panic!("{format:?}: {e}"));
        let want = (depth * 255.0f32).round() as u8;
        assert!(
            got.iter().all(|p| p[0].abs_diff(want) <= 1),
            "{format:?}: red {} where the depth is {want}",
            got[0][0]
        );
    }
}

#[test]
fn textures_a_pass_cannot_sample_are_errors_not_panics() {
    let Some(w) = wgpu_or_skip("textures_a_pass_cannot_sample_are_errors_not_panics") else {
        return;
    };
    use wgpu::TextureFormat as T;
    use wgpu::TextureUsages as U;
    let mut fx = effect(&w, "flat.fx", FLAT);
    let d2 = TextureDimension::D2;
    let refused = [
        (T::R32Uint, 1, U::TEXTURE_BINDING, "an integer format"),
        (
            T::Rgba16Sint,
            1,
            U::TEXTURE_BINDING,
            "a signed integer format",
        ),
        (
            T::Stencil8,
            1,
            U::TEXTURE_BINDING | U::RENDER_ATTACHMENT,
            "stencil",
        ),
        (
            T::Rgba8Unorm,
            4,
            U::TEXTURE_BINDING | U::RENDER_ATTACHMENT,
            "multisampled",
        ),
        (
            T::Depth32Float,
            4,
            U::TEXTURE_BINDING | U::RENDER_ATTACHMENT,
            "multisampled depth",
        ),
        (T::Rgba8Unorm, 1, U::COPY_DST, "no TEXTURE_BINDING"),
    ];
    for (format, samples, usage, what) in refused {
        let texture = raw_texture(&w, format, samples, usage, d2);
        let view = WgpuTexture::from_view(texture.create_view(&Default::default()), d2);
        match fx.fx.set_texture(fx.tex, Some(&view)) {
            Err(WgpuError::TextureFormat {
                effect,
                pass,
                texture,
                slot,
                format: f,
                samples: n,
                ..
            }) => {
                assert_eq!(
                    (effect, pass, texture, slot),
                    ("flat.fx", "P", "Tex", 0),
                    "{what}"
                );
                assert_eq!((f, n), (format, samples), "{what}");
            }
            other => panic!("{what}: {other:?}"),
        }
    }
    // A depth-stencil view of both aspects: wgpu's bind group refuses it, as an error.
    let both = raw_texture(
        &w,
        T::Depth24PlusStencil8,
        1,
        U::TEXTURE_BINDING | U::RENDER_ATTACHMENT,
        d2,
    );
    let view = WgpuTexture::from_view(both.create_view(&Default::default()), d2);
    let err = draw(&w, &mut fx, &view, 0.0, (8, 8)).unwrap_err();
    assert!(
        matches!(&err, WgpuError::BindGroup { pass: "P", .. })
            && err.to_string().contains("DepthOnly"),
        "{err}"
    );
    // Another kind than the shader samples: at set_texture, or (a view that is not what its
    // WgpuTexture says) at the bind group.
    let cube = WgpuTexture::new(
        w.device(),
        w.queue(),
        &TextureDesc::cube(SurfaceFormat::Color, 4),
        &[0; 6 * 4 * 4 * 4],
    )
    .unwrap();
    assert!(matches!(
        fx.fx.set_texture(fx.tex, Some(&cube)),
        Err(WgpuError::TextureDimension { .. })
    ));
    let layered = raw_texture(
        &w,
        T::Rgba8Unorm,
        1,
        U::TEXTURE_BINDING,
        TextureDimension::Cube,
    );
    let lie = WgpuTexture::from_view(
        layered.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::Cube),
            ..Default::default()
        }),
        d2,
    );
    let err = draw(&w, &mut fx, &lie, 0.0, (8, 8)).unwrap_err();
    assert!(matches!(err, WgpuError::BindGroup { .. }), "{err}");
    // The effect still draws once given a texture it can sample.
    let fine = WgpuTexture::new(
        w.device(),
        w.queue(),
        &TextureDesc::d2(SurfaceFormat::Color, 1, 1),
        &[10, 20, 30, 255],
    )
    .unwrap();
    let got = draw(&w, &mut fx, &fine, 0.0, (8, 8)).unwrap();
    assert_eq!(got[0], [10, 20, 30, 255]);
}

#[test]
fn texture_descriptions_the_device_cannot_make_are_errors() {
    let Some(w) = wgpu_or_skip("texture_descriptions_the_device_cannot_make_are_errors") else {
        return;
    };
    let make = |desc: TextureDesc, len: usize| {
        WgpuTexture::new(w.device(), w.queue(), &desc, &vec![0; len])
    };
    let color = SurfaceFormat::Color;
    let cases = [
        (TextureDesc::d2(color, 4, 4), 63, "got 63"),
        (TextureDesc::d2(color, 0, 4), 0, "at least one texel"),
        (TextureDesc::d2(color, 4, 4).with_mip_levels(4), 0, "1 to 3"),
        (TextureDesc::d2(color, 4, 4).with_mip_levels(0), 0, "1 to 3"),
        (
            TextureDesc {
                height: 8,
                ..TextureDesc::cube(color, 4)
            },
            0,
            "square",
        ),
        (TextureDesc::d2(color, 1 << 20, 1), 0, "limit"),
        (
            TextureDesc {
                dimension: TextureDimension::D1,
                ..TextureDesc::d2(color, 4, 2)
            },
            0,
            "1D",
        ),
    ];
    for (desc, len, says) in cases {
        let len = if len == 0 {
            desc.data_size().min(1 << 16) as usize
        } else {
            len
        };
        match make(desc, len) {
            Err(WgpuError::Texture(m)) => assert!(m.contains(says), "{desc:?}: {m}"),
            other => panic!("{desc:?}: {other:?}"),
        }
    }
    // Block formats of any size: a base level that is not whole blocks is decoded.
    let dxt = TextureDesc::d2(SurfaceFormat::Dxt5, 6, 3).with_mip_levels(3);
    make(dxt, dxt.data_size() as usize).unwrap();
}
