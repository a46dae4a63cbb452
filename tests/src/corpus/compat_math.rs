//! Table entry of the maths Direct3D 9 defines where GLSL and WGSL leave it undefined: `pow`,
//! `log2`, `sqrt` and `rsqrt` of negatives, and fxc's expansion of whole-number exponents. The
//! reference computes as Direct3D 9 does (`pow`, `log`, `rsq` of `|x|`; an expanded `x^n` keeps
//! the sign of `x`), and was checked against Direct3D 9 itself (the d3d oracle's pixels, in the
//! test below).

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
    vec![math_d3d9()]
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

    #[test]
    fn the_reference_is_what_direct3d9_draws() {
        for ((x, y), d3d9) in DIRECT3D9 {
            let ours = (math_d3d9()
                .render
                .check
                .reference
                .pixel_fn(Orientation::Backbuffer))(x, y);
            let ours = ours
                .expect("no pixel is ambiguous")
                .map(|c| (c * 255.0).round() as u8);
            assert_eq!(ours, d3d9, "pixel {x},{y}");
        }
    }
}
