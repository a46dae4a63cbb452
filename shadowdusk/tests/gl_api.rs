//! The runtime API on a real context (Mesa through `gl::headless`): a typed effect draws,
//! every GL object is released by its owner's `Drop`, a headless context outlives what was made
//! from it and refuses a second one on the same thread, an untyped effect's look-ups are
//! errors, not panics, and so are a pass or texture slot forged in `unsafe` code.

#![cfg(feature = "headless")]

use glow::HasContext;
use shadowdusk::gl::headless::{HeadlessError, HeadlessGl};
use shadowdusk::gl::{
    DynEffect, DynPass, GlEffect, GlError, GlRenderTarget, GlTexture, RenderTarget, Sprite,
    SpriteBatch, TexelFilter,
};
use shadowdusk::Effect as _;

shadowdusk::include_effect!("doc/tint.fx", in_process);

/// A loud `!!! SKIPPED` line, or with `SHADOWDUSK_REQUIRE_ALL=1` (CI) a failure.
fn context(test: &str) -> Option<HeadlessGl> {
    match HeadlessGl::new(4, 4) {
        Ok(h) => Some(h),
        Err(e) => {
            shadowdusk_testkit::skip(test, &format!("headless OpenGL unavailable: {e}"));
            None
        }
    }
}

const WHITE: [u8; 4] = [255; 4];

/// Draws a white sprite over the whole 4×4 back buffer with `tint` at full amount.
fn draw_tinted(fx: &mut GlEffect<tint::Effect>, tint: [f32; 4]) -> Vec<u8> {
    let ctx = fx.context().clone();
    let texture = GlTexture::from_rgba8(&ctx, 1, 1, &WHITE, TexelFilter::Nearest).unwrap();
    let mut batch = SpriteBatch::new(&ctx).unwrap();
    fx.params_mut().set_tint(tint);
    fx.params_mut().set_amount(1.0);
    fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(&texture))
        .unwrap();
    let target = RenderTarget::backbuffer(4, 4);
    let pass = fx.apply(tint::passes::sprite_drawing::P0, &target).unwrap();
    batch
        .draw(&pass, &[Sprite::new(0.0, 0.0, 4.0, 4.0)])
        .unwrap();
    target.read_rgba8(&ctx).unwrap()
}

#[test]
fn a_typed_effect_draws_with_its_params_and_texture() {
    let Some(h) = context("a_typed_effect_draws_with_its_params_and_texture") else {
        return;
    };
    let mut fx = GlEffect::<tint::Effect>::new(h.context()).unwrap();
    let pixels = draw_tinted(&mut fx, [1.0, 0.0, 1.0, 1.0]);
    assert!(
        pixels.chunks_exact(4).all(|p| p == [255, 0, 255, 255]),
        "{pixels:?}"
    );
    // `set_params` replaces every value at once.
    let mut params = tint::Params::default();
    params.set_amount(0.0);
    fx.set_params(&params);
    assert_eq!(fx.params().amount(), 0.0);
    assert_eq!(
        format!("{fx:?}"),
        r#"GlEffect { effect: "tint.fx", techniques: 1, .. }"#
    );
}

#[test]
fn owners_release_their_gl_objects_when_dropped() {
    let Some(h) = context("owners_release_their_gl_objects_when_dropped") else {
        return;
    };
    let ctx = h.context();
    let gl = ctx.glow();
    let texture = GlTexture::from_rgba8(ctx, 1, 1, &WHITE, TexelFilter::Nearest).unwrap();
    let target = GlRenderTarget::new(ctx, 2, 2).unwrap();
    let mut fx = GlEffect::<tint::Effect>::new(ctx).unwrap();
    fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(&texture))
        .unwrap();
    let program = fx
        .apply(tint::passes::sprite_drawing::P0, &target.target())
        .unwrap()
        .program();
    let color = target.texture().clone();
    let names = (texture.raw(), color.raw());
    // SAFETY: queries on the current context; the program is no longer in use, so deleting
    // it is not deferred.
    unsafe {
        gl.use_program(None);
        assert!(gl.is_texture(names.0) && gl.is_program(program));
    }
    // The effect holds a handle to the texture: dropping ours does not delete it.
    drop(texture);
    // SAFETY: a query on the current context.
    assert!(unsafe { gl.is_texture(names.0) });
    drop(fx);
    // SAFETY: queries on the current context.
    unsafe { assert!(!gl.is_texture(names.0) && !gl.is_program(program)) };
    // The render target's colour texture lives while a clone of its handle does.
    drop(target);
    // SAFETY: a query on the current context.
    assert!(unsafe { gl.is_texture(names.1) });
    drop(color);
    // SAFETY: a query on the current context.
    assert!(!unsafe { gl.is_texture(names.1) });
}

#[test]
fn a_headless_context_outlives_what_was_made_from_it() {
    let Some(h) = context("a_headless_context_outlives_what_was_made_from_it") else {
        return;
    };
    let mut fx = GlEffect::<tint::Effect>::new(h.context()).unwrap();
    // Dropping the harness first leaves the context current for the effect.
    drop(h);
    let pixels = draw_tinted(&mut fx, [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(&pixels[..4], [0, 255, 0, 255]);
    // While the effect lives, the thread's context is still in use.
    assert!(matches!(
        HeadlessGl::new(4, 4),
        Err(HeadlessError::ContextInUse)
    ));
    drop(fx);
    let again = HeadlessGl::new(4, 4).expect("the first context is gone");
    drop(again);
}

#[test]
fn untyped_look_ups_are_errors() {
    let Some(h) = context("untyped_look_ups_are_errors") else {
        return;
    };
    let mut fx = DynEffect::new(h.context(), tint::Effect::MGFX).unwrap();
    assert_eq!(fx.technique("SpriteDrawing").unwrap(), 0);
    assert_eq!(
        fx.pass("SpriteDrawing", "P0").unwrap(),
        DynPass {
            technique: 0,
            pass: 0
        }
    );
    assert_eq!(fx.passes(0).count(), 1);
    assert_eq!(fx.passes(7).count(), 0);
    let err = fx.technique("Nope").unwrap_err();
    assert_eq!(
        err.to_string(),
        "no technique named 'Nope'; the effect has 'SpriteDrawing'"
    );
    let err = fx.pass("SpriteDrawing", "P1").unwrap_err();
    assert_eq!(
        err.to_string(),
        "technique 'SpriteDrawing' has no pass named 'P1'; it has 'P0'"
    );
    assert!(matches!(
        fx.parameter("Nope"),
        Err(GlError::UnknownParameter(_))
    ));
    assert!(matches!(fx.pass_at(0, 1), Err(GlError::NoSuchPass { .. })));
    let bad = DynPass {
        technique: 3,
        pass: 0,
    };
    let target = RenderTarget::backbuffer(4, 4);
    assert!(matches!(
        fx.apply(bad, &target),
        Err(GlError::NoSuchPass { .. })
    ));
    let tint = fx.parameter("Tint").unwrap();
    assert!(fx.set_values(tint, &[1.0; 3]).is_err());
    assert!(fx.set_texture(tint, None).is_err());
    assert!(fx.set_values(99, &[]).is_err());
    fx.set_values(tint, &[1.0; 4]).unwrap();
    let pass = fx.pass("SpriteDrawing", "P0").unwrap();
    fx.apply(pass, &target).unwrap();
}

#[test]
fn a_forged_pass_or_slot_is_an_error_not_ignored() {
    let Some(h) = context("a_forged_pass_or_slot_is_an_error_not_ignored") else {
        return;
    };
    let mut fx = GlEffect::<tint::Effect>::new(h.context()).unwrap();
    let texture = GlTexture::from_rgba8(h.context(), 1, 1, &WHITE, TexelFilter::Nearest).unwrap();
    // SAFETY: deliberately not upheld (tint has no parameter 9, and its parameter 1 is `Tint`
    // or `Amount`, not a texture): the runtime must refuse the indices, not trust them.
    let (missing, not_texture, pass) = unsafe {
        (
            shadowdusk::TextureSlot::<tint::Effect>::__new(9),
            shadowdusk::TextureSlot::<tint::Effect>::__new(
                fx.effect()
                    .parameters
                    .iter()
                    .position(|p| p.name == "Tint")
                    .unwrap(),
            ),
            shadowdusk::Pass::<tint::Effect>::__new(0, 3),
        )
    };
    assert_eq!(
        fx.set_texture(missing, Some(&texture)),
        Err(GlError::NoSuchParameter(9))
    );
    assert!(matches!(
        fx.set_texture(not_texture, Some(&texture)),
        Err(GlError::ParameterShape { name, .. }) if name == "Tint"
    ));
    assert!(matches!(
        fx.apply(pass, &RenderTarget::backbuffer(4, 4)),
        Err(GlError::NoSuchPass { pass: 3, .. })
    ));
}
