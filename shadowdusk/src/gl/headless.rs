//! A window-less OpenGL context (feature `headless`): EGL on Mesa's surfaceless platform
//! (`EGL_MESA_platform_surfaceless`) with a pbuffer as the back buffer. It needs no X server and
//! no GPU (Mesa's llvmpipe renders on the CPU), which makes it the way to render screenshot tests
//! of a game in CI.
//!
//! libEGL is loaded at run time (`dlopen("libEGL.so.1")`), so a program built with this feature
//! still starts where EGL is missing; [`HeadlessGl::new`] then returns a [`HeadlessError`] naming
//! what to install (Debian: `libegl1 libegl-mesa0 libgl1-mesa-dri`).
//!
//! ```no_run
//! use glow::HasContext;
//! use shadowdusk::gl::headless::HeadlessGl;
//!
//! let context = HeadlessGl::new(256, 256)?;
//! let gl = context.gl();
//! // SAFETY: the context is current on this thread.
//! unsafe {
//!     gl.clear_color(0.0, 0.0, 0.0, 1.0);
//!     gl.clear(glow::COLOR_BUFFER_BIT);
//! }
//! # Ok::<(), shadowdusk::gl::headless::HeadlessError>(())
//! ```

use khronos_egl as egl;

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
    /// OpenGL ES 2.0 (GLSL ES 1.00), what MonoGame's mobile platforms compile the same text as.
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

/// A GL context current on the thread that made it, rendering into a `width`×`height` pbuffer.
///
/// Dropping it releases the context and the pbuffer. The EGL display is left initialized: EGL
/// hands every context of the process the same display, and terminating it would pull the
/// contexts of other threads (parallel tests) out from under them.
pub struct HeadlessGl {
    // Field order is drop order: the functions go before the library that provides them.
    gl: glow::Context,
    display: egl::Display,
    context: egl::Context,
    surface: egl::Surface,
    width: u32,
    height: u32,
    lib: egl::DynamicInstance<egl::EGL1_5>,
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
        // SAFETY: loads the system EGL library; its symbols are only used through khronos-egl.
        let lib =
            unsafe { egl::DynamicInstance::<egl::EGL1_5>::load_required_from_filename(LIBEGL) }
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
        Ok(HeadlessGl {
            gl,
            display,
            context,
            surface,
            width,
            height,
            lib,
        })
    }

    /// The GL functions of this context. Use them only on the thread that created it.
    pub fn gl(&self) -> &glow::Context {
        &self.gl
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

impl Drop for HeadlessGl {
    fn drop(&mut self) {
        // Errors here leave nothing to recover: the process keeps a leaked context at worst.
        let _ = self.lib.make_current(self.display, None, None, None);
        let _ = self.lib.destroy_surface(self.display, self.surface);
        let _ = self.lib.destroy_context(self.display, self.context);
    }
}
