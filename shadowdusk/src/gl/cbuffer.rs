//! Constant-buffer bytes from parameter values (mgfx-format.md §7.2, MonoGame `ConstantBuffer.cs`).
//!
//! Input: a constant-buffer record and the effect's top-level parameters. Output: the
//! `size`-byte register array MonoGame uploads with `glUniform4fv(name, size/16, bytes)`. The
//! packing rules live in one place, [`mgfx::packing`](crate::mgfx::packing) (shared with the
//! MGFX writer's checks and the code generator); this adapter turns its errors into
//! [`GlError`]s. Overruns MonoGame would throw on are [`GlError::CbufferOverrun`].

use super::GlError;
use crate::mgfx::packing::{cbuffer_image, PackError};
use crate::mgfx::{ConstantBuffer, Parameter};

/// Builds the bytes of `cb` from the current values of `parameters` (top-level list).
pub fn cbuffer_bytes(cb: &ConstantBuffer, parameters: &[Parameter]) -> Result<Vec<u8>, GlError> {
    cbuffer_image(cb, parameters).map_err(|e| match e {
        PackError::NoParameter { .. } => GlError::Malformed(e.to_string()),
        PackError::Shape {
            name,
            values,
            rows,
            columns,
        } => GlError::ParameterShape {
            name,
            what: format!("holds {values} values but is {rows}x{columns}"),
        },
        PackError::Overrun {
            cbuffer,
            parameter,
            offset,
            size,
        } => GlError::CbufferOverrun {
            cbuffer,
            parameter,
            offset,
            size,
        },
    })
}

/// The packing rules themselves are tested in `shadowdusk_mgfx::packing`; these check that
/// each of its errors becomes the right `GlError`.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::mgfx::{CbufferEntry, ParameterClass, ParameterType};

    fn value(class: ParameterClass, name: &str, rows: u8, columns: u8, data: &[f32]) -> Parameter {
        Parameter {
            data: Some(data.iter().map(|f| f.to_bits()).collect()),
            ..Parameter::value(name, class, ParameterType::Single, rows, columns)
        }
    }

    fn cb(size: u16, entries: &[(i32, u16)]) -> ConstantBuffer {
        ConstantBuffer {
            name: "vs_uniforms_vec4".into(),
            size,
            entries: entries
                .iter()
                .map(|&(parameter, offset)| CbufferEntry { parameter, offset })
                .collect(),
        }
    }

    #[test]
    fn a_4x3_past_the_end_is_an_error() {
        let p = vec![value(ParameterClass::Matrix, "M", 4, 3, &[0.0; 12])];
        let err = cbuffer_bytes(&cb(32, &[(0, 0)]), &p).unwrap_err();
        assert!(
            matches!(err, GlError::CbufferOverrun { offset: 32, .. }),
            "{err:?}"
        );
    }

    #[test]
    fn a_bad_parameter_index_is_an_error_not_a_panic() {
        let err = cbuffer_bytes(&cb(16, &[(3, 0)]), &[]).unwrap_err();
        assert!(matches!(err, GlError::Malformed(_)));
    }
}
