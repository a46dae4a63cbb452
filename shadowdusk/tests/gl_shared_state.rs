//! What the runtime does to GL state it shares with the caller and with other effects, on a real
//! context (Mesa through `gl::headless`):
//! - a draw uses the pass it is given, whatever pass of another effect was applied since;
//! - uploads, render targets, applying, drawing and read-backs leave the caller's pending GL
//!   errors for the caller;
//! - uploads and read-backs set the pixel-store state they depend on, whatever other code left
//!   there, and put the caller's back.

#![cfg(feature = "headless")]

use glow::HasContext;
use shadowdusk::gl::headless::HeadlessGl;
use shadowdusk::gl::{
    DynEffect, DynPass, GlContext, GlEffect, GlRenderTarget, GlTexture, RenderTarget, Sprite,
    SpriteBatch, TexelFilter,
};
use shadowdusk::mgfx::{CullMode, RasterizerState};
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

const RED: [u8; 4] = [255, 0, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];
const WHITE: [u8; 4] = [255; 4];

fn texel(ctx: &GlContext, rgba: [u8; 4]) -> GlTexture {
    GlTexture::from_rgba8(ctx, 1, 1, &rgba, TexelFilter::Nearest).expect("1x1 texture")
}

/// A tint effect that draws `texture * tint` (amount 1).
fn tinted(ctx: &GlContext, texture: &GlTexture, tint: [f32; 4]) -> GlEffect<tint::Effect> {
    let mut fx = GlEffect::<tint::Effect>::new(ctx).expect("tint.fx loads");
    fx.params_mut().set_tint(tint);
    fx.params_mut().set_amount(1.0);
    fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(texture))
        .expect("a texture of the effect's context");
    fx
}

fn all(pixels: &[u8], rgba: [u8; 4]) -> bool {
    pixels.chunks_exact(4).all(|p| p == rgba)
}

#[test]
fn a_draw_uses_the_pass_it_is_given_not_the_last_applied() {
    let Some(h) = context("a_draw_uses_the_pass_it_is_given_not_the_last_applied") else {
        return;
    };
    let ctx = h.context();
    let (white, blue) = (texel(ctx, WHITE), texel(ctx, BLUE));
    // A: white texture tinted red. B: blue texture, untinted. Both sample on unit 0, so B's
    // apply replaces A's program and A's texture.
    let mut fx_a = tinted(ctx, &white, [1.0, 0.0, 0.0, 1.0]);
    let mut fx_b = tinted(ctx, &blue, [1.0; 4]);
    let mut batch = SpriteBatch::new(ctx).unwrap();
    let screen = RenderTarget::backbuffer(4, 4);
    let quad = [Sprite::new(0.0, 0.0, 4.0, 4.0)];
    let pass_a = fx_a
        .apply(tint::passes::sprite_drawing::P0, &screen)
        .unwrap();
    let pass_b = fx_b
        .apply(tint::passes::sprite_drawing::P0, &screen)
        .unwrap();

    batch.draw(&pass_a, &quad).unwrap();
    let drawn = screen.read_rgba8(ctx).unwrap();
    // B's program would draw blue; A's program sampling B's texture, black.
    assert!(all(&drawn, RED), "pass A drew {:?}", &drawn[..4]);

    batch.draw(&pass_b, &quad).unwrap();
    let drawn = screen.read_rgba8(ctx).unwrap();
    assert!(all(&drawn, BLUE), "pass B drew {:?}", &drawn[..4]);
}

/// The caller's mistake: `glEnable(0)` raises `GL_INVALID_ENUM`.
fn raise_invalid_enum(gl: &glow::Context) {
    // SAFETY: a state call on the current context.
    unsafe { gl.enable(0) };
}

/// Asserts that exactly the caller's `GL_INVALID_ENUM` is pending, and clears it.
fn assert_only_the_callers_error(gl: &glow::Context, after: &str) {
    // SAFETY: queries on the current context.
    let (first, then) = unsafe { (gl.get_error(), gl.get_error()) };
    assert_eq!(
        (first, then),
        (glow::INVALID_ENUM, glow::NO_ERROR),
        "the caller's error is still pending after {after}, and only it"
    );
}

#[test]
fn the_runtime_leaves_the_callers_gl_errors_pending() {
    let Some(h) = context("the_runtime_leaves_the_callers_gl_errors_pending") else {
        return;
    };
    let ctx = h.context();
    let gl = ctx.glow();
    let mut batch = SpriteBatch::new(ctx).unwrap();
    let screen = RenderTarget::backbuffer(4, 4);
    // A pass with a depth bias also queries the depth buffer's bits.
    let mut model = shadowdusk::mgfx::read(tint::Effect::MGFX).unwrap();
    model.techniques[0].passes[0].rasterizer = Some(RasterizerState {
        depth_bias: 0.001,
        cull_mode: CullMode::None,
        ..RasterizerState::default()
    });
    let mut fx = DynEffect::from_effect(ctx, model).unwrap();
    let param = fx.parameter("SpriteTexture").unwrap();

    raise_invalid_enum(gl);
    let white = texel(ctx, WHITE);
    let target = GlRenderTarget::new(ctx, 2, 2).unwrap();
    assert_only_the_callers_error(gl, "an upload and a render target");

    fx.set_texture(param, Some(&white)).unwrap();
    let tint = fx.parameter("Tint").unwrap();
    fx.set_values(tint, &[1.0, 0.0, 0.0, 1.0]).unwrap();
    fx.set_values(fx.parameter("Amount").unwrap(), &[1.0])
        .unwrap();
    raise_invalid_enum(gl);
    let pass = fx
        .apply(
            DynPass {
                technique: 0,
                pass: 0,
            },
            &screen,
        )
        .unwrap();
    batch
        .draw(&pass, &[Sprite::new(0.0, 0.0, 4.0, 4.0)])
        .unwrap();
    assert_only_the_callers_error(gl, "apply and draw");

    raise_invalid_enum(gl);
    let drawn = screen.read_rgba8(ctx).unwrap();
    let stored = target.read_rgba8().unwrap();
    assert_only_the_callers_error(gl, "read-backs");
    assert!(all(&drawn, RED), "drawn {:?}", &drawn[..4]);
    assert_eq!(stored.len(), 2 * 2 * 4);
}

/// What foreign code might leave behind: padded, offset rows and bound pixel buffers. Each
/// would make GL read or write past a tightly packed slice, or not use the slice at all.
const HOSTILE: [(u32, i32); 10] = [
    (glow::UNPACK_ALIGNMENT, 8),
    (glow::UNPACK_ROW_LENGTH, 7),
    (glow::UNPACK_SKIP_ROWS, 2),
    (glow::UNPACK_SKIP_PIXELS, 3),
    (glow::UNPACK_SWAP_BYTES, 1),
    (glow::PACK_ALIGNMENT, 8),
    (glow::PACK_ROW_LENGTH, 9),
    (glow::PACK_SKIP_ROWS, 1),
    (glow::PACK_SKIP_PIXELS, 2),
    (glow::PACK_SWAP_BYTES, 1),
];

/// Sets [`HOSTILE`] and binds a pixel buffer to both pixel targets; returns the buffer.
fn make_hostile(gl: &glow::Context) -> glow::Buffer {
    // SAFETY: state calls on the current context.
    unsafe {
        for (parameter, value) in HOSTILE {
            gl.pixel_store_i32(parameter, value);
        }
        let buffer = gl.create_buffer().unwrap();
        gl.bind_buffer(glow::PIXEL_UNPACK_BUFFER, Some(buffer));
        gl.buffer_data_size(glow::PIXEL_UNPACK_BUFFER, 4096, glow::STREAM_DRAW);
        gl.bind_buffer(glow::PIXEL_PACK_BUFFER, Some(buffer));
        assert_eq!(gl.get_error(), glow::NO_ERROR);
        buffer
    }
}

#[test]
fn uploads_and_read_backs_set_the_pixel_store_state_they_need() {
    let Some(h) = context("uploads_and_read_backs_set_the_pixel_store_state_they_need") else {
        return;
    };
    let ctx = h.context();
    let gl = ctx.glow();
    let (w, h_) = (3u32, 2u32);
    // Six distinct texels, 12 bytes a row: alignment 8 or a row length of 7 would read past
    // the 24 bytes.
    let texels: Vec<u8> = (0..w * h_)
        .flat_map(|i| [40 * i as u8 + 10, 200 - 30 * i as u8, 7 * i as u8, 255])
        .collect();
    let buffer = make_hostile(gl);

    let texture = GlTexture::from_rgba8(ctx, w, h_, &texels, TexelFilter::Nearest).unwrap();
    let target = GlRenderTarget::new(ctx, w, h_).unwrap();
    let mut fx = tinted(ctx, &texture, [1.0; 4]);
    let mut batch = SpriteBatch::new(ctx).unwrap();
    target.bind();
    let pass = fx
        .apply(tint::passes::sprite_drawing::P0, &target.target())
        .unwrap();
    batch
        .draw(&pass, &[Sprite::new(0.0, 0.0, w as f32, h_ as f32)])
        .unwrap();
    let read = target.read_rgba8().unwrap();
    GlRenderTarget::unbind(ctx, 4, 4);

    assert_eq!(read, texels, "the texture uploaded and read back unchanged");
    // SAFETY: queries and clean-up on the current context.
    unsafe {
        for (parameter, value) in HOSTILE {
            assert_eq!(
                gl.get_parameter_i32(parameter),
                value,
                "the caller's 0x{parameter:04X} is restored"
            );
        }
        for binding in [
            glow::PIXEL_UNPACK_BUFFER_BINDING,
            glow::PIXEL_PACK_BUFFER_BINDING,
        ] {
            assert_eq!(gl.get_parameter_buffer(binding), Some(buffer));
        }
        assert_eq!(gl.get_error(), glow::NO_ERROR);
        gl.bind_buffer(glow::PIXEL_UNPACK_BUFFER, None);
        gl.bind_buffer(glow::PIXEL_PACK_BUFFER, None);
        gl.delete_buffer(buffer);
    }
}

/// An effect dropped while its program is current leaves GL with a program that has no name:
/// loading the next effect must not bind it again (GL_INVALID_VALUE, pending for the caller).
#[test]
fn loading_after_dropping_the_current_effect_raises_no_gl_error() {
    let Some(h) = context("loading_after_dropping_the_current_effect_raises_no_gl_error") else {
        return;
    };
    let ctx = h.context();
    let gl = ctx.glow();
    let screen = RenderTarget::backbuffer(4, 4);
    let white = texel(ctx, WHITE);
    let mut first = tinted(ctx, &white, [1.0, 0.0, 0.0, 1.0]);
    first
        .apply(tint::passes::sprite_drawing::P0, &screen)
        .expect("apply");
    drop(first);
    let _second = tinted(ctx, &white, [0.0, 1.0, 0.0, 1.0]);
    raise_invalid_enum(gl);
    assert_only_the_callers_error(gl, "loading an effect while a deleted program is current");
}
