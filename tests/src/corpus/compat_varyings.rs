//! Table entries of the `compat_sem_*` effects whose varyings GLSL 1.10 cannot carry as
//! written: a `float3x3` tangent frame and a `NORMAL0` varying (normal mapping), a `VFACE`
//! member of a pixel input struct, and `nointerpolation` colours (a UI library); and of a
//! pixel-only second pass reading varyings only the first pass's vertex shader writes. Each
//! has a CPU reference of its maths.

use super::math::{gl_front_facing, mesh_pixel, mesh_pixel_faced, mul_vm, pixel_ortho};
use super::textures::{Address, TextureSpec};
use super::*;
use shadowdusk::mgfx::{Blend, SamplerType as ST, VertexElementUsage as U};

const W: f32 = TARGET_SIZE.0 as f32;
const H: f32 = TARGET_SIZE.1 as f32;
const TEX8: TextureSpec = TextureSpec::d2(8, 8, 31);

pub(super) fn entries() -> Vec<Entry> {
    vec![
        sem_tangent_frame(),
        sem_vface_member(),
        sem_nointerpolation(),
        sem_pixel_only_pass(),
    ]
}

fn el(usage: U, index: u8, format: ElementFormat) -> VertexElement {
    VertexElement {
        usage,
        index,
        format,
    }
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `mul(float3 v, float3x3 m)` with `m` given row by row.
fn mul3(v: [f32; 3], m: &[[f32; 3]; 3]) -> [f32; 3] {
    [0, 1, 2].map(|c| v[0] * m[0][c] + v[1] * m[1][c] + v[2] * m[2][c])
}

// ---- compat_sem_tangent_frame ----

/// World: rotation-like, non-symmetric in its upper 3x3 (so a transposed frame shows), with a
/// translation; z of every position is 0, so the third row only turns the frame.
const WORLD: Mat4 = [
    [0.9, 0.2, 0.3, 0.0],
    [-0.15, 0.85, -0.2, 0.0],
    [0.25, -0.1, 0.8, 0.0],
    [4.0, 2.0, 0.0, 1.0],
];
const LIGHT: [f32; 3] = [-0.3, 0.4, -0.85];
const BUMP_SCALE: f32 = 1.6;

/// One corner of the normal-mapped quad: pixel position, normal, tangent, uv.
type FrameCorner = ([f32; 2], [f32; 3], [f32; 3], [f32; 2]);

/// Every corner has its own frame.
const FRAME_CORNERS: [FrameCorner; 4] = [
    ([10.0, 12.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 0.0]),
    ([50.0, 8.0], [0.3, 0.0, 0.95], [0.95, 0.1, -0.3], [1.0, 0.0]),
    ([54.0, 50.0], [0.0, 0.4, 0.9], [1.0, 0.0, 0.0], [1.0, 1.0]),
    (
        [6.0, 44.0],
        [-0.2, -0.2, 0.95],
        [0.9, -0.3, 0.2],
        [0.0, 1.0],
    ),
];

fn frame_mesh() -> Mesh {
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::Normal, 0, ElementFormat::Vector3),
            el(U::Tangent, 0, ElementFormat::Vector3),
            el(U::TextureCoordinate, 0, ElementFormat::Vector2),
        ],
        vertices: FRAME_CORNERS
            .iter()
            .map(|(p, n, t, uv)| {
                let mut v = vec![p[0], p[1], 0.0];
                v.extend_from_slice(n);
                v.extend_from_slice(t);
                v.extend_from_slice(uv);
                v
            })
            .collect(),
        indices: vec![0, 1, 2, 0, 2, 3],
    }
}

/// The picture, reading the interpolated frame as HLSL does (`transposed` reads it the wrong
/// way round, which the test below proves visible).
fn tangent_frame(x: u32, y: u32, transposed: bool) -> Option<[f32; 4]> {
    let mesh = frame_mesh();
    let vp = pixel_ortho(W, H);
    let world3: [[f32; 3]; 3] = [0, 1, 2].map(|r| [WORLD[r][0], WORLD[r][1], WORLD[r][2]]);
    mesh_pixel(
        &mesh,
        |v| {
            let p = mesh.element(v, 0);
            let (n, t) = (mesh.element(v, 1), mesh.element(v, 2));
            let (n, t) = ([n[0], n[1], n[2]], [t[0], t[1], t[2]]);
            let clip = mul_vm(mul_vm([p[0], p[1], p[2], 1.0], &WORLD), &vp);
            // uv, the frame's three rows, the world normal.
            let mut vary = mesh.element(v, 3).to_vec();
            for row in [t, cross(n, t), n] {
                vary.extend(mul3(row, &world3));
            }
            vary.extend(mul3(n, &world3));
            (clip, vary)
        },
        |a| {
            let rows = [0, 1, 2].map(|r| [a[2 + 3 * r], a[3 + 3 * r], a[4 + 3 * r]]);
            let frame = if transposed {
                [0, 1, 2].map(|r| [rows[0][r], rows[1][r], rows[2][r]])
            } else {
                rows
            };
            let bump = [(a[0] - 0.5) * BUMP_SCALE, (a[1] - 0.5) * BUMP_SCALE, 1.0];
            let normal = mul3(bump, &frame);
            let diffuse = -(a[11] * LIGHT[0] + a[12] * LIGHT[1] + a[13] * LIGHT[2]);
            let diffuse = diffuse.clamp(0.0, 1.0);
            Some([
                normal[0] * 0.3 + 0.5,
                normal[1] * 0.3 + 0.5,
                normal[2] * 0.3 + 0.5,
                0.25 + 0.75 * diffuse,
            ])
        },
        x,
        y,
    )
}

fn sem_tangent_frame() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        tangent_frame(x, y, false)
    }
    Entry {
        file: "compat_sem_tangent_frame.fx",
        concern:
            "float3x3 TangentToWorld : TEXCOORD2 and a NORMAL0 varying from a normal-mapping VS",
        techniques: vec![technique("NormalMap", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![
            p_mat("World", 4, 4),
            p_mat("ViewProjection", 4, 4),
            p_vec("LightDirection", 3),
            p_float("BumpScale"),
        ],
        render: Render {
            technique: "NormalMap",
            values: vec![
                ("World", mat4(&WORLD)),
                ("ViewProjection", mat4(&pixel_ortho(W, H))),
                ("LightDirection", vector(&LIGHT)),
                ("BumpScale", scalar(BUMP_SCALE)),
            ],
            textures: vec![],
            geometry: Geometry::Mesh(frame_mesh()),
            render_targets: 1,
            check: Check::reference(reference).with_sensitivities(vec![
                Sensitivity {
                    parameter: "BumpScale",
                    changed: scalar(0.2),
                    region: [0, 0, 64, 64],
                    min_fraction: 0.05,
                },
                Sensitivity {
                    parameter: "LightDirection",
                    changed: vector(&[0.6, -0.2, -0.7]),
                    region: [0, 0, 64, 64],
                    min_fraction: 0.05,
                },
            ]),
        },
    }
}

// ---- compat_sem_vface_member ----

const BACK_TINT: [f32; 4] = [0.9, 0.6, 0.8, 1.0];

/// Two quads: the left one runs clockwise on screen (D3D's front face), the right one is its
/// mirror image (counter-clockwise); every corner has its own colour.
fn two_sided_mesh() -> Mesh {
    let left = [[4.0, 10.0], [30.0, 8.0], [28.0, 54.0], [6.0, 50.0]];
    let colors: [[u8; 4]; 4] = [
        [255, 64, 32, 255],
        [32, 255, 64, 200],
        [64, 32, 255, 255],
        [200, 200, 40, 128],
    ];
    let corners = left
        .iter()
        .map(|p| [p[0], p[1]])
        .chain(left.iter().map(|p| [W - p[0], p[1]]));
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::Color, 0, ElementFormat::Color),
        ],
        vertices: corners
            .enumerate()
            .map(|(i, p)| {
                let mut v = vec![p[0], p[1], 0.0];
                v.extend(colors[i % 4].iter().map(|&c| f32::from(c)));
                v
            })
            .collect(),
        indices: vec![0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7],
    }
}

/// `VFACE` is `gl_FrontFacing` under MonoGame's GL runtime, so which quad is the front one
/// depends on the orientation (see [`gl_front_facing`]).
fn two_sided(o: crate::Orientation, x: u32, y: u32) -> Option<[f32; 4]> {
    let mesh = two_sided_mesh();
    let vp = pixel_ortho(W, H);
    mesh_pixel_faced(
        &mesh,
        |v| {
            let p = mesh.element(v, 0);
            (
                mul_vm([p[0], p[1], p[2], 1.0], &vp),
                mesh.element(v, 1).iter().map(|c| c / 255.0).collect(),
            )
        },
        |a, clockwise| {
            if gl_front_facing(clockwise, o) {
                Some([a[0], a[1], a[2], a[3]])
            } else {
                let bgra = [a[2], a[1], a[0], a[3]];
                Some([0, 1, 2, 3].map(|i| bgra[i] * BACK_TINT[i]))
            }
        },
        x,
        y,
    )
}

fn sem_vface_member() -> Entry {
    fn backbuffer(x: u32, y: u32) -> Option<[f32; 4]> {
        two_sided(crate::Orientation::Backbuffer, x, y)
    }
    fn render_target(x: u32, y: u32) -> Option<[f32; 4]> {
        two_sided(crate::Orientation::RenderTarget, x, y)
    }
    Entry {
        file: "compat_sem_vface_member.fx",
        concern: "float Face : VFACE as a member of the pixel shader's input struct",
        techniques: vec![technique("TwoSided", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![p_mat("ViewProjection", 4, 4), p_vec("BackTint", 4)],
        render: Render {
            technique: "TwoSided",
            values: vec![
                ("ViewProjection", mat4(&pixel_ortho(W, H))),
                ("BackTint", vector(&BACK_TINT)),
            ],
            textures: vec![],
            geometry: Geometry::Mesh(two_sided_mesh()),
            render_targets: 1,
            check: Check::per_orientation(backbuffer, render_target).with_sensitivities(vec![
                Sensitivity {
                    parameter: "BackTint",
                    changed: vector(&[0.2, 1.0, 0.3, 1.0]),
                    region: [0, 0, 64, 64],
                    min_fraction: 0.05,
                },
            ]),
        },
    }
}

// ---- compat_sem_nointerpolation ----

/// Two separate triangles, each with one colour at all three corners (a UI library's flat
/// quads): interpolated or flat, every pixel gets the triangle's colour.
fn flat_mesh() -> Mesh {
    let tris: [([[f32; 4]; 3], [u8; 4]); 2] = [
        (
            [
                [8.0, 6.0, 0.0, 0.0],
                [56.0, 10.0, 1.0, 0.0],
                [10.0, 52.0, 0.0, 1.0],
            ],
            [255, 160, 64, 255],
        ),
        (
            [
                [58.0, 16.0, 1.0, 0.0],
                [54.0, 58.0, 1.0, 1.0],
                [16.0, 56.0, 0.0, 1.0],
            ],
            [96, 200, 255, 160],
        ),
    ];
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::Color, 0, ElementFormat::Color),
            el(U::TextureCoordinate, 0, ElementFormat::Vector2),
        ],
        vertices: tris
            .iter()
            .flat_map(|(corners, color)| {
                corners.iter().map(move |c| {
                    let mut v = vec![c[0], c[1], 0.0];
                    v.extend(color.iter().map(|&x| f32::from(x)));
                    v.extend_from_slice(&c[2..]);
                    v
                })
            })
            .collect(),
        indices: vec![0, 1, 2, 3, 4, 5],
    }
}

fn sem_nointerpolation() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = flat_mesh();
        let vp = pixel_ortho(W, H);
        mesh_pixel(
            &mesh,
            |v| {
                let p = mesh.element(v, 0);
                let mut vary: Vec<f32> = mesh.element(v, 1).iter().map(|c| c / 255.0).collect();
                vary.extend_from_slice(mesh.element(v, 2));
                (mul_vm([p[0], p[1], p[2], 1.0], &vp), vary)
            },
            |a| {
                let t = TEX8.sample_2d(0, a[4], a[5], Address::Clamp, Address::Clamp)?;
                Some([0, 1, 2, 3].map(|i| t[i] * a[i]))
            },
            x,
            y,
        )
    }
    Entry {
        file: "compat_sem_nointerpolation.fx",
        concern:
            "nointerpolation float4 Color : COLOR0 in a UI shader's vertex output and pixel input",
        techniques: vec![technique(
            "Ui",
            vec![vs_ps_pass("P0", vec![sampler(0, ST::Sampler2D, "s0")])],
        )],
        parameters: vec![p_mat("ViewProjection", 4, 4), p_tex2d("s0")],
        render: Render {
            technique: "Ui",
            values: vec![("ViewProjection", mat4(&pixel_ortho(W, H)))],
            textures: vec![("s0", TEX8)],
            geometry: Geometry::Mesh(flat_mesh()),
            render_targets: 1,
            check: Check::reference(reference),
        },
    }
}

// ---- compat_sem_pixel_only_pass ----

const RIM: [f32; 4] = [0.9, 0.7, 0.5, 0.8];

/// A quad with its own colour at each corner and uv 0..1 across it.
fn rim_mesh() -> Mesh {
    let corners: [([f32; 2], [u8; 4], [f32; 2]); 4] = [
        ([6.0, 8.0], [200, 60, 40, 255], [0.0, 0.0]),
        ([58.0, 6.0], [40, 180, 90, 200], [1.0, 0.0]),
        ([56.0, 58.0], [30, 50, 220, 255], [1.0, 1.0]),
        ([8.0, 54.0], [160, 160, 20, 120], [0.0, 1.0]),
    ];
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::Color, 0, ElementFormat::Color),
            el(U::TextureCoordinate, 0, ElementFormat::Vector2),
        ],
        vertices: corners
            .iter()
            .map(|(p, c, uv)| {
                let mut v = vec![p[0], p[1], 0.0];
                v.extend(c.iter().map(|&x| f32::from(x)));
                v.extend_from_slice(uv);
                v
            })
            .collect(),
        indices: vec![0, 1, 2, 0, 2, 3],
    }
}

/// Pass `Base` (the vertex colour, opaque) with pass `Rim` added on top (`One`/`One`): the rim
/// reads `Local` (TEXCOORD1) and `Glow` (COLOR1) as `MainVS` wrote them.
fn rim_lit(x: u32, y: u32) -> Option<[f32; 4]> {
    let mesh = rim_mesh();
    let vp = pixel_ortho(W, H);
    mesh_pixel(
        &mesh,
        |v| {
            let p = mesh.element(v, 0);
            let c: Vec<f32> = mesh.element(v, 1).iter().map(|c| c / 255.0).collect();
            let uv = mesh.element(v, 2);
            let mut vary = c.clone();
            vary.extend([uv[0] * 2.0 - 1.0, uv[1] * 2.0 - 1.0]);
            vary.extend([c[2], c[1], c[0], c[3]].iter().zip(RIM).map(|(c, r)| c * r));
            (mul_vm([p[0], p[1], p[2], 1.0], &vp), vary)
        },
        |a| {
            let rim = (a[4] * a[4] + a[5] * a[5]).clamp(0.0, 1.0);
            Some([0, 1, 2, 3].map(|i| a[i].clamp(0.0, 1.0) + a[6 + i] * rim * rim))
        },
        x,
        y,
    )
}

fn sem_pixel_only_pass() -> Entry {
    let additive = BlendState {
        color_source_blend: Blend::One,
        alpha_source_blend: Blend::One,
        color_destination_blend: Blend::One,
        alpha_destination_blend: Blend::One,
        ..BlendState::default()
    };
    Entry {
        file: "compat_sem_pixel_only_pass.fx",
        concern: "a pixel-only second pass reading TEXCOORD1 and COLOR1 that the first pass's vertex shader writes (it draws with that vertex shader)",
        techniques: vec![technique(
            "RimLit",
            vec![
                vs_ps_pass("Base", vec![]),
                PassSpec {
                    blend: Some(additive),
                    ..ps_pass("Rim", vec![])
                },
            ],
        )],
        parameters: vec![
            p_mat("WorldViewProjection", 4, 4),
            p_vec("RimColor", 4).with_default(&[1.0, 1.0, 1.0, 1.0]),
        ],
        render: Render {
            technique: "RimLit",
            values: vec![
                ("WorldViewProjection", mat4(&pixel_ortho(W, H))),
                ("RimColor", vector(&RIM)),
            ],
            textures: vec![],
            geometry: Geometry::Mesh(rim_mesh()),
            render_targets: 1,
            check: Check::reference(rim_lit).with_sensitivities(vec![Sensitivity {
                parameter: "RimColor",
                changed: vector(&[0.1, 0.3, 0.0, 0.2]),
                region: [0, 0, 64, 64],
                min_fraction: 0.2,
            }]),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame read transposed (rows taken for columns) must not pass the comparison.
    #[test]
    fn a_transposed_tangent_frame_shows() {
        let (w, h) = TARGET_SIZE;
        let differing = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(
                |&(x, y)| match (tangent_frame(x, y, false), tangent_frame(x, y, true)) {
                    (Some(a), Some(b)) => a
                        .iter()
                        .zip(&b)
                        .any(|(p, q)| (p - q).abs() > 4.0 * TOLERANCE),
                    _ => false,
                },
            )
            .count();
        assert!(differing > 500, "only {differing} pixels differ");
    }
}
