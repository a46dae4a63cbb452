//! The `wgsl` part of a generated module, as a game crate gets it from `Builder::wgpu(true)`
//! (`build.rs` compiles two corpus effects so): each shader's WGSL validates with naga, its
//! bind-group entries fit the same `Params` the GL runtime uploads, its sampler states and each
//! pass's render states are the MGFX's, and the states wgpu cannot express were warned about at
//! their line.

use shadowdusk::mgfx::VertexElementUsage;
use shadowdusk::params::EffectParams;
use shadowdusk::wgsl::{BindingKind, Stage, VertexFormat, WgslEffect};
use shadowdusk::Effect;

shadowdusk::include_effect!("corpus/basic_lighting.fx");
shadowdusk::include_effect!("corpus/render_states.fx");

/// Every shader of `fx` against the MGFX the same module embeds, and `params`' records.
fn check(name: &str, fx: &WgslEffect, mgfx: &[u8], params: &dyn EffectParams) {
    let effect = shadowdusk::mgfx::read(mgfx).expect("the module's MGFX reads back");
    assert_eq!(
        fx.shaders.len(),
        effect.shaders.len(),
        "{name}: one WGSL shader per MGFX shader"
    );
    for (i, (w, m)) in fx.shaders.iter().zip(&effect.shaders).enumerate() {
        let module = naga::front::wgsl::parse_str(w.wgsl)
            .unwrap_or_else(|e| panic!("{name} shader {i}: {}", e.emit_to_string(w.wgsl)));
        shadowdusk_compiler::wgsl::validator()
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name} shader {i}: naga refuses it: {e:?}"));
        let stage = match w.stage {
            Stage::Vertex => naga::ShaderStage::Vertex,
            Stage::Pixel => naga::ShaderStage::Fragment,
        };
        assert!(
            module
                .entry_points
                .iter()
                .any(|e| e.name == w.entry && e.stage == stage),
            "{name} shader {i}: no {stage:?} entry `{}`",
            w.entry
        );
        for b in w.bindings {
            match b.kind {
                BindingKind::Uniform { record, size } => {
                    let registers = params
                        .constant_buffer(record)
                        .unwrap_or_else(|| panic!("{name}: no record {record} in Params"));
                    assert_eq!(
                        size as usize,
                        registers.len() * 16,
                        "{name} shader {i}: uniform size"
                    );
                    assert_eq!(b.binding, 0);
                }
                BindingKind::Texture { slot, .. } => assert_eq!(b.binding, 1 + 2 * slot),
                BindingKind::Sampler { slot, state } => {
                    assert_eq!(b.binding, 2 + 2 * slot);
                    let mgfx_state = m
                        .samplers
                        .iter()
                        .find(|s| u32::from(s.sampler_slot) == slot)
                        .and_then(|s| s.state);
                    assert_eq!(
                        state, mgfx_state,
                        "{name} shader {i}: sampler state of slot {slot}"
                    );
                }
            }
        }
    }
    for (t, technique) in effect.techniques.iter().enumerate() {
        for (p, pass) in technique.passes.iter().enumerate() {
            let w = fx.pass(t, p).expect("every MGFX pass has a wgpu pass");
            assert_eq!(w.name, pass.name);
            assert_eq!(w.vertex, usize::try_from(pass.vertex_shader).ok());
            assert_eq!(w.pixel, usize::try_from(pass.pixel_shader).ok());
            assert_eq!(
                (w.blend, w.depth_stencil, w.rasterizer),
                (pass.blend, pass.depth_stencil, pass.rasterizer),
                "{name}: the states of pass {}",
                pass.name
            );
        }
    }
}

#[test]
fn the_generated_wgpu_part_matches_the_effect_it_was_compiled_with() {
    let lit = basic_lighting::Effect::WGPU.expect("built with the wgpu target");
    assert!(std::ptr::eq(lit, &basic_lighting::wgsl::EFFECT));
    check(
        "basic_lighting.fx",
        lit,
        basic_lighting::MGFX,
        &basic_lighting::Params::default(),
    );
    let states = render_states::Effect::WGPU.expect("built with the wgpu target");
    check(
        "render_states.fx",
        states,
        render_states::MGFX,
        &render_states::Params::default(),
    );

    // The vertex inputs as MonoGame's vertex declarations name them.
    let vs = lit
        .shaders
        .iter()
        .find(|s| s.stage == Stage::Vertex)
        .expect("a vertex shader");
    let inputs: Vec<_> = vs
        .vertex_inputs
        .iter()
        .map(|v| (v.usage, v.index, v.format))
        .collect();
    for expected in [
        (VertexElementUsage::Position, 0, VertexFormat::Float32x4),
        (VertexElementUsage::Normal, 0, VertexFormat::Float32x3),
        (
            VertexElementUsage::TextureCoordinate,
            0,
            VertexFormat::Float32x2,
        ),
    ] {
        assert!(inputs.contains(&expected), "{expected:?} not in {inputs:?}");
    }
    // Inputs at 0, 1, 2, …; the pixel shaders read semantics the vertex shader writes, each
    // with the offset of its location number in its WGSL.
    let locations: Vec<u32> = vs.vertex_inputs.iter().map(|v| v.location).collect();
    assert_eq!(
        locations,
        (0..vs.vertex_inputs.len() as u32).collect::<Vec<_>>()
    );
    for ps in lit.shaders.iter().filter(|s| s.stage == Stage::Pixel) {
        for v in ps.varyings {
            assert!(
                vs.varyings
                    .iter()
                    .any(|o| o.semantic == v.semantic && o.flat == v.flat),
                "pixel varying {v:?} is not written by the vertex shader"
            );
            let at = v.location_at.expect("a pixel input's offset") as usize;
            assert!(
                ps.wgsl[at..].starts_with(&v.location.to_string()),
                "{v:?} is not at its offset"
            );
        }
    }
}

#[test]
fn the_macro_compiles_for_wgpu_in_process_as_the_build_script_does() {
    shadowdusk::include_effect!("corpus/render_states.fx", name = in_macro, in_process, wgpu);
    let fx = in_macro::Effect::WGPU.expect("compiled for wgpu in the macro");
    assert_eq!(fx, &render_states::wgsl::EFFECT);
}

#[test]
fn a_gl_only_module_has_no_wgpu_part() {
    shadowdusk::include_effect!("corpus/render_states.fx", name = gl_only, in_process);
    assert!(gl_only::Effect::WGPU.is_none());
}

#[test]
fn states_wgpu_cannot_express_were_warned_about_at_their_line() {
    let manifest =
        std::path::Path::new(env!("OUT_DIR")).join("shadowdusk/corpus/render_states.json");
    let manifest =
        shadowdusk_compiler::artifact::Manifest::load(&manifest).expect("the build's manifest");
    let warnings = manifest.warnings.join("\n");
    // `FillMode = WireFrame;` (line 66) and the last of its depth biases, `SlopeScaleDepthBias = 1.5;` (line 68), of pass `Wire`.
    for (code, line) in [("SD0312", 66), ("SD0314", 68)] {
        assert!(
            warnings.contains(code) && warnings.contains(&format!("render_states.fx:{line}:")),
            "no {code} at line {line} in:\n{warnings}"
        );
    }
    assert!(
        !warnings.contains("SD0310")
            && !warnings.contains("SD0311")
            && !warnings.contains("SD0313"),
        "{warnings}"
    );
}
