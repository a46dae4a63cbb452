//! Draw helpers that feed vertices the way MonoGame does: each vertex-declaration element is
//! bound to the attribute location of the record with the same (usage, usage index), and
//! elements without a match are not fed (glsl-dialect.md §1 step 5).

use glow::HasContext;
use shadowdusk::gl::{AppliedPass, GlContext, SpriteBatch};
use shadowdusk::mgfx::VertexElementUsage;

/// One sprite as SpriteBatch submits it: a pixel rectangle, a colour, texture coordinates.
pub use shadowdusk::gl::Sprite;

/// Draws one sprite like SpriteBatch (`shadowdusk::gl::SpriteBatch`): vertices TL, TR, BL, BR,
/// indices 0,1,2, 1,3,2.
pub fn draw_sprite(ctx: &GlContext, pass: &AppliedPass, s: &Sprite) -> Result<(), String> {
    let mut batch = SpriteBatch::new(ctx).map_err(|e| e.to_string())?;
    batch
        .draw(pass, std::slice::from_ref(s))
        .map_err(|e| format!("draw failed: {e}"))
}

/// One vertex element for [`draw_mesh`]: (usage, usage index, float components, data).
pub type Element<'a> = (VertexElementUsage, u8, i32, &'a [f32]);

/// Draws indexed triangles from non-interleaved float elements.
pub fn draw_mesh(
    ctx: &GlContext,
    pass: &AppliedPass,
    elements: &[Element],
    indices: &[u16],
) -> Result<(), String> {
    // The pass's program and textures, whatever was applied since (a custom draw's job).
    pass.bind();
    let gl = ctx.glow();
    // SAFETY: the context is current (`GlContext`); one buffer per element, created and
    // deleted here; the draw reads only indices given, which the caller keeps inside the
    // element data.
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

/// Draws `instances` instances of indexed triangles with hardware instancing, as MonoGame's GL
/// runtime does for `DrawInstancedPrimitives`: `vertices` step per vertex, `per_instance` once
/// per instance (`glVertexAttribDivisor(location, 1)`), then `glDrawElementsInstanced`.
pub fn draw_mesh_instanced(
    ctx: &GlContext,
    pass: &AppliedPass,
    vertices: &[Element],
    per_instance: &[Element],
    indices: &[u16],
    instances: i32,
) -> Result<(), String> {
    pass.bind();
    let gl = ctx.glow();
    // SAFETY: the context is current (`GlContext`); one buffer per element, created and
    // deleted here; the draw reads only indices given and `instances` entries of each
    // per-instance element, which the caller provides.
    unsafe {
        let mut buffers = Vec::new();
        let mut enabled = Vec::new();
        for (divisor, elements) in [(0, vertices), (1, per_instance)] {
            for &(usage, index, components, data) in elements {
                let Some(loc) = pass.attribute_location(usage, index) else {
                    continue;
                };
                let vbo = gl.create_buffer()?;
                let bytes: Vec<u8> = data.iter().flat_map(|f| f.to_le_bytes()).collect();
                gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
                gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &bytes, glow::STREAM_DRAW);
                gl.enable_vertex_attrib_array(loc);
                gl.vertex_attrib_pointer_f32(loc, components, glow::FLOAT, false, 0, 0);
                gl.vertex_attrib_divisor(loc, divisor);
                buffers.push(vbo);
                enabled.push(loc);
            }
        }
        let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let ibo = gl.create_buffer()?;
        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(ibo));
        gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, &bytes, glow::STREAM_DRAW);
        gl.draw_elements_instanced(
            glow::TRIANGLES,
            indices.len() as i32,
            glow::UNSIGNED_SHORT,
            0,
            instances,
        );
        let error = gl.get_error();
        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, None);
        gl.delete_buffer(ibo);
        for loc in enabled {
            gl.vertex_attrib_divisor(loc, 0);
            gl.disable_vertex_attrib_array(loc);
        }
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
        for b in buffers {
            gl.delete_buffer(b);
        }
        match error {
            glow::NO_ERROR => Ok(()),
            e => Err(format!("instanced draw failed: glGetError 0x{e:04X}")),
        }
    }
}
