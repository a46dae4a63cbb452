//! A window-less OpenGL context: EGL on Mesa's surfaceless platform with a pbuffer as the back
//! buffer (no X server, no GPU: llvmpipe renders on the CPU).

use khronos_egl as egl;

/// `EGL_PLATFORM_SURFACELESS_MESA`.
const PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;

/// A current desktop-GL compatibility context on a `width`×`height` pbuffer.
pub struct HeadlessGl {
    lib: egl::DynamicInstance<egl::EGL1_5>,
    display: egl::Display,
    context: egl::Context,
    surface: egl::Surface,
    /// The GL functions of this context.
    pub gl: glow::Context,
}

impl HeadlessGl {
    /// Creates the context and makes it current on this thread. The error says what is missing
    /// and which Debian packages provide it.
    pub fn new(width: u32, height: u32) -> Result<HeadlessGl, String> {
        // SAFETY: loads the system EGL library; its symbols are used through khronos-egl.
        let lib = unsafe {
            egl::DynamicInstance::<egl::EGL1_5>::load_required_from_filename("libEGL.so.1")
        }
        .map_err(|e| {
            format!("cannot load libEGL.so.1 ({e}); install libegl1 libegl-mesa0 libgl1-mesa-dri")
        })?;
        let extensions = lib
            .query_string(None, egl::EXTENSIONS)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !extensions.contains("EGL_MESA_platform_surfaceless") {
            return Err(
                "EGL has no EGL_MESA_platform_surfaceless; install libegl-mesa0 (Mesa)".into(),
            );
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
            .map_err(|e| format!("eglInitialize failed ({e}); install libgl1-mesa-dri"))?;
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
            .ok_or("no EGL config with an RGBA8 + depth24/stencil8 pbuffer for desktop OpenGL")?;
        lib.bind_api(egl::OPENGL_API)
            .map_err(|e| format!("eglBindAPI(OpenGL): {e}"))?;
        // The default desktop context is a compatibility profile: MonoGame's GLSL has no
        // #version line and needs GLSL 1.10, as on a DesktopGL window.
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
        Ok(HeadlessGl {
            lib,
            display,
            context,
            surface,
            gl,
        })
    }
}

impl Drop for HeadlessGl {
    fn drop(&mut self) {
        let _ = self.lib.make_current(self.display, None, None, None);
        let _ = self.lib.destroy_surface(self.display, self.surface);
        let _ = self.lib.destroy_context(self.display, self.context);
        let _ = self.lib.terminate(self.display);
    }
}
