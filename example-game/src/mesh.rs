//! An indexed triangle mesh in GL buffers, fed to a pass as MonoGame binds a vertex declaration.
//! The cube and the skinned ribbon are both drawn through it.

use glow::HasContext;
use shadowdusk::gl::{AppliedPass, GlContext};
use shadowdusk::mgfx::VertexElementUsage;

/// One interleaved vertex element: usage, float (or byte) components, GL type, normalized,
/// byte offset.
pub type Element = (VertexElementUsage, i32, u32, bool, i32);

/// Vertex and index buffers and the vertex layout; the buffers are deleted when it is dropped.
pub struct Mesh {
    ctx: GlContext,
    vertices: glow::Buffer,
    indices: glow::Buffer,
    count: i32,
    elements: Vec<Element>,
    stride: i32,
    what: &'static str,
}

impl Mesh {
    /// Uploads interleaved `vertices` (`stride` bytes each, laid out as `elements`) and
    /// triangle `indices`; `what` names the mesh in errors.
    pub fn new(
        ctx: &GlContext,
        what: &'static str,
        vertices: &[f32],
        indices: &[u16],
        elements: Vec<Element>,
        stride: i32,
    ) -> Result<Mesh, String> {
        let vertex_bytes: Vec<u8> = vertices.iter().flat_map(|f| f.to_le_bytes()).collect();
        let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let gl = ctx.glow();
        // SAFETY: buffer creation and upload on the current context (`GlContext`); the first
        // buffer is deleted again if the second cannot be made.
        unsafe {
            let vbo = gl.create_buffer()?;
            let ibo = match gl.create_buffer() {
                Ok(ibo) => ibo,
                Err(e) => {
                    gl.delete_buffer(vbo);
                    return Err(e);
                }
            };
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &vertex_bytes, glow::STATIC_DRAW);
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(ibo));
            gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, &index_bytes, glow::STATIC_DRAW);
            Ok(Mesh {
                ctx: ctx.clone(),
                vertices: vbo,
                indices: ibo,
                count: indices.len() as i32,
                elements,
                stride,
                what,
            })
        }
    }

    /// Draws the mesh with `pass`, whose program and textures are made current again first
    /// (another pass may have been applied since).
    pub fn draw(&self, pass: &AppliedPass) -> Result<(), String> {
        pass.bind();
        let gl = self.ctx.glow();
        // SAFETY: the context is current (`GlContext`); the buffers belong to it and hold
        // `count` indices into the vertices; offsets lie inside the stride.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vertices));
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.indices));
            let enabled = feed(gl, pass, &self.elements, self.stride);
            gl.draw_elements(glow::TRIANGLES, self.count, glow::UNSIGNED_SHORT, 0);
            for loc in enabled {
                gl.disable_vertex_attrib_array(loc);
            }
        }
        check(gl, &format!("drawing the {}", self.what))
    }
}

impl Drop for Mesh {
    fn drop(&mut self) {
        // SAFETY: buffers created by this mesh on its context, current while it is dropped
        // (`GlContext`).
        unsafe {
            let gl = self.ctx.glow();
            gl.delete_buffer(self.vertices);
            gl.delete_buffer(self.indices);
        }
    }
}

/// Points each element the pass's vertex shader reads at the bound array buffer, as MonoGame
/// binds a vertex declaration: elements the shader has no attribute for are not fed. Returns
/// the attribute locations enabled, to disable after the draw.
///
/// # Safety
/// `gl` must be current with the vertex buffer bound to `ARRAY_BUFFER`.
unsafe fn feed(
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
fn check(gl: &glow::Context, what: &str) -> Result<(), String> {
    // SAFETY: a query on the caller's current context (`Mesh::draw`'s `GlContext`).
    match unsafe { gl.get_error() } {
        glow::NO_ERROR => Ok(()),
        e => Err(format!("{what}: OpenGL error 0x{e:04X}")),
    }
}
