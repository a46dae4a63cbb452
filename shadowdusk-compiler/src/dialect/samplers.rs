//! Sampler slots and names (glsl-dialect.md §4, fx-pipeline.md §9.5).
//!
//! Input: the combined samplers SPIRV-Cross built and the pipeline's `slot_of`. Output: one
//! [`DialectSampler`] per combined sampler, named `ps_s<slot>`. Slots from `slot_of` are kept;
//! the rest are numbered in `combined` order from the lowest free slot. Refused: samplers in a
//! vertex shader (SD0211), 1D/array/shadow/multisample textures (SD0212), duplicate slots or
//! slots ≥ 16 (SD0023).

use super::{DialectError, DialectSampler};
use crate::cross::CombinedSampler;
use crate::diag::Code;
use crate::effect::Dim;
use crate::lower::Stage;

/// MonoGame's GL runtime binds texture units 0–15.
pub const MAX_SLOTS: u32 = 16;

/// Assigns slots and names.
pub fn assign(
    combined: &[CombinedSampler],
    stage: Stage,
    slot_of: &dyn Fn(&CombinedSampler) -> Option<u32>,
) -> Result<Vec<DialectSampler>, DialectError> {
    if let (Stage::Vertex, Some(c)) = (stage, combined.first()) {
        return Err(DialectError::new(
            Code::SD0211,
            format!("the vertex shader samples texture `{}`; MonoGame's OpenGL runtime never binds vertex textures", c.texture),
            "move the texture read to the pixel shader, or pass the value in a uniform or vertex attribute",
            Some(c.texture.clone()),
        ));
    }
    for c in combined {
        if c.exotic || c.dim == Dim::D1 {
            let what = if c.dim == Dim::D1 {
                "a 1D texture"
            } else {
                "an array, multisample or shadow texture"
            };
            return Err(DialectError::new(
                Code::SD0212,
                format!("`{}` is {what}, which GLSL 1.10 / GLSL ES 1.00 samplers cannot express", c.texture),
                "use Texture2D (a 1D lookup becomes a Nx1 2D texture sampled at (u, 0.5)), TextureCube or Texture3D",
                Some(c.texture.clone()),
            ));
        }
    }
    let mut slots: Vec<Option<u32>> = combined.iter().map(slot_of).collect();
    let mut used = [false; MAX_SLOTS as usize];
    for (c, s) in combined.iter().zip(&slots) {
        let Some(s) = *s else { continue };
        if s >= MAX_SLOTS {
            return Err(slot_error(
                c,
                format!(
                    "sampler `{}` is bound to slot {s}; MonoGame has slots 0-15",
                    c.sampler
                ),
            ));
        }
        if used[s as usize] {
            return Err(slot_error(
                c,
                format!(
                    "two samplers of this shader are bound to slot {s} (`{}` is one)",
                    c.sampler
                ),
            ));
        }
        used[s as usize] = true;
    }
    for (c, s) in combined.iter().zip(slots.iter_mut()) {
        if s.is_none() {
            let Some(free) = (0..MAX_SLOTS).find(|&k| !used[k as usize]) else {
                return Err(slot_error(
                    c,
                    "this shader uses more than 16 samplers".to_string(),
                ));
            };
            used[free as usize] = true;
            *s = Some(free);
        }
    }
    Ok(combined
        .iter()
        .zip(slots)
        .map(|(c, s)| {
            let slot = s.unwrap_or(0);
            DialectSampler {
                glsl_name: format!("ps_s{slot}"),
                slot,
                texture: c.texture.clone(),
                sampler: c.sampler.clone(),
                dim: c.dim,
            }
        })
        .collect())
}

fn slot_error(c: &CombinedSampler, message: String) -> DialectError {
    DialectError::new(
        Code::SD0023,
        message,
        "give each sampler its own register(s0)..register(s15)",
        Some(c.sampler.clone()),
    )
}

/// GLSL sampler type for a dimension.
pub fn glsl_type(dim: Dim) -> &'static str {
    match dim {
        Dim::D1 | Dim::D2 => "sampler2D",
        Dim::Cube => "samplerCube",
        Dim::D3 => "sampler3D",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(t: &str, s: &str, dim: Dim) -> CombinedSampler {
        CombinedSampler {
            glsl_name: format!("sd_{t}"),
            texture: t.into(),
            sampler: s.into(),
            dim,
            exotic: false,
        }
    }

    #[test]
    fn unassigned_fill_free_slots_in_order() {
        let c = [
            cs("A", "SA", Dim::D2),
            cs("B", "SB", Dim::Cube),
            cs("C", "SC", Dim::D3),
        ];
        let r = assign(&c, Stage::Pixel, &|c| (c.texture == "B").then_some(0)).unwrap();
        assert_eq!(r.iter().map(|s| s.slot).collect::<Vec<_>>(), [1, 0, 2]);
        assert_eq!(r[1].glsl_name, "ps_s0");
    }

    #[test]
    fn refusals() {
        let c = [cs("A", "SA", Dim::D2), cs("B", "SB", Dim::D2)];
        assert_eq!(
            assign(&c, Stage::Pixel, &|_| Some(3)).unwrap_err().code,
            Code::SD0023
        );
        assert_eq!(
            assign(&c[..1], Stage::Pixel, &|_| Some(16))
                .unwrap_err()
                .code,
            Code::SD0023
        );
        assert_eq!(
            assign(&c, Stage::Vertex, &|_| None).unwrap_err().code,
            Code::SD0211
        );
        let e = assign(&[cs("L", "S", Dim::D1)], Stage::Pixel, &|_| None).unwrap_err();
        assert_eq!((e.code, e.subject.as_deref()), (Code::SD0212, Some("L")));
    }
}
