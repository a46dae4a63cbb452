//! Where a pass draws: the back buffer or an offscreen [`GlRenderTarget`] (MonoGame's
//! `RenderTarget2D` with a depth-stencil buffer), and reading the pixels back.
//!
//! Orientation: `glReadPixels` returns the bottom row first. The back buffer holds the picture
//! the right way up, so its rows are reversed on read-back. A render target is stored top row
//! first, because MonoGame flips y (`posFixup.y = -1`) while one is bound, so it is read as is;
//! drawing its texture with v = 0 at the top then shows it upright, as in MonoGame. Either way
//! [`RenderTarget::read_rgba8`] and [`GlRenderTarget::read_rgba8`] return what a player sees,
//! top row first.

use glow::HasContext;

use super::error::creating;
use super::formats::{self, Api, DepthStencil};
use super::pixel_store::{Direction, PackedRows};
use super::texture::{check_size, set_sampling, TexelFilter};
use super::{GlContext, GlError, GlTexture, RenderTarget};

fn gl_size(width: u32, height: u32) -> (i32, i32) {
    let clamp = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
    (clamp(width), clamp(height))
}

impl RenderTarget {
    /// The back buffer (default framebuffer) of `width`×`height`, no half-pixel offset.
    pub fn backbuffer(width: u32, height: u32) -> RenderTarget {
        RenderTarget {
            width,
            height,
            is_render_target: false,
            half_pixel_offset: false,
        }
    }

    /// Reads the framebuffer bound for reading (`width`×`height` from its bottom-left corner)
    /// as RGBA8, top row first, un-flipping it as this description says it was drawn: rows are
    /// reversed for the back buffer and kept for a render target. The pixel-store state is set
    /// for the read (packed rows, no pixel buffer) and the caller's restored afterwards.
    pub fn read_rgba8(&self, ctx: &GlContext) -> Result<Vec<u8>, GlError> {
        let gl = ctx.glow();
        let (w, h) = gl_size(self.width, self.height);
        readable(gl)?;
        let row = self.width as usize * 4;
        let mut pixels = vec![0u8; row * self.height as usize];
        // SAFETY: the context is current (`GlContext`); with the pixel-store state set for
        // packed rows and no pack buffer, GL writes exactly the width*height RGBA8 pixels the
        // buffer holds.
        unsafe {
            let _packed = PackedRows::set(gl, Direction::Pack);
            let (format, ty) = formats::READ_BACK;
            gl.read_pixels(
                0,
                0,
                w,
                h,
                format,
                ty,
                glow::PixelPackData::Slice(Some(&mut pixels)),
            );
        }
        if self.is_render_target || row == 0 {
            return Ok(pixels);
        }
        Ok(pixels.chunks_exact(row).rev().flatten().copied().collect())
    }
}

/// `Ok` when the framebuffer bound for reading is complete, so `glReadPixels` can read it
/// (checked up front: `glGetError` afterwards would take the caller's pending errors).
fn readable(gl: &glow::Context) -> Result<(), GlError> {
    let (target, _) = formats::read_binding(Api::current(gl));
    // SAFETY: a query on the caller's current context.
    let status = unsafe { gl.check_framebuffer_status(target) };
    if status == glow::FRAMEBUFFER_COMPLETE {
        return Ok(());
    }
    Err(GlError::Driver {
        context: "reading pixels back".to_string(),
        log: format!("the framebuffer bound for reading is incomplete (status 0x{status:04X})"),
    })
}

/// The name of a `glCheckFramebufferStatus` result.
fn status_name(status: u32) -> &'static str {
    match status {
        glow::FRAMEBUFFER_UNSUPPORTED => "GL_FRAMEBUFFER_UNSUPPORTED",
        glow::FRAMEBUFFER_INCOMPLETE_ATTACHMENT => "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT",
        glow::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT => {
            "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT"
        }
        glow::FRAMEBUFFER_INCOMPLETE_DIMENSIONS => "GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS",
        _ => "status",
    }
}

/// An offscreen render target: an RGBA8 colour texture (nearest filtering, one mip level) and a
/// depth24/stencil8 renderbuffer, like MonoGame's
/// `new RenderTarget2D(device, w, h, false, SurfaceFormat.Color, DepthFormat.Depth24Stencil8)`.
/// On OpenGL ES 2.0 the texture is unsized `GL_RGBA`, and depth and stencil are what MonoGame
/// uses there: a packed buffer with `GL_OES_packed_depth_stencil`, otherwise a 16-bit (24 with
/// `GL_OES_depth24`) depth buffer and an 8-bit stencil buffer.
///
/// Draw into it with [`GlRenderTarget::bind`] and [`GlRenderTarget::target`] as the pass's
/// [`RenderTarget`], then sample [`GlRenderTarget::texture`] or read it back. Dropping it
/// deletes the framebuffer and renderbuffer; the colour texture lives on while a handle to it
/// does (an effect it was given to, a clone).
#[derive(Debug)]
pub struct GlRenderTarget {
    ctx: GlContext,
    framebuffer: glow::Framebuffer,
    /// The depth (or packed depth-stencil) buffer, and a separate stencil buffer if any.
    depth: glow::Renderbuffer,
    stencil: Option<glow::Renderbuffer>,
    color: GlTexture,
    width: u32,
    height: u32,
}

impl GlRenderTarget {
    /// Creates a complete `width`×`height` target (contents undefined until cleared); the
    /// default framebuffer is bound afterwards.
    pub fn new(ctx: &GlContext, width: u32, height: u32) -> Result<GlRenderTarget, GlError> {
        let layout = formats::depth_stencil_of(ctx.glow());
        GlRenderTarget::with_depth_stencil(ctx, width, height, layout)
    }

    /// [`GlRenderTarget::new`] with the given depth and stencil buffers.
    pub(crate) fn with_depth_stencil(
        ctx: &GlContext,
        width: u32,
        height: u32,
        layout: DepthStencil,
    ) -> Result<GlRenderTarget, GlError> {
        let gl = ctx.glow();
        let (w, h) = gl_size(width, height);
        check_size(gl, width, height, glow::MAX_TEXTURE_SIZE)?;
        check_size(gl, width, height, glow::MAX_RENDERBUFFER_SIZE)?;
        let what = "a render target";
        let separate = matches!(layout, DepthStencil::Separate { .. });
        // SAFETY: object creation on the current context (`GlContext`); the texture is owned
        // (deleted on an early return) as soon as it exists, the renderbuffers are deleted by
        // hand if a later object cannot be made.
        let target = unsafe {
            let color = GlTexture::from_raw(
                ctx,
                gl.create_texture().map_err(creating(what))?,
                glow::TEXTURE_2D,
            );
            let depth = gl.create_renderbuffer().map_err(creating(what))?;
            let stencil = match separate.then(|| gl.create_renderbuffer()) {
                Some(Err(log)) => {
                    gl.delete_renderbuffer(depth);
                    return Err(creating(what)(log));
                }
                made => made.and_then(Result::ok),
            };
            let framebuffer = match gl.create_framebuffer() {
                Ok(f) => f,
                Err(log) => {
                    gl.delete_renderbuffer(depth);
                    if let Some(stencil) = stencil {
                        gl.delete_renderbuffer(stencil);
                    }
                    return Err(creating(what)(log));
                }
            };
            // From here on `Drop` deletes them all.
            GlRenderTarget {
                ctx: ctx.clone(),
                framebuffer,
                depth,
                stencil,
                color,
                width,
                height,
            }
        };
        let texels = formats::rgba8_texture(Api::current(gl));
        // SAFETY: state calls and storage allocation on the current context for the objects
        // just made; the default bindings are restored.
        let status = unsafe {
            // No pointer is passed, but a bound unpack buffer would be read from.
            let packed = PackedRows::set(gl, Direction::Unpack);
            gl.bind_texture(glow::TEXTURE_2D, Some(target.color.raw()));
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                texels.internal,
                w,
                h,
                0,
                texels.format,
                texels.ty,
                glow::PixelUnpackData::Slice(None),
            );
            drop(packed);
            set_sampling(ctx, glow::TEXTURE_2D, TexelFilter::Nearest);
            gl.bind_texture(glow::TEXTURE_2D, None);
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(target.framebuffer));
            gl.framebuffer_texture_2d(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::TEXTURE_2D,
                Some(target.color.raw()),
                0,
            );
            let buffers: [(Option<glow::Renderbuffer>, u32, &[u32]); 2] = match layout {
                DepthStencil::Packed {
                    internal,
                    attachments,
                } => [(Some(target.depth), internal, attachments), (None, 0, &[])],
                DepthStencil::Separate { depth, stencil } => [
                    (Some(target.depth), depth, &[glow::DEPTH_ATTACHMENT]),
                    (target.stencil, stencil, &[glow::STENCIL_ATTACHMENT]),
                ],
            };
            for (buffer, internal, attachments) in buffers {
                let Some(buffer) = buffer else { continue };
                gl.bind_renderbuffer(glow::RENDERBUFFER, Some(buffer));
                gl.renderbuffer_storage(glow::RENDERBUFFER, internal, w, h);
                for &attachment in attachments {
                    gl.framebuffer_renderbuffer(
                        glow::FRAMEBUFFER,
                        attachment,
                        glow::RENDERBUFFER,
                        Some(buffer),
                    );
                }
            }
            gl.bind_renderbuffer(glow::RENDERBUFFER, None);
            let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            status
        };
        if status != glow::FRAMEBUFFER_COMPLETE {
            let why = if separate {
                "; this OpenGL ES 2 driver has no GL_OES_packed_depth_stencil, and a render \
                 target with depth and stencil then needs separate depth and stencil buffers"
            } else {
                ""
            };
            return Err(GlError::Driver {
                context: format!("creating a {width}x{height} render target"),
                log: format!(
                    "framebuffer incomplete ({} 0x{status:04X}){why}",
                    status_name(status)
                ),
            });
        }
        Ok(target)
    }

    /// Binds it for drawing and reading, with a viewport covering it
    /// (MonoGame's `SetRenderTarget(target)`).
    pub fn bind(&self) {
        let (w, h) = gl_size(self.width, self.height);
        // SAFETY: the context is current (`GlContext`); the framebuffer is this target's.
        unsafe {
            let gl = self.ctx.glow();
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.framebuffer));
            gl.viewport(0, 0, w, h);
        }
    }

    /// Binds the back buffer again, with a viewport covering `width`×`height`
    /// (MonoGame's `SetRenderTarget(null)`).
    pub fn unbind(ctx: &GlContext, width: u32, height: u32) {
        let (w, h) = gl_size(width, height);
        // SAFETY: the context is current (`GlContext`).
        unsafe {
            let gl = ctx.glow();
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            gl.viewport(0, 0, w, h);
        }
    }

    /// What [`GlEffect::apply`](super::GlEffect::apply) needs while it is bound: its size, and
    /// that it is a render target (y is flipped, and with it the cull winding).
    pub fn target(&self) -> RenderTarget {
        RenderTarget {
            width: self.width,
            height: self.height,
            is_render_target: true,
            half_pixel_offset: false,
        }
    }

    /// Its colour texture, to sample in a later pass (unbind the target first). Clone the
    /// handle to keep the texture beyond the target.
    pub fn texture(&self) -> &GlTexture {
        &self.color
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Its pixels as RGBA8, top row first (MonoGame's `RenderTarget2D.GetData` order). The
    /// framebuffer bound for reading (on OpenGL ES 2.0, the one framebuffer binding) is restored
    /// afterwards.
    pub fn read_rgba8(&self) -> Result<Vec<u8>, GlError> {
        let gl = self.ctx.glow();
        // OpenGL ES 2.0 has no read binding: there the one framebuffer binding is put back.
        let (target, binding) = formats::read_binding(Api::current(gl));
        // SAFETY: the context is current (`GlContext`); the previous binding is put back.
        unsafe {
            let previous = gl.get_parameter_framebuffer(binding);
            gl.bind_framebuffer(target, Some(self.framebuffer));
            let pixels = self.target().read_rgba8(&self.ctx);
            gl.bind_framebuffer(target, previous);
            pixels
        }
    }
}

impl Drop for GlRenderTarget {
    fn drop(&mut self) {
        // SAFETY: objects made by this target on its context, current while it is dropped
        // (`GlContext`); the colour texture deletes itself with its last handle.
        unsafe {
            let gl = self.ctx.glow();
            gl.delete_framebuffer(self.framebuffer);
            gl.delete_renderbuffer(self.depth);
            if let Some(stencil) = self.stencil {
                gl.delete_renderbuffer(stencil);
            }
        }
    }
}

#[cfg(all(test, feature = "headless"))]
mod tests {
    use super::*;
    use crate::gl::headless::HeadlessGl;

    const RED: [u8; 4] = [255, 0, 0, 255];
    const BLUE: [u8; 4] = [0, 0, 255, 255];

    fn context(test: &str) -> Option<HeadlessGl> {
        HeadlessGl::new(4, 3)
            .map_err(|e| {
                shadowdusk_testkit::skip(test, &format!("headless OpenGL unavailable: {e}"))
            })
            .ok()
    }

    /// Clears the bound framebuffer blue, then GL's row 0 (glReadPixels' first row) red.
    fn paint_gl_row_0(gl: &glow::Context, width: i32) {
        // SAFETY: state calls on the test's current context.
        unsafe {
            gl.disable(glow::SCISSOR_TEST);
            gl.clear_color(0.0, 0.0, 1.0, 1.0);
            gl.clear(glow::COLOR_BUFFER_BIT);
            gl.enable(glow::SCISSOR_TEST);
            gl.scissor(0, 0, width, 1);
            gl.clear_color(1.0, 0.0, 0.0, 1.0);
            gl.clear(glow::COLOR_BUFFER_BIT);
            gl.disable(glow::SCISSOR_TEST);
        }
    }

    fn row(pixels: &[u8], width: usize, y: usize) -> Vec<[u8; 4]> {
        pixels[y * width * 4..(y + 1) * width * 4]
            .chunks_exact(4)
            .map(|p| [p[0], p[1], p[2], p[3]])
            .collect()
    }

    #[test]
    fn the_back_buffer_is_read_top_row_first_and_a_render_target_as_stored() {
        let Some(context) =
            context("the_back_buffer_is_read_top_row_first_and_a_render_target_as_stored")
        else {
            return;
        };
        let ctx = context.context();
        paint_gl_row_0(ctx.glow(), 4);
        let screen = RenderTarget::backbuffer(4, 3).read_rgba8(ctx).unwrap();
        // GL's row 0 is the bottom of the back buffer.
        assert_eq!(row(&screen, 4, 2), [RED; 4]);
        assert_eq!(row(&screen, 4, 0), [BLUE; 4]);

        let target = GlRenderTarget::new(ctx, 2, 2).unwrap();
        target.bind();
        paint_gl_row_0(ctx.glow(), 2);
        GlRenderTarget::unbind(ctx, 4, 3);
        // A render target is stored top row first (posFixup flips y), so GL's row 0 is its top.
        let stored = target.read_rgba8().unwrap();
        assert_eq!(row(&stored, 2, 0), [RED; 2]);
        assert_eq!(row(&stored, 2, 1), [BLUE; 2]);
        // The back buffer is still what is bound for reading.
        assert_eq!(
            RenderTarget::backbuffer(4, 3).read_rgba8(ctx).unwrap(),
            screen
        );
    }

    #[test]
    fn separate_depth_and_stencil_buffers_the_driver_refuses_are_an_error_saying_why() {
        // What OpenGL ES 2 without GL_OES_packed_depth_stencil gets, as MonoGame does it; Mesa
        // (like many drivers) supports no such framebuffer.
        let test = "separate_depth_and_stencil_buffers_the_driver_refuses_are_an_error_saying_why";
        let Some(context) = context(test) else {
            return;
        };
        let layout = formats::depth_stencil(Api::Es2, &|_| false);
        assert!(matches!(layout, DepthStencil::Separate { .. }));
        let err = GlRenderTarget::with_depth_stencil(context.context(), 2, 2, layout).unwrap_err();
        let GlError::Driver { context, log } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(context, "creating a 2x2 render target");
        assert!(
            log.starts_with("framebuffer incomplete (GL_FRAMEBUFFER_UNSUPPORTED 0x8CDD)")
                && log.contains("no GL_OES_packed_depth_stencil"),
            "{log}"
        );
    }

    #[test]
    fn texture_data_of_the_wrong_size_is_refused() {
        let Some(context) = context("texture_data_of_the_wrong_size_is_refused") else {
            return;
        };
        let ctx = context.context();
        let err = GlTexture::from_rgba8(ctx, 2, 2, &[0; 12], TexelFilter::Nearest);
        assert_eq!(
            err,
            Err(GlError::PixelData {
                width: 2,
                height: 2,
                needed: 16,
                got: 12
            })
        );
        let texture = GlTexture::from_rgba8(ctx, 2, 2, &[0; 16], TexelFilter::Linear);
        let texture = texture.unwrap();
        assert_eq!(texture.target(), glow::TEXTURE_2D);
    }

    #[test]
    fn sizes_past_the_drivers_limit_are_refused_before_any_gl_call_fails() {
        let Some(context) =
            context("sizes_past_the_drivers_limit_are_refused_before_any_gl_call_fails")
        else {
            return;
        };
        let ctx = context.context();
        let gl = ctx.glow();
        // SAFETY: a query on the current context.
        let max = unsafe { gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE) } as u32;
        let too_wide = max + 1;
        let pixels = vec![0; too_wide as usize * 4];
        let err = GlTexture::from_rgba8(ctx, too_wide, 1, &pixels, TexelFilter::Nearest);
        let expected = GlError::TooLarge {
            width: too_wide,
            height: 1,
            max,
        };
        assert_eq!(err, Err(expected.clone()));
        assert_eq!(GlRenderTarget::new(ctx, too_wide, 1).unwrap_err(), expected);
        // SAFETY: a query on the current context.
        assert_eq!(unsafe { gl.get_error() }, glow::NO_ERROR);
    }
}
