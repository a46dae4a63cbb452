//! The 3D scene: a unit cube (±1) with per-face normals and texture coordinates, the camera, the
//! light, and the world rotation over time. Everything here is plain data and math so the
//! screenshot test can work out on the CPU where each face must appear.
//!
//! The matrices are glam's (column vectors, `v' = M * v`). The typed setters hand the shader the
//! same transform in MonoGame's row-vector form (the transpose), so each glam constructor below
//! stands for the XNA one a MonoGame game would use.

use glam::{Mat4, Vec3};
use shadowdusk::gl::GlContext;
use shadowdusk::mgfx::VertexElementUsage;

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
        normal: Vec3::Z,
        right: Vec3::X,
        up: Vec3::Y,
    },
    Face {
        name: "back (-Z)",
        normal: Vec3::NEG_Z,
        right: Vec3::NEG_X,
        up: Vec3::Y,
    },
    Face {
        name: "right (+X)",
        normal: Vec3::X,
        right: Vec3::NEG_Z,
        up: Vec3::Y,
    },
    Face {
        name: "left (-X)",
        normal: Vec3::NEG_X,
        right: Vec3::Z,
        up: Vec3::Y,
    },
    Face {
        name: "top (+Y)",
        normal: Vec3::Y,
        right: Vec3::X,
        up: Vec3::NEG_Z,
    },
    Face {
        name: "bottom (-Y)",
        normal: Vec3::NEG_Y,
        right: Vec3::X,
        up: Vec3::Z,
    },
];

/// Index of the top face in [`FACES`].
pub const TOP: usize = 4;

/// Camera position; it looks at the origin with +Y up.
pub const EYE: Vec3 = Vec3::new(0.0, 3.4, 6.2);

/// The direction the light travels (the effect's `LightDirection`).
pub const LIGHT_DIRECTION: Vec3 = Vec3::new(-0.4, -1.0, -0.6);

/// Vertical field of view in radians.
pub const FOV_Y: f32 = std::f32::consts::FRAC_PI_4;

/// The point of `face` with texture coordinates (`u`, `v`), in object space.
pub fn face_point(face: &Face, u: f32, v: f32) -> Vec3 {
    let (s, t) = (u * 2.0 - 1.0, 1.0 - v * 2.0);
    face.normal + face.right * s + face.up * t
}

/// The cube's world matrix at `time` seconds: a turn about +Y, so the top stays on top.
/// (XNA's `Matrix.CreateRotationY`.)
pub fn world(time: f32) -> Mat4 {
    Mat4::from_rotation_y(0.5 + time * 0.8)
}

/// The view matrix (XNA's right-handed `Matrix.CreateLookAt`).
pub fn view() -> Mat4 {
    Mat4::look_at_rh(EYE, Vec3::ZERO, Vec3::Y)
}

/// The projection for a `width`×`height` target. Like XNA's
/// `Matrix.CreatePerspectiveFieldOfView` it maps depth to D3D's 0..1, not GL's -1..1
/// (`perspective_rh_gl`): MonoGame's GL vertex shaders do that remap themselves.
pub fn projection(width: u32, height: u32) -> Mat4 {
    Mat4::perspective_rh(FOV_Y, width as f32 / height.max(1) as f32, 0.1, 100.0)
}

/// `World * View * Projection` at `time`, as XNA writes it; column vectors apply right to left.
pub fn world_view_projection(time: f32, width: u32, height: u32) -> Mat4 {
    projection(width, height) * view() * world(time)
}

/// Where `point` lands in a `width`×`height` image read top row first: the viewport transform
/// of `world_view_projection * point`. `None` behind the camera.
///
/// The screenshot test compares this with what the GPU drew, so it is the single definition of
/// where things land on screen.
pub fn project(
    point: Vec3,
    world_view_projection: Mat4,
    width: u32,
    height: u32,
) -> Option<(f32, f32)> {
    let clip = world_view_projection * point.extend(1.0);
    // `project_point3` would divide by a negative w and mirror the point instead.
    if clip.w <= 0.0 {
        return None;
    }
    let ndc = clip.truncate() / clip.w;
    Some((
        (ndc.x + 1.0) * 0.5 * width as f32,
        (1.0 - ndc.y) * 0.5 * height as f32,
    ))
}

/// Interleaved vertices (position 3, normal 3, texture coordinate 2) and indices. Triangles
/// are clockwise seen from outside, XNA's front faces (culled with `CullMode = CCW`).
pub fn mesh() -> (Vec<f32>, Vec<u16>) {
    let mut vertices = Vec::with_capacity(6 * 4 * 8);
    let mut indices = Vec::with_capacity(6 * 6);
    for (i, face) in FACES.iter().enumerate() {
        // Top-left, top-right, bottom-left, bottom-right, as the texture lies on the face.
        for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            vertices.extend(face_point(face, u, v).to_array());
            vertices.extend(face.normal.to_array());
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
pub fn upload(ctx: &GlContext) -> Result<Mesh, String> {
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
    Mesh::new(ctx, "cube", &vertices, &indices, elements, STRIDE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_is_clockwise_seen_from_outside() {
        // right x up = normal means (u, v) = (0,0) -> (1,0) -> (0,1) turns clockwise for a
        // viewer on the normal's side.
        for f in FACES {
            assert_eq!(f.right.cross(f.up), f.normal, "{}", f.name);
        }
    }

    #[test]
    fn the_top_face_projects_above_the_front_face() {
        let wvp = world_view_projection(0.0, 640, 360);
        let top = project(face_point(&FACES[TOP], 0.5, 0.5), wvp, 640, 360).unwrap();
        let front = project(face_point(&FACES[0], 0.5, 0.5), wvp, 640, 360).unwrap();
        assert!(top.1 < front.1, "{top:?} {front:?}");
    }

    #[test]
    fn the_projection_has_xnas_depth_range() {
        // `perspective_rh_gl` (-1..1) would also draw, but clip near and far unlike MonoGame.
        let p = projection(640, 360);
        let near = p.project_point3(Vec3::new(0.0, 0.0, -0.1));
        let far = p.project_point3(Vec3::new(0.0, 0.0, -100.0));
        assert!(
            near.z.abs() < 1e-6 && (far.z - 1.0).abs() < 1e-6,
            "{near} {far}"
        );
    }
}
