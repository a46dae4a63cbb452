//! Sprites submitted the way MonoGame's `SpriteBatch` submits them, for passes whose vertex
//! shader is SpriteBatch's (a pixel-only pass applied after [`SpriteBatch::begin`], or with
//! nothing else bound: [`sprite_vs`](super::sprite_vs)) or reads the same
//! `VertexPositionColorTexture` vertices.
//!
//! This is the vertex half of SpriteBatch only: quads in pixel coordinates with vertices TL, TR,
//! BL, BR and indices 0,1,2 1,3,2, drawn with whatever pass is applied. Sorting, texture
//! switching, `Begin`'s render states and the projection are the caller's (GlEffect's built-in
//! vertex shader projects pixel coordinates by itself).

use glow::HasContext;

use super::error::creating;
use super::{AppliedPass, GlContext, GlError};
use crate::mgfx::VertexElementUsage;
pub use crate::sprite::Sprite;

/// `VertexPositionColorTexture`: Position float3, Color normalized u8x4, TextureCoordinate float2.
const STRIDE: i32 = 24;

/// (usage, components, GL type, normalized, byte offset) of each vertex element.
const ELEMENTS: [(VertexElementUsage, i32, u32, bool, i32); 3] = [
    (VertexElementUsage::Position, 3, glow::FLOAT, false, 0),
    (VertexElementUsage::Color, 4, glow::UNSIGNED_BYTE, true, 12),
    (
        VertexElementUsage::TextureCoordinate,
        2,
        glow::FLOAT,
        false,
        16,
    ),
];

/// 16-bit indices reach 65535 vertices, four per sprite.
const MAX_PER_DRAW: usize = u16::MAX as usize / 4;

/// Vertex and index buffers reused by every draw, deleted when the batch is dropped.
///
/// The CPU-side vertex and index bytes are kept between draws too, so after the first draw of
/// the largest batch, drawing allocates nothing.
#[derive(Debug)]
pub struct SpriteBatch {
    ctx: GlContext,
    vertices: glow::Buffer,
    indices: glow::Buffer,
    vertex_bytes: Vec<u8>,
    index_bytes: Vec<u8>,
}

impl SpriteBatch {
    /// Creates the buffers.
    pub fn new(ctx: &GlContext) -> Result<SpriteBatch, GlError> {
        let gl = ctx.glow();
        // SAFETY: the context is current (`GlContext`); the first buffer is freed if the
        // second cannot be made.
        unsafe {
            let vertices = gl.create_buffer().map_err(creating("a vertex buffer"))?;
            match gl.create_buffer() {
                Ok(indices) => Ok(SpriteBatch {
                    ctx: ctx.clone(),
                    vertices,
                    indices,
                    vertex_bytes: Vec::new(),
                    index_bytes: Vec::new(),
                }),
                Err(log) => {
                    gl.delete_buffer(vertices);
                    Err(creating("an index buffer")(log))
                }
            }
        }
    }

    /// Binds SpriteBatch's vertex shader on the context, as MonoGame's `SpriteBatch` applies
    /// `SpriteEffect`'s pass before a custom effect's: a pass without a vertex shader applied
    /// next (of any effect of the context) draws with SpriteBatch's vertex shader, whatever
    /// pass was applied before. Call it before applying a pixel-only pass for sprites when
    /// passes with vertex shaders were applied on the context since (a 3D scene, another
    /// technique's first pass).
    pub fn begin(&self) {
        self.ctx.bound_vs().bind_sprite();
    }

    /// Draws `sprites` with the applied `pass`, in order, as indexed triangles (several draw
    /// calls past 16383 sprites). The pass's program and textures are made current first
    /// ([`AppliedPass::bind`]), so another effect applied since does not draw in its place.
    /// Each vertex element is fed to the attribute with its usage, and elements the vertex
    /// shader does not read are not fed, as MonoGame binds a vertex declaration. A core-profile
    /// context needs a vertex array object bound.
    ///
    /// Fails, drawing nothing, when the pass's effect belongs to another context than the batch
    /// ([`GlError::ForeignContext`]). Like [`GlEffect::apply`](super::GlEffect::apply) it leaves
    /// GL's error flags to the caller: a GL error of the draw stays pending for `glGetError`.
    pub fn draw(&mut self, pass: &AppliedPass<'_>, sprites: &[Sprite]) -> Result<(), GlError> {
        self.ctx
            .expect_same(pass.context(), "the applied pass's effect")?;
        pass.bind();
        let gl = self.ctx.glow();
        for chunk in sprites.chunks(MAX_PER_DRAW) {
            quads(chunk, &mut self.vertex_bytes, &mut self.index_bytes);
            // SAFETY: the context is current (`GlContext`) and the buffers are this batch's;
            // every attribute offset lies inside the stride and the indices stay inside the
            // vertices just uploaded.
            unsafe {
                gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vertices));
                gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &self.vertex_bytes, glow::STREAM_DRAW);
                gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.indices));
                gl.buffer_data_u8_slice(
                    glow::ELEMENT_ARRAY_BUFFER,
                    &self.index_bytes,
                    glow::STREAM_DRAW,
                );
                let mut enabled = [None; ELEMENTS.len()];
                for ((usage, size, ty, normalized, offset), slot) in
                    ELEMENTS.into_iter().zip(&mut enabled)
                {
                    if let Some(loc) = pass.attribute_location(usage, 0) {
                        gl.enable_vertex_attrib_array(loc);
                        gl.vertex_attrib_pointer_f32(loc, size, ty, normalized, STRIDE, offset);
                        *slot = Some(loc);
                    }
                }
                let count = (chunk.len() * 6) as i32;
                gl.draw_elements(glow::TRIANGLES, count, glow::UNSIGNED_SHORT, 0);
                for loc in enabled.into_iter().flatten() {
                    gl.disable_vertex_attrib_array(loc);
                }
                gl.bind_buffer(glow::ARRAY_BUFFER, None);
                gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, None);
            }
        }
        Ok(())
    }
}

impl Drop for SpriteBatch {
    fn drop(&mut self) {
        // SAFETY: buffers made by this batch on its context, current while it is dropped
        // (`GlContext`).
        unsafe {
            let gl = self.ctx.glow();
            gl.delete_buffer(self.vertices);
            gl.delete_buffer(self.indices);
        }
    }
}

/// Writes the interleaved vertex bytes and little-endian u16 index bytes of at most
/// [`MAX_PER_DRAW`] sprites into the two buffers (cleared first, capacity kept).
fn quads(sprites: &[Sprite], vertices: &mut Vec<u8>, indices: &mut Vec<u8>) {
    vertices.clear();
    indices.clear();
    for (i, s) in sprites.iter().enumerate() {
        for vertex in s.vertices() {
            vertices.extend_from_slice(&vertex);
        }
        let base = (i * 4) as u16;
        for k in [0, 1, 2, 1, 3, 2] {
            indices.extend_from_slice(&(base + k).to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sprite_is_four_vertices_in_spritebatch_order() {
        let mut s = Sprite::new(10.0, 20.0, 4.0, 2.0);
        s.color = [1, 2, 3, 4];
        s.uv = [[0.25, 0.5], [0.75, 1.0]];
        s.depth = 0.5;
        let (mut vertices, mut indices) = (vec![9; 3], Vec::new());
        quads(
            &[s, Sprite::new(0.0, 0.0, 1.0, 1.0)],
            &mut vertices,
            &mut indices,
        );
        assert_eq!(vertices.len(), 8 * STRIDE as usize);
        let f = |at: usize| f32::from_le_bytes(vertices[at..at + 4].try_into().unwrap());
        // Bottom-right vertex of the first sprite.
        let br = 3 * STRIDE as usize;
        assert_eq!([f(br), f(br + 4), f(br + 8)], [14.0, 22.0, 0.5]);
        assert_eq!(vertices[br + 12..br + 16], [1, 2, 3, 4]);
        assert_eq!([f(br + 16), f(br + 20)], [0.75, 1.0]);
        let idx: Vec<u16> = indices
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        assert_eq!(idx, [0, 1, 2, 1, 3, 2, 4, 5, 6, 5, 7, 6]);
    }
}
