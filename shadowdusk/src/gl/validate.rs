//! The checks that make loading and applying an effect index-safe: every shader, constant
//! buffer and parameter index an MGFX record holds is followed by the loader, so each is checked
//! once here and apply never indexes out of range (mgfx-format.md §5–§8).

use super::GlError;
use crate::mgfx::{Effect, ShaderStage};

/// Checks every index the loader follows, so apply never indexes out of range.
pub(super) fn validate(effect: &Effect) -> Result<(), GlError> {
    let bad = |what: String| Err(GlError::Malformed(what));
    for (i, s) in effect.shaders.iter().enumerate() {
        for &c in &s.cbuffers {
            if c as usize >= effect.constant_buffers.len() {
                return bad(format!("shader {i} refers to constant buffer {c}"));
            }
        }
        for smp in &s.samplers {
            if smp.parameter as usize >= effect.parameters.len() {
                return bad(format!(
                    "sampler '{}' of shader {i} refers to parameter {}",
                    smp.name, smp.parameter
                ));
            }
        }
    }
    for (ci, cb) in effect.constant_buffers.iter().enumerate() {
        for e in &cb.entries {
            if usize::try_from(e.parameter).map_or(true, |p| p >= effect.parameters.len()) {
                return bad(format!(
                    "constant buffer {ci} refers to parameter {}",
                    e.parameter
                ));
            }
        }
    }
    if effect.techniques.is_empty() {
        return bad("the effect has no technique".into());
    }
    for t in &effect.techniques {
        for p in &t.passes {
            let check = |index: i32, stage: ShaderStage| -> Result<(), GlError> {
                if index < 0 {
                    return Ok(());
                }
                match effect.shaders.get(index as usize) {
                    Some(s) if s.stage == stage => Ok(()),
                    Some(_) => Err(GlError::Malformed(format!(
                        "technique '{}' pass '{}': shader {index} is not a {stage:?} shader",
                        t.name, p.name
                    ))),
                    None => Err(GlError::Malformed(format!(
                        "technique '{}' pass '{}': no shader {index}",
                        t.name, p.name
                    ))),
                }
            };
            check(p.vertex_shader, ShaderStage::Vertex)?;
            check(p.pixel_shader, ShaderStage::Pixel)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mgfx::{self, Profile};

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
        assert!(err.to_string().contains("not a Pixel shader"), "{err}");
    }
}
