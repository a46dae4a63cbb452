//! Draw helpers that feed vertices the way MonoGame does: each vertex-declaration element is
//! bound to the attribute location of the record with the same (usage, usage index), and
//! elements without a match are not fed (glsl-dialect.md §1 step 5).

use glow::HasContext;
use shadowdusk::gl::AppliedPass;
use shadowdusk::mgfx::VertexElementUsage;

/// One sprite as SpriteBatch submits it: a pixel rectangle, a colour, texture coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprite {
    /// Left edge in pixels.
    pub x: f32,
    /// Top edge in pixels.
    pub y: f32,
    /// Width in pixels.
    pub width: f32,
    /// Height in pixels.
    pub height: f32,
    /// Vertex colour (SpriteBatch's `Color`, normalized u8x4).
    pub color: [u8; 4],
    /// Texture coordinates of the top-left and bottom-right corners.
    pub uv: [[f32; 2]; 2],
    /// Depth (Position.z).
    pub depth: f32,
}

impl Sprite {
    /// A white sprite with texture coordinates (0,0)–(1,1).
    pub fn new(x: f32, y: f32, width: f32, height: f32) -> Sprite {
        Sprite {
            x,
            y,
            width,
            height,
            color: [255; 4],
            uv: [[0.0, 0.0], [1.0, 1.0]],
            depth: 0.0,
        }
    }
}

/// `VertexPositionColorTexture`: Position float3, Color normalized u8x4, TextureCoordinate float2.
const STRIDE: i32 = 24;

/// Draws one sprite like SpriteBatch: vertices TL, TR, BL, BR, indices 0,1,2, 1,3,2.
pub fn draw_sprite(gl: &glow::Context, pass: &AppliedPass, s: &Sprite) -> Result<(), String> {
    let corners = [
        (s.x, s.y, s.uv[0][0], s.uv[0][1]),
        (s.x + s.width, s.y, s.uv[1][0], s.uv[0][1]),
        (s.x, s.y + s.height, s.uv[0][0], s.uv[1][1]),
        (s.x + s.width, s.y + s.height, s.uv[1][0], s.uv[1][1]),
    ];
    let mut bytes = Vec::with_capacity(4 * STRIDE as usize);
    for (x, y, u, v) in corners {
        for f in [x, y, s.depth] {
            bytes.extend_from_slice(&f.to_le_bytes());
        }
        bytes.extend_from_slice(&s.color);
        for f in [u, v] {
            bytes.extend_from_slice(&f.to_le_bytes());
        }
    }
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
    let indices: [u16; 6] = [0, 1, 2, 1, 3, 2];
    // SAFETY: buffers created and deleted here; attribute offsets lie inside the 24-byte stride.
    unsafe {
        let vbo = gl.create_buffer()?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
        gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &bytes, glow::STREAM_DRAW);
        let mut enabled = Vec::new();
        for (usage, size, ty, normalized, offset) in elements {
            if let Some(loc) = pass.attribute_location(usage, 0) {
                gl.enable_vertex_attrib_array(loc);
                gl.vertex_attrib_pointer_f32(loc, size, ty, normalized, STRIDE, offset);
                enabled.push(loc);
            }
        }
        let result = draw_indexed(gl, &indices);
        for loc in enabled {
            gl.disable_vertex_attrib_array(loc);
        }
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
        gl.delete_buffer(vbo);
        result
    }
}

/// One vertex element for [`draw_mesh`]: (usage, usage index, float components, data).
pub type Element<'a> = (VertexElementUsage, u8, i32, &'a [f32]);

/// Draws indexed triangles from non-interleaved float elements.
pub fn draw_mesh(
    gl: &glow::Context,
    pass: &AppliedPass,
    elements: &[Element],
    indices: &[u16],
) -> Result<(), String> {
    // SAFETY: one buffer per element, created and deleted here; the draw reads only indices
    // given, which the caller keeps inside the element data.
    unsafe {
        let mut buffers = Vec::new();
        let mut enabled = Vec::new();
        for &(usage, index, components, data) in elements {
            if !(1..=4).contains(&components) || data.len() % components as usize != 0 {
                return Err(format!(
                    "element {usage:?}{index}: {} floats is not a multiple of {components}",
                    data.len()
                ));
            }
            let Some(loc) = pass.attribute_location(usage, index) else {
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
        let result = draw_indexed(gl, indices);
        for loc in enabled {
            gl.disable_vertex_attrib_array(loc);
        }
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
        for b in buffers {
            gl.delete_buffer(b);
        }
        result
    }
}

unsafe fn draw_indexed(gl: &glow::Context, indices: &[u16]) -> Result<(), String> {
    let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    // SAFETY: forwarded from the caller; the index buffer is created and deleted here.
    unsafe {
        let ibo = gl.create_buffer()?;
        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(ibo));
        gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, &bytes, glow::STREAM_DRAW);
        gl.draw_elements(
            glow::TRIANGLES,
            indices.len() as i32,
            glow::UNSIGNED_SHORT,
            0,
        );
        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, None);
        gl.delete_buffer(ibo);
        match gl.get_error() {
            glow::NO_ERROR => Ok(()),
            e => Err(format!("draw failed: glGetError 0x{e:04X}")),
        }
    }
}
