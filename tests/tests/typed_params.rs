//! Typed setters land in the registers the shader reads: every parameter kind is set through
//! the setter `include_effect!` generated, the whole `Params` is uploaded through the typed
//! `GlEffect::<E>::set_params` (one `glUniform4fv` per record, as MonoGame's GL runtime uploads
//! its constant buffers), a quad is drawn under Mesa, and the value the shader saw is read back.
//!
//! The probe shaders (`probes/*.fx`) write each uniform to its own 4-pixel column. Every
//! component set in a test is distinct (steps of 0.011, far above 8-bit rounding), so a setter
//! that fills a neighbouring register, the wrong lanes or a transposed matrix shows up as a
//! wrong colour in some column.

#![deny(warnings)]

use shadowdusk::gl::{sprite_vs, GlEffect};
use shadowdusk::params::{EffectParams, Matrix};
use shadowdusk::{include_effect, Effect, Pass};
use shadowdusk_tests::{draw_sprite, Headless, Orientation, Sprite};

include_effect!("probes/ps_kinds.fx", in_process);
include_effect!("probes/both_stages.fx", in_process);
include_effect!("probes/mat43.fx", in_process);

const CELL: u32 = 4;
/// Largest difference allowed between a set value and its 8-bit read-back.
const TOLERANCE: f32 = 1.5 / 255.0;

/// Distinct values in (0, 1).
struct Values(f32);

impl Values {
    fn new() -> Values {
        Values(0.0)
    }
    fn next(&mut self) -> f32 {
        self.0 += 0.011;
        assert!(self.0 < 1.0, "too many probe values for (0, 1)");
        self.0
    }
    fn v<const N: usize>(&mut self) -> [f32; N] {
        std::array::from_fn(|_| self.next())
    }
}

/// Draws a full-target quad with `pass` of effect `E` and returns the colour at the centre of
/// each of `cells` columns; `None` (after a loud line) without headless GL.
fn render<E: Effect>(
    test: &str,
    pass: Pass<E>,
    params: &E::Params,
    cells: u32,
) -> Option<Vec<[f32; 4]>> {
    let h = Headless::or_skip(test, cells * CELL, CELL)?;
    let mut effect = GlEffect::<E>::new(h.ctx()).unwrap_or_else(|e| panic!("{test}: {e}"));
    effect.set_params(params);
    h.clear([0, 0, 0, 0]);
    let target = h.target(Orientation::Backbuffer);
    let pass = effect
        .apply(pass, &target)
        .unwrap_or_else(|e| panic!("{test}: {e}"));
    let quad = Sprite::new(0.0, 0.0, (cells * CELL) as f32, CELL as f32);
    draw_sprite(h.ctx(), &pass, &quad).unwrap_or_else(|e| panic!("{test}: {e}"));
    let img = h.read_rgba(Orientation::Backbuffer);
    Some(
        (0..cells)
            .map(|c| {
                let p = img.get_pixel(c * CELL + CELL / 2, CELL / 2).0;
                p.map(|v| v as f32 / 255.0)
            })
            .collect(),
    )
}

fn assert_cell(cells: &[[f32; 4]], i: usize, expected: [f32; 4], what: &str) {
    let got = cells[i];
    let ok = got
        .iter()
        .zip(expected)
        .all(|(g, e)| (g - e).abs() <= TOLERANCE);
    assert!(
        ok,
        "{what} (column {i}): the shader saw {got:?}, expected {expected:?}"
    );
}

/// What a column must show: (column, colour, what it probes).
type Expected = (usize, [f32; 4], &'static str);

/// Every `ps_kinds` parameter set to distinct values, and what each column must show.
fn ps_kinds_probe() -> (ps_kinds::Params, Vec<Expected>) {
    let mut v = Values::new();
    let mut p = ps_kinds::Params::default();
    let mut expect = Vec::new();

    let scalar = v.next();
    p.set_scalar(scalar);
    p.set_count(7);
    p.set_flag(true);
    expect.push((
        0,
        [scalar, 0.7, 0.75, 1.0],
        "float Scalar, int Count, bool Flag",
    ));

    let [x, y] = v.v();
    p.set_vec2([x, y]);
    expect.push((1, [x, y, 0.0, 1.0], "float2 Vec2"));
    let [x, y, z] = v.v();
    p.set_vec3([x, y, z]);
    expect.push((2, [x, y, z, 1.0], "float3 Vec3"));
    let vec4 = v.v();
    p.set_vec4(vec4);
    expect.push((3, vec4, "float4 Vec4"));

    // XNA rows; HLSL `Mat4[r]` is row r under MonoGame's SetValue(Matrix).
    let m4: [[f32; 4]; 4] = std::array::from_fn(|_| v.v());
    p.set_mat4(Matrix::from_rows(m4));
    for (r, row) in m4.iter().enumerate() {
        expect.push((4 + r, *row, "float4x4 Mat4 row"));
    }
    let m3: [[f32; 4]; 4] = std::array::from_fn(|r| {
        if r < 3 {
            let [a, b, c] = v.v();
            [a, b, c, 0.9]
        } else {
            [0.95; 4]
        }
    });
    p.set_mat3(Matrix::from_rows(m3));
    for (r, row) in m3.iter().take(3).enumerate() {
        expect.push((8 + r, [row[0], row[1], row[2], 1.0], "float3x3 Mat3 row"));
    }

    let colors: [[f32; 4]; 3] = std::array::from_fn(|_| v.v());
    p.set_colors(&colors);
    let replaced = v.v();
    p.set_colors_at(1, replaced).expect("index 1 is in range");
    assert!(p.set_colors_at(3, replaced).is_err());
    expect.push((11, colors[0], "float4 Colors[0] (slice setter)"));
    expect.push((12, replaced, "float4 Colors[1] (element setter)"));
    expect.push((13, colors[2], "float4 Colors[2] (slice setter)"));
    let pairs: [[f32; 2]; 2] = std::array::from_fn(|_| v.v());
    p.set_pairs(&pairs);
    for (i, pair) in pairs.iter().enumerate() {
        expect.push((14 + i, [pair[0], pair[1], 0.0, 1.0], "float2 Pairs[i]"));
    }

    let diffuse = v.v();
    p.set_diffuse(diffuse);
    expect.push((16, diffuse, "cbuffer Material member float4 Diffuse"));
    let gloss = v.next();
    p.set_gloss(gloss);
    expect.push((
        17,
        [gloss, 0.0, 0.0, 1.0],
        "cbuffer Material member float Gloss",
    ));
    (p, expect)
}

/// Renders the full probe and checks the columns whose label contains one of `kinds`.
fn check_ps_kinds(test: &str, kinds: &[&str]) {
    let (p, expect) = ps_kinds_probe();
    let Some(cells) = render(test, ps_kinds::passes::probe::P0, &p, 20) else {
        return;
    };
    let mut checked = 0;
    for (i, e, what) in expect {
        if kinds.iter().any(|k| what.contains(k)) {
            assert_cell(&cells, i, e, what);
            checked += 1;
        }
    }
    assert!(checked > 0, "{test}: no column matched {kinds:?}");
}

#[test]
fn scalar_int_and_bool() {
    check_ps_kinds("scalar_int_and_bool", &["Scalar"]);
}

#[test]
fn vectors() {
    check_ps_kinds("vectors", &["Vec2", "Vec3", "Vec4"]);
}

#[test]
fn matrix_4x4_has_monogame_set_value_meaning() {
    check_ps_kinds("matrix_4x4_has_monogame_set_value_meaning", &["Mat4"]);
}

#[test]
fn matrix_3x3() {
    check_ps_kinds("matrix_3x3", &["Mat3"]);
}

#[test]
fn arrays_by_slice_and_by_element() {
    check_ps_kinds("arrays_by_slice_and_by_element", &["Colors", "Pairs"]);
}

#[test]
fn cbuffer_members() {
    check_ps_kinds("cbuffer_members", &["cbuffer"]);
}

#[test]
fn initializer_defaults_reach_the_shader() {
    let p = ps_kinds::Params::default();
    assert_eq!(p.scalar(), 0.5);
    let pass = ps_kinds::passes::probe::P0;
    let Some(cells) = render("initializer_defaults_reach_the_shader", pass, &p, 20) else {
        return;
    };
    assert_cell(
        &cells,
        0,
        [0.5, 0.0, 0.25, 1.0],
        "Scalar = 0.5, Count 0, Flag false",
    );
    assert_cell(&cells, 3, [0.0; 4], "float4 Vec4 (no initializer)");
}

#[test]
fn both_stages() {
    let test = "both_stages";
    let (w, h) = (4 * CELL, CELL);
    let mut v = Values::new();
    let mut p = both_stages::Params::default();
    // SpriteBatch's pixel → clip projection as an XNA matrix (translation in row 3): the quad
    // covers the target only if the vertex shader sees it with SetValue(Matrix)'s meaning.
    p.set_world_view_proj(Matrix::from_rows(sprite_vs::default_transform(w, h, false)));
    let vs_value = v.v();
    let ps_value = v.v();
    let shared = v.v();
    p.set_vs_value(vs_value);
    p.set_ps_value(ps_value);
    p.set_shared(shared);
    assert!(
        p.constant_buffer_count() >= 2,
        "expected a record per stage"
    );
    let Some(cells) = render(test, both_stages::passes::probe::P0, &p, 4) else {
        return;
    };
    assert_cell(&cells, 0, vs_value, "VS uniform VsValue, through a varying");
    assert_cell(&cells, 1, ps_value, "PS uniform PsValue");
    assert_cell(&cells, 2, shared, "Shared as the vertex shader saw it");
    assert_cell(&cells, 3, shared, "Shared as the pixel shader saw it");
}

#[test]
fn matrix_4x3_and_palette_have_monogame_set_value_meaning() {
    // MonoGame's SetValue(Matrix) on a float4x3: register k holds the first four entries of
    // column k, for three registers; HLSL `M[r]` is then XNA row r's first three entries.
    let mut v = Values::new();
    let mut p = mat43::Params::default();
    let rows = |v: &mut Values| -> [[f32; 4]; 4] {
        std::array::from_fn(|_| {
            let [a, b, c] = v.v();
            [a, b, c, 0.0]
        })
    };
    let t = rows(&mut v);
    p.set_transform(Matrix::from_rows(t));
    let palette = [rows(&mut v), rows(&mut v)];
    p.set_palette(&palette.map(Matrix::from_rows));
    let Some(cells) = render(
        "matrix_4x3_and_palette_have_monogame_set_value_meaning",
        mat43::passes::probe::P0,
        &p,
        12,
    ) else {
        return;
    };
    for (k, m) in [t, palette[0], palette[1]].iter().enumerate() {
        for (r, row) in m.iter().enumerate() {
            assert_cell(
                &cells,
                k * 4 + r,
                [row[0], row[1], row[2], 1.0],
                "float4x3 row",
            );
        }
    }
}

#[test]
fn matrix_4x3_setters_take_rust_shapes_glam_and_mint() {
    // The same register image as SetValue(Matrix), reached from the shapes a Rust user holds:
    // HLSL rows, a flat row-major array, a glam affine bone (the same transform) and mint rows.
    let mut v = Values::new();
    let mut p = mat43::Params::default();
    let rows = |v: &mut Values| -> [[f32; 3]; 4] { std::array::from_fn(|_| v.v()) };
    let t = rows(&mut v);
    p.set_transform(t);
    let flat = rows(&mut v);
    let [a, b] = [flat, rows(&mut v)];
    let flat_values: Vec<f32> = a.iter().flatten().copied().collect();
    let flat_array: [f32; 12] = flat_values.try_into().expect("twelve values");
    p.set_palette(&[flat_array]);
    // A glam bone: column-vector convention, so the HLSL rows are its axes and translation.
    let bone = glam::Affine3A::from_cols(
        glam::Vec3A::from(b[0]),
        glam::Vec3A::from(b[1]),
        glam::Vec3A::from(b[2]),
        glam::Vec3A::from(b[3]),
    );
    p.set_palette_at(1, bone).expect("index 1 is in range");
    let test = "matrix_4x3_setters_take_rust_shapes_glam_and_mint";
    let Some(cells) = render(test, mat43::passes::probe::P0, &p, 12) else {
        return;
    };
    for (k, m) in [t, a, b].iter().enumerate() {
        for (r, row) in m.iter().enumerate() {
            assert_cell(
                &cells,
                k * 4 + r,
                [row[0], row[1], row[2], 1.0],
                "float4x3 row",
            );
        }
    }
    // mint's row matrix is the rows too; the getter reads back what every form wrote.
    let mut q = mat43::Params::default();
    q.set_transform(mint::RowMatrix4x3::<f32>::from(t));
    assert_eq!(q.transform().rows, t);
    assert_eq!(p.palette_at(1).map(|m| m.rows), Some(b));
}
