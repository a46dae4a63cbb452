//! Table entry of `compat_bool_vector_logic.fx`: `&&`, `||`, `!` and `?:` on `bool4` values,
//! and `any`/`all`, as pixel-art upscalers (xBR, ScaleFX) write their edge rules.

use super::math::sprite_pixel;
use super::textures::{Address, TextureSpec};
use super::*;
use shadowdusk::mgfx::{SamplerType as ST, TextureAddressMode as TA};

const RECT: [f32; 4] = [8.0, 8.0, 48.0, 48.0];
const WHITE: [u8; 4] = [255, 255, 255, 255];
const TEX: TextureSpec = TextureSpec::d2(8, 8, 2);
const THRESHOLD: f32 = 0.05;
const EDGE_TINT: [f32; 4] = [1.0, 0.6, 0.3, 1.0];
const Y: [f32; 3] = [0.299, 0.587, 0.114];

pub(super) fn entries() -> Vec<Entry> {
    vec![bool_vector_logic()]
}

/// `a > b`, or `None` when the two are so close that rounding may decide.
fn greater(a: f32, b: f32) -> Option<bool> {
    (a == b || (a - b).abs() > 1e-4).then_some(a > b)
}

/// `a < b` likewise.
fn less(a: f32, b: f32) -> Option<bool> {
    greater(b, a)
}

fn bool_vector_logic() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, tint| {
                let d = 1.0 / 8.0;
                let at = |du: f32, dv: f32| {
                    TEX.sample_2d(0, uv[0] + du, uv[1] + dv, Address::Clamp, Address::Clamp)
                };
                let rgb = |c: [f32; 4]| [c[0], c[1], c[2]];
                let e3 = rgb(at(0.0, 0.0)?);
                // Up, right, down, left.
                let nb = [
                    rgb(at(0.0, -d)?),
                    rgb(at(d, 0.0)?),
                    rgb(at(0.0, d)?),
                    rgb(at(-d, 0.0)?),
                ];
                let luma = |c: [f32; 3]| c[0] * Y[0] + c[1] * Y[1] + c[2] * Y[2];
                let e = luma(e3);
                let n: Vec<f32> = nb.iter().map(|&c| luma(c)).collect();
                let m = |i: usize| n[(i + 1) % 4];
                let eq = |a: f32, b: f32| less((a - b).abs(), THRESHOLD);
                let mut w = [0.0f32; 4];
                let (mut any_edr, mut all_flat) = (false, true);
                for i in 0..4 {
                    let corner = eq(n[i], m(i))? && !eq(n[i], e)?;
                    let brighter = greater(n[i], e)? || greater(m(i), e)?;
                    let edr = corner && brighter;
                    let flat = !(corner || brighter);
                    if edr {
                        w[i] = 0.25;
                    }
                    any_edr |= edr;
                    all_flat &= flat;
                }
                let keep = 1.0 - w.iter().sum::<f32>();
                let mut color = [0.0f32; 3];
                for (k, c) in color.iter_mut().enumerate() {
                    *c = e3[k] * keep + (0..4).map(|i| nb[i][k] * w[i]).sum::<f32>();
                    if any_edr {
                        *c *= EDGE_TINT[k];
                    }
                }
                let alpha = if all_flat { 0.5 } else { 1.0 };
                Some([
                    color[0] * tint[0],
                    color[1] * tint[1],
                    color[2] * tint[2],
                    alpha * tint[3],
                ])
            },
            x,
            y,
        )
    }
    let point = point_state(TA::Clamp, TA::Clamp);
    Entry {
        file: "compat_bool_vector_logic.fx",
        concern: "`&&`, `||`, `!` and `?:` on `bool4` values and `any`/`all`, as xBR-style upscalers write their edge rules",
        techniques: vec![technique(
            "Upscale",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "SpriteTexture").baked(point)],
            )],
        )],
        parameters: vec![
            p_tex2d("SpriteTexture"),
            p_vec("TextureSize", 2),
            p_float("Threshold").with_default(&[THRESHOLD]),
            p_vec("EdgeTint", 4),
        ],
        render: Render {
            technique: "Upscale",
            values: vec![
                ("TextureSize", vector(&[8.0, 8.0])),
                ("Threshold", scalar(THRESHOLD)),
                ("EdgeTint", vector(&EDGE_TINT)),
            ],
            textures: vec![("SpriteTexture", TEX)],
            geometry: Geometry::Sprite {
                rect: RECT,
                color: WHITE,
            },
            render_targets: 1,
            check: Check::reference(reference).with_sensitivities(vec![
                Sensitivity {
                    parameter: "EdgeTint",
                    changed: vector(&[1.0, 1.0, 1.0, 1.0]),
                    region: [8, 8, 48, 48],
                    min_fraction: 0.08,
                },
                Sensitivity {
                    parameter: "Threshold",
                    changed: scalar(0.07),
                    region: [8, 8, 48, 48],
                    min_fraction: 0.08,
                },
            ]),
        },
    }
}
