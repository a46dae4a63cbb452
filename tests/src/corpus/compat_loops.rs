//! Table entries of the `compat_loop_*` effects: values a loop re-initialises every iteration
//! from something computed before it (a blur's texture coordinate re-read from the input, a row
//! coordinate or colour from an outer loop, a struct, a matrix row). A compiler that turns such
//! a value into one variable updated in place carries each iteration's change into the next;
//! the references compute every iteration from the original value.

use super::compat_effects::{map4, sample, sprite_entry, RECT};
use super::math::sprite_pixel;
use super::textures::TextureSpec;
use super::*;
use shadowdusk::mgfx::SamplerType as ST;

const WARM: [u8; 4] = [255, 204, 153, 255];
const TEX8: TextureSpec = TextureSpec::d2(8, 8, 47);

pub(super) fn entries() -> Vec<Entry> {
    vec![loop_blur_reset(), loop_nested_box(), loop_carried_shapes()]
}

fn texture_sampler() -> Vec<SamplerSpec> {
    vec![sampler(0, ST::Sampler2D, "TextureSampler")]
}

fn one_ps_pass(name: &'static str, pass: &'static str) -> Vec<TechniqueSpec> {
    vec![technique(name, vec![ps_pass(pass, texture_sampler())])]
}

fn add_scaled(sum: &mut [f32; 4], c: [f32; 4], k: f32) {
    for i in 0..4 {
        sum[i] += c[i] * k;
    }
}

// ---- the blur of the issue ---------------------------------------------------------------------

/// Whole texels of the 8-texel texture, so no tap lands on a texel boundary.
const BLUR_OFFSETS: [f32; 5] = [-0.25, -0.125, 0.0, 0.125, 0.25];
const BLUR_WEIGHTS: [f32; 5] = [0.1, 0.2, 0.4, 0.2, 0.1];

fn loop_blur_reset() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, color| {
                let mut sum = [0.0; 4];
                for (o, w) in BLUR_OFFSETS.iter().zip(BLUR_WEIGHTS) {
                    add_scaled(&mut sum, sample(&TEX8, [uv[0] + o, uv[1]])?, w);
                }
                Some(map4(|i| sum[i] * color[i]))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_loop_blur_reset.fx",
        "a blur that re-reads its texture coordinate from the input every iteration and moves one component",
        one_ps_pass("GaussianBlur", "Horizontal"),
        vec![
            p_float("SampleOffsets").array(5),
            p_float("SampleWeights")
                .array(5)
                .with_default(&BLUR_WEIGHTS),
            p_tex2d("TextureSampler"),
        ],
        vec![(
            "SampleOffsets",
            scalars(&BLUR_OFFSETS),
        )],
        vec![("TextureSampler", TEX8)],
        WARM,
        Check::reference(reference),
    )
}

// ---- nested loops, break -------------------------------------------------------------------

const TEXEL: [f32; 2] = [0.125, 0.125];
/// The inner loop stops at the zero, after three taps.
const ROW_WEIGHTS: [f32; 4] = [0.25, 0.5, 0.25, 0.0];

fn loop_nested_box() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, color| {
                let mut sum = [0.0; 4];
                for (row, wy) in ROW_WEIGHTS.iter().take(3).enumerate() {
                    let v = uv[1] + (row as f32 - 1.0) * TEXEL[1];
                    let row_color = sample(&TEX8, [uv[0], v])?;
                    for wx in ROW_WEIGHTS.iter().take_while(|w| **w != 0.0) {
                        let mut tap = row_color;
                        tap[0] *= wx;
                        add_scaled(&mut sum, tap, wy * 0.25);
                    }
                }
                Some(map4(|i| sum[i] * color[i]))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_loop_nested_box.fx",
        "nested loops re-initialising from the outer iteration's coordinate and colour; a break",
        one_ps_pass("RowBlur", "P0"),
        vec![
            p_vec("TexelSize", 2),
            p_float("Weights").array(4),
            p_tex2d("TextureSampler"),
        ],
        vec![
            ("TexelSize", vector(&TEXEL)),
            ("Weights", scalars(&ROW_WEIGHTS)),
        ],
        vec![("TextureSampler", TEX8)],
        WARM,
        Check::reference(reference),
    )
}

// ---- a struct in a do loop, a matrix row in a while loop with continue -------------------

const STEP: [f32; 2] = [0.125, 0.0625];
const TINT: [f32; 4] = [0.9, 0.8, 0.7, 0.8];
/// Row by row.
const WARP: [f32; 4] = [0.5, 0.25, 0.25, 0.5];

fn loop_carried_shapes() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, color| {
                let mut sum = [0.0; 4];
                // do { Tap t = start; t.uv.x += i * Step.x; t.weight *= Tint.a; …
                //      drift.y += Step.y; … } while (i < 3): `drift` keeps each step.
                for i in 0..3 {
                    let c = sample(&TEX8, [uv[0] + i as f32 * STEP[0], uv[1]])?;
                    add_scaled(&mut sum, c, 0.25 * TINT[3]);
                    let drift = sample(&TEX8, [uv[0], uv[1] + (i + 1) as f32 * STEP[1]])?;
                    add_scaled(&mut sum, drift, 0.1);
                }
                // base = mul(float2x2(color.rg, color.ba), Warp);
                // while (k < 3) { m = base; k++; if (k == 2) continue; m[1] += Step * k; … }
                let row_times_warp = |r: [f32; 2]| {
                    [
                        r[0] * WARP[0] + r[1] * WARP[2],
                        r[0] * WARP[1] + r[1] * WARP[3],
                    ]
                };
                let base = [
                    row_times_warp([color[0], color[1]]),
                    row_times_warp([color[2], color[3]]),
                ];
                for k in [1.0f32, 3.0] {
                    let p0 = row_times_warp(base[0]);
                    let p1 = row_times_warp([base[1][0] + STEP[0] * k, base[1][1] + STEP[1] * k]);
                    sum[0] += p0[0] * 0.125;
                    sum[1] += p0[1] * 0.125;
                    sum[2] += p1[0] * 0.125;
                    sum[3] += p1[1] * 0.125;
                }
                Some(map4(|i| sum[i] * TINT[i] * color[i]))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_loop_carried_shapes.fx",
        "a struct copied and moved in a do loop beside a carried coordinate; a row of a matrix product moved after a continue in a while loop",
        one_ps_pass("Shapes", "P0"),
        vec![
            p_vec("Step", 2),
            p_vec("Tint", 4),
            p_mat("Warp", 2, 2),
            p_tex2d("TextureSampler"),
        ],
        vec![
            ("Step", vector(&STEP)),
            ("Tint", vector(&TINT)),
            ("Warp", matrix(2, 2, &WARP)),
        ],
        vec![("TextureSampler", TEX8)],
        WARM,
        Check::reference(reference),
    )
}
