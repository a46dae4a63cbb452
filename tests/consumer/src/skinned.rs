//! A skinned quad through `GlEffect<compat_reg_bones128::Effect>`: a `float4x3 Bones[128]`
//! palette (389 vs_3_0 registers, past the 256 a vs_3_0 device is guaranteed, as mgfxc
//! accepts) filled with glam `Affine3A` values through the typed setters, indexed by `uint4`
//! BLENDINDICES high in the palette.
//!
//! Every bone but the two the vertices name moves the quad off the target, so the quad lands on
//! [`QUAD`] only if bones 120 and 127 reach the registers the shader reads, and the integer
//! indices arrive whole.

use glow::HasContext;
use shadowdusk::gl::headless::HeadlessGl;
use shadowdusk::gl::{AppliedPass, GlEffect, RenderTarget};
use shadowdusk::mgfx::VertexElementUsage as U;

use crate::compat_reg_bones128 as fx;
use crate::draw::{Failure, SIZE};

/// Where the quad must land: (left, top, width, height) in pixels, top row first.
pub const QUAD: (u32, u32, u32, u32) = (1, 3, 4, 2);
/// White times `Tint` (1, 0.5, 0.25, 1).
const DRAWN: [u8; 4] = [255, 128, 64, 255];

fn draw_err(e: impl std::fmt::Display) -> Failure {
    Failure::Draw(e.to_string())
}

fn bone(scale: (f32, f32), translate: (f32, f32)) -> glam::Affine3A {
    glam::Affine3A::from_translation(glam::Vec3::new(translate.0, translate.1, 0.0))
        * glam::Affine3A::from_scale(glam::Vec3::new(scale.0, scale.1, 1.0))
}

/// Draws the unit square skinned by bones 127 and 120 (half each) into an 8×8 back buffer and
/// returns its RGBA8 pixels, top row first.
pub fn draw_skinned() -> Result<Vec<u8>, Failure> {
    let headless = HeadlessGl::new(SIZE, SIZE).map_err(|e| Failure::NoGl(e.to_string()))?;
    let ctx = headless.context();
    let mut effect = GlEffect::<fx::Effect>::new(ctx).map_err(draw_err)?;

    let (x, y, w, h) = QUAD;
    let off_target = bone((1.0, 1.0), (100.0, 100.0));
    let params = effect.params_mut();
    params.set_bones(&[off_target; 128]);
    // Half of each: scale (w, h), translation halfway between the two.
    params
        .set_bones_at(
            127,
            bone((w as f32, h as f32), (x as f32 - 1.0, y as f32 + 2.0)),
        )
        .map_err(draw_err)?;
    params
        .set_bones_at(
            120,
            bone((w as f32, h as f32), (x as f32 + 1.0, y as f32 - 2.0)),
        )
        .map_err(draw_err)?;
    let size = SIZE as f32;
    params.set_view_projection(glam::Mat4::orthographic_rh_gl(
        0.0, size, size, 0.0, -1.0, 1.0,
    ));
    params.set_tint(glam::Vec4::new(1.0, 0.5, 0.25, 1.0));

    let gl = ctx.glow();
    // SAFETY: the headless context is current on this thread (`GlContext`).
    unsafe {
        gl.clear_color(0.0, 0.0, 0.0, 1.0);
        gl.clear(glow::COLOR_BUFFER_BIT);
    }
    let target = RenderTarget::backbuffer(SIZE, SIZE);
    let pass = effect
        .apply(fx::passes::skinned::P0, &target)
        .map_err(draw_err)?;
    let corners = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0];
    let white = [1.0; 16];
    let indices = [127.0, 120.0, 5.0, 9.0].repeat(4);
    let weights = [0.5, 0.5, 0.0, 0.0].repeat(4);
    draw(
        ctx.glow(),
        &pass,
        &[
            (U::Position, 3, &corners[..]),
            (U::Color, 4, &white[..]),
            (U::BlendIndices, 4, &indices[..]),
            (U::BlendWeight, 4, &weights[..]),
        ],
    )
    .map_err(Failure::Draw)?;
    target.read_rgba8(ctx).map_err(draw_err)
}

/// Feeds each element to the attribute MonoGame would bind it to, and draws two triangles.
fn draw(
    gl: &glow::Context,
    pass: &AppliedPass,
    elements: &[(U, i32, &[f32])],
) -> Result<(), String> {
    // The pass's program and textures, whatever was applied since (a custom draw's job).
    pass.bind();
    // SAFETY: the context is current (`GlContext`); every buffer is created and deleted here,
    // and the draw reads the four vertices every element holds.
    unsafe {
        let mut buffers = Vec::new();
        let mut enabled = Vec::new();
        for &(usage, components, data) in elements {
            let Some(loc) = pass.attribute_location(usage, 0) else {
                continue;
            };
            let vbo = gl.create_buffer()?;
            let bytes: Vec<u8> = data.iter().flat_map(|f| f.to_le_bytes()).collect();
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &bytes, glow::STREAM_DRAW);
            gl.enable_vertex_attrib_array(loc);
            gl.vertex_attrib_pointer_f32(loc, components, glow::FLOAT, false, 0, 0);
            buffers.push(vbo);
            enabled.push(loc);
        }
        let indices: Vec<u8> = [0u16, 1, 2, 0, 2, 3]
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        let ibo = gl.create_buffer()?;
        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(ibo));
        gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, &indices, glow::STREAM_DRAW);
        gl.draw_elements(glow::TRIANGLES, 6, glow::UNSIGNED_SHORT, 0);
        let error = gl.get_error();
        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, None);
        gl.delete_buffer(ibo);
        for loc in enabled {
            gl.disable_vertex_attrib_array(loc);
        }
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
        for b in buffers {
            gl.delete_buffer(b);
        }
        match error {
            glow::NO_ERROR => Ok(()),
            e => Err(format!("draw failed: glGetError 0x{e:04X}")),
        }
    }
}

/// Checks every pixel: `DRAWN` inside [`QUAD`], the clear colour outside.
pub fn check(pixels: &[u8]) -> Result<(), String> {
    super::draw::check_quad("skinned", pixels, QUAD, DRAWN)
}
