//! The built-in vertex shader for pixel-only passes: SpriteBatch's `SpriteEffect` vertex
//! shader written in the MojoShader dialect (glsl-dialect.md §2, §5.4, §7), with its records.
//!
//! MonoGame links a pixel-only pass against the vertex shader already on the device, which under
//! SpriteBatch is SpriteEffect's. It reads `MatrixTransform` (float4x4, registers 0–3 of
//! `vs_uniforms_vec4`), attributes `vs_v0` Position, `vs_v1` Color, `vs_v2` TextureCoordinate,
//! and writes `vFrontColor` and `vTexCoord0`, the varyings every SpriteBatch pixel shader reads.

use crate::mgfx::{Attribute, VertexElementUsage};

/// GLSL text of the built-in vertex shader (no `#version`, like every dialect payload).
pub const SOURCE: &str = "#ifdef GL_ES
precision highp float;
precision mediump int;
#endif

uniform vec4 vs_uniforms_vec4[4];
uniform vec4 posFixup;
attribute vec4 vs_v0;
attribute vec4 vs_v1;
attribute vec4 vs_v2;
varying vec4 vFrontColor;
varying vec4 vTexCoord0;

void main()
{
\tgl_Position.x = dot(vs_v0, vs_uniforms_vec4[0]);
\tgl_Position.y = dot(vs_v0, vs_uniforms_vec4[1]);
\tgl_Position.z = dot(vs_v0, vs_uniforms_vec4[2]);
\tgl_Position.w = dot(vs_v0, vs_uniforms_vec4[3]);
\tvFrontColor = vs_v1;
\tvTexCoord0.xy = vs_v2.xy;
\tgl_Position.y = gl_Position.y * posFixup.y;
\tgl_Position.xy += posFixup.zw * gl_Position.ww;
\tgl_Position.z = gl_Position.z * 2.0 - gl_Position.w;
}
";

/// Name of its register array.
pub const CBUFFER: &str = "vs_uniforms_vec4";

/// Its attribute records (locations filled in at link).
pub fn attributes() -> Vec<Attribute> {
    let a = |name: &str, usage| Attribute {
        name: name.into(),
        usage,
        index: 0,
        location: 0,
    };
    vec![
        a("vs_v0", VertexElementUsage::Position),
        a("vs_v1", VertexElementUsage::Color),
        a("vs_v2", VertexElementUsage::TextureCoordinate),
    ]
}

/// SpriteBatch's default transform for a `width`×`height` viewport:
/// `Matrix.CreateOrthographicOffCenter(0, w, h, 0, 0, -1)`, plus SpriteEffect's half-pixel
/// shift (`M41 -= 0.5*M11`, `M42 -= 0.5*M22`) when the device uses the half-pixel offset.
/// Returned as `m[r][c]` = XNA `M(r+1, c+1)`.
pub fn default_transform(width: u32, height: u32, half_pixel_offset: bool) -> [[f32; 4]; 4] {
    crate::sprite::default_transform(width, height, half_pixel_offset)
}

/// The 64 bytes of the register array for transform `m` (register k = column k of M).
pub fn cbuffer_floats(m: [[f32; 4]; 4]) -> [f32; 16] {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = m[r][c];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mul(v: [f32; 4], regs: &[f32; 16]) -> [f32; 4] {
        let mut o = [0.0; 4];
        for (j, out) in o.iter_mut().enumerate() {
            *out = (0..4).map(|i| v[i] * regs[j * 4 + i]).sum();
        }
        o
    }

    #[test]
    fn pixel_corners_map_to_clip_corners_top_left_first() {
        let regs = cbuffer_floats(default_transform(8, 4, false));
        assert_eq!(mul([0.0, 0.0, 0.0, 1.0], &regs), [-1.0, 1.0, 0.0, 1.0]);
        assert_eq!(mul([8.0, 4.0, 0.0, 1.0], &regs), [1.0, -1.0, 0.0, 1.0]);
    }

    #[test]
    fn half_pixel_offset_shifts_by_half_a_pixel() {
        let regs = cbuffer_floats(default_transform(8, 4, true));
        let p = mul([0.5, 0.5, 0.0, 1.0], &regs);
        assert_eq!(p, [-1.0, 1.0, 0.0, 1.0]);
    }
}
