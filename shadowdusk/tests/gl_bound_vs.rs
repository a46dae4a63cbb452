//! A pass without a vertex shader draws with the vertex shader bound on the context, as
//! MonoGame's GL runtime draws it (Mesa through `gl::headless`):
//! - the vertex shader of the last pass applied, of this effect or another of the context,
//!   with the registers it was applied with;
//! - SpriteBatch's when nothing else was bound, after `SpriteBatch::begin`, or once the effect
//!   whose vertex shader was bound is dropped or replaced (hot reload);
//! - the (vertex, pixel) pair is linked when applied; a pair that cannot link is an error
//!   there, naming both shaders, and the effect still loads.

#![cfg(feature = "headless")]

use glow::HasContext;
use shadowdusk::gl::headless::HeadlessGl;
use shadowdusk::gl::{sprite_vs, GlContext, GlEffect, GlError, RenderTarget, Sprite, SpriteBatch};
use shadowdusk::params::Matrix;

shadowdusk::include_effect!("tests/bound_vs/rim.fx", in_process);

const SIZE: u32 = 4;
/// The sprites' vertex colour.
const GRAY: [u8; 4] = [64, 64, 64, 255];

fn context(test: &str) -> Option<HeadlessGl> {
    match HeadlessGl::new(SIZE, SIZE) {
        Ok(h) => Some(h),
        Err(e) => {
            shadowdusk_testkit::skip(test, &format!("headless OpenGL unavailable: {e}"));
            None
        }
    }
}

/// The effect; its `MainVS` maps pixels to clip space as SpriteBatch does (`project`), or
/// everything to the origin (nothing drawn).
fn effect(ctx: &GlContext, project: bool) -> GlEffect<rim::Effect> {
    let mut fx = GlEffect::<rim::Effect>::new(ctx).expect("an effect with a pixel-only pass loads");
    let m = if project {
        sprite_vs::default_transform(SIZE, SIZE, false)
    } else {
        [[0.0; 4]; 4]
    };
    fx.params_mut()
        .set_world_view_projection(Matrix::from_rows(m));
    fx
}

fn quad() -> [Sprite; 1] {
    [Sprite {
        color: GRAY,
        ..Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32)
    }]
}

fn clear(ctx: &GlContext) {
    // SAFETY: state calls on the current context.
    unsafe {
        let gl = ctx.glow();
        gl.disable(glow::BLEND);
        gl.clear_color(0.0, 0.0, 0.0, 0.0);
        gl.clear(glow::COLOR_BUFFER_BIT);
    }
}

/// RGBA of pixel (x, y), top row first.
fn pixel(ctx: &GlContext, screen: &RenderTarget, x: u32, y: u32) -> [u8; 4] {
    let rgba = screen.read_rgba8(ctx).unwrap();
    let at = ((y * SIZE + x) * 4) as usize;
    rgba[at..at + 4].try_into().unwrap()
}

fn near(got: [u8; 4], want: [u8; 4]) -> bool {
    got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 1)
}

#[test]
fn the_second_pass_draws_with_the_first_pass_vertex_shader() {
    let Some(h) = context("the_second_pass_draws_with_the_first_pass_vertex_shader") else {
        return;
    };
    let ctx = h.context();
    let mut fx = effect(ctx, true);
    let mut batch = SpriteBatch::new(ctx).unwrap();
    let screen = RenderTarget::backbuffer(SIZE, SIZE);
    for frame in 0..2 {
        clear(ctx);
        for &pass in rim::Technique::RimLit.passes() {
            let applied = fx.apply(pass, &screen).unwrap();
            batch.draw(&applied, &quad()).unwrap();
        }
        // Base draws the colour; Rim adds the colour (COLOR1) times rim² (TEXCOORD1 = uv*2-1):
        // 1 at the corners' pixel centres, (0.125)² one pixel in.
        let corner = pixel(ctx, &screen, 0, 0);
        assert!(
            near(corner, [128, 128, 128, 255]),
            "frame {frame}: {corner:?}"
        );
        let inner = pixel(ctx, &screen, 1, 1);
        assert!(near(inner, [65, 65, 65, 255]), "frame {frame}: {inner:?}");
    }
}

#[test]
fn a_pair_that_cannot_link_is_an_error_at_apply_naming_both_shaders() {
    let Some(h) = context("a_pair_that_cannot_link_is_an_error_at_apply_naming_both_shaders")
    else {
        return;
    };
    let ctx = h.context();
    let mut fx = effect(ctx, true);
    let batch = SpriteBatch::new(ctx).unwrap();
    let screen = RenderTarget::backbuffer(SIZE, SIZE);
    let rim_pass = rim::passes::rim_lit::RIM;
    let expect_sprite_vs = |err: GlError| {
        assert!(matches!(err, GlError::BoundVertexLink { .. }), "{err}");
        let text = err.to_string();
        for part in [
            "SpriteBatch's vertex shader",
            "pixel shader 2 of effect `rim.fx`",
            "technique 'RimLit' pass 'Rim'",
        ] {
            assert!(text.contains(part), "`{part}` missing from: {text}");
        }
    };
    // Nothing bound yet: SpriteBatch's vertex shader writes no TEXCOORD1 or COLOR1.
    expect_sprite_vs(fx.apply(rim_pass, &screen).unwrap_err());
    // Bound by Base, it links; SpriteBatch::begin binds SpriteBatch's again.
    fx.apply(rim::passes::rim_lit::BASE, &screen).unwrap();
    fx.apply(rim_pass, &screen).unwrap();
    batch.begin();
    expect_sprite_vs(fx.apply(rim_pass, &screen).unwrap_err());
}

#[test]
fn a_pixel_only_pass_after_begin_draws_with_spritebatch_vertex_shader() {
    let Some(h) = context("a_pixel_only_pass_after_begin_draws_with_spritebatch_vertex_shader")
    else {
        return;
    };
    let ctx = h.context();
    // MainVS would draw nothing: everything at the origin.
    let mut fx = effect(ctx, false);
    let mut batch = SpriteBatch::new(ctx).unwrap();
    let screen = RenderTarget::backbuffer(SIZE, SIZE);
    let plain = rim::passes::plain::P0;

    clear(ctx);
    fx.apply(rim::passes::rim_lit::BASE, &screen).unwrap();
    let applied = fx.apply(plain, &screen).unwrap();
    batch.draw(&applied, &quad()).unwrap();
    let drawn = pixel(ctx, &screen, 1, 2);
    assert_eq!(drawn, [0; 4], "MainVS, bound by Base, draws nothing");

    batch.begin();
    let applied = fx.apply(plain, &screen).unwrap();
    batch.draw(&applied, &quad()).unwrap();
    assert_eq!(
        pixel(ctx, &screen, 1, 2),
        GRAY,
        "SpriteBatch's vertex shader"
    );
}

#[test]
fn another_effects_vertex_shader_draws_with_the_registers_it_was_applied_with() {
    let Some(h) =
        context("another_effects_vertex_shader_draws_with_the_registers_it_was_applied_with")
    else {
        return;
    };
    let ctx = h.context();
    let mut projecting = effect(ctx, true);
    // Its own MainVS would draw nothing; its Rim pass draws with `projecting`'s.
    let mut other = effect(ctx, false);
    let mut batch = SpriteBatch::new(ctx).unwrap();
    let screen = RenderTarget::backbuffer(SIZE, SIZE);
    clear(ctx);
    projecting
        .apply(rim::passes::rim_lit::BASE, &screen)
        .unwrap();
    let applied = other.apply(rim::passes::rim_lit::RIM, &screen).unwrap();
    batch.draw(&applied, &quad()).unwrap();
    let linked_with_projecting = applied.program();
    let corner = pixel(ctx, &screen, 3, 3);
    assert!(near(corner, [64, 64, 64, 255]), "{corner:?}");

    // Dropped, its vertex shader is bound no more: SpriteBatch's is.
    drop(projecting);
    let err = other.apply(rim::passes::rim_lit::RIM, &screen).unwrap_err();
    assert!(
        err.to_string().contains("SpriteBatch's vertex shader"),
        "{err}"
    );
    // And the program `other` linked with it is deleted.
    assert!(deleted(ctx, linked_with_projecting));
}

/// Whether `program` is deleted (or, still in use, flagged for deletion).
fn deleted(ctx: &GlContext, program: glow::Program) -> bool {
    // SAFETY: queries on the current context.
    unsafe {
        let gl = ctx.glow();
        !gl.is_program(program) || gl.get_program_parameter_i32(program, glow::DELETE_STATUS) != 0
    }
}

#[test]
fn a_replaced_effect_drops_its_programs_and_links_again() {
    let Some(h) = context("a_replaced_effect_drops_its_programs_and_links_again") else {
        return;
    };
    let ctx = h.context();
    let mut fx = effect(ctx, true);
    let mut batch = SpriteBatch::new(ctx).unwrap();
    let screen = RenderTarget::backbuffer(SIZE, SIZE);
    fx.apply(rim::passes::rim_lit::BASE, &screen).unwrap();
    let old = fx
        .apply(rim::passes::rim_lit::RIM, &screen)
        .unwrap()
        .program();
    let model = shadowdusk::mgfx::read(<rim::Effect as shadowdusk::Effect>::MGFX).unwrap();
    fx.replace_effect(model).unwrap();
    assert!(deleted(ctx, old), "the old pair's program is deleted");
    // The replaced effect's vertex shader went with it.
    let err = fx.apply(rim::passes::rim_lit::RIM, &screen).unwrap_err();
    assert!(matches!(err, GlError::BoundVertexLink { .. }), "{err}");
    clear(ctx);
    for &pass in rim::Technique::RimLit.passes() {
        let applied = fx.apply(pass, &screen).unwrap();
        batch.draw(&applied, &quad()).unwrap();
    }
    let corner = pixel(ctx, &screen, 0, 3);
    assert!(near(corner, [128, 128, 128, 255]), "{corner:?}");
}
