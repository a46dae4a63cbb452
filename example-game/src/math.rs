//! The few XNA/MonoGame matrix constructors the game needs, in MonoGame's row-vector convention
//! (`v' = v * M`, translation in the fourth row), so the values handed to the typed setters are
//! exactly what a MonoGame game would pass to `EffectParameter.SetValue(Matrix)`.
//!
//! The screenshot test projects points with [`project`] on the CPU and compares with what the GPU
//! drew, so these functions are the single definition of where things land on screen.

use shadowdusk::params::Matrix;

/// A 3-component vector.
pub type Vec3 = [f32; 3];

fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: Vec3, b: Vec3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `v / |v|`; the zero vector stays zero.
pub fn normalize(v: Vec3) -> Vec3 {
    let len = dot(v, v).sqrt();
    if len == 0.0 {
        v
    } else {
        [v[0] / len, v[1] / len, v[2] / len]
    }
}

/// `a * b` (apply `a` first, as XNA's `Matrix.Multiply`).
pub fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = Matrix::ZERO;
    for r in 0..4 {
        for c in 0..4 {
            out.rows[r][c] = (0..4).map(|k| a.rows[r][k] * b.rows[k][c]).sum();
        }
    }
    out
}

/// The row vector `v * m`.
pub fn transform(v: [f32; 4], m: &Matrix) -> [f32; 4] {
    let mut out = [0.0; 4];
    for (c, o) in out.iter_mut().enumerate() {
        *o = (0..4).map(|k| v[k] * m.rows[k][c]).sum();
    }
    out
}

/// The direction `n * m` without translation (what `mul(n, (float3x3)World)` computes).
pub fn transform_normal(n: Vec3, m: &Matrix) -> Vec3 {
    let v = transform([n[0], n[1], n[2], 0.0], m);
    [v[0], v[1], v[2]]
}

/// `Matrix.CreateRotationX(radians)`.
pub fn rotation_x(radians: f32) -> Matrix {
    let (s, c) = radians.sin_cos();
    Matrix::from_rows([
        [1.0, 0.0, 0.0, 0.0],
        [0.0, c, s, 0.0],
        [0.0, -s, c, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ])
}

/// `Matrix.CreateRotationY(radians)`.
pub fn rotation_y(radians: f32) -> Matrix {
    let (s, c) = radians.sin_cos();
    Matrix::from_rows([
        [c, 0.0, -s, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [s, 0.0, c, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ])
}

/// `Matrix.CreateLookAt(position, target, up)` (right-handed).
pub fn look_at(position: Vec3, target: Vec3, up: Vec3) -> Matrix {
    let z = normalize(sub(position, target));
    let x = normalize(cross(up, z));
    let y = cross(z, x);
    Matrix::from_rows([
        [x[0], y[0], z[0], 0.0],
        [x[1], y[1], z[1], 0.0],
        [x[2], y[2], z[2], 0.0],
        [-dot(x, position), -dot(y, position), -dot(z, position), 1.0],
    ])
}

/// `Matrix.CreatePerspectiveFieldOfView(fov, aspect, near, far)`: D3D clip depth 0..1, which
/// MonoGame's GL vertex shaders remap to GL's -1..1 after `posFixup`.
pub fn perspective(fov_y: f32, aspect: f32, near: f32, far: f32) -> Matrix {
    let y_scale = 1.0 / (fov_y * 0.5).tan();
    let x_scale = y_scale / aspect;
    let depth = far / (near - far);
    Matrix::from_rows([
        [x_scale, 0.0, 0.0, 0.0],
        [0.0, y_scale, 0.0, 0.0],
        [0.0, 0.0, depth, -1.0],
        [0.0, 0.0, near * depth, 0.0],
    ])
}

/// Where `point` lands in a `width`×`height` image read top row first: the viewport transform
/// of `point * world_view_projection`. `None` behind the camera.
pub fn project(
    point: Vec3,
    world_view_projection: &Matrix,
    width: u32,
    height: u32,
) -> Option<(f32, f32)> {
    let clip = transform([point[0], point[1], point[2], 1.0], world_view_projection);
    if clip[3] <= 0.0 {
        return None;
    }
    let (x, y) = (clip[0] / clip[3], clip[1] / clip[3]);
    Some((
        (x + 1.0) * 0.5 * width as f32,
        (1.0 - y) * 0.5 * height as f32,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f32; 4], b: [f32; 4]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn look_at_puts_the_target_on_the_negative_z_axis() {
        let view = look_at([0.0, 2.0, 5.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        let t = transform([0.0, 0.0, 0.0, 1.0], &view);
        let d = (4.0f32 + 25.0).sqrt();
        assert!(close(t, [0.0, 0.0, -d, 1.0]), "{t:?}");
    }

    #[test]
    fn rotation_y_turns_x_towards_negative_z() {
        // XNA: CreateRotationY(pi/2) maps +X to -Z (right-handed, counter-clockwise from above).
        let v = transform(
            [1.0, 0.0, 0.0, 0.0],
            &rotation_y(std::f32::consts::FRAC_PI_2),
        );
        assert!(close(v, [0.0, 0.0, -1.0, 0.0]), "{v:?}");
    }

    #[test]
    fn perspective_maps_near_and_far_to_d3d_depth() {
        let p = perspective(1.0, 1.0, 1.0, 10.0);
        let near = transform([0.0, 0.0, -1.0, 1.0], &p);
        let far = transform([0.0, 0.0, -10.0, 1.0], &p);
        assert!((near[2] / near[3]).abs() < 1e-6);
        assert!((far[2] / far[3] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn project_puts_up_at_the_top_of_the_image() {
        let view = look_at([0.0, 0.0, 5.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        let wvp = mul(&view, &perspective(1.0, 1.0, 0.1, 100.0));
        let (_, y_up) = project([0.0, 1.0, 0.0], &wvp, 100, 100).unwrap();
        let (_, y_down) = project([0.0, -1.0, 0.0], &wvp, 100, 100).unwrap();
        assert!(y_up < 50.0 && y_down > 50.0, "{y_up} {y_down}");
    }
}
