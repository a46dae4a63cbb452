//! Table entries of the `compat_sem_*` effects whose vertex inputs and varyings go past one
//! fixed table of locations: two skinning weight sets, a second tangent set, shape data in
//! TEXCOORD8–11 with a TEXCOORD11 varying (drawn with a pixel shader that reads a subset of what
//! the vertex shader writes, so wgpu links the pair by semantic), a `PSIZE0` vertex input, and
//! a SpriteBatch pixel shader whose unread inputs must not keep it from linking, instanced
//! particles taking per-instance data in `POSITION1`/`COLOR1`/`TEXCOORD1`, and a G-buffer pass
//! writing `COLOR0`–`COLOR3`. Each has a CPU reference of its maths.

use super::math::{mesh_pixel, mul_vm, pixel_ortho};
use super::textures::{Address, TextureSpec};
use super::*;
use shadowdusk::mgfx::{Blend, SamplerType as ST, VertexElementUsage as U};

const W: f32 = TARGET_SIZE.0 as f32;
const H: f32 = TARGET_SIZE.1 as f32;

pub(super) fn entries() -> Vec<Entry> {
    vec![
        skin_two_sets(),
        tangent1(),
        wide_texcoords(),
        psize_input(),
        unread_inputs(),
        instanced_particles(),
        gbuffer(),
    ]
}

fn el(usage: U, index: u8, format: ElementFormat) -> VertexElement {
    VertexElement {
        usage,
        index,
        format,
    }
}

fn mesh_render(technique: &'static str, values: Vec<(&'static str, Value)>, mesh: Mesh) -> Render {
    Render {
        technique,
        values,
        textures: vec![],
        geometry: Geometry::Mesh(mesh),
        render_targets: 1,
        check: Check::reference(|_, _| None),
    }
}

// ---- compat_sem_skin_two_sets ----

const BONES: usize = 12;
/// Pixel corners of the quad: top-left, top-right, bottom-left, bottom-right.
const SKIN_CORNERS: [[f32; 2]; 4] = [[14.0, 12.0], [50.0, 10.0], [12.0, 50.0], [52.0, 48.0]];
const SKIN_COLORS: [[f32; 4]; 4] = [
    [255.0, 64.0, 32.0, 255.0],
    [32.0, 255.0, 96.0, 230.0],
    [48.0, 80.0, 255.0, 200.0],
    [240.0, 240.0, 64.0, 255.0],
];
const WEIGHTS0: [f32; 4] = [0.3, 0.2, 0.1, 0.05];
const WEIGHTS1: [f32; 4] = [0.15, 0.1, 0.06, 0.04];
const SKIN_TINT: [f32; 4] = [1.0, 0.85, 0.9, 0.95];

fn skin_bone(i: usize) -> Mat4 {
    let f = i as f32;
    [
        [1.0 + 0.01 * f, 0.005 * f, 0.0, 0.0],
        [-0.004 * f, 1.0 - 0.01 * f, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.3 * f - 2.0, 0.5 - 0.2 * f, 0.0, 1.0],
    ]
}

fn skin_indices(v: usize) -> ([f32; 4], [f32; 4]) {
    let set0 = [0, 1, 2, 3].map(|k| ((v * 3 + k) % BONES) as f32);
    let set1 = [0, 1, 2, 3].map(|k| ((v * 5 + 2 * k + 1) % BONES) as f32);
    (set0, set1)
}

fn skin_mesh() -> Mesh {
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::BlendIndices, 0, ElementFormat::Byte4),
            el(U::BlendWeight, 0, ElementFormat::Vector4),
            el(U::BlendIndices, 1, ElementFormat::Byte4),
            el(U::BlendWeight, 1, ElementFormat::Vector4),
            el(U::Color, 0, ElementFormat::Color),
        ],
        vertices: (0..4)
            .map(|v| {
                let (i0, i1) = skin_indices(v);
                let p = SKIN_CORNERS[v];
                [
                    &[p[0], p[1], 0.0][..],
                    &i0,
                    &WEIGHTS0,
                    &i1,
                    &WEIGHTS1,
                    &SKIN_COLORS[v],
                ]
                .concat()
            })
            .collect(),
        indices: vec![0, 1, 2, 2, 1, 3],
    }
}

fn skin_two_sets() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = skin_mesh();
        let vp = pixel_ortho(W, H);
        mesh_pixel(
            &mesh,
            |v| {
                let mut skin = [[0.0f32; 4]; 4];
                for (indices, weights) in [(1, 2), (3, 4)] {
                    let (idx, wts) = (mesh.element(v, indices), mesh.element(v, weights));
                    for k in 0..4 {
                        let b = skin_bone(idx[k] as usize);
                        for (r, row) in skin.iter_mut().enumerate() {
                            for (c, s) in row.iter_mut().enumerate() {
                                *s += b[r][c] * wts[k];
                            }
                        }
                    }
                }
                let p = mesh.element(v, 0);
                let clip = mul_vm(mul_vm([p[0], p[1], p[2], 1.0], &skin), &vp);
                let color = mesh.element(v, 5).iter().zip(SKIN_TINT);
                (clip, color.map(|(c, t)| c / 255.0 * t).collect())
            },
            |a| Some([a[0], a[1], a[2], a[3]]),
            x,
            y,
        )
    }
    let bones: Vec<f32> = (0..BONES).flat_map(|i| skin_bone(i).concat()).collect();
    Entry {
        file: "compat_sem_skin_two_sets.fx",
        concern: "eight influences in two weight sets: BLENDINDICES0/1 and BLENDWEIGHT0/1",
        techniques: vec![technique("Skinned8", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![
            p_mat("Bones", 4, 4).array(BONES),
            p_mat("ViewProj", 4, 4),
            p_vec("Tint", 4),
        ],
        render: Render {
            check: Check::reference(reference),
            ..mesh_render(
                "Skinned8",
                vec![
                    (
                        "Bones",
                        Value {
                            rows: 4,
                            columns: 4,
                            hlsl: bones,
                        },
                    ),
                    ("ViewProj", mat4(&pixel_ortho(W, H))),
                    ("Tint", vector(&SKIN_TINT)),
                ],
                skin_mesh(),
            )
        },
    }
}

// ---- compat_sem_tangent1 ----

/// Rotation-like, non-symmetric upper 3x3, with a translation.
const WORLD: Mat4 = [
    [0.9, 0.2, 0.3, 0.0],
    [-0.15, 0.85, -0.2, 0.0],
    [0.25, -0.1, 0.8, 0.0],
    [4.0, 2.0, 0.0, 1.0],
];
const LIGHT: [f32; 3] = [-0.3, 0.4, -0.85];
const DETAIL_BLEND: f32 = 0.75;
const BUMP_SCALE: f32 = 1.4;

/// Pixel position, normal, tangent, detail tangent, uv of each corner.
type TangentCorner = ([f32; 2], [f32; 3], [f32; 3], [f32; 3], [f32; 2]);
const TANGENT_CORNERS: [TangentCorner; 4] = [
    (
        [10.0, 12.0],
        [0.0, 0.0, 1.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0],
    ),
    (
        [50.0, 8.0],
        [0.3, 0.0, 0.95],
        [0.95, 0.1, -0.3],
        [0.1, 0.9, -0.3],
        [1.0, 0.0],
    ),
    (
        [6.0, 44.0],
        [-0.2, -0.2, 0.95],
        [0.9, -0.3, 0.2],
        [-0.4, 0.8, 0.2],
        [0.0, 1.0],
    ),
    (
        [54.0, 50.0],
        [0.0, 0.4, 0.9],
        [1.0, 0.0, 0.0],
        [0.6, 0.7, -0.1],
        [1.0, 1.0],
    ),
];

fn tangent_mesh() -> Mesh {
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::Normal, 0, ElementFormat::Vector3),
            el(U::Tangent, 0, ElementFormat::Vector3),
            el(U::Tangent, 1, ElementFormat::Vector3),
            el(U::TextureCoordinate, 0, ElementFormat::Vector2),
        ],
        vertices: TANGENT_CORNERS
            .iter()
            .map(|(p, n, t, d, uv)| [&[p[0], p[1], 0.0][..], n, t, d, uv].concat())
            .collect(),
        indices: vec![0, 1, 2, 2, 1, 3],
    }
}

/// `mul(float3 v, (float3x3)m)`.
fn mul3(v: [f32; 3], m: &Mat4) -> [f32; 3] {
    [0, 1, 2].map(|c| v[0] * m[0][c] + v[1] * m[1][c] + v[2] * m[2][c])
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn tangent1() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = tangent_mesh();
        let vp = pixel_ortho(W, H);
        mesh_pixel(
            &mesh,
            |v| {
                let p = mesh.element(v, 0);
                let three = |e: usize| {
                    let s = mesh.element(v, e);
                    [s[0], s[1], s[2]]
                };
                let (t0, t1) = (three(2), three(3));
                let t = [0, 1, 2].map(|k| t0[k] + (t1[k] - t0[k]) * DETAIL_BLEND);
                let clip = mul_vm(mul_vm([p[0], p[1], p[2], 1.0], &WORLD), &vp);
                let mut vary = mesh.element(v, 4).to_vec();
                vary.extend(mul3(three(1), &WORLD));
                vary.extend(mul3(t, &WORLD));
                (clip, vary)
            },
            |a| {
                let (n, t) = ([a[2], a[3], a[4]], [a[5], a[6], a[7]]);
                let b = cross(n, t);
                let bump = [(a[0] - 0.5) * BUMP_SCALE, (a[1] - 0.5) * BUMP_SCALE];
                let normal = [0, 1, 2].map(|k| bump[0] * t[k] + bump[1] * b[k] + n[k]);
                let diffuse = -(0..3).map(|k| normal[k] * LIGHT[k]).sum::<f32>();
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
    Entry {
        file: "compat_sem_tangent1.fx",
        concern: "a detail layer's TANGENT1 beside TANGENT0, blended in the vertex shader",
        techniques: vec![technique("DetailNormalMap", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![
            p_mat("World", 4, 4),
            p_mat("ViewProjection", 4, 4),
            p_vec("LightDirection", 3),
            p_float("DetailBlend"),
            p_float("BumpScale"),
        ],
        render: Render {
            check: Check::reference(reference).with_sensitivities(vec![Sensitivity {
                parameter: "DetailBlend",
                changed: scalar(0.0),
                region: [0, 0, 64, 64],
                min_fraction: 0.05,
            }]),
            ..mesh_render(
                "DetailNormalMap",
                vec![
                    ("World", mat4(&WORLD)),
                    ("ViewProjection", mat4(&pixel_ortho(W, H))),
                    ("LightDirection", vector(&LIGHT)),
                    ("DetailBlend", scalar(DETAIL_BLEND)),
                    ("BumpScale", scalar(BUMP_SCALE)),
                ],
                tangent_mesh(),
            )
        },
    }
}

// ---- compat_sem_wide_texcoords ----

const SHAPE_CENTER: [f32; 2] = [32.0, 32.0];
/// Radius and border thickness, in pixels.
const SHAPE: [f32; 4] = [18.0, 5.0, 0.0, 0.0];
const EDGE_SOFTNESS: f32 = 2.0;
const FILL: [f32; 4] = [40.0, 120.0, 220.0, 255.0];
const BORDER_COLORS: [[f32; 4]; 4] = [
    [255.0, 200.0, 40.0, 255.0],
    [240.0, 60.0, 60.0, 230.0],
    [60.0, 240.0, 120.0, 255.0],
    [200.0, 80.0, 255.0, 200.0],
];

fn shape_mesh() -> Mesh {
    let corners = [[6.0, 6.0], [58.0, 6.0], [6.0, 58.0], [58.0, 58.0]];
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::TextureCoordinate, 8, ElementFormat::Vector4),
            el(U::TextureCoordinate, 9, ElementFormat::Color),
            el(U::TextureCoordinate, 10, ElementFormat::Color),
            el(U::TextureCoordinate, 11, ElementFormat::Vector2),
        ],
        vertices: corners
            .iter()
            .zip(BORDER_COLORS)
            .map(|(p, border)| {
                let local = [p[0] - SHAPE_CENTER[0], p[1] - SHAPE_CENTER[1]];
                [&[p[0], p[1], 0.0][..], &SHAPE, &FILL, &border, &local].concat()
            })
            .collect(),
        indices: vec![0, 1, 2, 2, 1, 3],
    }
}

fn wide_texcoords() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = shape_mesh();
        let vp = pixel_ortho(W, H);
        mesh_pixel(
            &mesh,
            |v| {
                let p = mesh.element(v, 0);
                let clip = mul_vm([p[0], p[1], p[2], 1.0], &vp);
                // What the outline pixel shader reads: COLOR1, TEXCOORD0, TEXCOORD11.
                let mut vary: Vec<f32> = mesh.element(v, 3).iter().map(|c| c / 255.0).collect();
                vary.extend(mesh.element(v, 1));
                vary.extend(mesh.element(v, 4));
                (clip, vary)
            },
            |a| {
                let d = (a[8] * a[8] + a[9] * a[9]).sqrt() - a[4];
                let alpha = ((a[5] - d.abs()) / EDGE_SOFTNESS).clamp(0.0, 1.0);
                Some([a[0] * alpha, a[1] * alpha, a[2] * alpha, a[3] * alpha])
            },
            x,
            y,
        )
    }
    Entry {
        file: "compat_sem_wide_texcoords.fx",
        concern: "shape data in TEXCOORD8–TEXCOORD11 and a TEXCOORD11 varying (vs_3_0/ps_3_0)",
        techniques: vec![
            technique("Shapes", vec![vs_ps_pass("P0", vec![])]),
            technique("Outlines", vec![vs_ps_pass("P0", vec![])]),
        ],
        parameters: vec![p_mat("ViewProjection", 4, 4), p_float("EdgeSoftness")],
        render: Render {
            check: Check::reference(reference),
            ..mesh_render(
                "Outlines",
                vec![
                    ("ViewProjection", mat4(&pixel_ortho(W, H))),
                    ("EdgeSoftness", scalar(EDGE_SOFTNESS)),
                ],
                shape_mesh(),
            )
        },
    }
}

// ---- compat_sem_psize_input ----

/// Centre (pixels), size, colour of each particle.
const PARTICLES: [([f32; 2], f32, [f32; 4]); 2] = [
    ([18.0, 18.0], 8.0, [255.0, 160.0, 64.0, 255.0]),
    ([46.0, 46.0], 10.0, [80.0, 200.0, 255.0, 220.0]),
];
const SIZE_SCALE: f32 = 1.5;
const PARTICLE_TINT: [f32; 4] = [1.0, 0.9, 0.8, 1.0];

fn particle_mesh() -> Mesh {
    let corners = [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]];
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::TextureCoordinate, 0, ElementFormat::Vector2),
            el(U::PointSize, 0, ElementFormat::Single),
            el(U::Color, 0, ElementFormat::Color),
        ],
        vertices: PARTICLES
            .iter()
            .flat_map(|(c, size, color)| {
                corners
                    .iter()
                    .map(move |k| [&[c[0], c[1], 0.0][..], k, &[*size], color].concat())
            })
            .collect(),
        indices: vec![0, 1, 2, 2, 1, 3, 4, 5, 6, 6, 5, 7],
    }
}

fn psize_input() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = particle_mesh();
        let vp = pixel_ortho(W, H);
        mesh_pixel(
            &mesh,
            |v| {
                let (p, k) = (mesh.element(v, 0), mesh.element(v, 1));
                let size = mesh.element(v, 2)[0] * SIZE_SCALE;
                let pos = [p[0] + k[0] * size, p[1] + k[1] * size, p[2], 1.0];
                let color = mesh.element(v, 3).iter().zip(PARTICLE_TINT);
                let mut vary: Vec<f32> = color.map(|(c, t)| c / 255.0 * t).collect();
                vary.extend(k);
                (mul_vm(pos, &vp), vary)
            },
            |a| {
                let falloff = 1.0 - 0.5 * (a[4] * a[4] + a[5] * a[5]);
                Some([0, 1, 2, 3].map(|i| a[i] * falloff))
            },
            x,
            y,
        )
    }
    Entry {
        file: "compat_sem_psize_input.fx",
        concern: "each particle's size as a `PSIZE0` vertex input, quads expanded in the VS",
        techniques: vec![technique("Particles", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![
            p_mat("ViewProjection", 4, 4),
            p_float("SizeScale"),
            p_vec("Tint", 4),
        ],
        render: Render {
            check: Check::reference(reference).with_sensitivities(vec![Sensitivity {
                parameter: "SizeScale",
                changed: scalar(1.0),
                region: [0, 0, 64, 64],
                min_fraction: 0.05,
            }]),
            ..mesh_render(
                "Particles",
                vec![
                    ("ViewProjection", mat4(&pixel_ortho(W, H))),
                    ("SizeScale", scalar(SIZE_SCALE)),
                    ("Tint", vector(&PARTICLE_TINT)),
                ],
                particle_mesh(),
            )
        },
    }
}

// ---- compat_sem_unread_inputs ----

const BLUR_RECT: [f32; 4] = [8.0, 8.0, 48.0, 48.0];
const BLUR_COLOR: [u8; 4] = [255, 204, 153, 255];
const BLUR_TEX: TextureSpec = TextureSpec::d2(8, 8, 37);
/// One texel of the 8x8 texture.
const TEXEL: [f32; 2] = [0.125, 0.125];

fn unread_inputs() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        const C: Address = Address::Clamp;
        super::math::sprite_pixel(
            BLUR_RECT,
            BLUR_COLOR,
            |uv, color| {
                let (tx, ty) = (TEXEL[0], TEXEL[1]);
                let taps = [
                    [0.0, 0.0],
                    [tx, 0.0],
                    [-tx, 0.0],
                    [0.0, ty],
                    [0.0, -ty],
                    [tx, ty],
                    [-tx, -ty],
                    [tx, -ty],
                ];
                let mut sum = [0.0f32; 4];
                for t in taps {
                    let c = BLUR_TEX.sample_2d(0, uv[0] + t[0], uv[1] + t[1], C, C)?;
                    for k in 0..4 {
                        sum[k] += c[k];
                    }
                }
                Some([0, 1, 2, 3].map(|k| sum[k] / 8.0 * color[k]))
            },
            x,
            y,
        )
    }
    Entry {
        file: "compat_sem_unread_inputs.fx",
        concern:
            "`float2 texCoord[8] : TEXCOORD0` with entries 1–7 overwritten before they are read",
        techniques: vec![technique(
            "Blur",
            vec![ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "TextureSampler")],
            )],
        )],
        parameters: vec![p_tex2d("TextureSampler"), p_vec("TexelSize", 2)],
        render: Render {
            technique: "Blur",
            values: vec![("TexelSize", vector(&TEXEL))],
            textures: vec![("TextureSampler", BLUR_TEX)],
            geometry: Geometry::Sprite {
                rect: BLUR_RECT,
                color: BLUR_COLOR,
            },
            render_targets: 1,
            check: Check::reference(reference),
        },
    }
}

// ---- compat_sem_instanced_particles ----

const TIME: f32 = 0.75;
/// Per particle: centre and size (`POSITION1`), colour bytes (`COLOR1`), spin (`TEXCOORD1`).
const INSTANCES: [([f32; 4], [f32; 4], f32); 3] = [
    ([16.0, 16.0, 0.0, 12.0], [255.0, 96.0, 32.0, 255.0], 0.0),
    ([44.0, 20.0, 0.0, 10.0], [64.0, 230.0, 96.0, 200.0], 0.8),
    ([30.0, 46.0, 0.0, 13.0], [80.0, 120.0, 255.0, 230.0], -1.3),
];
const QUAD_CORNERS: [[f32; 2]; 4] = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
const QUAD_UVS: [[f32; 2]; 4] = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];

/// The particles as one mesh: each instance's data repeated in its quad's four vertices (the
/// corpus draws meshes without instancing; `wgpu_parity.rs` draws the same effect instanced).
fn instanced_particle_mesh() -> Mesh {
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for (i, (centre, color, spin)) in INSTANCES.iter().enumerate() {
        for (corner, uv) in QUAD_CORNERS.iter().zip(QUAD_UVS) {
            vertices.push([&corner[..], &uv, centre, color, &[*spin]].concat());
        }
        let k = 4 * i as u16;
        indices.extend([k, k + 1, k + 2, k, k + 2, k + 3]);
    }
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector2),
            el(U::TextureCoordinate, 0, ElementFormat::Vector2),
            el(U::Position, 1, ElementFormat::Vector4),
            el(U::Color, 1, ElementFormat::Color),
            el(U::TextureCoordinate, 1, ElementFormat::Single),
        ],
        vertices,
        indices,
    }
}

fn instanced_particles() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = instanced_particle_mesh();
        let vp = pixel_ortho(W, H);
        mesh_pixel(
            &mesh,
            |v| {
                let (corner, uv) = (mesh.element(v, 0), mesh.element(v, 1));
                let centre = mesh.element(v, 2);
                let (s, c) = (mesh.element(v, 4)[0] * TIME).sin_cos();
                let rotated = [corner[0] * c - corner[1] * s, corner[0] * s + corner[1] * c];
                let pos = [
                    centre[0] + rotated[0] * centre[3],
                    centre[1] + rotated[1] * centre[3],
                    centre[2],
                    1.0,
                ];
                let mut vary: Vec<f32> = mesh.element(v, 3).iter().map(|c| c / 255.0).collect();
                vary.extend(uv);
                (mul_vm(pos, &vp), vary)
            },
            |a| {
                let d = [a[4] * 2.0 - 1.0, a[5] * 2.0 - 1.0];
                let falloff =
                    (1.0 - d[0] * d[0] - d[1] * d[1]).clamp(0.0, 1.0) * (0.25 + 0.75 * a[4]);
                // Additive (One, One) over the clear colour.
                Some([0, 1, 2, 3].map(|i| a[i] * falloff + CLEAR[i]))
            },
            x,
            y,
        )
    }
    let additive = BlendState {
        color_source_blend: Blend::One,
        alpha_source_blend: Blend::One,
        color_destination_blend: Blend::One,
        alpha_destination_blend: Blend::One,
        ..BlendState::default()
    };
    let no_depth_writes = DepthStencilState {
        depth_buffer_write_enable: false,
        ..DepthStencilState::default()
    };
    Entry {
        file: "compat_sem_instanced_particles.fx",
        concern: "instanced particles: per-instance centre and size in POSITION1, colour in COLOR1, spin in TEXCOORD1",
        techniques: vec![technique(
            "Particles",
            vec![PassSpec {
                blend: Some(additive),
                depth_stencil: Some(no_depth_writes),
                ..vs_ps_pass("P0", vec![])
            }],
        )],
        parameters: vec![p_mat("ViewProjection", 4, 4), p_float("Time")],
        render: Render {
            check: Check::reference(reference).with_sensitivities(vec![Sensitivity {
                parameter: "Time",
                changed: scalar(2.0),
                region: [0, 0, 64, 64],
                min_fraction: 0.02,
            }]),
            ..mesh_render(
                "Particles",
                vec![
                    ("ViewProjection", mat4(&pixel_ortho(W, H))),
                    ("Time", scalar(TIME)),
                ],
                instanced_particle_mesh(),
            )
        },
    }
}

// ---- compat_mrt_gbuffer ----

/// Two quads: pixel rectangle, colour bytes, normal.
const GBUFFER_QUADS: [([f32; 4], [f32; 4], [f32; 3]); 2] = [
    (
        [6.0, 6.0, 30.0, 58.0],
        [230.0, 50.0, 100.0, 255.0],
        [0.6, 0.0, 0.8],
    ),
    (
        [34.0, 14.0, 58.0, 50.0],
        [25.0, 180.0, 75.0, 128.0],
        [0.0, -3.0, 4.0],
    ),
];
const GBUFFER_MATERIAL: [f32; 4] = [0.25, 0.5, 0.75, 1.0];
const IDENTITY: Mat4 = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

fn gbuffer_mesh() -> Mesh {
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for (i, ([x0, y0, x1, y1], color, normal)) in GBUFFER_QUADS.iter().enumerate() {
        for [x, y] in [[*x0, *y0], [*x1, *y0], [*x1, *y1], [*x0, *y1]] {
            vertices.push([&[x, y, 0.0][..], color, normal].concat());
        }
        let k = 4 * i as u16;
        indices.extend([k, k + 1, k + 2, k, k + 2, k + 3]);
    }
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::Color, 0, ElementFormat::Color),
            el(U::Normal, 0, ElementFormat::Vector3),
        ],
        vertices,
        indices,
    }
}

fn gbuffer() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        // Target 0 (COLOR0): the albedo, the vertex colour.
        let mesh = gbuffer_mesh();
        let vp = pixel_ortho(W, H);
        mesh_pixel(
            &mesh,
            |v| {
                let p = mesh.element(v, 0);
                let color = mesh.element(v, 1).iter().map(|c| c / 255.0).collect();
                (mul_vm([p[0], p[1], p[2], 1.0], &vp), color)
            },
            |a| Some([a[0], a[1], a[2], a[3]]),
            x,
            y,
        )
    }
    Entry {
        file: "compat_mrt_gbuffer.fx",
        concern: "a G-buffer pass writing albedo, normal, depth and material to COLOR0–COLOR3",
        techniques: vec![technique("GBuffer", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![
            p_mat("World", 4, 4),
            p_mat("WorldViewProjection", 4, 4),
            p_vec("Material", 4),
        ],
        render: Render {
            render_targets: 4,
            check: Check::reference(reference),
            ..mesh_render(
                "GBuffer",
                vec![
                    ("World", mat4(&IDENTITY)),
                    ("WorldViewProjection", mat4(&pixel_ortho(W, H))),
                    ("Material", vector(&GBUFFER_MATERIAL)),
                ],
                gbuffer_mesh(),
            )
        },
    }
}
