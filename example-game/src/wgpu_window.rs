//! The windowed game on wgpu (`--wgpu`): winit for the window and keys, a wgpu surface on it,
//! and the same [`WgpuGame`] as headless. With `--frames N` it stops after N frames, and with
//! `--screenshot` it captures each scene as the headless run does (into an offscreen target of
//! the window's size: a surface texture cannot be read back).

use std::path::PathBuf;
use std::sync::Arc;

use shadowdusk::wgpu;
use shadowdusk::wgpu_runtime::{Target, WANTED_FEATURES};
use winit::dpi::PhysicalSize;
use winit::event_loop::ActiveEventLoop;
use winit::window::Window;

use crate::app::{self, Shown};
use crate::options::Options;
use crate::run::Failure;
use crate::scene;
use crate::wgpu_game::{announce, Frame, WgpuGame, DEPTH_FORMAT};

/// The window with its wgpu surface, and the game.
pub struct WgpuWindow {
    // Field order is drop order: the game, then the surface before the window it draws on.
    game: WgpuGame,
    depth: wgpu::TextureView,
    config: wgpu::SurfaceConfiguration,
    surface: wgpu::Surface<'static>,
    window: Arc<Window>,
}

/// Opens the window and runs until it is closed, Esc is pressed, or `--frames` are drawn.
pub fn run(options: &Options) -> Result<Vec<PathBuf>, Failure> {
    app::run::<WgpuWindow>(options)
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
fn start(event_loop: &ActiveEventLoop, options: &Options) -> Result<WgpuWindow, Failure> {
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
    Ok(WgpuWindow {
        depth: depth_view(&device, config.width, config.height),
        game,
        config,
        surface,
        window,
    })
}

impl app::Surface for WgpuWindow {
    type Game = WgpuGame;

    fn start(event_loop: &ActiveEventLoop, options: &Options) -> Result<WgpuWindow, Failure> {
        start(event_loop, options)
    }

    fn no_window(why: String) -> Failure {
        Failure::NoWgpu(why)
    }

    fn window(&self) -> &Window {
        &self.window
    }

    fn game(&mut self) -> Option<&mut WgpuGame> {
        Some(&mut self.game)
    }

    fn size(&self) -> (u32, u32) {
        (self.config.width, self.config.height)
    }

    fn resize(&mut self, width: u32, height: u32) {
        self.config.width = width.max(1);
        self.config.height = height.max(1);
        self.surface.configure(self.game.device(), &self.config);
        self.depth = depth_view(self.game.device(), self.config.width, self.config.height);
    }

    fn show(&mut self) -> Result<Shown, Failure> {
        let size = self.size();
        let texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated => {
                // Reconfigured; the frame is drawn again.
                self.resize(size.0, size.1);
                return Ok(Shown::Again);
            }
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                return Ok(Shown::Again)
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
            depth: &self.depth,
            target: Target::new(self.config.format, size.0, size.1).with_depth(DEPTH_FORMAT),
        };
        self.game.render(&frame)?;
        self.window.pre_present_notify();
        self.game.present(texture);
        Ok(Shown::Shown)
    }

    fn release(&mut self) {
        // Nothing to do first: the game goes before the surface and the window (field order).
    }
}
