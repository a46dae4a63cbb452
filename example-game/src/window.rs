//! The windowed game: winit for the window and keys, glutin for the GL context (EGL, else GLX on
//! X11; WGL, else EGL on Windows; CGL on macOS), and the same [`Game`] as headless. With
//! `--frames N` it stops after N frames, and with `--screenshot` it first captures the window's
//! back buffer as the headless run does.

use std::num::NonZeroU32;
use std::path::PathBuf;

use glutin::config::{ConfigTemplateBuilder, GlConfig};
use glutin::context::{
    ContextAttributesBuilder, GlProfile, NotCurrentGlContext, PossiblyCurrentContext,
};
use glutin::display::{Display, DisplayApiPreference, GlDisplay};
use glutin::surface::{GlSurface, Surface, SwapInterval, WindowSurface};
use glutin_winit::GlWindow;
use raw_window_handle::{HasDisplayHandle, HasWindowHandle};
use shadowdusk::gl::GlContext;
use winit::dpi::PhysicalSize;
use winit::event_loop::ActiveEventLoop;
use winit::window::Window;

use crate::app::{self, Shown};
use crate::game::Game;
use crate::options::Options;
use crate::run::{announce, Failure, VertexArray};
use crate::scene;

/// The window with its GL context and surface, and the game.
pub struct OpenGlWindow {
    // Field order is drop order: the game and the vertex array (every GL object) while the
    // context is current, then the context before the surface before the window.
    game: Option<Game>,
    _vao: VertexArray,
    context: PossiblyCurrentContext,
    surface: Surface<WindowSurface>,
    window: Window,
}

/// Opens the window and runs until it is closed, Esc is pressed, or `--frames` are drawn.
pub fn run(options: &Options) -> Result<Vec<PathBuf>, Failure> {
    app::run::<OpenGlWindow>(options)
}

/// Makes the window, the GL display, config, context and surface, and the game.
fn start(event_loop: &ActiveEventLoop, options: &Options) -> Result<OpenGlWindow, Failure> {
    let no_gl = |what: &str, e: &dyn std::fmt::Display| Failure::NoGl(format!("{what}: {e}"));
    let display_handle = event_loop
        .display_handle()
        .map_err(|e| no_gl("display handle", &e))?;
    let attributes = Window::default_attributes()
        .with_title("ShadowDusk example game")
        .with_inner_size(PhysicalSize::new(scene::WIDTH, scene::HEIGHT))
        .with_resizable(false);
    // WGL wants the window before the display: its extensions and pixel formats come from the
    // window's device context. EGL, GLX and CGL want the config first: on X11 the window is
    // made with the config's visual.
    #[cfg(windows)]
    let (window, early_handle) = {
        let window = event_loop
            .create_window(attributes)
            .map_err(|e| no_gl("cannot create the window", &e))?;
        let handle = window
            .window_handle()
            .map_err(|e| no_gl("window handle", &e))?
            .as_raw();
        (window, handle)
    };
    #[cfg(windows)]
    let preference = DisplayApiPreference::WglThenEgl(Some(early_handle));
    #[cfg(target_os = "macos")]
    let preference = DisplayApiPreference::Cgl;
    #[cfg(not(any(windows, target_os = "macos")))]
    let preference =
        DisplayApiPreference::EglThenGlx(Box::new(winit::platform::x11::register_xlib_error_hook));
    // SAFETY: the display handle comes from the live event loop, which outlives the display.
    let display = unsafe { Display::new(display_handle.as_raw(), preference) }
        .map_err(|e| no_gl("no GL display (EGL, GLX, WGL or CGL)", &e))?;
    let template = ConfigTemplateBuilder::new()
        .with_alpha_size(8)
        .with_depth_size(24)
        .with_stencil_size(8);
    #[cfg(windows)]
    let template = template.compatible_with_native_window(early_handle);
    // SAFETY: the template is plain data; the display is alive.
    let config = unsafe { display.find_configs(template.build()) }
        .map_err(|e| no_gl("no GL config", &e))?
        .min_by_key(|c| c.num_samples())
        .ok_or_else(|| Failure::NoGl("no GL config with RGBA8, depth 24 and stencil 8".into()))?;
    #[cfg(not(windows))]
    let window = glutin_winit::finalize_window(event_loop, attributes, &config)
        .map_err(|e| no_gl("cannot create the window", &e))?;
    let window_handle = window
        .window_handle()
        .map_err(|e| no_gl("window handle", &e))?;
    // A compatibility profile: MonoGame's GLSL has no #version line (GLSL 1.10).
    let context_attributes = ContextAttributesBuilder::new()
        .with_profile(GlProfile::Compatibility)
        .build(Some(window_handle.as_raw()));
    // SAFETY: config and window belong to this display.
    let context = unsafe { display.create_context(&config, &context_attributes) }
        .map_err(|e| no_gl("cannot create a GL context", &e))?;
    let surface_attributes = window
        .build_surface_attributes(Default::default())
        .map_err(|e| no_gl("surface attributes", &e))?;
    // SAFETY: as above.
    let surface = unsafe { display.create_window_surface(&config, &surface_attributes) }
        .map_err(|e| no_gl("cannot create the window surface", &e))?;
    let context = context
        .make_current(&surface)
        .map_err(|e| no_gl("cannot make the context current", &e))?;
    // Vsync when the platform has it; a failure only means frames are not paced.
    let _ = surface.set_swap_interval(&context, SwapInterval::Wait(NonZeroU32::MIN));
    // SAFETY: the context is current; entry points come from the same display.
    let gl =
        unsafe { glow::Context::from_loader_function_cstr(|name| display.get_proc_address(name)) };
    // SAFETY: the context was just made current on this thread and nothing makes another one
    // current; `Running` drops the game and the vertex array, everything made from `ctx`,
    // before the context.
    let ctx = unsafe { GlContext::from_glow(gl) };
    #[allow(unreachable_patterns)]
    let api = match &display {
        #[cfg(not(target_vendor = "apple"))]
        Display::Egl(_) => "window, EGL",
        #[cfg(not(any(windows, target_vendor = "apple")))]
        Display::Glx(_) => "window, GLX",
        #[cfg(windows)]
        Display::Wgl(_) => "window, WGL",
        #[cfg(target_os = "macos")]
        Display::Cgl(_) => "window, CGL",
        _ => "window",
    };
    announce(&ctx, api);
    let vao = VertexArray::bind(&ctx)?;
    let game = Game::load(&ctx, options.scene, &options.watch)?;
    Ok(OpenGlWindow {
        game: Some(game),
        _vao: vao,
        context,
        surface,
        window,
    })
}

impl app::Surface for OpenGlWindow {
    type Game = Game;

    fn start(event_loop: &ActiveEventLoop, options: &Options) -> Result<OpenGlWindow, Failure> {
        start(event_loop, options)
    }

    fn no_window(why: String) -> Failure {
        Failure::NoGl(why)
    }

    fn window(&self) -> &Window {
        &self.window
    }

    fn game(&mut self) -> Option<&mut Game> {
        self.game.as_mut()
    }

    fn size(&self) -> (u32, u32) {
        let size = self.window.inner_size();
        (size.width.max(1), size.height.max(1))
    }

    fn resize(&mut self, width: u32, height: u32) {
        if let (Some(w), Some(h)) = (NonZeroU32::new(width), NonZeroU32::new(height)) {
            self.surface.resize(&self.context, w, h);
        }
    }

    fn show(&mut self) -> Result<Shown, Failure> {
        let (width, height) = self.size();
        if let Some(game) = &mut self.game {
            game.render(width, height)?;
        }
        self.surface
            .swap_buffers(&self.context)
            .map_err(|e| Failure::Game(format!("swap buffers: {e}")))?;
        Ok(Shown::Shown)
    }

    fn release(&mut self) {
        // Released now, while the context is current.
        self.game = None;
    }
}
