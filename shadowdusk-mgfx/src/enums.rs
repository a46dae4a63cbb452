//! Byte ↔ enum conversions for the model's enumerations (mgfx-format.md §9).
//!
//! Writing uses `as u8` on the `#[repr(u8)]` enums; reading goes through these `TryFrom<u8>`
//! impls, whose error is the unknown byte so the reader can report it with its offset.

use super::{
    Blend, BlendFunction, CompareFunction, CullMode, FillMode, ParameterClass, ParameterType,
    SamplerType, StencilOperation, TextureAddressMode, TextureFilter, VertexElementUsage,
};

macro_rules! byte_enum {
    ($ty:ident { $($variant:ident),+ $(,)? }) => {
        impl TryFrom<u8> for $ty {
            type Error = u8;
            fn try_from(b: u8) -> Result<Self, u8> {
                $(if b == $ty::$variant as u8 {
                    return Ok($ty::$variant);
                })+
                Err(b)
            }
        }
    };
}

byte_enum!(TextureAddressMode {
    Wrap,
    Clamp,
    Mirror,
    Border
});
byte_enum!(TextureFilter {
    Linear,
    Point,
    Anisotropic,
    LinearMipPoint,
    PointMipLinear,
    MinLinearMagPointMipLinear,
    MinLinearMagPointMipPoint,
    MinPointMagLinearMipLinear,
    MinPointMagLinearMipPoint,
});
byte_enum!(VertexElementUsage {
    Position,
    Color,
    TextureCoordinate,
    Normal,
    Binormal,
    Tangent,
    BlendIndices,
    BlendWeight,
    Depth,
    Fog,
    PointSize,
    Sample,
    TessellateFactor,
});
byte_enum!(ParameterClass {
    Scalar,
    Vector,
    Matrix,
    Object,
    Struct
});
byte_enum!(ParameterType {
    Void,
    Bool,
    Int32,
    Single,
    String,
    Texture,
    Texture1D,
    Texture2D,
    Texture3D,
    TextureCube,
});
byte_enum!(Blend {
    One,
    Zero,
    SourceColor,
    InverseSourceColor,
    SourceAlpha,
    InverseSourceAlpha,
    DestinationColor,
    InverseDestinationColor,
    DestinationAlpha,
    InverseDestinationAlpha,
    BlendFactor,
    InverseBlendFactor,
    SourceAlphaSaturation,
});
byte_enum!(BlendFunction {
    Add,
    Subtract,
    ReverseSubtract,
    Min,
    Max
});
byte_enum!(CompareFunction {
    Always,
    Never,
    Less,
    LessEqual,
    Equal,
    GreaterEqual,
    Greater,
    NotEqual,
});
byte_enum!(StencilOperation {
    Keep,
    Zero,
    Replace,
    Increment,
    Decrement,
    IncrementSaturation,
    DecrementSaturation,
    Invert,
});
byte_enum!(CullMode {
    None,
    CullClockwiseFace,
    CullCounterClockwiseFace
});
byte_enum!(FillMode { Solid, WireFrame });

impl TryFrom<u8> for SamplerType {
    type Error = u8;
    fn try_from(b: u8) -> Result<Self, u8> {
        SamplerType::from_byte(b).ok_or(b)
    }
}

impl ParameterType {
    /// Whether a parameter of this type carries a data block (mgfx-format.md §6.2), given it has
    /// no elements and no members.
    pub fn has_data(self) -> bool {
        matches!(
            self,
            ParameterType::Bool | ParameterType::Int32 | ParameterType::Single
        )
    }
    /// Whether this is one of the texture types a sampler's parameter must have.
    pub fn is_texture(self) -> bool {
        matches!(
            self,
            ParameterType::Texture
                | ParameterType::Texture1D
                | ParameterType::Texture2D
                | ParameterType::Texture3D
                | ParameterType::TextureCube
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips_or_is_refused() {
        for b in 0..=255u8 {
            if let Ok(v) = TextureFilter::try_from(b) {
                assert_eq!(v as u8, b);
            } else {
                assert!(b > 8);
            }
            if let Ok(v) = VertexElementUsage::try_from(b) {
                assert_eq!(v as u8, b);
            } else {
                assert!(b > 12);
            }
            if let Ok(v) = Blend::try_from(b) {
                assert_eq!(v as u8, b);
            } else {
                assert!(b > 12);
            }
            assert_eq!(ParameterType::try_from(b).is_ok(), b <= 9);
            assert_eq!(CullMode::try_from(b).is_ok(), b <= 2);
            assert_eq!(SamplerType::try_from(b).is_ok(), b <= 3);
        }
        assert_eq!(ParameterClass::try_from(4), Ok(ParameterClass::Struct));
        assert_eq!(
            StencilOperation::try_from(5),
            Ok(StencilOperation::IncrementSaturation)
        );
        assert_eq!(CompareFunction::try_from(8), Err(8));
    }
}
