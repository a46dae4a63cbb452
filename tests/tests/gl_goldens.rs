//! Loads REAL mgfxc outputs (../shared/golden/shadowdusk-opengl) through `shadowdusk::gl` and
//! renders them on headless Mesa, comparing pixels with CPU formulas read off each golden's GLSL
//! (`python3 ../shared/tools/mgfx_dump.py FILE`). This proves the loader against mgfxc's own
//! files, independently of ShadowDusk's compiler.
//!
//! Skips loudly (never silently passes; fails under `SHADOWDUSK_REQUIRE_ALL=1`) when the goldens
//! or EGL are missing. A golden the MGFX reader refuses is a failure, never a skip.

use std::path::PathBuf;

use image::{Rgba, RgbaImage};
use shadowdusk::gl::{DynEffect, DynPass, GlTexture, RenderTarget};
use shadowdusk::mgfx::{self, VertexElementUsage};
use shadowdusk_tests::{
    draw_mesh, draw_sprite, max_channel_diff, save_png, solid, texture_2d, Fbo, Filter, Headless,
    Orientation, Sprite,
};

const SIZE: u32 = 8;
/// Technique 0, pass 0: every golden here has one of each.
const PASS_0: DynPass = DynPass {
    technique: 0,
    pass: 0,
};
/// 2×2 texels, top row first: red, green / blue, orange. Asymmetric in both axes, so an
/// upside-down or mirrored image cannot pass.
const TEXELS: [[u8; 4]; 4] = [
    [255, 0, 0, 255],
    [0, 255, 0, 255],
    [0, 0, 255, 255],
    [200, 100, 50, 255],
];

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/golden/shadowdusk-opengl")
}

/// The golden's bytes parsed, or `None` after [`shadowdusk_tests::skip`] when `../shared` has
/// no goldens at all. A golden that is missing from a present corpus, cannot be read, or that
/// `shadowdusk::mgfx::read` refuses fails the test: that is a reader bug or a lost file.
fn golden(test: &str, name: &str) -> Option<mgfx::Effect> {
    let dir = golden_dir();
    if !dir.is_dir() {
        shadowdusk_tests::skip(test, &format!("{} not found", dir.display()));
        return None;
    }
    let path = dir.join(name);
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{test}: golden {} not readable: {e}", path.display()));
    let effect = mgfx::read(&bytes)
        .unwrap_or_else(|e| panic!("{test}: shadowdusk::mgfx::read({name}) returned Err: {e}"));
    Some(effect)
}

fn setup(test: &str, name: &str) -> Option<(Headless, DynEffect)> {
    let effect = golden(test, name)?;
    let h = Headless::or_skip(test, SIZE, SIZE)?;
    let fx = match DynEffect::from_effect(h.ctx(), effect) {
        Ok(fx) => fx,
        Err(e) => panic!("{test}: loading {name} failed: {e}"),
    };
    Some((h, fx))
}

fn texels_rgba() -> Vec<u8> {
    TEXELS.iter().flatten().copied().collect()
}

fn unit(v: u8) -> f32 {
    v as f32 / 255.0
}

fn to_u8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Expected image of a sprite at (x, y, w, h) sampling TEXELS with point sampling, each texel
/// passed through `shade`; `background` elsewhere.
fn expected_sprite(
    rect: (u32, u32, u32, u32),
    background: [u8; 4],
    shade: &dyn Fn([u8; 4]) -> [u8; 4],
) -> RgbaImage {
    let (sx, sy, w, h) = rect;
    let mut img = solid(SIZE, SIZE, background);
    for y in sy..sy + h {
        for x in sx..sx + w {
            let col = ((x - sx) * 2) / w;
            let row = ((y - sy) * 2) / h;
            img.put_pixel(x, y, Rgba(shade(TEXELS[(row * 2 + col) as usize])));
        }
    }
    img
}

fn check(test: &str, actual: &RgbaImage, expected: &RgbaImage, tolerance: u8) {
    let diff = max_channel_diff(actual, expected);
    if diff > tolerance {
        let a = save_png(actual, &format!("{test}-actual.png"));
        let e = save_png(expected, &format!("{test}-expected.png"));
        panic!(
            "{test}: max channel difference {diff} > {tolerance}\nactual: {:?}\nexpected: {:?}\n\
             actual pixels: {:?}\nexpected pixels: {:?}",
            a,
            e,
            actual.pixels().map(|p| p.0).collect::<Vec<_>>(),
            expected.pixels().map(|p| p.0).collect::<Vec<_>>()
        );
    }
}

/// The texture parameter of the pixel shader's first sampler.
fn first_sampler_param(fx: &DynEffect) -> usize {
    let pass = &fx.effect().techniques[0].passes[0];
    let ps = &fx.effect().shaders[pass.pixel_shader as usize];
    ps.samplers[0].parameter as usize
}

/// Draws one sprite of the whole target with technique 0 pass 0 into the back buffer or an FBO
/// and reads it back top-down.
fn render_sprite(
    h: &Headless,
    fx: &mut DynEffect,
    orientation: Orientation,
    sprite: &Sprite,
    clear: [u8; 4],
) -> RgbaImage {
    let fbo = match orientation {
        Orientation::Backbuffer => None,
        Orientation::RenderTarget => {
            let f = Fbo::new(h.ctx(), SIZE, SIZE).expect("FBO");
            f.bind();
            Some(f)
        }
    };
    h.clear(clear);
    let target: RenderTarget = h.target(orientation);
    let applied = fx.apply(PASS_0, &target).expect("apply");
    draw_sprite(h.ctx(), &applied, sprite).expect("draw");
    let img = h.read_rgba(orientation);
    if fbo.is_some() {
        Fbo::unbind(h.ctx(), SIZE, SIZE);
    }
    img
}

/// A PS-only golden drawn over the whole target with the built-in SpriteBatch vertex shader,
/// in both orientations, against `shade` applied to each texel.
fn ps_only_golden(
    test: &str,
    name: &str,
    configure: &dyn Fn(&mut DynEffect),
    shade: &dyn Fn([u8; 4]) -> [u8; 4],
) {
    let Some((h, mut fx)) = setup(test, name) else {
        return;
    };
    let tex = texture_2d(h.ctx(), 2, 2, &texels_rgba(), Filter::Nearest).unwrap();
    let param = first_sampler_param(&fx);
    fx.set_texture(param, Some(&tex)).unwrap();
    configure(&mut fx);
    let expected = expected_sprite((0, 0, SIZE, SIZE), [0, 0, 0, 255], shade);
    for orientation in [Orientation::Backbuffer, Orientation::RenderTarget] {
        let sprite = Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32);
        let img = render_sprite(&h, &mut fx, orientation, &sprite, [0, 0, 0, 255]);
        check(&format!("{test}-{orientation:?}"), &img, &expected, 2);
    }
}

#[test]
fn tint_shader_ps_only_both_orientations() {
    let tint = [0.5, 1.0, 0.25, 1.0];
    ps_only_golden(
        "tint_shader",
        "TintShader.mgfx",
        &|fx| {
            let p = fx.parameter("TintColor").expect("TintColor");
            fx.set_values(p, &tint).unwrap();
        },
        &|t| std::array::from_fn(|i| to_u8(unit(t[i]) * tint[i])),
    );
}

#[test]
fn grayscale_ps_only() {
    // ps_r0.x = (r*cr + g*cg) + b*cb; rgb = x * 0.333333; a = a*ca (vertex colour white).
    ps_only_golden("grayscale", "Grayscale.mgfx", &|_| {}, &|t| {
        let g = (unit(t[0]) + unit(t[1]) + unit(t[2])) * 0.333333;
        [to_u8(g), to_u8(g), to_u8(g), t[3]]
    });
}

#[test]
fn sepia_ps_only() {
    let tone = [1.0, 0.8, 0.6];
    // x = dot(rgb, (0.3, 0.59, 0.11)); rgb = x * _sepiaTone; a = a.
    ps_only_golden(
        "sepia",
        "Sepia.mgfx",
        &|fx| {
            let p = fx.parameter("_sepiaTone").expect("_sepiaTone");
            fx.set_values(p, &tone).unwrap();
        },
        &|t| {
            let x = unit(t[0]) * 0.3 + unit(t[1]) * 0.59 + unit(t[2]) * 0.11;
            [
                to_u8(x * tone[0]),
                to_u8(x * tone[1]),
                to_u8(x * tone[2]),
                t[3],
            ]
        },
    );
}

#[test]
fn invert_ps_only() {
    // (tex*color) * (-1,-1,-1,1) + (1,1,1,0).
    ps_only_golden("invert", "Invert.mgfx", &|_| {}, &|t| {
        [255 - t[0], 255 - t[1], 255 - t[2], t[3]]
    });
}

#[test]
fn state_blend_additive_blends_onto_the_target() {
    let test = "state_blend_additive";
    let Some((h, mut fx)) = setup(test, "StateBlendAdditive.mgfx") else {
        return;
    };
    let tex = texture_2d(h.ctx(), 2, 2, &texels_rgba(), Filter::Nearest).unwrap();
    fx.set_texture(first_sampler_param(&fx), Some(&tex))
        .unwrap();
    let dst = [40u8, 80, 120, 255];
    // out = (tex.rgb * color.rgb, 0.5); SrcAlpha/One Add for colour and alpha.
    let expected = expected_sprite((0, 0, SIZE, SIZE), dst, &|t| {
        let mut o = [0u8; 4];
        for i in 0..3 {
            o[i] = to_u8(unit(t[i]) * 0.5 + unit(dst[i]));
        }
        o[3] = to_u8(0.5 * 0.5 + unit(dst[3]));
        o
    });
    let sprite = Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32);
    let img = render_sprite(&h, &mut fx, Orientation::Backbuffer, &sprite, dst);
    check(test, &img, &expected, 2);
}

#[test]
fn sampler_states_full_point_filter_overrides_a_linear_texture() {
    let test = "sampler_states_full";
    let Some((h, mut fx)) = setup(test, "SamplerStatesFull.mgfx") else {
        return;
    };
    // The texture itself is left LINEAR: only the baked Point state can make the quadrants flat.
    let detail = texture_2d(h.ctx(), 2, 2, &texels_rgba(), Filter::Linear).unwrap();
    let red: Vec<u8> = [255u8, 0, 0, 255].repeat(4);
    // ps_s1 is Anisotropic with a red border: a red texture makes its contribution constant.
    let border_red = texture_2d(h.ctx(), 2, 2, &red, Filter::Linear).unwrap();
    let sprite_tex = fx.parameter("SpriteTexture").expect("SpriteTexture");
    let detail_tex = fx.parameter("DetailTexture").expect("DetailTexture");
    fx.set_texture(sprite_tex, Some(&detail)).unwrap();
    fx.set_texture(detail_tex, Some(&border_red)).unwrap();
    // out = (s1*0.25 + s0*0.75) * color.
    let shade = |t: [u8; 4]| -> [u8; 4] {
        std::array::from_fn(|i| {
            let s1 = [1.0, 0.0, 0.0, 1.0][i];
            to_u8(s1 * 0.25 + unit(t[i]) * 0.75)
        })
    };
    let expected = expected_sprite((0, 0, SIZE, SIZE), [0, 0, 0, 255], &shade);
    let sprite = Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32);
    let img = render_sprite(
        &h,
        &mut fx,
        Orientation::Backbuffer,
        &sprite,
        [0, 0, 0, 255],
    );
    check(test, &img, &expected, 2);

    // Control: the same linear texture through a golden without a baked state is blended, so
    // this test can tell point from linear filtering.
    let Some(tint) = golden(test, "TintShader.mgfx") else {
        return;
    };
    let mut plain = DynEffect::from_effect(h.ctx(), tint).expect("TintShader");
    let p = plain.parameter("TintColor").unwrap();
    plain.set_values(p, &[1.0; 4]).unwrap();
    let t = first_sampler_param(&plain);
    let linear = texture_2d(h.ctx(), 2, 2, &texels_rgba(), Filter::Linear).unwrap();
    plain.set_texture(t, Some(&linear)).unwrap();
    let blended = render_sprite(
        &h,
        &mut plain,
        Orientation::Backbuffer,
        &sprite,
        [0, 0, 0, 255],
    );
    let point = expected_sprite((0, 0, SIZE, SIZE), [0, 0, 0, 255], &|t| t);
    assert!(
        max_channel_diff(&blended, &point) > 20,
        "{test}: linear filtering was expected to blend texels; the control is not observable"
    );
}

#[test]
fn vs_transform_color_texture_places_the_quad_by_the_matrix() {
    let test = "vs_transform_color_texture";
    let Some((h, mut fx)) = setup(test, "VsTransformColorTexture.mgfx") else {
        return;
    };
    let tex = texture_2d(h.ctx(), 2, 2, &texels_rgba(), Filter::Nearest).unwrap();
    fx.set_texture(fx.parameter("SpriteTexture").unwrap(), Some(&tex))
        .unwrap();
    // v' = v * M with M = scale(1, 0.5) then translate(-1, 0): a unit quad lands on clip
    // x ∈ [-1, 0], y ∈ [0, 0.5], i.e. the left half, rows 2..4 from the top of an 8×8 target.
    // A transposed read would move the translation into w and land elsewhere.
    let mut m = [[0.0f32; 4]; 4];
    m[0][0] = 1.0;
    m[1][1] = 0.5;
    m[2][2] = 1.0;
    m[3][3] = 1.0;
    m[3][0] = -1.0;
    m[3][1] = 0.0;
    fx.set_matrix(fx.parameter("WorldViewProjection").unwrap(), m)
        .unwrap();
    let tint = [1.0, 0.5, 0.25, 1.0];
    fx.set_values(fx.parameter("Tint").unwrap(), &tint).unwrap();
    // Unit quad, texture coordinate (0,0) at the top-left corner (y = 1).
    let positions = [0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    let colors = [1.0f32; 16];
    let uvs = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0];
    let indices = [0u16, 1, 2, 1, 3, 2];
    // Top-down rows 2..4 → the quad is 4 wide and 2 tall, so each texel covers 2×1 pixels.
    let expected = expected_sprite((0, 2, 4, 2), [0, 0, 0, 255], &|t| {
        std::array::from_fn(|i| to_u8(unit(t[i]) * tint[i]))
    });
    for orientation in [Orientation::Backbuffer, Orientation::RenderTarget] {
        let fbo = (orientation == Orientation::RenderTarget).then(|| {
            let f = Fbo::new(h.ctx(), SIZE, SIZE).expect("FBO");
            f.bind();
            f
        });
        h.clear([0, 0, 0, 255]);
        let applied = fx.apply(PASS_0, &h.target(orientation)).expect("apply");
        draw_mesh(
            h.ctx(),
            &applied,
            &[
                (VertexElementUsage::Position, 0, 3, &positions),
                (VertexElementUsage::Color, 0, 4, &colors),
                (VertexElementUsage::TextureCoordinate, 0, 2, &uvs),
            ],
            &indices,
        )
        .expect("draw");
        let img = h.read_rgba(orientation);
        if fbo.is_some() {
            Fbo::unbind(h.ctx(), SIZE, SIZE);
        }
        check(&format!("{test}-{orientation:?}"), &img, &expected, 2);
    }
}

#[test]
fn sprite_effect_golden_vs_and_ps() {
    let test = "sprite_effect";
    let Some((h, mut fx)) = setup(test, "SpriteEffect.mgfx") else {
        return;
    };
    let tex: GlTexture = texture_2d(h.ctx(), 2, 2, &texels_rgba(), Filter::Nearest).unwrap();
    fx.set_texture(fx.parameter("Texture").unwrap(), Some(&tex))
        .unwrap();
    let transform = shadowdusk::gl::sprite_vs::default_transform(SIZE, SIZE, false);
    fx.set_matrix(fx.parameter("MatrixTransform").unwrap(), transform)
        .unwrap();
    let color = [255u8, 128, 64, 255];
    let expected = expected_sprite((2, 4, 4, 2), [10, 20, 30, 255], &|t| {
        std::array::from_fn(|i| to_u8(unit(t[i]) * unit(color[i])))
    });
    for orientation in [Orientation::Backbuffer, Orientation::RenderTarget] {
        let mut sprite = Sprite::new(2.0, 4.0, 4.0, 2.0);
        sprite.color = color;
        let img = render_sprite(&h, &mut fx, orientation, &sprite, [10, 20, 30, 255]);
        check(&format!("{test}-{orientation:?}"), &img, &expected, 2);
    }
}

#[test]
fn wrong_profile_is_refused() {
    let test = "wrong_profile";
    let Some(mut effect) = golden(test, "TintShader.mgfx") else {
        return;
    };
    let Some(h) = Headless::or_skip(test, 4, 4) else {
        return;
    };
    effect.profile = mgfx::Profile::DirectX11;
    let err = DynEffect::from_effect(h.ctx(), effect).expect_err("must fail");
    assert!(
        matches!(err, shadowdusk::gl::GlError::WrongProfile(_)),
        "{err}"
    );
}

#[test]
fn broken_glsl_reports_technique_pass_and_log() {
    let test = "broken_glsl";
    let Some(mut effect) = golden(test, "TintShader.mgfx") else {
        return;
    };
    let Some(h) = Headless::or_skip(test, 4, 4) else {
        return;
    };
    effect.shaders[0].code = b"void main() { gl_FragColor = undefined_thing; }".to_vec();
    let err = DynEffect::from_effect(h.ctx(), effect).expect_err("must fail");
    let text = err.to_string();
    assert!(
        text.contains("TintedSpriteDrawing") && text.contains("P0"),
        "{text}"
    );
    assert!(
        text.contains("undefined_thing"),
        "driver log missing: {text}"
    );
}

/// Effects built in code for what no golden isolates: cube and volume samplers, arrays and a
/// 4×3 matrix through the register model.
mod hand_built {
    use super::*;
    use shadowdusk::mgfx::{ParameterClass, SamplerState, SamplerType, TextureFilter};
    use shadowdusk_tests::effect_builder::{
        ps_cbuffer, ps_only_effect, sampler, texture_param, value_param,
    };
    use shadowdusk_tests::{texture_3d, texture_cube};

    fn halves(left: [u8; 4], right: [u8; 4]) -> RgbaImage {
        RgbaImage::from_fn(SIZE, SIZE, |x, _| {
            Rgba(if x < SIZE / 2 { left } else { right })
        })
    }

    fn render(h: &Headless, fx: &mut DynEffect) -> RgbaImage {
        let sprite = Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32);
        render_sprite(h, fx, Orientation::Backbuffer, &sprite, [0, 0, 0, 255])
    }

    #[test]
    fn cube_sampler_binds_a_cube_map_with_its_baked_state() {
        let test = "cube_sampler";
        let Some(h) = Headless::or_skip(test, SIZE, SIZE) else {
            return;
        };
        let glsl = "uniform samplerCube ps_s0;\nvarying vec4 vTexCoord0;\nvoid main()\n{\n\
                    gl_FragColor = vTexCoord0.x < 0.5 ? textureCube(ps_s0, vec3(1.0, 0.0, 0.0))\n\
                    : textureCube(ps_s0, vec3(0.0, -1.0, 0.0));\n}\n";
        let state = SamplerState {
            filter: TextureFilter::Point,
            ..SamplerState::default()
        };
        let effect = ps_only_effect(
            glsl,
            vec![sampler(SamplerType::SamplerCube, 0, 0, Some(state))],
            vec![],
            vec![texture_param("Env", SamplerType::SamplerCube)],
        );
        let mut fx = DynEffect::from_effect(h.ctx(), effect).expect("load");
        let colors: [[u8; 4]; 6] = [
            [255, 0, 0, 255],
            [0, 255, 0, 255],
            [0, 0, 255, 255],
            [255, 255, 0, 255],
            [0, 255, 255, 255],
            [255, 0, 255, 255],
        ];
        let faces: Vec<Vec<u8>> = colors.iter().map(|c| c.repeat(4)).collect();
        let f: [&[u8]; 6] = std::array::from_fn(|i| faces[i].as_slice());
        let cube = texture_cube(h.ctx(), 2, f, Filter::Linear).unwrap();
        // A 2D texture on a cube sampler is refused instead of sampling black.
        let flat = texture_2d(h.ctx(), 1, 1, &[0; 4], Filter::Nearest).unwrap();
        fx.set_texture(0, Some(&flat)).unwrap();
        let err = fx
            .apply(PASS_0, &h.target(Orientation::Backbuffer))
            .unwrap_err();
        assert!(
            matches!(err, shadowdusk::gl::GlError::TextureTarget { .. }),
            "{err}"
        );
        fx.set_texture(0, Some(&cube)).unwrap();
        let img = render(&h, &mut fx);
        // +X is face 0, -Y is face 3.
        check(test, &img, &halves(colors[0], colors[3]), 1);
    }

    #[test]
    fn volume_sampler_binds_a_3d_texture() {
        let test = "volume_sampler";
        let Some(h) = Headless::or_skip(test, SIZE, SIZE) else {
            return;
        };
        let glsl = "uniform sampler3D ps_s0;\nvarying vec4 vTexCoord0;\nvoid main()\n{\n\
                    gl_FragColor = texture3D(ps_s0, vec3(0.5, 0.5, vTexCoord0.x < 0.5 ? 0.25 : 0.75));\n}\n";
        let effect = ps_only_effect(
            glsl,
            vec![sampler(SamplerType::SamplerVolume, 0, 0, None)],
            vec![],
            vec![texture_param("Volume", SamplerType::SamplerVolume)],
        );
        let mut fx = DynEffect::from_effect(h.ctx(), effect).expect("load");
        let (a, b) = ([10u8, 200, 30, 255], [250u8, 120, 5, 255]);
        let data: Vec<u8> = a.iter().chain(b.iter()).copied().collect();
        let vol = texture_3d(h.ctx(), 1, 1, 2, &data, Filter::Nearest).unwrap();
        fx.set_texture(0, Some(&vol)).unwrap();
        check(test, &render(&h, &mut fx), &halves(a, b), 1);
    }

    #[test]
    fn arrays_and_4x3_matrices_reach_their_registers() {
        let test = "array_and_4x3";
        let Some(h) = Headless::or_skip(test, SIZE, SIZE) else {
            return;
        };
        // Colors: float4[2] at registers 0–1; M: float4x3 at registers 2–4 (one per column).
        let glsl = "uniform vec4 ps_uniforms_vec4[5];\nvarying vec4 vTexCoord0;\nvoid main()\n{\n\
                    gl_FragColor = vTexCoord0.x < 0.5 ? ps_uniforms_vec4[1] : ps_uniforms_vec4[3];\n}\n";
        let effect = ps_only_effect(
            glsl,
            vec![],
            vec![ps_cbuffer(80, &[(0, 0), (1, 32)])],
            vec![
                value_param("Colors", ParameterClass::Vector, 1, 4, 2),
                value_param("M", ParameterClass::Matrix, 4, 3, 0),
            ],
        );
        let mut fx = DynEffect::from_effect(h.ctx(), effect).expect("load");
        fx.set_values(0, &[0.1, 0.2, 0.3, 0.4, 0.8, 0.6, 0.4, 1.0])
            .unwrap();
        // Register 3 = column 1 of M = (M12, M22, M32, M42); everything else is a decoy.
        let mut m = [[0.9f32; 4]; 4];
        for (r, v) in [0.2, 0.4, 0.6, 1.0].into_iter().enumerate() {
            m[r][1] = v;
        }
        fx.set_matrix(1, m).unwrap();
        let expected = halves([204, 153, 102, 255], [51, 102, 153, 255]);
        check(test, &render(&h, &mut fx), &expected, 1);
    }
}

#[test]
fn state_rasterizer_culls_clockwise_sprites_in_both_orientations() {
    let test = "state_rasterizer";
    let Some(effect) = golden(test, "StateRasterizer.mgfx") else {
        return;
    };
    let Some(h) = Headless::or_skip(test, SIZE, SIZE) else {
        return;
    };
    let background = [10u8, 20, 30, 255];
    let drawn = expected_sprite((0, 0, SIZE, SIZE), background, &|t| t);
    let empty = solid(SIZE, SIZE, background);
    // SpriteBatch's quads (TL, TR, BL / TR, BR, BL) are clockwise on screen: the golden's
    // CullMode = CW removes them, CCW keeps them. A render target flips y through posFixup, so
    // this only holds in both orientations if the front face flips with it.
    for (cull, expected) in [
        (mgfx::CullMode::CullClockwiseFace, &empty),
        (mgfx::CullMode::CullCounterClockwiseFace, &drawn),
    ] {
        let mut e = effect.clone();
        if let Some(r) = e.techniques[0].passes[0].rasterizer.as_mut() {
            r.cull_mode = cull;
        }
        let mut fx = DynEffect::from_effect(h.ctx(), e).expect("load");
        let tex = texture_2d(h.ctx(), 2, 2, &texels_rgba(), Filter::Nearest).unwrap();
        fx.set_texture(first_sampler_param(&fx), Some(&tex))
            .unwrap();
        for orientation in [Orientation::Backbuffer, Orientation::RenderTarget] {
            let sprite = Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32);
            let img = render_sprite(&h, &mut fx, orientation, &sprite, background);
            check(
                &format!("{test}-{cull:?}-{orientation:?}"),
                &img,
                expected,
                1,
            );
        }
    }
}

#[test]
fn state_depth_stencil_tests_and_updates_the_stencil() {
    let test = "state_depth_stencil";
    let Some((h, mut fx)) = setup(test, "StateDepthStencil.mgfx") else {
        return;
    };
    let tex = texture_2d(h.ctx(), 2, 2, &texels_rgba(), Filter::Nearest).unwrap();
    fx.set_texture(first_sampler_param(&fx), Some(&tex))
        .unwrap();
    let background = [10u8, 20, 30, 255];
    let target = h.target(Orientation::Backbuffer);
    let mut sprite = Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32);
    // StencilFunction Equal, reference 1: a stencil of 0 rejects everything.
    h.clear_with(background, 0);
    let applied = fx.apply(PASS_0, &target).expect("apply");
    draw_sprite(h.ctx(), &applied, &sprite).expect("draw");
    check(
        &format!("{test}-stencil0"),
        &h.read_rgba(Orientation::Backbuffer),
        &solid(SIZE, SIZE, background),
        1,
    );
    // A stencil of 1 passes; StencilPass IncrementSaturation then makes it 2, so a second,
    // black sprite is rejected and the first one stays visible.
    h.clear_with(background, 1);
    let applied = fx.apply(PASS_0, &target).expect("apply");
    draw_sprite(h.ctx(), &applied, &sprite).expect("draw");
    sprite.color = [0, 0, 0, 255];
    draw_sprite(h.ctx(), &applied, &sprite).expect("draw");
    let drawn = expected_sprite((0, 0, SIZE, SIZE), background, &|t| t);
    check(
        &format!("{test}-stencil1"),
        &h.read_rgba(Orientation::Backbuffer),
        &drawn,
        1,
    );
}

/// A register image in the shape of the TintShader golden's one record (`ps_uniforms_vec4[1]`),
/// standing in for a generated `Params`.
struct TintRegisters([[f32; 4]; 1]);

impl shadowdusk::params::EffectParams for TintRegisters {
    fn constant_buffer(&self, record: usize) -> Option<&[[f32; 4]]> {
        (record == 0).then_some(&self.0[..])
    }
    fn constant_buffer_count(&self) -> usize {
        1
    }
}

/// Too many records: parameters generated for some other effect.
struct OtherEffectRegisters([[f32; 4]; 2]);

impl shadowdusk::params::EffectParams for OtherEffectRegisters {
    fn constant_buffer(&self, record: usize) -> Option<&[[f32; 4]]> {
        (record < 2).then_some(&self.0[..])
    }
    fn constant_buffer_count(&self) -> usize {
        2
    }
}

#[test]
fn typed_params_replace_the_parameter_values_until_cleared() {
    let test = "typed_params";
    let Some((h, mut fx)) = setup(test, "TintShader.mgfx") else {
        return;
    };
    let tex = texture_2d(h.ctx(), 2, 2, &texels_rgba(), Filter::Nearest).unwrap();
    let param = first_sampler_param(&fx);
    fx.set_texture(param, Some(&tex)).unwrap();
    let by_value = [0.25, 0.5, 1.0, 1.0];
    fx.set_values(fx.parameter("TintColor").unwrap(), &by_value)
        .unwrap();
    let typed = [1.0, 0.0, 0.5, 1.0];
    fx.set_params(&TintRegisters([typed])).unwrap();
    let sprite = Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32);
    for (tint, label) in [(typed, "typed"), (by_value, "cleared")] {
        let expected = expected_sprite((0, 0, SIZE, SIZE), [0, 0, 0, 255], &|t| {
            std::array::from_fn(|i| to_u8(unit(t[i]) * tint[i]))
        });
        let img = render_sprite(
            &h,
            &mut fx,
            Orientation::Backbuffer,
            &sprite,
            [0, 0, 0, 255],
        );
        check(&format!("{test}-{label}"), &img, &expected, 2);
        fx.clear_params();
    }
    let err = fx
        .set_params(&OtherEffectRegisters([[0.0; 4]; 2]))
        .expect_err("a record count mismatch must be refused");
    assert!(err.to_string().contains("another effect"), "{err}");
}
