//! The built-in vertex shader of pixel-only passes on wgpu: SpriteBatch's `SpriteEffect` vertex
//! shader in WGSL, numbered as the compiler numbers a shader's interface: inputs POSITION0,
//! TEXCOORD0, COLOR0 at 0, 1, 2 (D3D9's usage order), outputs COLOR0 and TEXCOORD0 at 0 and 1
//! (COLOR first, TEXCOORD second), as the GL runtime links such passes against `gl::sprite_vs`. Its uniform is `MatrixTransform`'s four registers, column k
//! of the matrix in register k (`gl::sprite_vs::cbuffer_floats`).

use crate::mgfx::VertexElementUsage;
use crate::wgsl::{Binding, BindingKind, Stage, Varying, VertexFormat, VertexInput, WgslShader};

const WGSL: &str = "struct Registers { r: array<vec4<f32>, 4> }
@group(0) @binding(0) var<uniform> transform: Registers;

struct Out {
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) uv: vec4<f32>,
}

@vertex
fn main(@location(0) position: vec4<f32>, @location(1) uv: vec4<f32>, @location(2) color: vec4<f32>) -> Out {
    var o: Out;
    let r = transform.r;
    o.position = vec4<f32>(dot(position, r[0]), dot(position, r[1]), dot(position, r[2]), dot(position, r[3]));
    o.color = color;
    o.uv = vec4<f32>(uv.xy, 0.0, 0.0);
    return o;
}
";

/// The shader, described like a generated one (its uniform names no `Params` record: the
/// runtime fills it from the sprite transform).
pub(crate) static SHADER: WgslShader = WgslShader {
    stage: Stage::Vertex,
    wgsl: WGSL,
    entry: "main",
    bindings: &[Binding {
        binding: 0,
        name: "MatrixTransform",
        kind: BindingKind::Uniform {
            record: usize::MAX,
            size: 64,
        },
    }],
    vertex_inputs: &[
        VertexInput {
            usage: VertexElementUsage::Position,
            index: 0,
            location: 0,
            format: VertexFormat::Float32x4,
        },
        VertexInput {
            usage: VertexElementUsage::TextureCoordinate,
            index: 0,
            location: 1,
            format: VertexFormat::Float32x4,
        },
        VertexInput {
            usage: VertexElementUsage::Color,
            index: 0,
            location: 2,
            format: VertexFormat::Float32x4,
        },
    ],
    varyings: &[
        Varying {
            semantic: "COLOR0",
            location: 0,
            flat: false,
            location_at: None,
        },
        Varying {
            semantic: "TEXCOORD0",
            location: 1,
            flat: false,
            location_at: None,
        },
    ],
};
