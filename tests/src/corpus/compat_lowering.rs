//! Table entries of the `compat_*` effects whose habits the lowering stage resolves: local
//! sampler variables, user names that collide with the names the lowering generates, and
//! `uniform` entry parameters the `compile` statement leaves unbound. Each has a CPU reference
//! of its maths.

use super::compat_effects::{map4, point_clamp_no_mips, sample, sprite_entry, RECT};
use super::math::{lerp, sprite_pixel};
use super::textures::TextureSpec;
use super::*;
use shadowdusk::mgfx::SamplerType as ST;

const WHITE: [u8; 4] = [255, 255, 255, 255];
const TEX8: TextureSpec = TextureSpec::d2(8, 8, 41);
const OVERLAY: TextureSpec = TextureSpec::d2(8, 8, 42);

pub(super) fn entries() -> Vec<Entry> {
    vec![smp_local_sampler(), lower_name_hygiene()]
}

const INV_VIEWPORT: [f32; 2] = [1.0 / 8.0, 1.0 / 8.0];
const SHARPNESS: f32 = 0.35;

fn smp_local_sampler() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let m = sample(&TEX8, uv)?;
                let n = sample(&TEX8, [uv[0], uv[1] - INV_VIEWPORT[1]])?;
                Some(map4(|i| lerp(m[i], n[i], SHARPNESS)))
            },
            x,
            y,
        )
    }
    let s0 = || vec![sampler(0, ST::Sampler2D, "Texture").baked(point_clamp_no_mips())];
    sprite_entry(
        "compat_smp_local_sampler.fx",
        "FXAA 3.11 HLSL_3 local `FxaaTex tex; tex = TextureSampler;` handed to tex2Dlod helpers",
        vec![
            technique("FXAA", vec![ps_pass("P0", s0())]),
            technique("Direct", vec![ps_pass("P0", s0())]),
        ],
        vec![
            p_vec("InverseViewportSize", 2),
            p_float("EdgeSharpness").with_default(&[0.5]),
            p_tex2d("Texture"),
        ],
        vec![
            ("InverseViewportSize", vector(&INV_VIEWPORT)),
            ("EdgeSharpness", scalar(SHARPNESS)),
        ],
        vec![("Texture", TEX8)],
        WHITE,
        Check::reference(reference),
    )
}

const AMOUNT: f32 = 0.3;

fn lower_name_hygiene() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let d = sample(&TEX8, uv)?;
                let o = sample(&OVERLAY, uv)?;
                // `Amount = saturate(Amount * 2.0)` writes the copy; `Tint`'s own `Amount` is 0.5.
                let amount = (AMOUNT * 2.0).clamp(0.0, 1.0);
                Some(map4(|i| lerp(d[i], o[i] * 0.5, amount * 0.5)))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_lower_name_hygiene.fx",
        "a local `float4 diffuseTexture` beside `texture diffuseTexture`, parameters named like a texture and a written uniform",
        vec![technique(
            "Hygiene",
            vec![ps_pass(
                "P0",
                vec![
                    sampler(0, ST::Sampler2D, "diffuseTexture").baked(point_clamp_no_mips()),
                    sampler(1, ST::Sampler2D, "overlayTexture").baked(point_clamp_no_mips()),
                ],
            )],
        )],
        vec![
            p_float("Amount").with_default(&[0.5]),
            p_tex2d("diffuseTexture"),
            p_tex2d("overlayTexture"),
        ],
        vec![("Amount", scalar(AMOUNT))],
        vec![("diffuseTexture", TEX8), ("overlayTexture", OVERLAY)],
        WHITE,
        Check::reference(reference),
    )
}
