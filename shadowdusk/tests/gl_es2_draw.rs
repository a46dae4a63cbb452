//! A typed effect with a baked sampler state and every state block draws on a real OpenGL ES
//! 2.0 context (Mesa, `MESA_GLES_VERSION_OVERRIDE=2.0` from the workspace's
//! `.cargo/config.toml`) into the back buffer and a render target, and leaves no GL error
//! behind: every parameter and entry point the runtime uses exists in ES 2.0 (Mesa checks
//! those by the context's version, unlike formats, which `gl_es2_formats.rs` checks).

#![cfg(feature = "headless")]

use glow::HasContext;
use shadowdusk::gl::headless::{Api, HeadlessGl};
use shadowdusk::gl::{
    GlEffect, GlRenderTarget, GlTexture, RenderTarget, Sprite, SpriteBatch, TexelFilter,
};

shadowdusk::include_effect!("tests/es2/states.fx", in_process);

#[test]
fn a_typed_effect_draws_on_es2_with_no_gl_error_and_refuses_wireframe() {
    let test = "a_typed_effect_draws_on_es2_with_no_gl_error_and_refuses_wireframe";
    let h = match HeadlessGl::with_api(4, 4, Api::Gles2) {
        Ok(h) => h,
        Err(e) => {
            shadowdusk_testkit::skip(test, &format!("headless OpenGL ES 2.0 unavailable: {e}"));
            return;
        }
    };
    let gl = h.gl();
    // SAFETY: a query on the current context.
    let version = unsafe { gl.get_parameter_string(glow::VERSION) };
    assert!(
        version.starts_with("OpenGL ES 2.0"),
        "asked for OpenGL ES 2.0, got `{version}`: run the tests through cargo, whose \
         .cargo/config.toml sets MESA_GLES_VERSION_OVERRIDE=2.0"
    );
    let ctx = h.context();
    let mut fx = GlEffect::<states::Effect>::new(ctx).unwrap();
    let texels = [
        255, 128, 64, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
    ];
    let texture = GlTexture::from_rgba8(ctx, 2, 2, &texels, TexelFilter::Nearest).unwrap();
    let mut batch = SpriteBatch::new(ctx).unwrap();
    fx.params_mut().set_tint([1.0, 0.5, 1.0, 1.0]);
    fx.set_texture(states::textures::SPRITE_TEXTURE, Some(&texture))
        .unwrap();
    let target = GlRenderTarget::new(ctx, 4, 4).unwrap();
    let mut frames = Vec::new();
    for into_target in [false, true] {
        let target_of = if into_target {
            target.bind();
            target.target()
        } else {
            GlRenderTarget::unbind(ctx, 4, 4);
            RenderTarget::backbuffer(4, 4)
        };
        let pass = fx
            .apply(states::passes::sprite_drawing::P0, &target_of)
            .unwrap();
        batch
            .draw(&pass, &[Sprite::new(0.0, 0.0, 4.0, 4.0)])
            .unwrap();
        frames.push(if into_target {
            target.read_rgba8().unwrap()
        } else {
            target_of.read_rgba8(ctx).unwrap()
        });
    }
    GlRenderTarget::unbind(ctx, 4, 4);
    // SAFETY: a query on the current context.
    let error = unsafe { gl.get_error() };
    assert_eq!(
        error,
        glow::NO_ERROR,
        "GL error 0x{error:04X} on OpenGL ES 2.0"
    );
    // Each texel covers 2×2 pixels, times the tint (1, 0.5, 1), top row first in both.
    let rows: [[[u8; 4]; 2]; 2] = [
        [[255, 64, 64, 255], [0, 128, 0, 255]],
        [[0, 0, 255, 255], [255, 128, 255, 255]],
    ];
    let want: Vec<u8> = (0..4)
        .flat_map(|y| (0..4).flat_map(move |x| rows[y / 2][x / 2]))
        .collect();
    assert_eq!(frames[0], want, "back buffer");
    assert_eq!(frames[1], want, "render target");

    // OpenGL ES has no polygon mode: a wireframe pass is refused, as MonoGame's GLES builds do.
    let Err(err) = fx.apply(
        states::passes::wireframe::P0,
        &RenderTarget::backbuffer(4, 4),
    ) else {
        panic!("a wireframe pass applied on OpenGL ES");
    };
    assert_eq!(
        err.to_string(),
        "applying its rasterizer state of pass `P0` of technique `Wireframe`: OpenGL error \
         FillMode.WireFrame: OpenGL ES has no polygon mode"
    );
    // SAFETY: a query on the current context.
    assert_eq!(unsafe { gl.get_error() }, glow::NO_ERROR);
}
