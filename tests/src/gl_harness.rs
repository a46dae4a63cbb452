//! Headless OpenGL for render tests: EGL on Mesa's surfaceless platform with a pbuffer
//! (toolchain.md §3), no X and no GPU, plus an FBO render target and pixel read-back.
//!
//! Orientation: MonoGame's back buffer is read with `glReadPixels`, whose row 0 is the bottom
//! row; its render targets are stored top row first because `posFixup.y = -1` flips y while one
//! is bound. [`Headless::read_rgba`] undoes the first and keeps the second, so both return a
//! top-down image of what the user would see.

use glow::HasContext;
use image::RgbaImage;
use khronos_egl as egl;
use shadowdusk::gl::{GlTexture, RenderTarget};

const PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;

/// Where rendering goes, which decides `posFixup` and how pixels are read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// The default framebuffer (pbuffer); stored bottom row first.
    Backbuffer,
    /// An FBO render target; MonoGame stores it top row first.
    RenderTarget,
}

/// A current desktop-GL compatibility context on a `width`×`height` pbuffer.
pub struct Headless {
    lib: egl::DynamicInstance<egl::EGL1_5>,
    display: egl::Display,
    context: egl::Context,
    surface: egl::Surface,
    vao: Option<glow::VertexArray>,
    /// The GL functions of this context.
    pub gl: glow::Context,
    /// Pbuffer width.
    pub width: u32,
    /// Pbuffer height.
    pub height: u32,
}

impl Headless {
    /// Creates the context and makes it current on this thread. The error says what is missing
    /// (libEGL, the Mesa surfaceless platform, a GL config).
    pub fn new(width: u32, height: u32) -> Result<Headless, String> {
        // SAFETY: loads the system EGL library; its symbols are used through khronos-egl.
        let lib = unsafe {
            egl::DynamicInstance::<egl::EGL1_5>::load_required_from_filename("libEGL.so.1")
        }
        .map_err(|e| {
            format!("cannot load libEGL.so.1 ({e}); install libegl1 libegl-mesa0 libgl1-mesa-dri")
        })?;
        let exts = lib
            .query_string(None, egl::EXTENSIONS)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !exts.contains("EGL_MESA_platform_surfaceless") {
            return Err(format!(
                "EGL has no EGL_MESA_platform_surfaceless (client extensions: {exts}); install libegl-mesa0"
            ));
        }
        // SAFETY: the surfaceless platform takes no native display.
        let display = unsafe {
            lib.get_platform_display(
                PLATFORM_SURFACELESS_MESA,
                egl::DEFAULT_DISPLAY,
                &[egl::ATTRIB_NONE],
            )
        }
        .map_err(|e| format!("eglGetPlatformDisplay(surfaceless): {e}"))?;
        lib.initialize(display)
            .map_err(|e| format!("eglInitialize: {e} (is libgl1-mesa-dri installed?)"))?;
        let config = lib
            .choose_first_config(
                display,
                &[
                    egl::SURFACE_TYPE,
                    egl::PBUFFER_BIT,
                    egl::RENDERABLE_TYPE,
                    egl::OPENGL_BIT,
                    egl::RED_SIZE,
                    8,
                    egl::GREEN_SIZE,
                    8,
                    egl::BLUE_SIZE,
                    8,
                    egl::ALPHA_SIZE,
                    8,
                    egl::DEPTH_SIZE,
                    24,
                    egl::STENCIL_SIZE,
                    8,
                    egl::NONE,
                ],
            )
            .map_err(|e| format!("eglChooseConfig: {e}"))?
            .ok_or("no EGL config with RGBA8 + depth24/stencil8 pbuffer and desktop GL")?;
        lib.bind_api(egl::OPENGL_API)
            .map_err(|e| format!("eglBindAPI(OpenGL): {e}"))?;
        // No attributes: the default desktop context is a compatibility profile, which accepts
        // GLSL 1.10 text without #version, as MonoGame's DesktopGL does.
        let context = lib
            .create_context(display, config, None, &[egl::NONE])
            .map_err(|e| format!("eglCreateContext: {e}"))?;
        let surface = lib
            .create_pbuffer_surface(
                display,
                config,
                &[
                    egl::WIDTH,
                    width as i32,
                    egl::HEIGHT,
                    height as i32,
                    egl::NONE,
                ],
            )
            .map_err(|e| format!("eglCreatePbufferSurface: {e}"))?;
        lib.make_current(display, Some(surface), Some(surface), Some(context))
            .map_err(|e| format!("eglMakeCurrent: {e}"))?;
        // SAFETY: the context is current; entry points come from eglGetProcAddress.
        let gl = unsafe {
            glow::Context::from_loader_function(|s| {
                lib.get_proc_address(s)
                    .map_or(std::ptr::null(), |p| p as *const _)
            })
        };
        // SAFETY: plain GL calls on the context just made current.
        let vao = unsafe {
            let vao = gl.create_vertex_array().ok();
            gl.bind_vertex_array(vao);
            gl.viewport(0, 0, width as i32, height as i32);
            vao
        };
        Ok(Headless {
            lib,
            display,
            context,
            surface,
            vao,
            gl,
            width,
            height,
        })
    }

    /// `Headless::new`, or `None` after printing loudly why render tests are skipped.
    pub fn or_skip(test: &str, width: u32, height: u32) -> Option<Headless> {
        match Headless::new(width, height) {
            Ok(h) => Some(h),
            Err(e) => {
                eprintln!("!!! SKIPPED {test}: headless OpenGL unavailable: {e}");
                None
            }
        }
    }

    /// The GL functions.
    pub fn gl(&self) -> &glow::Context {
        &self.gl
    }

    /// The [`RenderTarget`] for drawing into the full pbuffer or an FBO of the same size.
    pub fn target(&self, orientation: Orientation) -> RenderTarget {
        RenderTarget {
            width: self.width,
            height: self.height,
            is_render_target: orientation == Orientation::RenderTarget,
            half_pixel_offset: false,
        }
    }

    /// Clears the bound framebuffer's colour (0..255 RGBA), depth (to 1) and stencil (to 0).
    pub fn clear(&self, rgba: [u8; 4]) {
        self.clear_with(rgba, 0);
    }

    /// Clears colour, depth (to 1) and stencil (to `stencil`), with all write masks open.
    pub fn clear_with(&self, rgba: [u8; 4], stencil: i32) {
        let c = rgba.map(|v| v as f32 / 255.0);
        // SAFETY: plain GL calls on the current context.
        unsafe {
            gl_reset_write_masks(&self.gl);
            self.gl.clear_color(c[0], c[1], c[2], c[3]);
            self.gl.clear_depth_f64(1.0);
            self.gl.clear_stencil(stencil);
            self.gl
                .clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT | glow::STENCIL_BUFFER_BIT);
        }
    }

    /// Reads the bound framebuffer (`width`×`height`) as a top-down image.
    pub fn read_rgba(&self, orientation: Orientation) -> RgbaImage {
        read_framebuffer(&self.gl, self.width, self.height, orientation)
    }
}

/// Write masks must be open for glClear to clear everything a previous pass may have masked.
unsafe fn gl_reset_write_masks(gl: &glow::Context) {
    // SAFETY: forwarded from the caller.
    unsafe {
        gl.color_mask(true, true, true, true);
        gl.depth_mask(true);
        gl.stencil_mask(0xFFFF_FFFF);
    }
}

/// Reads `width`×`height` RGBA8 from the bound read framebuffer as a top-down image.
pub fn read_framebuffer(
    gl: &glow::Context,
    width: u32,
    height: u32,
    orientation: Orientation,
) -> RgbaImage {
    let mut buf = vec![0u8; (width * height * 4) as usize];
    // SAFETY: the buffer holds exactly width*height RGBA8 pixels with pack alignment 1.
    unsafe {
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
    let row = (width * 4) as usize;
    let rows: Vec<&[u8]> = buf.chunks_exact(row.max(1)).collect();
    let ordered: Vec<u8> = match orientation {
        // glReadPixels row 0 is the bottom of the screen.
        Orientation::Backbuffer => rows.iter().rev().flat_map(|r| r.iter().copied()).collect(),
        // posFixup.y = -1 already stored the top row at row 0.
        Orientation::RenderTarget => buf.clone(),
    };
    RgbaImage::from_raw(width, height, ordered).unwrap_or_else(|| RgbaImage::new(width, height))
}

impl Drop for Headless {
    fn drop(&mut self) {
        // SAFETY: the VAO belongs to this context, which is still current.
        unsafe {
            if let Some(vao) = self.vao {
                self.gl.delete_vertex_array(vao);
            }
        }
        // The display is shared by every thread's contexts, so it is not terminated.
        let _ = self.lib.make_current(self.display, None, None, None);
        let _ = self.lib.destroy_surface(self.display, self.surface);
        let _ = self.lib.destroy_context(self.display, self.context);
    }
}

/// An offscreen render target: RGBA8 colour texture + depth24/stencil8 renderbuffer.
pub struct Fbo {
    /// The framebuffer object.
    pub framebuffer: glow::Framebuffer,
    /// The colour attachment (can be sampled after rendering).
    pub color: glow::Texture,
    depth: glow::Renderbuffer,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

impl Fbo {
    /// Creates a complete FBO; leaves the default framebuffer bound.
    pub fn new(gl: &glow::Context, width: u32, height: u32) -> Result<Fbo, String> {
        // SAFETY: plain GL object creation on the current context.
        unsafe {
            let color = gl.create_texture()?;
            gl.bind_texture(glow::TEXTURE_2D, Some(color));
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
            gl.tex_parameter_i32(
                glow::TEXTURE_2D,
                glow::TEXTURE_MAG_FILTER,
                glow::NEAREST as i32,
            );
            gl.bind_texture(glow::TEXTURE_2D, None);
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
            if status != glow::FRAMEBUFFER_COMPLETE {
                return Err(format!("FBO incomplete: status 0x{status:04X}"));
            }
            Ok(Fbo {
                framebuffer,
                color,
                depth,
                width,
                height,
            })
        }
    }

    /// Binds it for drawing and reading and sets the viewport.
    pub fn bind(&self, gl: &glow::Context) {
        // SAFETY: plain GL calls on the current context.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.framebuffer));
            gl.viewport(0, 0, self.width as i32, self.height as i32);
        }
    }

    /// Binds the default framebuffer again with a `width`×`height` viewport.
    pub fn unbind(gl: &glow::Context, width: u32, height: u32) {
        // SAFETY: plain GL calls on the current context.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            gl.viewport(0, 0, width as i32, height as i32);
        }
    }

    /// The [`RenderTarget`] describing it.
    pub fn target(&self) -> RenderTarget {
        RenderTarget {
            width: self.width,
            height: self.height,
            is_render_target: true,
            half_pixel_offset: false,
        }
    }

    /// Its colour texture as an effect texture.
    pub fn texture(&self) -> GlTexture {
        GlTexture {
            texture: self.color,
            target: glow::TEXTURE_2D,
        }
    }

    /// Reads its pixels (top-down; it must be bound).
    pub fn read_rgba(&self, gl: &glow::Context) -> RgbaImage {
        read_framebuffer(gl, self.width, self.height, Orientation::RenderTarget)
    }

    /// Deletes the GL objects.
    pub fn destroy(self, gl: &glow::Context) {
        // SAFETY: objects created by this FBO on the current context.
        unsafe {
            gl.delete_framebuffer(self.framebuffer);
            gl.delete_texture(self.color);
            gl.delete_renderbuffer(self.depth);
        }
    }
}
