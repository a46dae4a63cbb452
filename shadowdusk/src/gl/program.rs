//! Shader compilation and program linking (glsl-dialect.md §1 steps 2–3,
//! MonoGame `Shader.OpenGL.cs` and `ShaderProgramCache.cs`).
//!
//! The GLSL text is compiled as-is (no `#version`, nothing prepended). After linking, attribute
//! locations come from `glGetAttribLocation(attribute.name)` and, for the pixel shader only, each
//! sampler uniform is set to its texture slot.

use glow::HasContext;

use super::{GlError, ShaderRef};
use crate::mgfx::{Attribute, Sampler, ShaderStage, VertexElementUsage};

/// Where a technique/pass is, for error messages.
pub(crate) struct Site<'a> {
    pub technique: &'a str,
    pub pass: &'a str,
}

/// Compiles one shader, deleting it again on failure.
pub(crate) fn compile(
    gl: &glow::Context,
    stage: ShaderStage,
    code: &[u8],
    shader: ShaderRef,
    site: &Site,
) -> Result<glow::Shader, GlError> {
    let compile_error = |log: String| GlError::Compile {
        technique: site.technique.to_string(),
        pass: site.pass.to_string(),
        shader,
        stage,
        log,
    };
    // MonoGame decodes the bytes as ASCII, turning anything else into '?'.
    let text: String = code
        .iter()
        .map(|&b| if b.is_ascii() { b as char } else { '?' })
        .collect();
    let kind = match stage {
        ShaderStage::Vertex => glow::VERTEX_SHADER,
        ShaderStage::Pixel => glow::FRAGMENT_SHADER,
    };
    // SAFETY: plain GL calls on the caller's current context; every object is created here.
    unsafe {
        let id = gl.create_shader(kind).map_err(compile_error)?;
        gl.shader_source(id, &text);
        gl.compile_shader(id);
        if !gl.get_shader_compile_status(id) {
            let log = gl.get_shader_info_log(id);
            gl.delete_shader(id);
            return Err(compile_error(log));
        }
        Ok(id)
    }
}

/// A linked program with every location apply needs, looked up once at link time so that
/// applying a pass does no name look-ups (and no allocation).
pub(crate) struct LinkedProgram {
    pub program: glow::Program,
    pub pos_fixup: Option<glow::UniformLocation>,
    /// (usage, usage index, location) for each attribute record of the vertex shader.
    pub attributes: Vec<(VertexElementUsage, u8, Option<u32>)>,
    /// (constant-buffer record, location of its register array) for every record the two
    /// shaders read that the driver kept, vertex shader's first; filled in by the loader.
    pub cbuffers: Vec<(usize, glow::UniformLocation)>,
}

/// Links `vs` with `ps`, then queries attributes and sets pixel sampler units.
#[allow(clippy::too_many_arguments)]
pub(crate) fn link(
    gl: &glow::Context,
    vs: glow::Shader,
    ps: glow::Shader,
    vertex: ShaderRef,
    pixel: usize,
    attributes: &[Attribute],
    pixel_samplers: &[Sampler],
    site: &Site,
) -> Result<LinkedProgram, GlError> {
    let link_error = |log: String| GlError::Link {
        technique: site.technique.to_string(),
        pass: site.pass.to_string(),
        vertex,
        pixel,
        log,
    };
    // SAFETY: plain GL calls on the caller's current context; the shaders are alive.
    unsafe {
        let program = gl.create_program().map_err(link_error)?;
        gl.attach_shader(program, vs);
        gl.attach_shader(program, ps);
        gl.link_program(program);
        if !gl.get_program_link_status(program) {
            let log = gl.get_program_info_log(program);
            gl.delete_program(program);
            return Err(link_error(log));
        }
        // The sampler uniforms are set on the program in use; whatever the caller had bound
        // (a hot reload runs mid-frame) is bound again after.
        // A program deleted while in use stays current, but binding it again is
        // GL_INVALID_VALUE (Mesa), left pending for the caller: it becomes "none" instead.
        let previous = gl.get_parameter_program(glow::CURRENT_PROGRAM).filter(|p| {
            gl.is_program(*p) && gl.get_program_parameter_i32(*p, glow::DELETE_STATUS) == 0
        });
        gl.use_program(Some(program));
        let attributes = attributes
            .iter()
            .map(|a| (a.usage, a.index, gl.get_attrib_location(program, &a.name)))
            .collect();
        for s in pixel_samplers {
            if let Some(loc) = gl.get_uniform_location(program, &s.name) {
                gl.uniform_1_i32(Some(&loc), s.texture_slot as i32);
            }
        }
        let pos_fixup = gl.get_uniform_location(program, "posFixup");
        gl.use_program(previous);
        Ok(LinkedProgram {
            program,
            pos_fixup,
            attributes,
            cbuffers: Vec::new(),
        })
    }
}
