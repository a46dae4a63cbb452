//! The skinned scene: a ribbon bent at its middle by two bones, animated on the CPU and drawn
//! through `shaders/skinned.fx` (a SkinnedEffect-style bone palette of `float4x3`). Bones and
//! the camera are glam values handed straight to the typed setters. The CPU skinning here is
//! what the screenshot test projects to know where the ribbon's tip must be.

use glam::{Affine3A, Mat3, Mat4, Vec3};
use shadowdusk::gl::GlContext;
use shadowdusk::mgfx::VertexElementUsage;

use crate::effects::skinned as skinned_fx;
use crate::mesh::{Element, Mesh};

/// Segments along the ribbon.
const SEGMENTS: usize = 12;
/// The ribbon runs from `-HALF_LENGTH` to `HALF_LENGTH` along y.
pub const HALF_LENGTH: f32 = 1.2;
/// Half its width along x.
pub const HALF_WIDTH: f32 = 0.22;
/// The camera sits on +z looking at the joint, which is at the origin.
pub const EYE: Vec3 = Vec3::new(0.0, 0.0, 4.0);

/// One vertex: position, normal, colour (RGBA, 0..1), two bone indices and their weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vertex {
    /// Object-space position.
    pub position: Vec3,
    /// Normal.
    pub normal: Vec3,
    /// Colour.
    pub color: [f32; 4],
    /// Bone indices (the shader's `BLENDINDICES0`).
    pub bones: [u32; 2],
    /// Bone weights (`BLENDWEIGHT0`), summing to 1.
    pub weights: [f32; 2],
}

/// How much the upper bone moves a point at height `y`: none below the joint's blend zone,
/// fully above it, smoothly between.
pub fn upper_weight(y: f32) -> f32 {
    let t = ((y + 0.3) / 0.6).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The ribbon's vertices (rows of two) and triangle indices.
pub fn mesh() -> (Vec<Vertex>, Vec<u16>) {
    let mut vertices = Vec::with_capacity((SEGMENTS + 1) * 2);
    for row in 0..=SEGMENTS {
        let s = row as f32 / SEGMENTS as f32;
        let y = -HALF_LENGTH + 2.0 * HALF_LENGTH * s;
        let color = [0.95 - 0.7 * s, 0.45 + 0.35 * s, 0.2 + 0.7 * s, 1.0];
        let w = upper_weight(y);
        for x in [-HALF_WIDTH, HALF_WIDTH] {
            vertices.push(Vertex {
                position: Vec3::new(x, y, 0.0),
                normal: Vec3::Z,
                color,
                bones: [0, 1],
                weights: [1.0 - w, w],
            });
        }
    }
    let mut indices = Vec::with_capacity(SEGMENTS * 6);
    for row in 0..SEGMENTS as u16 {
        let b = row * 2;
        indices.extend([b, b + 1, b + 2, b + 1, b + 3, b + 2]);
    }
    (vertices, indices)
}

/// The bend at `time` seconds, in radians about +z.
pub fn bend(time: f32) -> f32 {
    1.0 * (time * 2.5).sin()
}

/// The two bones at `time`: the lower one still, the upper one turned about the joint.
pub fn bones(time: f32) -> [Affine3A; 2] {
    [Affine3A::IDENTITY, Affine3A::from_rotation_z(bend(time))]
}

/// Where `v` is after skinning at `time` (what the vertex shader computes).
pub fn skin(v: &Vertex, time: f32) -> Vec3 {
    let b = bones(time);
    v.bones
        .iter()
        .zip(v.weights)
        .map(|(&i, w)| b[i as usize].transform_point3(v.position) * w)
        .sum()
}

/// View and projection for a `width`×`height` target (right-handed, depth 0..1 like XNA's).
pub fn view_projection(width: u32, height: u32) -> Mat4 {
    let aspect = width as f32 / height.max(1) as f32;
    Mat4::perspective_rh(std::f32::consts::FRAC_PI_4, aspect, 0.1, 100.0)
        * Mat4::look_at_rh(EYE, Vec3::ZERO, Vec3::Y)
}

/// The pixel (x right, y down) where object-space `p` lands.
pub fn project(p: Vec3, width: u32, height: u32) -> (f32, f32) {
    let ndc = view_projection(width, height).project_point3(p);
    (
        (ndc.x + 1.0) * 0.5 * width as f32,
        (1.0 - ndc.y) * 0.5 * height as f32,
    )
}

/// Sets everything the scene animates, through the generated typed setters.
pub fn update(params: &mut skinned_fx::Params, time: f32, width: u32, height: u32) {
    params.set_world_view_proj(view_projection(width, height));
    params.set_world_inverse_transpose(Mat3::IDENTITY);
    for (i, bone) in bones(time).into_iter().enumerate() {
        // The palette holds 72 bones; two are in range by construction.
        let _ = params.set_bones_at(i, bone);
    }
}

/// Floats per vertex: position 3, normal 3, colour 4, indices 4, weights 4.
const FLOATS: usize = 18;

/// Uploads [`mesh`] with the SkinnedEffect vertex layout.
pub fn upload(ctx: &GlContext) -> Result<Mesh, String> {
    use VertexElementUsage as U;
    let (vertices, indices) = mesh();
    let mut data = Vec::with_capacity(vertices.len() * FLOATS);
    for v in &vertices {
        data.extend(v.position.to_array());
        data.extend(v.normal.to_array());
        data.extend(v.color);
        // Blend indices reach GLSL 1.10 as floats, as MonoGame feeds a Byte4 element.
        data.extend([v.bones[0] as f32, v.bones[1] as f32, 0.0, 0.0]);
        data.extend([v.weights[0], v.weights[1], 0.0, 0.0]);
    }
    let elements: Vec<Element> = vec![
        (U::Position, 3, glow::FLOAT, false, 0),
        (U::Normal, 3, glow::FLOAT, false, 12),
        (U::Color, 4, glow::FLOAT, false, 24),
        (U::BlendIndices, 4, glow::FLOAT, false, 40),
        (U::BlendWeight, 4, glow::FLOAT, false, 56),
    ];
    Mesh::new(
        ctx,
        "skinned mesh",
        &data,
        &indices,
        elements,
        (FLOATS * 4) as i32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lower_half_stays_and_the_tip_swings() {
        let (vertices, _) = mesh();
        let bottom = &vertices[0];
        let tip = vertices.last().expect("vertices");
        assert_eq!(skin(bottom, 0.5), bottom.position);
        assert!((skin(tip, 0.0) - tip.position).length() < 1e-6);
        // Turning +z (counter-clockwise seen from the camera) moves the tip to the left.
        assert!(skin(tip, 0.5).x < tip.position.x - 0.5);
        for v in &vertices {
            assert!((v.weights[0] + v.weights[1] - 1.0).abs() < 1e-6);
        }
    }

    #[test]
    fn the_ribbon_is_upright_in_the_middle_of_the_screen() {
        let (x, y_top) = project(Vec3::new(0.0, HALF_LENGTH, 0.0), 640, 360);
        let (_, y_bottom) = project(Vec3::new(0.0, -HALF_LENGTH, 0.0), 640, 360);
        assert!((x - 320.0).abs() < 0.5 && y_top < 180.0 && y_bottom > 180.0);
        assert!(y_top > 20.0 && y_bottom < 340.0, "{y_top} {y_bottom}");
    }
}
