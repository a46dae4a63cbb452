//! Sprite drawing as MonoGame's SpriteBatch submits it: `VertexPositionColorTexture` quads in
//! pixel coordinates (the effect's built-in SpriteBatch vertex shader projects them), vertices
//! TL, TR, BL, BR and indices 0,1,2 1,3,2, each element fed to the attribute with its usage.

use glow::HasContext;
use shadowdusk::gl::AppliedPass;
use shadowdusk::mgfx::VertexElementUsage;

/// One textured rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad {
    /// Left edge in pixels.
    pub x: f32,
    /// Top edge in pixels.
    pub y: f32,
    /// Width in pixels.
    pub width: f32,
    /// Height in pixels.
    pub height: f32,
    /// Texture coordinates `[u0, v0, u1, v1]` of the top-left and bottom-right corners.
    pub uv: [f32; 4],
    /// Vertex colour (premultiplied, as SpriteBatch's `Color`).
    pub color: [u8; 4],
}

impl Quad {
    /// The whole texture, white, at (`x`, `y`) with the given size.
    pub fn new(x: f32, y: f32, width: f32, height: f32) -> Quad {
        Quad {
            x,
            y,
            width,
            height,
            uv: [0.0, 0.0, 1.0, 1.0],
            color: [255; 4],
        }
    }
}

/// Position float3, Color normalized ubyte4, TextureCoordinate float2.
const STRIDE: i32 = 24;

/// Vertex and index buffers reused by every sprite draw.
pub struct SpriteBatch {
    vertices: glow::Buffer,
    indices: glow::Buffer,
}

impl SpriteBatch {
    /// Creates the buffers.
    pub fn new(gl: &glow::Context) -> Result<SpriteBatch, String> {
        // SAFETY: buffer creation on the current context.
        unsafe {
            Ok(SpriteBatch {
                vertices: gl.create_buffer()?,
                indices: gl.create_buffer()?,
            })
        }
    }

    /// Draws `quads` with the program of `pass` (already applied) in one call.
    pub fn draw(
        &self,
        gl: &glow::Context,
        pass: &AppliedPass,
        quads: &[Quad],
    ) -> Result<(), String> {
        if quads.is_empty() {
            return Ok(());
        }
        if quads.len() > usize::from(u16::MAX) / 4 {
            return Err(format!(
                "{} sprites in one draw; at most 16383",
                quads.len()
            ));
        }
        let mut bytes = Vec::with_capacity(quads.len() * 4 * STRIDE as usize);
        let mut indices: Vec<u16> = Vec::with_capacity(quads.len() * 6);
        for (i, q) in quads.iter().enumerate() {
            let [u0, v0, u1, v1] = q.uv;
            for (x, y, u, v) in [
                (q.x, q.y, u0, v0),
                (q.x + q.width, q.y, u1, v0),
                (q.x, q.y + q.height, u0, v1),
                (q.x + q.width, q.y + q.height, u1, v1),
            ] {
                for f in [x, y, 0.0] {
                    bytes.extend_from_slice(&f32::to_le_bytes(f));
                }
                bytes.extend_from_slice(&q.color);
                for f in [u, v] {
                    bytes.extend_from_slice(&f32::to_le_bytes(f));
                }
            }
            let base = (i * 4) as u16;
            indices.extend([0, 1, 2, 1, 3, 2].map(|k| base + k));
        }
        let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let elements = [
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
        // SAFETY: the buffers belong to this context; every attribute offset lies inside the
        // stride and the indices stay inside the vertices just uploaded.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vertices));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &bytes, glow::STREAM_DRAW);
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.indices));
            gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, &index_bytes, glow::STREAM_DRAW);
            let enabled = feed(gl, pass, &elements, STRIDE);
            gl.draw_elements(
                glow::TRIANGLES,
                indices.len() as i32,
                glow::UNSIGNED_SHORT,
                0,
            );
            for loc in enabled {
                gl.disable_vertex_attrib_array(loc);
            }
        }
        check(gl, "drawing sprites")
    }

    /// Deletes the buffers.
    pub fn destroy(self, gl: &glow::Context) {
        // SAFETY: buffers created by this batch on the current context.
        unsafe {
            gl.delete_buffer(self.vertices);
            gl.delete_buffer(self.indices);
        }
    }
}

/// One interleaved vertex element: usage, float (or byte) components, GL type, normalized,
/// byte offset.
pub type Element = (VertexElementUsage, i32, u32, bool, i32);

/// Points each element the pass's vertex shader reads at the bound array buffer, as MonoGame
/// binds a vertex declaration: elements the shader has no attribute for are not fed. Returns
/// the attribute locations enabled, to disable after the draw.
///
/// # Safety
/// `gl` must be current with the vertex buffer bound to `ARRAY_BUFFER`.
pub unsafe fn feed(
    gl: &glow::Context,
    pass: &AppliedPass,
    elements: &[Element],
    stride: i32,
) -> Vec<u32> {
    let mut enabled = Vec::new();
    for &(usage, size, ty, normalized, offset) in elements {
        if let Some(loc) = pass.attribute_location(usage, 0) {
            // SAFETY: forwarded from the caller.
            unsafe {
                gl.enable_vertex_attrib_array(loc);
                gl.vertex_attrib_pointer_f32(loc, size, ty, normalized, stride, offset);
            }
            enabled.push(loc);
        }
    }
    enabled
}

/// `glGetError` as a result.
pub fn check(gl: &glow::Context, what: &str) -> Result<(), String> {
    // SAFETY: a query on the current context.
    match unsafe { gl.get_error() } {
        glow::NO_ERROR => Ok(()),
        e => Err(format!("{what}: OpenGL error 0x{e:04X}")),
    }
}
