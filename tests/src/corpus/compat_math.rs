//! Table entries of the maths Direct3D 9 defines where GLSL and WGSL leave it undefined: `pow`,
//! `log2`, `sqrt` and `rsqrt` of negatives, and fxc's expansion of whole-number exponents
//! (`compat_math_d3d9.fx`); `rsqrt`, `1 /` and `log2` of zero (`compat_math_zero.fx`). The
//! references compute as Direct3D 9 does (`pow`, `log`, `rsq` of `|x|`; an expanded `x^n` keeps
//! the sign of `x`; `rsq(0)` and `rcp(0)` are +inf, `log(0)` is -inf), and were checked against
//! Direct3D 9 itself (the d3d oracle's pixels, in the tests below).

use super::math::{dot3, sprite_pixel};
use super::*;

/// The whole target: the oracle draws its quad there too, so pixels compare one to one.
const RECT: [f32; 4] = [0.0, 0.0, 64.0, 64.0];
const WHITE: [u8; 4] = [255, 255, 255, 255];
const LIGHT: [f32; 3] = [0.6, 0.0, -0.8];
const POWER: f32 = 3.0;
const RAIN: f32 = 1.0;

/// The table's entries.
pub fn entries() -> Vec<Entry> {
    vec![math_d3d9(), math_zero()]
}

/// The light's tile in `compat_math_zero.fx`'s 8×8 grid, and its range.
const LIGHT_TILE: [f32; 2] = [3.0, 5.0];
const RANGE: f32 = 0.5;

/// `compat_math_zero.fx` at `uv`: in the light's tile the squared distance is 0, and
/// Direct3D 9's `rsq(0)`, `rcp(0)` are +inf and `log(0)` is -inf (saturated: 1, 1, 0).
fn tiles(uv: [f32; 2], tile: [f32; 2], range: f32) -> [f32; 4] {
    let to = [
        (uv[0] * 8.0).floor() - tile[0],
        (uv[1] * 8.0).floor() - tile[1],
    ];
    let d = to[0] * to[0] + to[1] * to[1];
    let rsq = if d == 0.0 {
        f32::INFINITY
    } else {
        1.0 / d.sqrt()
    };
    let rcp = if d == 0.0 { f32::INFINITY } else { 1.0 / d };
    let log = if d == 0.0 {
        f32::NEG_INFINITY
    } else {
        d.log2()
    };
    [
        (rsq * range).clamp(0.0, 1.0),
        (range * rcp).clamp(0.0, 1.0),
        (0.5 + 0.1 * log).clamp(0.0, 1.0),
        (d.sqrt() * 0.25).clamp(0.0, 1.0),
    ]
}

fn math_zero() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| Some(tiles(uv, LIGHT_TILE, RANGE)),
            x,
            y,
        )
    }
    Entry {
        file: "compat_math_zero.fx",
        concern: "rsqrt, division and log2 of an exact zero (a tiled light's own tile), as Direct3D 9 defines them",
        techniques: vec![technique("Tiles", vec![ps_pass("P0", vec![])])],
        parameters: vec![p_vec("LightTile", 2), p_float("Range")],
        render: Render {
            technique: "Tiles",
            values: vec![
                ("LightTile", vector(&LIGHT_TILE)),
                ("Range", scalar(RANGE)),
            ],
            textures: vec![],
            geometry: Geometry::Sprite {
                rect: RECT,
                color: WHITE,
            },
            render_targets: 1,
            check: Check::reference(reference).with_sensitivities(vec![Sensitivity {
                parameter: "LightTile",
                changed: vector(&[6.0, 1.0]),
                region: [0, 0, 64, 64],
                min_fraction: 0.3,
            }]),
        },
    }
}

/// `compat_math_d3d9.fx` at `uv`, as Direct3D 9 computes it.
fn water(uv: [f32; 2], light: [f32; 3], power: f32, rain: f32) -> [f32; 4] {
    let angle = (uv[0] - 0.5) * 3.0;
    let normal = [angle.sin(), 0.0, angle.cos()];
    let d = dot3(normal, light);
    let reflected_z = light[2] - 2.0 * d * normal[2];
    // D3D9's `pow` instruction raises |x|: the uniform exponent is not known to fxc.
    let specular = reflected_z.abs().powf(power);
    let streak = uv[1] * 2.0 - 1.0;
    // Whole-number literal exponents fxc expands into products keep the sign ...
    let rain = streak.powi(6) * rain;
    let ripple = streak.powi(3);
    let gusts = streak.powi(7) + (streak * 0.9).powi(7);
    // ... but a scalar `x^7` costs more as products than as `pow`, which raises |x|.
    let swell = streak.abs().powi(7);
    let depth = (uv[0] - 0.5) * 4.0;
    // `log` and `rsq` (so `sqrt`, which fxc makes `rcp(rsq(x))`) read |x|.
    let fog = depth.abs().log2() * 0.08 + depth.abs().sqrt() * 0.1;
    let haze = 1.0 / (streak - 2.0).abs().sqrt();
    [
        0.1 + 0.8 * specular,
        0.5 + 0.3 * ripple + 0.2 * rain,
        0.3 + 0.3 * swell + 0.3 * haze,
        (0.6 + fog + 0.1 * gusts * 0.5).clamp(0.0, 1.0),
    ]
}

fn math_d3d9() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| Some(water(uv, LIGHT, POWER, RAIN)),
            x,
            y,
        )
    }
    Entry {
        file: "compat_math_d3d9.fx",
        concern: "pow of a negative base (a uniform and literal exponents, fxc's expansion cut-off), log2, sqrt and rsqrt of negatives, as Direct3D 9 computes them",
        techniques: vec![technique("Water", vec![ps_pass("P0", vec![])])],
        parameters: vec![
            p_vec("LightDirection", 3),
            p_float("SpecularPower"),
            p_float("RainDensity"),
        ],
        render: Render {
            technique: "Water",
            values: vec![
                ("LightDirection", vector(&LIGHT)),
                ("SpecularPower", scalar(POWER)),
                ("RainDensity", scalar(RAIN)),
            ],
            textures: vec![],
            geometry: Geometry::Sprite {
                rect: RECT,
                color: WHITE,
            },
            render_targets: 1,
            check: Check::reference(reference).with_sensitivities(vec![Sensitivity {
                parameter: "SpecularPower",
                changed: scalar(8.0),
                region: [0, 0, 64, 64],
                min_fraction: 0.3,
            }]),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pixels Direct3D 9 drew (the d3d oracle: `d3d9render.exe compat_math_d3d9.fx out.pam
    /// LightDirection=0.6,0,-0.8 SpecularPower=3 RainDensity=1 -p X,Y`), fxc's `ps_2_0`.
    const DIRECT3D9: [((u32, u32), [u8; 4]); 7] = [
        ((2, 2), [55, 99, 165, 195]),
        ((10, 50), [27, 144, 142, 192]),
        ((30, 20), [163, 124, 126, 91]),
        ((40, 60), [26, 207, 183, 161]),
        ((60, 5), [220, 101, 142, 199]),
        ((33, 33), [98, 128, 131, 91]),
        ((20, 40), [178, 129, 135, 165]),
    ];

    /// The same for `compat_math_zero.fx` (`LightTile=3,5 Range=0.5`): the light's tile
    /// (24..32, 40..48), a neighbour, and far tiles.
    const DIRECT3D9_ZERO: [((u32, u32), [u8; 4]); 6] = [
        ((28, 44), [255, 255, 0, 0]),
        ((30, 40), [255, 255, 0, 0]),
        ((20, 44), [128, 128, 128, 64]),
        ((28, 36), [128, 128, 128, 64]),
        ((2, 2), [22, 4, 255, 255]),
        ((60, 60), [29, 6, 238, 255]),
    ];

    fn check(entry: Entry, direct3d9: &[((u32, u32), [u8; 4])]) {
        let reference = entry
            .render
            .check
            .reference
            .pixel_fn(Orientation::Backbuffer);
        for &((x, y), d3d9) in direct3d9 {
            let ours = reference(x, y).expect("no pixel is ambiguous");
            let ours = ours.map(|c| (c * 255.0).round() as u8);
            assert_eq!(ours, d3d9, "{} pixel {x},{y}", entry.file);
        }
    }

    #[test]
    fn the_references_are_what_direct3d9_draws() {
        check(math_d3d9(), &DIRECT3D9);
        check(math_zero(), &DIRECT3D9_ZERO);
    }
}
