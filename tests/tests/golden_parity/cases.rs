//! The pairs: each golden, the `.fx` written for it in `tests/golden_parity/`, and how both are
//! drawn. Every value parameter the golden has is set here (the test refuses a case that leaves
//! one out), because an unset parameter would compare ShadowDusk's baked initializer against
//! mgfxc's zeros instead of the shaders.
//!
//! Geometry keeps pixel centres off every discontinuity: quad edges land on pixel boundaries or
//! well away from centres, texture coordinates of nearest-sampled texels never sit on a texel
//! edge, and thresholds in the shaders (array bands, overlay's 0.5) are never met exactly. Two
//! correct compilers can then only differ by float rounding, far below the 2/255 tolerance.

use shadowdusk::mgfx::VertexElementUsage;
use shadowdusk_tests::{Filter, Sprite};

/// Width and height of every render.
pub const SIZE: u32 = 16;

/// One golden and everything needed to compare it with our compile of its `.fx`.
pub struct Case {
    /// File in `../shared/golden/shadowdusk-opengl/`.
    pub golden: &'static str,
    /// File in `tests/golden_parity/`.
    pub fx: &'static str,
    /// Values set by name on both effects, in MonoGame's storage order (matrices column by
    /// column, array elements concatenated).
    pub values: Vec<(&'static str, Vec<f32>)>,
    /// Textures set by name on both effects.
    pub textures: Vec<(&'static str, Texture)>,
    /// Draws, each after applying every pass of technique `technique`.
    pub draws: Vec<Draw>,
    /// Index of the technique drawn (the same in both effects: the layout comparison checks).
    pub technique: usize,
    /// Colour the target is cleared to.
    pub clear: [u8; 4],
    /// Value the stencil buffer is cleared to.
    pub stencil: i32,
}

/// A 4×4 RGBA8 texture whose texels are all different, seeded so two textures differ.
#[derive(Clone, Copy, Debug)]
pub struct Texture {
    /// Pattern seed.
    pub seed: u8,
    /// Filter left on the texture object (a baked sampler state overrides it).
    pub filter: Filter,
    /// Every third texel gets a zero green channel (for shaders that test for zero).
    pub holes: bool,
    /// A cube map: six faces, each the pattern of seed + face.
    pub cube: bool,
}

impl Texture {
    /// Side of the texture in texels.
    pub const SIDE: u32 = 4;

    /// The texels, top row first. Alpha stays high so blended results keep their colour.
    pub fn rgba(&self) -> Vec<u8> {
        let s = self.seed as u32;
        (0..Self::SIDE * Self::SIDE)
            .flat_map(|i| {
                let r = (i * 53 + s * 97 + 11) % 256;
                let g = if self.holes && i % 3 == 1 {
                    0
                } else {
                    (i * 101 + s * 31 + 170) % 256
                };
                let b = (i * 17 + s * 59 + 90) % 256;
                let a = 160 + (i * 37 + s * 13) % 96;
                [r as u8, g as u8, b as u8, a as u8]
            })
            .collect()
    }
}

/// What is drawn.
pub enum Draw {
    /// A SpriteBatch quad (pixel-only passes get SpriteBatch's vertex shader).
    Sprite(Sprite),
    /// Vertices for the effect's own vertex shader.
    Mesh(Mesh),
}

/// A quad for an effect vertex shader: Position (3 floats), Color (4), TextureCoordinate (2),
/// plus whatever else the effect's vertex shader reads (normals, a second texture coordinate).
pub struct Mesh {
    /// x, y, z per vertex.
    pub positions: Vec<f32>,
    /// RGBA in 0..1 per vertex.
    pub colors: Vec<f32>,
    /// u, v per vertex.
    pub uvs: Vec<f32>,
    /// Triangle list.
    pub indices: Vec<u16>,
    /// Further elements: (usage, usage index, float components, data).
    pub extra: Vec<(VertexElementUsage, u8, i32, Vec<f32>)>,
}

/// Known compiler differences: golden → substrings of the difference messages it must still
/// produce. A listed case fails when any listed difference stops occurring (remove the entry)
/// and when a difference appears that no entry covers.
pub const KNOWN_DIFFERENCES: &[(&str, &[&str])] = &[
    // MonoGame's own SpriteEffect.fx declares `inout color : COLOR0, inout texCoord : TEXCOORD0,
    // inout position : SV_Position`; fxc gave the position input register v0, ShadowDusk numbers
    // vertex inputs in declaration order. MonoGame binds attributes by (usage, index) through
    // this table, never by position in it, so the draw is the same (the pixels are compared).
    (
        "SpriteEffect.mgfx",
        &[
            "shaders[1].attributes[0].usage: ours Color, mgfxc Position",
            "shaders[1].attributes[1].usage: ours TextureCoordinate, mgfxc Color",
            "shaders[1].attributes[2].usage: ours Position, mgfxc TextureCoordinate",
        ],
    ),
];

/// XNA affine matrix (`m[r][c]` = `M(r+1, c+1)`, row-vector convention): scale, then translate.
/// The translation sits in the fourth row, so a transposed read moves it into w and the quad
/// lands elsewhere.
pub fn affine(sx: f32, sy: f32, tx: f32, ty: f32) -> Vec<f32> {
    let mut m = [[0.0f32; 4]; 4];
    m[0][0] = sx;
    m[1][1] = sy;
    m[2][2] = 1.0;
    m[3][3] = 1.0;
    m[3][0] = tx;
    m[3][1] = ty;
    // mgfx data of a float4x4: column by column.
    shadowdusk::gl::matrix_data(4, 4, m).unwrap_or_default()
}

fn sprite(x: f32, y: f32, w: f32, h: f32, color: [u8; 4], uv: [[f32; 2]; 2]) -> Draw {
    Draw::Sprite(Sprite {
        color,
        uv,
        ..Sprite::new(x, y, w, h)
    })
}

/// A whole-target sprite with texture coordinates 0..1 and vertex colour `color`.
fn full_sprite(color: [u8; 4]) -> Draw {
    let s = SIZE as f32;
    sprite(0.0, 0.0, s, s, color, [[0.0, 0.0], [1.0, 1.0]])
}

/// A quad from (x0, y0) to (x1, y1) at z = 0 with different colours at its corners and
/// texture coordinate (0,0) at the top-left corner.
fn quad(x0: f32, y0: f32, x1: f32, y1: f32) -> Draw {
    Draw::Mesh(Mesh {
        positions: vec![x0, y1, 0.0, x1, y1, 0.0, x0, y0, 0.0, x1, y0, 0.0],
        colors: vec![
            1.0, 0.5, 0.25, 1.0, 0.25, 1.0, 0.5, 0.75, 0.5, 0.25, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5,
        ],
        uvs: vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0],
        indices: vec![0, 1, 2, 1, 3, 2],
        extra: Vec::new(),
    })
}

/// Texture coordinates for [`quad`]'s corners, mirrored in both directions.
const MIRRORED_UVS: [f32; 8] = [1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0];

/// `draw` (a mesh) with one more vertex element.
fn with_extra(draw: Draw, element: (VertexElementUsage, u8, i32, Vec<f32>)) -> Draw {
    match draw {
        Draw::Mesh(mut m) => {
            m.extra.push(element);
            Draw::Mesh(m)
        }
        other => other,
    }
}

fn tex(seed: u8) -> Texture {
    Texture {
        seed,
        filter: Filter::Nearest,
        holes: false,
        cube: false,
    }
}

fn case(golden: &'static str, fx: &'static str) -> Case {
    Case {
        golden,
        fx,
        values: Vec::new(),
        textures: Vec::new(),
        draws: Vec::new(),
        technique: 0,
        clear: [30, 60, 90, 255],
        stencil: 0,
    }
}

/// Every pair, in the order they are reported.
pub fn cases() -> Vec<Case> {
    const WHITE: [u8; 4] = [255; 4];
    const WARM: [u8; 4] = [230, 180, 120, 220];
    let unit = [[0.0, 0.0], [1.0, 1.0]];
    // Beyond 0..1 so clamp, wrap, mirror and border addressing all show.
    let wide = [[-0.5, -0.25], [1.5, 1.25]];
    let s = SIZE as f32;
    let mut all = vec![
        Case {
            values: vec![("TintColor", vec![0.9, 0.6, 0.3, 0.8])],
            textures: vec![("SpriteTexture", tex(1))],
            draws: vec![full_sprite(WARM)],
            ..case("TintShader.mgfx", "TintShader.fx")
        },
        Case {
            textures: vec![("SpriteTexture", tex(2))],
            draws: vec![full_sprite(WARM)],
            ..case("Grayscale.mgfx", "Grayscale.fx")
        },
        Case {
            textures: vec![("SpriteTexture", tex(3))],
            draws: vec![full_sprite(WARM)],
            ..case("Invert.mgfx", "Invert.fx")
        },
        Case {
            // Differs from the .fx initializer, so the baked default cannot be what is drawn.
            values: vec![("_sepiaTone", vec![0.9, 0.7, 0.5])],
            textures: vec![("s0", tex(4))],
            draws: vec![full_sprite(WHITE)],
            ..case("Sepia.mgfx", "Sepia.fx")
        },
        Case {
            values: vec![
                ("BloomThreshold", vec![0.2, 0.3, 0.25, 0.1]),
                ("BloomIntensity", vec![1.5]),
                ("BloomSaturation", vec![0.7]),
            ],
            textures: vec![("TextureSampler", tex(5))],
            draws: vec![full_sprite(WHITE)],
            ..case("Saturate.mgfx", "Saturate.fx")
        },
        Case {
            textures: vec![("SpriteTexture", tex(6))],
            // A sub-range, so snapping to the 1/32 grid changes which texel is read.
            draws: vec![sprite(0.0, 0.0, s, s, WHITE, [[0.05, 0.1], [0.8, 0.9]])],
            ..case("Pixelated.mgfx", "Pixelated.fx")
        },
        Case {
            values: vec![("_attenuation", vec![0.3]), ("_linesFactor", vec![20.0])],
            textures: vec![("s0", tex(7))],
            draws: vec![full_sprite(WHITE)],
            ..case("Scanlines.mgfx", "Scanlines.fx")
        },
        Case {
            textures: vec![("s0", tex(8)), ("_secondTexture", tex(9))],
            draws: vec![sprite(0.0, 0.0, s, s, WHITE, wide)],
            ..case("MultiTexture.mgfx", "MultiTexture.fx")
        },
        Case {
            textures: vec![("s0", tex(10)), ("_secondTexture", tex(11))],
            draws: vec![sprite(0.0, 0.0, s, s, WHITE, wide)],
            ..case("MultiTextureOverlay.mgfx", "MultiTextureOverlay.fx")
        },
        Case {
            // Linear on the texture object: only the baked Point state keeps ps_s0 flat.
            textures: vec![
                (
                    "SpriteTexture",
                    Texture {
                        filter: Filter::Linear,
                        ..tex(12)
                    },
                ),
                ("DetailTexture", tex(13)),
            ],
            draws: vec![sprite(0.0, 0.0, s, s, WARM, wide)],
            ..case("SamplerStatesFull.mgfx", "SamplerStatesFull.fx")
        },
        Case {
            textures: vec![("SpriteTexture", tex(14))],
            draws: vec![full_sprite(WARM)],
            clear: [40, 80, 120, 255],
            ..case("StateBlendAdditive.mgfx", "StateBlendAdditive.fx")
        },
        Case {
            // Stencil starts at 1: the first sprite passes EQUAL 1 and increments to 2, so the
            // second one only lands where the first did not.
            textures: vec![("SpriteTexture", tex(15))],
            draws: vec![
                sprite(0.0, 0.0, 12.0, 12.0, WARM, unit),
                sprite(4.0, 4.0, 12.0, 12.0, [90, 200, 255, 255], unit),
            ],
            stencil: 1,
            ..case("StateDepthStencil.mgfx", "StateDepthStencil.fx")
        },
        Case {
            // CullMode = CW: SpriteBatch's clockwise quad is culled, the mirrored one is drawn.
            textures: vec![("SpriteTexture", tex(16))],
            draws: vec![
                sprite(0.0, 0.0, 8.0, s, WARM, unit),
                sprite(s, 0.0, -8.0, s, WARM, unit),
            ],
            ..case("StateRasterizer.mgfx", "StateRasterizer.fx")
        },
        Case {
            values: vec![("WorldViewProj", affine(1.5, 1.0, -0.75, -0.5))],
            draws: vec![quad(0.0, 0.0, 1.0, 1.0)],
            ..case("render-states.mgfx", "render-states.fx")
        },
        Case {
            values: vec![("TintColor", vec![0.2, 0.9, 0.4, 0.7])],
            draws: vec![quad(-0.5, -0.25, 0.75, 1.0)],
            ..case("annotations.mgfx", "annotations.fx")
        },
        Case {
            values: vec![
                (
                    "Colors",
                    vec![
                        1.0, 0.2, 0.2, 1.0, 0.2, 1.0, 0.2, 0.9, 0.2, 0.2, 1.0, 0.8, 1.0, 1.0, 0.2,
                        0.7,
                    ],
                ),
                ("Weights", vec![0.9, 0.7, 0.5, 1.1]),
            ],
            textures: vec![("SpriteTexture", tex(17))],
            draws: vec![full_sprite(WARM)],
            ..case("ArrayUniform.mgfx", "ArrayUniform.fx")
        },
        Case {
            values: vec![
                (
                    "Bones",
                    [affine(2.0, 1.0, -1.0, -0.5), affine(1.0, 2.0, -0.5, -1.0)].concat(),
                ),
                // w = 0 keeps the position's w at 1.
                ("PosOffsets", vec![0.1, 0.0, 0.0, 0.0, 0.0, 0.2, 0.0, 0.0]),
            ],
            textures: vec![("SpriteTexture", tex(18))],
            draws: vec![quad(0.0, 0.0, 1.0, 1.0)],
            ..case("ArrayUniformVs.mgfx", "ArrayUniformVs.fx")
        },
        Case {
            values: vec![
                ("TintA", vec![1.0, 0.3, 0.6, 1.0]),
                ("TintB", vec![0.2, 0.9, 0.4, 0.6]),
                ("MixAmount", vec![0.35]),
            ],
            textures: vec![("SpriteTexture", tex(19))],
            draws: vec![full_sprite(WARM)],
            ..case("MultiCbuffer.mgfx", "MultiCbuffer.fx")
        },
        Case {
            values: vec![
                ("WorldViewProjection", affine(1.0, 1.0, -0.75, -0.5)),
                ("PositionOffset", vec![0.25, -0.25, 0.0, 0.0]),
                ("ColorScale", vec![0.8, 0.6, 1.0, 0.9]),
            ],
            textures: vec![("SpriteTexture", tex(20))],
            draws: vec![quad(0.0, 0.0, 1.0, 1.0)],
            ..case("MultiCbufferVs.mgfx", "MultiCbufferVs.fx")
        },
        Case {
            values: vec![
                ("DiffuseColor", vec![0.7, 1.0, 0.5, 0.9]),
                ("WorldViewProjection", affine(1.5, 1.0, -0.75, -0.5)),
            ],
            textures: vec![("SpriteTexture", tex(21))],
            draws: vec![quad(0.0, 0.0, 1.0, 1.0)],
            ..case("SharedCbuffer.mgfx", "SharedCbuffer.fx")
        },
        Case {
            values: vec![
                ("WorldViewProjection", affine(1.5, 1.0, -0.75, -0.5)),
                ("Tint", vec![1.0, 0.5, 0.25, 1.0]),
            ],
            textures: vec![("SpriteTexture", tex(22))],
            draws: vec![quad(0.0, 0.0, 1.0, 1.0)],
            ..case("VsTransformColorTexture.mgfx", "VsTransformColorTexture.fx")
        },
        Case {
            // World, View, Projection compose to x ∈ [0, 1], y ∈ [-0.75, 0] in clip space.
            values: vec![
                ("Color", vec![0.9, 0.4, 0.1, 1.0]),
                ("World", affine(0.5, 0.5, 0.25, 0.0)),
                ("View", affine(2.0, 1.0, -0.5, 0.0)),
                ("Projection", affine(1.0, 1.5, 0.0, -0.75)),
            ],
            draws: vec![quad(0.0, 0.0, 1.0, 1.0)],
            ..case("VertexAndPixel.mgfx", "VertexAndPixel.fx")
        },
        Case {
            textures: vec![
                (
                    "ClipTexture",
                    Texture {
                        holes: true,
                        ..tex(24)
                    },
                ),
                ("DrawTexture", tex(25)),
            ],
            draws: vec![full_sprite(WHITE)],
            ..case("ClipShader.mgfx", "ClipShader.fx")
        },
        Case {
            // Noise red channel r: discarded where 1 - r < 0.3, banded where 1 - r < 0.5.
            values: vec![
                ("_progress", vec![0.3]),
                ("_dissolveThreshold", vec![0.2]),
                ("_dissolveThresholdColor", vec![1.0, 0.5, 0.0, 1.0]),
            ],
            textures: vec![("s0", tex(26)), ("_dissolveTex", tex(27))],
            draws: vec![full_sprite(WHITE)],
            ..case("Dissolve.mgfx", "Dissolve.fx")
        },
        Case {
            // Texel alpha spans 0.63..1: the 0.75 reference discards some of them.
            values: vec![("_alphaTest", vec![0.75, -1.0, 1.0])],
            textures: vec![("s0", tex(28))],
            draws: vec![full_sprite(WHITE)],
            ..case("SpriteAlphaTest.mgfx", "SpriteAlphaTest.fx")
        },
        Case {
            // One colour attachment: only the first output (ps_oC0) is compared.
            values: vec![
                ("_alphaCutoff", vec![0.7]),
                ("_alphaAsSelfIllumination", vec![0.8]),
                ("_selfIlluminationPower", vec![1.5]),
            ],
            textures: vec![("s0", tex(29)), ("_normalMap", tex(30))],
            draws: vec![full_sprite(WARM)],
            ..case("DeferredSprite.mgfx", "DeferredSprite.fx")
        },
        Case {
            // Fog 0.1..0.9 across the quad; the second set of coordinates runs mirrored.
            values: vec![
                ("FogColor", vec![0.2, 0.7, 0.4]),
                ("DiffuseColor", vec![0.9, 0.8, 0.6, 0.9]),
                ("WorldViewProj", affine(1.5, 1.0, -0.75, -0.5)),
                ("FogVector", vec![0.5, 0.3, 0.0, 0.1]),
            ],
            textures: vec![("Texture", tex(31)), ("Texture2", tex(32))],
            draws: vec![with_extra(
                quad(0.0, 0.0, 1.0, 1.0),
                (
                    VertexElementUsage::TextureCoordinate,
                    1,
                    2,
                    MIRRORED_UVS.to_vec(),
                ),
            )],
            ..case("DualTextureEffect.mgfx", "DualTextureEffect.fx")
        },
        Case {
            // Texel alpha × 0.95 spans 0.6..0.95: below 0.75 takes z (-1, clipped), the rest w.
            values: vec![
                ("AlphaTest", vec![0.75, 0.1, -1.0, 1.0]),
                ("FogColor", vec![0.8, 0.3, 0.5]),
                ("DiffuseColor", vec![0.7, 0.9, 0.8, 0.95]),
                ("WorldViewProj", affine(1.5, 1.0, -0.75, -0.5)),
                ("FogVector", vec![0.5, 0.3, 0.0, 0.1]),
            ],
            textures: vec![("Texture", tex(33))],
            draws: vec![quad(0.0, 0.0, 1.0, 1.0)],
            ..case("AlphaTestEffect.mgfx", "AlphaTestEffect.fx")
        },
        Case {
            // BasicEffect_PixelLighting_Texture: three lights, specular and fog per pixel, with
            // normals that differ per corner.
            values: lit_material(&["FogColor", "DiffuseColor", "FogVector", "WorldViewProj"]),
            textures: vec![("Texture", tex(34))],
            draws: vec![with_extra(
                quad(0.0, 0.0, 1.0, 1.0),
                (VertexElementUsage::Normal, 0, 3, CORNER_NORMALS.to_vec()),
            )],
            technique: 28,
            ..case("BasicEffect.mgfx", "BasicEffect.fx")
        },
        skinned(4),
        Case {
            // EnvironmentMapEffect_Fresnel_Specular: three lights, Fresnel-weighted cube map,
            // environment specular and fog; normals differ per corner.
            values: {
                let mut v: Vec<(&'static str, Vec<f32>)> =
                    lit_material(&["FogColor", "DiffuseColor", "FogVector", "WorldViewProj"])
                        .into_iter()
                        .filter(|(n, _)| {
                            !n.starts_with("Specular") && !n.ends_with("SpecularColor")
                        })
                        .collect();
                v.extend([
                    ("EnvironmentMapAmount", vec![0.8]),
                    ("FresnelFactor", vec![1.5]),
                    ("EnvironmentMapSpecular", vec![0.3, 0.2, 0.1]),
                ]);
                v
            },
            textures: vec![
                ("Texture", tex(36)),
                (
                    "EnvironmentMap",
                    Texture {
                        cube: true,
                        ..tex(40)
                    },
                ),
            ],
            draws: vec![with_extra(
                quad(0.0, 0.0, 1.0, 1.0),
                (VertexElementUsage::Normal, 0, 3, CORNER_NORMALS.to_vec()),
            )],
            technique: 6,
            ..case("EnvironmentMapEffect.mgfx", "EnvironmentMapEffect.fx")
        },
        Case {
            values: vec![("MatrixTransform", sprite_projection())],
            textures: vec![("Texture", tex(23))],
            draws: vec![quad(2.0, 4.0, 14.0, 12.0)],
            ..case("SpriteEffect.mgfx", "SpriteEffect.fx")
        },
    ];
    // Every pass of SkinnedEffect: one, two and four bones under vertex, one-light and
    // per-pixel lighting, with and without fog.
    all.extend((0..18).filter(|&t| t != 4).map(skinned));
    all
}

/// MonoGame's SkinnedEffect, technique `technique` (4 is VertexLighting_FourBone): different
/// bones per vertex, blended by weights that differ per corner, then lit by three lights (one
/// for the OneLight techniques, per pixel for PixelLighting) with or without fog.
fn skinned(technique: usize) -> Case {
    Case {
        values: {
            let mut v = lit_material(&["FogColor", "DiffuseColor", "FogVector", "WorldViewProj"]);
            v.push(("Bones", skin_bones()));
            v
        },
        textures: vec![("Texture", tex(35))],
        draws: vec![with_extra(
            with_extra(
                with_extra(
                    quad(0.0, 0.0, 1.0, 1.0),
                    (VertexElementUsage::Normal, 0, 3, CORNER_NORMALS.to_vec()),
                ),
                (
                    VertexElementUsage::BlendIndices,
                    0,
                    4,
                    SKIN_INDICES.to_vec(),
                ),
            ),
            (VertexElementUsage::BlendWeight, 0, 4, SKIN_WEIGHTS.to_vec()),
        )],
        technique,
        ..case("SkinnedEffect.mgfx", "SkinnedEffect.fx")
    }
}

/// Bone indices per corner of [`quad`] (four each, as floats the attribute carries).
const SKIN_INDICES: [f32; 16] = [
    0.0, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 0.0, 2.0, 3.0, 0.0, 1.0, 3.0, 0.0, 1.0, 2.0,
];
/// Blend weights per corner, each summing to 1 and all different.
const SKIN_WEIGHTS: [f32; 16] = [
    0.4, 0.3, 0.2, 0.1, 0.5, 0.25, 0.15, 0.1, 0.7, 0.1, 0.1, 0.1, 0.25, 0.25, 0.3, 0.2,
];

/// The 72-bone palette: bones 0..3 all scale, shear and move, each differently (the rest are zero, never
/// read); float4x3 data column by column, as MonoGame stores it.
fn skin_bones() -> Vec<f32> {
    let bones: [[[f32; 3]; 4]; 4] = [
        [
            [0.95, -0.05, 0.02],
            [0.08, 1.05, 0.0],
            [0.0, 0.03, 0.97],
            [-0.04, 0.03, 0.0],
        ],
        [
            [0.9, 0.1, 0.0],
            [-0.1, 1.1, 0.0],
            [0.0, 0.0, 1.0],
            [0.08, -0.05, 0.0],
        ],
        [
            [1.2, 0.0, 0.0],
            [0.1, 0.8, 0.0],
            [0.0, 0.0, 1.0],
            [-0.1, 0.06, 0.0],
        ],
        [
            [0.8, -0.1, 0.0],
            [0.0, 0.9, 0.1],
            [0.0, 0.0, 1.0],
            [0.05, 0.1, 0.0],
        ],
    ];
    let mut data = vec![0.0; 72 * 12];
    for (k, b) in bones.iter().enumerate() {
        for c in 0..3 {
            for r in 0..4 {
                data[k * 12 + c * 4 + r] = b[r][c];
            }
        }
    }
    data
}

/// Normals for [`quad`]'s corners, tilted apart so lighting varies across the quad.
const CORNER_NORMALS: [f32; 12] = [
    0.4, 0.3, 1.0, -0.3, 0.5, 1.0, 0.2, -0.4, 1.0, -0.5, -0.2, 0.8,
];

/// Values for the lit stock effects: `basics` (fog, diffuse, transform; each effect names its
/// own subset) plus the material, three directional lights, the eye and the world matrices.
fn lit_material(basics: &[&'static str]) -> Vec<(&'static str, Vec<f32>)> {
    let basic = |name: &str| -> Vec<f32> {
        match name {
            "FogColor" => vec![0.3, 0.5, 0.9],
            "DiffuseColor" => vec![0.8, 0.7, 0.9, 0.95],
            "FogVector" => vec![0.4, 0.3, 0.0, 0.1],
            _ => affine(1.5, 1.0, -0.75, -0.5),
        }
    };
    let mut values: Vec<(&'static str, Vec<f32>)> = basics.iter().map(|n| (*n, basic(n))).collect();
    values.extend([
        ("EmissiveColor", vec![0.1, 0.05, 0.0]),
        ("SpecularColor", vec![0.6, 0.5, 0.4]),
        ("SpecularPower", vec![6.0]),
        ("DirLight0Direction", vec![0.3, -0.5, -0.8]),
        ("DirLight0DiffuseColor", vec![0.7, 0.6, 0.5]),
        ("DirLight0SpecularColor", vec![0.5, 0.5, 0.3]),
        ("DirLight1Direction", vec![-0.6, 0.2, -0.7]),
        ("DirLight1DiffuseColor", vec![0.2, 0.4, 0.3]),
        ("DirLight1SpecularColor", vec![0.2, 0.3, 0.5]),
        ("DirLight2Direction", vec![0.1, 0.7, -0.7]),
        ("DirLight2DiffuseColor", vec![0.3, 0.1, 0.4]),
        ("DirLight2SpecularColor", vec![0.4, 0.2, 0.2]),
        ("EyePosition", vec![0.4, 0.6, 2.5]),
        // float4x3, column by column: identity rotation, translation (0.1, -0.2, 0.3).
        (
            "World",
            vec![1.0, 0.0, 0.0, 0.1, 0.0, 1.0, 0.0, -0.2, 0.0, 0.0, 1.0, 0.3],
        ),
        // float3x3, column by column: a mild non-uniform scale, so normals are renormalised.
        (
            "WorldInverseTranspose",
            vec![1.2, 0.0, 0.0, 0.0, 0.8, 0.1, 0.0, 0.0, 1.0],
        ),
    ]);
    values
}

/// SpriteBatch's projection of the target (pixels, y down) as float4x4 data.
fn sprite_projection() -> Vec<f32> {
    let m = shadowdusk::gl::sprite_vs::default_transform(SIZE, SIZE, false);
    shadowdusk::gl::matrix_data(4, 4, m).unwrap_or_default()
}
