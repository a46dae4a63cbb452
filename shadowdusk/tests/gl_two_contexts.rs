//! Objects of one GL context handed to another context's effect or batch are refused
//! ([`GlError::ForeignContext`]), on two real contexts on one thread: `HeadlessGl`'s, and a
//! second EGL context made current beside it and given to the runtime with
//! `GlContext::from_glow`, as a game with two windows would.

#![cfg(feature = "headless")]

use khronos_egl as egl;
use shadowdusk::gl::headless::HeadlessGl;
use shadowdusk::gl::{
    DynEffect, GlContext, GlEffect, GlError, GlRenderTarget, GlTexture, RenderTarget, Sprite,
    SpriteBatch, TexelFilter,
};
use shadowdusk::Effect as _;

shadowdusk::include_effect!("doc/tint.fx", in_process);

type Egl = egl::DynamicInstance<egl::EGL1_5>;

/// The EGL context, surface and display current on this thread, to make current again.
#[derive(Clone, Copy)]
struct Current {
    display: egl::Display,
    surface: Option<egl::Surface>,
    context: Option<egl::Context>,
}

impl Current {
    fn get(lib: &Egl) -> Current {
        Current {
            display: lib.get_current_display().expect("a current EGL display"),
            surface: lib.get_current_surface(egl::DRAW),
            context: lib.get_current_context(),
        }
    }

    fn make(self, lib: &Egl) {
        lib.make_current(self.display, self.surface, self.surface, self.context)
            .expect("eglMakeCurrent");
    }
}

/// A second desktop-GL context on `HeadlessGl`'s display with a 4×4 pbuffer, made current.
fn second_context(lib: &Egl, display: egl::Display) -> (Current, GlContext) {
    #[rustfmt::skip]
    let attributes = [
        egl::SURFACE_TYPE, egl::PBUFFER_BIT,
        egl::RENDERABLE_TYPE, egl::OPENGL_BIT,
        egl::RED_SIZE, 8, egl::GREEN_SIZE, 8, egl::BLUE_SIZE, 8, egl::ALPHA_SIZE, 8,
        egl::NONE,
    ];
    let config = lib
        .choose_first_config(display, &attributes)
        .expect("eglChooseConfig")
        .expect("an RGBA8 desktop-GL pbuffer config");
    lib.bind_api(egl::OPENGL_API).expect("eglBindAPI");
    let context = lib
        .create_context(display, config, None, &[egl::NONE])
        .expect("eglCreateContext");
    let surface = lib
        .create_pbuffer_surface(display, config, &[egl::WIDTH, 4, egl::HEIGHT, 4, egl::NONE])
        .expect("eglCreatePbufferSurface");
    let current = Current {
        display,
        surface: Some(surface),
        context: Some(context),
    };
    current.make(lib);
    // SAFETY: the context was just made current; every entry point comes from
    // eglGetProcAddress.
    let gl = unsafe {
        glow::Context::from_loader_function(|s| {
            lib.get_proc_address(s)
                .map_or(std::ptr::null(), |p| p as *const _)
        })
    };
    // SAFETY: the test makes this context current whenever it uses or drops anything made
    // from the handle, and destroys the context only after dropping all of it.
    (current, unsafe { GlContext::from_glow(gl) })
}

/// What the second context made: a texture, a render target and a sprite batch.
struct Foreign {
    texture: GlTexture,
    target: GlRenderTarget,
    batch: SpriteBatch,
}

#[test]
fn objects_of_another_context_are_refused() {
    let h = match HeadlessGl::new(4, 4) {
        Ok(h) => h,
        Err(e) => {
            let test = "objects_of_another_context_are_refused";
            shadowdusk_testkit::skip(test, &format!("headless OpenGL unavailable: {e}"));
            return;
        }
    };
    // SAFETY: loads the system EGL library (`HeadlessGl` already has).
    let lib = unsafe { Egl::load_required_from_filename("libEGL.so.1") }.expect("libEGL");
    let first = Current::get(&lib);
    let (second, ctx_b) = second_context(&lib, first.display);
    let b = Foreign {
        texture: GlTexture::from_rgba8(&ctx_b, 1, 1, &[255; 4], TexelFilter::Nearest).unwrap(),
        target: GlRenderTarget::new(&ctx_b, 2, 2).unwrap(),
        batch: SpriteBatch::new(&ctx_b).unwrap(),
    };
    first.make(&lib);
    let ctx_a = h.context();
    assert_ne!(ctx_a.id(), ctx_b.id());
    assert_eq!(ctx_a.id(), ctx_a.clone().id(), "clones share the id");
    let foreign = |what| GlError::ForeignContext {
        what,
        context: ctx_a.id(),
        foreign: ctx_b.id(),
    };

    let slot = tint::textures::SPRITE_TEXTURE;
    let mut fx = GlEffect::<tint::Effect>::new(ctx_a).unwrap();
    assert_eq!(
        fx.set_texture(slot, Some(&b.texture)),
        Err(foreign("the texture"))
    );
    assert_eq!(
        fx.set_texture(slot, Some(b.target.texture())),
        Err(foreign("the texture")),
        "a render target's colour texture is its context's too"
    );
    assert_eq!(fx.texture(slot), None, "a refused texture is not set");
    let mut dynamic = DynEffect::new(ctx_a, tint::Effect::MGFX).unwrap();
    let param = dynamic.parameter("SpriteTexture").unwrap();
    assert_eq!(
        dynamic.set_texture(param, Some(&b.texture)),
        Err(foreign("the texture"))
    );
    let message = foreign("the texture").to_string();
    assert!(
        message.contains("make it on the context that draws with it"),
        "{message}"
    );

    // A pass of an effect of the first context, drawn by a batch of the second.
    let mut batch_b = b.batch;
    let pass = fx
        .apply(
            tint::passes::sprite_drawing::P0,
            &RenderTarget::backbuffer(4, 4),
        )
        .unwrap();
    let refused = batch_b.draw(&pass, &[Sprite::new(0.0, 0.0, 4.0, 4.0)]);
    assert_eq!(
        refused,
        Err(GlError::ForeignContext {
            what: "the applied pass's effect",
            context: ctx_b.id(),
            foreign: ctx_a.id(),
        })
    );
    // The first context's own objects still work together.
    let own = GlTexture::from_rgba8(ctx_a, 1, 1, &[255; 4], TexelFilter::Nearest).unwrap();
    fx.set_texture(slot, Some(&own)).unwrap();
    assert_eq!(fx.texture(slot), Some(&own));

    // Everything of the second context is used and dropped while it is current.
    second.make(&lib);
    drop((b.texture, b.target, batch_b, ctx_b));
    first.make(&lib);
    lib.destroy_surface(second.display, second.surface.unwrap())
        .unwrap();
    lib.destroy_context(second.display, second.context.unwrap())
        .unwrap();
}
