//! Register packing, the one home for MGFX's rules of how a parameter's value lands in a
//! constant buffer (mgfx-format.md §7.1–§7.2, MonoGame `ConstantBuffer.SetParameter`/`SetData`):
//!
//! * scalar or vector: `columns` floats at the entry's offset, one register;
//! * matrix `rows`×`columns`: `columns` registers; register `k` holds HLSL column `k`, its
//!   `rows` floats in lanes `0..rows` ([`matrix_slot`]); MonoGame's `data[k*rows + r]`;
//! * arrays: element after element, each starting after the registers the previous ones used;
//! * structs and textures: nothing.
//!
//! Everything that places values in registers uses this module: the writer's overrun checks
//! ([`Parameter::upload_bytes`]), the GL loader's buffer image ([`cbuffer_image`]), the code
//! generator's register map and the runtime's typed matrix setters ([`matrix_slot`]).

use super::{ConstantBuffer, Parameter, ParameterClass, ParameterType};

const REGISTER: u32 = 16;

/// Where HLSL matrix element (`row`, `column`) lives: register `column` (relative to the
/// matrix's first register), lane `row`. MonoGame uploads matrices column by column.
pub const fn matrix_slot(row: usize, column: usize) -> (usize, usize) {
    (column, row)
}

/// Why a constant-buffer image could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    /// An entry names a parameter that does not exist.
    #[error("constant buffer '{cbuffer}' refers to parameter {parameter} of {count}")]
    NoParameter {
        /// The record's name.
        cbuffer: String,
        /// The index it names.
        parameter: i32,
        /// How many parameters there are.
        count: usize,
    },
    /// A parameter's data holds fewer values than its shape needs.
    #[error("parameter '{name}' holds {values} values but is {rows}x{columns}")]
    Shape {
        /// The top-level parameter.
        name: String,
        /// Values held.
        values: usize,
        /// Its rows.
        rows: u8,
        /// Its columns.
        columns: u8,
    },
    /// A register would be written past the end of the buffer (MonoGame throws).
    #[error(
        "parameter '{parameter}' overruns constant buffer '{cbuffer}' at byte {offset} of {size}"
    )]
    Overrun {
        /// The record's name.
        cbuffer: String,
        /// The top-level parameter.
        parameter: String,
        /// The byte offset that does not fit.
        offset: usize,
        /// The buffer's size.
        size: usize,
    },
}

/// The `size`-byte register image of `cb` from the current values (`data`) of `parameters`
/// (the effect's top-level list): what MonoGame uploads with `glUniform4fv(name, size/16, …)`.
/// MonoGame clamps the single-copy cases (vectors, 4×4 matrices) at the end of the buffer,
/// because fxc may drop trailing registers of a matrix; other overruns are errors.
pub fn cbuffer_image(cb: &ConstantBuffer, parameters: &[Parameter]) -> Result<Vec<u8>, PackError> {
    let mut image = vec![0u8; cb.size as usize];
    for entry in &cb.entries {
        let param = usize::try_from(entry.parameter)
            .ok()
            .and_then(|i| parameters.get(i))
            .ok_or_else(|| PackError::NoParameter {
                cbuffer: cb.name.clone(),
                parameter: entry.parameter,
                count: parameters.len(),
            })?;
        pack(
            &mut image,
            &cb.name,
            entry.offset as usize,
            param,
            &param.name,
        )?;
    }
    Ok(image)
}

/// [`cbuffer_image`] as `float4` registers: what the wgpu side uploads for the record, from the
/// same bytes GL uploads, so both targets read one packing.
pub fn cbuffer_registers(
    cb: &ConstantBuffer,
    parameters: &[Parameter],
) -> Result<Vec<[f32; 4]>, PackError> {
    Ok(cbuffer_image(cb, parameters)?
        .chunks_exact(16)
        .map(|r| {
            std::array::from_fn(|i| {
                f32::from_le_bytes([r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]])
            })
        })
        .collect())
}

/// Writes one parameter at `offset`; returns the registers it advanced over.
fn pack(
    image: &mut [u8],
    cbuffer: &str,
    mut offset: usize,
    param: &Parameter,
    top: &str,
) -> Result<usize, PackError> {
    if !param.elements.is_empty() {
        let mut used = 0;
        for element in &param.elements {
            let n = pack(image, cbuffer, offset, element, top)?;
            offset += n * REGISTER as usize;
            used += n;
        }
        return Ok(used);
    }
    let Some(data) = &param.data else {
        return Ok(0);
    };
    if !matches!(
        param.ty,
        ParameterType::Single | ParameterType::Int32 | ParameterType::Bool
    ) {
        return Ok(0);
    }
    let (registers, lanes) = param.upload_shape();
    let (registers, lanes) = (registers as usize, lanes as usize);
    let size = image.len();
    let overrun = |at: usize| PackError::Overrun {
        cbuffer: cbuffer.to_string(),
        parameter: top.to_string(),
        offset: at,
        size,
    };
    let need = registers * lanes;
    if data.len() < need {
        return Err(PackError::Shape {
            name: top.to_string(),
            values: data.len(),
            rows: param.rows,
            columns: param.columns,
        });
    }
    let bytes: Vec<u8> = data[..need].iter().flat_map(|v| v.to_le_bytes()).collect();
    if registers == 1 || (registers == 4 && lanes == 4) {
        // One contiguous copy, clamped at the end of the buffer like MonoGame.
        if offset > size {
            return Err(overrun(offset));
        }
        let len = bytes.len().min(size - offset);
        image[offset..offset + len].copy_from_slice(&bytes[..len]);
    } else {
        let stride = lanes * 4;
        for k in 0..registers {
            let at = offset + REGISTER as usize * k;
            let dst = image.get_mut(at..at + stride).ok_or_else(|| overrun(at))?;
            dst.copy_from_slice(&bytes[stride * k..stride * (k + 1)]);
        }
    }
    Ok(registers)
}

impl Parameter {
    /// Whether the runtime uploads this parameter's value (§6.2 data presence, §7.2): a value
    /// type (Bool/Int32/Single) or an array of them. Structs and textures are never uploaded.
    pub fn is_uploaded(&self) -> bool {
        if !self.elements.is_empty() {
            return self.elements.iter().all(Parameter::is_uploaded);
        }
        self.members.is_empty() && self.ty.has_data()
    }

    /// (registers, floats per register) of one value as the runtime's `SetData` copies it:
    /// `(columns, rows)` for a matrix (one register per HLSL column), `(rows, columns)`
    /// otherwise.
    pub fn upload_shape(&self) -> (u32, u32) {
        let (r, c) = (u32::from(self.rows), u32::from(self.columns));
        if self.class == ParameterClass::Matrix {
            (c, r)
        } else {
            (r, c)
        }
    }

    /// 16-byte registers the upload advances over: `columns` for a matrix, `rows` otherwise,
    /// summed over array elements; 0 for anything not uploaded.
    pub fn registers(&self) -> u32 {
        if !self.elements.is_empty() {
            return self.elements.iter().map(Parameter::registers).sum();
        }
        if !self.is_uploaded() {
            return 0;
        }
        self.upload_shape().0
    }

    /// Bytes the upload writes from the entry's offset: every register but the last is a full
    /// 16 bytes apart, the last receives only its `columns` floats.
    pub fn upload_bytes(&self) -> u32 {
        if let Some((last, init)) = self.elements.split_last() {
            let before: u32 = init.iter().map(Parameter::registers).sum();
            let tail = last.upload_bytes();
            return if tail == 0 {
                before * REGISTER
            } else {
                before * REGISTER + tail
            };
        }
        if !self.is_uploaded() {
            return 0;
        }
        match self.upload_shape() {
            (0, _) | (_, 0) => 0,
            (r, c) => (r - 1) * REGISTER + 4 * c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{cbuffer_image, matrix_slot, PackError};
    use crate::{CbufferEntry, ConstantBuffer, Parameter, ParameterClass, ParameterType};

    fn with_data(mut p: Parameter, data: &[f32]) -> Parameter {
        p.data = Some(data.iter().map(|f| f.to_bits()).collect());
        p
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

    fn valued(class: ParameterClass, name: &str, rows: u8, columns: u8, data: &[f32]) -> Parameter {
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

    #[test]
    fn matrix_4x4_is_one_copy_of_the_column_data() {
        let data: Vec<f32> = (0..16).map(|i| i as f32).collect();
        let p = vec![valued(ParameterClass::Matrix, "M", 4, 4, &data)];
        let out = floats(&cbuffer_image(&cb(64, &[(0, 0)]), &p).unwrap());
        assert_eq!(out, data);
    }

    #[test]
    fn matrix_4x3_uses_three_registers_of_four_floats() {
        // rows 4, columns 3: register k = data[k*4 .. k*4+4].
        let data: Vec<f32> = (1..=12).map(|i| i as f32).collect();
        let p = vec![valued(ParameterClass::Matrix, "World", 4, 3, &data)];
        let out = floats(&cbuffer_image(&cb(64, &[(0, 16)]), &p).unwrap());
        let mut expect = vec![0.0; 4];
        expect.extend_from_slice(&data);
        assert_eq!(out, expect);
    }

    #[test]
    fn matrix_3x4_pads_each_register() {
        // rows 3, columns 4: four registers of three floats each, .w left zero.
        let data: Vec<f32> = (1..=12).map(|i| i as f32).collect();
        let p = vec![valued(ParameterClass::Matrix, "M", 3, 4, &data)];
        let out = floats(&cbuffer_image(&cb(64, &[(0, 0)]), &p).unwrap());
        let expect = vec![
            1.0, 2.0, 3.0, 0.0, 4.0, 5.0, 6.0, 0.0, 7.0, 8.0, 9.0, 0.0, 10.0, 11.0, 12.0, 0.0,
        ];
        assert_eq!(out, expect);
    }

    #[test]
    fn scalars_and_vectors_use_one_register_each() {
        let p = vec![
            valued(ParameterClass::Scalar, "A", 1, 1, &[7.0]),
            valued(ParameterClass::Vector, "B", 1, 3, &[1.0, 2.0, 3.0]),
        ];
        let out = floats(&cbuffer_image(&cb(32, &[(0, 16), (1, 0)]), &p).unwrap());
        assert_eq!(out, vec![1.0, 2.0, 3.0, 0.0, 7.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn arrays_of_vectors_have_a_register_stride() {
        let p = vec![array(
            valued(ParameterClass::Scalar, "Arr", 1, 1, &[1.0]),
            3,
        )];
        let out = floats(&cbuffer_image(&cb(48, &[(0, 0)]), &p).unwrap());
        assert_eq!(
            out,
            vec![1.0, 0.0, 0.0, 0.0, 101.0, 0.0, 0.0, 0.0, 201.0, 0.0, 0.0, 0.0]
        );
    }

    #[test]
    fn arrays_of_4x3_matrices_stride_three_registers() {
        let data: Vec<f32> = (0..12).map(|i| i as f32).collect();
        let p = vec![array(
            valued(ParameterClass::Matrix, "Bones", 4, 3, &data),
            2,
        )];
        let out = floats(&cbuffer_image(&cb(96, &[(0, 0)]), &p).unwrap());
        assert_eq!(&out[..12], &data[..]);
        let second: Vec<f32> = data.iter().map(|v| v + 100.0).collect();
        assert_eq!(&out[12..], &second[..]);
    }

    #[test]
    fn a_4x4_past_the_end_is_clamped_like_monogame() {
        let data: Vec<f32> = (0..16).map(|i| i as f32).collect();
        let p = vec![valued(ParameterClass::Matrix, "M", 4, 4, &data)];
        let out = floats(&cbuffer_image(&cb(48, &[(0, 0)]), &p).unwrap());
        assert_eq!(out, data[..12].to_vec());
    }

    #[test]
    fn a_float4x3_is_three_registers_of_columns() {
        // MonoGame's data for a 4x3 is column-major: data[k*4 + r] = M(r, k).
        let data: Vec<f32> = (0..12).map(|i| i as f32).collect();
        let m = with_data(value(ParameterClass::Matrix, 4, 3), &data);
        let image = floats(&cbuffer_image(&cb(48, &[(0, 0)]), &[m]).unwrap());
        for k in 0..3 {
            for r in 0..4 {
                let (register, lane) = matrix_slot(r, k);
                assert_eq!(image[register * 4 + lane], data[k * 4 + r]);
            }
        }
    }

    #[test]
    fn array_elements_follow_each_other_and_vectors_clamp() {
        let mut arr = value(ParameterClass::Vector, 1, 2);
        arr.data = None;
        arr.elements = vec![
            with_data(value(ParameterClass::Vector, 1, 2), &[1.0, 2.0]),
            with_data(value(ParameterClass::Vector, 1, 2), &[3.0, 4.0]),
        ];
        let image = floats(&cbuffer_image(&cb(32, &[(0, 0)]), &[arr]).unwrap());
        assert_eq!(image, [1.0, 2.0, 0.0, 0.0, 3.0, 4.0, 0.0, 0.0]);
        // A float4 whose register lies half outside is cut at the end, as MonoGame does.
        let v = with_data(value(ParameterClass::Vector, 1, 4), &[5.0, 6.0, 7.0, 8.0]);
        let image = floats(&cbuffer_image(&cb(24, &[(0, 16)]), &[v]).unwrap());
        assert_eq!(&image[4..], [5.0, 6.0]);
    }

    #[test]
    fn overruns_and_dangling_entries_are_errors() {
        let m = with_data(value(ParameterClass::Matrix, 4, 3), &[0.0; 12]);
        assert!(matches!(
            cbuffer_image(&cb(32, &[(0, 0)]), std::slice::from_ref(&m)),
            Err(PackError::Overrun { offset: 32, .. })
        ));
        assert!(matches!(
            cbuffer_image(&cb(48, &[(3, 0)]), &[m]),
            Err(PackError::NoParameter { parameter: 3, .. })
        ));
    }

    fn value(class: ParameterClass, rows: u8, columns: u8) -> Parameter {
        Parameter::value("", class, ParameterType::Single, rows, columns)
    }

    #[test]
    fn scalar_vector_matrix() {
        assert_eq!(value(ParameterClass::Scalar, 1, 1).upload_bytes(), 4);
        assert_eq!(value(ParameterClass::Vector, 1, 3).upload_bytes(), 12);
        let m44 = value(ParameterClass::Matrix, 4, 4);
        assert_eq!((m44.registers(), m44.upload_bytes()), (4, 64));
        // float4x3: three HLSL columns of four floats.
        let m43 = value(ParameterClass::Matrix, 4, 3);
        assert_eq!((m43.registers(), m43.upload_bytes()), (3, 48));
        let m34 = value(ParameterClass::Matrix, 3, 4);
        assert_eq!((m34.registers(), m34.upload_bytes()), (4, 60));
    }

    #[test]
    fn arrays_stride_by_registers() {
        let mut arr = value(ParameterClass::Vector, 1, 2);
        arr.data = None;
        arr.elements = vec![value(ParameterClass::Vector, 1, 2); 3];
        assert_eq!((arr.registers(), arr.upload_bytes()), (3, 40));
        let mut bones = value(ParameterClass::Matrix, 4, 3);
        bones.data = None;
        bones.elements = vec![value(ParameterClass::Matrix, 4, 3); 72];
        assert_eq!((bones.registers(), bones.upload_bytes()), (216, 216 * 16));
    }

    #[test]
    fn textures_and_structs_are_not_uploaded() {
        let mut tex = value(ParameterClass::Object, 0, 0);
        tex.ty = ParameterType::Texture2D;
        tex.data = None;
        assert!(!tex.is_uploaded());
        assert_eq!(tex.upload_bytes(), 0);
        let mut st = value(ParameterClass::Struct, 0, 0);
        st.ty = ParameterType::Void;
        st.members = vec![value(ParameterClass::Scalar, 1, 1)];
        assert!(!st.is_uploaded());
        assert_eq!(st.registers(), 0);
    }
}
