//! The headless game loop, and how failures end the program.

use std::path::PathBuf;
use std::process::ExitCode;

use glow::HasContext;
use shadowdusk::gl::headless::HeadlessGl;
use shadowdusk::gl::GlContext;

use crate::game::Game;
use crate::options::{Options, DEFAULT_FRAMES};
use crate::scene::{self, frame_time};
use crate::screenshots::Shots;

/// Why the game stopped early.
#[derive(Debug)]
pub enum Failure {
    /// No OpenGL context could be made (no libEGL, no Mesa, no display).
    NoGl(String),
    /// No wgpu adapter or device (`--wgpu`: no Vulkan or GL driver wgpu can use).
    NoWgpu(String),
    /// Anything else (an effect failed to load, a GL error, a file could not be written).
    Game(String),
}

/// Exit status when OpenGL (or, with `--wgpu`, a wgpu adapter) is unavailable, so scripts and
/// tests can tell it from a bug.
pub const EXIT_NO_GL: u8 = 3;

impl Failure {
    /// Prints the failure and gives the exit status.
    pub fn report(self) -> ExitCode {
        match self {
            Failure::NoGl(why) => {
                eprintln!("example-game: OpenGL unavailable: {why}");
                ExitCode::from(EXIT_NO_GL)
            }
            Failure::NoWgpu(why) => {
                eprintln!("example-game: wgpu unavailable: {why}");
                ExitCode::from(EXIT_NO_GL)
            }
            Failure::Game(why) => {
                eprintln!("example-game: error: {why}");
                ExitCode::FAILURE
            }
        }
    }
}

impl From<String> for Failure {
    fn from(why: String) -> Failure {
        Failure::Game(why)
    }
}

/// A vertex array object bound for the whole run (core-profile drivers draw nothing without
/// one, and compatibility ones accept it), deleted when dropped.
pub struct VertexArray {
    ctx: GlContext,
    vao: glow::VertexArray,
}

impl VertexArray {
    /// Creates and binds it.
    pub fn bind(ctx: &GlContext) -> Result<VertexArray, String> {
        let gl = ctx.glow();
        // SAFETY: object creation and binding on the current context (`GlContext`).
        unsafe {
            let vao = gl.create_vertex_array()?;
            gl.bind_vertex_array(Some(vao));
            Ok(VertexArray {
                ctx: ctx.clone(),
                vao,
            })
        }
    }
}

impl Drop for VertexArray {
    fn drop(&mut self) {
        // SAFETY: made on this context, current while it is dropped (`GlContext`).
        unsafe { self.ctx.glow().delete_vertex_array(self.vao) }
    }
}

/// Prints which OpenGL the game got (stderr, so stdout stays the list of files written).
pub fn announce(ctx: &GlContext, platform: &str) {
    let gl = ctx.glow();
    // SAFETY: string queries on the current context (`GlContext`).
    let (renderer, version) = unsafe {
        (
            gl.get_parameter_string(glow::RENDERER),
            gl.get_parameter_string(glow::VERSION),
        )
    };
    eprintln!("example-game: OpenGL {version} on {renderer} ({platform})");
}

/// Runs `options.frames` frames at a fixed step on a headless context, writing screenshots
/// when asked. Returns the files written.
pub fn headless(options: &Options) -> Result<Vec<PathBuf>, Failure> {
    let (width, height) = (scene::WIDTH, scene::HEIGHT);
    let headless = HeadlessGl::new(width, height).map_err(|e| Failure::NoGl(e.to_string()))?;
    let ctx = headless.context();
    announce(ctx, "headless, EGL surfaceless pbuffer");
    let _vao = VertexArray::bind(ctx)?;
    let mut game = Game::load(ctx, options.scene, &options.watch)?;
    let shots = options.screenshot.as_deref().map(Shots::new);
    let last = options.frames.unwrap_or(DEFAULT_FRAMES);
    let mut written = Vec::new();
    let mut result = Ok(());
    for frame in 1..=last {
        game.update(frame_time(frame));
        game.poll_shaders();
        result = game.render(width, height);
        if result.is_err() {
            break;
        }
        if let Some(shots) = &shots {
            match shots.after_frame(&mut game, frame, last, (width, height)) {
                Ok(files) => written.extend(files),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
    }
    // The game, the vertex array and then the context are released as they go out of scope.
    result?;
    Ok(written)
}
