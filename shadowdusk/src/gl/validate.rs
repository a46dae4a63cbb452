//! The checks that make loading and applying an effect index-safe: every shader, constant
//! buffer and parameter index an MGFX record holds is followed by the loader. The rules have
//! one home, [`mgfx::validate`](crate::mgfx::validate) (mgfx-format.md §13, also what the
//! writer enforces), so apply never indexes out of range.

use super::GlError;
use crate::mgfx::Effect;

/// Checks every index the loader follows (and every other MGFX rule), so apply never indexes
/// out of range.
pub(super) fn validate(effect: &Effect) -> Result<(), GlError> {
    crate::mgfx::validate(effect).map_err(|e| GlError::Malformed(e.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mgfx::{self, Profile, ShaderStage};

    #[test]
    fn validate_refuses_a_vertex_shader_in_the_pixel_slot() {
        let effect = Effect {
            version: 10,
            profile: Profile::OpenGL,
            key: 0,
            constant_buffers: vec![],
            shaders: vec![mgfx::Shader {
                stage: ShaderStage::Vertex,
                source_file: None,
                entry_point: None,
                code: vec![],
                samplers: vec![],
                cbuffers: vec![],
                attributes: vec![],
            }],
            parameters: vec![],
            techniques: vec![mgfx::Technique {
                name: "T".into(),
                annotations: 0,
                passes: vec![mgfx::Pass {
                    name: "P".into(),
                    annotations: 0,
                    vertex_shader: -1,
                    pixel_shader: 0,
                    blend: None,
                    depth_stencil: None,
                    rasterizer: None,
                }],
            }],
        };
        let err = validate(&effect).unwrap_err();
        assert!(
            err.to_string().contains("points at a Vertex shader"),
            "{err}"
        );
    }
}
