//! The effect corpus compiles, and every MGFX matches the table in `shadowdusk_tests::corpus`:
//! techniques, passes and their stages and states, sampler records, parameters and baked
//! defaults; the bytes read back equal the model and are the same on every compile.
//!
//! The first three tests check the table itself and need no compiler.

use std::collections::BTreeMap;
use std::path::Path;

use shadowdusk::mgfx::{self, Effect, ParameterClass, ParameterType, SamplerType, ShaderStage};
use shadowdusk_compiler::pipeline::{compile_file, Options};
use shadowdusk_tests::corpus::{
    corpus_dir, entries, Entry, Geometry, Reference, TextureSpec, CLEAR, TARGET_SIZE,
};
use shadowdusk_tests::{glsl_check, Orientation};

fn fx_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("tests/corpus exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".fx"))
        .collect();
    names.sort();
    names
}

#[test]
fn table_has_one_entry_per_effect_file() {
    let files = fx_files();
    let table: Vec<String> = entries().iter().map(|e| e.file.to_string()).collect();
    assert_eq!(
        files, table,
        "tests/corpus/*.fx and the corpus table differ"
    );
    assert!(
        files.len() >= 32,
        "the corpus must hold at least 32 effects, has {}",
        files.len()
    );
    for f in &files {
        let text = std::fs::read_to_string(corpus_dir().join(f)).unwrap();
        assert!(
            text.starts_with("// Concern: "),
            "{f}: the first line must state its concern"
        );
    }
    // `Check` cannot be built without a reference, so every effect has one; that each one
    // decides and draws most pixels is `references_draw_something_and_are_mostly_decided`.
    // Only window-space inputs may make the two orientations differ.
    let per_orientation: Vec<&str> = entries()
        .iter()
        .filter(|e| matches!(e.render.check.reference, Reference::PerOrientation { .. }))
        .map(|e| e.file)
        .collect();
    assert_eq!(
        per_orientation,
        [
            "compat_sem_vface_member.fx",
            "vface_two_sided.fx",
            "vpos_checker.fx"
        ],
        "only VPOS and VFACE effects see the orientation"
    );
}

/// What is set must exist with that shape; textures must match their parameter's type.
#[test]
fn render_descriptions_fit_the_parameters() {
    for e in entries() {
        let params: BTreeMap<_, _> = e.parameters.iter().map(|p| (p.name, p)).collect();
        assert_eq!(
            params.len(),
            e.parameters.len(),
            "{}: duplicate parameter names in the table",
            e.file
        );
        for (name, value) in &e.render.values {
            let p = params
                .get(name)
                .unwrap_or_else(|| panic!("{}: sets unknown parameter {name}", e.file));
            assert_ne!(
                p.class,
                ParameterClass::Object,
                "{}: {name} is a texture",
                e.file
            );
            assert_eq!(
                (p.rows, p.columns),
                (value.rows, value.columns),
                "{}: shape of {name}",
                e.file
            );
            let per = p.rows as usize * p.columns as usize;
            assert_eq!(
                value.hlsl.len(),
                per * p.elements.max(1),
                "{}: value count of {name}",
                e.file
            );
            assert!(
                value.hlsl.iter().any(|v| *v != 0.0),
                "{}: {name} is set to all zeros",
                e.file
            );
        }
        for (name, spec) in &e.render.textures {
            let p = params
                .get(name)
                .unwrap_or_else(|| panic!("{}: binds unknown texture {name}", e.file));
            let want = match spec {
                TextureSpec::D2 { .. } => ParameterType::Texture2D,
                TextureSpec::Cube { .. } => ParameterType::TextureCube,
                TextureSpec::D3 { .. } => ParameterType::Texture3D,
            };
            assert_eq!(
                (p.class, p.ty),
                (ParameterClass::Object, want),
                "{}: texture {name}",
                e.file
            );
        }
        for t in &e.techniques {
            for pass in &t.passes {
                for s in &pass.samplers {
                    assert!(
                        params.contains_key(s.parameter),
                        "{}: sampler parameter {}",
                        e.file,
                        s.parameter
                    );
                }
            }
        }
        assert!(
            e.techniques.iter().any(|t| t.name == e.render.technique),
            "{}: render technique",
            e.file
        );
        if let Geometry::Mesh(m) = &e.render.geometry {
            let per: usize = m.elements.iter().map(|x| x.format.components()).sum();
            assert!(
                m.vertices.iter().all(|v| v.len() == per),
                "{}: vertex sizes",
                e.file
            );
            assert!(
                m.indices.iter().all(|&i| (i as usize) < m.vertices.len()),
                "{}: indices",
                e.file
            );
        }
    }
}

/// A reference that answers "don't know" everywhere, or draws nothing, proves nothing.
#[test]
fn references_draw_something_and_are_mostly_decided() {
    let (w, h) = TARGET_SIZE;
    let mut problems = Vec::new();
    for (e, o) in entries().into_iter().flat_map(|e| {
        [
            (e.clone(), Orientation::Backbuffer),
            (e, Orientation::RenderTarget),
        ]
    }) {
        let f = e.render.check.reference.pixel_fn(o);
        let (mut drawn, mut undecided) = (0, 0);
        for y in 0..h {
            for x in 0..w {
                match f(x, y) {
                    None => undecided += 1,
                    Some(c) if c != CLEAR => drawn += 1,
                    Some(_) => {}
                }
            }
        }
        let total = (w * h) as f32;
        // The most undecided reference today (matrix_2x2_3x3) leaves 192 of 4096 pixels open.
        if (drawn as f32) < 0.15 * total || (undecided as f32) > 0.05 * total {
            problems.push(format!(
                "{} ({o:?}): {drawn} pixels drawn, {undecided} undecided",
                e.file
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "weak references:\n{}",
        problems.join("\n")
    );
}

fn check_effect(e: &Entry, effect: &Effect) -> Vec<String> {
    let mut errs = Vec::new();
    let mut err = |s: String| errs.push(format!("{}: {s}", e.file));
    // Techniques and passes.
    let got: Vec<_> = effect.techniques.iter().map(|t| t.name.as_str()).collect();
    let want: Vec<_> = e.techniques.iter().map(|t| t.name).collect();
    if got != want {
        err(format!("techniques {got:?}, expected {want:?}"));
        return errs;
    }
    for (t, tw) in effect.techniques.iter().zip(&e.techniques) {
        let got: Vec<_> = t.passes.iter().map(|p| p.name.as_str()).collect();
        let want: Vec<_> = tw.passes.iter().map(|p| p.name).collect();
        if got != want {
            err(format!(
                "technique {}: passes {got:?}, expected {want:?}",
                t.name
            ));
            continue;
        }
        for (p, pw) in t.passes.iter().zip(&tw.passes) {
            let at = format!("{}/{}", t.name, p.name);
            let stage_of = |i: i32| effect.shaders.get(i as usize).map(|s| s.stage);
            if (p.vertex_shader >= 0) != pw.vertex
                || (pw.vertex && stage_of(p.vertex_shader) != Some(ShaderStage::Vertex))
            {
                err(format!(
                    "{at}: vertex shader index {} (expected one: {})",
                    p.vertex_shader, pw.vertex
                ));
            }
            if (p.pixel_shader >= 0) != pw.pixel
                || (pw.pixel && stage_of(p.pixel_shader) != Some(ShaderStage::Pixel))
            {
                err(format!(
                    "{at}: pixel shader index {} (expected one: {})",
                    p.pixel_shader, pw.pixel
                ));
            }
            if p.blend != pw.blend {
                err(format!(
                    "{at}: blend {:?}, expected {:?}",
                    p.blend, pw.blend
                ));
            }
            if p.depth_stencil != pw.depth_stencil {
                err(format!(
                    "{at}: depth-stencil {:?}, expected {:?}",
                    p.depth_stencil, pw.depth_stencil
                ));
            }
            if p.rasterizer != pw.rasterizer {
                err(format!(
                    "{at}: rasterizer {:?}, expected {:?}",
                    p.rasterizer, pw.rasterizer
                ));
            }
            if p.annotations != 0 {
                err(format!(
                    "{at}: pass annotation count {} (mgfxc writes 0)",
                    p.annotations
                ));
            }
            let Some(ps) = effect
                .shaders
                .get(p.pixel_shader.max(0) as usize)
                .filter(|_| pw.pixel)
            else {
                continue;
            };
            let mut samplers: Vec<_> = ps.samplers.iter().collect();
            samplers.sort_by_key(|s| s.texture_slot);
            let mut want = pw.samplers.clone();
            want.sort_by_key(|s| s.slot);
            if samplers.len() != want.len() {
                err(format!(
                    "{at}: {} sampler records, expected {}: {samplers:?}",
                    samplers.len(),
                    want.len()
                ));
                continue;
            }
            for (s, sw) in samplers.iter().zip(&want) {
                let param = effect
                    .parameters
                    .get(s.parameter as usize)
                    .map(|p| p.name.as_str());
                let ok = s.name == sw.name()
                    && s.ty == sw.ty
                    && s.texture_slot == sw.slot
                    && s.sampler_slot == sw.slot
                    && param == Some(sw.parameter)
                    && s.state == sw.state;
                if !ok {
                    err(format!(
                        "{at}: sampler {} {:?} slots {}/{} parameter {param:?} state {:?}; expected {} {:?} slot {} parameter {} state {:?}",
                        s.name, s.ty, s.texture_slot, s.sampler_slot, s.state, sw.name(), sw.ty, sw.slot, sw.parameter, sw.state
                    ));
                }
            }
        }
    }
    // Parameters, as a set by name.
    let mut got: BTreeMap<&str, &mgfx::Parameter> = BTreeMap::new();
    for p in &effect.parameters {
        if got.insert(p.name.as_str(), p).is_some() {
            err(format!("parameter {} appears twice", p.name));
        }
    }
    let want_names: Vec<_> = {
        let mut v: Vec<_> = e.parameters.iter().map(|p| p.name).collect();
        v.sort();
        v
    };
    let got_names: Vec<_> = got.keys().copied().collect();
    if got_names != want_names {
        err(format!("parameters {got_names:?}, expected {want_names:?}"));
    }
    for pw in &e.parameters {
        let Some(p) = got.get(pw.name) else { continue };
        if (p.class, p.ty, p.rows, p.columns, p.elements.len())
            != (pw.class, pw.ty, pw.rows, pw.columns, pw.elements)
        {
            err(format!(
                "parameter {}: {:?} {:?} {}x{} [{}], expected {:?} {:?} {}x{} [{}]",
                pw.name,
                p.class,
                p.ty,
                p.rows,
                p.columns,
                p.elements.len(),
                pw.class,
                pw.ty,
                pw.rows,
                pw.columns,
                pw.elements
            ));
            continue;
        }
        if p.annotations != 0 || !p.members.is_empty() {
            err(format!(
                "parameter {}: annotations {} members {}",
                pw.name,
                p.annotations,
                p.members.len()
            ));
        }
        let leaves: Vec<Option<Vec<f32>>> = if p.elements.is_empty() {
            vec![p
                .data
                .as_ref()
                .map(|d| d.iter().map(|b| f32::from_bits(*b)).collect())]
        } else {
            p.elements
                .iter()
                .map(|el| {
                    el.data
                        .as_ref()
                        .map(|d| d.iter().map(|b| f32::from_bits(*b)).collect())
                })
                .collect()
        };
        match pw.expected_data() {
            None => {
                if leaves.iter().any(|l| l.is_some()) {
                    err(format!("texture parameter {} carries data", pw.name));
                }
            }
            Some(want) => {
                let same = leaves.len() == want.len()
                    && leaves.iter().zip(&want).all(|(g, w)| {
                        g.as_ref().is_some_and(|g| {
                            g.len() == w.len() && g.iter().zip(w).all(|(a, b)| (a - b).abs() < 1e-6)
                        })
                    });
                if !same {
                    err(format!(
                        "parameter {}: data {leaves:?}, expected {want:?}",
                        pw.name
                    ));
                }
            }
        }
    }
    errs
}

/// Compiles every effect; reports every failure at once.
#[test]
fn every_effect_compiles_and_matches_its_table_entry() {
    let mut failures = Vec::new();
    for e in entries() {
        let path = corpus_dir().join(e.file);
        let compiled = match compile_file(&path, &Options::default()) {
            Ok(c) => c,
            Err(err) => {
                failures.push(format!(
                    "{}: does not compile:\n{}",
                    e.file,
                    err.render(false)
                ));
                continue;
            }
        };
        match mgfx::read(&compiled.bytes) {
            Ok(back) if back == compiled.effect => {}
            Ok(_) => failures.push(format!(
                "{}: the bytes read back differ from the model",
                e.file
            )),
            Err(err) => failures.push(format!("{}: the bytes do not read back: {err:?}", e.file)),
        }
        failures.extend(check_effect(&e, &compiled.effect));
        match compile_file(&path, &Options::default()) {
            Ok(again) if again.bytes == compiled.bytes => {}
            Ok(_) => failures.push(format!(
                "{}: a second compile gives different bytes",
                e.file
            )),
            Err(_) => failures.push(format!("{}: a second compile fails", e.file)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} corpus failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Included files are reported as dependencies.
#[test]
fn include_effects_report_their_headers() {
    let cases: [(&str, &[&str]); 2] = [
        ("include_lighting.fx", &["Lighting.fxh", "ColorUtils.fxh"]),
        ("macros_technique.fx", &["Macros.fxh"]),
    ];
    for (file, headers) in cases {
        let compiled = compile_file(&corpus_dir().join(file), &Options::default())
            .unwrap_or_else(|e| panic!("{file} does not compile:\n{}", e.render(false)));
        assert!(
            compiled.deps.first().is_some_and(|d| d.ends_with(file)),
            "{file}: main file first in {:?}",
            compiled.deps
        );
        for h in headers {
            let n = compiled
                .deps
                .iter()
                .filter(|d| d.file_name() == Some(Path::new(h).as_os_str()))
                .count();
            assert_eq!(
                n, 1,
                "{file}: {h} must be listed once in {:?}",
                compiled.deps
            );
        }
    }
}

/// The table's sampler types follow the texture parameter types. A plain `sampler` read with
/// two dimensions by two techniques' entries names one parameter, typed as mgfxc types it: by
/// the first shader that samples it.
#[test]
fn table_sampler_types_match_texture_types() {
    for e in entries() {
        let mut first: Vec<(&str, ParameterType)> = Vec::new();
        for t in &e.techniques {
            for p in &t.passes {
                for s in &p.samplers {
                    let want = match s.ty {
                        SamplerType::Sampler2D => ParameterType::Texture2D,
                        SamplerType::SamplerCube => ParameterType::TextureCube,
                        SamplerType::SamplerVolume => ParameterType::Texture3D,
                        SamplerType::Sampler1D => ParameterType::Texture1D,
                    };
                    if !first.iter().any(|(n, _)| *n == s.parameter) {
                        first.push((s.parameter, want));
                    }
                }
            }
        }
        for (name, want) in first {
            let param = e.parameters.iter().find(|x| x.name == name).unwrap();
            assert_eq!(param.ty, want, "{}: texture parameter {name}", e.file);
        }
    }
}

/// A technique name with its passes' (name, has VS, has PS).
type TechniqueShape<'a> = (&'a str, Vec<(&'a str, bool, bool)>);

/// Stage check that needs only the preprocessor and the effect parser: the techniques, passes,
/// stages, render states, uniform initializers and baked sampler states of the table are what
/// the parser extracts. Localises a table mismatch before the whole pipeline exists.
#[test]
fn every_effect_parses_to_its_table_techniques_states_and_defaults() {
    use shadowdusk_compiler::effect::parse;
    use shadowdusk_compiler::preprocess::{preprocess, Options as PreOptions};
    use shadowdusk_compiler::source::SourceFiles;

    let mut failures = Vec::new();
    for e in entries() {
        let mut files = SourceFiles::new();
        let path = corpus_dir().join(e.file);
        let parsed = match preprocess(&path, None, &PreOptions::default(), &mut files)
            .and_then(|x| parse(&x))
        {
            Ok(p) => p,
            Err(d) => {
                failures.push(format!("{}: does not preprocess/parse: {d:?}", e.file));
                continue;
            }
        };
        let ast = &parsed.ast;
        let got: Vec<TechniqueShape> = ast
            .techniques
            .iter()
            .map(|t| {
                let passes = t
                    .passes
                    .iter()
                    .map(|p| {
                        (
                            p.name.as_str(),
                            p.vertex_shader.is_some(),
                            p.pixel_shader.is_some(),
                        )
                    })
                    .collect();
                (t.name.as_str(), passes)
            })
            .collect();
        let want: Vec<TechniqueShape> = e
            .techniques
            .iter()
            .map(|t| {
                (
                    t.name,
                    t.passes
                        .iter()
                        .map(|p| (p.name, p.vertex, p.pixel))
                        .collect(),
                )
            })
            .collect();
        if got != want {
            failures.push(format!("{}: techniques {got:?}, expected {want:?}", e.file));
            continue;
        }
        for (t, tw) in ast.techniques.iter().zip(&e.techniques) {
            for (p, pw) in t.passes.iter().zip(&tw.passes) {
                if (p.blend, p.depth_stencil, p.rasterizer)
                    != (pw.blend, pw.depth_stencil, pw.rasterizer)
                {
                    failures.push(format!(
                        "{}: {}/{}: states {:?} {:?} {:?}, expected {:?} {:?} {:?}",
                        e.file,
                        t.name,
                        p.name,
                        p.blend,
                        p.depth_stencil,
                        p.rasterizer,
                        pw.blend,
                        pw.depth_stencil,
                        pw.rasterizer
                    ));
                }
            }
        }
        for pw in e
            .parameters
            .iter()
            .filter(|p| p.class != ParameterClass::Object)
        {
            let entry_uniform = ast.entry_uniform(pw.name);
            let global = ast.globals.iter().find(|g| g.name == pw.name);
            match global.or(entry_uniform.as_ref()) {
                None => failures.push(format!("{}: no uniform {}", e.file, pw.name)),
                Some(g) => {
                    let init: Option<Vec<f32>> = g
                        .initializer
                        .as_ref()
                        .map(|v| v.iter().map(|x| *x as f32).collect());
                    if init != pw.default {
                        failures.push(format!(
                            "{}: {} initializer {init:?}, expected {:?}",
                            e.file, pw.name, pw.default
                        ));
                    }
                }
            }
        }
        for s in e
            .techniques
            .iter()
            .flat_map(|t| &t.passes)
            .flat_map(|p| &p.samplers)
        {
            let decl = ast
                .samplers
                .iter()
                .find(|d| d.texture.as_deref() == Some(s.parameter))
                .or_else(|| ast.samplers.iter().find(|d| d.name == s.parameter))
                // A modern `Texture2D` read through a `SamplerState` of another name.
                .or_else(|| {
                    ast.samplers
                        .iter()
                        .find(|d| !d.legacy && d.state.is_some() && d.state == s.state)
                });
            let Some(decl) = decl else {
                if s.state.is_some() {
                    failures.push(format!(
                        "{}: no sampler declaration for {}",
                        e.file, s.parameter
                    ));
                }
                continue;
            };
            if decl.state != s.state {
                failures.push(format!(
                    "{}: sampler {} state {:?}, expected {:?}",
                    e.file, decl.name, decl.state, s.state
                ));
            }
            if decl.register.is_some_and(|r| r != s.slot as u32) {
                failures.push(format!(
                    "{}: sampler {} register {:?}, table slot {}",
                    e.file, decl.name, decl.register, s.slot
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} parse-stage failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Stage check up to the dialect rewrite: every shader of every pass lowers, compiles with DXC,
/// translates and rewrites. Names the failing stage and entry when the whole pipeline is not there yet.
#[test]
fn every_shader_lowers_compiles_translates_and_rewrites() {
    use shadowdusk_compiler::effect::parse;
    use shadowdusk_compiler::lower::{lower, Stage};
    use shadowdusk_compiler::preprocess::{preprocess, Options as PreOptions};
    use shadowdusk_compiler::source::SourceFiles;

    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(
            "every_shader_lowers_compiles_translates_and_rewrites",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return;
    }
    let mut failures = Vec::new();
    for e in entries() {
        let mut files = SourceFiles::new();
        let path = corpus_dir().join(e.file);
        let Ok(expanded) = preprocess(&path, None, &PreOptions::default(), &mut files) else {
            failures.push(format!("{}: preprocess fails", e.file));
            continue;
        };
        let Ok(parsed) = parse(&expanded) else {
            failures.push(format!("{}: parse fails", e.file));
            continue;
        };
        for t in &parsed.ast.techniques {
            for p in &t.passes {
                let shaders = [
                    (Stage::Vertex, &p.vertex_shader),
                    (Stage::Pixel, &p.pixel_shader),
                ];
                for (stage, shader) in shaders {
                    let Some(s) = shader else { continue };
                    let at = format!("{} {}/{} {:?} {}", e.file, t.name, p.name, stage, s.entry);
                    let lowered = match lower(&expanded, &parsed, s, stage) {
                        Ok(l) => l,
                        Err(d) => {
                            failures.push(format!("{at}: lower: {d:?}"));
                            continue;
                        }
                    };
                    let spirv = match shadowdusk_compiler::dxc::compile(
                        &lowered.text,
                        &lowered.entry,
                        stage,
                    ) {
                        Ok(s) => s,
                        Err(err) => {
                            failures.push(format!("{at}: DXC: {err}"));
                            continue;
                        }
                    };
                    let cross = match shadowdusk_compiler::cross::to_glsl(&spirv, stage) {
                        Ok(c) => c,
                        Err(err) => {
                            failures.push(format!("{at}: SPIRV-Cross: {err}"));
                            continue;
                        }
                    };
                    // Slots by SPIRV-Cross order: enough to exercise the rewrite, not the
                    // pipeline's register mapping (the full-pipeline test checks that).
                    let slot_of = |c: &shadowdusk_compiler::cross::CombinedSampler| {
                        cross
                            .combined
                            .iter()
                            .position(|x| std::ptr::eq(x, c))
                            .map(|i| i as u32)
                    };
                    if let Err(err) = shadowdusk_compiler::dialect::rewrite(&cross, stage, &slot_of)
                    {
                        failures.push(format!("{at}: dialect: {err}"));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} stage failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The depth-writing corpus shader, as MonoGame's mobile platforms load it: its GLSL compiles
/// in an OpenGL ES 2.0 context, and every `#extension` line comes before the first statement
/// (GLSL ES 1.00 allows them nowhere else; Mesa is lenient there, GLES2 drivers are not).
#[test]
fn depth_writing_shader_compiles_as_glsl_es_100() {
    let file = "compat_glsl_depth_output.fx";
    let compiled = compile_file(&corpus_dir().join(file), &Options::default())
        .unwrap_or_else(|e| panic!("{file} does not compile:\n{}", e.render(false)));
    let Some(context) = glsl_check::gles2("depth_writing_shader_compiles_as_glsl_es_100") else {
        return;
    };
    let mut checked = 0;
    for shader in &compiled.effect.shaders {
        let glsl = String::from_utf8(shader.code.clone()).expect("GLSL is text");
        if !glsl.contains("GL_EXT_frag_depth") {
            continue;
        }
        assert_extensions_first(&glsl);
        if let Err(log) = glsl_check::compile(context.gl(), false, &glsl) {
            panic!("GLSL ES 1.00 compile failed:\n{log}\n{glsl}");
        }
        checked += 1;
    }
    assert_eq!(checked, 1, "{file}: one depth-writing shader");
}

/// GLSL ES 1.00 §3.4: `#extension` lines come before any non-preprocessor token.
fn assert_extensions_first(glsl: &str) {
    let first_code = glsl
        .lines()
        .position(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .expect("a statement");
    for (k, line) in glsl.lines().enumerate() {
        if line.trim_start().starts_with("#extension") {
            assert!(
                k < first_code,
                "`{line}` after the first statement:\n{glsl}"
            );
        }
    }
}

/// Every shader of the corpus: (effect file, shader index, is a vertex shader, GLSL).
fn corpus_shaders() -> Vec<(String, usize, bool, String)> {
    let mut shaders = Vec::new();
    for file in fx_files() {
        let Ok(compiled) = compile_file(&corpus_dir().join(&file), &Options::default()) else {
            continue; // every_effect_compiles_and_matches_its_table_entry reports it
        };
        for (k, shader) in compiled.effect.shaders.iter().enumerate() {
            let glsl = String::from_utf8_lossy(&shader.code).into_owned();
            let vertex = shader.stage == ShaderStage::Vertex;
            shaders.push((file.clone(), k, vertex, glsl));
        }
    }
    assert!(shaders.len() > 100, "only {} shaders", shaders.len());
    shaders
}

/// Every shader of every corpus effect compiles as GLSL ES 1.00 in an OpenGL ES 2.0 context
/// (Mesa, `MESA_GLES_VERSION_OVERRIDE=2.0`), as MonoGame's mobile and WebGL back ends compile
/// them; vertex shaders as vertex shaders. Its `#extension` lines come first (GLSL ES allows
/// them nowhere else, and Mesa does not enforce it).
#[test]
fn every_corpus_shader_compiles_as_glsl_es_100() {
    let shaders = corpus_shaders();
    let Some(context) = glsl_check::gles2("every_corpus_shader_compiles_as_glsl_es_100") else {
        return;
    };
    let mut failures = Vec::new();
    for (file, k, vertex, glsl) in &shaders {
        assert_extensions_first(glsl);
        if let Err(log) = glsl_check::compile(context.gl(), *vertex, glsl) {
            failures.push(format!("{file} shader {k}:\n{log}\n{glsl}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} shaders do not compile as GLSL ES 1.00:\n{}",
        failures.len(),
        shaders.len(),
        failures.join("\n")
    );
}

/// The same text on MonoGame's other OpenGL back ends: desktop GLSL 1.10 (no `#version`, as
/// DesktopGL compiles it) and 1.20, and GLSL ES 3.00 as MonoGame's runtime rewrites it on an
/// OpenGL ES 3 context (compiled in the desktop context, which takes `#version 300 es` text and
/// applies the ES rules to it: here an ES 3 context would be made ES 2.0).
#[test]
fn every_corpus_shader_compiles_as_desktop_glsl_and_after_monogames_es3_upgrade() {
    let shaders = corpus_shaders();
    let test = "every_corpus_shader_compiles_as_desktop_glsl_and_after_monogames_es3_upgrade";
    let Some(context) = shadowdusk_tests::Headless::or_skip(test, 8, 8) else {
        return;
    };
    let mut failures = Vec::new();
    for (file, k, vertex, glsl) in &shaders {
        let variants = [
            ("GLSL 1.10", glsl.clone()),
            ("GLSL 1.20", format!("#version 120\n{glsl}")),
            (
                "GLSL ES 3.00 (MonoGame's upgrade)",
                glsl_check::monogame_es3_upgrade(glsl, *vertex),
            ),
        ];
        for (what, text) in variants {
            if let Err(log) = glsl_check::compile(context.gl(), *vertex, &text) {
                failures.push(format!("{file} shader {k} as {what}:\n{log}\n{text}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `compat_decl_entry_overloads.fx`: `PS()` takes the overload without `uniform` parameters and
/// `PS(true)` the gamma-correcting one, as fxc chooses; no `$gammaCorrection` reaches the
/// layout, the reflection, the generated `Params` or the WGSL.
#[test]
fn overloaded_entry_adds_no_parameter_anywhere() {
    use shadowdusk_compiler::codegen::{generate_string, CodegenOptions, MgfxSource};

    let path = corpus_dir().join("compat_decl_entry_overloads.fx");
    let options = Options {
        wgpu: true,
        ..Options::default()
    };
    let c = compile_file(&path, &options).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let mut names: Vec<&str> = c
        .effect
        .parameters
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    names.sort();
    assert_eq!(names, ["Brightness", "SpriteTexture"]);
    let mut reflected: Vec<&str> = c
        .reflection
        .parameters
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    reflected.sort();
    assert_eq!(reflected, names);
    // One pixel shader per technique: `PS()` without the correction, `PS(true)` with it.
    let glsl: Vec<String> = c
        .effect
        .shaders
        .iter()
        .map(|s| String::from_utf8_lossy(&s.code).into_owned())
        .collect();
    assert_eq!(glsl.len(), 2);
    assert!(!glsl[0].contains("pow("), "{}", glsl[0]);
    assert!(glsl[1].contains("pow("), "{}", glsl[1]);
    let wgpu = c.wgpu.as_ref().expect("a wgpu output");
    for s in &wgpu.shaders {
        assert!(!s.wgsl.contains("gammaCorrection"), "{}", s.wgsl);
    }
    let generated = generate_string(
        &c.effect,
        &c.reflection,
        &CodegenOptions {
            wgpu: c.wgpu.clone(),
            ..CodegenOptions::new("overloads", MgfxSource::Bytes(c.bytes.clone()))
        },
    )
    .expect("generates");
    assert!(generated.contains("fn set_brightness"), "{generated}");
    for unbound in ["gamma_correction", "gammaCorrection"] {
        assert!(!generated.contains(unbound), "{generated}");
    }
}
