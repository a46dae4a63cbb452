//! The wgpu target over every effect we have: the corpus (`tests/corpus`), the golden-parity
//! set (`tests/golden_parity`, MonoGame's stock effects among them). Each effect that compiles
//! for OpenGL compiles for wgpu; each WGSL module, read back by naga's own WGSL front end,
//! validates with every flag; each shader's uniform buffer is the GL record byte for byte (the
//! WGSL struct member of every parameter at the record's offset, the same size); bindings
//! follow the fixed rule.

use std::collections::BTreeMap;

use shadowdusk_compiler::pipeline::{compile_file, Compiled, Options};
use shadowdusk_compiler::wgsl::{self, WgpuBindingKind, WgpuShader};
use shadowdusk_tests::files::{fx_files, workspace_root};

/// The WGSL read back and validated as wgpu would: naga's WGSL front end, every flag.
fn reparse(w: &WgpuShader) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(&w.wgsl).map_err(|e| e.emit_to_string(&w.wgsl))?;
    wgsl::validator()
        .validate(&module)
        .map_err(|e| e.emit_to_string(&w.wgsl))?;
    if !module.entry_points.iter().any(|e| e.name == w.entry) {
        return Err(format!("no entry point `{}`", w.entry));
    }
    Ok(module)
}

/// (member name → byte offset, size) of the uniform buffer at binding 0 of `module`.
fn uniform_layout(module: &naga::Module) -> Option<(BTreeMap<String, u32>, u32)> {
    let (_, var) = module
        .global_variables
        .iter()
        .find(|(_, v)| v.space == naga::AddressSpace::Uniform)?;
    let ty = &module.types[var.ty];
    let naga::TypeInner::Struct { members, span } = &ty.inner else {
        return None;
    };
    let map = members
        .iter()
        .map(|m| (m.name.clone().unwrap_or_default(), m.offset))
        .collect();
    Some((map, *span))
}

/// Problems with the wgpu output of a compiled effect.
fn check(c: &Compiled) -> Vec<String> {
    let mut problems = Vec::new();
    if let Some(e) = c.wgpu_failure() {
        return vec![e.render(false)];
    }
    let Some(w) = &c.wgpu else {
        return vec!["no wgpu output".into()];
    };
    let e = &c.effect;
    if w.shaders.len() != e.shaders.len() {
        return vec![format!(
            "{} wgpu shaders for {} MGFX shaders",
            w.shaders.len(),
            e.shaders.len()
        )];
    }
    for (i, (s, gl)) in w.shaders.iter().zip(&e.shaders).enumerate() {
        let module = match reparse(s) {
            Ok(m) => m,
            Err(err) => {
                problems.push(format!(
                    "shader {i} ({}): WGSL does not validate:\n{err}\n{}",
                    s.stage, s.wgsl
                ));
                continue;
            }
        };
        // The GL record(s) of the shader, laid one after another as the dialect's one array.
        let mut expected = BTreeMap::new();
        let mut size = 0u32;
        for &k in &gl.cbuffers {
            let b = &e.constant_buffers[k as usize];
            for x in &b.entries {
                // WGSL names cannot hold `$` (an entry parameter fxc made an effect parameter).
                let name = e.parameters[x.parameter as usize]
                    .name
                    .trim_start_matches('$')
                    .to_string();
                expected.insert(name, size + u32::from(x.offset));
            }
            size += u32::from(b.size);
        }
        match uniform_layout(&module) {
            None if size == 0 => {}
            None => problems.push(format!(
                "shader {i}: no uniform buffer, GL record of {size} bytes"
            )),
            Some((members, span)) => {
                if span != size || s.uniform_size != size {
                    problems.push(format!(
                        "shader {i}: uniform buffer of {span} bytes ({} declared), GL record {size}",
                        s.uniform_size
                    ));
                }
                for (name, offset) in &expected {
                    if members.get(name) != Some(offset) {
                        problems.push(format!(
                            "shader {i}: `{name}` at {:?} in WGSL, at {offset} in the GL record",
                            members.get(name)
                        ));
                    }
                }
            }
        }
        // The fixed binding rule, and every sampler slot of the GL shader bound.
        let group = if s.stage == "vertex" { 0 } else { 1 };
        for b in &s.bindings {
            let ok = b.group == group
                && match (&b.kind, b.slot) {
                    (WgpuBindingKind::Uniform { .. }, None) => b.binding == 0,
                    (WgpuBindingKind::Texture { .. }, Some(n)) => b.binding == 1 + 2 * n,
                    (WgpuBindingKind::Sampler, Some(n)) => b.binding == 2 + 2 * n,
                    _ => false,
                };
            if !ok {
                problems.push(format!("shader {i}: binding {b:?} breaks the rule"));
            }
        }
        for smp in &gl.samplers {
            let slot = u32::from(smp.texture_slot);
            if !s.bindings.iter().any(|b| b.slot == Some(slot)) {
                problems.push(format!("shader {i}: sampler slot {slot} is not bound"));
            }
        }
    }
    problems
}

struct Tally {
    gl: usize,
    wgpu: usize,
    failures: Vec<String>,
}

fn run(folder: &str) -> Option<Tally> {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_testkit::skip(
            "wgpu_target",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return None;
    }
    let files = fx_files(&workspace_root().join(folder));
    let mut t = Tally {
        gl: 0,
        wgpu: 0,
        failures: Vec::new(),
    };
    for path in files {
        // Effects that are not for GL (include-only files, negative cases) are not counted.
        if compile_file(&path, &Options::default()).is_err() {
            continue;
        }
        t.gl += 1;
        let options = Options {
            wgpu: true,
            ..Options::default()
        };
        match compile_file(&path, &options) {
            Ok(c) => {
                let problems = check(&c);
                if problems.is_empty() {
                    t.wgpu += 1;
                } else {
                    t.failures
                        .push(format!("{}:\n  {}", path.display(), problems.join("\n  ")));
                }
            }
            Err(e) => t
                .failures
                .push(format!("{}:\n{}", path.display(), e.render(false))),
        }
    }
    eprintln!("wgpu coverage of {folder}: {}/{}", t.wgpu, t.gl);
    Some(t)
}

fn assert_all(folder: &str, at_least: usize) {
    let Some(t) = run(folder) else { return };
    assert!(
        t.gl >= at_least,
        "only {} effects of {folder} compile for GL",
        t.gl
    );
    assert!(
        t.failures.is_empty(),
        "{} of {} effects of {folder} fail for wgpu:\n{}",
        t.failures.len(),
        t.gl,
        t.failures.join("\n")
    );
}

#[test]
fn every_corpus_effect_compiles_for_wgpu() {
    assert_all("tests/corpus", 80);
}

#[test]
fn every_golden_parity_effect_compiles_for_wgpu() {
    assert_all("tests/golden_parity", 30);
}

#[test]
fn a_semantic_past_sixteen_fixed_locations_is_numbered_in_its_shader() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_testkit::skip(
            "wgpu_target",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return;
    }
    // TEXCOORD9 as a vertex input and TEXCOORD11 as a varying, which MonoGame's vertex
    // declarations and fxc take.
    let src = "float4x4 M;\n\
               struct VsIn { float4 Pos : POSITION0; float4 Extra : TEXCOORD9; };\n\
               struct VsOut { float4 Pos : POSITION0; float4 Wide : TEXCOORD11; };\n\
               VsOut VS(VsIn v) { VsOut o; o.Pos = mul(v.Pos, M); o.Wide = v.Extra; return o; }\n\
               float4 PS(float4 w : TEXCOORD11) : COLOR0 { return w; }\n\
               technique T { pass P { VertexShader = compile vs_3_0 VS(); \
               PixelShader = compile ps_3_0 PS(); } }\n";
    let path = std::env::temp_dir().join("wgpu_texcoord11.fx");
    let options = Options {
        wgpu: true,
        ..Options::default()
    };
    let c = shadowdusk_compiler::compile_source(&path, src, &options)
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let w = c.wgpu.expect("wgpu output");
    let vs = w.shaders.iter().find(|s| s.stage == "vertex").unwrap();
    let ps = w.shaders.iter().find(|s| s.stage == "pixel").unwrap();
    let inputs: Vec<_> = vs
        .vertex_inputs
        .iter()
        .map(|i| (i.usage.as_str(), i.index, i.location))
        .collect();
    assert_eq!(inputs, [("POSITION", 0, 0), ("TEXCOORD", 9, 1)]);
    for s in [vs, ps] {
        assert_eq!(s.varyings.len(), 1, "{:?}", s.varyings);
        assert_eq!(
            (s.varyings[0].semantic.as_str(), s.varyings[0].location),
            ("TEXCOORD11", 0)
        );
        reparse(s).unwrap_or_else(|e| panic!("{e}"));
    }
    let at = ps.varyings[0].location_at.expect("a pixel input's offset") as usize;
    assert_eq!(&ps.wgsl[at..at + 1], "0");
    assert_eq!(vs.varyings[0].location_at, None);
}

#[test]
fn the_same_effect_gives_the_same_wgsl() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_testkit::skip(
            "wgpu_target",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return;
    }
    let options = Options {
        wgpu: true,
        ..Options::default()
    };
    for name in [
        "tests/golden_parity/SkinnedEffect.fx",
        "tests/corpus/multi_texture_three.fx",
    ] {
        let path = workspace_root().join(name);
        let a = compile_file(&path, &options).unwrap_or_else(|e| panic!("{}", e.render(false)));
        let b = compile_file(&path, &options).unwrap_or_else(|e| panic!("{}", e.render(false)));
        assert_eq!(a.wgpu, b.wgpu, "{name}");
        assert!(a.wgpu.is_some_and(|w| !w.shaders.is_empty()));
    }
}

#[test]
fn pixel_inputs_overwritten_before_they_are_read_are_not_inputs() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_testkit::skip(
            "wgpu_target",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return;
    }
    // `float2 texCoord[8] : TEXCOORD0` with entries 1–7 stored again from entry 0 first: the
    // pixel shader reads COLOR0 and TEXCOORD0, what SpriteBatch's vertex shader writes.
    let options = Options {
        wgpu: true,
        ..Options::default()
    };
    let path = workspace_root().join("tests/corpus/compat_sem_unread_inputs.fx");
    let c = compile_file(&path, &options).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let w = c.wgpu.expect("wgpu output");
    let ps = w.shaders.iter().find(|s| s.stage == "pixel").unwrap();
    let read: Vec<_> = ps
        .varyings
        .iter()
        .map(|v| (v.semantic.as_str(), v.location))
        .collect();
    assert_eq!(read, [("COLOR0", 0), ("TEXCOORD0", 1)], "{}", ps.wgsl);
    reparse(ps).unwrap_or_else(|e| panic!("{e}"));
}
