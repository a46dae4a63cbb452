//! Table entries of the Shader Model 2/3 integer and constant-register effects: `int`/`uint`
//! arithmetic as fxc emulates it (truncating `/`, `%` with the dividend's sign), `uint4`
//! BLENDINDICES, and a `float4x3 Bones[128]` palette past 256 vs_3_0 registers. Each has a CPU
//! reference of its maths, with values that a float (untruncated) or floored result, a wrong
//! bone index or a transposed bone would fail.

use super::math::{mesh_pixel, pixel_ortho, sprite_pixel};
use super::*;
use shadowdusk::mgfx::{ParameterClass, ParameterType as PT, VertexElementUsage as U};

const RECT: [f32; 4] = [8.0, 8.0, 48.0, 48.0];
const WHITE: [u8; 4] = [255, 255, 255, 255];
const W: f32 = TARGET_SIZE.0 as f32;
const H: f32 = TARGET_SIZE.1 as f32;

/// The table's entries.
pub fn entries() -> Vec<Entry> {
    vec![int_cells(), reg_bones128()]
}

/// Cells across and down, and the int uniform `Stride`.
const GRID: [f32; 2] = [6.0, 5.0];
const STRIDE: i32 = 4;

/// HLSL's int quotient and remainder: rounded toward zero, the remainder with the dividend's sign.
fn div_rem(a: i32, b: i32) -> (i32, i32) {
    (a / b, a % b)
}

/// The colour `compat_int_cells.fx` computes at `uv`, or `None` on a cell boundary.
fn cells(uv: [f32; 2], stride: i32) -> Option<[f32; 4]> {
    let (fx, fy) = (uv[0] * GRID[0], uv[1] * GRID[1]);
    let near_edge = |f: f32| (f - f.round()).abs() < 0.02;
    if near_edge(fx) || near_edge(fy) {
        return None;
    }
    let columns = GRID[0] as i32;
    let index = fy as i32 * columns + fx as i32;
    let group = index / 3;
    let (quotient, remainder) = div_rem(index - 14, stride);
    let odd: i32 = (0..3).map(|i| (index + i) % 2).sum();
    let edge = (quotient.abs() - 1).clamp(0, 1);
    let side = (index - 14).signum().max(0);
    Some([
        (group % 4) as f32 / 3.0,
        (quotient + 4) as f32 / 8.0,
        (remainder + 3) as f32 / 6.0,
        (odd + edge + side + 1) as f32 / 5.0,
    ])
}

fn int_cells() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(RECT, WHITE, |uv, _| cells(uv, STRIDE), x, y)
    }
    Entry {
        file: "compat_int_cells.fx",
        concern: "int/uint locals, an int helper, casts, `/` and `%` on negative and unsigned ints, min/max/abs/sign/clamp, an int loop",
        techniques: vec![technique("Cells", vec![ps_pass("P0", vec![])])],
        parameters: vec![
            p_vec("GridSize", 2),
            param("Stride", ParameterClass::Scalar, PT::Int32, 1, 1),
        ],
        render: Render {
            technique: "Cells",
            values: vec![
                ("GridSize", vector(&GRID)),
                ("Stride", scalar(STRIDE as f32)),
            ],
            textures: vec![],
            geometry: Geometry::Sprite {
                rect: RECT,
                color: WHITE,
            },
            render_targets: 1,
            check: Check::reference(reference).with_sensitivities(vec![Sensitivity {
                parameter: "Stride",
                changed: scalar(5.0),
                region: [8, 8, 56, 56],
                min_fraction: 0.3,
            }]),
        },
    }
}

/// Bones in the palette.
pub const BONES: usize = 128;

/// Bone `k`, row by row (4 rows of 3): a slight scale and shear, and a translation that differs
/// by several pixels between neighbouring bones, so a wrong index or a transposed read moves
/// the quad visibly.
pub fn bone(k: usize) -> [f32; 12] {
    let s = 0.85 + 0.002 * k as f32;
    let shear = 0.05 - 0.001 * k as f32;
    let tx = ((k * 37) % 17) as f32 - 8.0;
    let ty = ((k * 53) % 13) as f32 - 6.0;
    [s, shear, 0.0, -shear, s, 0.0, 0.0, 0.0, 1.0, tx, ty, 0.0]
}

/// The whole palette, bone after bone, each row by row.
pub fn palette() -> Vec<f32> {
    (0..BONES).flat_map(bone).collect()
}

/// Per corner: four bone indices, high in the palette, and their weights.
pub const INFLUENCES: [([u8; 4], [f32; 4]); 4] = [
    ([127, 120, 3, 64], [0.4, 0.3, 0.2, 0.1]),
    ([126, 127, 99, 1], [0.25, 0.25, 0.25, 0.25]),
    ([121, 100, 127, 77], [0.1, 0.2, 0.3, 0.4]),
    ([125, 2, 110, 126], [0.7, 0.1, 0.1, 0.1]),
];
const QUAD: [[f32; 2]; 4] = [[12.0, 10.0], [52.0, 12.0], [50.0, 52.0], [10.0, 48.0]];
const QUAD_COLORS: [[u8; 4]; 4] = [
    [255, 64, 32, 255],
    [32, 255, 64, 255],
    [64, 32, 255, 255],
    [200, 200, 40, 255],
];
const TINT: [f32; 4] = [1.0, 0.8, 0.6, 1.0];

/// The skinned quad: position (Vector3), colour, `Byte4` indices, `Vector4` weights.
pub fn skinned_mesh() -> Mesh {
    let element = |usage, format| VertexElement {
        usage,
        index: 0,
        format,
    };
    Mesh {
        elements: vec![
            element(U::Position, ElementFormat::Vector3),
            element(U::Color, ElementFormat::Color),
            element(U::BlendIndices, ElementFormat::Byte4),
            element(U::BlendWeight, ElementFormat::Vector4),
        ],
        vertices: (0..4)
            .map(|i| {
                let (idx, w) = INFLUENCES[i];
                let mut v = vec![QUAD[i][0], QUAD[i][1], 0.0];
                v.extend(QUAD_COLORS[i].iter().map(|&c| f32::from(c)));
                v.extend(idx.iter().map(|&b| f32::from(b)));
                v.extend_from_slice(&w);
                v
            })
            .collect(),
        indices: vec![0, 1, 2, 0, 2, 3],
    }
}

/// `sum_i mul(p, Bones[idx[i]]) * w[i]` for corner `v`.
pub fn skinned_position(v: usize) -> [f32; 3] {
    let (idx, w) = INFLUENCES[v];
    let p = [QUAD[v][0], QUAD[v][1], 0.0, 1.0];
    let mut out = [0.0f32; 3];
    for (b, weight) in idx.iter().zip(w) {
        let m = bone(usize::from(*b));
        for (c, o) in out.iter_mut().enumerate() {
            *o += (0..4).map(|r| p[r] * m[r * 3 + c]).sum::<f32>() * weight;
        }
    }
    out
}

fn reg_bones128() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = skinned_mesh();
        let vp = pixel_ortho(W, H);
        mesh_pixel(
            &mesh,
            |v| {
                let q = skinned_position(v);
                (
                    super::mul_vm([q[0], q[1], q[2], 1.0], &vp),
                    mesh.element(v, 1)
                        .iter()
                        .zip(TINT)
                        .map(|(c, t)| c / 255.0 * t)
                        .collect(),
                )
            },
            |a| Some([a[0], a[1], a[2], a[3]]),
            x,
            y,
        )
    }
    Entry {
        file: "compat_reg_bones128.fx",
        concern:
            "a float4x3 Bones[128] palette (389 vs_3_0 registers) indexed by uint4 BLENDINDICES",
        techniques: vec![technique("Skinned", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![
            p_mat("Bones", 4, 3).array(BONES),
            p_mat("ViewProjection", 4, 4),
            p_vec("Tint", 4),
        ],
        render: Render {
            technique: "Skinned",
            values: vec![
                ("Bones", matrix(4, 3, &palette())),
                ("ViewProjection", mat4(&pixel_ortho(W, H))),
                ("Tint", vector(&TINT)),
            ],
            textures: vec![],
            geometry: Geometry::Mesh(skinned_mesh()),
            render_targets: 1,
            check: Check::reference(reference),
        },
    }
}
