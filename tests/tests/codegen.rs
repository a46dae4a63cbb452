//! Generated parameter modules: snapshots of the generated text, and the behaviour of that code
//! once compiled.
//!
//! Snapshots (`tests/snapshots/<module>.snap.rs`, insta binary snapshots: the generated text as
//! a plain file beside insta's `.snap` metadata) come from real MGFX files in
//! `../shared/golden/shadowdusk-opengl/` with a synthesized reflection, plus one effect built
//! here (ints, bools, non-zero defaults, an unused parameter). `INSTA_UPDATE=always` rewrites
//! them; otherwise a difference fails with insta's diff. The golden shaders' GLSL is replaced by
//! a placeholder before the bytes are embedded, so the snapshots hold our writer's bytes of the
//! same layout, not copies of the goldens.
//!
//! The snapshots are also compiled into this test (under `#![deny(warnings)]` and
//! `#[no_implicit_prelude]`) and exercised: setters must land in the registers MonoGame's
//! `ConstantBuffer.SetParameter` would fill (checked against an independent model of §7.2),
//! getters round-trip, `Default` equals the MGFX data, and the layout matches the records.
//! Blessing compiles this file, so if a generator change makes the old snapshots stop
//! compiling, comment out the `include!`s in `generated`, bless, and restore them.

#![deny(warnings)]

use std::path::PathBuf;

use shadowdusk::mgfx::{
    self, CbufferEntry, ConstantBuffer, Effect, Parameter, ParameterClass, ParameterType, Pass,
    Profile, Shader, ShaderStage, Technique,
};
use shadowdusk_compiler::codegen::{generate_string, CodegenOptions, MgfxSource};
use shadowdusk_compiler::reflect::{
    EffectReflection, Location, ParameterInfo, PassInfo, ShaderInfo, TechniqueInfo,
};

/// The golden effects with snapshots, and their module names.
const GOLDENS: &[(&str, &str)] = &[
    ("TintShader", "tint_shader"),
    ("ArrayUniform", "array_uniform"),
    ("ArrayUniformVs", "array_uniform_vs"),
    ("SharedCbuffer", "shared_cbuffer"),
    ("MultiCbuffer", "multi_cbuffer"),
    ("VsTransformColorTexture", "vs_transform_color_texture"),
    ("SkinnedEffect", "skinned_effect"),
    ("BasicEffect", "basic_effect"),
];

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The mgfxc goldens, or `None` after [`shadowdusk_tests::skip`] says they are missing.
fn golden_dir(test: &str) -> Option<PathBuf> {
    let dir = manifest_dir().join("../../shared/golden/shadowdusk-opengl");
    if dir.is_dir() {
        return Some(dir);
    }
    let why = format!(
        "{} is absent; golden codegen was NOT checked",
        dir.display()
    );
    shadowdusk_tests::skip(test, &why);
    None
}

/// The HLSL spelling of a parameter's type, for the synthesized declaration.
fn hlsl_decl(p: &Parameter) -> String {
    let base = match p.ty {
        ParameterType::Bool => "bool",
        ParameterType::Int32 => "int",
        ParameterType::Single => "float",
        ParameterType::Texture2D => return format!("texture2D {}", p.name),
        ParameterType::TextureCube => return format!("textureCUBE {}", p.name),
        _ => return format!("texture {}", p.name),
    };
    let ty = match p.class {
        ParameterClass::Scalar => base.to_string(),
        ParameterClass::Vector => format!("{base}{}", p.columns),
        _ => format!("{base}{}x{}", p.rows, p.columns),
    };
    if p.elements.is_empty() {
        format!("{ty} {}", p.name)
    } else {
        format!("{ty} {}[{}]", p.name, p.elements.len())
    }
}

/// A reflection like the compiler's: declarations, one line per parameter, usage from the MGFX.
fn synthesize_reflection(name: &str, e: &Effect) -> EffectReflection {
    let file = PathBuf::from(format!("{name}.fx"));
    let placed = |i: usize| {
        e.constant_buffers
            .iter()
            .any(|cb| cb.entries.iter().any(|en| en.parameter == i as i32))
            || e.shaders
                .iter()
                .any(|s| s.samplers.iter().any(|sm| usize::from(sm.parameter) == i))
    };
    EffectReflection {
        source: file.clone(),
        files_read: vec![file.clone()],
        parameters: e
            .parameters
            .iter()
            .enumerate()
            .map(|(i, p)| ParameterInfo {
                name: p.name.clone(),
                declaration: hlsl_decl(p),
                location: Some(Location {
                    file: file.clone(),
                    line: i as u32 + 3,
                    column: 1,
                }),
                cbuffer: None,
                default: None,
                used: placed(i),
            })
            .collect(),
        techniques: e
            .techniques
            .iter()
            .map(|t| TechniqueInfo {
                name: t.name.clone(),
                passes: t
                    .passes
                    .iter()
                    .map(|p| PassInfo {
                        name: p.name.clone(),
                        vertex_entry: (p.vertex_shader >= 0)
                            .then(|| format!("MainVS{}", p.vertex_shader)),
                        pixel_entry: (p.pixel_shader >= 0)
                            .then(|| format!("MainPS{}", p.pixel_shader)),
                    })
                    .collect(),
            })
            .collect(),
        shaders: e
            .shaders
            .iter()
            .enumerate()
            .map(|(i, s)| match s.stage {
                ShaderStage::Vertex => ShaderInfo {
                    entry: format!("MainVS{i}"),
                    profile: "vs_3_0".into(),
                },
                ShaderStage::Pixel => ShaderInfo {
                    entry: format!("MainPS{i}"),
                    profile: "ps_3_0".into(),
                },
            })
            .collect(),
    }
}

/// Our writer's bytes for `e` with every shader payload replaced by a placeholder.
fn stripped_bytes(e: &Effect) -> Vec<u8> {
    let mut e = e.clone();
    for s in &mut e.shaders {
        s.code = b"// GLSL omitted from the codegen snapshot\n".to_vec();
    }
    mgfx::write(&e).expect("the writer accepts an effect the reader produced")
}

/// Compares `actual` with `tests/snapshots/<module>.snap.rs` through insta: a difference fails
/// with insta's diff (and a `.snap.rs.new` beside it to review); `INSTA_UPDATE=always` accepts.
/// The raw `.snap.rs` file is what `generated` below compiles.
fn check_snapshot(module: &str, actual: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(manifest_dir().join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let name = format!("{module}.rs");
    settings.bind(|| insta::assert_binary_snapshot!(name.as_str(), actual.as_bytes().to_vec()));
}

fn generate(module: &str, name: &str, e: &Effect, bytes: Vec<u8>) -> String {
    let reflection = synthesize_reflection(name, e);
    let options = CodegenOptions::new(module, MgfxSource::Bytes(bytes));
    generate_string(e, &reflection, &options)
        .unwrap_or_else(|err| panic!("codegen of {name} failed: {err}"))
}

#[test]
fn golden_snapshots() {
    let Some(dir) = golden_dir("golden_snapshots") else {
        return;
    };
    for (name, module) in GOLDENS {
        let bytes = std::fs::read(dir.join(format!("{name}.mgfx"))).unwrap();
        let e = mgfx::read(&bytes).unwrap_or_else(|err| panic!("{name}: {err}"));
        check_snapshot(module, &generate(module, name, &e, stripped_bytes(&e)));
    }
}

#[test]
fn synthetic_snapshot() {
    let e = synthetic_effect();
    check_snapshot(
        "synthetic",
        &generate("synthetic", "Synthetic", &e, stripped_bytes(&e)),
    );
}

#[test]
fn every_golden_generates_code_that_parses() {
    const TEST: &str = "every_golden_generates_code_that_parses";
    let Some(dir) = golden_dir(TEST) else { return };
    let mut dirs = vec![dir.clone()];
    let stock = dir.join("../monogame-stock");
    if stock.is_dir() {
        dirs.push(stock);
    } else {
        let why = format!("{} is absent (MonoGame's stock effects)", stock.display());
        shadowdusk_tests::skip(&format!("{TEST} (stock effects)"), &why);
    }
    let mut count = 0;
    for d in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let n = p.to_string_lossy();
                n.ends_with(".mgfx") || n.ends_with(".ogl.mgfxo")
            })
            .collect();
        files.sort();
        for f in files {
            let e = mgfx::read(&std::fs::read(&f).unwrap()).unwrap();
            let name = f.file_stem().unwrap().to_string_lossy().replace('.', "_");
            let text = generate("fx", &name, &e, Vec::new());
            // `generate_string` already parsed it; the register count must match the records.
            let regs: usize = e
                .constant_buffers
                .iter()
                .map(|c| usize::from(c.size) / 16)
                .sum();
            assert!(
                text.contains(&format!("::core::assert!(size == {});", regs * 16)),
                "{}",
                f.display()
            );
            count += 1;
        }
    }
    assert!(count >= 40, "only {count} golden files found");
}

fn param(
    name: &str,
    class: ParameterClass,
    ty: ParameterType,
    rows: u8,
    columns: u8,
    data: &[f32],
) -> Parameter {
    assert_eq!(data.len(), usize::from(rows) * usize::from(columns));
    Parameter {
        data: Some(data.iter().map(|f| f.to_bits()).collect()),
        ..Parameter::value(name, class, ty, rows, columns)
    }
}

fn array_of(mut p: Parameter, n: usize) -> Parameter {
    let el = Parameter {
        name: String::new(),
        ..p.clone()
    };
    p.elements = (0..n)
        .map(|i| {
            let mut e = el.clone();
            // Distinct defaults per element.
            e.data = e.data.map(|d| {
                d.iter()
                    .map(|b| (f32::from_bits(*b) + i as f32).to_bits())
                    .collect()
            });
            e
        })
        .collect();
    p.data = None;
    p
}

fn pass(name: &str, vertex_shader: i32, pixel_shader: i32) -> Pass {
    Pass {
        name: name.into(),
        annotations: 0,
        vertex_shader,
        pixel_shader,
        blend: None,
        depth_stencil: None,
        rasterizer: None,
    }
}

/// Every value kind the generator handles, with non-zero defaults, two stages sharing
/// parameters, and parameters no constant buffer holds.
fn synthetic_effect() -> Effect {
    use ParameterClass::{Matrix, Scalar, Vector};
    use ParameterType::{Bool, Int32, Single};
    let nine = [1., 2., 3., 4., 5., 6., 7., 8., 9.];
    let parameters = vec![
        param("Gain", Scalar, Single, 1, 1, &[2.5]),
        param("Count", Scalar, Int32, 1, 1, &[3.0]),
        param("Enabled", Scalar, Bool, 1, 1, &[1.0]),
        param("Offset", Vector, Int32, 1, 2, &[-1.0, 7.0]),
        param("Mask", Vector, Bool, 1, 3, &[1.0, 0.0, 1.0]),
        param("Normal3", Matrix, Single, 3, 3, &nine),
        param("Uv", Matrix, Single, 3, 2, &[1., 0., 0., 0., 1., 0.]),
        array_of(param("Points", Vector, Single, 1, 2, &[0.5, -0.5]), 3),
        param("Unused", Vector, Single, 1, 4, &[0.25, 0.5, 0.75, 1.0]),
        array_of(param("UnusedList", Scalar, Single, 1, 1, &[9.0]), 2),
        param("type", Scalar, Single, 1, 1, &[0.0]),
        Parameter::texture("Albedo", ParameterType::Texture2D),
    ];
    let entries = |list: &[(i32, u16)]| -> Vec<CbufferEntry> {
        list.iter()
            .map(|&(parameter, offset)| CbufferEntry { parameter, offset })
            .collect()
    };
    let shader = |stage, cbuffers, samplers| Shader {
        stage,
        source_file: None,
        entry_point: None,
        code: Vec::new(),
        samplers,
        cbuffers,
        attributes: Vec::new(),
    };
    Effect {
        version: 10,
        profile: Profile::OpenGL,
        key: 0,
        constant_buffers: vec![
            // Pixel: Gain c0, Count c1, Enabled c2, Offset c3, Mask c4, Points c5..c8, type c8.
            ConstantBuffer {
                name: "ps_uniforms_vec4".into(),
                size: 9 * 16,
                entries: entries(&[
                    (0, 0),
                    (1, 16),
                    (2, 32),
                    (3, 48),
                    (4, 64),
                    (7, 80),
                    (10, 128),
                ]),
            },
            // Vertex: Normal3 c0..c3, Uv c3..c5, Gain c5, Points c6..c9.
            ConstantBuffer {
                name: "vs_uniforms_vec4".into(),
                size: 9 * 16,
                entries: entries(&[(5, 0), (6, 48), (0, 80), (7, 96)]),
            },
        ],
        shaders: vec![
            shader(
                ShaderStage::Pixel,
                vec![0],
                vec![mgfx::Sampler {
                    ty: mgfx::SamplerType::Sampler2D,
                    texture_slot: 2,
                    sampler_slot: 2,
                    state: None,
                    name: "ps_s2".into(),
                    parameter: 11,
                }],
            ),
            shader(ShaderStage::Vertex, vec![1], Vec::new()),
        ],
        parameters,
        techniques: vec![
            Technique {
                name: "Main".into(),
                annotations: 0,
                passes: vec![pass("First", 1, 0), pass("", -1, 0)],
            },
            Technique {
                name: String::new(),
                annotations: 0,
                passes: vec![pass("p", 1, -1)],
            },
        ],
    }
}

// ---------------------------------------------------------------------------------------------
// The snapshots, compiled. `no_implicit_prelude` proves the generated paths are all absolute.

#[no_implicit_prelude]
mod generated {
    ::core::include!("../snapshots/tint_shader.snap.rs");
    ::core::include!("../snapshots/array_uniform.snap.rs");
    ::core::include!("../snapshots/array_uniform_vs.snap.rs");
    ::core::include!("../snapshots/shared_cbuffer.snap.rs");
    ::core::include!("../snapshots/multi_cbuffer.snap.rs");
    ::core::include!("../snapshots/vs_transform_color_texture.snap.rs");
    ::core::include!("../snapshots/skinned_effect.snap.rs");
    ::core::include!("../snapshots/basic_effect.snap.rs");
    ::core::include!("../snapshots/synthetic.snap.rs");
}

use generated::*;
use shadowdusk::params::{EffectParams, IndexOutOfRange, Mat, Matrix};

/// MonoGame's parameter storage and `ConstantBuffer.SetParameter`, modelled from
/// mgfx-format.md §7.1–§7.2 independently of the generator.
struct Model {
    effect: Effect,
    /// Per parameter, per element (one for a single value), `Data` in MonoGame's order.
    data: Vec<Vec<Vec<f32>>>,
}

impl Model {
    fn new(mgfx_bytes: &[u8]) -> Model {
        let effect = mgfx::read(mgfx_bytes).expect("the generated MGFX constant reads back");
        let floats = |p: &Parameter| -> Vec<f32> {
            p.data
                .as_ref()
                .map(|d| d.iter().map(|b| f32::from_bits(*b)).collect())
                .unwrap_or_default()
        };
        let data = effect
            .parameters
            .iter()
            .map(|p| {
                if p.elements.is_empty() {
                    vec![floats(p)]
                } else {
                    p.elements.iter().map(floats).collect()
                }
            })
            .collect();
        Model { effect, data }
    }

    fn index(&self, name: &str) -> usize {
        self.effect
            .parameters
            .iter()
            .position(|p| p.name == name)
            .unwrap_or_else(|| panic!("no parameter {name}"))
    }

    fn set(&mut self, name: &str, element: usize, values: &[f32]) {
        let i = self.index(name);
        assert_eq!(self.data[i][element].len(), values.len(), "{name}");
        self.data[i][element] = values.to_vec();
    }

    /// `SetValue(Matrix)`: `data[c*rows + r] = M(r+1, c+1)`.
    fn set_matrix(&mut self, name: &str, element: usize, m: &Matrix) {
        let i = self.index(name);
        let p = &self.effect.parameters[i];
        let (rows, columns) = (usize::from(p.rows), usize::from(p.columns));
        let mut d = vec![0.0; rows * columns];
        for c in 0..columns {
            for r in 0..rows {
                d[c * rows + r] = m.rows[r][c];
            }
        }
        self.data[i][element] = d;
    }

    /// Every record after a full upload from zeroed buffers.
    fn upload(&self) -> Vec<Vec<[f32; 4]>> {
        self.effect
            .constant_buffers
            .iter()
            .map(|cb| {
                let mut regs = vec![[0.0f32; 4]; usize::from(cb.size) / 16];
                for en in &cb.entries {
                    let pi = en.parameter as usize;
                    let p = &self.effect.parameters[pi];
                    let (rows, columns) = (usize::from(p.rows), usize::from(p.columns));
                    let mut reg = usize::from(en.offset) / 16;
                    for d in &self.data[pi] {
                        if p.class == ParameterClass::Matrix {
                            for k in 0..columns {
                                regs[reg + k][..rows]
                                    .copy_from_slice(&d[k * rows..k * rows + rows]);
                            }
                            reg += columns;
                        } else {
                            regs[reg][..columns].copy_from_slice(d);
                            reg += 1;
                        }
                    }
                }
                regs
            })
            .collect()
    }
}

fn records<P: EffectParams>(p: &P) -> Vec<Vec<[f32; 4]>> {
    let n = p.constant_buffer_count();
    assert!(p.constant_buffer(n).is_none());
    (0..n)
        .map(|i| p.constant_buffer(i).unwrap().to_vec())
        .collect()
}

/// Distinct values: `seed*10 + 1, seed*10 + 2, …`.
fn vals<const N: usize>(seed: u32) -> [f32; N] {
    std::array::from_fn(|i| (seed * 10 + i as u32 + 1) as f32)
}

/// A matrix whose every entry names its position: `M(r+1, c+1) = seed*100 + 10r + c + 0.5`.
fn mat(seed: u32) -> Matrix {
    let mut m = Matrix::ZERO;
    for r in 0..4 {
        for c in 0..4 {
            m.rows[r][c] = (seed * 100 + 10 * r as u32 + c as u32) as f32 + 0.5;
        }
    }
    m
}

/// `m` with entries outside the first `rows` rows and `columns` columns zeroed.
/// The top-left R×C block of `m`, as a `floatRxC` parameter receives it from `SetValue(Matrix)`.
fn block<const R: usize, const C: usize>(m: &Matrix) -> Mat<R, C> {
    let mut out = Mat::<R, C>::default();
    for (r, row) in out.rows.iter_mut().enumerate() {
        for (c, value) in row.iter_mut().enumerate() {
            *value = m.rows[r][c];
        }
    }
    out
}

fn check_layout_and_default<E: shadowdusk::Effect>(name: &str) {
    let model = Model::new(E::MGFX);
    let p = E::Params::default();
    let total: usize = model
        .effect
        .constant_buffers
        .iter()
        .map(|c| usize::from(c.size))
        .sum();
    assert_eq!(std::mem::size_of::<E::Params>(), total, "{name}");
    for (i, cb) in model.effect.constant_buffers.iter().enumerate() {
        assert_eq!(
            p.constant_buffer(i).unwrap().len(),
            usize::from(cb.size) / 16,
            "{name} record {i}"
        );
    }
    assert_eq!(
        records(&p),
        model.upload(),
        "{name}: Default is not MonoGame's first upload"
    );
}

#[test]
fn layouts_and_defaults_match_the_records() {
    check_layout_and_default::<tint_shader::Effect>("tint_shader");
    check_layout_and_default::<array_uniform::Effect>("array_uniform");
    check_layout_and_default::<array_uniform_vs::Effect>("array_uniform_vs");
    check_layout_and_default::<shared_cbuffer::Effect>("shared_cbuffer");
    check_layout_and_default::<multi_cbuffer::Effect>("multi_cbuffer");
    check_layout_and_default::<vs_transform_color_texture::Effect>("vs_transform_color_texture");
    check_layout_and_default::<skinned_effect::Effect>("skinned_effect");
    check_layout_and_default::<basic_effect::Effect>("basic_effect");
    check_layout_and_default::<synthetic::Effect>("synthetic");
}

#[test]
fn synthetic_default_holds_the_baked_initializers() {
    let p = synthetic::Params::default();
    assert_eq!(p.gain(), 2.5);
    assert_eq!(p.count(), 3);
    assert!(p.enabled());
    assert_eq!(p.offset(), [-1, 7]);
    assert_eq!(p.mask(), [true, false, true]);
    assert_eq!(p.points(), [[0.5, -0.5], [1.5, 0.5], [2.5, 1.5]]);
    // Column-major data 1..9: HLSL row 0 is (1, 4, 7).
    assert_eq!(p.normal3().rows[0], [1.0, 4.0, 7.0]);
    assert_eq!(p.vs_uniforms_vec4_1[0], [1.0, 2.0, 3.0, 0.0]);
    assert_eq!(p, synthetic::Params::DEFAULT);
}

#[test]
fn tint_shader_items() {
    let mut p = tint_shader::Params::default();
    p.set_tint_color([1.0, 0.5, 0.25, 1.0]);
    assert_eq!(p.ps_uniforms_vec4_0, [[1.0, 0.5, 0.25, 1.0]]);
    assert_eq!(p.tint_color(), [1.0, 0.5, 0.25, 1.0]);
    assert_eq!(tint_shader::textures::SPRITE_TEXTURE.parameter_index(), 1);
    assert_eq!(tint_shader::textures::SPRITE_TEXTURE_UNITS, &[0u8][..]);
    let t = tint_shader::Technique::TintedSpriteDrawing;
    let p0 = tint_shader::passes::tinted_sprite_drawing::P0;
    assert_eq!(
        (t.index(), t.name(), t.pass_names(), t.passes()),
        (0, "TintedSpriteDrawing", &["P0"][..], &[p0][..])
    );
    assert_eq!((p0.technique_index(), p0.index()), (0, 0));
    assert_eq!(tint_shader::Technique::from_index(0), Some(t));
    assert_eq!(tint_shader::Technique::from_index(1), None);
    assert_eq!(
        <tint_shader::Effect as shadowdusk::Effect>::MGFX.as_ptr(),
        tint_shader::MGFX.as_ptr()
    );
    assert_eq!(
        <tint_shader::Effect as shadowdusk::Effect>::NAME,
        "TintShader.fx"
    );
}

#[test]
fn basic_effect_every_setter_matches_monogame() {
    let mut p = basic_effect::Params::default();
    let mut m = Model::new(basic_effect::MGFX);
    p.set_fog_color(vals::<3>(0));
    m.set("FogColor", 0, &vals::<3>(0));
    p.set_diffuse_color(vals::<4>(1));
    m.set("DiffuseColor", 0, &vals::<4>(1));
    p.set_fog_vector(vals::<4>(2));
    m.set("FogVector", 0, &vals::<4>(2));
    p.set_world_view_proj(mat(3));
    m.set_matrix("WorldViewProj", 0, &mat(3));
    p.set_emissive_color(vals::<3>(4));
    m.set("EmissiveColor", 0, &vals::<3>(4));
    p.set_specular_color(vals::<3>(5));
    m.set("SpecularColor", 0, &vals::<3>(5));
    p.set_specular_power(60.0);
    m.set("SpecularPower", 0, &[60.0]);
    p.set_dir_light0_direction(vals::<3>(7));
    m.set("DirLight0Direction", 0, &vals::<3>(7));
    p.set_dir_light0_diffuse_color(vals::<3>(8));
    m.set("DirLight0DiffuseColor", 0, &vals::<3>(8));
    p.set_dir_light0_specular_color(vals::<3>(9));
    m.set("DirLight0SpecularColor", 0, &vals::<3>(9));
    p.set_dir_light1_direction(vals::<3>(10));
    m.set("DirLight1Direction", 0, &vals::<3>(10));
    p.set_dir_light1_diffuse_color(vals::<3>(11));
    m.set("DirLight1DiffuseColor", 0, &vals::<3>(11));
    p.set_dir_light1_specular_color(vals::<3>(12));
    m.set("DirLight1SpecularColor", 0, &vals::<3>(12));
    p.set_dir_light2_direction(vals::<3>(13));
    m.set("DirLight2Direction", 0, &vals::<3>(13));
    p.set_dir_light2_diffuse_color(vals::<3>(14));
    m.set("DirLight2DiffuseColor", 0, &vals::<3>(14));
    p.set_dir_light2_specular_color(vals::<3>(15));
    m.set("DirLight2SpecularColor", 0, &vals::<3>(15));
    p.set_eye_position(vals::<3>(16));
    m.set("EyePosition", 0, &vals::<3>(16));
    p.set_world(mat(17));
    m.set_matrix("World", 0, &mat(17));
    p.set_world_inverse_transpose(mat(18));
    m.set_matrix("WorldInverseTranspose", 0, &mat(18));
    assert_eq!(records(&p), m.upload());

    // DiffuseColor lives in pixel record 5 and vertex records 1, 3, 4 and 6 alike.
    assert_eq!(p.ps_uniforms_vec4_5[1], vals::<4>(1));
    assert_eq!(p.vs_uniforms_vec4_1[0], vals::<4>(1));
    assert_eq!(p.vs_uniforms_vec4_6[0], vals::<4>(1));
    // Getters round-trip, matrices within their declared block.
    assert_eq!(p.fog_color(), vals::<3>(0));
    assert_eq!(p.specular_power(), 60.0);
    assert_eq!(p.world_view_proj(), block::<4, 4>(&mat(3)));
    assert_eq!(p.world(), block::<4, 3>(&mat(17)));
    assert_eq!(p.world_inverse_transpose(), block::<3, 3>(&mat(18)));
    assert_eq!(basic_effect::textures::TEXTURE.parameter_index(), 19);
    assert_eq!(basic_effect::Technique::ALL.len(), 32);
    assert_eq!(
        basic_effect::Technique::BasicEffectPixelLightingTextureVertexColorNoFog.name(),
        "BasicEffect_PixelLighting_Texture_VertexColor_NoFog"
    );
    let pass = basic_effect::passes::basic_effect::PASS_0;
    assert_eq!((pass.technique_index(), pass.index()), (0, 0));
    let last = basic_effect::Technique::ALL[31];
    assert_eq!(last.passes()[0].technique_index(), 31);
}

#[test]
fn matrices_fill_one_register_per_column() {
    // float4x3 World in BasicEffect record 3 at c19..c21 (byte 304): register k = column k of
    // MonoGame's matrix, all four rows.
    let mut p = basic_effect::Params::default();
    p.set_world(mat(0));
    for k in 0..3 {
        assert_eq!(p.vs_uniforms_vec4_3[19 + k], mat(0).column(k), "column {k}");
    }
    assert_eq!(
        p.vs_uniforms_vec4_3[22], [0.0; 4],
        "a 4x3 uses three registers"
    );
    // float3x3 WorldInverseTranspose at c22..c24: three lanes, the fourth untouched.
    p.vs_uniforms_vec4_3[22][3] = 42.0;
    p.set_world_inverse_transpose(mat(1));
    let c0 = mat(1).column(0);
    assert_eq!(p.vs_uniforms_vec4_3[22], [c0[0], c0[1], c0[2], 42.0]);

    // A translation: XNA keeps it in row 4, so the shader's c0 = (1, 0, 0, tx).
    let mut t = Matrix::IDENTITY;
    t.rows[3] = [5.0, 6.0, 7.0, 1.0];
    let mut s = shared_cbuffer::Params::default();
    s.set_world_view_projection(t);
    assert_eq!(s.vs_uniforms_vec4_1[0], [1.0, 0.0, 0.0, 5.0]);
    assert_eq!(s.vs_uniforms_vec4_1[3], [0.0, 0.0, 0.0, 1.0]);
    // The same transform from a column-vector library, through mint, lands identically.
    let col = mint::ColumnMatrix4::<f32>::from([
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [5.0, 6.0, 7.0, 1.0],
    ]);
    let mut s2 = shared_cbuffer::Params::default();
    s2.set_world_view_projection(Matrix::from(col));
    assert_eq!(s2, s);
    s2.set_world_view_projection(t.rows);
    assert_eq!(s2, s);
    s2.set_diffuse_color([0.1, 0.2, 0.3, 0.4]);
    assert_eq!(s2.ps_uniforms_vec4_0[0], [0.1, 0.2, 0.3, 0.4]);
}

#[test]
fn skinned_effect_bone_array() {
    let mut p = skinned_effect::Params::default();
    let mut m = Model::new(skinned_effect::MGFX);
    let bones: Vec<Matrix> = (0..80).map(mat).collect();
    p.set_bones(&bones);
    for (i, b) in bones.iter().take(72).enumerate() {
        m.set_matrix("Bones", i, b);
    }
    assert_eq!(p.set_bones_at(5, mat(99)), Ok(()));
    m.set_matrix("Bones", 5, &mat(99));
    assert_eq!(
        p.set_bones_at(72, mat(1)),
        Err(IndexOutOfRange { index: 72, len: 72 })
    );
    p.set_world(mat(7));
    m.set_matrix("World", 0, &mat(7));
    p.set_world_inverse_transpose(mat(8));
    m.set_matrix("WorldInverseTranspose", 0, &mat(8));
    p.set_specular_power(16.0);
    m.set("SpecularPower", 0, &[16.0]);
    assert_eq!(records(&p), m.upload());

    // Element 71 of a float4x3[72] is at registers 213..216 of every vertex record.
    assert_eq!(p.vs_uniforms_vec4_1[213], mat(71).column(0));
    assert_eq!(p.vs_uniforms_vec4_4[215], mat(71).column(2));
    assert_eq!(p.bones_at(71), Some(block::<4, 3>(&mat(71))));
    assert_eq!(p.bones_at(72), None);
    assert_eq!(p.bones()[5], block::<4, 3>(&mat(99)));
}

#[test]
fn array_setters_write_min_len_elements() {
    let mut p = array_uniform::Params::default();
    let mut m = Model::new(array_uniform::MGFX);
    p.set_colors(&[vals::<4>(1), vals::<4>(2)]);
    m.set("Colors", 0, &vals::<4>(1));
    m.set("Colors", 1, &vals::<4>(2));
    p.set_weights(&[1.0, 2.0, 3.0, 4.0, 5.0]);
    for (i, w) in [1.0, 2.0, 3.0, 4.0].iter().enumerate() {
        m.set("Weights", i, &[*w]);
    }
    assert_eq!(p.set_colors_at(3, vals::<4>(3)), Ok(()));
    m.set("Colors", 3, &vals::<4>(3));
    assert_eq!(
        p.set_weights_at(4, 9.0),
        Err(IndexOutOfRange { index: 4, len: 4 })
    );
    assert_eq!(records(&p), m.upload());
    assert_eq!(p.colors()[2], [0.0; 4], "element 2 was never set");
    assert_eq!(p.colors_at(3), Some(vals::<4>(3)));
    assert_eq!(p.weights(), [1.0, 2.0, 3.0, 4.0]);
    // Scalars in an array use one register each, lane 0 only.
    assert_eq!(p.ps_uniforms_vec4_0[5], [2.0, 0.0, 0.0, 0.0]);

    let mut v = array_uniform_vs::Params::default();
    v.set_bones_at(1, mat(2)).unwrap();
    for k in 0..4 {
        assert_eq!(v.vs_uniforms_vec4_0[4 + k], mat(2).column(k));
    }
    v.set_pos_offsets(&[vals::<4>(5)]);
    assert_eq!(v.vs_uniforms_vec4_0[8], vals::<4>(5));
    assert_eq!(v.pos_offsets_at(1), Some([0.0; 4]));
}

#[test]
fn synthetic_values_ints_bools_and_unused() {
    let mut p = synthetic::Params::default();
    let mut m = Model::new(synthetic::MGFX);
    p.set_gain(0.75);
    m.set("Gain", 0, &[0.75]);
    p.set_count(-4);
    m.set("Count", 0, &[-4.0]);
    p.set_enabled(false);
    m.set("Enabled", 0, &[0.0]);
    p.set_offset([3, -9]);
    m.set("Offset", 0, &[3.0, -9.0]);
    p.set_mask([false, true, true]);
    m.set("Mask", 0, &[0.0, 1.0, 1.0]);
    p.set_normal3(mat(1));
    m.set_matrix("Normal3", 0, &mat(1));
    p.set_uv(mat(2));
    m.set_matrix("Uv", 0, &mat(2));
    p.set_points(&[[9.0, 8.0]]);
    m.set("Points", 0, &[9.0, 8.0]);
    p.set_type_(6.0);
    m.set("type", 0, &[6.0]);
    let before = p;
    p.set_unused([1.0; 4]);
    p.set_unused_list(&[1.0, 2.0]);
    assert_eq!(p.set_unused_list_at(1, 3.0), Ok(()));
    assert_eq!(
        p.set_unused_list_at(2, 3.0),
        Err(IndexOutOfRange { index: 2, len: 2 })
    );
    assert_eq!(p, before, "setters of unused parameters write nothing");
    assert_eq!(records(&p), m.upload());

    // Gain and Points are in both stages.
    assert_eq!(p.vs_uniforms_vec4_1[5][0], 0.75);
    assert_eq!(p.vs_uniforms_vec4_1[6], [9.0, 8.0, 0.0, 0.0]);
    assert_eq!(p.ps_uniforms_vec4_0[5], [9.0, 8.0, 0.0, 0.0]);
    // Getters.
    assert_eq!((p.gain(), p.count(), p.enabled()), (0.75, -4, false));
    assert_eq!((p.offset(), p.mask()), ([3, -9], [false, true, true]));
    assert_eq!(p.normal3(), block::<3, 3>(&mat(1)));
    assert_eq!(p.uv(), block::<3, 2>(&mat(2)));
    assert_eq!(p.points_at(0), Some([9.0, 8.0]));
    assert_eq!(p.unused(), [0.25, 0.5, 0.75, 1.0]);
    assert_eq!(p.unused_list(), [9.0, 10.0]);
    assert_eq!(p.unused_list_at(1), Some(10.0));
    // Items.
    assert_eq!(synthetic::Technique::Technique1.name(), "");
    assert_eq!(synthetic::Technique::Main.pass_names(), &["First", ""][..]);
    let (first, second) = (
        synthetic::passes::main::FIRST,
        synthetic::passes::main::PASS_1,
    );
    assert_eq!((first.index(), second.index()), (0, 1));
    assert_eq!(synthetic::Technique::Main.passes(), &[first, second][..]);
    let other = synthetic::passes::technique1::P;
    assert_eq!((other.technique_index(), other.index()), (1, 0));
    assert_eq!(
        (
            synthetic::textures::ALBEDO.parameter_index(),
            synthetic::textures::ALBEDO_UNITS
        ),
        (11, &[2u8][..])
    );
}

#[test]
fn params_are_pod_with_the_runtime_feature() {
    fn pod<T: bytemuck::Pod>() {}
    pod::<basic_effect::Params>();
    let mut p: synthetic::Params = bytemuck::Zeroable::zeroed();
    p.set_gain(1.5);
    let floats: &[f32] = bytemuck::cast_slice(bytemuck::bytes_of(&p));
    assert_eq!(floats.len(), 18 * 4);
    assert_eq!(floats[0], 1.5, "record 0 register 0 lane 0 comes first");
    assert_eq!(
        floats[9 * 4 + 5 * 4],
        1.5,
        "record 1 register 5 (vertex Gain)"
    );
}
