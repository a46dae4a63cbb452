//! The headless game loop, and how failures end the program.

use std::path::PathBuf;
use std::process::ExitCode;

use glow::HasContext;
use shadowdusk::gl::headless::HeadlessGl;

use crate::game::Game;
use crate::options::{Options, DEFAULT_FRAMES};
use crate::scene::{self, frame_time};
use crate::screenshots::Shots;

/// Why the game stopped early.
#[derive(Debug)]
pub enum Failure {
    /// No OpenGL context could be made (no libEGL, no Mesa, no display).
    NoGl(String),
    /// Anything else (an effect failed to load, a GL error, a file could not be written).
    Game(String),
}

/// Exit status when OpenGL is unavailable, so scripts and tests can tell it from a bug.
pub const EXIT_NO_GL: u8 = 3;

impl Failure {
    /// Prints the failure and gives the exit status.
    pub fn report(self) -> ExitCode {
        match self {
            Failure::NoGl(why) => {
                eprintln!("example-game: OpenGL unavailable: {why}");
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

/// Binds a vertex array object for the whole run: core-profile drivers draw nothing without
/// one, and compatibility ones accept it.
pub fn bind_vertex_array(gl: &glow::Context) -> Result<glow::VertexArray, String> {
    // SAFETY: object creation on the current context.
    unsafe {
        let vao = gl.create_vertex_array()?;
        gl.bind_vertex_array(Some(vao));
        Ok(vao)
    }
}

/// Prints which OpenGL the game got (stderr, so stdout stays the list of files written).
pub fn announce(gl: &glow::Context, platform: &str) {
    // SAFETY: string queries on the current context.
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
    let context = HeadlessGl::new(width, height).map_err(|e| Failure::NoGl(e.to_string()))?;
    let gl = context.gl();
    announce(gl, "headless, EGL surfaceless pbuffer");
    let vao = bind_vertex_array(gl)?;
    let mut game = Game::new(gl, options.scene)?;
    let shots = options.screenshot.as_deref().map(Shots::new);
    let last = options.frames.unwrap_or(DEFAULT_FRAMES);
    let mut written = Vec::new();
    let mut result = Ok(());
    for frame in 1..=last {
        game.update(frame_time(frame));
        result = game.render(gl, width, height);
        if result.is_err() {
            break;
        }
        if let Some(shots) = &shots {
            match shots.after_frame(&mut game, gl, frame, last, (width, height)) {
                Ok(files) => written.extend(files),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
    }
    game.destroy(gl);
    // SAFETY: the VAO was created on this context, which is still current.
    unsafe { gl.delete_vertex_array(vao) };
    result?;
    Ok(written)
}
