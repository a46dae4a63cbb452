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
    /// How many whole vertices (or instances) a buffer of `size` bytes holds, as wgpu counts
    /// them: the last one needs only its elements, not a full stride.
    pub(crate) fn capacity(&self, size: u64) -> u64 {
        let last = self
            .elements
            .iter()
            .map(|e| u64::from(e.offset) + u64::from(e.format.size()))
            .max()
            .unwrap_or(0);
        match (size.checked_sub(last), u64::from(self.stride)) {
            (None, _) => 0,
            (Some(_), 0) => u64::MAX,
            (Some(rest), stride) => rest / stride + 1,
        }
    }

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
}

/// The most vertex buffers one draw binds (wgpu's default `max_vertex_buffers`).
pub const MAX_VERTEX_BUFFERS: usize = 8;

/// One vertex buffer of a draw, MonoGame's `VertexBufferBinding`: the buffer (from its first
/// vertex: a slice at MonoGame's `VertexOffset` × stride), its layout, and how often it steps.
#[derive(Clone, Copy, Debug)]
pub struct VertexBufferBinding<'a> {
    /// The vertices.
    pub buffer: wgpu::BufferSlice<'a>,
    /// Their layout (`VertexDeclaration`).
    pub layout: VertexLayout,
    /// `InstanceFrequency`: 0 steps once per vertex, 1 once per instance (hardware
    /// instancing). wgpu has no other rate, so any other value is a
    /// [`WgpuError::InstanceFrequency`](super::WgpuError::InstanceFrequency).
    pub instance_frequency: u32,
}

impl<'a> VertexBufferBinding<'a> {
    /// Per-vertex data (`new VertexBufferBinding(buffer)`).
    pub fn new(buffer: wgpu::BufferSlice<'a>, layout: VertexLayout) -> VertexBufferBinding<'a> {
        VertexBufferBinding {
            buffer,
            layout,
            instance_frequency: 0,
        }
    }

    /// Per-instance data (`new VertexBufferBinding(buffer, 0, 1)`).
    pub fn per_instance(
        buffer: wgpu::BufferSlice<'a>,
        layout: VertexLayout,
    ) -> VertexBufferBinding<'a> {
        VertexBufferBinding {
            buffer,
            layout,
            instance_frequency: 1,
        }
    }
}

/// The layout and step rate of one vertex buffer a prepared draw reads (a
/// [`VertexBufferBinding`] without the buffer): what `WgpuEffect::prepare` builds the pipeline
/// for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferLayout {
    /// The layout (`VertexDeclaration`).
    pub layout: VertexLayout,
    /// `InstanceFrequency`: 0 per vertex, 1 per instance.
    pub instance_frequency: u32,
}

impl BufferLayout {
    /// Per-vertex data.
    pub const fn per_vertex(layout: VertexLayout) -> BufferLayout {
        BufferLayout {
            layout,
            instance_frequency: 0,
        }
    }

    /// Per-instance data.
    pub const fn per_instance(layout: VertexLayout) -> BufferLayout {
        BufferLayout {
            layout,
            instance_frequency: 1,
        }
    }
}

impl From<&VertexBufferBinding<'_>> for BufferLayout {
    fn from(b: &VertexBufferBinding<'_>) -> BufferLayout {
        BufferLayout {
            layout: b.layout,
            instance_frequency: b.instance_frequency,
        }
    }
}

/// The layouts and step modes of a draw's vertex buffers, by slot: part of a pipeline's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct VertexBuffers {
    pub(crate) slots: [Option<(VertexLayout, wgpu::VertexStepMode)>; MAX_VERTEX_BUFFERS],
}

impl VertexBuffers {
    /// The buffers `layouts` describe, for pass `pass` of `effect` (named in errors): `Err` for
    /// more than [`MAX_VERTEX_BUFFERS`] or an instance frequency wgpu has no step rate for.
    pub(crate) fn of(
        (effect, pass): (&'static str, &'static str),
        layouts: impl ExactSizeIterator<Item = BufferLayout>,
    ) -> Result<VertexBuffers, super::WgpuError> {
        if layouts.len() > MAX_VERTEX_BUFFERS {
            return Err(super::WgpuError::TooMany {
                effect,
                pass,
                what: "vertex buffers",
                count: layouts.len(),
                max: MAX_VERTEX_BUFFERS,
            });
        }
        let mut slots = [None; MAX_VERTEX_BUFFERS];
        for (buffer, (slot, b)) in slots.iter_mut().zip(layouts).enumerate() {
            let step = match b.instance_frequency {
                0 => wgpu::VertexStepMode::Vertex,
                1 => wgpu::VertexStepMode::Instance,
                frequency => {
                    return Err(super::WgpuError::InstanceFrequency {
                        effect,
                        pass,
                        buffer,
                        frequency,
                    })
                }
            };
            *slot = Some((b.layout, step));
        }
        Ok(VertexBuffers { slots })
    }

    /// One per-vertex buffer of `layout`.
    pub(crate) fn one(layout: VertexLayout) -> VertexBuffers {
        let mut slots = [None; MAX_VERTEX_BUFFERS];
        slots[0] = Some((layout, wgpu::VertexStepMode::Vertex));
        VertexBuffers { slots }
    }

    /// The buffers' wgpu attributes feeding `inputs` (the vertex shader's), into `out` (one
    /// list per buffer): each input from the first element of its usage and index in any
    /// buffer, as MonoGame matches a vertex declaration's elements across bindings. Elements
    /// the shader does not read are not fed. `Err` names the first input no element provides.
    pub(crate) fn attributes(
        &self,
        inputs: &[VertexInput],
        out: &mut [Vec<wgpu::VertexAttribute>; MAX_VERTEX_BUFFERS],
    ) -> Result<(), (VertexElementUsage, u32)> {
        out.iter_mut().for_each(Vec::clear);
        for input in inputs {
            let (slot, element) = self
                .slots
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.as_ref().map(|(layout, _)| (i, layout)))
                .find_map(|(i, layout)| {
                    layout
                        .elements
                        .iter()
                        .find(|e| e.usage == input.usage && e.index == input.index)
                        .map(|e| (i, e))
                })
                .ok_or((input.usage, input.index))?;
            out[slot].push(attribute(element, input).ok_or((input.usage, input.index))?);
        }
        Ok(())
    }
}

/// The wgpu attribute reading `element` into `input`; `None` when wgpu cannot convert it.
fn attribute(element: &VertexElement, input: &VertexInput) -> Option<wgpu::VertexAttribute> {
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
        // The shader reads floats: wgpu cannot convert integers to floats, so the element is
        // refused like a missing one (a float format stores it).
        return None;
    }
    Some(wgpu::VertexAttribute {
        format: element.format.wgpu(shader_int, shader_signed),
        offset: u64::from(element.offset),
        shader_location: input.location,
    })
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
        let mut out = Default::default();
        VertexBuffers::one(layout)
            .attributes(&[input], &mut out)
            .ok()?;
        assert_eq!(out[0][0].shader_location, 3);
        Some(out[0][0].format)
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
    fn inputs_come_from_the_first_buffer_with_their_usage_and_index() {
        use wgpu::VertexStepMode::{Instance, Vertex};
        const CORNERS: VertexLayout = VertexLayout {
            stride: 16,
            elements: &[
                VertexElement::new(
                    0,
                    VertexElementFormat::Vector2,
                    VertexElementUsage::Position,
                    0,
                ),
                VertexElement::new(
                    8,
                    VertexElementFormat::Vector2,
                    VertexElementUsage::TextureCoordinate,
                    0,
                ),
            ],
        };
        const INSTANCES: VertexLayout = VertexLayout {
            stride: 20,
            elements: &[
                // Also TEXCOORD0: the first buffer's wins, as MonoGame matches them.
                VertexElement::new(
                    0,
                    VertexElementFormat::Vector2,
                    VertexElementUsage::TextureCoordinate,
                    0,
                ),
                VertexElement::new(
                    4,
                    VertexElementFormat::Vector4,
                    VertexElementUsage::TextureCoordinate,
                    1,
                ),
            ],
        };
        let mut buffers = VertexBuffers::one(CORNERS);
        buffers.slots[1] = Some((INSTANCES, Instance));
        assert_eq!(buffers.slots[0], Some((CORNERS, Vertex)));
        let input = |usage, index, location, format| VertexInput {
            usage,
            index,
            location,
            format,
        };
        let inputs = [
            input(VertexElementUsage::Position, 0, 0, Shader::Float32x2),
            input(
                VertexElementUsage::TextureCoordinate,
                0,
                1,
                Shader::Float32x2,
            ),
            input(
                VertexElementUsage::TextureCoordinate,
                1,
                2,
                Shader::Float32x4,
            ),
        ];
        let mut out = Default::default();
        buffers.attributes(&inputs, &mut out).unwrap();
        let locations = |i: usize| -> Vec<(u32, u64)> {
            out[i]
                .iter()
                .map(|a| (a.shader_location, a.offset))
                .collect()
        };
        assert_eq!(locations(0), [(0, 0), (1, 8)]);
        assert_eq!(locations(1), [(2, 4)]);
        assert!(out[2..].iter().all(Vec::is_empty));
        let missing = input(
            VertexElementUsage::TextureCoordinate,
            2,
            3,
            Shader::Float32x4,
        );
        assert_eq!(
            buffers.attributes(&[missing], &mut out),
            Err((VertexElementUsage::TextureCoordinate, 2))
        );
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
        let buffers = VertexBuffers::one(layout);
        let mut all = Default::default();
        buffers.attributes(&inputs, &mut all).unwrap();
        let out: &[wgpu::VertexAttribute] = &all[0];
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
            buffers.attributes(&[other], &mut all),
            Err((U::TessellateFactor, 5))
        );
    }
}
