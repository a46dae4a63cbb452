//! Table entries of the `compat_*` effects of issue 18's second round, miscellaneous habits:
//! what fxc leaves uncompiled (functions no entry reaches), dynamically indexed vectors and
//! arrays, `static const` initializers that call intrinsics, and depth written by a pixel
//! shader. Each has a CPU reference of its maths.

use super::compat_effects::{sample, sprite_entry, RECT};
use super::math::sprite_pixel;
use super::textures::TextureSpec;
use super::*;
use shadowdusk::mgfx::{ParameterClass, ParameterType as PT, SamplerType as ST};

const WARM: [u8; 4] = [255, 204, 153, 255];
const TEX8: TextureSpec = TextureSpec::d2(8, 8, 41);

pub(super) fn entries() -> Vec<Entry> {
    vec![
        reach_unused_helpers(),
        index_dynamic_lanes(),
        decl_fxc_leniency(),
        decl_branch_returns(),
        glsl_depth_output(),
        smp_cube_grad(),
    ]
}

// ---- reachability --------------------------------------------------------------------------

const STRENGTH: f32 = 0.6;

fn reach_unused_helpers() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, color| {
                let c = sample(&TEX8, uv)?;
                Some([
                    c[0] * STRENGTH * color[0],
                    c[1] * STRENGTH * color[1],
                    c[2] * STRENGTH * color[2],
                    c[3] * color[3],
                ])
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_reach_unused_helpers.fx",
        "an unreached helper calling noise() and one plain sampler read as 2D by one technique and as a cube map by another",
        vec![
            technique(
                "Flat",
                vec![ps_pass("P0", vec![sampler(0, ST::Sampler2D, "TextureSampler")])],
            ),
            // The parameter keeps the first shader's dimension (mgfxc's habit); this
            // technique's own sampler record says cube.
            technique(
                "Sky",
                vec![ps_pass(
                    "P0",
                    vec![sampler(0, ST::SamplerCube, "TextureSampler")],
                )],
            ),
        ],
        vec![
            p_float("Strength").with_default(&[1.0]),
            p_tex2d("TextureSampler"),
        ],
        vec![("Strength", scalar(STRENGTH))],
        vec![("TextureSampler", TEX8)],
        WARM,
        Check::reference(reference),
    )
}

// ---- run-time indices ----------------------------------------------------------------------

const WEIGHTS: [f32; 4] = [0.1, 0.2, 0.3, 0.4];
const CHANNEL: f32 = 1.0;
const PALETTE: [[f32; 3]; 3] = [[1.0, 0.8, 0.6], [0.6, 1.0, 0.8], [0.8, 0.6, 1.0]];
const TEXEL_WIDTH: f32 = 1.0 / 8.0;

fn index_dynamic_lanes() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, color| {
                const OFFSETS: [f32; 4] = [-1.5, -0.5, 0.5, 1.5];
                const TINTS: [[f32; 3]; 3] = [[1.0, 0.5, 0.25], [0.25, 1.0, 0.5], [0.5, 0.25, 1.0]];
                let mut sum = [0.0f32; 3];
                for (i, off) in OFFSETS.iter().enumerate() {
                    let c = sample(&TEX8, [uv[0] + off * TEXEL_WIDTH, uv[1]])?;
                    for k in 0..3 {
                        sum[k] += c[k] * WEIGHTS[i];
                    }
                }
                let channel = CHANNEL as usize;
                let texel = sample(&TEX8, uv)?;
                let pick = (texel[channel] * 2.99) as usize;
                let scale = 0.5 + WEIGHTS[channel];
                let rgb: Vec<f32> = (0..3)
                    .map(|k| sum[k] * TINTS[pick][k] * PALETTE[pick][k] * scale * color[k])
                    .collect();
                Some([rgb[0], rgb[1], rgb[2], texel[3 - channel] * color[3]])
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_index_dynamic_lanes.fx",
        "a uniform float4 read at a loop counter and at a uniform-picked lane, a texel channel picked at run time, and local float/float3 tables with computed indices",
        vec![technique(
            "Index",
            vec![ps_pass("P0", vec![sampler(0, ST::Sampler2D, "TextureSampler")])],
        )],
        vec![
            p_vec("Weights", 4),
            p_float("Channel"),
            p_vec("Palette", 3).array(3),
            p_float("TexelWidth"),
            p_tex2d("TextureSampler"),
        ],
        vec![
            ("Weights", vector(&WEIGHTS)),
            ("Channel", scalar(CHANNEL)),
            (
                "Palette",
                Value {
                    rows: 1,
                    columns: 3,
                    hlsl: PALETTE.concat(),
                },
            ),
            ("TexelWidth", scalar(TEXEL_WIDTH)),
        ],
        vec![("TextureSampler", TEX8)],
        WARM,
        Check::reference(reference),
    )
}

// ---- what fxc lets through -----------------------------------------------------------------

const STEPS: i32 = 2;
const OFFSETS: [f32; 4] = [0.0, 0.0, 1.0 / 16.0, 0.0];
const ANGLE: f32 = 0.5;

/// `normalize(float3(0.3, 0.59, 0.11))`, folded as the compiler folds it (in f64).
fn lum_coeff() -> [f32; 3] {
    let v = [0.3f64, 0.59, 0.11];
    let l = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.map(|x| (x / l) as f32)
}

fn decl_fxc_leniency() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, color| {
                // The shader's own copies: `Steps += 1`, then `Offsets[1] *= Steps`.
                let steps = (STEPS + 1) as f32;
                let c = sample(
                    &TEX8,
                    [uv[0] + OFFSETS[2] * steps, uv[1] + OFFSETS[3] * steps],
                )?;
                let lum = lum_coeff();
                let l = c[0] * lum[0] + c[1] * lum[1] + c[2] * lum[2];
                let band = if l < 0.5 { l * 2.0 } else { 1.0 };
                let k = band * ANGLE.cos();
                Some([
                    c[0] * k * color[0],
                    c[1] * k * color[1],
                    c[2] * k * color[2],
                    c[3] * color[3],
                ])
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_decl_fxc_leniency.fx",
        "uniform defaults folded from normalize()/acos(), a uniform array element and an int uniform written by shader code, and a helper missing its last return",
        vec![technique(
            "Lenient",
            vec![ps_pass("P0", vec![sampler(0, ST::Sampler2D, "TextureSampler")])],
        )],
        vec![
            p_vec("LumCoeff", 3).with_default(&lum_coeff()),
            p_float("Angle").with_default(&[(std::f64::consts::PI / 4.0) as f32]),
            p_vec("Offsets", 2).array(2),
            param("Steps", ParameterClass::Scalar, PT::Int32, 1, 1),
            p_tex2d("TextureSampler"),
        ],
        vec![
            ("Angle", scalar(ANGLE)),
            (
                "Offsets",
                Value {
                    rows: 1,
                    columns: 2,
                    hlsl: OFFSETS.to_vec(),
                },
            ),
            ("Steps", scalar(STEPS as f32)),
        ],
        vec![("TextureSampler", TEX8)],
        WARM,
        Check::reference(reference),
    )
}

// ---- depth output --------------------------------------------------------------------------

const BRIGHTNESS: f32 = 0.7;

fn glsl_depth_output() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, color| {
                let c = sample(&TEX8, uv)?;
                Some([
                    c[0] * BRIGHTNESS * color[0],
                    c[1] * BRIGHTNESS * color[1],
                    c[2] * BRIGHTNESS * color[2],
                    c[3] * color[3],
                ])
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_glsl_depth_output.fx",
        "a pixel shader writing DEPTH0 from a struct member (sprite depth sorting); its GLSL enables the frag-depth extension before any statement",
        vec![technique(
            "SpriteDepth",
            vec![ps_pass("P0", vec![sampler(0, ST::Sampler2D, "TextureSampler")])],
        )],
        vec![
            p_float("Brightness").with_default(&[1.0]),
            p_float("DepthScale").with_default(&[1.0]),
            p_tex2d("TextureSampler"),
        ],
        vec![("Brightness", scalar(BRIGHTNESS)), ("DepthScale", scalar(0.5))],
        vec![("TextureSampler", TEX8)],
        WARM,
        Check::reference(reference),
    )
}

// ---- gradients on a cube ------------------------------------------------------------------

const SKY_CUBE: TextureSpec = TextureSpec::Cube { size: 4, seed: 11 };
const LOOK_OFFSET: [f32; 3] = [-0.25, 0.3, 0.2];
const EXPOSURE: f32 = 0.7;

fn smp_cube_grad() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
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
    sprite_entry(
        "compat_smp_cube_grad.fx",
        "texCUBEgrad on a legacy samplerCUBE is textureCubeGrad behind GL_ARB_shader_texture_lod",
        vec![technique(
            "Sky",
            vec![ps_pass(
                "P0",
                vec![
                    sampler(0, ST::SamplerCube, "SkyTexture").baked(SamplerState {
                        filter: shadowdusk::mgfx::TextureFilter::Point,
                        max_mip_level: 0,
                        mip_lod_bias: -16.0,
                        ..SamplerState::default()
                    }),
                ],
            )],
        )],
        vec![
            p_vec("LookOffset", 3),
            p_float("Exposure"),
            p_tex("SkyTexture", PT::TextureCube),
        ],
        vec![
            ("LookOffset", vector(&LOOK_OFFSET)),
            ("Exposure", scalar(EXPOSURE)),
        ],
        vec![("SkyTexture", SKY_CUBE)],
        WARM,
        Check::reference(reference),
    )
}

// ---- returns fxc proves after folding --------------------------------------------------------

const BRANCH_TINT: [f32; 4] = [0.9, 0.6, 0.8, 1.0];

/// `compat_decl_branch_returns.fx`: `PS(input, SM_PLANAR)` takes the first branch.
fn decl_branch_returns() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, color| {
                let c = sample(&TEX8, uv)?;
                Some([0, 1, 2, 3].map(|k| c[k] * color[k] * BRANCH_TINT[k]))
            },
            x,
            y,
        )
    }
    let samplers = || vec![sampler(0, ST::Sampler2D, "SpriteTexture")];
    sprite_entry(
        "compat_decl_branch_returns.fx",
        "a helper whose `if`/`else if` chain on a `uniform int` returns on every path once an entry's constant argument is folded in (fxc's X3507 only for the helper itself)",
        vec![
            technique("Planar", vec![ps_pass("P0", samplers())]),
            technique("Inverted", vec![ps_pass("P0", samplers())]),
        ],
        vec![p_vec("Tint", 4), p_tex2d("SpriteTexture")],
        vec![("Tint", vector(&BRANCH_TINT))],
        vec![("SpriteTexture", TEX8)],
        WARM,
        Check::reference(reference).with_sensitivities(vec![Sensitivity {
            parameter: "Tint",
            changed: vector(&[0.2, 0.9, 0.4, 1.0]),
            region: [8, 8, 48, 48],
            min_fraction: 0.5,
        }]),
    )
}
