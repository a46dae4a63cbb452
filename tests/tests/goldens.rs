//! Every real mgfxc output in `../shared/golden` (OpenGL `.mgfx`, stock OpenGL and DirectX 11
//! `.mgfxo`) reads to its footer, carries the key our hash computes, and is rewritten
//! byte-for-byte by our writer; plus spot checks of facts stated in mgfx-format.md §14.

use std::path::{Path, PathBuf};

use shadowdusk::mgfx::{
    body_key, read, write, CompareFunction, Effect, ParameterClass, ParameterType,
    StencilOperation, TextureAddressMode, TextureFilter,
};

/// `../shared/golden`, or `None` after [`shadowdusk_tests::skip`] says it is missing.
fn golden_dir(test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/golden"));
    if dir.is_dir() {
        return Some(dir);
    }
    let why = format!("../shared/golden not found at {}", dir.display());
    shadowdusk_tests::skip(test, &why);
    None
}

fn golden_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable golden dir") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("mgfx" | "mgfxo")
            ) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn load(test: &str, rel: &str) -> Option<Effect> {
    let dir = golden_dir(test)?;
    let bytes = std::fs::read(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    Some(read(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}")))
}

#[test]
fn every_golden_reads_hashes_and_rewrites_identically() {
    let Some(dir) = golden_dir("every_golden_reads_hashes_and_rewrites_identically") else {
        return;
    };
    let files = golden_files(&dir);
    // 46 OpenGL goldens + 13 stock files (README.md of shared/golden).
    assert!(files.len() >= 59, "only {} golden files found", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        let bytes = std::fs::read(path).expect("readable golden");
        let effect = match read(&bytes) {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{name}: read: {e}"));
                continue;
            }
        };
        if body_key(&bytes) != Some(effect.key) {
            failures.push(format!(
                "{name}: stored key {} but body hashes to {:?}",
                effect.key,
                body_key(&bytes)
            ));
        }
        match write(&effect) {
            Ok(out) if out == bytes => {}
            Ok(out) => {
                let at = out
                    .iter()
                    .zip(&bytes)
                    .position(|(a, b)| a != b)
                    .unwrap_or(out.len().min(bytes.len()));
                failures.push(format!(
                    "{name}: rewrite differs at byte {at} ({} vs {} bytes)",
                    out.len(),
                    bytes.len()
                ));
            }
            Err(e) => failures.push(format!("{name}: write: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} goldens failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn tint_shader_fields() {
    let Some(e) = load("tint_shader_fields", "shadowdusk-opengl/TintShader.mgfx") else {
        return;
    };
    assert_eq!(e.key, 0xA0E0_3BE5_u32 as i32);
    assert_eq!(e.constant_buffers.len(), 1);
    assert_eq!(e.constant_buffers[0].name, "ps_uniforms_vec4");
    assert_eq!(e.constant_buffers[0].size, 16);
    let tint = &e.parameters[0];
    assert_eq!(
        (
            tint.name.as_str(),
            tint.class,
            tint.ty,
            tint.rows,
            tint.columns
        ),
        (
            "TintColor",
            ParameterClass::Vector,
            ParameterType::Single,
            1,
            4
        )
    );
    assert_eq!(tint.data.as_deref(), Some(&[0u32; 4][..]));
    let tex = &e.parameters[1];
    assert_eq!(
        (tex.name.as_str(), tex.class, tex.ty, tex.data.is_none()),
        (
            "SpriteTexture",
            ParameterClass::Object,
            ParameterType::Texture2D,
            true
        )
    );
    assert_eq!(e.shaders[0].code.len(), 430);
    assert!(e.shaders[0].code.starts_with(b"#ifdef GL_ES\r\n"));
    assert_eq!(e.shaders[0].samplers[0].name, "ps_s0");
    assert_eq!(e.shaders[0].samplers[0].parameter, 1);
    let pass = &e.techniques[0].passes[0];
    assert_eq!(
        (e.techniques[0].name.as_str(), pass.name.as_str()),
        ("TintedSpriteDrawing", "P0")
    );
    assert_eq!((pass.vertex_shader, pass.pixel_shader), (-1, 0));
}

#[test]
fn state_depth_stencil_fields() {
    let Some(e) = load(
        "state_depth_stencil_fields",
        "shadowdusk-opengl/StateDepthStencil.mgfx",
    ) else {
        return;
    };
    let pass = &e.techniques[0].passes[0];
    assert!(pass.blend.is_none() && pass.rasterizer.is_none());
    let ds = pass.depth_stencil.expect("depth-stencil block");
    assert_eq!(ds.ccw_stencil_function, CompareFunction::Always);
    assert!(ds.depth_buffer_enable);
    assert_eq!(ds.depth_buffer_function, CompareFunction::Always);
    assert!(!ds.depth_buffer_write_enable);
    assert_eq!(ds.reference_stencil, 1);
    assert_eq!(ds.stencil_depth_buffer_fail, StencilOperation::Decrement);
    assert!(ds.stencil_enable);
    assert_eq!(ds.stencil_fail, StencilOperation::Keep);
    assert_eq!(ds.stencil_function, CompareFunction::Equal);
    assert_eq!(ds.stencil_mask, 255);
    assert_eq!(ds.stencil_pass, StencilOperation::IncrementSaturation);
    assert_eq!(ds.stencil_write_mask, 127);
    assert!(!ds.two_sided_stencil_mode);
}

#[test]
fn sampler_states_full_fields() {
    let Some(e) = load(
        "sampler_states_full_fields",
        "shadowdusk-opengl/SamplerStatesFull.mgfx",
    ) else {
        return;
    };
    let ps = e
        .shaders
        .iter()
        .find(|s| s.samplers.len() == 2)
        .expect("pixel shader with two samplers");
    let (point, aniso) = (&ps.samplers[0], &ps.samplers[1]);
    assert_eq!(
        (
            point.texture_slot,
            point.sampler_slot,
            point.name.as_str(),
            point.parameter
        ),
        (0, 0, "ps_s0", 0)
    );
    let s = point.state.expect("baked state");
    assert_eq!(
        (s.address_u, s.address_v, s.address_w),
        (
            TextureAddressMode::Clamp,
            TextureAddressMode::Mirror,
            TextureAddressMode::Wrap
        )
    );
    assert_eq!(s.border_color, [255; 4]);
    assert_eq!(s.filter, TextureFilter::Point);
    assert_eq!(
        (s.max_anisotropy, s.max_mip_level, s.mip_lod_bias),
        (4, 0, -16.0)
    );
    assert_eq!(
        (
            aniso.texture_slot,
            aniso.sampler_slot,
            aniso.name.as_str(),
            aniso.parameter
        ),
        (1, 1, "ps_s1", 1)
    );
    let s = aniso.state.expect("baked state");
    assert_eq!(
        (s.address_u, s.address_v),
        (TextureAddressMode::Border, TextureAddressMode::Border)
    );
    assert_eq!(s.border_color, [255, 0, 0, 255]);
    assert_eq!(s.filter, TextureFilter::Anisotropic);
    assert_eq!(
        (s.max_anisotropy, s.max_mip_level, s.mip_lod_bias),
        (2, 1, 0.5)
    );
}

#[test]
fn skinned_effect_has_three_vs_uniform_records() {
    for rel in [
        "shadowdusk-opengl/SkinnedEffect.mgfx",
        "monogame-stock/SkinnedEffect.ogl.mgfxo",
    ] {
        let Some(e) = load("skinned_effect_has_three_vs_uniform_records", rel) else {
            return;
        };
        let vs = e
            .constant_buffers
            .iter()
            .filter(|c| c.name == "vs_uniforms_vec4")
            .count();
        assert_eq!(vs, 3, "{rel}");
        // Each vertex shader points at one of them; none at a pixel record.
        for s in e
            .shaders
            .iter()
            .filter(|s| s.stage == shadowdusk::mgfx::ShaderStage::Vertex)
        {
            for &c in &s.cbuffers {
                assert_eq!(
                    e.constant_buffers[usize::from(c)].name,
                    "vs_uniforms_vec4",
                    "{rel}"
                );
            }
        }
    }
}
