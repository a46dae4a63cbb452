//! Table entries of the effects with their own vertex shader, drawn as meshes.
//!
//! Every transform is non-symmetric (rotations, shears, translations in the last row), so a
//! transposed matrix upload or a swapped `mul` order moves or distorts the geometry visibly.

use super::math::{
    dot3, gl_front_facing, lerp, mat_mul, mesh_pixel, mesh_pixel_faced, normalize3, pixel_ortho,
    rotate_z90, scale, translate,
};
use super::textures::{Address, TextureSpec};
use super::*;
use crate::Orientation;
use shadowdusk::mgfx::{SamplerType as ST, TextureAddressMode as TA, VertexElementUsage as U};

const C: Address = Address::Clamp;
const W: f32 = TARGET_SIZE.0 as f32;
const H: f32 = TARGET_SIZE.1 as f32;

fn el(usage: U, index: u8, format: ElementFormat) -> VertexElement {
    VertexElement {
        usage,
        index,
        format,
    }
}

/// Quad corners in model space (x right, y up) with uv (0,0) at the top-left corner.
const CORNERS: [[f32; 5]; 4] = [
    [-1.0, 1.0, 0.0, 0.0, 0.0],
    [1.0, 1.0, 0.0, 1.0, 0.0],
    [-1.0, -1.0, 0.0, 0.0, 1.0],
    [1.0, -1.0, 0.0, 1.0, 1.0],
];
const QUAD_INDICES: [u16; 6] = [0, 1, 2, 2, 1, 3];
const CORNER_COLORS: [[f32; 4]; 4] = [
    [255.0, 64.0, 32.0, 255.0],
    [32.0, 255.0, 96.0, 230.0],
    [48.0, 80.0, 255.0, 200.0],
    [240.0, 240.0, 64.0, 255.0],
];

fn render(
    technique: &'static str,
    values: Vec<(&'static str, Value)>,
    textures: Vec<(&'static str, TextureSpec)>,
    mesh: Mesh,
    check: Check,
) -> Render {
    Render {
        technique,
        values,
        textures,
        geometry: Geometry::Mesh(mesh),
        render_targets: 1,
        check,
    }
}

/// A position element widened to float4 the way the GPU fills missing components (w = 1).
fn v4(p: &[f32]) -> [f32; 4] {
    [p[0], p[1], p[2], if p.len() > 3 { p[3] } else { 1.0 }]
}

pub(super) fn entries() -> Vec<Entry> {
    vec![
        vs_wvp_chain(),
        vs_single_wvp(),
        basic_lighting(),
        skinned_bones(),
        cbuffer_shared(),
        macros_technique(),
        vface_two_sided(),
    ]
}

// ---- vs_wvp_chain ----

fn chain_world() -> Mat4 {
    mat_mul(
        &mat_mul(&scale(20.0, 16.0, 1.0), &rotate_z90()),
        &translate(30.0, 28.0, 0.25),
    )
}
fn chain_view() -> Mat4 {
    translate(2.0, 4.0, 0.1)
}
fn chain_mesh() -> Mesh {
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::Color, 0, ElementFormat::Color),
            el(U::TextureCoordinate, 0, ElementFormat::Vector2),
        ],
        vertices: (0..4)
            .map(|i| {
                let c = CORNERS[i];
                [&c[0..3], &CORNER_COLORS[i][..], &c[3..5]].concat()
            })
            .collect(),
        indices: QUAD_INDICES.to_vec(),
    }
}
const CHAIN_TEX: TextureSpec = TextureSpec::d2(8, 8, 21);

fn vs_wvp_chain() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = chain_mesh();
        let (world, view, proj) = (chain_world(), chain_view(), pixel_ortho(W, H));
        mesh_pixel(
            &mesh,
            |v| {
                let p = mul_vm(mul_vm(mul_vm(v4(mesh.element(v, 0)), &world), &view), &proj);
                let col = mesh.element(v, 1).iter().map(|c| c / 255.0);
                (p, col.chain(mesh.element(v, 2).iter().copied()).collect())
            },
            |a| {
                let t = CHAIN_TEX.sample_2d(0, a[4], a[5], C, C)?;
                Some([0, 1, 2, 3].map(|i| t[i] * a[i]))
            },
            x,
            y,
        )
    }
    let state = point_state(TA::Clamp, TA::Clamp);
    Entry {
        file: "vs_wvp_chain.fx",
        concern: "World/View/Projection chain, mul(v, M), legacy POSITION output",
        techniques: vec![technique(
            "Textured",
            vec![vs_ps_pass(
                "P0",
                vec![sampler(0, ST::Sampler2D, "DiffuseTexture").baked(state)],
            )],
        )],
        parameters: vec![
            p_mat("World", 4, 4),
            p_mat("View", 4, 4),
            p_mat("Projection", 4, 4),
            p_tex2d("DiffuseTexture"),
        ],
        render: render(
            "Textured",
            vec![
                ("World", mat4(&chain_world())),
                ("View", mat4(&chain_view())),
                ("Projection", mat4(&pixel_ortho(W, H))),
            ],
            vec![("DiffuseTexture", CHAIN_TEX)],
            chain_mesh(),
            Check::reference(reference),
        ),
    }
}

// ---- vs_single_wvp ----

/// A sheared, translated quad mapped to pixels, as a row-vector matrix.
fn sheared_to_pixels() -> Mat4 {
    let shear = [
        [24.0, 0.0, 0.0, 0.0],
        [6.0, 14.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [30.0, 32.0, 0.3, 1.0],
    ];
    mat_mul(&shear, &pixel_ortho(W, H))
}
const COLOR_SCALE: [f32; 4] = [0.9, 0.75, 1.0, 0.9];

fn color_mesh() -> Mesh {
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::Color, 0, ElementFormat::Color),
        ],
        vertices: (0..4)
            .map(|i| [&CORNERS[i][0..3], &CORNER_COLORS[i][..]].concat())
            .collect(),
        indices: QUAD_INDICES.to_vec(),
    }
}

fn vs_single_wvp() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = color_mesh();
        // The shader computes mul(WorldViewProj, v); the value set is the transpose of the
        // row-vector matrix, so the geometry equals mul(v, sheared_to_pixels()).
        let m = transpose(&sheared_to_pixels());
        mesh_pixel(
            &mesh,
            |v| {
                let p = mul_mv(&m, v4(mesh.element(v, 0)));
                let col = mesh
                    .element(v, 1)
                    .iter()
                    .zip(COLOR_SCALE)
                    .map(|(c, s)| c / 255.0 * s);
                (p, col.collect())
            },
            |a| Some([a[0], a[1], a[2], a[3]]),
            x,
            y,
        )
    }
    Entry {
        file: "vs_single_wvp.fx",
        concern: "single WorldViewProj with mul(M, v)",
        techniques: vec![technique(
            "BasicColorDrawing",
            vec![vs_ps_pass("P0", vec![])],
        )],
        parameters: vec![p_mat("WorldViewProj", 4, 4), p_vec("ColorScale", 4)],
        render: render(
            "BasicColorDrawing",
            vec![
                ("WorldViewProj", mat4(&transpose(&sheared_to_pixels()))),
                ("ColorScale", vector(&COLOR_SCALE)),
            ],
            vec![],
            color_mesh(),
            Check::reference(reference),
        ),
    }
}

// ---- basic_lighting ----

fn lit_world() -> Mat4 {
    mat_mul(
        &mat_mul(&scale(20.0, 16.0, 18.0), &rotate_z90()),
        &translate(32.0, 30.0, 0.0),
    )
}
const WIT: [f32; 9] = [0.0, 1.0, 0.1, -1.0, 0.0, 0.0, 0.0, 0.2, 1.0];
const LIGHT_DIRS: [[f32; 3]; 3] = [[0.3, -0.5, 0.8], [-0.6, 0.2, 0.7], [0.1, 0.7, 0.5]];
const LIGHT_COLORS: [[f32; 3]; 3] = [[0.5, 0.4, 0.3], [0.2, 0.3, 0.5], [0.25, 0.2, 0.1]];
const EYE: [f32; 3] = [32.0, 20.0, -60.0];
const SPEC_POWER: f32 = 8.0;
const SPEC_COLOR: [f32; 3] = [0.6, 0.5, 0.4];
const DIFFUSE: [f32; 4] = [0.8, 0.9, 0.7, 0.9];
const AMBIENT: [f32; 3] = [0.1, 0.15, 0.2];
const NORMALS: [[f32; 3]; 4] = [
    [0.2, 0.1, -1.0],
    [-0.3, 0.2, -1.0],
    [0.1, -0.4, -1.0],
    [0.0, 0.0, -1.0],
];
const LIT_TEX: TextureSpec = TextureSpec::d2(8, 8, 22);

fn lit_mesh() -> Mesh {
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::Normal, 0, ElementFormat::Vector3),
            el(U::TextureCoordinate, 0, ElementFormat::Vector2),
        ],
        vertices: (0..4)
            .map(|i| [&CORNERS[i][0..3], &NORMALS[i][..], &CORNERS[i][3..5]].concat())
            .collect(),
        indices: QUAD_INDICES.to_vec(),
    }
}

/// VSLit on the CPU: (clip position, [diffuse rgba, specular rgb, uv]).
fn vs_lit(mesh: &Mesh, v: usize) -> ([f32; 4], Vec<f32>) {
    let world = lit_world();
    let wvp = mat_mul(&world, &pixel_ortho(W, H));
    let pos = v4(mesh.element(v, 0));
    let wp = mul_vm(pos, &world);
    let n_in = mesh.element(v, 1);
    let n = normalize3([0, 1, 2].map(|j| (0..3).map(|i| n_in[i] * WIT[i * 3 + j]).sum::<f32>()));
    let eye = normalize3([EYE[0] - wp[0], EYE[1] - wp[1], EYE[2] - wp[2]]);
    let mut diffuse = AMBIENT;
    let mut spec = [0.0f32; 3];
    for k in 0..3 {
        let l = LIGHT_DIRS[k].map(|c| -c);
        let ndl = dot3(n, l).clamp(0.0, 1.0);
        let h = normalize3([eye[0] + l[0], eye[1] + l[1], eye[2] + l[2]]);
        let ndh = dot3(n, h).clamp(0.0, 1.0);
        let p = ndh.max(0.0001).powf(SPEC_POWER);
        for c in 0..3 {
            diffuse[c] += LIGHT_COLORS[k][c] * ndl;
            spec[c] += LIGHT_COLORS[k][c] * p * ndl;
        }
    }
    let uv = mesh.element(v, 2);
    let out = vec![
        diffuse[0] * DIFFUSE[0],
        diffuse[1] * DIFFUSE[1],
        diffuse[2] * DIFFUSE[2],
        DIFFUSE[3],
        spec[0] * SPEC_COLOR[0],
        spec[1] * SPEC_COLOR[1],
        spec[2] * SPEC_COLOR[2],
        uv[0],
        uv[1],
    ];
    (mul_vm(pos, &wvp), out)
}

fn basic_lighting() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = lit_mesh();
        mesh_pixel(
            &mesh,
            |v| vs_lit(&mesh, v),
            |a| {
                // The lit colours stay inside 0..1, so D3D9's varying saturation and GL's
                // unclamped varyings agree.
                let t = LIT_TEX.sample_2d(0, a[7], a[8], C, C)?;
                let c = [0, 1, 2, 3].map(|i| t[i] * a[i]);
                Some([
                    c[0] + a[4] * c[3],
                    c[1] + a[5] * c[3],
                    c[2] + a[6] * c[3],
                    c[3],
                ])
            },
            x,
            y,
        )
    }
    let tex =
        || vec![sampler(0, ST::Sampler2D, "Texture").baked(point_state(TA::Clamp, TA::Clamp))];
    let dirs: Vec<f32> = LIGHT_DIRS.concat();
    let colors: Vec<f32> = LIGHT_COLORS.concat();
    Entry {
        file: "basic_lighting.fx",
        concern: "BasicEffect-like lighting: matrices, float3x3, float3[3] arrays, shared VS",
        techniques: vec![
            technique("BasicEffect_Texture", vec![vs_ps_pass("P0", tex())]),
            technique("BasicEffect_NoTexture", vec![vs_ps_pass("P0", vec![])]),
            technique("BasicEffect_NoSpecular", vec![vs_ps_pass("P0", tex())]),
        ],
        parameters: vec![
            p_mat("World", 4, 4),
            p_mat("WorldViewProj", 4, 4),
            p_mat("WorldInverseTranspose", 3, 3),
            p_vec("DirLightDirection", 3).array(3),
            p_vec("DirLightDiffuseColor", 3).array(3),
            p_vec("EyePosition", 3),
            p_float("SpecularPower"),
            p_vec("SpecularColor", 3),
            p_vec("DiffuseColor", 4),
            p_vec("AmbientColor", 3),
            p_tex2d("Texture"),
        ],
        render: render(
            "BasicEffect_Texture",
            vec![
                ("World", mat4(&lit_world())),
                (
                    "WorldViewProj",
                    mat4(&mat_mul(&lit_world(), &pixel_ortho(W, H))),
                ),
                ("WorldInverseTranspose", matrix(3, 3, &WIT)),
                (
                    "DirLightDirection",
                    Value {
                        rows: 1,
                        columns: 3,
                        hlsl: dirs,
                    },
                ),
                (
                    "DirLightDiffuseColor",
                    Value {
                        rows: 1,
                        columns: 3,
                        hlsl: colors,
                    },
                ),
                ("EyePosition", vector(&EYE)),
                ("SpecularPower", scalar(SPEC_POWER)),
                ("SpecularColor", vector(&SPEC_COLOR)),
                ("DiffuseColor", vector(&DIFFUSE)),
                ("AmbientColor", vector(&AMBIENT)),
            ],
            vec![("Texture", LIT_TEX)],
            lit_mesh(),
            Check::reference(reference),
        ),
    }
}

// ---- skinned_bones ----

fn bone(i: usize) -> Mat4 {
    let f = i as f32;
    [
        [1.0 + 0.02 * f, 0.01 * f, 0.0, 0.0],
        [-0.01 * f, 1.0 - 0.01 * f, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.7 * f - 5.0, 3.0 - 0.4 * f, 0.0, 1.0],
    ]
}
fn skin_view_proj() -> Mat4 {
    mat_mul(&translate(32.0, 32.0, 0.0), &pixel_ortho(W, H))
}
const BONE_PAIRS: [[f32; 2]; 4] = [[3.0, 7.0], [12.0, 15.0], [5.0, 9.0], [1.0, 14.0]];
const BONE_TINT: [f32; 4] = [1.0, 0.8, 0.9, 0.95];

fn skinned_mesh() -> Mesh {
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::BlendIndices, 0, ElementFormat::Byte4),
            el(U::BlendWeight, 0, ElementFormat::Vector4),
            el(U::Color, 0, ElementFormat::Color),
        ],
        vertices: (0..4)
            .map(|i| {
                let c = CORNERS[i];
                let pos = [c[0] * 14.0, -c[1] * 12.0, 0.0];
                let [a, b] = BONE_PAIRS[i];
                [
                    &pos[..],
                    &[a, b, 0.0, 0.0],
                    &[0.75, 0.25, 0.0, 0.0],
                    &CORNER_COLORS[i][..],
                ]
                .concat()
            })
            .collect(),
        indices: QUAD_INDICES.to_vec(),
    }
}

fn skinned_bones() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = skinned_mesh();
        let vp = skin_view_proj();
        mesh_pixel(
            &mesh,
            |v| {
                let idx = mesh.element(v, 1);
                let wts = mesh.element(v, 2);
                let mut skin = [[0.0f32; 4]; 4];
                for k in 0..2 {
                    let b = bone(idx[k] as usize);
                    for (r, row) in skin.iter_mut().enumerate() {
                        for (c, s) in row.iter_mut().enumerate() {
                            *s += b[r][c] * wts[k];
                        }
                    }
                }
                let p = mul_vm(mul_vm(v4(mesh.element(v, 0)), &skin), &vp);
                let col = mesh
                    .element(v, 3)
                    .iter()
                    .zip(BONE_TINT)
                    .map(|(c, t)| c / 255.0 * t);
                (p, col.collect())
            },
            |a| Some([a[0], a[1], a[2], a[3]]),
            x,
            y,
        )
    }
    let bones: Vec<f32> = (0..16).flat_map(|i| bone(i).concat()).collect();
    Entry {
        file: "skinned_bones.fx",
        concern: "float4x4 Bones[16] indexed by BLENDINDICES0",
        techniques: vec![technique("SkinnedEffect", vec![vs_ps_pass("", vec![])])],
        parameters: vec![
            p_mat("Bones", 4, 4).array(16),
            p_mat("ViewProj", 4, 4),
            p_vec("BoneTint", 4),
        ],
        render: render(
            "SkinnedEffect",
            vec![
                (
                    "Bones",
                    Value {
                        rows: 4,
                        columns: 4,
                        hlsl: bones,
                    },
                ),
                ("ViewProj", mat4(&skin_view_proj())),
                ("BoneTint", vector(&BONE_TINT)),
            ],
            vec![],
            skinned_mesh(),
            Check::reference(reference),
        ),
    }
}

// ---- cbuffer_shared ----

const SHARED_TINT: [f32; 4] = [0.5, 0.3, 0.6, 0.85];
const FADE: f32 = 0.4;

fn uv_mesh() -> Mesh {
    Mesh {
        elements: vec![
            el(U::Position, 0, ElementFormat::Vector3),
            el(U::TextureCoordinate, 0, ElementFormat::Vector2),
        ],
        vertices: (0..4).map(|i| CORNERS[i].to_vec()).collect(),
        indices: QUAD_INDICES.to_vec(),
    }
}

fn shared_transform() -> Mat4 {
    let model = mat_mul(&scale(22.0, 18.0, 1.0), &rotate_z90());
    mat_mul(
        &model,
        &mat_mul(&translate(33.0, 31.0, 0.0), &pixel_ortho(W, H)),
    )
}

fn cbuffer_shared() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = uv_mesh();
        let m = shared_transform();
        mesh_pixel(
            &mesh,
            |v| {
                let uv = mesh.element(v, 1);
                (
                    mul_vm(v4(mesh.element(v, 0)), &m),
                    vec![uv[0], uv[1], 1.0 - FADE * uv[0]],
                )
            },
            |a| {
                let t = SHARED_TINT;
                Some([
                    t[0] * a[2] + a[0] * FADE,
                    t[1] * a[2] + a[1] * FADE,
                    t[2] * a[2],
                    t[3],
                ])
            },
            x,
            y,
        )
    }
    Entry {
        file: "cbuffer_shared.fx",
        concern: "one cbuffer read by VS and PS",
        techniques: vec![technique("Shared", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![p_mat("Transform", 4, 4), p_vec("Tint", 4), p_float("Fade")],
        render: render(
            "Shared",
            vec![
                ("Transform", mat4(&shared_transform())),
                ("Tint", vector(&SHARED_TINT)),
                ("Fade", scalar(FADE)),
            ],
            vec![],
            uv_mesh(),
            Check::reference(reference),
        ),
    }
}

// ---- macros_technique ----

const MACRO_DIFFUSE: [f32; 4] = [0.9, 0.8, 1.0, 1.0];
const OVERLAY_AMOUNT: f32 = 0.4;
const MACRO_TEX: TextureSpec = TextureSpec::d2(8, 8, 15);
const OVERLAY_TEX: TextureSpec = TextureSpec::d2(8, 8, 16);

fn macro_wvp() -> Mat4 {
    // Negative x scale mirrors the quad: a wrong winding or matrix layout shows.
    mat_mul(
        &mat_mul(&scale(-20.0, 24.0, 1.0), &translate(31.0, 33.0, 0.0)),
        &pixel_ortho(W, H),
    )
}

fn macros_technique() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = uv_mesh();
        let m = macro_wvp();
        mesh_pixel(
            &mesh,
            |v| {
                (
                    mul_vm(v4(mesh.element(v, 0)), &m),
                    mesh.element(v, 1).to_vec(),
                )
            },
            |a| {
                let b = MACRO_TEX.sample_2d(0, a[0], a[1], C, C)?;
                let o = OVERLAY_TEX.sample_2d(0, a[0], a[1], C, C)?;
                Some([0, 1, 2, 3].map(|i| lerp(b[i], o[i], OVERLAY_AMOUNT) * MACRO_DIFFUSE[i]))
            },
            x,
            y,
        )
    }
    Entry {
        file: "macros_technique.fx",
        concern: "TECHNIQUE/DECLARE_TEXTURE/_vs/_ps macros from a local header",
        techniques: vec![
            technique(
                "Basic",
                vec![vs_ps_pass("", vec![sampler(0, ST::Sampler2D, "Texture")])],
            ),
            technique(
                "Overlayed",
                vec![vs_ps_pass(
                    "",
                    vec![
                        sampler(0, ST::Sampler2D, "Texture"),
                        sampler(1, ST::Sampler2D, "Overlay"),
                    ],
                )],
            ),
        ],
        parameters: vec![
            p_vec("DiffuseColor", 4),
            p_float("OverlayAmount"),
            p_mat("WorldViewProj", 4, 4),
            p_tex2d("Texture"),
            p_tex2d("Overlay"),
        ],
        render: render(
            "Overlayed",
            vec![
                ("DiffuseColor", vector(&MACRO_DIFFUSE)),
                ("OverlayAmount", scalar(OVERLAY_AMOUNT)),
                ("WorldViewProj", mat4(&macro_wvp())),
            ],
            vec![("Texture", MACRO_TEX), ("Overlay", OVERLAY_TEX)],
            uv_mesh(),
            Check::reference(reference),
        ),
    }
}

// ---- vface_two_sided ----

const FRONT_COLOR: [f32; 4] = [0.9, 0.5, 0.2, 1.0];
const BACK_COLOR: [f32; 4] = [0.2, 0.6, 0.9, 1.0];

/// Two quads side by side; the right one is mirrored in x, which reverses its winding.
fn two_sided_mesh() -> Mesh {
    let mut mesh = uv_mesh();
    mesh.vertices = (0..8)
        .map(|i| {
            let c = CORNERS[i % 4];
            let x = if i < 4 {
                c[0] * 0.8 - 1.0
            } else {
                1.0 - c[0] * 0.8
            };
            vec![x, c[1], 0.0, c[3], c[4]]
        })
        .collect();
    mesh.indices = vec![0, 1, 2, 2, 1, 3, 4, 5, 6, 6, 5, 7];
    mesh
}

fn two_sided_wvp() -> Mat4 {
    mat_mul(
        &mat_mul(&scale(12.0, 20.0, 1.0), &translate(32.0, 32.0, 0.0)),
        &pixel_ortho(W, H),
    )
}

/// The two quads as MonoGame's GL runtime draws them: `VFACE` is `gl_FrontFacing`, so which quad
/// counts as front depends on the orientation; see [`gl_front_facing`]. (The left quad runs
/// clockwise on screen: D3D's front face.)
fn two_sided(o: Orientation, x: u32, y: u32) -> Option<[f32; 4]> {
    let mesh = two_sided_mesh();
    let wvp = two_sided_wvp();
    mesh_pixel_faced(
        &mesh,
        |v| {
            let p = mul_vm(v4(mesh.element(v, 0)), &wvp);
            (p, mesh.element(v, 1).to_vec())
        },
        |a, clockwise| {
            let c = if gl_front_facing(clockwise, o) {
                FRONT_COLOR
            } else {
                BACK_COLOR
            };
            Some([c[0] * a[0], c[1] * a[1], c[2], c[3]])
        },
        x,
        y,
    )
}

fn vface_two_sided() -> Entry {
    fn backbuffer(x: u32, y: u32) -> Option<[f32; 4]> {
        two_sided(Orientation::Backbuffer, x, y)
    }
    fn render_target(x: u32, y: u32) -> Option<[f32; 4]> {
        two_sided(Orientation::RenderTarget, x, y)
    }
    let full = |parameter, changed| Sensitivity {
        parameter,
        changed,
        region: [0, 0, 64, 64],
        min_fraction: 0.05,
    };
    Entry {
        file: "vface_two_sided.fx",
        concern: "VFACE front/back colours",
        techniques: vec![technique(
            "TwoSided",
            vec![PassSpec {
                rasterizer: Some(RasterizerState {
                    cull_mode: shadowdusk::mgfx::CullMode::None,
                    ..RasterizerState::default()
                }),
                ..vs_ps_pass("P0", vec![])
            }],
        )],
        parameters: vec![
            p_mat("WorldViewProj", 4, 4),
            p_vec("FrontColor", 4),
            p_vec("BackColor", 4),
        ],
        render: render(
            "TwoSided",
            vec![
                ("WorldViewProj", mat4(&two_sided_wvp())),
                ("FrontColor", vector(&FRONT_COLOR)),
                ("BackColor", vector(&BACK_COLOR)),
            ],
            vec![],
            two_sided_mesh(),
            Check::per_orientation(backbuffer, render_target).with_sensitivities(vec![
                full("FrontColor", vector(&[0.3, 1.0, 0.3, 1.0])),
                full("BackColor", vector(&[1.0, 1.0, 0.2, 1.0])),
            ]),
        ),
    }
}
