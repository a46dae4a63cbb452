//! Matrix helpers in HLSL conventions and a reference rasterizer for the corpus references.
//!
//! Matrices are `[row][column]` as written in HLSL/XNA (`M11` = `m[0][0]`). `mul_vm` is HLSL
//! `mul(v, M)` (row vector), `mul_mv` is `mul(M, v)`. The rasterizer answers, for one pixel centre,
//! whether a triangle list covers it and with which perspective-correct interpolated varyings,
//! refusing to answer within 0.01 px of an edge (the GPU's fill rule may go either way there).

/// A 4x4 matrix, `[row][column]`.
pub type Mat4 = [[f32; 4]; 4];

/// HLSL `mul(v, M)`.
pub fn mul_vm(v: [f32; 4], m: &Mat4) -> [f32; 4] {
    let mut out = [0.0; 4];
    for (j, o) in out.iter_mut().enumerate() {
        *o = (0..4).map(|i| v[i] * m[i][j]).sum();
    }
    out
}

/// HLSL `mul(M, v)`.
pub fn mul_mv(m: &Mat4, v: [f32; 4]) -> [f32; 4] {
    let mut out = [0.0; 4];
    for (i, o) in out.iter_mut().enumerate() {
        *o = (0..4).map(|j| m[i][j] * v[j]).sum();
    }
    out
}

/// HLSL `mul(A, B)`.
pub fn mat_mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [[0.0; 4]; 4];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, o) in row.iter_mut().enumerate() {
            *o = (0..4).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    out
}

/// Transpose.
pub fn transpose(m: &Mat4) -> Mat4 {
    let mut out = [[0.0; 4]; 4];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, o) in row.iter_mut().enumerate() {
            *o = m[j][i];
        }
    }
    out
}

/// XNA `Matrix.CreateTranslation` (translation in the last row).
pub fn translate(x: f32, y: f32, z: f32) -> Mat4 {
    [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [x, y, z, 1.0],
    ]
}

/// XNA `Matrix.CreateScale`.
pub fn scale(x: f32, y: f32, z: f32) -> Mat4 {
    [
        [x, 0.0, 0.0, 0.0],
        [0.0, y, 0.0, 0.0],
        [0.0, 0.0, z, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// XNA `Matrix.CreateRotationZ(pi/2)` with exact entries.
pub fn rotate_z90() -> Mat4 {
    [
        [0.0, 1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// Maps pixel coordinates (top-left origin, y down) of a `w`x`h` target to clip space, with
/// every z mapped to 0.5 (inside D3D's 0..1 depth range).
pub fn pixel_ortho(w: f32, h: f32) -> Mat4 {
    [
        [2.0 / w, 0.0, 0.0, 0.0],
        [0.0, -2.0 / h, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0],
        [-1.0, 1.0, 0.5, 1.0],
    ]
}

/// Clip-space position to pixel coordinates (top-left origin).
pub fn clip_to_pixel(c: [f32; 4], w: f32, h: f32) -> [f32; 2] {
    [(c[0] / c[3] + 1.0) * 0.5 * w, (1.0 - c[1] / c[3]) * 0.5 * h]
}

/// The uv of pixel `(x, y)`'s centre inside a SpriteBatch rectangle `[x, y, w, h]`, `None`
/// when the centre is outside.
pub fn sprite_uv(rect: [f32; 4], x: u32, y: u32) -> Option<[f32; 2]> {
    let px = x as f32 + 0.5;
    let py = y as f32 + 0.5;
    let u = (px - rect[0]) / rect[2];
    let v = (py - rect[1]) / rect[3];
    ((0.0..1.0).contains(&u) && (0.0..1.0).contains(&v)).then_some([u, v])
}

/// Coverage of one pixel centre by a triangle list.
#[derive(Clone, Debug, PartialEq)]
pub enum Covered {
    /// No triangle covers it.
    Outside,
    /// Too close to an edge to tell.
    Ambiguous,
    /// Covered; the varyings interpolated perspective-correctly.
    Inside(Vec<f32>),
}

/// Rasterizes pixel `(x, y)` of a `w`x`h` target: `clip` are the vertex shader's clip positions,
/// `varyings` its other outputs per vertex.
pub fn rasterize(
    clip: &[[f32; 4]],
    varyings: &[Vec<f32>],
    indices: &[u16],
    w: f32,
    h: f32,
    x: u32,
    y: u32,
) -> Covered {
    match cover(clip, varyings, indices, w, h, x, y) {
        Hit::Outside => Covered::Outside,
        Hit::Ambiguous => Covered::Ambiguous,
        Hit::Inside { varyings, .. } => Covered::Inside(varyings),
    }
}

enum Hit {
    Outside,
    Ambiguous,
    /// `clockwise`: the covering triangle's vertices run clockwise on screen (top-left origin,
    /// y down), D3D's front face.
    Inside {
        varyings: Vec<f32>,
        clockwise: bool,
    },
}

fn cover(
    clip: &[[f32; 4]],
    varyings: &[Vec<f32>],
    indices: &[u16],
    w: f32,
    h: f32,
    x: u32,
    y: u32,
) -> Hit {
    let p = [x as f32 + 0.5, y as f32 + 0.5];
    let mut ambiguous = false;
    for tri in indices.chunks(3) {
        let [i0, i1, i2] = [tri[0] as usize, tri[1] as usize, tri[2] as usize];
        let s = [i0, i1, i2].map(|i| clip_to_pixel(clip[i], w, h));
        let cross = |a: [f32; 2], b: [f32; 2], c: [f32; 2]| {
            (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        };
        let area = cross(s[0], s[1], s[2]);
        if area.abs() < 1e-6 {
            continue;
        }
        let sign = area.signum();
        // Barycentric weight of vertex k = signed area of the opposite sub-triangle.
        let edges = [(1, 2), (2, 0), (0, 1)];
        let mut bary = [0.0f32; 3];
        let mut inside = true;
        let mut near = false;
        for (k, (a, b)) in edges.iter().enumerate() {
            let e = cross(s[*a], s[*b], p) * sign;
            let len = ((s[*b][0] - s[*a][0]).powi(2) + (s[*b][1] - s[*a][1]).powi(2)).sqrt();
            let dist = e / len;
            if dist.abs() < 0.01 {
                near = true;
            } else if dist < 0.0 {
                inside = false;
            }
            bary[k] = e / (area * sign);
        }
        if !inside {
            continue;
        }
        if near {
            ambiguous = true;
            continue;
        }
        let ws = [clip[i0][3], clip[i1][3], clip[i2][3]];
        let persp: Vec<f32> = (0..3).map(|k| bary[k] / ws[k]).collect();
        let total: f32 = persp.iter().sum();
        let n = varyings[i0].len();
        let out = (0..n)
            .map(|c| {
                (persp[0] * varyings[i0][c]
                    + persp[1] * varyings[i1][c]
                    + persp[2] * varyings[i2][c])
                    / total
            })
            .collect();
        // With y down, a positive cross product turns clockwise on screen.
        return Hit::Inside {
            varyings: out,
            clockwise: area > 0.0,
        };
    }
    if ambiguous {
        Hit::Ambiguous
    } else {
        Hit::Outside
    }
}

/// `gl_FrontFacing` (what MonoGame's GL runtime hands a `VFACE` input) for a triangle that runs
/// `clockwise` on screen, drawn in orientation `o`.
///
/// GL decides facing by the winding in window coordinates (y up) against `glFrontFace`. MonoGame
/// calls `glFrontFace` only when a rasterizer state culls; under `CullMode.None` (the corpus
/// default, and the pass that reads `VFACE`) GL's initial `GL_CCW` stays. On the backbuffer,
/// window y runs against the screen rows, so a screen-clockwise triangle is window-clockwise:
/// back-facing, the opposite of D3D. In a render target `posFixup` puts screen row r at window
/// y = r, so a screen-clockwise triangle is window-counter-clockwise: front-facing, as in D3D.
pub fn gl_front_facing(clockwise: bool, o: crate::Orientation) -> bool {
    match o {
        crate::Orientation::Backbuffer => !clockwise,
        crate::Orientation::RenderTarget => clockwise,
    }
}

/// `gl_FragCoord.xy` (what MonoGame's GL runtime hands a `VPOS` input) of pixel `(x, y)`
/// (top-left origin) in orientation `o`: the backbuffer's window origin is its bottom-left
/// corner; a render target's rows are stored top row first, so its window origin is the top-left.
pub fn frag_coord(x: u32, y: u32, o: crate::Orientation) -> [f32; 2] {
    let (_, h) = super::TARGET_SIZE;
    let wy = match o {
        crate::Orientation::Backbuffer => h - 1 - y,
        crate::Orientation::RenderTarget => y,
    };
    [x as f32 + 0.5, wy as f32 + 0.5]
}

/// Runs a CPU vertex shader over a mesh and rasterizes pixel `(x, y)` of the corpus target,
/// then runs the CPU pixel shader on the interpolated varyings. Uncovered pixels keep
/// [`super::CLEAR`].
pub fn mesh_pixel(
    mesh: &super::Mesh,
    vs: impl Fn(usize) -> ([f32; 4], Vec<f32>),
    ps: impl Fn(&[f32]) -> Option<[f32; 4]>,
    x: u32,
    y: u32,
) -> Option<[f32; 4]> {
    let (w, h) = super::TARGET_SIZE;
    let (clip, vary): (Vec<_>, Vec<_>) = (0..mesh.vertices.len()).map(vs).unzip();
    match rasterize(&clip, &vary, &mesh.indices, w as f32, h as f32, x, y) {
        Covered::Outside => Some(super::CLEAR),
        Covered::Ambiguous => None,
        Covered::Inside(v) => ps(&v).map(saturate4),
    }
}

/// As [`mesh_pixel`], and the pixel shader also learns whether the covering triangle runs
/// clockwise on screen (see [`gl_front_facing`]).
pub fn mesh_pixel_faced(
    mesh: &super::Mesh,
    vs: impl Fn(usize) -> ([f32; 4], Vec<f32>),
    ps: impl Fn(&[f32], bool) -> Option<[f32; 4]>,
    x: u32,
    y: u32,
) -> Option<[f32; 4]> {
    let (w, h) = super::TARGET_SIZE;
    let (clip, vary): (Vec<_>, Vec<_>) = (0..mesh.vertices.len()).map(vs).unzip();
    match cover(&clip, &vary, &mesh.indices, w as f32, h as f32, x, y) {
        Hit::Outside => Some(super::CLEAR),
        Hit::Ambiguous => None,
        Hit::Inside {
            varyings,
            clockwise,
        } => ps(&varyings, clockwise).map(saturate4),
    }
}

/// Clamps every channel to 0..1, as the UNORM target does.
pub fn saturate4(c: [f32; 4]) -> [f32; 4] {
    c.map(|v| v.clamp(0.0, 1.0))
}

/// Runs a CPU pixel shader for a SpriteBatch quad; pixels outside the quad keep
/// [`super::CLEAR`].
pub fn sprite_pixel(
    rect: [f32; 4],
    color: [u8; 4],
    ps: impl Fn([f32; 2], [f32; 4]) -> Option<[f32; 4]>,
    x: u32,
    y: u32,
) -> Option<[f32; 4]> {
    match sprite_uv(rect, x, y) {
        None => Some(super::CLEAR),
        Some(uv) => ps(uv, super::textures::norm(color)).map(saturate4),
    }
}

/// Small vector helpers.
pub fn dot3(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Normalize a 3-vector.
pub fn normalize3(a: [f32; 3]) -> [f32; 3] {
    let l = dot3(a, a).sqrt();
    [a[0] / l, a[1] / l, a[2] / l]
}

/// Linear interpolation.
pub fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}
