//! The 3D scene: a unit cube (±1) with per-face normals and texture coordinates, the camera, the
//! light, and the world rotation over time. Everything here is plain data and math so the
//! screenshot test can work out on the CPU where each face must appear.

use shadowdusk::mgfx::VertexElementUsage;
use shadowdusk::params::Matrix;

use crate::math::{self, Vec3};
use crate::mesh::{Element, Mesh};

/// One face as seen from outside: its normal and the directions of the texture's right (+u)
/// and up (-v) edges.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Face {
    /// Short name, for messages.
    pub name: &'static str,
    /// Outward normal.
    pub normal: Vec3,
    /// Where texture u grows.
    pub right: Vec3,
    /// Where the texture's top row (v = 0) is.
    pub up: Vec3,
}

/// The six faces. Side faces have the texture's top row at the top (+Y) edge; the top face has
/// it at the far (-Z) edge, so the marker band reads as "up" from the front.
pub const FACES: [Face; 6] = [
    Face {
        name: "front (+Z)",
        normal: [0.0, 0.0, 1.0],
        right: [1.0, 0.0, 0.0],
        up: [0.0, 1.0, 0.0],
    },
    Face {
        name: "back (-Z)",
        normal: [0.0, 0.0, -1.0],
        right: [-1.0, 0.0, 0.0],
        up: [0.0, 1.0, 0.0],
    },
    Face {
        name: "right (+X)",
        normal: [1.0, 0.0, 0.0],
        right: [0.0, 0.0, -1.0],
        up: [0.0, 1.0, 0.0],
    },
    Face {
        name: "left (-X)",
        normal: [-1.0, 0.0, 0.0],
        right: [0.0, 0.0, 1.0],
        up: [0.0, 1.0, 0.0],
    },
    Face {
        name: "top (+Y)",
        normal: [0.0, 1.0, 0.0],
        right: [1.0, 0.0, 0.0],
        up: [0.0, 0.0, -1.0],
    },
    Face {
        name: "bottom (-Y)",
        normal: [0.0, -1.0, 0.0],
        right: [1.0, 0.0, 0.0],
        up: [0.0, 0.0, 1.0],
    },
];

/// Index of the top face in [`FACES`].
pub const TOP: usize = 4;

/// Camera position; it looks at the origin with +Y up.
pub const EYE: Vec3 = [0.0, 3.4, 6.2];

/// The direction the light travels (the effect's `LightDirection`).
pub const LIGHT_DIRECTION: Vec3 = [-0.4, -1.0, -0.6];

/// Vertical field of view in radians.
pub const FOV_Y: f32 = std::f32::consts::FRAC_PI_4;

/// The point of `face` with texture coordinates (`u`, `v`), in object space.
pub fn face_point(face: &Face, u: f32, v: f32) -> Vec3 {
    let (s, t) = (u * 2.0 - 1.0, 1.0 - v * 2.0);
    [0, 1, 2].map(|i| face.normal[i] + face.right[i] * s + face.up[i] * t)
}

/// The cube's world matrix at `time` seconds: a turn about +Y, so the top stays on top.
pub fn world(time: f32) -> Matrix {
    math::rotation_y(0.5 + time * 0.8)
}

/// The view matrix.
pub fn view() -> Matrix {
    math::look_at(EYE, [0.0, 0.0, 0.0], [0.0, 1.0, 0.0])
}

/// The projection for a `width`×`height` target.
pub fn projection(width: u32, height: u32) -> Matrix {
    math::perspective(FOV_Y, width as f32 / height.max(1) as f32, 0.1, 100.0)
}

/// `World * View * Projection` at `time`.
pub fn world_view_projection(time: f32, width: u32, height: u32) -> Matrix {
    math::mul(
        &math::mul(&world(time), &view()),
        &projection(width, height),
    )
}

/// Interleaved vertices (position 3, normal 3, texture coordinate 2) and indices. Triangles
/// are clockwise seen from outside, XNA's front faces (culled with `CullMode = CCW`).
pub fn mesh() -> (Vec<f32>, Vec<u16>) {
    let mut vertices = Vec::with_capacity(6 * 4 * 8);
    let mut indices = Vec::with_capacity(6 * 6);
    for (i, face) in FACES.iter().enumerate() {
        // Top-left, top-right, bottom-left, bottom-right, as the texture lies on the face.
        for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            vertices.extend(face_point(face, u, v));
            vertices.extend(face.normal);
            vertices.extend([u, v]);
        }
        let base = (i * 4) as u16;
        indices.extend([0, 1, 2, 1, 3, 2].map(|k| base + k));
    }
    (vertices, indices)
}

/// Bytes per vertex: 8 floats.
const STRIDE: i32 = 32;

/// Uploads [`mesh`]: position, normal and texture coordinate per vertex.
pub fn upload(gl: &glow::Context) -> Result<Mesh, String> {
    let (vertices, indices) = mesh();
    let elements: Vec<Element> = vec![
        (VertexElementUsage::Position, 3, glow::FLOAT, false, 0),
        (VertexElementUsage::Normal, 3, glow::FLOAT, false, 12),
        (
            VertexElementUsage::TextureCoordinate,
            2,
            glow::FLOAT,
            false,
            24,
        ),
    ];
    Mesh::new(gl, "cube", &vertices, &indices, elements, STRIDE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_is_clockwise_seen_from_outside() {
        // right x up = normal means (u, v) = (0,0) -> (1,0) -> (0,1) turns clockwise for a
        // viewer on the normal's side.
        for f in FACES {
            let r = f.right;
            let u = f.up;
            let c = [
                r[1] * u[2] - r[2] * u[1],
                r[2] * u[0] - r[0] * u[2],
                r[0] * u[1] - r[1] * u[0],
            ];
            assert_eq!(c, f.normal, "{}", f.name);
        }
    }

    #[test]
    fn the_top_face_projects_above_the_front_face() {
        let wvp = world_view_projection(0.0, 640, 360);
        let top = math::project(face_point(&FACES[TOP], 0.5, 0.5), &wvp, 640, 360).unwrap();
        let front = math::project(face_point(&FACES[0], 0.5, 0.5), &wvp, 640, 360).unwrap();
        assert!(top.1 < front.1, "{top:?} {front:?}");
    }
}
