//! The windowed game: winit for the window and keys, glutin for the GL context (EGL, else GLX on
//! X11; WGL, else EGL on Windows; CGL on macOS), and the same [`Game`] as headless. With
//! `--frames N` it stops after N frames, and with `--screenshot` it first captures the window's
//! back buffer as the headless run does.

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::time::Instant;

use glutin::config::{ConfigTemplateBuilder, GlConfig};
use glutin::context::{
    ContextAttributesBuilder, GlProfile, NotCurrentGlContext, PossiblyCurrentContext,
};
use glutin::display::{Display, DisplayApiPreference, GlDisplay};
use glutin::surface::{GlSurface, Surface, SwapInterval, WindowSurface};
use glutin_winit::GlWindow;
use raw_window_handle::{HasDisplayHandle, HasWindowHandle};
use shadowdusk::gl::GlContext;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key as WinitKey, NamedKey};
use winit::window::{Window, WindowId};

use crate::game::{Game, Key};
use crate::options::{Options, DEFAULT_FRAMES};
use crate::run::{announce, Failure, VertexArray};
use crate::scene;
use crate::screenshots::Shots;

/// Everything that exists once the window is up.
struct Running {
    // Field order is drop order: the game and the vertex array (every GL object) while the
    // context is current, then the context before the surface before the window.
    game: Option<Game>,
    _vao: VertexArray,
    context: PossiblyCurrentContext,
    surface: Surface<WindowSurface>,
    window: Window,
    start: Instant,
    frame: u64,
}

struct App {
    options: Options,
    shots: Option<Shots>,
    last_frame: Option<u64>,
    running: Option<Running>,
    written: Vec<PathBuf>,
    failure: Option<Failure>,
}

/// Opens the window and runs until it is closed, Esc is pressed, or `--frames` are drawn.
pub fn run(options: &Options) -> Result<Vec<PathBuf>, Failure> {
    let event_loop = EventLoop::new().map_err(|e| {
        Failure::NoGl(format!(
            "cannot open a window ({e}); set DISPLAY, or run with --headless"
        ))
    })?;
    let shots = options.screenshot.as_deref().map(Shots::new);
    let last_frame = match (options.frames, &shots) {
        (Some(n), _) => Some(n),
        (None, Some(_)) => Some(DEFAULT_FRAMES),
        (None, None) => None,
    };
    let mut app = App {
        options: options.clone(),
        shots,
        last_frame,
        running: None,
        written: Vec::new(),
        failure: None,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| Failure::Game(format!("event loop: {e}")))?;
    if let Some(f) = app.failure {
        return Err(f);
    }
    Ok(app.written)
}

/// Makes the window, the GL display, config, context and surface, and the game.
fn start(event_loop: &ActiveEventLoop, options: &Options) -> Result<Running, Failure> {
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
    window.request_redraw();
    Ok(Running {
        game: Some(game),
        _vao: vao,
        context,
        surface,
        window,
        start: Instant::now(),
        frame: 0,
    })
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, failure: Failure) {
        self.failure = Some(failure);
        self.stop(event_loop);
    }

    fn stop(&mut self, event_loop: &ActiveEventLoop) {
        if let Some(r) = &mut self.running {
            // Released now, while the context is current.
            r.game = None;
        }
        event_loop.exit();
    }

    /// One frame: update, hot reload, screenshots when due, draw, show.
    fn redraw(&mut self) -> Result<bool, Failure> {
        let Some(r) = &mut self.running else {
            return Ok(true);
        };
        let Some(game) = &mut r.game else {
            return Ok(false);
        };
        r.frame += 1;
        let size = r.window.inner_size();
        let size = (size.width.max(1), size.height.max(1));
        // Frames of a run that stops by itself use the headless clock, so a windowed
        // screenshot shows the same instant as the headless one.
        let time = match self.last_frame {
            Some(_) => scene::frame_time(r.frame),
            None => r.start.elapsed().as_secs_f32(),
        };
        game.update(time);
        game.poll_shaders();
        if let (Some(shots), Some(last)) = (&self.shots, self.last_frame) {
            let files = shots.after_frame(game, r.frame, last, size)?;
            self.written.extend(files);
        }
        game.render(size.0, size.1)?;
        r.surface
            .swap_buffers(&r.context)
            .map_err(|e| Failure::Game(format!("swap buffers: {e}")))?;
        let done = self.last_frame.is_some_and(|last| r.frame >= last);
        if !done {
            r.window.request_redraw();
        }
        Ok(!done)
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        match start(event_loop, &self.options) {
            Ok(r) => self.running = Some(r),
            Err(f) => self.fail(event_loop, f),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => self.stop(event_loop),
            WindowEvent::Resized(size) => {
                if let (Some(r), Some(w), Some(h)) = (
                    &self.running,
                    NonZeroU32::new(size.width),
                    NonZeroU32::new(size.height),
                ) {
                    r.surface.resize(&r.context, w, h);
                }
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                let key = match event.logical_key.as_ref() {
                    WinitKey::Named(NamedKey::Escape) => return self.stop(event_loop),
                    WinitKey::Named(NamedKey::Tab) => Key::Tab,
                    WinitKey::Character(c) => match c.parse::<u8>() {
                        Ok(d) => Key::Digit(d),
                        Err(_) => return,
                    },
                    _ => return,
                };
                if let Some(game) = self.running.as_mut().and_then(|r| r.game.as_mut()) {
                    game.key(key);
                }
            }
            WindowEvent::RedrawRequested => match self.redraw() {
                Ok(true) => {}
                Ok(false) => self.stop(event_loop),
                Err(f) => self.fail(event_loop, f),
            },
            _ => {}
        }
    }
}
