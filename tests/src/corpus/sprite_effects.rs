//! Table entries of the pixel-shader-only effects drawn as SpriteBatch quads.

use super::math::{dot3, frag_coord, lerp, normalize3, sprite_pixel};
use super::textures::{Address, Pattern, TextureSpec};
use super::*;
use crate::Orientation;
use shadowdusk::mgfx::{ParameterType as PT, SamplerType as ST, TextureAddressMode as TA};

const RECT: [f32; 4] = [8.0, 8.0, 48.0, 48.0];
const WHITE: [u8; 4] = [255, 255, 255, 255];
const WARM: [u8; 4] = [255, 204, 153, 255];
const TEX8: TextureSpec = TextureSpec::d2(8, 8, 1);
const C: Address = Address::Clamp;

fn luma(c: [f32; 4]) -> f32 {
    dot3([c[0], c[1], c[2]], [0.3, 0.59, 0.11])
}

fn sprite(color: [u8; 4]) -> Geometry {
    Geometry::Sprite { rect: RECT, color }
}

fn render(
    technique: &'static str,
    values: Vec<(&'static str, Value)>,
    textures: Vec<(&'static str, TextureSpec)>,
    geometry: Geometry,
    check: Check,
) -> Render {
    Render {
        technique,
        values,
        textures,
        geometry,
        render_targets: 1,
        check,
    }
}

fn whole_quad(parameter: &'static str, changed: Value) -> Sensitivity {
    Sensitivity {
        parameter,
        changed,
        region: [8, 8, 48, 48],
        min_fraction: 0.25,
    }
}

pub(super) fn entries() -> Vec<Entry> {
    vec![
        nez_invert(),
        nez_grayscale(),
        nez_sepia(),
        nez_scanlines(),
        nez_pixelate(),
        nez_vignette(),
        template_tint(),
        template_defaults(),
        multi_texture_two(),
        multi_texture_three(),
        cube_reflect(),
        cube_modern(),
        volume_lut(),
        lod_tex2dlod(),
        lod_tex2dbias(),
        lod_tex2dgrad(),
        lod_tex2dproj(),
        lod_samplelevel(),
        cbuffer_merged(),
        int_bool_branch(),
        matrix_2x2_3x3(),
        variant_args(),
        clip_discard(),
        static_const_palette(),
        ps_array_uniforms(),
        int_bool_arrays(),
        annotations(),
        include_lighting(),
        mrt_output(),
        vpos_checker(),
    ]
}

fn nez_invert() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                Some([1.0 - c[0], 1.0 - c[1], 1.0 - c[2], c[3]])
            },
            x,
            y,
        )
    }
    Entry {
        file: "nez_invert.fx",
        concern: "bare sampler s0 + tex2D + ps_2_0 invert",
        techniques: vec![technique(
            "Invert",
            vec![ps_pass("Pass1", vec![sampler(0, ST::Sampler2D, "s0")])],
        )],
        parameters: vec![p_tex2d("s0")],
        render: render(
            "Invert",
            vec![],
            vec![("s0", TEX8)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const GRAY_AMOUNT: f32 = 0.75;

fn nez_grayscale() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                let g = luma(c);
                Some([
                    lerp(c[0], g, GRAY_AMOUNT),
                    lerp(c[1], g, GRAY_AMOUNT),
                    lerp(c[2], g, GRAY_AMOUNT),
                    c[3],
                ])
            },
            x,
            y,
        )
    }
    Entry {
        file: "nez_grayscale.fx",
        concern: "scalar uniform blending colour and luminance",
        techniques: vec![technique(
            "Grayscale",
            vec![ps_pass("Pass1", vec![sampler(0, ST::Sampler2D, "s0")])],
        )],
        parameters: vec![p_float("Amount"), p_tex2d("s0")],
        render: render(
            "Grayscale",
            vec![("Amount", scalar(GRAY_AMOUNT))],
            vec![("s0", TEX8)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const SEPIA: [f32; 3] = [1.1, 0.8, 0.55];

fn nez_sepia() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                let i = luma(c);
                Some([i * SEPIA[0], i * SEPIA[1], i * SEPIA[2], c[3]])
            },
            x,
            y,
        )
    }
    Entry {
        file: "nez_sepia.fx",
        concern: "float3 tone uniform with a default, COLOR0 return",
        techniques: vec![technique(
            "Sepia",
            vec![ps_pass("Pass1", vec![sampler(0, ST::Sampler2D, "s0")])],
        )],
        parameters: vec![
            p_vec("SepiaTone", 3).with_default(&[1.2, 1.0, 0.8]),
            p_tex2d("s0"),
        ],
        render: render(
            "Sepia",
            vec![("SepiaTone", vector(&SEPIA))],
            vec![("s0", TEX8)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const ATTENUATION: f32 = 0.15;
const LINES_FACTOR: f32 = 400.0;

fn nez_scanlines() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                let line = (uv[1] * LINES_FACTOR).sin() * ATTENUATION;
                Some([c[0] - line, c[1] - line, c[2] - line, c[3]])
            },
            x,
            y,
        )
    }
    Entry {
        file: "nez_scanlines.fx",
        concern: "sin of a uniform-scaled coordinate",
        techniques: vec![technique(
            "Scanlines",
            vec![ps_pass("Pass1", vec![sampler(0, ST::Sampler2D, "s0")])],
        )],
        parameters: vec![
            p_float("Attenuation"),
            p_float("LinesFactor"),
            p_tex2d("s0"),
        ],
        render: render(
            "Scanlines",
            vec![
                ("Attenuation", scalar(ATTENUATION)),
                ("LinesFactor", scalar(LINES_FACTOR)),
            ],
            vec![("s0", TEX8)],
            sprite(WHITE),
            Check::reference(reference).with_sensitivities(vec![
                whole_quad("Attenuation", scalar(0.45)),
                whole_quad("LinesFactor", scalar(250.0)),
            ]),
        ),
    }
}

const PIXELATE_RECT: [f32; 4] = [8.0, 12.0, 48.0, 40.0];
const PIXELATE_TEX: TextureSpec = TextureSpec::d2(12, 10, 2);
const CELLS: [f32; 2] = [4.0, 2.0];

fn nez_pixelate() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            PIXELATE_RECT,
            WHITE,
            |uv, _| {
                // round(uv * n - 0.5) + 0.5, spelled with floor like the GL output.
                let cu = ((uv[0] * CELLS[0] - 0.5) + 0.5).floor() + 0.5;
                let cv = ((uv[1] * CELLS[1] - 0.5) + 0.5).floor() + 0.5;
                PIXELATE_TEX.sample_2d(0, cu / CELLS[0], cv / CELLS[1], C, C)
            },
            x,
            y,
        )
    }
    Entry {
        file: "nez_pixelate.fx",
        concern: "HLSL round with a float2 cell count",
        techniques: vec![technique(
            "Pixelate",
            vec![ps_pass("Pass1", vec![sampler(0, ST::Sampler2D, "s0")])],
        )],
        parameters: vec![p_vec("CellCount", 2), p_tex2d("s0")],
        render: render(
            "Pixelate",
            vec![("CellCount", vector(&CELLS))],
            vec![("s0", PIXELATE_TEX)],
            Geometry::Sprite {
                rect: PIXELATE_RECT,
                color: WHITE,
            },
            Check::reference(reference),
        ),
    }
}

const VIGNETTE_POWER: f32 = 1.5;
const VIGNETTE_RADIUS: f32 = 2.0;

fn nez_vignette() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                let d = [uv[0] - 0.5, uv[1] - 0.5];
                let reach = ((d[0] * d[0] + d[1] * d[1]) * VIGNETTE_RADIUS).clamp(0.0, 1.0);
                let falloff = 1.0 - reach.powf(VIGNETTE_POWER);
                Some([c[0] * falloff, c[1] * falloff, c[2] * falloff, c[3]])
            },
            x,
            y,
        )
    }
    Entry {
        file: "nez_vignette.fx",
        concern: "pow/saturate falloff from two scalars",
        techniques: vec![technique(
            "Vignette",
            vec![ps_pass("Pass1", vec![sampler(0, ST::Sampler2D, "s0")])],
        )],
        parameters: vec![p_float("Power"), p_float("Radius"), p_tex2d("s0")],
        render: render(
            "Vignette",
            vec![
                ("Power", scalar(VIGNETTE_POWER)),
                ("Radius", scalar(VIGNETTE_RADIUS)),
            ],
            vec![("s0", TEX8)],
            sprite(WHITE),
            Check::reference(reference).with_sensitivities(vec![
                whole_quad("Power", scalar(4.0)),
                whole_quad("Radius", scalar(3.5)),
            ]),
        ),
    }
}

const TINT: [f32; 4] = [0.9, 0.7, 1.0, 0.8];

fn template_tint() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, col| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                Some([0, 1, 2, 3].map(|i| c[i] * col[i] * TINT[i]))
            },
            x,
            y,
        )
    }
    Entry {
        file: "template_tint.fx",
        concern: "MonoGame SpriteEffect template with a float4 tint",
        techniques: vec![technique(
            "SpriteDrawing",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "SpriteTexture")],
            )],
        )],
        parameters: vec![p_vec("Tint", 4), p_tex2d("SpriteTexture")],
        render: render(
            "SpriteDrawing",
            vec![("Tint", vector(&TINT))],
            vec![("SpriteTexture", TEX8)],
            sprite(WARM),
            Check::reference(reference),
        ),
    }
}

const DEFAULT_TINT: [f32; 4] = [1.0, 0.5, 0.25, 1.0];
const COLOR_MATRIX: [[f32; 4]; 4] = [
    [0.9, 0.1, 0.0, 0.0],
    [0.2, 0.7, 0.1, 0.0],
    [0.0, 0.3, 0.6, 0.1],
    [0.05, 0.0, 0.1, 1.0],
];
const GRADE_AMOUNT: f32 = 0.6;

fn template_defaults() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                let graded = super::mul_vm(c, &COLOR_MATRIX);
                Some([0, 1, 2, 3].map(|i| lerp(c[i], graded[i] * DEFAULT_TINT[i], GRADE_AMOUNT)))
            },
            x,
            y,
        )
    }
    Entry {
        file: "template_defaults.fx",
        concern: "global initializers baked as defaults; only Amount is set, Tint and ColorMatrix come from the defaults",
        techniques: vec![technique(
            "ColorGrade",
            vec![ps_pass("P0", vec![sampler(0, ST::Sampler2D, "SpriteTexture")])],
        )],
        parameters: vec![
            p_float("Amount").with_default(&[0.35]),
            p_vec("Tint", 4).with_default(&DEFAULT_TINT),
            p_mat("ColorMatrix", 4, 4).with_default(&COLOR_MATRIX.concat()),
            p_tex2d("SpriteTexture"),
        ],
        render: render(
            "ColorGrade",
            vec![("Amount", scalar(GRADE_AMOUNT))],
            vec![("SpriteTexture", TEX8)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const DETAIL: TextureSpec = TextureSpec::d2(4, 4, 2);
const BLEND_AMOUNT: f32 = 0.65;
const PALE: [u8; 4] = [255, 230, 200, 255];

fn multi_texture_two() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            PALE,
            |uv, col| {
                let base = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                let w = Address::Wrap;
                let detail = DETAIL.sample_2d(0, uv[0] * 2.0, uv[1] * 2.0, w, w)?;
                Some(
                    [0, 1, 2, 3]
                        .map(|i| lerp(base[i], base[i] * detail[i] * 2.0, BLEND_AMOUNT) * col[i]),
                )
            },
            x,
            y,
        )
    }
    Entry {
        file: "multi_texture_two.fx",
        concern: "two textures on registers s0/s1 with baked Point states",
        techniques: vec![technique(
            "Detail",
            vec![ps_pass(
                "P0",
                vec![
                    sampler(0, ST::Sampler2D, "BaseTexture")
                        .baked(point_state(TA::Clamp, TA::Clamp)),
                    sampler(1, ST::Sampler2D, "DetailTexture")
                        .baked(point_state(TA::Wrap, TA::Wrap)),
                ],
            )],
        )],
        parameters: vec![
            p_float("BlendAmount"),
            p_tex2d("BaseTexture"),
            p_tex2d("DetailTexture"),
        ],
        render: render(
            "Detail",
            vec![("BlendAmount", scalar(BLEND_AMOUNT))],
            vec![("BaseTexture", TEX8), ("DetailTexture", DETAIL)],
            sprite(PALE),
            Check::reference(reference),
        ),
    }
}

const LAYER_A: TextureSpec = TextureSpec::d2(8, 8, 3);
const LAYER_B: TextureSpec = TextureSpec::d2(8, 8, 4);
const MASK: TextureSpec = TextureSpec::d2(4, 4, 5);
const MASK_WEIGHTS: [f32; 4] = [0.6, 0.3, -0.2, 0.1];

fn multi_texture_three() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let a = LAYER_A.sample_2d(0, uv[0], uv[1], C, C)?;
                let b = LAYER_B.sample_2d(0, uv[0], uv[1], C, C)?;
                let m = MASK.sample_2d(0, uv[0], uv[1], C, C)?;
                let t = (0..4)
                    .map(|i| m[i] * MASK_WEIGHTS[i])
                    .sum::<f32>()
                    .clamp(0.0, 1.0);
                Some([0, 1, 2, 3].map(|i| lerp(a[i], b[i], t)))
            },
            x,
            y,
        )
    }
    Entry {
        file: "multi_texture_three.fx",
        concern: "three samplers, registers differ from declaration order",
        techniques: vec![technique(
            "Masked",
            vec![ps_pass(
                "P0",
                vec![
                    sampler(0, ST::Sampler2D, "LayerA"),
                    sampler(1, ST::Sampler2D, "LayerB"),
                    sampler(2, ST::Sampler2D, "MaskTexture"),
                ],
            )],
        )],
        parameters: vec![
            p_vec("MaskWeights", 4),
            p_tex2d("MaskTexture"),
            p_tex2d("LayerA"),
            p_tex2d("LayerB"),
        ],
        render: render(
            "Masked",
            vec![("MaskWeights", vector(&MASK_WEIGHTS))],
            vec![
                ("LayerA", LAYER_A),
                ("LayerB", LAYER_B),
                ("MaskTexture", MASK),
            ],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const CUBE: TextureSpec = TextureSpec::Cube { size: 4, seed: 6 };
const ORIENTATION: [f32; 9] = [0.0, 1.0, 0.0, 0.0, 0.0, -1.0, 1.0, 0.0, 0.0];
const CUBE_DEPTH: f32 = 0.5;
const SKY: [u8; 4] = [255, 220, 180, 255];

fn cube_reflect() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            SKY,
            |uv, col| {
                let l = [uv[0] * 2.0 - 1.0, uv[1] * 2.0 - 1.0, CUBE_DEPTH];
                let m = ORIENTATION;
                let dir = [0, 1, 2].map(|j| (0..3).map(|i| l[i] * m[i * 3 + j]).sum::<f32>());
                let c = CUBE.sample_cube(dir)?;
                Some([0, 1, 2, 3].map(|i| c[i] * col[i]))
            },
            x,
            y,
        )
    }
    let mut state = point_state(TA::Wrap, TA::Wrap);
    state.address_w = TA::Wrap;
    Entry {
        file: "cube_reflect.fx",
        concern: "samplerCUBE + texCUBE, float3x3 rotation",
        techniques: vec![technique(
            "Reflect",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::SamplerCube, "EnvironmentMap").baked(state)],
            )],
        )],
        parameters: vec![
            p_mat("Orientation", 3, 3),
            p_float("Depth"),
            p_tex("EnvironmentMap", PT::TextureCube),
        ],
        render: render(
            "Reflect",
            vec![
                ("Orientation", matrix(3, 3, &ORIENTATION)),
                ("Depth", scalar(CUBE_DEPTH)),
            ],
            vec![("EnvironmentMap", CUBE)],
            sprite(SKY),
            Check::reference(reference),
        ),
    }
}

const SKY_CUBE: TextureSpec = TextureSpec::Cube { size: 4, seed: 7 };
const LOOK_OFFSET: [f32; 3] = [0.3, -0.2, 0.4];
const EXPOSURE: f32 = 0.8;

fn cube_modern() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let d = [
                    uv[0] * 2.0 - 1.0 + LOOK_OFFSET[0],
                    1.0 - uv[1] * 2.0 + LOOK_OFFSET[1],
                    1.0 + LOOK_OFFSET[2],
                ];
                let c = SKY_CUBE.sample_cube(super::math::normalize3(d))?;
                Some([c[0] * EXPOSURE, c[1] * EXPOSURE, c[2] * EXPOSURE, c[3]])
            },
            x,
            y,
        )
    }
    Entry {
        file: "cube_modern.fx",
        concern: "TextureCube + SamplerState + Sample",
        techniques: vec![technique(
            "Sky",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::SamplerCube, "SkyTexture")],
            )],
        )],
        parameters: vec![
            p_vec("LookOffset", 3),
            p_float("Exposure"),
            p_tex("SkyTexture", PT::TextureCube),
        ],
        render: render(
            "Sky",
            vec![
                ("LookOffset", vector(&LOOK_OFFSET)),
                ("Exposure", scalar(EXPOSURE)),
            ],
            vec![("SkyTexture", SKY_CUBE)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const LUT: TextureSpec = TextureSpec::D3 { size: 4 };
const LUT_SOURCE: TextureSpec = TextureSpec::d2(8, 8, 8);
const LUT_AMOUNT: f32 = 0.7;

fn volume_lut() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = LUT_SOURCE.sample_2d(0, uv[0], uv[1], C, C)?;
                let g = LUT.sample_3d([c[0], c[1], c[2]])?;
                Some([
                    lerp(c[0], g[0], LUT_AMOUNT),
                    lerp(c[1], g[1], LUT_AMOUNT),
                    lerp(c[2], g[2], LUT_AMOUNT),
                    c[3],
                ])
            },
            x,
            y,
        )
    }
    let lut_state = SamplerState {
        address_u: TA::Clamp,
        address_v: TA::Clamp,
        address_w: TA::Clamp,
        filter: shadowdusk::mgfx::TextureFilter::Point,
        mip_lod_bias: -16.0,
        max_mip_level: 0,
        ..SamplerState::default()
    };
    Entry {
        file: "volume_lut.fx",
        concern: "sampler3D + tex3D colour LUT, MipFilter None",
        techniques: vec![technique(
            "ColorGrade",
            vec![ps_pass(
                "P0",
                vec![
                    sampler(0, ST::Sampler2D, "s0"),
                    sampler(1, ST::SamplerVolume, "LutTexture").baked(lut_state),
                ],
            )],
        )],
        parameters: vec![
            p_float("LutAmount"),
            p_tex2d("s0"),
            p_tex("LutTexture", PT::Texture3D),
        ],
        render: render(
            "ColorGrade",
            vec![("LutAmount", scalar(LUT_AMOUNT))],
            vec![("s0", LUT_SOURCE), ("LutTexture", LUT)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const MIP16: TextureSpec = TextureSpec::d2_mips(16, 9);
const LOD: f32 = 2.0;

fn mip_pass() -> Vec<PassSpec> {
    vec![ps_pass(
        "P0",
        vec![sampler(0, ST::Sampler2D, "MipTexture").baked(point_state(TA::Clamp, TA::Clamp))],
    )]
}

fn lod_tex2dlod() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| MIP16.sample_2d(LOD as u32, uv[0], uv[1], C, C),
            x,
            y,
        )
    }
    Entry {
        file: "lod_tex2dlod.fx",
        concern: "tex2Dlod explicit level",
        techniques: vec![technique("ExplicitLod", mip_pass())],
        parameters: vec![p_float("Lod"), p_tex2d("MipTexture")],
        render: render(
            "ExplicitLod",
            vec![("Lod", scalar(LOD))],
            vec![("MipTexture", MIP16)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const MIP32_BIAS: TextureSpec = TextureSpec::d2_mips(32, 10);
const BIAS_RECT: [f32; 4] = [16.0, 16.0, 32.0, 32.0];
const BIAS: f32 = 2.0;

fn lod_tex2dbias() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        // 32 texels over 32 pixels: implicit level 0, plus the bias.
        sprite_pixel(
            BIAS_RECT,
            WHITE,
            |uv, _| MIP32_BIAS.sample_2d(BIAS as u32, uv[0], uv[1], C, C),
            x,
            y,
        )
    }
    Entry {
        file: "lod_tex2dbias.fx",
        concern: "tex2Dbias adds to the implicit level",
        techniques: vec![technique("BiasedLod", mip_pass())],
        parameters: vec![p_float("Bias"), p_tex2d("MipTexture")],
        render: render(
            "BiasedLod",
            vec![("Bias", scalar(BIAS))],
            vec![("MipTexture", MIP32_BIAS)],
            Geometry::Sprite {
                rect: BIAS_RECT,
                color: WHITE,
            },
            Check::reference(reference),
        ),
    }
}

const MIP32_GRAD: TextureSpec = TextureSpec::d2_mips(32, 11);
const GRADIENT: [f32; 2] = [0.125, 0.125];

fn lod_tex2dgrad() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        // 0.125 * 32 texels = 4 texels per pixel: level 2.
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| MIP32_GRAD.sample_2d(2, uv[0], uv[1], C, C),
            x,
            y,
        )
    }
    Entry {
        file: "lod_tex2dgrad.fx",
        concern: "tex2Dgrad explicit derivatives",
        techniques: vec![technique("ExplicitGradient", mip_pass())],
        parameters: vec![p_vec("Gradient", 2), p_tex2d("MipTexture")],
        render: render(
            "ExplicitGradient",
            vec![("Gradient", vector(&GRADIENT))],
            vec![("MipTexture", MIP32_GRAD)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const PROJ_TEX: TextureSpec = TextureSpec::d2(8, 8, 12);
const PROJ: [f32; 3] = [2.0, 1.0, 2.5];
const MINT: [u8; 4] = [200, 255, 230, 255];

fn lod_tex2dproj() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            MINT,
            |uv, col| {
                let c = PROJ_TEX.sample_2d(
                    0,
                    uv[0] * PROJ[0] / PROJ[2],
                    uv[1] * PROJ[1] / PROJ[2],
                    C,
                    C,
                )?;
                Some([0, 1, 2, 3].map(|i| c[i] * col[i]))
            },
            x,
            y,
        )
    }
    Entry {
        file: "lod_tex2dproj.fx",
        concern: "tex2Dproj divides by w",
        techniques: vec![technique(
            "Projected",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "ProjectedSampler")],
            )],
        )],
        parameters: vec![p_vec("ProjParams", 3), p_tex2d("ProjectedSampler")],
        render: render(
            "Projected",
            vec![("ProjParams", vector(&PROJ))],
            vec![("ProjectedSampler", PROJ_TEX)],
            sprite(MINT),
            Check::reference(reference),
        ),
    }
}

const LEVEL: f32 = 1.0;
const LEVEL_TINT: [f32; 4] = [0.8, 0.9, 0.7, 1.0];
const MIP16_B: TextureSpec = TextureSpec::d2_mips(16, 13);

fn lod_samplelevel() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = MIP16_B.sample_2d(LEVEL as u32, uv[0], uv[1], C, C)?;
                Some([0, 1, 2, 3].map(|i| c[i] * LEVEL_TINT[i]))
            },
            x,
            y,
        )
    }
    Entry {
        file: "lod_samplelevel.fx",
        concern: "Texture2D.SampleLevel",
        techniques: vec![technique(
            "SampleLevel",
            vec![ps_pass("P0", vec![sampler(0, ST::Sampler2D, "MipTexture")])],
        )],
        parameters: vec![p_float("Level"), p_vec("Tint", 4), p_tex2d("MipTexture")],
        render: render(
            "SampleLevel",
            vec![("Level", scalar(LEVEL)), ("Tint", vector(&LEVEL_TINT))],
            vec![("MipTexture", MIP16_B)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const TINT_A: [f32; 4] = [1.0, 0.6, 0.4, 1.0];
const TINT_B: [f32; 4] = [0.3, 0.8, 1.0, 0.9];
const MIX: f32 = 0.35;
const OFFSET: [f32; 2] = [0.125, -0.0625];

fn cbuffer_merged() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = TEX8.sample_2d(0, uv[0] + OFFSET[0], uv[1] + OFFSET[1], C, C)?;
                Some([0, 1, 2, 3].map(|i| lerp(c[i] * TINT_A[i], c[i] * TINT_B[i], MIX)))
            },
            x,
            y,
        )
    }
    Entry {
        file: "cbuffer_merged.fx",
        concern: "two cbuffers merged in one pixel shader",
        techniques: vec![technique(
            "Mix",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "SpriteTexture")],
            )],
        )],
        parameters: vec![
            p_vec("TintA", 4),
            p_vec("TintB", 4),
            p_float("MixAmount"),
            p_vec("Offset", 2),
            p_tex2d("SpriteTexture"),
        ],
        render: render(
            "Mix",
            vec![
                ("TintA", vector(&TINT_A)),
                ("TintB", vector(&TINT_B)),
                ("MixAmount", scalar(MIX)),
                ("Offset", vector(&OFFSET)),
            ],
            vec![("SpriteTexture", TEX8)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const TAPS: i32 = 3;
const TAP_SPACING: f32 = 0.125;
const BLUR_TEX: TextureSpec = TextureSpec::d2(8, 8, 17);

fn int_bool_branch() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let mut sum = [0.0f32; 4];
                for i in 0..TAPS {
                    let c = BLUR_TEX.sample_2d(0, uv[0] + i as f32 * TAP_SPACING, uv[1], C, C)?;
                    (0..4).for_each(|k| sum[k] += c[k]);
                }
                let c = sum.map(|v| v / TAPS as f32);
                // InvertColors is true.
                Some([1.0 - c[0], 1.0 - c[1], 1.0 - c[2], c[3]])
            },
            x,
            y,
        )
    }
    let int = param("TapCount", ParameterClass::Scalar, PT::Int32, 1, 1);
    let boolean = param("InvertColors", ParameterClass::Scalar, PT::Bool, 1, 1);
    Entry {
        file: "int_bool_branch.fx",
        concern: "int loop bound and bool branch",
        techniques: vec![technique(
            "HorizontalBlur",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "TextureSampler")],
            )],
        )],
        parameters: vec![
            int,
            boolean,
            p_float("TapSpacing"),
            p_tex2d("TextureSampler"),
        ],
        render: render(
            "HorizontalBlur",
            vec![
                ("TapCount", scalar(TAPS as f32)),
                ("InvertColors", scalar(1.0)),
                ("TapSpacing", scalar(TAP_SPACING)),
            ],
            vec![("TextureSampler", BLUR_TEX)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const UV_TRANSFORM: [f32; 4] = [0.0, 0.8, -1.0, 0.0];
const COLOR_TRANSFORM: [f32; 9] = [0.5, 0.3, 0.1, 0.2, 0.6, 0.1, 0.1, 0.1, 0.7];

fn matrix_2x2_3x3() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let d = [uv[0] - 0.5, uv[1] - 0.5];
                let m = UV_TRANSFORM;
                let s = d[0] * m[0] + d[1] * m[2] + 0.5;
                let t = d[0] * m[1] + d[1] * m[3] + 0.5;
                let c = TEX8.sample_2d(0, s, t, C, C)?;
                let k = COLOR_TRANSFORM;
                let rgb = [0, 1, 2].map(|j| c[0] * k[j] + c[1] * k[3 + j] + c[2] * k[6 + j]);
                Some([rgb[0], rgb[1], rgb[2], c[3]])
            },
            x,
            y,
        )
    }
    Entry {
        file: "matrix_2x2_3x3.fx",
        concern: "float2x2 and float3x3 uniforms",
        techniques: vec![technique(
            "Transform",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "TextureSampler")],
            )],
        )],
        parameters: vec![
            p_mat("UvTransform", 2, 2),
            p_mat("ColorTransform", 3, 3),
            p_tex2d("TextureSampler"),
        ],
        render: render(
            "Transform",
            vec![
                ("UvTransform", matrix(2, 2, &UV_TRANSFORM)),
                ("ColorTransform", matrix(3, 3, &COLOR_TRANSFORM)),
            ],
            vec![("TextureSampler", TEX8)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const VARIANT_TINT: [f32; 4] = [0.9, 0.8, 1.0, 0.9];

fn variant_args() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        // Technique Gray = VariantPS(true, 0.75).
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                let g = luma(c) * 0.75;
                Some([
                    g * VARIANT_TINT[0],
                    g * VARIANT_TINT[1],
                    g * VARIANT_TINT[2],
                    c[3] * VARIANT_TINT[3],
                ])
            },
            x,
            y,
        )
    }
    let s = || vec![sampler(0, ST::Sampler2D, "s0")];
    Entry {
        file: "variant_args.fx",
        concern: "literal entry arguments select a variant per technique",
        techniques: vec![
            technique("Gray", vec![ps_pass("P0", s())]),
            technique("Colored", vec![ps_pass("P0", s())]),
        ],
        parameters: vec![p_vec("Tint", 4), p_tex2d("s0")],
        render: render(
            "Gray",
            vec![("Tint", vector(&VARIANT_TINT))],
            vec![("s0", TEX8)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const CUTOUT: TextureSpec = TextureSpec::D2 {
    width: 8,
    height: 8,
    seed: 18,
    mips: false,
    pattern: Pattern::AlphaSteps,
};
const ALPHA_THRESHOLD: f32 = 0.6;
const RED_CUTOFF: f32 = 0.7;
const CREAM: [u8; 4] = [255, 240, 220, 255];

fn clip_discard() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            CREAM,
            |uv, col| {
                let c = CUTOUT.sample_2d(0, uv[0], uv[1], C, C)?;
                if c[3] - ALPHA_THRESHOLD < 0.0 || c[0] > RED_CUTOFF {
                    return Some(CLEAR);
                }
                Some([0, 1, 2, 3].map(|i| c[i] * col[i]))
            },
            x,
            y,
        )
    }
    Entry {
        file: "clip_discard.fx",
        concern: "clip and discard",
        techniques: vec![technique(
            "Cutout",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "TextureSampler")],
            )],
        )],
        parameters: vec![
            p_float("AlphaThreshold"),
            p_float("RedCutoff"),
            p_tex2d("TextureSampler"),
        ],
        render: render(
            "Cutout",
            vec![
                ("AlphaThreshold", scalar(ALPHA_THRESHOLD)),
                ("RedCutoff", scalar(RED_CUTOFF)),
            ],
            vec![("TextureSampler", CUTOUT)],
            sprite(CREAM),
            Check::reference(reference),
        ),
    }
}

const PALETTE: [[f32; 3]; 4] = [
    [0.1, 0.1, 0.3],
    [0.2, 0.6, 0.3],
    [0.9, 0.7, 0.2],
    [1.0, 1.0, 0.9],
];
const KERNEL: [f32; 3] = [0.25, 0.5, 0.25];
const TEXEL: [f32; 2] = [0.125, 0.0];
const BRIGHTNESS: f32 = 0.85;

fn static_const_palette() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let mut r = 0.0;
                for (i, k) in KERNEL.iter().enumerate() {
                    let o = i as f32 - 1.0;
                    r +=
                        TEX8.sample_2d(0, uv[0] + TEXEL[0] * o, uv[1] + TEXEL[1] * o, C, C)?[0] * k;
                }
                let f = r.clamp(0.0, 1.0) * 3.99;
                // Truncation is only ambiguous just around a positive integer.
                if f > 0.5 && (f - f.round()).abs() < 2e-3 {
                    return None;
                }
                let p = PALETTE[f as usize];
                Some([p[0] * BRIGHTNESS, p[1] * BRIGHTNESS, p[2] * BRIGHTNESS, 1.0])
            },
            x,
            y,
        )
    }
    Entry {
        file: "static_const_palette.fx",
        concern: "static const arrays",
        techniques: vec![technique(
            "Posterize",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "TextureSampler")],
            )],
        )],
        parameters: vec![
            p_vec("TexelSize", 2),
            p_float("Brightness"),
            p_tex2d("TextureSampler"),
        ],
        render: render(
            "Posterize",
            vec![
                ("TexelSize", vector(&TEXEL)),
                ("Brightness", scalar(BRIGHTNESS)),
            ],
            vec![("TextureSampler", TEX8)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const COLORS: [[f32; 4]; 4] = [
    [0.9, 0.2, 0.1, 1.0],
    [0.1, 0.8, 0.3, 1.0],
    [0.2, 0.3, 0.9, 1.0],
    [0.7, 0.7, 0.2, 1.0],
];
const WEIGHTS: [f32; 4] = [0.4, 0.3, 0.2, 0.1];

fn ps_array_uniforms() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                let mixed =
                    [0, 1, 2].map(|k| (0..4).map(|i| COLORS[i][k] * WEIGHTS[i]).sum::<f32>());
                let f = c[1] * 3.99;
                // Truncation is only ambiguous just around a positive integer.
                if f > 0.5 && (f - f.round()).abs() < 2e-3 {
                    return None;
                }
                let pick = COLORS[f as usize];
                Some([0, 1, 2].map(|k| mixed[k] * 0.5 + pick[k] * 0.5 * c[2]))
                    .map(|v| [v[0], v[1], v[2], c[3]])
            },
            x,
            y,
        )
    }
    Entry {
        file: "ps_array_uniforms.fx",
        concern: "float4[4] and float[4] uniform arrays in a pixel shader",
        techniques: vec![technique(
            "Palette",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "TextureSampler")],
            )],
        )],
        parameters: vec![
            p_vec("Colors", 4).array(4),
            p_float("Weights").array(4),
            p_tex2d("TextureSampler"),
        ],
        render: render(
            "Palette",
            vec![
                (
                    "Colors",
                    Value {
                        rows: 1,
                        columns: 4,
                        hlsl: COLORS.concat(),
                    },
                ),
                ("Weights", scalars(&WEIGHTS)),
            ],
            vec![("TextureSampler", TEX8)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const ORDER: [f32; 3] = [3.0, 0.0, 2.0];
const ENABLED: [f32; 3] = [1.0, 0.0, 1.0];

fn int_bool_arrays() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                let mut sum = [0.0f32; 3];
                for i in 0..3 {
                    if ENABLED[i] != 0.0 {
                        let p = COLORS[ORDER[i] as usize];
                        (0..3).for_each(|k| sum[k] += p[k] * (i + 1) as f32 / 6.0);
                    }
                }
                Some([sum[0] * c[0], sum[1] * c[1], sum[2] * c[2], c[3]])
            },
            x,
            y,
        )
    }
    Entry {
        file: "int_bool_arrays.fx",
        concern: "int and bool uniform arrays indexing a float4 array",
        techniques: vec![technique(
            "OrderedPalette",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "TextureSampler")],
            )],
        )],
        parameters: vec![
            p_vec("Palette", 4).array(4),
            param("Order", ParameterClass::Scalar, PT::Int32, 1, 1).array(3),
            param("Enabled", ParameterClass::Scalar, PT::Bool, 1, 1).array(3),
            p_tex2d("TextureSampler"),
        ],
        render: render(
            "OrderedPalette",
            vec![
                (
                    "Palette",
                    Value {
                        rows: 1,
                        columns: 4,
                        hlsl: COLORS.concat(),
                    },
                ),
                ("Order", scalars(&ORDER)),
                ("Enabled", scalars(&ENABLED)),
            ],
            vec![("TextureSampler", TEX8)],
            sprite(WHITE),
            Check::reference(reference),
        ),
    }
}

const HIGHLIGHT: [f32; 4] = [0.2, 0.9, 1.0, 0.8];
const INTENSITY: f32 = 1.5;
const THRESHOLD: f32 = 0.3;

fn annotations() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                let luma = dot3([c[0], c[1], c[2]], [0.299, 0.587, 0.114]);
                let glow = ((luma - THRESHOLD) * 4.0).clamp(0.0, 1.0) * INTENSITY;
                let t = glow * HIGHLIGHT[3];
                Some([
                    lerp(c[0], HIGHLIGHT[0], t),
                    lerp(c[1], HIGHLIGHT[1], t),
                    lerp(c[2], HIGHLIGHT[2], t),
                    c[3],
                ])
            },
            x,
            y,
        )
    }
    Entry {
        file: "annotations.fx",
        concern: "annotations on globals, technique and pass",
        techniques: vec![technique(
            "Highlight",
            vec![ps_pass("P0", vec![sampler(0, ST::Sampler2D, "s0")])],
        )],
        parameters: vec![
            p_vec("HighlightColor", 4).with_default(&[1.0, 0.9, 0.2, 1.0]),
            p_float("Intensity").with_default(&[1.0]),
            p_float("Threshold"),
            p_tex2d("s0"),
        ],
        render: render(
            "Highlight",
            vec![
                ("HighlightColor", vector(&HIGHLIGHT)),
                ("Intensity", scalar(INTENSITY)),
                ("Threshold", scalar(THRESHOLD)),
            ],
            vec![("s0", TEX8)],
            sprite(WHITE),
            Check::reference(reference).with_sensitivities(vec![
                whole_quad("HighlightColor", vector(&[1.0, 0.2, 0.1, 1.0])),
                whole_quad("Intensity", scalar(0.5)),
                whole_quad("Threshold", scalar(0.6)),
            ]),
        ),
    }
}

const LIGHT_DIRECTION: [f32; 3] = [0.4, -0.6, 0.7];
const LIGHT_COLOR: [f32; 3] = [1.0, 0.85, 0.7];
const SATURATION: f32 = 0.8;
const NORMAL_MAP: TextureSpec = TextureSpec::d2(4, 4, 19);

fn include_lighting() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, col| {
                let t = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                let albedo: [f32; 4] = [0, 1, 2, 3].map(|i| t[i] * col[i]);
                let w = Address::Wrap;
                let n = NORMAL_MAP.sample_2d(0, uv[0], uv[1], w, w)?;
                let normal = normalize3([n[0] * 2.0 - 1.0, n[1] * 2.0 - 1.0, n[2] * 2.0 - 1.0]);
                // Lighting.fxh: HalfLambert.
                let l = normalize3(LIGHT_DIRECTION);
                let ndl = dot3(normal, [-l[0], -l[1], -l[2]]) * 0.5 + 0.5;
                let lit = [0, 1, 2].map(|i| albedo[i] * LIGHT_COLOR[i] * (ndl * ndl));
                // ColorUtils.fxh: Desaturate(lit, 1 - Saturation) with Rec. 709 luminance.
                let lum = dot3(lit, [0.2126, 0.7152, 0.0722]);
                let out = lit.map(|v| lerp(v, lum, 1.0 - SATURATION));
                Some([out[0], out[1], out[2], albedo[3]])
            },
            x,
            y,
        )
    }
    Entry {
        file: "include_lighting.fx",
        concern: "includes from a subfolder with #pragma once and include guards",
        techniques: vec![technique(
            "NormalMapped",
            vec![ps_pass(
                "P0",
                vec![
                    sampler(0, ST::Sampler2D, "s0"),
                    sampler(1, ST::Sampler2D, "NormalMap").baked(point_state(TA::Wrap, TA::Wrap)),
                ],
            )],
        )],
        parameters: vec![
            p_vec("LightDirection", 3),
            p_vec("LightColor", 3),
            p_float("Saturation"),
            p_tex2d("NormalMap"),
            p_tex2d("s0"),
        ],
        render: render(
            "NormalMapped",
            vec![
                ("LightDirection", vector(&LIGHT_DIRECTION)),
                ("LightColor", vector(&LIGHT_COLOR)),
                ("Saturation", scalar(SATURATION)),
            ],
            vec![("s0", TEX8), ("NormalMap", NORMAL_MAP)],
            sprite(WARM),
            Check::reference(reference).with_sensitivities(vec![
                whole_quad("LightDirection", vector(&[-0.7, 0.5, -0.2])),
                whole_quad("LightColor", vector(&[0.3, 0.5, 1.0])),
                whole_quad("Saturation", scalar(0.1)),
            ]),
        ),
    }
}

const MRT_TINT: [f32; 4] = [0.9, 0.6, 0.8, 1.0];

fn mrt_output() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        // Target 0 (COLOR0) only: the albedo. TEX8 is opaque, so `clip(albedo.a - 0.01)` keeps
        // every pixel.
        sprite_pixel(
            RECT,
            WHITE,
            |uv, col| {
                let c = TEX8.sample_2d(0, uv[0], uv[1], C, C)?;
                Some([0, 1, 2, 3].map(|i| c[i] * col[i] * MRT_TINT[i]))
            },
            x,
            y,
        )
    }
    Entry {
        file: "mrt_output.fx",
        concern: "PS output struct with COLOR0/COLOR1",
        techniques: vec![technique(
            "Deferred",
            vec![ps_pass(
                "P0",
                vec![
                    sampler(0, ST::Sampler2D, "SpriteTexture"),
                    sampler(1, ST::Sampler2D, "NormalTexture"),
                ],
            )],
        )],
        parameters: vec![
            p_vec("Tint", 4),
            p_float("NormalStrength"),
            p_tex2d("SpriteTexture"),
            p_tex2d("NormalTexture"),
        ],
        render: Render {
            render_targets: 2,
            ..render(
                "Deferred",
                vec![("Tint", vector(&MRT_TINT)), ("NormalStrength", scalar(0.7))],
                vec![
                    ("SpriteTexture", TEX8),
                    ("NormalTexture", TextureSpec::d2(4, 4, 20)),
                ],
                sprite(WHITE),
                Check::reference(reference)
                    .with_sensitivities(vec![whole_quad("Tint", vector(&[0.2, 1.0, 0.4, 1.0]))]),
            )
        },
    }
}

const CELL_SIZE: f32 = 8.0;
const COLOR_A: [f32; 4] = [0.9, 0.3, 0.2, 1.0];
const COLOR_B: [f32; 4] = [0.1, 0.4, 0.9, 1.0];

/// The checkerboard as MonoGame's GL runtime draws it: `VPOS` is `gl_FragCoord`, so its origin
/// (and the checker's parity per row) depends on the orientation; see [`frag_coord`].
fn checker(o: Orientation, x: u32, y: u32) -> Option<[f32; 4]> {
    sprite_pixel(
        RECT,
        WHITE,
        |_, col| {
            let [fx, fy] = frag_coord(x, y, o);
            let sum = (fx / CELL_SIZE).floor() + (fy / CELL_SIZE).floor();
            // HLSL fmod: the remainder of a truncating division.
            let parity = sum - 2.0 * (sum / 2.0).trunc();
            Some([0, 1, 2, 3].map(|i| lerp(COLOR_A[i], COLOR_B[i], parity) * col[i]))
        },
        x,
        y,
    )
}

fn vpos_checker() -> Entry {
    fn backbuffer(x: u32, y: u32) -> Option<[f32; 4]> {
        checker(Orientation::Backbuffer, x, y)
    }
    fn render_target(x: u32, y: u32) -> Option<[f32; 4]> {
        checker(Orientation::RenderTarget, x, y)
    }
    let full = |parameter, changed| Sensitivity {
        parameter,
        changed,
        region: [8, 8, 48, 48],
        min_fraction: 0.2,
    };
    Entry {
        file: "vpos_checker.fx",
        concern: "VPOS screen-space checkerboard",
        techniques: vec![technique("Checker", vec![ps_pass("P0", vec![])])],
        parameters: vec![p_float("CellSize"), p_vec("ColorA", 4), p_vec("ColorB", 4)],
        render: render(
            "Checker",
            vec![
                ("CellSize", scalar(CELL_SIZE)),
                ("ColorA", vector(&COLOR_A)),
                ("ColorB", vector(&COLOR_B)),
            ],
            vec![],
            sprite(WHITE),
            Check::per_orientation(backbuffer, render_target).with_sensitivities(vec![
                full("CellSize", scalar(5.0)),
                full("ColorA", vector(&[0.2, 0.9, 0.2, 1.0])),
                full("ColorB", vector(&[0.9, 0.9, 0.1, 1.0])),
            ]),
        ),
    }
}
