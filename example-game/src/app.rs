//! The windowed game's event loop, once for both runtimes: winit's window events, the keys, the
//! clock, hot reload, screenshots and stopping. A [`Surface`] is what differs: GL's context and
//! swap chain (`window.rs`), or a wgpu surface (`wgpu_window.rs`).

use std::path::PathBuf;
use std::time::Instant;

use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key as WinitKey, NamedKey};
use winit::window::{Window, WindowId};

use crate::frame::Key;
use crate::hot::Event;
use crate::options::{Options, DEFAULT_FRAMES};
use crate::run::Failure;
use crate::scene;
use crate::screenshots::{Shoot, Shots};

/// A game the loop drives (`Game` on GL, `WgpuGame` on wgpu).
pub trait Play: Shoot {
    /// Advances every animated parameter to `time` seconds.
    fn update(&mut self, time: f32);
    /// Swaps in finished recompiles (with `--hot`).
    fn poll_shaders(&mut self) -> Vec<Event>;
    /// Reacts to a key press.
    fn key(&mut self, key: Key);
}

/// What drawing a frame into the window came to.
pub enum Shown {
    /// It is on screen.
    Shown,
    /// The surface could not take it now (outdated, timed out): the frame is drawn again.
    Again,
}

/// A window with a runtime's surface on it, and the game drawn there.
pub trait Surface: Sized {
    /// The game.
    type Game: Play;
    /// Makes the window, its surface and the game.
    fn start(event_loop: &ActiveEventLoop, options: &Options) -> Result<Self, Failure>;
    /// The failure when no window can be opened.
    fn no_window(why: String) -> Failure;
    /// The window.
    fn window(&self) -> &Window;
    /// The game, until it is released.
    fn game(&mut self) -> Option<&mut Self::Game>;
    /// The size frames are drawn at.
    fn size(&self) -> (u32, u32);
    /// Follows the window to `width` × `height` pixels.
    fn resize(&mut self, width: u32, height: u32);
    /// Draws the game's frame into the window and shows it.
    fn show(&mut self) -> Result<Shown, Failure>;
    /// Releases the game before the surface goes (on GL while its context is current).
    fn release(&mut self);
}

/// Everything that exists once the window is up.
struct Running<S> {
    surface: S,
    start: Instant,
    frame: u64,
}

struct App<S: Surface> {
    options: Options,
    shots: Option<Shots>,
    last_frame: Option<u64>,
    running: Option<Running<S>>,
    written: Vec<PathBuf>,
    failure: Option<Failure>,
}

/// Opens the window and runs until it is closed, Esc is pressed, or `--frames` are drawn.
pub fn run<S: Surface>(options: &Options) -> Result<Vec<PathBuf>, Failure> {
    let event_loop = EventLoop::new().map_err(|e| {
        S::no_window(format!(
            "cannot open a window ({e}); set DISPLAY, or run with --headless"
        ))
    })?;
    let shots = options.screenshot.as_deref().map(Shots::new);
    let last_frame = match (options.frames, &shots) {
        (Some(n), _) => Some(n),
        (None, Some(_)) => Some(DEFAULT_FRAMES),
        (None, None) => None,
    };
    let mut app = App::<S> {
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

impl<S: Surface> App<S> {
    fn fail(&mut self, event_loop: &ActiveEventLoop, failure: Failure) {
        self.failure = Some(failure);
        self.stop(event_loop);
    }

    fn stop(&mut self, event_loop: &ActiveEventLoop) {
        if let Some(r) = &mut self.running {
            r.surface.release();
        }
        event_loop.exit();
    }

    /// One frame: update, hot reload, screenshots when due, draw, show. `Ok(false)`: done.
    fn redraw(&mut self) -> Result<bool, Failure> {
        let Some(r) = &mut self.running else {
            return Ok(true);
        };
        r.frame += 1;
        let size = r.surface.size();
        // Frames of a run that stops by itself use the headless clock, so a windowed
        // screenshot shows the same instant as the headless one.
        let time = match self.last_frame {
            Some(_) => scene::frame_time(r.frame),
            None => r.start.elapsed().as_secs_f32(),
        };
        let Some(game) = r.surface.game() else {
            return Ok(false);
        };
        game.update(time);
        game.poll_shaders();
        if let (Some(shots), Some(last)) = (&self.shots, self.last_frame) {
            let files = shots.after_frame(game, r.frame, last, size)?;
            self.written.extend(files);
        }
        if let Shown::Again = r.surface.show()? {
            r.frame -= 1;
            r.surface.window().request_redraw();
            return Ok(true);
        }
        let done = self.last_frame.is_some_and(|last| r.frame >= last);
        if !done {
            r.surface.window().request_redraw();
        }
        Ok(!done)
    }
}

impl<S: Surface> ApplicationHandler for App<S> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        match S::start(event_loop, &self.options) {
            Ok(surface) => {
                surface.window().request_redraw();
                self.running = Some(Running {
                    surface,
                    start: Instant::now(),
                    frame: 0,
                });
            }
            Err(f) => self.fail(event_loop, f),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => self.stop(event_loop),
            WindowEvent::Resized(size) => {
                if let Some(r) = &mut self.running {
                    if size.width > 0 && size.height > 0 {
                        r.surface.resize(size.width, size.height);
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
                if let Some(game) = self.running.as_mut().and_then(|r| r.surface.game()) {
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

impl Play for crate::game::Game {
    fn update(&mut self, time: f32) {
        crate::game::Game::update(self, time);
    }
    fn poll_shaders(&mut self) -> Vec<Event> {
        crate::game::Game::poll_shaders(self)
    }
    fn key(&mut self, key: Key) {
        crate::game::Game::key(self, key);
    }
}

impl Play for crate::wgpu_game::WgpuGame {
    fn update(&mut self, time: f32) {
        crate::wgpu_game::WgpuGame::update(self, time);
    }
    fn poll_shaders(&mut self) -> Vec<Event> {
        crate::wgpu_game::WgpuGame::poll_shaders(self)
    }
    fn key(&mut self, key: Key) {
        crate::wgpu_game::WgpuGame::key(self, key);
    }
}
