//! A crate using ShadowDusk the way a game does: `include_effect!` on its own `shaders/`, built
//! with `#![deny(warnings)]` so any warning in generated code fails the workspace build.
//!
//! `build.rs` compiles `shaders/` with `shadowdusk_build::Builder`; the macros then take the
//! build script's artifacts. `main` (and the tests below) reads every embedded effect back with
//! `shadowdusk::mgfx::read` and checks that the typed items describe it (technique and pass
//! names, constant-buffer records and sizes, texture parameters), then draws one effect through
//! the typed GL API on a headless context with glam values as parameters and checks the pixels
//! (`draw.rs`).

#![deny(warnings)]

mod draw;
mod skinned;

use shadowdusk::include_effect;
use shadowdusk::mgfx::{self, ParameterClass};
use shadowdusk::params::EffectParams;
use shadowdusk::Effect;

include_effect!("shaders/template_tint.fx");
include_effect!("shaders/nez_grayscale.fx");
include_effect!("shaders/nez_sepia.fx");
include_effect!("shaders/nez_invert.fx");
include_effect!("shaders/nez_pixelate.fx");
include_effect!("shaders/nez_scanlines.fx");
include_effect!("shaders/nez_vignette.fx");
include_effect!("shaders/basic_lighting.fx");
include_effect!("shaders/include_lighting.fx");
include_effect!("shaders/cbuffer_shared.fx");
include_effect!("shaders/skinned_bones.fx");
include_effect!("shaders/matrix_2x2_3x3.fx");
include_effect!("shaders/ps_array_uniforms.fx");
include_effect!("shaders/int_bool_arrays.fx");
include_effect!("shaders/macros_technique.fx");
include_effect!("shaders/multi_texture_two.fx", name = two_layers);
// The same effect under two more names beside it: no collision, one used in the tests below,
// one never used, which must not warn under `#![deny(warnings)]`.
include_effect!("shaders/multi_texture_two.fx", name = layers_again);
include_effect!("shaders/multi_texture_two.fx", name = never_used_layers);
include_effect!("shaders/build_flavour.fx");
include_effect!("shaders/glam_quad.fx");
include_effect!("shaders/compat_decl_entry_uniforms.fx");
include_effect!("shaders/compat_reg_bones128.fx");
include_effect!("shaders/compat_sem_tangent_frame.fx");
include_effect!("shaders/compat_sem_vface_member.fx");
include_effect!("shaders/compat_sem_nointerpolation.fx");
include_effect!("shaders/compat_reach_unused_helpers.fx");
include_effect!("shaders/compat_index_dynamic_lanes.fx");
include_effect!("shaders/compat_decl_fxc_leniency.fx");
include_effect!("shaders/compat_glsl_depth_output.fx");
include_effect!("shaders/compat_smp_local_sampler.fx");
include_effect!("shaders/compat_lower_name_hygiene.fx");

/// What a generated module says about its effect, gathered through its typed items.
struct Typed<E: Effect> {
    name: &'static str,
    mgfx: &'static [u8],
    /// (technique name, pass names), in `Technique::ALL` order, with each variant's index.
    techniques: Vec<(usize, &'static str, &'static [&'static str])>,
    /// (technique index, pass index) of every `Technique::passes()` item, in order.
    passes: Vec<(usize, usize)>,
    params: E::Params,
    textures: Vec<usize>,
}

/// Checks one module against its own bytes; returns a line for the report.
fn check<E: Effect>(t: &Typed<E>) -> Result<String, String> {
    let e = mgfx::read(t.mgfx).map_err(|err| format!("{}: MGFX does not read: {err:?}", t.name))?;
    if E::MGFX != t.mgfx {
        return Err(format!("{}: Effect::MGFX is not MGFX", t.name));
    }
    let every_pass: Vec<(usize, usize)> = e
        .techniques
        .iter()
        .enumerate()
        .flat_map(|(i, tq)| (0..tq.passes.len()).map(move |p| (i, p)))
        .collect();
    if t.passes != every_pass {
        return Err(format!(
            "{}: typed passes {:?}, MGFX {every_pass:?}",
            t.name, t.passes
        ));
    }
    let names: Vec<(usize, &str, Vec<&str>)> = e
        .techniques
        .iter()
        .enumerate()
        .map(|(i, tq)| {
            let passes = tq.passes.iter().map(|p| p.name.as_str()).collect();
            (i, tq.name.as_str(), passes)
        })
        .collect();
    let typed: Vec<(usize, &str, Vec<&str>)> = t
        .techniques
        .iter()
        .map(|(i, n, p)| (*i, *n, p.to_vec()))
        .collect();
    if names != typed {
        return Err(format!("{}: techniques {typed:?}, MGFX {names:?}", t.name));
    }
    if t.params.constant_buffer_count() != e.constant_buffers.len() {
        return Err(format!(
            "{}: {} typed records, {} in MGFX",
            t.name,
            t.params.constant_buffer_count(),
            e.constant_buffers.len()
        ));
    }
    for (i, cb) in e.constant_buffers.iter().enumerate() {
        let regs = t.params.constant_buffer(i).map_or(0, <[_]>::len);
        if regs * 16 != cb.size as usize {
            return Err(format!(
                "{}: record {i} ({}) is {} bytes, typed {regs} registers",
                t.name, cb.name, cb.size
            ));
        }
    }
    // Every texture parameter a sampler reads must have its typed index.
    let mut mgfx_textures: Vec<usize> = e
        .shaders
        .iter()
        .flat_map(|s| s.samplers.iter().map(|sm| sm.parameter as usize))
        .collect();
    mgfx_textures.sort_unstable();
    mgfx_textures.dedup();
    let mut typed_textures = t.textures.clone();
    typed_textures.sort_unstable();
    for i in &typed_textures {
        if e.parameters.get(*i).map(|p| p.class) != Some(ParameterClass::Object) {
            return Err(format!(
                "{}: texture index {i} is not a texture parameter",
                t.name
            ));
        }
    }
    for i in &mgfx_textures {
        if !typed_textures.contains(i) {
            return Err(format!(
                "{}: sampled texture parameter {i} (`{}`) has no typed item",
                t.name, e.parameters[*i].name
            ));
        }
    }
    Ok(format!(
        "{:<20} {} technique(s), {} record(s), {} texture(s), {} bytes",
        t.name,
        t.techniques.len(),
        e.constant_buffers.len(),
        typed_textures.len(),
        t.mgfx.len()
    ))
}

macro_rules! typed {
    ($m:ident, [$($tex:ident),*]) => {
        check::<$m::Effect>(&Typed {
            name: stringify!($m),
            mgfx: $m::MGFX,
            techniques: $m::Technique::ALL
                .iter()
                .map(|t| (t.index(), t.name(), t.pass_names()))
                .collect(),
            passes: $m::Technique::ALL
                .iter()
                .flat_map(|t| t.passes())
                .map(|p| (p.technique_index(), p.index()))
                .collect(),
            params: $m::Params::default(),
            textures: vec![$($m::textures::$tex.parameter_index()),*],
        })
    };
}

/// Every effect's report line, or the first disagreement.
fn check_all() -> Result<Vec<String>, String> {
    Ok(vec![
        typed!(template_tint, [SPRITE_TEXTURE])?,
        typed!(nez_grayscale, [S0])?,
        typed!(nez_sepia, [S0])?,
        typed!(nez_invert, [S0])?,
        typed!(nez_pixelate, [S0])?,
        typed!(nez_scanlines, [S0])?,
        typed!(nez_vignette, [S0])?,
        typed!(basic_lighting, [TEXTURE])?,
        typed!(include_lighting, [NORMAL_MAP, S0])?,
        typed!(cbuffer_shared, [])?,
        typed!(skinned_bones, [])?,
        typed!(matrix_2x2_3x3, [TEXTURE_SAMPLER])?,
        typed!(ps_array_uniforms, [TEXTURE_SAMPLER])?,
        typed!(int_bool_arrays, [TEXTURE_SAMPLER])?,
        typed!(macros_technique, [TEXTURE, OVERLAY])?,
        typed!(two_layers, [BASE_TEXTURE, DETAIL_TEXTURE])?,
        typed!(build_flavour, [])?,
        typed!(glam_quad, [])?,
        typed!(compat_reg_bones128, [])?,
        typed!(compat_sem_tangent_frame, [])?,
        typed!(compat_sem_vface_member, [])?,
        typed!(compat_sem_nointerpolation, [S0])?,
        typed!(compat_reach_unused_helpers, [TEXTURE_SAMPLER])?,
        typed!(compat_index_dynamic_lanes, [TEXTURE_SAMPLER])?,
        typed!(compat_decl_fxc_leniency, [TEXTURE_SAMPLER])?,
        typed!(compat_glsl_depth_output, [TEXTURE_SAMPLER])?,
        typed!(compat_smp_local_sampler, [TEXTURE])?,
        typed!(
            compat_lower_name_hygiene,
            [DIFFUSE_TEXTURE, OVERLAY_TEXTURE]
        )?,
        typed!(compat_decl_entry_uniforms, [SPRITE_TEXTURE])?,
    ])
}

/// Draws through the typed API and checks the pixels; `Ok(None)` when this machine has no
/// headless GL and `SHADOWDUSK_REQUIRE_ALL=1` does not forbid skipping.
fn draw_and_check() -> Result<Option<String>, String> {
    let (x, y, w, h) = draw::QUAD;
    drawn(
        "glam_quad",
        draw::draw_quad(),
        draw::check,
        format!("drawn with glam parameters: {w}x{h} quad at ({x}, {y}) as expected"),
    )
}

/// Draws the skinned quad through the typed API (bones past register 256) and checks it.
fn draw_skinned_and_check() -> Result<Option<String>, String> {
    let (x, y, _, _) = skinned::QUAD;
    drawn(
        "compat_reg_bones128",
        skinned::draw_skinned(),
        skinned::check,
        format!("skinned by bones 120 and 127 of 128: quad at ({x}, {y}) as expected"),
    )
}

/// The report line of a checked draw, `Ok(None)` for a visible skip.
fn drawn(
    name: &str,
    pixels: Result<Vec<u8>, draw::Failure>,
    check: fn(&[u8]) -> Result<(), String>,
    line: String,
) -> Result<Option<String>, String> {
    match pixels {
        Ok(pixels) => check(&pixels).map(|()| Some(format!("{name:<20} {line}"))),
        Err(draw::Failure::NoGl(why)) => {
            if shadowdusk_testkit::required() {
                return Err(format!(
                    "headless GL unavailable ({}=1): {why}",
                    shadowdusk_testkit::REQUIRE_ALL
                ));
            }
            eprintln!("!!! SKIPPED drawing: headless GL unavailable: {why}");
            Ok(None)
        }
        Err(draw::Failure::Draw(e)) => Err(format!("drawing {name}: {e}")),
    }
}

fn main() {
    let run = || -> Result<_, String> {
        Ok((check_all()?, draw_and_check()?, draw_skinned_and_check()?))
    };
    match run() {
        Ok((lines, drawn, skinned)) => {
            for l in &lines {
                println!("{l}");
            }
            println!("{} effects: typed items agree with their MGFX", lines.len());
            for line in drawn.iter().chain(&skinned) {
                println!("{line}");
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_effect_agrees_with_its_mgfx() {
        let lines = super::check_all().unwrap_or_else(|e| panic!("{e}"));
        assert!(lines.len() >= 10);
    }

    /// The matrix-varying effect's typed setters write MonoGame's register image (register k =
    /// column k) into the vertex shader's record.
    #[test]
    fn tangent_frame_params_are_typed() {
        use shadowdusk::params::EffectParams;
        let mut p = super::compat_sem_tangent_frame::Params::default();
        p.set_world(glam::Mat4::from_cols_array_2d(&[
            [1.0, 2.0, 3.0, 4.0],
            [5.0, 6.0, 7.0, 8.0],
            [9.0, 10.0, 11.0, 12.0],
            [13.0, 14.0, 15.0, 16.0],
        ]));
        p.set_bump_scale(1.5);
        p.set_light_direction(glam::Vec3::new(0.0, 0.0, -1.0));
        let regs: Vec<[f32; 4]> = (0..p.constant_buffer_count())
            .filter_map(|i| p.constant_buffer(i))
            .flat_map(|r| r.iter().copied())
            .collect();
        assert!(regs.iter().any(|r| r[0] == 1.5), "{regs:?}");
        assert!(regs.iter().any(|r| r[2] == -1.0), "{regs:?}");
        // glam's column (1, 2, 3, 4) is HLSL's row 0 (`mul(v, M)`), so register 0 (HLSL
        // column 0) holds glam's first components.
        let first = regs.iter().position(|r| r[0] == 1.0);
        assert_eq!(
            first.map(|i| regs[i..i + 4].to_vec()),
            Some(vec![
                [1.0, 5.0, 9.0, 13.0],
                [2.0, 6.0, 10.0, 14.0],
                [3.0, 7.0, 11.0, 15.0],
                [4.0, 8.0, 12.0, 16.0]
            ]),
            "{regs:?}"
        );
    }

    /// `name = …` re-exports the build script's module: each name is a module of its own, with
    /// its own effect type, over the same bytes.
    #[test]
    fn one_effect_under_two_names_is_two_effects() {
        use shadowdusk::Effect;
        assert_eq!(super::layers_again::MGFX, super::two_layers::MGFX);
        assert_eq!(
            <super::layers_again::Effect as Effect>::NAME,
            <super::two_layers::Effect as Effect>::NAME
        );
        assert_ne!(
            std::any::TypeId::of::<super::layers_again::Effect>(),
            std::any::TypeId::of::<super::two_layers::Effect>()
        );
        let mut p = super::layers_again::Params::default();
        p.set_blend_amount(0.75);
        assert_eq!(p.blend_amount(), 0.75);
    }

    #[test]
    fn glam_parameters_draw_through_the_typed_api() {
        super::draw_and_check().unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn a_128_bone_palette_skins_through_the_typed_api() {
        super::draw_skinned_and_check().unwrap_or_else(|e| panic!("{e}"));
    }

    /// A uniform default folded from `normalize(...)` reaches the typed `Params`.
    #[test]
    fn folded_defaults_reach_the_typed_params() {
        let lum = super::compat_decl_fxc_leniency::Params::default().lum_coeff();
        let v = [0.3f32, 0.59, 0.11];
        let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        for k in 0..3 {
            assert!((lum[k] - v[k] / l).abs() < 1e-6, "{lum:?}");
        }
    }

    /// `uniform` entry parameters left unbound by `compile` are typed parameters like globals:
    /// `$exposure` is read by both techniques' shaders, `$gammaCorrection` by the first only.
    #[test]
    fn unbound_uniform_entry_parameters_are_typed_params() {
        use super::compat_decl_entry_uniforms::Params;
        let mut p = Params::default();
        p.set_gamma_correction(true);
        p.set_exposure(0.25);
        assert!(p.gamma_correction());
        assert_eq!(p.exposure(), 0.25);
        assert_eq!(
            p.ps_uniforms_vec4_0,
            [[1.0, 0.0, 0.0, 0.0], [0.25, 0.0, 0.0, 0.0]]
        );
        assert_eq!(p.ps_uniforms_vec4_1, [[0.25, 0.0, 0.0, 0.0]]);
        let names: Vec<String> = shadowdusk::mgfx::read(super::compat_decl_entry_uniforms::MGFX)
            .expect("MGFX reads back")
            .parameters
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(names, ["$gammaCorrection", "$exposure", "SpriteTexture"]);
    }

    /// `CONSUMER_BUILD_SCRIPT` is defined only by build.rs, so this default can only come from
    /// the build script's artifact, and the bytes are its `.mgfx` file.
    #[test]
    fn macros_use_the_build_script_artifacts() {
        assert_eq!(super::build_flavour::Params::default().flavour(), 2.0);
        let artifact = concat!(env!("OUT_DIR"), "/shadowdusk/shaders/build_flavour.mgfx");
        let bytes = std::fs::read(artifact).unwrap_or_else(|e| panic!("{artifact}: {e}"));
        assert_eq!(bytes, super::build_flavour::MGFX);
    }
}
