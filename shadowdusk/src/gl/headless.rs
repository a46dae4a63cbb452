//! A window-less OpenGL context (feature `headless`): EGL on Mesa's surfaceless platform
//! (`EGL_MESA_platform_surfaceless`) with a pbuffer as the back buffer. It needs no X server and
//! no GPU (Mesa's llvmpipe renders on the CPU), which makes it the way to render screenshot tests
//! of a game in CI.
//!
//! libEGL is loaded at run time (`dlopen("libEGL.so.1")`), so a program built with this feature
//! still starts where EGL is missing; [`HeadlessGl::new`] then returns a [`HeadlessError`] naming
//! what to install (Debian: `libegl1 libegl-mesa0 libgl1-mesa-dri`).
//!
//! The context keeps [`GlContext`]'s promise by itself, so using it needs no `unsafe`: it is
//! made current on the thread that creates it and stays current there, a thread holds at most
//! one at a time ([`HeadlessError::ContextInUse`] otherwise), and the EGL context is destroyed
//! only after the last effect, texture or target made from it is dropped.
//!
//! ```no_run
//! use glow::HasContext;
//! use shadowdusk::gl::headless::HeadlessGl;
//! use shadowdusk::gl::{GlTexture, TexelFilter};
//!
//! let headless = HeadlessGl::new(256, 256)?;
//! let ctx = headless.context();
//! let texture = GlTexture::from_rgba8(ctx, 1, 1, &[255, 0, 0, 255], TexelFilter::Nearest)?;
//! // Your own GL calls go through glow. SAFETY: the context is current on this thread.
//! unsafe {
//!     ctx.glow().clear_color(0.0, 0.0, 0.0, 1.0);
//!     ctx.glow().clear(glow::COLOR_BUFFER_BIT);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cell::Cell;

use khronos_egl as egl;

use super::GlContext;

/// `EGL_PLATFORM_SURFACELESS_MESA` (khronos-egl has no constant for it).
const PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;

/// The library asked for; `libEGL.so` without the version is only installed with the headers.
const LIBEGL: &str = "libEGL.so.1";

/// Which client API the context implements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Api {
    /// Desktop OpenGL, compatibility profile: accepts MonoGame's GLSL 1.10 text without a
    /// `#version` line, as a DesktopGL window does. What [`GlEffect`](super::GlEffect) targets.
    #[default]
    DesktopGl,
    /// OpenGL ES 2 (GLSL ES 1.00), what MonoGame's mobile platforms compile the same text as.
    /// Asked for ES 2, Mesa makes the newest OpenGL ES it has (3.2), which accepts more than
    /// ES 2.0; with `MESA_GLES_VERSION_OVERRIDE=2.0` in the environment it makes ES 2.0.
    Gles2,
}

/// Why no headless context could be made. Each message says what to install or check.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeadlessError {
    /// `libEGL.so.1` could not be loaded, or is older than EGL 1.5.
    #[error("cannot load {LIBEGL} ({0}); install libegl1 libegl-mesa0 libgl1-mesa-dri")]
    LoadEgl(String),
    /// The EGL found is not Mesa's, or too old for the surfaceless platform.
    #[error("EGL has no EGL_MESA_platform_surfaceless (client extensions: {extensions}); install libegl-mesa0 (Mesa)")]
    NoSurfacelessPlatform {
        /// EGL's client extension string.
        extensions: String,
    },
    /// No configuration with an RGBA8 pbuffer, depth 24 and stencil 8 for the requested API.
    #[error(
        "no EGL config with an RGBA8 + depth24/stencil8 pbuffer for {0:?}; install libgl1-mesa-dri"
    )]
    NoConfig(Api),
    /// This thread already holds a headless context (or something made from one is still
    /// alive): a second one would be made current in its place, and the first one's effects
    /// and textures would then run their GL calls on the wrong context.
    #[error("this thread already has a headless GL context; drop it, and every effect, texture and target made from it, first")]
    ContextInUse,
    /// An EGL call failed.
    #[error("{call}: {message}")]
    Egl {
        /// The EGL function.
        call: &'static str,
        /// EGL's error, with a hint where one helps.
        message: String,
    },
}

fn egl_error(call: &'static str) -> impl FnOnce(egl::Error) -> HeadlessError {
    move |e| HeadlessError::Egl {
        call,
        message: e.to_string(),
    }
}

thread_local! {
    /// Whether this thread holds a headless context (until its `Egl` is dropped).
    static IN_USE: Cell<bool> = const { Cell::new(false) };
}

/// A GL context current on the thread that made it, rendering into a `width`×`height` pbuffer.
///
/// Hand [`HeadlessGl::context`] to the runtime. Dropping it and everything made from it
/// releases the context and the pbuffer. The EGL display is left initialized: EGL hands every
/// context of the process the same display, and terminating it would pull the contexts of
/// other threads (parallel tests) out from under them.
pub struct HeadlessGl {
    context: GlContext,
    width: u32,
    height: u32,
}

/// The EGL objects behind a [`HeadlessGl`], owned by its [`GlContext`] so they outlive every
/// GL object made on them.
struct Egl {
    display: egl::Display,
    context: egl::Context,
    surface: egl::Surface,
    lib: egl::DynamicInstance<egl::EGL1_5>,
}

impl Drop for Egl {
    fn drop(&mut self) {
        // Errors here leave nothing to recover: the process keeps a leaked context at worst.
        let _ = self.lib.make_current(self.display, None, None, None);
        let _ = self.lib.destroy_surface(self.display, self.surface);
        let _ = self.lib.destroy_context(self.display, self.context);
        IN_USE.with(|c| c.set(false));
    }
}

impl HeadlessGl {
    /// A desktop-GL compatibility context ([`Api::DesktopGl`]) on a `width`×`height` pbuffer,
    /// current on this thread.
    pub fn new(width: u32, height: u32) -> Result<HeadlessGl, HeadlessError> {
        HeadlessGl::with_api(width, height, Api::DesktopGl)
    }

    /// A context of `api` on a `width`×`height` pbuffer (RGBA8, depth 24, stencil 8), current
    /// on this thread.
    pub fn with_api(width: u32, height: u32, api: Api) -> Result<HeadlessGl, HeadlessError> {
        if IN_USE.with(Cell::get) {
            return Err(HeadlessError::ContextInUse);
        }
        let (egl, gl) = egl_context(width, height, api)?;
        IN_USE.with(|c| c.set(true));
        // SAFETY: the context was just made current on this thread, and stays current until
        // `Egl` is dropped with the last handle: the handle cannot leave the thread, and while
        // `IN_USE` is set no other headless context is made current here.
        let context = unsafe { GlContext::with_owner(gl, Box::new(egl)) };
        Ok(HeadlessGl {
            context,
            width,
            height,
        })
    }

    /// The context, for effects, textures, targets and your own GL calls.
    pub fn context(&self) -> &GlContext {
        &self.context
    }

    /// The GL functions of this context (`self.context().glow()`).
    pub fn gl(&self) -> &glow::Context {
        self.context.glow()
    }

    /// Pbuffer width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Pbuffer height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }
}

/// Creates the EGL context and pbuffer, makes them current and loads the GL functions.
fn egl_context(width: u32, height: u32, api: Api) -> Result<(Egl, glow::Context), HeadlessError> {
    // SAFETY: loads the system EGL library; its symbols are only used through khronos-egl.
    let lib = unsafe { egl::DynamicInstance::<egl::EGL1_5>::load_required_from_filename(LIBEGL) }
        .map_err(|e| HeadlessError::LoadEgl(e.to_string()))?;
    let extensions = lib
        .query_string(None, egl::EXTENSIONS)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !extensions.contains("EGL_MESA_platform_surfaceless") {
        return Err(HeadlessError::NoSurfacelessPlatform { extensions });
    }
    // SAFETY: the surfaceless platform takes no native display.
    let display = unsafe {
        lib.get_platform_display(
            PLATFORM_SURFACELESS_MESA,
            egl::DEFAULT_DISPLAY,
            &[egl::ATTRIB_NONE],
        )
    }
    .map_err(egl_error("eglGetPlatformDisplay(surfaceless)"))?;
    lib.initialize(display).map_err(|e| HeadlessError::Egl {
        call: "eglInitialize",
        message: format!("{e} (is libgl1-mesa-dri installed?)"),
    })?;
    let (renderable, client_api) = match api {
        Api::DesktopGl => (egl::OPENGL_BIT, egl::OPENGL_API),
        Api::Gles2 => (egl::OPENGL_ES2_BIT, egl::OPENGL_ES_API),
    };
    #[rustfmt::skip]
    let attributes = [
        egl::SURFACE_TYPE, egl::PBUFFER_BIT,
        egl::RENDERABLE_TYPE, renderable,
        egl::RED_SIZE, 8, egl::GREEN_SIZE, 8, egl::BLUE_SIZE, 8, egl::ALPHA_SIZE, 8,
        egl::DEPTH_SIZE, 24, egl::STENCIL_SIZE, 8,
        egl::NONE,
    ];
    let config = lib
        .choose_first_config(display, &attributes)
        .map_err(egl_error("eglChooseConfig"))?
        .ok_or(HeadlessError::NoConfig(api))?;
    lib.bind_api(client_api).map_err(egl_error("eglBindAPI"))?;
    // Desktop: no attributes gives the default compatibility profile, which compiles GLSL
    // 1.10 without #version; a core profile would refuse MonoGame's shaders.
    let context_attributes: &[egl::Int] = match api {
        Api::DesktopGl => &[egl::NONE],
        Api::Gles2 => &[egl::CONTEXT_CLIENT_VERSION, 2, egl::NONE],
    };
    let context = lib
        .create_context(display, config, None, context_attributes)
        .map_err(egl_error("eglCreateContext"))?;
    let size = |v: u32| egl::Int::try_from(v).unwrap_or(egl::Int::MAX);
    let surface = lib.create_pbuffer_surface(
        display,
        config,
        &[
            egl::WIDTH,
            size(width),
            egl::HEIGHT,
            size(height),
            egl::NONE,
        ],
    );
    let surface = match surface {
        Ok(s) => s,
        Err(e) => {
            let _ = lib.destroy_context(display, context);
            return Err(egl_error("eglCreatePbufferSurface")(e));
        }
    };
    if let Err(e) = lib.make_current(display, Some(surface), Some(surface), Some(context)) {
        let _ = lib.destroy_surface(display, surface);
        let _ = lib.destroy_context(display, context);
        return Err(egl_error("eglMakeCurrent")(e));
    }
    // SAFETY: the context is current; every entry point comes from eglGetProcAddress.
    let gl = unsafe {
        glow::Context::from_loader_function(|s| {
            lib.get_proc_address(s)
                .map_or(std::ptr::null(), |p| p as *const _)
        })
    };
    let egl = Egl {
        display,
        context,
        surface,
        lib,
    };
    Ok((egl, gl))
}
