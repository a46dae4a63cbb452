//! Drawing as a game does, on a headless context: `GlEffect<glam_quad::Effect>` with its
//! parameters set from glam values, one quad through `SpriteBatch`, pixels read back.
//!
//! The quad is the unit square, placed by `projection * world` built with glam (the order glam
//! multiplies in); the shader computes `mul(position, WorldViewProj)` (MonoGame's order). The
//! quad lands on the pixels glam says only if the setter turned glam's matrix into the same
//! transform, and it has the colour only if the `Vec4` and `Vec3` setters filled the registers.

use glow::HasContext;
use shadowdusk::gl::headless::HeadlessGl;
use shadowdusk::gl::{GlEffect, RenderTarget, Sprite, SpriteBatch};

use crate::glam_quad;

/// Width and height of the target in pixels.
pub const SIZE: u32 = 8;
/// Where the quad must land: (left, top, width, height) in pixels, top row first.
pub const QUAD: (u32, u32, u32, u32) = (2, 4, 4, 2);
const CLEAR: [u8; 4] = [0, 0, 0, 255];
/// `white * Tint + Glow` with the values set below: (0.5, 1, 0.25) + (0.25, 0, 0.5).
const DRAWN: [u8; 4] = [191, 255, 191, 255];

/// Why nothing was drawn: no headless GL on this machine, or a real failure.
#[derive(Debug)]
pub enum Failure {
    /// EGL/Mesa is missing; the caller decides whether that may skip.
    NoGl(String),
    /// Anything else.
    Draw(String),
}

fn draw_err(e: impl std::fmt::Display) -> Failure {
    Failure::Draw(e.to_string())
}

/// Draws the quad into an 8×8 back buffer and returns its RGBA8 pixels, top row first.
pub fn draw_quad() -> Result<Vec<u8>, Failure> {
    let headless = HeadlessGl::new(SIZE, SIZE).map_err(|e| Failure::NoGl(e.to_string()))?;
    let ctx = headless.context();
    let mut fx = GlEffect::<glam_quad::Effect>::new(ctx).map_err(draw_err)?;
    let mut sprites = SpriteBatch::new(ctx).map_err(draw_err)?;

    // Pixels (y down) to clip space, as SpriteBatch projects, and the unit square scaled and
    // moved onto QUAD.
    let (x, y, w, h) = QUAD;
    let size = SIZE as f32;
    let projection = glam::Mat4::orthographic_rh_gl(0.0, size, size, 0.0, -1.0, 1.0);
    let world = glam::Mat4::from_translation(glam::Vec3::new(x as f32, y as f32, 0.0))
        * glam::Mat4::from_scale(glam::Vec3::new(w as f32, h as f32, 1.0));
    let params = fx.params_mut();
    params.set_world_view_proj(projection * world);
    params.set_tint(glam::Vec4::new(0.5, 1.0, 0.25, 1.0));
    params.set_glow(glam::Vec3::new(0.25, 0.0, 0.5));

    let gl = ctx.glow();
    // SAFETY: the headless context is current on this thread (`GlContext`).
    unsafe {
        gl.clear_color(0.0, 0.0, 0.0, 1.0);
        gl.clear(glow::COLOR_BUFFER_BIT);
    }
    let target = RenderTarget::backbuffer(SIZE, SIZE);
    let pass = fx
        .apply(glam_quad::passes::draw::P0, &target)
        .map_err(draw_err)?;
    sprites
        .draw(&pass, &[Sprite::new(0.0, 0.0, 1.0, 1.0)])
        .map_err(draw_err)?;
    target.read_rgba8(ctx).map_err(draw_err)
}

/// Checks every pixel: `DRAWN` inside [`QUAD`], the clear colour outside.
pub fn check(pixels: &[u8]) -> Result<(), String> {
    check_quad("glam_quad", pixels, QUAD, DRAWN)
}

/// Checks every pixel of a [`SIZE`]-square read-back: `drawn` inside `quad` (x, y, w, h), the
/// clear colour outside, each channel within 1.
pub fn check_quad(
    what: &str,
    pixels: &[u8],
    quad: (u32, u32, u32, u32),
    drawn: [u8; 4],
) -> Result<(), String> {
    let (qx, qy, qw, qh) = quad;
    for (i, px) in pixels.chunks_exact(4).enumerate() {
        let (x, y) = (i as u32 % SIZE, i as u32 / SIZE);
        let inside = (qx..qx + qw).contains(&x) && (qy..qy + qh).contains(&y);
        let want = if inside { drawn } else { CLEAR };
        if px.iter().zip(want).any(|(a, b)| a.abs_diff(b) > 1) {
            return Err(format!(
                "{what}: pixel ({x}, {y}) is {px:?}, expected {want:?} ({})",
                if inside { "inside the quad" } else { "outside" }
            ));
        }
    }
    Ok(())
}
