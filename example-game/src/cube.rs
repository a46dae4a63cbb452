//! The 3D scene: a unit cube (±1) with per-face normals and texture coordinates, the camera, the
//! light, and the world rotation over time. Everything here is plain data and math so the
//! screenshot test can work out on the CPU where each face must appear.

use glow::HasContext;
use shadowdusk::gl::AppliedPass;
use shadowdusk::mgfx::VertexElementUsage;
use shadowdusk::params::Matrix;

use crate::math::{self, Vec3};

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

/// The cube's buffers.
pub struct CubeMesh {
    vertices: glow::Buffer,
    indices: glow::Buffer,
    count: i32,
}

/// Bytes per vertex: 8 floats.
const STRIDE: i32 = 32;

impl CubeMesh {
    /// Uploads [`mesh`].
    pub fn new(gl: &glow::Context) -> Result<CubeMesh, String> {
        let (vertices, indices) = mesh();
        let vertex_bytes: Vec<u8> = vertices.iter().flat_map(|f| f.to_le_bytes()).collect();
        let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        // SAFETY: buffer creation and upload on the current context.
        unsafe {
            let vbo = gl.create_buffer()?;
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &vertex_bytes, glow::STATIC_DRAW);
            let ibo = gl.create_buffer()?;
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(ibo));
            gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, &index_bytes, glow::STATIC_DRAW);
            Ok(CubeMesh {
                vertices: vbo,
                indices: ibo,
                count: indices.len() as i32,
            })
        }
    }

    /// Draws the cube with the program of `pass` (already applied).
    pub fn draw(&self, gl: &glow::Context, pass: &AppliedPass) -> Result<(), String> {
        let elements: [Element; 3] = [
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
        // SAFETY: the buffers belong to this context and hold `count` indices into the
        // vertices; offsets lie inside the stride.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vertices));
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.indices));
            let enabled = feed(gl, pass, &elements, STRIDE);
            gl.draw_elements(glow::TRIANGLES, self.count, glow::UNSIGNED_SHORT, 0);
            for loc in enabled {
                gl.disable_vertex_attrib_array(loc);
            }
        }
        check(gl, "drawing the cube")
    }

    /// Deletes the buffers.
    pub fn destroy(self, gl: &glow::Context) {
        // SAFETY: buffers created by this mesh on the current context.
        unsafe {
            gl.delete_buffer(self.vertices);
            gl.delete_buffer(self.indices);
        }
    }
}

/// One interleaved vertex element: usage, float (or byte) components, GL type, normalized,
/// byte offset.
pub type Element = (VertexElementUsage, i32, u32, bool, i32);

/// Points each element the pass's vertex shader reads at the bound array buffer, as MonoGame
/// binds a vertex declaration: elements the shader has no attribute for are not fed. Returns
/// the attribute locations enabled, to disable after the draw.
///
/// # Safety
/// `gl` must be current with the vertex buffer bound to `ARRAY_BUFFER`.
pub unsafe fn feed(
    gl: &glow::Context,
    pass: &AppliedPass,
    elements: &[Element],
    stride: i32,
) -> Vec<u32> {
    let mut enabled = Vec::new();
    for &(usage, size, ty, normalized, offset) in elements {
        if let Some(loc) = pass.attribute_location(usage, 0) {
            // SAFETY: forwarded from the caller.
            unsafe {
                gl.enable_vertex_attrib_array(loc);
                gl.vertex_attrib_pointer_f32(loc, size, ty, normalized, stride, offset);
            }
            enabled.push(loc);
        }
    }
    enabled
}

/// `glGetError` as a result.
pub fn check(gl: &glow::Context, what: &str) -> Result<(), String> {
    // SAFETY: a query on the current context.
    match unsafe { gl.get_error() } {
        glow::NO_ERROR => Ok(()),
        e => Err(format!("{what}: OpenGL error 0x{e:04X}")),
    }
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
