//! Headless OpenGL for render tests: `shadowdusk::gl::headless` (EGL on Mesa's surfaceless
//! platform with a pbuffer, toolchain.md §3; no X and no GPU) with what the tests add on top: a
//! VAO, clears, the loud skip ([`crate::skip`]), and read-back as `image` buffers.
//!
//! Orientation: MonoGame's back buffer is read with `glReadPixels`, whose row 0 is the bottom
//! row; its render targets are stored top row first because `posFixup.y = -1` flips y while one
//! is bound. [`Headless::read_rgba`] undoes the first and keeps the second, so both return a
//! top-down image of what the user would see.

use glow::HasContext;
use image::RgbaImage;
use shadowdusk::gl::headless::HeadlessGl;
use shadowdusk::gl::{GlContext, GlRenderTarget, GlTexture, RenderTarget};

/// Where rendering goes, which decides `posFixup` and how pixels are read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// The default framebuffer (pbuffer); stored bottom row first.
    Backbuffer,
    /// An FBO render target; MonoGame stores it top row first.
    RenderTarget,
}

/// A current desktop-GL compatibility context on a `width`×`height` pbuffer, with a VAO bound.
pub struct Headless {
    vao: Option<glow::VertexArray>,
    context: HeadlessGl,
    /// Pbuffer width.
    pub width: u32,
    /// Pbuffer height.
    pub height: u32,
}

impl Headless {
    /// Creates the context and makes it current on this thread. The error says what is missing
    /// (libEGL, the Mesa surfaceless platform, a GL config).
    pub fn new(width: u32, height: u32) -> Result<Headless, String> {
        let context = HeadlessGl::new(width, height).map_err(|e| e.to_string())?;
        let gl = context.gl();
        // SAFETY: plain GL calls on the context just made current.
        let vao = unsafe {
            let vao = gl.create_vertex_array().ok();
            gl.bind_vertex_array(vao);
            gl.viewport(0, 0, width as i32, height as i32);
            vao
        };
        Ok(Headless {
            vao,
            context,
            width,
            height,
        })
    }

    /// `Headless::new`, or `None` after [`crate::skip`] (a failure under
    /// `SHADOWDUSK_REQUIRE_ALL=1`) says why render tests cannot run.
    pub fn or_skip(test: &str, width: u32, height: u32) -> Option<Headless> {
        Headless::new(width, height)
            .map_err(|e| crate::skip(test, &format!("headless OpenGL unavailable: {e}")))
            .ok()
    }

    /// The context, for effects, textures and targets.
    pub fn ctx(&self) -> &GlContext {
        self.context.context()
    }

    /// The GL functions, for the tests' own GL calls.
    pub fn gl(&self) -> &glow::Context {
        self.context.gl()
    }

    /// The [`RenderTarget`] for drawing into the full pbuffer or an FBO of the same size.
    pub fn target(&self, orientation: Orientation) -> RenderTarget {
        target(self.width, self.height, orientation)
    }

    /// Clears the bound framebuffer's colour (0..255 RGBA), depth (to 1) and stencil (to 0).
    pub fn clear(&self, rgba: [u8; 4]) {
        self.clear_with(rgba, 0);
    }

    /// Clears colour, depth (to 1) and stencil (to `stencil`), with all write masks open.
    pub fn clear_with(&self, rgba: [u8; 4], stencil: i32) {
        let c = rgba.map(|v| v as f32 / 255.0);
        let gl = self.gl();
        // SAFETY: plain GL calls on the current context. Write masks must be open for glClear
        // to clear everything a previous pass may have masked.
        unsafe {
            gl.color_mask(true, true, true, true);
            gl.depth_mask(true);
            gl.stencil_mask(0xFFFF_FFFF);
            gl.clear_color(c[0], c[1], c[2], c[3]);
            gl.clear_depth_f64(1.0);
            gl.clear_stencil(stencil);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT | glow::STENCIL_BUFFER_BIT);
        }
    }

    /// Reads the bound framebuffer (`width`×`height`) as a top-down image.
    pub fn read_rgba(&self, orientation: Orientation) -> RgbaImage {
        read_framebuffer(self.ctx(), self.width, self.height, orientation)
    }
}

impl Drop for Headless {
    fn drop(&mut self) {
        // SAFETY: the VAO belongs to this context, which is still current (it is released
        // after `context` and everything else made from it is dropped).
        unsafe {
            if let Some(vao) = self.vao {
                self.gl().delete_vertex_array(vao);
            }
        }
    }
}

fn target(width: u32, height: u32, orientation: Orientation) -> RenderTarget {
    RenderTarget {
        is_render_target: orientation == Orientation::RenderTarget,
        ..RenderTarget::backbuffer(width, height)
    }
}

/// Reads `width`×`height` RGBA8 from the bound read framebuffer as a top-down image; a GL
/// error fails the test.
pub fn read_framebuffer(
    ctx: &GlContext,
    width: u32,
    height: u32,
    orientation: Orientation,
) -> RgbaImage {
    let pixels = target(width, height, orientation)
        .read_rgba8(ctx)
        .unwrap_or_else(|e| panic!("reading {width}x{height} pixels back: {e}"));
    image(width, height, pixels)
}

fn image(width: u32, height: u32, pixels: Vec<u8>) -> RgbaImage {
    RgbaImage::from_raw(width, height, pixels)
        .unwrap_or_else(|| panic!("{width}x{height} read-back has the wrong size"))
}

/// An offscreen render target (`shadowdusk::gl::GlRenderTarget`, deleted when dropped) with
/// the tests' error and image types.
pub struct Fbo {
    target: GlRenderTarget,
}

impl Fbo {
    /// Creates a complete FBO; leaves the default framebuffer bound.
    pub fn new(ctx: &GlContext, width: u32, height: u32) -> Result<Fbo, String> {
        let target = GlRenderTarget::new(ctx, width, height).map_err(|e| e.to_string())?;
        Ok(Fbo { target })
    }

    /// Binds it for drawing and reading and sets the viewport.
    pub fn bind(&self) {
        self.target.bind();
    }

    /// Binds the default framebuffer again with a `width`×`height` viewport.
    pub fn unbind(ctx: &GlContext, width: u32, height: u32) {
        GlRenderTarget::unbind(ctx, width, height);
    }

    /// The [`RenderTarget`] describing it.
    pub fn target(&self) -> RenderTarget {
        self.target.target()
    }

    /// Its colour texture as an effect texture.
    pub fn texture(&self) -> &GlTexture {
        self.target.texture()
    }

    /// Reads its pixels as a top-down image; a GL error fails the test.
    pub fn read_rgba(&self) -> RgbaImage {
        let (width, height) = (self.target.width(), self.target.height());
        let pixels = self
            .target
            .read_rgba8()
            .unwrap_or_else(|e| panic!("reading the {width}x{height} FBO: {e}"));
        image(width, height, pixels)
    }
}

/// A framebuffer with several RGBA8 colour attachments (`glDrawBuffers` over all of them), for
/// MonoGame's `SetRenderTargets` on GL: the GL runtime's `GlRenderTarget` has one.
pub struct MrtFbo {
    ctx: GlContext,
    framebuffer: glow::Framebuffer,
    textures: Vec<glow::Texture>,
    width: u32,
    height: u32,
}

impl MrtFbo {
    /// `count` colour attachments of `width`×`height`, bound for drawing, viewport set.
    pub fn new(ctx: &GlContext, width: u32, height: u32, count: u32) -> Result<MrtFbo, String> {
        let gl = ctx.glow();
        // SAFETY: the context is current (`GlContext`); every object is created here and
        // deleted in `Drop`; the texture uploads give no data (GL allocates).
        unsafe {
            let framebuffer = gl.create_framebuffer()?;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
            let mut textures = Vec::new();
            let mut attachments = Vec::new();
            for i in 0..count {
                let t = gl.create_texture()?;
                gl.bind_texture(glow::TEXTURE_2D, Some(t));
                gl.tex_image_2d(
                    glow::TEXTURE_2D,
                    0,
                    glow::RGBA8 as i32,
                    width as i32,
                    height as i32,
                    0,
                    glow::RGBA,
                    glow::UNSIGNED_BYTE,
                    glow::PixelUnpackData::Slice(None),
                );
                gl.tex_parameter_i32(
                    glow::TEXTURE_2D,
                    glow::TEXTURE_MIN_FILTER,
                    glow::NEAREST as i32,
                );
                gl.framebuffer_texture_2d(
                    glow::FRAMEBUFFER,
                    glow::COLOR_ATTACHMENT0 + i,
                    glow::TEXTURE_2D,
                    Some(t),
                    0,
                );
                textures.push(t);
                attachments.push(glow::COLOR_ATTACHMENT0 + i);
            }
            gl.bind_texture(glow::TEXTURE_2D, None);
            gl.draw_buffers(&attachments);
            gl.viewport(0, 0, width as i32, height as i32);
            let fbo = MrtFbo {
                ctx: ctx.clone(),
                framebuffer,
                textures,
                width,
                height,
            };
            let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
            if status != glow::FRAMEBUFFER_COMPLETE {
                return Err(format!("the framebuffer is incomplete: 0x{status:04X}"));
            }
            Ok(fbo)
        }
    }

    /// Attachment `i`, as stored (a render target is drawn top row first), RGBA8.
    pub fn read(&self, i: u32) -> RgbaImage {
        let gl = self.ctx.glow();
        let mut pixels = vec![0u8; self.width as usize * self.height as usize * 4];
        // SAFETY: the context is current; the framebuffer is this one's, the buffer holds
        // exactly the packed RGBA8 pixels read.
        unsafe {
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.framebuffer));
            gl.read_buffer(glow::COLOR_ATTACHMENT0 + i);
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            gl.read_pixels(
                0,
                0,
                self.width as i32,
                self.height as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(&mut pixels)),
            );
            gl.read_buffer(glow::COLOR_ATTACHMENT0);
        }
        RgbaImage::from_raw(self.width, self.height, pixels).expect("the size read")
    }
}

impl Drop for MrtFbo {
    fn drop(&mut self) {
        let gl = self.ctx.glow();
        // SAFETY: the objects are this context's, which is current.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            gl.delete_framebuffer(self.framebuffer);
            for t in &self.textures {
                gl.delete_texture(*t);
            }
        }
    }
}
