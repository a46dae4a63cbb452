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

    fn array(element: Parameter, n: usize) -> Parameter {
        let mut parent = element.clone();
        parent.data = None;
        parent.elements = (0..n)
            .map(|i| {
                let mut e = element.clone();
                e.name = String::new();
                let d: Vec<u32> = e
                    .data
                    .iter()
                    .flatten()
                    .map(|b| (f32::from_bits(*b) + 100.0 * i as f32).to_bits())
                    .collect();
                e.data = Some(d);
                e
            })
            .collect();
        parent
    }

    fn floats(bytes: &[u8]) -> Vec<f32> {
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
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
    fn matrix_4x4_is_one_copy_of_the_column_data() {
        let data: Vec<f32> = (0..16).map(|i| i as f32).collect();
        let p = vec![value(ParameterClass::Matrix, "M", 4, 4, &data)];
        let out = floats(&cbuffer_bytes(&cb(64, &[(0, 0)]), &p).unwrap());
        assert_eq!(out, data);
    }

    #[test]
    fn matrix_4x3_uses_three_registers_of_four_floats() {
        // rows 4, columns 3: register k = data[k*4 .. k*4+4].
        let data: Vec<f32> = (1..=12).map(|i| i as f32).collect();
        let p = vec![value(ParameterClass::Matrix, "World", 4, 3, &data)];
        let out = floats(&cbuffer_bytes(&cb(64, &[(0, 16)]), &p).unwrap());
        let mut expect = vec![0.0; 4];
        expect.extend_from_slice(&data);
        assert_eq!(out, expect);
    }

    #[test]
    fn matrix_3x4_pads_each_register() {
        // rows 3, columns 4: four registers of three floats each, .w left zero.
        let data: Vec<f32> = (1..=12).map(|i| i as f32).collect();
        let p = vec![value(ParameterClass::Matrix, "M", 3, 4, &data)];
        let out = floats(&cbuffer_bytes(&cb(64, &[(0, 0)]), &p).unwrap());
        let expect = vec![
            1.0, 2.0, 3.0, 0.0, 4.0, 5.0, 6.0, 0.0, 7.0, 8.0, 9.0, 0.0, 10.0, 11.0, 12.0, 0.0,
        ];
        assert_eq!(out, expect);
    }

    #[test]
    fn scalars_and_vectors_use_one_register_each() {
        let p = vec![
            value(ParameterClass::Scalar, "A", 1, 1, &[7.0]),
            value(ParameterClass::Vector, "B", 1, 3, &[1.0, 2.0, 3.0]),
        ];
        let out = floats(&cbuffer_bytes(&cb(32, &[(0, 16), (1, 0)]), &p).unwrap());
        assert_eq!(out, vec![1.0, 2.0, 3.0, 0.0, 7.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn arrays_of_vectors_have_a_register_stride() {
        let p = vec![array(value(ParameterClass::Scalar, "Arr", 1, 1, &[1.0]), 3)];
        let out = floats(&cbuffer_bytes(&cb(48, &[(0, 0)]), &p).unwrap());
        assert_eq!(
            out,
            vec![1.0, 0.0, 0.0, 0.0, 101.0, 0.0, 0.0, 0.0, 201.0, 0.0, 0.0, 0.0]
        );
    }

    #[test]
    fn arrays_of_4x3_matrices_stride_three_registers() {
        let data: Vec<f32> = (0..12).map(|i| i as f32).collect();
        let p = vec![array(
            value(ParameterClass::Matrix, "Bones", 4, 3, &data),
            2,
        )];
        let out = floats(&cbuffer_bytes(&cb(96, &[(0, 0)]), &p).unwrap());
        assert_eq!(&out[..12], &data[..]);
        let second: Vec<f32> = data.iter().map(|v| v + 100.0).collect();
        assert_eq!(&out[12..], &second[..]);
    }

    #[test]
    fn a_4x4_past_the_end_is_clamped_like_monogame() {
        let data: Vec<f32> = (0..16).map(|i| i as f32).collect();
        let p = vec![value(ParameterClass::Matrix, "M", 4, 4, &data)];
        let out = floats(&cbuffer_bytes(&cb(48, &[(0, 0)]), &p).unwrap());
        assert_eq!(out, data[..12].to_vec());
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
