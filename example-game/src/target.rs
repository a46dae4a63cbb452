//! An offscreen render target (MonoGame's `RenderTarget2D` with a depth buffer) and reading
//! pixels back as a top-down image.
//!
//! Orientation: the back buffer is read with `glReadPixels`, whose row 0 is the bottom row, so
//! its rows are reversed. A render target needs no flip: MonoGame stores it top row first
//! because `posFixup.y = -1` flips y while one is bound; drawing its texture with v = 0 at the
//! top then shows it upright.

use glow::HasContext;
use image::RgbaImage;
use shadowdusk::gl::{GlTexture, RenderTarget};

/// The [`RenderTarget`] description of the back buffer.
pub fn backbuffer(width: u32, height: u32) -> RenderTarget {
    RenderTarget {
        width,
        height,
        is_render_target: false,
        half_pixel_offset: false,
    }
}

/// An FBO with an RGBA8 colour texture and a depth24/stencil8 renderbuffer.
pub struct Offscreen {
    framebuffer: glow::Framebuffer,
    color: glow::Texture,
    depth: glow::Renderbuffer,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl Offscreen {
    /// Creates a complete FBO; leaves the default framebuffer bound.
    pub fn new(gl: &glow::Context, width: u32, height: u32) -> Result<Offscreen, String> {
        let pixels = vec![0u8; (width * height * 4) as usize];
        let color = crate::texture::upload(gl, width, height, &pixels)?;
        // SAFETY: object creation on the current context.
        unsafe {
            let depth = gl.create_renderbuffer()?;
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(depth));
            gl.renderbuffer_storage(
                glow::RENDERBUFFER,
                glow::DEPTH24_STENCIL8,
                width as i32,
                height as i32,
            );
            let framebuffer = gl.create_framebuffer()?;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
            gl.framebuffer_texture_2d(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::TEXTURE_2D,
                Some(color),
                0,
            );
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::DEPTH_STENCIL_ATTACHMENT,
                glow::RENDERBUFFER,
                Some(depth),
            );
            let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            let target = Offscreen {
                framebuffer,
                color,
                depth,
                width,
                height,
            };
            if status != glow::FRAMEBUFFER_COMPLETE {
                target.destroy(gl);
                return Err(format!("render target incomplete: status 0x{status:04X}"));
            }
            Ok(target)
        }
    }

    /// Binds it for drawing, with a viewport covering it.
    pub fn bind(&self, gl: &glow::Context) {
        // SAFETY: state calls on the current context.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.framebuffer));
            gl.viewport(0, 0, self.width as i32, self.height as i32);
        }
    }

    /// What [`shadowdusk::gl::GlEffect::apply`] needs to know while it is bound.
    pub fn target(&self) -> RenderTarget {
        RenderTarget {
            width: self.width,
            height: self.height,
            is_render_target: true,
            half_pixel_offset: false,
        }
    }

    /// Its colour texture, for drawing it as a sprite.
    pub fn texture(&self) -> GlTexture {
        GlTexture {
            texture: self.color,
            target: glow::TEXTURE_2D,
        }
    }

    /// Deletes the GL objects.
    pub fn destroy(self, gl: &glow::Context) {
        // SAFETY: objects created by this target on the current context.
        unsafe {
            gl.delete_framebuffer(self.framebuffer);
            gl.delete_texture(self.color);
            gl.delete_renderbuffer(self.depth);
        }
    }
}

/// Binds the back buffer with a viewport covering `width`×`height`.
pub fn bind_backbuffer(gl: &glow::Context, width: u32, height: u32) {
    // SAFETY: state calls on the current context.
    unsafe {
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        gl.viewport(0, 0, width as i32, height as i32);
    }
}

/// Reads the back buffer (`width`×`height` from the bottom-left) as a top-down image.
pub fn read_backbuffer(gl: &glow::Context, width: u32, height: u32) -> Result<RgbaImage, String> {
    let mut buf = vec![0u8; (width * height * 4) as usize];
    // SAFETY: the buffer holds exactly width*height RGBA8 pixels with pack alignment 1.
    unsafe {
        gl.bind_framebuffer(glow::READ_FRAMEBUFFER, None);
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
        gl.read_pixels(
            0,
            0,
            width as i32,
            height as i32,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut buf)),
        );
    }
    crate::sprites::check(gl, "reading the back buffer")?;
    let row = (width * 4) as usize;
    let top_down: Vec<u8> = buf
        .chunks_exact(row.max(1))
        .rev()
        .flatten()
        .copied()
        .collect();
    RgbaImage::from_raw(width, height, top_down)
        .ok_or_else(|| format!("{width}x{height} read-back has the wrong size"))
}
