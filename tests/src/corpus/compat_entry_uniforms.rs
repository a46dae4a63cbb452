//! Table entries of `compat_decl_entry_uniforms.fx` (`uniform` entry parameters that the
//! `compile` statement leaves unbound are effect parameters named as fxc's constant table names
//! them) and `compat_decl_entry_overloads.fx` (the `compile` arguments pick the overload, as fxc
//! picks it, so no parameter is left unbound).

use super::math::sprite_pixel;
use super::textures::{Address, TextureSpec};
use super::*;
use shadowdusk::mgfx::SamplerType as ST;

const RECT: [f32; 4] = [8.0, 8.0, 48.0, 48.0];
const TINT: [u8; 4] = [255, 204, 153, 255];
const TEX: TextureSpec = TextureSpec::d2(8, 8, 41);
const EXPOSURE: f32 = 0.6;

pub(super) fn entries() -> Vec<Entry> {
    vec![entry_uniforms(), entry_overloads()]
}

fn entry_uniforms() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            TINT,
            |uv, tint| {
                let c = TEX.sample_2d(0, uv[0], uv[1], Address::Clamp, Address::Clamp)?;
                let rgb = |i: usize| (c[i] * tint[i] * EXPOSURE).clamp(0.0, 1.0).sqrt();
                Some([rgb(0), rgb(1), rgb(2), c[3] * tint[3]])
            },
            x,
            y,
        )
    }
    let samplers = || vec![sampler(0, ST::Sampler2D, "SpriteTexture")];
    let gamma = param(
        "$gammaCorrection",
        ParameterClass::Scalar,
        ParameterType::Bool,
        1,
        1,
    );
    Entry {
        file: "compat_decl_entry_uniforms.fx",
        concern: "unbound `uniform` entry parameters (`PS()`, `PS(false)`) are the effect parameters `$gammaCorrection` and `$exposure`",
        techniques: vec![
            technique("Graded", vec![ps_pass("P0", samplers())]),
            technique("Linear", vec![ps_pass("P0", samplers())]),
        ],
        parameters: vec![gamma, p_float("$exposure"), p_tex2d("SpriteTexture")],
        render: Render {
            technique: "Graded",
            values: vec![
                ("$gammaCorrection", scalar(1.0)),
                ("$exposure", scalar(EXPOSURE)),
            ],
            textures: vec![("SpriteTexture", TEX)],
            geometry: Geometry::Sprite {
                rect: RECT,
                color: TINT,
            },
            render_targets: 1,
            check: Check::reference(reference).with_sensitivities(vec![
                Sensitivity {
                    parameter: "$gammaCorrection",
                    changed: scalar(0.0),
                    region: [8, 8, 48, 48],
                    min_fraction: 0.5,
                },
                Sensitivity {
                    parameter: "$exposure",
                    changed: scalar(0.3),
                    region: [8, 8, 48, 48],
                    min_fraction: 0.5,
                },
            ]),
        },
    }
}

const BRIGHTNESS: f32 = 0.8;

fn entry_overloads() -> Entry {
    // `PS()` is `PS(VertexShaderOutput input)`, the overload without the gamma correction.
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            TINT,
            |uv, tint| {
                let c = TEX.sample_2d(0, uv[0], uv[1], Address::Clamp, Address::Clamp)?;
                let rgb = |i: usize| c[i] * tint[i] * BRIGHTNESS;
                Some([rgb(0), rgb(1), rgb(2), c[3] * tint[3]])
            },
            x,
            y,
        )
    }
    let samplers = || vec![sampler(0, ST::Sampler2D, "SpriteTexture")];
    Entry {
        file: "compat_decl_entry_overloads.fx",
        concern: "two overloads `PS(input, uniform bool gammaCorrection)` and `PS(input)`: `compile PS()` takes the second, `PS(true)` the first, as fxc chooses; no `$gammaCorrection` parameter",
        techniques: vec![
            technique("SpriteDrawing", vec![ps_pass("P0", samplers())]),
            technique("GammaCorrected", vec![ps_pass("P0", samplers())]),
        ],
        // As fxc's effect has them: no `$gammaCorrection`.
        parameters: vec![
            p_tex2d("SpriteTexture"),
            p_float("Brightness").with_default(&[1.0]),
        ],
        render: Render {
            technique: "SpriteDrawing",
            values: vec![("Brightness", scalar(BRIGHTNESS))],
            textures: vec![("SpriteTexture", TEX)],
            geometry: Geometry::Sprite {
                rect: RECT,
                color: TINT,
            },
            render_targets: 1,
            check: Check::reference(reference),
        },
    }
}
