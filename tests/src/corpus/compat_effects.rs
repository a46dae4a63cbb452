//! Table entries of the `compat_*` effects: constructs real MonoGame/XNA projects write that
//! mgfxc compiles for OpenGL (fxc warnings, D3D9/D3D10 declaration mixes, sampler parameters,
//! Windows habits). Each has a CPU reference of its maths.

use super::math::{dot3, frag_coord, lerp, mat_mul, mesh_pixel, pixel_ortho, sprite_pixel};
use super::textures::{Address, TextureSpec};
use super::*;
use crate::Orientation;
use shadowdusk::mgfx::{
    Blend, BlendFunction, CullMode, SamplerType as ST, TextureAddressMode as TA, TextureFilter,
    VertexElementUsage as U,
};

pub(super) const RECT: [f32; 4] = [8.0, 8.0, 48.0, 48.0];
const WHITE: [u8; 4] = [255, 255, 255, 255];
const WARM: [u8; 4] = [255, 204, 153, 255];
const TEX8: TextureSpec = TextureSpec::d2(8, 8, 31);
const OVERLAY: TextureSpec = TextureSpec::d2(8, 8, 32);
const C: Address = Address::Clamp;

pub(super) fn sample(t: &TextureSpec, uv: [f32; 2]) -> Option<[f32; 4]> {
    t.sample_2d(0, uv[0], uv[1], C, C)
}

fn luma(c: [f32; 4]) -> f32 {
    dot3([c[0], c[1], c[2]], [0.3, 0.59, 0.11])
}

pub(super) fn map4(f: impl Fn(usize) -> f32) -> [f32; 4] {
    [f(0), f(1), f(2), f(3)]
}

/// Point filtering, clamped, no mips: the baked state of `MipFilter = None` samplers.
pub(super) fn point_clamp_no_mips() -> SamplerState {
    SamplerState {
        address_u: TA::Clamp,
        address_v: TA::Clamp,
        filter: TextureFilter::Point,
        mip_lod_bias: -16.0,
        max_mip_level: 0,
        ..SamplerState::default()
    }
}

/// A pixel-shader-only effect drawn as one SpriteBatch quad.
#[allow(clippy::too_many_arguments)]
pub(super) fn sprite_entry(
    file: &'static str,
    concern: &'static str,
    techniques: Vec<TechniqueSpec>,
    parameters: Vec<ParamSpec>,
    values: Vec<(&'static str, Value)>,
    textures: Vec<(&'static str, TextureSpec)>,
    color: [u8; 4],
    check: Check,
) -> Entry {
    let technique = techniques[0].name;
    Entry {
        file,
        concern,
        techniques,
        parameters,
        render: Render {
            technique,
            values,
            textures,
            geometry: Geometry::Sprite { rect: RECT, color },
            render_targets: 1,
            check,
        },
    }
}

fn one_pass(
    name: &'static str,
    pass: &'static str,
    samplers: Vec<SamplerSpec>,
) -> Vec<TechniqueSpec> {
    vec![technique(name, vec![ps_pass(pass, samplers)])]
}

fn s0() -> Vec<SamplerSpec> {
    vec![sampler(0, ST::Sampler2D, "s0")]
}

pub(super) fn entries() -> Vec<Entry> {
    vec![
        warn_truncation(),
        warn_shadowing(),
        warn_vertex_truncation(),
        decl_matrix_vector(),
        decl_half(),
        decl_static_const_blur(),
        decl_semantics(),
        decl_struct_method(),
        decl_global_write(),
        decl_duplicate_technique(),
        smp_samplerstate_tex2d(),
        smp_param_chain(),
        smp_noise3d(),
        smp_palette1d(),
        smp_helper_two_samplers(),
        smp_texture_param(),
        sem_vpos_position(),
        sem_sv_position_input(),
        sem_lowercase(),
        sem_instancing(),
        mat_truncated_mul(),
        state_objects(),
        decl_state_params(),
        reg_explicit(),
        smp_state_block(),
        decl_qualifiers(),
        sem_array_varyings(),
        mat_float4x3_uniforms(),
        mat_skinning(),
        mat_shapes(),
        mat_locals(),
        mat_rows(),
        decl_array_whole(),
        pp_include_case(),
    ]
}

// ---- fxc warnings ------------------------------------------------------------------------------

const DESAT: f32 = 0.7;
const BRIGHT: f32 = 1.2;

fn warn_truncation() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, tint| {
                let c = sample(&TEX8, uv)?;
                let g = luma(c);
                Some(map4(|i| {
                    let v = if i < 3 {
                        lerp(c[i], g, DESAT) * BRIGHT
                    } else {
                        c[3]
                    };
                    v * tint[i]
                }))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_warn_truncation.fx",
        "float3 = tex2D(...) and a float4 returned as float3 (fxc warnings) compile and keep the first components",
        vec![technique(
            "Desaturate",
            vec![ps_pass("Pass1", vec![sampler(0, ST::Sampler2D, "TextureSampler")])],
        )],
        vec![
            p_float("Desaturation").with_default(&[0.5]),
            p_float("Brightness").with_default(&[1.0]),
            p_tex2d("TextureSampler"),
        ],
        vec![("Desaturation", scalar(DESAT)), ("Brightness", scalar(BRIGHT))],
        vec![("TextureSampler", TEX8)],
        WARM,
        Check::reference(reference),
    )
}

const TEXEL: [f32; 2] = [1.0 / 8.0, 1.0 / 8.0];
const SPREAD: f32 = 1.0;

fn warn_shadowing() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let mut sum = [0.0f32; 4];
                for (dx, dy) in [
                    (-1.0, 0.0),
                    (0.0, 0.0),
                    (1.0, 0.0),
                    (0.0, -1.0),
                    (0.0, 0.0),
                    (0.0, 1.0),
                ] {
                    let c = sample(
                        &TEX8,
                        [
                            uv[0] + dx * TEXEL[0] * SPREAD,
                            uv[1] + dy * TEXEL[1] * SPREAD,
                        ],
                    )?;
                    for i in 0..4 {
                        sum[i] += c[i];
                    }
                }
                Some(sum.map(|v| v / 6.0))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_warn_shadowing.fx",
        "a loop variable redeclared by a second loop and an unused comparison (fxc warnings) in a blur",
        one_pass("Blur", "P0", s0()),
        vec![
            p_vec("TexelSize", 2),
            p_float("Spread").with_default(&[1.0]),
            p_tex2d("s0"),
        ],
        vec![("TexelSize", vector(&TEXEL)), ("Spread", scalar(SPREAD))],
        vec![("s0", TEX8)],
        WHITE,
        Check::reference(reference),
    )
}

// ---- meshes --------------------------------------------------------------------------------

const W: f32 = TARGET_SIZE.0 as f32;
const H: f32 = TARGET_SIZE.1 as f32;

/// A quad in pixel space (x right, y down) with per-corner colours; positions as Vector3.
fn pixel_quad(corners: [[f32; 2]; 4], colors: [[u8; 4]; 4]) -> Mesh {
    Mesh {
        elements: vec![
            VertexElement {
                usage: U::Position,
                index: 0,
                format: ElementFormat::Vector3,
            },
            VertexElement {
                usage: U::Color,
                index: 0,
                format: ElementFormat::Color,
            },
        ],
        vertices: (0..4)
            .map(|i| {
                let mut v = vec![corners[i][0], corners[i][1], 0.0];
                v.extend(colors[i].iter().map(|&c| f32::from(c)));
                v
            })
            .collect(),
        indices: vec![0, 1, 2, 0, 2, 3],
    }
}

const QUAD: [[f32; 2]; 4] = [[10.0, 12.0], [50.0, 8.0], [54.0, 50.0], [6.0, 44.0]];
const QUAD_COLORS: [[u8; 4]; 4] = [
    [255, 64, 32, 255],
    [32, 255, 64, 255],
    [64, 32, 255, 255],
    [200, 200, 40, 255],
];

/// A non-symmetric world transform in pixel space (shear + translation in the last row).
fn world() -> Mat4 {
    [
        [0.8, 0.1, 0.0, 0.0],
        [-0.15, 0.9, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [6.0, 4.0, 0.0, 1.0],
    ]
}

/// Pixel `(x, y)` of `mesh` (element 1 its colour) moved by `m` (row-vector convention) and
/// coloured by its interpolated vertex colours.
fn vertex_colors(mesh: &Mesh, m: &Mat4, x: u32, y: u32) -> Option<[f32; 4]> {
    mesh_pixel(
        mesh,
        |v| {
            (
                super::mul_vm(position(mesh, v), m),
                mesh.element(v, 1).iter().map(|c| c / 255.0).collect(),
            )
        },
        |a| Some([a[0], a[1], a[2], a[3]]),
        x,
        y,
    )
}

fn position(mesh: &Mesh, v: usize) -> [f32; 4] {
    let p = mesh.element(v, 0);
    [p[0], p[1], p[2], 1.0]
}

const UV_SCALE: f32 = 0.05;

fn warn_vertex_truncation() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = pixel_quad(QUAD, QUAD_COLORS);
        let m = mat_mul(&world(), &pixel_ortho(W, H));
        mesh_pixel(
            &mesh,
            |v| {
                let p = position(&mesh, v);
                let col = mesh.element(v, 1);
                let vary = vec![
                    p[0] * UV_SCALE,
                    p[1] * UV_SCALE,
                    col[0] / 255.0,
                    col[1] / 255.0,
                    col[2] / 255.0,
                ];
                (super::mul_vm(p, &m), vary)
            },
            |a| {
                let f = (a[0] + a[1]).fract();
                Some([a[2] * f, a[3] * f, a[4] * f, 1.0])
            },
            x,
            y,
        )
    }
    Entry {
        file: "compat_warn_vertex_truncation.fx",
        concern: "a vertex shader truncating its float4 position into a float2 uv and a colour into a float3 varying",
        techniques: vec![technique("Main", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![
            p_mat("WorldViewProjection", 4, 4),
            p_float("UVScale").with_default(&[1.0]),
        ],
        render: Render {
            technique: "Main",
            values: vec![
                ("WorldViewProjection", mat4(&mat_mul(&world(), &pixel_ortho(W, H)))),
                ("UVScale", scalar(UV_SCALE)),
            ],
            textures: vec![],
            geometry: Geometry::Mesh(pixel_quad(QUAD, QUAD_COLORS)),
            render_targets: 1,
            check: Check::reference(reference),
        },
    }
}

// ---- declaration forms -------------------------------------------------------------------

const MV_TINT: [f32; 4] = [0.9, 0.6, 0.8, 1.0];
const MV_AMBIENT: [f32; 3] = [0.05, 0.1, 0.15];

fn decl_matrix_vector() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = pixel_quad(QUAD, QUAD_COLORS);
        let (w, vp) = (world(), pixel_ortho(W, H));
        mesh_pixel(
            &mesh,
            |v| {
                let p = super::mul_vm(super::mul_vm(position(&mesh, v), &w), &vp);
                (p, mesh.element(v, 1).iter().map(|c| c / 255.0).collect())
            },
            |a| {
                Some([
                    a[0] * MV_TINT[0] + MV_AMBIENT[0],
                    a[1] * MV_TINT[1] + MV_AMBIENT[1],
                    a[2] * MV_TINT[2] + MV_AMBIENT[2],
                    MV_TINT[3],
                ])
            },
            x,
            y,
        )
    }
    Entry {
        file: "compat_decl_matrix_vector.fx",
        concern: "matrix, matrix<float,4,4>, vector and vector<float,3> uniforms; trailing commas in initializers",
        techniques: vec![technique("Main", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![
            p_mat("World", 4, 4),
            p_mat("ViewProjection", 4, 4),
            p_vec("Tint", 4).with_default(&[1.0, 0.75, 0.5, 1.0]),
            p_vec("Ambient", 3).with_default(&[0.1, 0.2, 0.3]),
        ],
        render: Render {
            technique: "Main",
            values: vec![
                ("World", mat4(&world())),
                ("ViewProjection", mat4(&pixel_ortho(W, H))),
                ("Tint", vector(&MV_TINT)),
                ("Ambient", vector(&MV_AMBIENT)),
            ],
            textures: vec![],
            geometry: Geometry::Mesh(pixel_quad(QUAD, QUAD_COLORS)),
            render_targets: 1,
            check: Check::reference(reference),
        },
    }
}

const HALF_TINT: [f32; 4] = [0.9, 0.7, 1.0, 1.0];
const CONTRAST: f32 = 1.4;
const OFFSET: f32 = 0.05;

fn decl_half() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = sample(&TEX8, uv)?;
                Some(map4(|i| {
                    let v = if i < 3 {
                        ((c[i] - 0.5) * CONTRAST + 0.5 + OFFSET).clamp(0.0, 1.0)
                    } else {
                        c[3]
                    };
                    v * HALF_TINT[i]
                }))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_decl_half.fx",
        "half/half4/min16float uniforms and locals",
        one_pass("Contrast", "P0", s0()),
        vec![
            p_vec("Tint", 4).with_default(&[1.0, 0.8, 0.6, 1.0]),
            p_float("Contrast").with_default(&[1.5]),
            p_float("Offset").with_default(&[0.1]),
            p_tex2d("s0"),
        ],
        vec![
            ("Tint", vector(&HALF_TINT)),
            ("Contrast", scalar(CONTRAST)),
            ("Offset", scalar(OFFSET)),
        ],
        vec![("s0", TEX8)],
        WHITE,
        Check::reference(reference),
    )
}

const BLUR_WEIGHTS: [f32; 5] = [0.1, 0.2, 0.4, 0.2, 0.1];
const BLUR_OFFSETS: [f32; 10] = [-0.25, 0.0, -0.125, 0.0, 0.0, 0.0, 0.125, 0.0, 0.25, 0.0];

fn decl_static_const_blur() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let mut c = [0.0f32; 4];
                for (k, w) in BLUR_WEIGHTS.iter().enumerate() {
                    let s = sample(
                        &TEX8,
                        [uv[0] + BLUR_OFFSETS[2 * k], uv[1] + BLUR_OFFSETS[2 * k + 1]],
                    )?;
                    for i in 0..4 {
                        c[i] += s[i] * w;
                    }
                }
                Some(c)
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_decl_static_const_blur.fx",
        "array sizes from static const int expressions; a weight list with a trailing comma",
        one_pass("GaussianBlur", "Pass1", s0()),
        vec![
            p_float("SampleWeights")
                .array(5)
                .with_default(&BLUR_WEIGHTS),
            p_vec("SampleOffsets", 2).array(5),
            p_tex2d("s0"),
        ],
        vec![(
            "SampleOffsets",
            Value {
                rows: 1,
                columns: 2,
                hlsl: BLUR_OFFSETS.to_vec(),
            },
        )],
        vec![("s0", TEX8)],
        WHITE,
        Check::reference(reference),
    )
}

const LIGHT_DIR: [f32; 3] = [0.3, -0.2, -0.9];
const LIGHT_COLOR: [f32; 4] = [1.0, 0.8, 0.6, 1.0];
const AMBIENT_LEVEL: f32 = 0.15;

fn decl_semantics() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, col| {
                let t = sample(&TEX8, uv)?;
                let n = [t[0] * 2.0 - 1.0, t[1] * 2.0 - 1.0, t[2] * 2.0 - 1.0];
                let l = dot3(n, LIGHT_DIR.map(|v| -v)).clamp(0.0, 1.0) + AMBIENT_LEVEL;
                Some(map4(|i| {
                    if i < 3 {
                        LIGHT_COLOR[i] * l * col[i]
                    } else {
                        col[3]
                    }
                }))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_decl_semantics.fx",
        "semantics on uniforms (Direction, Diffuse, Ambient) and on a texture (Normal)",
        one_pass(
            "NormalMapped",
            "P0",
            vec![sampler(0, ST::Sampler2D, "NormalMap").baked(point_clamp_no_mips())],
        ),
        vec![
            p_vec("LightDirection", 3).with_default(&[0.0, 0.0, -1.0]),
            p_vec("LightColor", 4).with_default(&[1.0, 0.9, 0.8, 1.0]),
            p_float("AmbientLevel").with_default(&[0.2]),
            p_tex2d("NormalMap"),
        ],
        vec![
            ("LightDirection", vector(&LIGHT_DIR)),
            ("LightColor", vector(&LIGHT_COLOR)),
            ("AmbientLevel", scalar(AMBIENT_LEVEL)),
        ],
        vec![("NormalMap", TEX8)],
        WARM,
        Check::reference(reference),
    )
}

const SHADOW: [f32; 4] = [0.2, 0.1, 0.4, 1.0];
const HIGHLIGHT: [f32; 4] = [1.0, 0.85, 0.6, 1.0];
const THRESHOLD: f32 = 0.45;

fn decl_struct_method() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = sample(&TEX8, uv)?;
                let l = luma(c);
                // A level within 0.5/255 of the split is decided by rounding: skip it.
                if (l - THRESHOLD).abs() < 0.002 {
                    return None;
                }
                let shade = if l < THRESHOLD { SHADOW } else { HIGHLIGHT };
                Some(shade.map(|v| v * c[3]))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_decl_struct_method.fx",
        "a struct with a member function reading its fields through this.",
        one_pass("Toon", "P0", s0()),
        vec![
            p_vec("Shadow", 4).with_default(&[0.1, 0.1, 0.2, 1.0]),
            p_vec("Highlight", 4).with_default(&[1.0, 0.9, 0.7, 1.0]),
            p_float("Threshold").with_default(&[0.5]),
            p_tex2d("s0"),
        ],
        vec![
            ("Shadow", vector(&SHADOW)),
            ("Highlight", vector(&HIGHLIGHT)),
            ("Threshold", scalar(THRESHOLD)),
        ],
        vec![("s0", TEX8)],
        WHITE,
        Check::reference(reference),
    )
}

const INTENSITY: f32 = 1.2;
const FADE: f32 = 0.6;
const FLASH_TINT: [f32; 4] = [0.8, 0.6, 0.4, 1.0];

fn decl_global_write() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = sample(&TEX8, uv)?;
                let intensity = (INTENSITY * 0.5).clamp(0.0, 1.0);
                let tint = [
                    FLASH_TINT[0] + intensity * 0.25,
                    FLASH_TINT[1] + intensity * 0.25,
                    FLASH_TINT[2] + intensity * 0.25,
                    FLASH_TINT[3] * FADE,
                ];
                Some(map4(|i| c[i] * tint[i]))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_decl_global_write.fx",
        "shader code assigning to its uniforms works on per-invocation copies; the parameters keep their defaults",
        one_pass("Flash", "P0", s0()),
        vec![
            p_float("Intensity").with_default(&[2.0]),
            p_float("Fade").with_default(&[0.5]),
            p_vec("Tint", 4).with_default(&[1.0, 1.0, 1.0, 1.0]),
            p_tex2d("s0"),
        ],
        vec![
            ("Intensity", scalar(INTENSITY)),
            ("Fade", scalar(FADE)),
            ("Tint", vector(&FLASH_TINT)),
        ],
        vec![("s0", TEX8)],
        WHITE,
        Check::reference(reference),
    )
}

const DUP_TINT: [f32; 4] = [0.9, 0.5, 0.3, 1.0];

/// The sprite's texture times `tint`: what a plain tinting pixel shader draws.
fn tinted_sprite(tint: [f32; 4], x: u32, y: u32) -> Option<[f32; 4]> {
    sprite_pixel(
        RECT,
        WHITE,
        |uv, _| {
            let c = sample(&TEX8, uv)?;
            Some(map4(|i| c[i] * tint[i]))
        },
        x,
        y,
    )
}

fn decl_duplicate_technique() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        tinted_sprite(DUP_TINT, x, y)
    }
    sprite_entry(
        "compat_decl_duplicate_technique.fx",
        "two techniques named Sprite are both kept, in order; the name finds the first",
        vec![
            technique("Sprite", vec![ps_pass("P0", s0())]),
            technique("Sprite", vec![ps_pass("P0", s0())]),
        ],
        vec![
            p_vec("Tint", 4).with_default(&[1.0, 0.5, 0.5, 1.0]),
            p_tex2d("s0"),
        ],
        vec![("Tint", vector(&DUP_TINT))],
        vec![("s0", TEX8)],
        WHITE,
        Check::reference(reference),
    )
}

// ---- samplers ------------------------------------------------------------------------------

const ROW_HEIGHT: f32 = 8.0;
const SHIFT: f32 = 6.0;
const SCREEN: [f32; 2] = [48.0, 48.0];

fn glitch_hash(p: f32) -> f32 {
    ((p * 12.9898).sin() * 43758.547).fract()
}

fn smp_samplerstate_tex2d() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let row = (uv[1] * SCREEN[1] / ROW_HEIGHT).floor();
                let h = glitch_hash(row);
                // sin() of large arguments differs between drivers in the last bits; rows whose
                // hash is near the 0.5 split are left out.
                if (h - 0.5).abs() < 0.01 {
                    return None;
                }
                let shift = if h > 0.5 { 1.0 } else { -1.0 } * SHIFT / SCREEN[0];
                sample(&TEX8, [uv[0] + shift, uv[1]])
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_smp_samplerstate_tex2d.fx",
        "SamplerState named Texture read with tex2D (D3D10 declaration, D3D9 intrinsic)",
        one_pass(
            "SpriteDrawing",
            "P0",
            vec![sampler(0, ST::Sampler2D, "Texture")],
        ),
        vec![
            p_float("RowHeight").with_default(&[8.0]),
            p_float("ShiftPixels").with_default(&[4.0]),
            p_vec("ScreenSize", 2),
            p_tex2d("Texture"),
        ],
        vec![
            ("RowHeight", scalar(ROW_HEIGHT)),
            ("ShiftPixels", scalar(SHIFT)),
            ("ScreenSize", vector(&SCREEN)),
        ],
        vec![("Texture", TEX8)],
        WHITE,
        Check::reference(reference).with_sensitivities(vec![Sensitivity {
            parameter: "ShiftPixels",
            changed: scalar(0.0),
            region: [8, 8, 48, 48],
            min_fraction: 0.1,
        }]),
    )
}

const INV_VIEWPORT: [f32; 2] = [1.0 / 8.0, 1.0 / 8.0];
const SHARPNESS: f32 = 0.6;

fn smp_param_chain() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let top = sample(&TEX8, uv)?;
                let n = sample(&TEX8, [uv[0], uv[1] - INV_VIEWPORT[1]])?;
                let s = sample(&TEX8, [uv[0], uv[1] + INV_VIEWPORT[1]])?;
                Some(map4(|i| lerp(top[i], (n[i] + s[i]) * 0.5, SHARPNESS)))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_smp_param_chain.fx",
        "FXAA-style FxaaTex sampler parameters passed down three calls to tex2Dlod",
        one_pass(
            "FXAA",
            "P0",
            vec![sampler(0, ST::Sampler2D, "ScreenTexture").baked(point_clamp_no_mips())],
        ),
        vec![
            p_vec("InverseViewportSize", 2),
            p_float("EdgeSharpness").with_default(&[0.5]),
            p_tex2d("ScreenTexture"),
        ],
        vec![
            ("InverseViewportSize", vector(&INV_VIEWPORT)),
            ("EdgeSharpness", scalar(SHARPNESS)),
        ],
        vec![("ScreenTexture", TEX8)],
        WHITE,
        Check::reference(reference),
    )
}

const NOISE: TextureSpec = TextureSpec::D3 { size: 4 };
const NOISE_DEPTH: f32 = 0.6;
const NOISE_AMOUNT: f32 = 0.7;

fn smp_noise3d() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = sample(&TEX8, uv)?;
                let g = NOISE.sample_3d([uv[0], uv[1], NOISE_DEPTH])?[0];
                Some(map4(|i| {
                    if i < 3 {
                        lerp(c[i], c[i] * g, NOISE_AMOUNT)
                    } else {
                        c[3]
                    }
                }))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_smp_noise3d.fx",
        "a noise helper taking uniform sampler3D, called with a plain sampler",
        one_pass(
            "Grain",
            "P0",
            vec![
                sampler(0, ST::Sampler2D, "s0"),
                sampler(1, ST::SamplerVolume, "NoiseVolume"),
            ],
        ),
        vec![
            p_float("NoiseDepth").with_default(&[0.5]),
            p_float("NoiseAmount").with_default(&[0.5]),
            p_tex2d("s0"),
            p_tex("NoiseVolume", ParameterType::Texture3D),
        ],
        vec![
            ("NoiseDepth", scalar(NOISE_DEPTH)),
            ("NoiseAmount", scalar(NOISE_AMOUNT)),
        ],
        vec![("s0", TEX8), ("NoiseVolume", NOISE)],
        WHITE,
        Check::reference(reference),
    )
}

const PALETTE: TextureSpec = TextureSpec::d2(8, 1, 33);
const PALETTE_SHIFT: f32 = 0.3;

fn smp_palette1d() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, col| {
                let index = sample(&TEX8, uv)?[0];
                let at = (index + PALETTE_SHIFT).fract();
                let p = PALETTE.sample_2d(0, at, at, C, C)?;
                Some(map4(|i| p[i] * col[i]))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_smp_palette1d.fx",
        "texture1D + sampler1D + tex1D palette swap, bound as a 2D sampler sampled at (x, x)",
        one_pass(
            "PaletteSwap",
            "P0",
            vec![
                sampler(0, ST::Sampler2D, "s0"),
                sampler(1, ST::Sampler2D, "Palette"),
            ],
        ),
        vec![
            p_float("PaletteShift").with_default(&[0.0]),
            p_tex2d("s0"),
            // Bound as 2D, as MonoGame's GL runtime binds it.
            p_tex2d("Palette"),
        ],
        vec![("PaletteShift", scalar(PALETTE_SHIFT))],
        vec![("s0", TEX8), ("Palette", PALETTE)],
        WARM,
        Check::reference(reference),
    )
}

const OVERLAY_AMOUNT: f32 = 0.8;

fn smp_helper_two_samplers() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let b = sample(&TEX8, uv)?;
                let o = sample(&OVERLAY, uv)?;
                Some(map4(|i| lerp(b[i], b[i] * o[i], OVERLAY_AMOUNT)))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_smp_helper_two_samplers.fx",
        "one sampler2D helper called with two different samplers",
        one_pass(
            "Overlay",
            "P0",
            vec![
                sampler(0, ST::Sampler2D, "s0"),
                sampler(1, ST::Sampler2D, "OverlayTexture"),
            ],
        ),
        vec![
            p_float("OverlayAmount").with_default(&[0.5]),
            p_tex2d("s0"),
            p_tex2d("OverlayTexture"),
        ],
        vec![("OverlayAmount", scalar(OVERLAY_AMOUNT))],
        vec![("s0", TEX8), ("OverlayTexture", OVERLAY)],
        WHITE,
        Check::reference(reference),
    )
}

const LAYER_TINT: [f32; 4] = [0.9, 0.6, 0.3, 1.0];

fn smp_texture_param() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        tinted_sprite(LAYER_TINT, x, y)
    }
    sprite_entry(
        "compat_smp_texture_param.fx",
        "effect-style texture types on a helper parameter and a struct member",
        one_pass(
            "Tinted",
            "P0",
            vec![sampler(0, ST::Sampler2D, "BaseTexture")],
        ),
        vec![
            p_vec("Tint", 4).with_default(&[1.0, 1.0, 1.0, 1.0]),
            p_tex2d("BaseTexture"),
        ],
        vec![("Tint", vector(&LAYER_TINT))],
        vec![("BaseTexture", TEX8)],
        WHITE,
        Check::reference(reference),
    )
}

// ---- semantics ---------------------------------------------------------------------------

// On the target's horizontal centre line, so the light reads the same whichever way the
// orientation numbers window rows (see `vpos_checker` for a check that tells them apart).
const LIGHT_SOURCE: [f32; 2] = [30.0, 32.0];
const LIGHT_RGB: [f32; 3] = [1.0, 0.7, 0.4];
const LIGHT_RADIUS: f32 = 30.0;

fn light_at(x: u32, y: u32, o: Orientation) -> Option<[f32; 4]> {
    let mesh = pixel_quad(QUAD, QUAD_COLORS);
    let vp = pixel_ortho(W, H);
    let screen = frag_coord(x, y, o);
    mesh_pixel(
        &mesh,
        |v| (super::mul_vm(position(&mesh, v), &vp), vec![0.0]),
        |_| {
            let d = ((LIGHT_SOURCE[0] - screen[0]).powi(2) + (LIGHT_SOURCE[1] - screen[1]).powi(2))
                .sqrt();
            let a = (1.0 - d / LIGHT_RADIUS).clamp(0.0, 1.0);
            Some([LIGHT_RGB[0] * a, LIGHT_RGB[1] * a, LIGHT_RGB[2] * a, 1.0])
        },
        x,
        y,
    )
}

fn sem_vpos_position() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        light_at(x, y, Orientation::Backbuffer)
    }
    Entry {
        file: "compat_sem_vpos_position.fx",
        concern:
            "a pixel shader reading the VS output struct (POSITION member) beside a VPOS parameter",
        techniques: vec![technique("Light", vec![vs_ps_pass("Pass1", vec![])])],
        parameters: vec![
            p_vec("LightSource", 2),
            p_vec("LightColor", 3),
            p_float("LightRadius"),
            p_mat("ViewProjection", 4, 4),
        ],
        render: Render {
            technique: "Light",
            values: vec![
                ("LightSource", vector(&LIGHT_SOURCE)),
                ("LightColor", vector(&LIGHT_RGB)),
                ("LightRadius", scalar(LIGHT_RADIUS)),
                ("ViewProjection", mat4(&pixel_ortho(W, H))),
            ],
            textures: vec![],
            geometry: Geometry::Mesh(pixel_quad(QUAD, QUAD_COLORS)),
            render_targets: 1,
            check: Check::reference(reference).with_sensitivities(vec![Sensitivity {
                parameter: "LightSource",
                changed: vector(&[12.0, 32.0]),
                region: [8, 8, 48, 48],
                min_fraction: 0.25,
            }]),
        },
    }
}

fn sem_sv_position_input() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        vertex_colors(
            &pixel_quad(QUAD, QUAD_COLORS),
            &mat_mul(&world(), &pixel_ortho(W, H)),
            x,
            y,
        )
    }
    Entry {
        file: "compat_sem_sv_position_input.fx",
        concern: "SV_POSITION as a vertex-shader input semantic binds MonoGame's Position0",
        techniques: vec![technique("Sprite", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![p_mat("MatrixTransform", 4, 4)],
        render: Render {
            technique: "Sprite",
            values: vec![(
                "MatrixTransform",
                mat4(&mat_mul(&world(), &pixel_ortho(W, H))),
            )],
            textures: vec![],
            geometry: Geometry::Mesh(pixel_quad(QUAD, QUAD_COLORS)),
            render_targets: 1,
            check: Check::reference(reference),
        },
    }
}

/// The quad with the instance's world matrix rows (XNA layout) as TEXCOORD1..4 per vertex.
fn instanced_quad() -> Mesh {
    let mut mesh = pixel_quad(QUAD, QUAD_COLORS);
    let w = world();
    for k in 0..4u8 {
        mesh.elements.push(VertexElement {
            usage: U::TextureCoordinate,
            index: 1 + k,
            format: ElementFormat::Vector4,
        });
    }
    for v in &mut mesh.vertices {
        for row in &w {
            v.extend_from_slice(row);
        }
    }
    mesh
}

fn sem_instancing() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        vertex_colors(
            &instanced_quad(),
            &mat_mul(&world(), &pixel_ortho(W, H)),
            x,
            y,
        )
    }
    Entry {
        file: "compat_sem_instancing.fx",
        concern: "a float4x4 vertex input spanning TEXCOORD1..4 (hardware instancing)",
        techniques: vec![technique(
            "HardwareInstancing",
            vec![vs_ps_pass("Pass1", vec![])],
        )],
        parameters: vec![p_mat("ViewProjection", 4, 4)],
        render: Render {
            technique: "HardwareInstancing",
            values: vec![("ViewProjection", mat4(&pixel_ortho(W, H)))],
            textures: vec![],
            geometry: Geometry::Mesh(instanced_quad()),
            render_targets: 1,
            check: Check::reference(reference),
        },
    }
}

/// A non-symmetric matrix with no zero entries, so a transposed or truncated-wrong read shows.
const LIGHT_WORLD: Mat4 = [
    [0.9, -0.3, 0.2, 0.5],
    [0.4, 0.8, -0.6, -0.7],
    [-0.2, 0.5, 0.7, 0.3],
    [1.5, -2.0, 0.8, 2.5],
];
const NORMALS: [[f32; 3]; 4] = [
    [0.2, 0.4, -0.9],
    [-0.5, 0.3, 0.8],
    [0.7, -0.6, 0.1],
    [0.1, 0.9, -0.3],
];

fn normal_quad() -> Mesh {
    let mut mesh = pixel_quad(QUAD, QUAD_COLORS);
    mesh.elements.truncate(1);
    mesh.elements.push(VertexElement {
        usage: U::Normal,
        index: 0,
        format: ElementFormat::Vector3,
    });
    for (v, n) in mesh.vertices.iter_mut().zip(NORMALS) {
        v.truncate(3);
        v.extend_from_slice(&n);
    }
    mesh
}

fn mat_truncated_mul() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = normal_quad();
        let vp = pixel_ortho(W, H);
        let w = LIGHT_WORLD;
        mesh_pixel(
            &mesh,
            |v| {
                let n = mesh.element(v, 1);
                // mul(n, (float3x4)World): rows 0..2 weighted by n; keep .xyz.
                let a: Vec<f32> = (0..3)
                    .map(|j| (0..3).map(|i| n[i] * w[i][j]).sum())
                    .collect();
                // mul((float4x3)World, n): each row's first three columns dotted with n.
                let b = (0..4).map(|r| (0..3).map(|c| w[r][c] * n[c]).sum::<f32>());
                let mut vary = a;
                vary.extend(b);
                (super::mul_vm(position(&mesh, v), &vp), vary)
            },
            |a| {
                let f = |v: f32, s: f32| (v * s + 0.5).clamp(0.0, 1.0);
                Some([
                    f(a[0], 0.5) * 0.5 + f(a[3], 0.25) * 0.5,
                    f(a[1], 0.5) * 0.5 + f(a[4], 0.25) * 0.5,
                    f(a[2], 0.5) * 0.5 + f(a[5], 0.25) * 0.5,
                    f(a[6], 0.1),
                ])
            },
            x,
            y,
        )
    }
    Entry {
        file: "compat_mat_truncated_mul.fx",
        concern: "mul(float3, float4x4) and mul(float4x4, float3): truncated matrices widened for GLSL 1.10",
        techniques: vec![technique("Main", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![p_mat("World", 4, 4), p_mat("ViewProjection", 4, 4)],
        render: Render {
            technique: "Main",
            values: vec![
                ("World", mat4(&LIGHT_WORLD)),
                ("ViewProjection", mat4(&pixel_ortho(W, H))),
            ],
            textures: vec![],
            geometry: Geometry::Mesh(normal_quad()),
            render_targets: 1,
            check: Check::reference(reference).with_sensitivities(vec![Sensitivity {
                parameter: "World",
                changed: mat4(&super::math::transpose(&LIGHT_WORLD)),
                region: [8, 8, 48, 48],
                min_fraction: 0.5,
            }]),
        },
    }
}

const GAMMA: f32 = 1.8;

fn sem_lowercase() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, col| {
                let c = sample(&TEX8, uv)?;
                Some(map4(|i| {
                    let v = if i < 3 { c[i].powf(1.0 / GAMMA) } else { c[3] };
                    v * col[i]
                }))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_sem_lowercase.fx",
        "lower-case and unindexed semantics (color, texcoord, color0)",
        one_pass(
            "Gamma",
            "P0",
            vec![sampler(0, ST::Sampler2D, "TextureSampler")],
        ),
        vec![
            p_float("Gamma").with_default(&[2.2]),
            p_tex2d("TextureSampler"),
        ],
        vec![("Gamma", scalar(GAMMA))],
        vec![("TextureSampler", TEX8)],
        WARM,
        Check::reference(reference),
    )
}

// ---- preprocessor ------------------------------------------------------------------------

const INCLUDE_TINT: [f32; 4] = [0.6, 0.9, 0.7, 1.0];

fn pp_include_case() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = sample(&TEX8, uv)?;
                Some(map4(|i| c[i] * INCLUDE_TINT[i]))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_pp_include_case.fx",
        "an #include in other letter case than the file on disk, and #if on an undefined function-like macro",
        one_pass("Tinted", "P0", s0()),
        vec![
            p_vec("Tint", 4).with_default(&[0.5, 1.0, 0.75, 1.0]),
            p_tex2d("s0"),
        ],
        vec![("Tint", vector(&INCLUDE_TINT))],
        vec![("s0", TEX8)],
        WHITE,
        Check::reference(reference),
    )
}

// ---- state objects -----------------------------------------------------------------------

const GLOW: [f32; 4] = [0.25, 0.2, 0.15, 0.6];

/// The two-pass glow: the texture times the vertex colour drawn opaque, then `GlowColor` added
/// with its alpha (`AdditiveGlow`).
fn glow_reference(x: u32, y: u32) -> Option<[f32; 4]> {
    sprite_pixel(
        RECT,
        WARM,
        |uv, col| {
            // Base: opaque over the clear colour. Add: colour += GlowColor.rgb * a,
            // alpha = 0 * a + 1 * dst.
            let c = sample(&TEX8, uv)?;
            let base = map4(|i| c[i] * col[i]);
            Some(map4(|i| {
                if i < 3 {
                    base[i] + GLOW[i] * GLOW[3]
                } else {
                    base[3]
                }
            }))
        },
        x,
        y,
    )
}

/// The baked `AdditiveGlow` blend state.
fn additive_glow() -> BlendState {
    BlendState {
        color_source_blend: Blend::SourceAlpha,
        color_destination_blend: Blend::One,
        alpha_source_blend: Blend::Zero,
        alpha_destination_blend: Blend::One,
        color_blend_function: BlendFunction::Add,
        alpha_blend_function: BlendFunction::Add,
        ..BlendState::default()
    }
}

/// The glow's render description.
fn glow_render() -> Render {
    Render {
        technique: "Glow",
        values: vec![("GlowColor", vector(&GLOW))],
        textures: vec![("s0", TEX8)],
        geometry: Geometry::Sprite {
            rect: RECT,
            color: WARM,
        },
        render_targets: 1,
        check: Check::reference(glow_reference).with_sensitivities(vec![Sensitivity {
            parameter: "GlowColor",
            changed: vector(&[0.0, 0.0, 0.0, 0.6]),
            region: [8, 8, 48, 48],
            min_fraction: 0.5,
        }]),
    }
}

fn state_objects() -> Entry {
    let additive = additive_glow();
    let no_depth = DepthStencilState {
        depth_buffer_enable: false,
        depth_buffer_write_enable: false,
        ..DepthStencilState::default()
    };
    let no_cull = RasterizerState {
        cull_mode: CullMode::None,
        ..RasterizerState::default()
    };
    Entry {
        file: "compat_state_objects.fx",
        concern: "global state objects set by SetBlendState/SetDepthStencilState/SetRasterizerState; SetPixelShader(CompileShader(...))",
        techniques: vec![technique(
            "Glow",
            vec![
                PassSpec {
                    blend: Some(BlendState::default()),
                    depth_stencil: Some(no_depth),
                    rasterizer: Some(no_cull),
                    ..ps_pass("Base", s0())
                },
                PassSpec {
                    blend: Some(additive),
                    depth_stencil: Some(no_depth),
                    ..ps_pass("Add", vec![])
                },
            ],
        )],
        parameters: vec![
            p_vec("GlowColor", 4).with_default(&[0.3, 0.2, 0.1, 0.5]),
            p_tex2d("s0"),
        ],
        render: glow_render(),
    }
}

/// The same glow with state and shader objects passed around as function parameters: they
/// leave the functions (fxc compiles nothing for them), so the picture and the parameters are
/// the plain glow's.
fn decl_state_params() -> Entry {
    Entry {
        file: "compat_decl_state_params.fx",
        concern: "state and shader objects as function parameters (helpers, an entry's `uniform BlendState` bound by `compile`, a `VertexShader` entry parameter) and a `BlendState` local",
        techniques: vec![technique(
            "Glow",
            vec![
                PassSpec {
                    blend: Some(BlendState::default()),
                    ..ps_pass("Base", s0())
                },
                PassSpec {
                    blend: Some(additive_glow()),
                    ..ps_pass("Add", vec![])
                },
            ],
        )],
        parameters: vec![
            p_vec("GlowColor", 4).with_default(&[0.3, 0.2, 0.1, 0.5]),
            p_tex2d("s0"),
        ],
        render: glow_render(),
    }
}

// ---- registers ---------------------------------------------------------------------------

const REG_TINT: [f32; 4] = [0.9, 0.8, 0.6, 1.0];
const REG_AMOUNT: f32 = 0.9;
const REG_OFFSET: [f32; 4] = [0.05, 0.1, 0.0, 0.0];
const REG_SCALE: f32 = 0.8;

fn reg_explicit() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, col| {
                let c = sample(&TEX8, uv)?;
                Some(map4(|i| {
                    c[i] * REG_TINT[i] * REG_AMOUNT * REG_SCALE * col[i] + REG_OFFSET[i]
                }))
            },
            x,
            y,
        )
    }
    let sensitivity = |parameter, changed| Sensitivity {
        parameter,
        changed,
        region: [8, 8, 48, 48],
        min_fraction: 0.5,
    };
    sprite_entry(
        "compat_reg_explicit.fx",
        "register(cN) placements out of declaration order; unplaced uniforms fill the gaps",
        one_pass(
            "Registers",
            "P0",
            vec![sampler(0, ST::Sampler2D, "TextureSampler")],
        ),
        vec![
            p_vec("Tint", 4),
            p_float("Amount"),
            p_vec("Offset", 4),
            p_float("Scale"),
            p_tex2d("TextureSampler"),
        ],
        vec![
            ("Tint", vector(&REG_TINT)),
            ("Amount", scalar(REG_AMOUNT)),
            ("Offset", vector(&REG_OFFSET)),
            ("Scale", scalar(REG_SCALE)),
        ],
        vec![("TextureSampler", TEX8)],
        WARM,
        Check::reference(reference).with_sensitivities(vec![
            sensitivity("Amount", scalar(0.3)),
            sensitivity("Scale", scalar(0.3)),
            sensitivity("Offset", vector(&[0.3, 0.0, 0.3, 0.0])),
        ]),
    )
}

// ---- more declaration and sampler forms ----------------------------------------------------

const MASK_STRENGTH: f32 = 0.75;

fn smp_state_block() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WARM,
            |uv, col| {
                let c = sample(&TEX8, uv)?;
                let mask = sample(&OVERLAY, uv)?[0];
                let k = lerp(1.0, mask, MASK_STRENGTH);
                Some(map4(|i| c[i] * col[i] * k))
            },
            x,
            y,
        )
    }
    let point_clamp = SamplerState {
        address_u: TA::Clamp,
        address_v: TA::Clamp,
        filter: TextureFilter::Point,
        ..SamplerState::default()
    };
    sprite_entry(
        "compat_smp_state_block.fx",
        "a D3D10 SamplerState block (MIN_MAG_MIP_POINT, CLAMP) shared by two textures",
        one_pass(
            "Masked",
            "P0",
            vec![
                sampler(0, ST::Sampler2D, "SpriteTexture").baked(point_clamp),
                sampler(1, ST::Sampler2D, "MaskTexture").baked(point_clamp),
            ],
        ),
        vec![
            p_float("MaskStrength").with_default(&[1.0]),
            p_tex2d("SpriteTexture"),
            p_tex2d("MaskTexture"),
        ],
        vec![("MaskStrength", scalar(MASK_STRENGTH))],
        vec![("SpriteTexture", TEX8), ("MaskTexture", OVERLAY)],
        WARM,
        Check::reference(reference),
    )
}

const Q_TINT: [f32; 4] = [0.95, 0.85, 0.9, 1.0];
const Q_AMOUNT: f32 = 0.6;
const Q_BIAS: f32 = 0.05;
const Q_CONTRAST: f32 = 1.1;
const Q_WEIGHTS: [[f32; 3]; 3] = [[0.5, 0.3, 0.2], [0.2, 0.6, 0.2], [0.1, 0.2, 0.7]];

fn decl_qualifiers() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let c = sample(&TEX8, uv)?;
                let rgb = [c[0], c[1], c[2]];
                Some(map4(|i| {
                    if i == 3 {
                        return c[3] * Q_TINT[3];
                    }
                    let mixed = dot3(rgb, Q_WEIGHTS[i]);
                    ((lerp(c[i], mixed, Q_AMOUNT) - 0.5) * Q_CONTRAST + 0.5 + Q_BIAS) * Q_TINT[i]
                }))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_decl_qualifiers.fx",
        "uniform/extern/shared/const uniform qualifiers and a static const table",
        one_pass("Grade", "P0", s0()),
        vec![
            p_vec("Tint", 4).with_default(&[1.0, 0.9, 0.8, 1.0]),
            p_float("Amount").with_default(&[0.5]),
            p_float("Bias"),
            p_float("Contrast").with_default(&[1.25]),
            p_tex2d("s0"),
        ],
        vec![
            ("Tint", vector(&Q_TINT)),
            ("Amount", scalar(Q_AMOUNT)),
            ("Bias", scalar(Q_BIAS)),
            ("Contrast", scalar(Q_CONTRAST)),
        ],
        vec![("s0", TEX8)],
        WHITE,
        Check::reference(reference),
    )
}

const TAP_SCALE: f32 = 1.0 / 64.0;
const TAP_OFFSETS: [f32; 6] = [-0.125, 0.0, 0.0, 0.0, 0.125, 0.0625];

fn sem_array_varyings() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = pixel_quad(QUAD, QUAD_COLORS);
        let vp = pixel_ortho(W, H);
        mesh_pixel(
            &mesh,
            |v| {
                let p = position(&mesh, v);
                let mut vary: Vec<f32> = mesh.element(v, 1).iter().map(|c| c / 255.0).collect();
                for k in 0..3 {
                    vary.push(p[0] * TAP_SCALE + TAP_OFFSETS[2 * k]);
                    vary.push(p[1] * TAP_SCALE + TAP_OFFSETS[2 * k + 1]);
                }
                (super::mul_vm(p, &vp), vary)
            },
            |a| {
                let mut sum = [0.0f32; 4];
                for k in 0..3 {
                    let c = sample(&TEX8, [a[4 + 2 * k], a[5 + 2 * k]])?;
                    for i in 0..4 {
                        sum[i] += c[i];
                    }
                }
                Some(map4(|i| sum[i] / 3.0 * a[i]))
            },
            x,
            y,
        )
    }
    Entry {
        file: "compat_sem_array_varyings.fx",
        concern: "float2 Taps[3] : TEXCOORD0 varyings written and read with loops",
        techniques: vec![technique("Blur", vec![vs_ps_pass("P0", s0())])],
        parameters: vec![
            p_mat("ViewProjection", 4, 4),
            p_float("UVScale"),
            p_vec("TapOffsets", 2).array(3),
            p_tex2d("s0"),
        ],
        render: Render {
            technique: "Blur",
            values: vec![
                ("ViewProjection", mat4(&pixel_ortho(W, H))),
                ("UVScale", scalar(TAP_SCALE)),
                (
                    "TapOffsets",
                    Value {
                        rows: 1,
                        columns: 2,
                        hlsl: TAP_OFFSETS.to_vec(),
                    },
                ),
            ],
            textures: vec![("s0", TEX8)],
            geometry: Geometry::Mesh(pixel_quad(QUAD, QUAD_COLORS)),
            render_targets: 1,
            check: Check::reference(reference),
        },
    }
}

/// `float4x3` values as written in HLSL, row by row (4 rows of 3); non-symmetric, with the
/// translation in the last row.
const W43: [f32; 12] = [0.7, 0.1, 0.0, -0.2, 0.6, 0.0, 0.0, 0.0, 1.0, 4.0, 3.0, 0.0];
const BONE0: [f32; 12] = [
    0.2, -0.05, 0.0, 0.05, 0.15, 0.0, 0.0, 0.0, 0.0, 2.0, 1.0, 0.0,
];
const BONE1: [f32; 12] = [0.1, 0.1, 0.0, -0.1, 0.2, 0.0, 0.0, 0.0, 0.0, -1.0, 5.0, 0.0];
const BONE_BLEND: f32 = 0.3;

/// `mul(float4 v, float4x3 m)` with `m` row by row.
fn mul_v43(v: [f32; 4], m: &[f32; 12]) -> [f32; 3] {
    [0, 1, 2].map(|c| (0..4).map(|r| v[r] * m[r * 3 + c]).sum())
}

fn mat_float4x3_uniforms() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = pixel_quad(QUAD, QUAD_COLORS);
        let vp = pixel_ortho(W, H);
        mesh_pixel(
            &mesh,
            |v| {
                let p = position(&mesh, v);
                let (w, b0, b1) = (mul_v43(p, &W43), mul_v43(p, &BONE0), mul_v43(p, &BONE1));
                let q = [0, 1, 2].map(|i| w[i] + lerp(b0[i], b1[i], BONE_BLEND));
                (
                    super::mul_vm([q[0], q[1], q[2], 1.0], &vp),
                    mesh.element(v, 1).iter().map(|c| c / 255.0).collect(),
                )
            },
            |a| Some([a[0], a[1], a[2], a[3]]),
            x,
            y,
        )
    }
    let bones: Vec<f32> = BONE0.iter().chain(&BONE1).copied().collect();
    Entry {
        file: "compat_mat_float4x3_uniforms.fx",
        concern: "float4x3 World and a float4x3 Bones[2] palette multiplied with positions",
        techniques: vec![technique("Skinned", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![
            p_mat("World", 4, 3),
            p_mat("Bones", 4, 3).array(2),
            p_mat("ViewProjection", 4, 4),
            p_float("BoneBlend"),
        ],
        render: Render {
            technique: "Skinned",
            values: vec![
                ("World", matrix(4, 3, &W43)),
                ("Bones", matrix(4, 3, &bones)),
                ("ViewProjection", mat4(&pixel_ortho(W, H))),
                ("BoneBlend", scalar(BONE_BLEND)),
            ],
            textures: vec![],
            geometry: Geometry::Mesh(pixel_quad(QUAD, QUAD_COLORS)),
            render_targets: 1,
            check: Check::reference(reference).with_sensitivities(vec![Sensitivity {
                parameter: "BoneBlend",
                changed: scalar(0.9),
                region: [0, 0, 64, 64],
                min_fraction: 0.05,
            }]),
        },
    }
}

/// Four bones, row by row (4 rows of 3): scales, shears and translations, all different.
const SKIN_BONES: [[f32; 12]; 4] = [
    [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
    [0.9, 0.2, 0.0, -0.1, 0.8, 0.0, 0.0, 0.0, 1.0, 6.0, 2.0, 0.0],
    [0.8, -0.1, 0.0, 0.2, 1.1, 0.0, 0.0, 0.0, 1.0, -4.0, 5.0, 0.0],
    [1.1, 0.05, 0.0, 0.1, 0.9, 0.0, 0.0, 0.0, 1.0, 3.0, -6.0, 0.0],
];
/// Per corner: two bone indices and their weights.
const SKIN_INFLUENCES: [([u8; 2], [f32; 2]); 4] = [
    ([0, 1], [0.75, 0.25]),
    ([1, 2], [0.5, 0.5]),
    ([2, 3], [0.6, 0.4]),
    ([3, 0], [0.3, 0.7]),
];

fn skinned_quad() -> Mesh {
    let mut mesh = pixel_quad(QUAD, QUAD_COLORS);
    mesh.elements.push(VertexElement {
        usage: U::BlendIndices,
        index: 0,
        format: ElementFormat::Byte4,
    });
    mesh.elements.push(VertexElement {
        usage: U::BlendWeight,
        index: 0,
        format: ElementFormat::Vector4,
    });
    for (v, (idx, w)) in mesh.vertices.iter_mut().zip(SKIN_INFLUENCES) {
        v.extend_from_slice(&[f32::from(idx[0]), f32::from(idx[1]), 0.0, 0.0]);
        v.extend_from_slice(&[w[0], w[1], 0.0, 0.0]);
    }
    mesh
}

fn mat_skinning() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        let mesh = skinned_quad();
        let vp = pixel_ortho(W, H);
        mesh_pixel(
            &mesh,
            |v| {
                let p = position(&mesh, v);
                let (idx, w) = SKIN_INFLUENCES[v];
                let mut skin = [0.0f32; 12];
                for k in 0..2 {
                    for (s, b) in skin.iter_mut().zip(&SKIN_BONES[idx[k] as usize]) {
                        *s += b * w[k];
                    }
                }
                let q = mul_v43(p, &skin);
                (
                    super::mul_vm([q[0], q[1], q[2], 1.0], &vp),
                    mesh.element(v, 1).iter().map(|c| c / 255.0).collect(),
                )
            },
            |a| Some([a[0], a[1], a[2], a[3]]),
            x,
            y,
        )
    }
    let bones: Vec<f32> = SKIN_BONES.iter().flatten().copied().collect();
    Entry {
        file: "compat_mat_skinning.fx",
        concern:
            "skinning: a float4x3 palette blended by BLENDINDICES/BLENDWEIGHT into a float4x3 local",
        techniques: vec![technique("Skinned", vec![vs_ps_pass("P0", vec![])])],
        parameters: vec![p_mat("Bones", 4, 3).array(4), p_mat("ViewProjection", 4, 4)],
        render: Render {
            technique: "Skinned",
            values: vec![
                ("Bones", matrix(4, 3, &bones)),
                ("ViewProjection", mat4(&pixel_ortho(W, H))),
            ],
            textures: vec![],
            geometry: Geometry::Mesh(skinned_quad()),
            render_targets: 1,
            check: Check::reference(reference),
        },
    }
}

const SHAPE_A: [f32; 6] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
const SHAPE_B: [f32; 6] = [0.7, 0.1, 0.2, 0.6, 0.3, 0.3];
const SHAPE_C: [f32; 12] = [0.1, 0.2, 0.3, 0.05, 0.2, 0.1, 0.4, 0.1, 0.3, 0.3, 0.1, 0.2];
const SHAPE_D: [f32; 8] = [0.5, 0.1, 0.2, 0.6, 0.3, 0.2, 0.1, 0.05];

/// `mul(v, M)` for an R×C matrix written row by row.
fn mul_row(v: &[f32], m: &[f32], c: usize) -> Vec<f32> {
    (0..c)
        .map(|j| v.iter().enumerate().map(|(i, x)| x * m[i * c + j]).sum())
        .collect()
}

/// `mul(M, v)` for an R×C matrix written row by row.
fn mul_col(m: &[f32], c: usize, v: &[f32]) -> Vec<f32> {
    m.chunks(c)
        .map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum())
        .collect()
}

fn mat_shapes() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let r1 = mul_row(&uv, &SHAPE_A, 3);
                let r2 = mul_col(&SHAPE_B, 2, &uv);
                let r3 = mul_col(&SHAPE_C, 4, &[uv[0], uv[1], 0.5, 1.0]);
                let r4 = mul_row(&[uv[0], uv[1], 0.25, 1.0], &SHAPE_D, 2);
                // transpose(A) is 3×2: row i is column i of A.
                let r5: Vec<f32> = (0..3)
                    .map(|i| SHAPE_A[i] * uv[0] + SHAPE_A[3 + i] * uv[1])
                    .collect();
                Some(map4(|i| {
                    if i < 3 {
                        (r1[i] * 0.3 + r2[i] * 0.3 + r3[i] * 0.2 + r5[i] * 0.2).clamp(0.0, 1.0)
                    } else {
                        (r4[0] * 0.5 + r4[1] * 0.5).clamp(0.0, 1.0)
                    }
                }))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_mat_shapes.fx",
        "float2x3, float3x2, float3x4 and float4x2 uniforms in mul both ways, and a transpose",
        one_pass("Shapes", "P0", vec![]),
        vec![
            p_mat("A", 2, 3),
            p_mat("B", 3, 2),
            p_mat("C", 3, 4),
            p_mat("D", 4, 2),
        ],
        vec![
            ("A", matrix(2, 3, &SHAPE_A)),
            ("B", matrix(3, 2, &SHAPE_B)),
            ("C", matrix(3, 4, &SHAPE_C)),
            ("D", matrix(4, 2, &SHAPE_D)),
        ],
        vec![],
        WHITE,
        Check::reference(reference),
    )
}

/// An HLSL matrix for the CPU references: `m[r][c]` is `_m{r}{c}`.
type Hm = Vec<Vec<f32>>;

fn hm(rows: usize, columns: usize, values: &[f32]) -> Hm {
    values[..rows * columns]
        .chunks(columns)
        .map(<[f32]>::to_vec)
        .collect()
}

/// `mul(A, B)`.
fn hm_mul(a: &Hm, b: &Hm) -> Hm {
    a.iter()
        .map(|row| {
            (0..b[0].len())
                .map(|c| row.iter().zip(b).map(|(x, brow)| x * brow[c]).sum())
                .collect()
        })
        .collect()
}

fn hm_transpose(a: &Hm) -> Hm {
    (0..a[0].len())
        .map(|c| a.iter().map(|row| row[c]).collect())
        .collect()
}

/// `mul(v, M)`.
fn v_hm(v: &[f32], m: &Hm) -> Vec<f32> {
    hm_mul(&vec![v.to_vec()], m).remove(0)
}

/// `mul(M, v)`.
fn hm_v(m: &Hm, v: &[f32]) -> Vec<f32> {
    m.iter()
        .map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum())
        .collect()
}

const LOCALS_W: [f32; 12] = [
    0.1, 0.5, 0.2, 0.3, 0.05, 0.4, 0.6, 0.2, 0.1, 0.15, 0.35, 0.25,
];
const LOCALS_C: [f32; 12] = [
    0.2, 0.1, 0.4, 0.3, 0.5, 0.05, 0.1, 0.2, 0.3, 0.25, 0.15, 0.6,
];
const LOCALS_PAL: [f32; 24] = [
    0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, // element 0 (unused)
    0.3, 0.1, 0.05, 0.2, 0.45, 0.1, 0.05, 0.15, 0.5, 0.4, 0.2, 0.3,
];

fn mat_locals() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let w = hm(4, 3, &LOCALS_W);
                let c = hm(3, 4, &LOCALS_C);
                let pal1 = hm(4, 3, &LOCALS_PAL[12..]);
                let m: Hm = (0..4)
                    .map(|i| {
                        (0..3)
                            .map(|j| w[i][j] * uv[0] + pal1[i][j] * uv[1])
                            .collect()
                    })
                    .collect();
                let r: Hm = m[..3].to_vec();
                let a = v_hm(&[uv[0], uv[1], 1.0], &r);
                let k = hm(2, 3, &[uv[0], 0.2, 0.3, 0.4, uv[1], 0.6]);
                let b = v_hm(&uv, &k);
                let t = hm_v(&hm_transpose(&k), &[0.5, 0.25]);
                let row: Vec<f32> = (0..3).map(|j| w[2][j] + m[3][j]).collect();
                let e = w[0][1] + m[3][0] + k[1][2] + c[2][3];
                let wc = hm_mul(&w, &c);
                let cw = hm_mul(&c, &w);
                let p = v_hm(&[uv[0], uv[1], 0.5, 1.0], &wc);
                let q = hm_v(&cw, &[uv[0], uv[1], 1.0]);
                let kr = hm_mul(&k, &r);
                let s = v_hm(&[0.3, 0.6], &kr);
                Some(map4(|i| {
                    if i < 3 {
                        (a[i] * 0.3
                            + b[i] * 0.2
                            + t[i] * 0.2
                            + row[i] * 0.1
                            + q[i] * 0.05
                            + s[i] * 0.2
                            + p[i] * 0.05)
                            .clamp(0.0, 1.0)
                    } else {
                        (e * 0.2 + p[3] * 0.1).clamp(0.0, 1.0)
                    }
                }))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_mat_locals.fx",
        "non-square locals: accumulated, cast, constructed, rows and elements, transposed, multiplied together",
        one_pass("Locals", "P0", vec![]),
        vec![
            p_mat("W", 4, 3),
            p_mat("C", 3, 4),
            p_mat("Pal", 4, 3).array(2),
        ],
        vec![
            ("W", matrix(4, 3, &LOCALS_W)),
            ("C", matrix(3, 4, &LOCALS_C)),
            ("Pal", matrix(4, 3, &LOCALS_PAL)),
        ],
        vec![],
        WHITE,
        Check::reference(reference),
    )
}

const ROWS_A: [f32; 6] = [0.15, 0.55, 0.35, 0.65, 0.05, 0.45];
const ROWS_PAL: [f32; 36] = [
    0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.25, 0.35, 0.45, //
    0.9, 0.1, 0.5, 0.2, 0.6, 0.3, 0.7, 0.4, 0.05, 0.55, 0.15, 0.65, //
    0.3, 0.8, 0.2, 0.6, 0.1, 0.7, 0.4, 0.9, 0.5, 0.35, 0.75, 0.05,
];

fn mat_rows() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let w = hm(4, 3, &LOCALS_W);
                let a = hm(2, 3, &ROWS_A);
                let i = (uv[0] * 4.0) as usize;
                let j = (uv[1] * 2.0) as usize;
                let b = (uv[1] * 3.0) as usize;
                let pal = hm(4, 3, &ROWS_PAL[b * 12..]);
                Some(map4(|c| {
                    if c < 3 {
                        (w[i][c] * 0.5 + pal[i][c] * 0.3 + a[j][c] * 0.2).clamp(0.0, 1.0)
                    } else {
                        (w[i][j] + 0.25).clamp(0.0, 1.0)
                    }
                }))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_mat_rows.fx",
        "rows of non-square uniforms and palette elements picked at run time",
        one_pass("Rows", "P0", vec![]),
        vec![
            p_mat("W", 4, 3),
            p_mat("A", 2, 3),
            p_mat("Pal", 4, 3).array(3),
        ],
        vec![
            ("W", matrix(4, 3, &LOCALS_W)),
            ("A", matrix(2, 3, &ROWS_A)),
            ("Pal", matrix(4, 3, &ROWS_PAL)),
        ],
        vec![],
        WHITE,
        Check::reference(reference),
    )
}

const WHOLE_WEIGHTS: [f32; 12] = [0.9, 0.1, 0.2, 1.0, 0.1, 0.8, 0.3, 0.6, 0.2, 0.3, 0.7, 0.4];
const WHOLE_TRANSFORMS: [f32; 32] = [
    0.5, 0.1, 0.0, 0.0, 0.2, 0.6, 0.1, 0.0, 0.0, 0.3, 0.4, 0.2, 0.1, 0.0, 0.2, 0.5, //
    0.3, 0.0, 0.4, 0.1, 0.0, 0.2, 0.1, 0.3, 0.5, 0.1, 0.0, 0.0, 0.0, 0.4, 0.1, 0.6,
];

fn decl_array_whole() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let w = |k: usize, i: usize| WHOLE_WEIGHTS[k * 4 + i];
                let m0 = hm(4, 4, &WHOLE_TRANSFORMS[..16]);
                let m1 = hm(4, 4, &WHOLE_TRANSFORMS[16..]);
                let v = [uv[0], uv[1], 0.5, 1.0];
                let (t0, t1) = (v_hm(&v, &m0), v_hm(&v, &m1));
                Some(map4(|i| {
                    let c = w(0, i) * uv[0] + w(1, i) * uv[1] + w(2, i) * (1.0 - uv[0]);
                    let t = t0[i] * 0.5 + t1[i] * 0.5;
                    (c * 0.5 + t * 0.5).clamp(0.0, 1.0)
                }))
            },
            x,
            y,
        )
    }
    sprite_entry(
        "compat_decl_array_whole.fx",
        "uniform arrays (float4, float4x4) passed whole to helper functions",
        one_pass("Whole", "P0", vec![]),
        vec![
            p_vec("Weights", 4).array(3),
            p_mat("Transforms", 4, 4).array(2),
        ],
        vec![
            (
                "Weights",
                Value {
                    rows: 1,
                    columns: 4,
                    hlsl: WHOLE_WEIGHTS.to_vec(),
                },
            ),
            ("Transforms", matrix(4, 4, &WHOLE_TRANSFORMS)),
        ],
        vec![],
        WHITE,
        Check::reference(reference),
    )
}
