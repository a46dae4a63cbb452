//! The windowed game on wgpu (`--wgpu`): winit for the window and keys, a wgpu surface on it,
//! and the same [`WgpuGame`] as headless. With `--frames N` it stops after N frames, and with
//! `--screenshot` it captures each scene as the headless run does (into an offscreen target of
//! the window's size: a surface texture cannot be read back).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use shadowdusk::wgpu;
use shadowdusk::wgpu_runtime::{Target, WANTED_FEATURES};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key as WinitKey, NamedKey};
use winit::window::{Window, WindowId};

use crate::frame::Key;
use crate::options::{Options, DEFAULT_FRAMES};
use crate::run::Failure;
use crate::scene;
use crate::screenshots::Shots;
use crate::wgpu_game::{announce, Frame, WgpuGame, DEPTH_FORMAT};

/// Everything that exists once the window is up.
struct Running {
    // Field order is drop order: the game, then the surface before the window it draws on.
    game: WgpuGame,
    depth: wgpu::TextureView,
    config: wgpu::SurfaceConfiguration,
    surface: wgpu::Surface<'static>,
    window: Arc<Window>,
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
        Failure::NoWgpu(format!(
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

/// A depth-stencil attachment for the window's size.
fn depth_view(device: &wgpu::Device, width: u32, height: u32) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some("example-game window depth"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        })
        .create_view(&Default::default())
}

/// Makes the window, the surface, the device and the game.
fn start(event_loop: &ActiveEventLoop, options: &Options) -> Result<Running, Failure> {
    let no_wgpu = |what: &str, e: &dyn std::fmt::Display| Failure::NoWgpu(format!("{what}: {e}"));
    let attributes = Window::default_attributes()
        .with_title("ShadowDusk example game (wgpu)")
        .with_inner_size(PhysicalSize::new(scene::WIDTH, scene::HEIGHT))
        .with_resizable(false);
    let window = Arc::new(
        event_loop
            .create_window(attributes)
            .map_err(|e| no_wgpu("cannot create the window", &e))?,
    );
    // WGPU_BACKEND chooses; otherwise Vulkan, or GL (which needs the display handle).
    let mut descriptor =
        wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(window.clone()));
    if wgpu::Backends::from_env().is_none() {
        descriptor.backends = wgpu::Backends::VULKAN | wgpu::Backends::GL;
    }
    let instance = wgpu::Instance::new(descriptor);
    let surface = instance
        .create_surface(window.clone())
        .map_err(|e| no_wgpu("cannot create a wgpu surface", &e))?;
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        force_fallback_adapter: false,
        compatible_surface: Some(&surface),
        apply_limit_buckets: false,
    }))
    .map_err(|e| no_wgpu("no adapter for the window", &e))?;
    let info = adapter.get_info();
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("example-game window"),
        required_features: adapter.features() & WANTED_FEATURES,
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .map_err(|e| no_wgpu(&format!("{} refused a device", info.name), &e))?;
    let caps = surface.get_capabilities(&adapter);
    // The effects write gamma-space colours, as into GL's default framebuffer: no sRGB
    // encoding on the way out.
    let format = caps
        .formats
        .iter()
        .copied()
        .find(|f| !f.is_srgb())
        .ok_or_else(|| {
            Failure::NoWgpu(format!("{} offers no non-sRGB surface format", info.name))
        })?;
    let size = window.inner_size();
    let config = wgpu::SurfaceConfiguration {
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        format,
        width: size.width.max(1),
        height: size.height.max(1),
        present_mode: wgpu::PresentMode::Fifo,
        desired_maximum_frame_latency: 2,
        alpha_mode: caps
            .alpha_modes
            .first()
            .copied()
            .unwrap_or(wgpu::CompositeAlphaMode::Auto),
        view_formats: vec![],
        color_space: wgpu::SurfaceColorSpace::Auto,
    };
    surface.configure(&device, &config);
    announce(&info, &format!("window, {format:?} surface"));
    let game = WgpuGame::new(&device, &queue, options.scene, &options.watch)?;
    window.request_redraw();
    Ok(Running {
        depth: depth_view(&device, config.width, config.height),
        game,
        config,
        surface,
        window,
        start: Instant::now(),
        frame: 0,
    })
}

impl Running {
    fn resize(&mut self, width: u32, height: u32) {
        self.config.width = width.max(1);
        self.config.height = height.max(1);
        self.surface.configure(self.game.device(), &self.config);
        self.depth = depth_view(self.game.device(), self.config.width, self.config.height);
    }
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, failure: Failure) {
        self.failure = Some(failure);
        self.stop(event_loop);
    }

    fn stop(&mut self, event_loop: &ActiveEventLoop) {
        self.running = None;
        event_loop.exit();
    }

    /// One frame: update, screenshots when due, draw, present.
    fn redraw(&mut self) -> Result<bool, Failure> {
        let Some(r) = &mut self.running else {
            return Ok(false);
        };
        r.frame += 1;
        let size = (r.config.width, r.config.height);
        // Frames of a run that stops by itself use the headless clock, so a windowed
        // screenshot shows the same instant as the headless one.
        let time = match self.last_frame {
            Some(_) => scene::frame_time(r.frame),
            None => r.start.elapsed().as_secs_f32(),
        };
        r.game.update(time);
        r.game.poll_shaders();
        if let (Some(shots), Some(last)) = (&self.shots, self.last_frame) {
            let files = shots.after_frame(&mut r.game, r.frame, last, size)?;
            self.written.extend(files);
        }
        let texture = match r.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated => {
                // Reconfigured; this frame is drawn again.
                r.frame -= 1;
                r.resize(size.0, size.1);
                r.window.request_redraw();
                return Ok(true);
            }
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                r.frame -= 1;
                r.window.request_redraw();
                return Ok(true);
            }
            other => {
                return Err(Failure::Game(format!(
                    "cannot get the surface texture: {other:?}"
                )))
            }
        };
        let view = texture.texture.create_view(&Default::default());
        let frame = Frame {
            color: &view,
            depth: &r.depth,
            target: Target::new(r.config.format, size.0, size.1).with_depth(DEPTH_FORMAT),
        };
        r.game.render(&frame)?;
        r.window.pre_present_notify();
        r.game.present(texture);
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
                if let Some(r) = &mut self.running {
                    if size.width > 0 && size.height > 0 {
                        r.resize(size.width, size.height);
                    }
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
                if let Some(r) = &mut self.running {
                    r.game.key(key);
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
