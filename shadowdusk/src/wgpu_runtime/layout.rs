//! Vertex layouts in MonoGame's terms (`VertexDeclaration`: elements by usage and usage index),
//! turned into wgpu vertex attributes: each input of the vertex shader from the element of its
//! usage and index, at the location that shader gave it (every `VertexElementUsage` can be one).

use crate::mgfx::VertexElementUsage;
use crate::wgsl::VertexInput;

/// MonoGame's `VertexElementFormat`: how an element is stored in the vertex buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexElementFormat {
    /// `float`.
    Single,
    /// `float2`.
    Vector2,
    /// `float3`.
    Vector3,
    /// `float4`.
    Vector4,
    /// Four normalized bytes (`Color`: R, G, B, A).
    Color,
    /// Four unsigned bytes, not normalized (blend indices).
    Byte4,
    /// Two signed 16-bit integers, not normalized.
    Short2,
    /// Four signed 16-bit integers, not normalized.
    Short4,
    /// Two signed 16-bit integers, normalized.
    NormalizedShort2,
    /// Four signed 16-bit integers, normalized.
    NormalizedShort4,
    /// Two half floats.
    HalfVector2,
    /// Four half floats.
    HalfVector4,
}

impl VertexElementFormat {
    /// Its size in bytes.
    pub const fn size(self) -> u32 {
        match self {
            VertexElementFormat::Single
            | VertexElementFormat::Color
            | VertexElementFormat::Byte4
            | VertexElementFormat::Short2
            | VertexElementFormat::NormalizedShort2
            | VertexElementFormat::HalfVector2 => 4,
            VertexElementFormat::Vector2
            | VertexElementFormat::Short4
            | VertexElementFormat::NormalizedShort4
            | VertexElementFormat::HalfVector4 => 8,
            VertexElementFormat::Vector3 => 12,
            VertexElementFormat::Vector4 => 16,
        }
    }

    /// The wgpu format the buffer is read as (`shader_int`: the shader reads integers,
    /// `shader_signed`: signed ones). wgpu wants the signedness of the shader's input, which
    /// D3D11 does not check: MonoGame's HLSL reads `int4 BLENDINDICES` (WGSL `vec4<i32>`) from
    /// a `Byte4` (`R8G8B8A8_UINT`) element, so a signed input reads `Byte4` as `Sint8x4`, exact
    /// for indices below 128 (a `float4x3` palette of a shader-model-3 effect holds at most 85
    /// bones); `Short2`/`Short4` become unsigned for an unsigned input the same way.
    fn wgpu(self, shader_int: bool, shader_signed: bool) -> wgpu::VertexFormat {
        use wgpu::VertexFormat as F;
        match (self, shader_int) {
            (VertexElementFormat::Byte4, true) if shader_signed => F::Sint8x4,
            (VertexElementFormat::Short2, true) if !shader_signed => F::Uint16x2,
            (VertexElementFormat::Short4, true) if !shader_signed => F::Uint16x4,
            (VertexElementFormat::Single, _) => F::Float32,
            (VertexElementFormat::Vector2, _) => F::Float32x2,
            (VertexElementFormat::Vector3, _) => F::Float32x3,
            (VertexElementFormat::Vector4, _) => F::Float32x4,
            (VertexElementFormat::Color, _) => F::Unorm8x4,
            (VertexElementFormat::Byte4, false) => F::Uint8x4,
            (VertexElementFormat::Byte4, true) => F::Uint8x4,
            (VertexElementFormat::Short2, _) => F::Sint16x2,
            (VertexElementFormat::Short4, _) => F::Sint16x4,
            (VertexElementFormat::NormalizedShort2, _) => F::Snorm16x2,
            (VertexElementFormat::NormalizedShort4, _) => F::Snorm16x4,
            (VertexElementFormat::HalfVector2, _) => F::Float16x2,
            (VertexElementFormat::HalfVector4, _) => F::Float16x4,
        }
    }

    /// Whether wgpu reads it as integers (which a float shader input cannot take).
    fn is_integer(self) -> bool {
        matches!(
            self,
            VertexElementFormat::Byte4 | VertexElementFormat::Short2 | VertexElementFormat::Short4
        )
    }
}

/// One element of a vertex: where it is, how it is stored, what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexElement {
    /// Byte offset in the vertex.
    pub offset: u32,
    /// Storage format.
    pub format: VertexElementFormat,
    /// MonoGame's usage.
    pub usage: VertexElementUsage,
    /// Usage index (`TEXCOORD1` → 1).
    pub index: u32,
}

impl VertexElement {
    /// An element.
    pub const fn new(
        offset: u32,
        format: VertexElementFormat,
        usage: VertexElementUsage,
        index: u32,
    ) -> VertexElement {
        VertexElement {
            offset,
            format,
            usage,
            index,
        }
    }
}

/// A vertex buffer layout (MonoGame's `VertexDeclaration`), usually a `const`: pipelines are
/// cached by its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexLayout {
    /// Bytes from one vertex to the next.
    pub stride: u32,
    /// The elements.
    pub elements: &'static [VertexElement],
}

impl VertexLayout {
    /// `VertexPositionColorTexture` (SpriteBatch's vertices): Position float3, Color, texture
    /// coordinate float2, 24 bytes.
    pub const POSITION_COLOR_TEXTURE: VertexLayout = VertexLayout {
        stride: 24,
        elements: &[
            VertexElement::new(
                0,
                VertexElementFormat::Vector3,
                VertexElementUsage::Position,
                0,
            ),
            VertexElement::new(12, VertexElementFormat::Color, VertexElementUsage::Color, 0),
            VertexElement::new(
                16,
                VertexElementFormat::Vector2,
                VertexElementUsage::TextureCoordinate,
                0,
            ),
        ],
    };

    /// The wgpu attributes feeding `inputs` (the vertex shader's), into `out`: each input from
    /// the element of its usage and index. Elements the shader does not read are not fed, as
    /// MonoGame binds a declaration. `Err` names the first input no element provides.
    pub(crate) fn attributes(
        &self,
        inputs: &[VertexInput],
        out: &mut Vec<wgpu::VertexAttribute>,
    ) -> Result<(), (VertexElementUsage, u32)> {
        out.clear();
        for input in inputs {
            let element = self
                .elements
                .iter()
                .find(|e| e.usage == input.usage && e.index == input.index)
                .ok_or((input.usage, input.index))?;
            let shader_int = !matches!(
                input.format,
                crate::wgsl::VertexFormat::Float32
                    | crate::wgsl::VertexFormat::Float32x2
                    | crate::wgsl::VertexFormat::Float32x3
                    | crate::wgsl::VertexFormat::Float32x4
            );
            let shader_signed = matches!(
                input.format,
                crate::wgsl::VertexFormat::Sint32
                    | crate::wgsl::VertexFormat::Sint32x2
                    | crate::wgsl::VertexFormat::Sint32x3
                    | crate::wgsl::VertexFormat::Sint32x4
            );
            if element.format.is_integer() && !shader_int {
                // The shader reads floats: wgpu cannot convert integers to floats, so the
                // element is refused like a missing one (a float format stores it).
                return Err((input.usage, input.index));
            }
            out.push(wgpu::VertexAttribute {
                format: element.format.wgpu(shader_int, shader_signed),
                offset: u64::from(element.offset),
                shader_location: input.location,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wgsl::VertexFormat as Shader;

    fn format_for(element: VertexElementFormat, shader: Shader) -> Option<wgpu::VertexFormat> {
        let layout = VertexLayout {
            stride: 16,
            elements: Box::leak(Box::new([VertexElement::new(
                0,
                element,
                VertexElementUsage::BlendIndices,
                0,
            )])),
        };
        let input = VertexInput {
            usage: VertexElementUsage::BlendIndices,
            index: 0,
            location: 3,
            format: shader,
        };
        let mut out = Vec::new();
        layout.attributes(&[input], &mut out).ok()?;
        assert_eq!(out[0].shader_location, 3);
        Some(out[0].format)
    }

    #[test]
    fn integer_elements_take_the_signedness_of_the_shaders_input() {
        use wgpu::VertexFormat as F;
        // HLSL `int4 BLENDINDICES` from MonoGame's Byte4 element.
        let byte4 = VertexElementFormat::Byte4;
        assert_eq!(format_for(byte4, Shader::Sint32x4), Some(F::Sint8x4));
        assert_eq!(format_for(byte4, Shader::Uint32x4), Some(F::Uint8x4));
        let short4 = VertexElementFormat::Short4;
        assert_eq!(format_for(short4, Shader::Sint32x4), Some(F::Sint16x4));
        assert_eq!(format_for(short4, Shader::Uint32x4), Some(F::Uint16x4));
        // Floats stay floats; integers cannot feed a float input.
        let vector4 = VertexElementFormat::Vector4;
        assert_eq!(format_for(vector4, Shader::Float32x4), Some(F::Float32x4));
        assert_eq!(format_for(byte4, Shader::Float32x4), None);
    }

    #[test]
    fn every_usage_feeds_the_input_of_its_usage_and_index() {
        use VertexElementUsage as U;
        let usages = [
            U::Position,
            U::Color,
            U::TextureCoordinate,
            U::Normal,
            U::Binormal,
            U::Tangent,
            U::BlendIndices,
            U::BlendWeight,
            U::Depth,
            U::Fog,
            U::PointSize,
            U::Sample,
            U::TessellateFactor,
        ];
        let elements: Vec<VertexElement> = (0u32..)
            .zip(usages)
            .map(|(k, u)| VertexElement::new(4 * k, VertexElementFormat::Single, u, 1 + k % 2))
            .collect();
        let layout = VertexLayout {
            stride: 4 * usages.len() as u32,
            elements: Box::leak(elements.into_boxed_slice()),
        };
        // The shader numbers its inputs in its own order; each finds its element.
        let inputs: Vec<VertexInput> = (0u32..)
            .zip(usages.iter().rev())
            .map(|(location, &usage)| VertexInput {
                usage,
                index: 1 + (usages.len() as u32 - 1 - location) % 2,
                location,
                format: Shader::Float32,
            })
            .collect();
        let mut out = Vec::new();
        layout.attributes(&inputs, &mut out).unwrap();
        for (k, a) in out.iter().enumerate() {
            let element = usages.len() - 1 - k;
            assert_eq!(a.shader_location, k as u32);
            assert_eq!(a.offset, 4 * element as u64);
        }
        // Another index of a usage is another element.
        let other = VertexInput {
            index: 5,
            ..inputs[0]
        };
        assert_eq!(
            layout.attributes(&[other], &mut out),
            Err((U::TessellateFactor, 5))
        );
    }
}
