//! How much of a constant buffer the runtime writes for a parameter (mgfx-format.md §7.2).
//!
//! MonoGame's `ConstantBuffer.SetParameter` copies a parameter register by register without
//! bounds checks, so the writer uses these numbers to refuse entries that would overrun their
//! buffer at draw time.

use super::{Parameter, ParameterClass};

const REGISTER: u32 = 16;

impl Parameter {
    /// Whether the runtime uploads this parameter's value (§6.2 data presence, §7.2): a value
    /// type (Bool/Int32/Single) or an array of them. Structs and textures are never uploaded.
    pub fn is_uploaded(&self) -> bool {
        if !self.elements.is_empty() {
            return self.elements.iter().all(Parameter::is_uploaded);
        }
        self.members.is_empty() && self.ty.has_data()
    }

    /// Rows and columns as the runtime's `SetData` sees them: matrices are transposed (one
    /// register per HLSL column).
    fn upload_shape(&self) -> (u32, u32) {
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
    use crate::{Parameter, ParameterClass, ParameterType};

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
