//! MGFX writer (mgfx-format.md §2–§10).
//!
//! Input: an [`Effect`]. Output: the file bytes, deterministic (the model holds only `Vec`s, and
//! fields are written in wire order). The header key is recomputed over the body (§3.4); the
//! input's `key` is ignored. Version 11 (§10) is written only when `effect.version == 11`, with
//! `"<unknown>"` for a missing source file or entry point; any other version writes v10, where
//! the v11 strings have no place and are dropped. Everything §13 forbids is refused first
//! (`validate.rs`), so an `Ok` result always reads back equal.

use super::hash::effect_key;
use super::read::SIGNATURE;
use super::validate::validate;
use super::wire::{push_bool, push_f32, push_i16, push_i32, push_str, push_u16, push_u32};
use super::{
    BlendState, DepthStencilState, Effect, Parameter, Pass, RasterizerState, SamplerState, Shader,
    ShaderStage,
};

/// An effect that cannot be written (a limit of the container).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot write MGFX: {0}")]
pub struct WriteError(pub String);

/// Written when a v11 shader has no source file or entry point, as mgfxc does.
const UNKNOWN: &str = "<unknown>";

/// Serializes an effect.
pub fn write(effect: &Effect) -> Result<Vec<u8>, WriteError> {
    validate(effect)?;
    let version: u8 = if effect.version == 11 { 11 } else { 10 };

    let mut body = Vec::new();
    push_len(&mut body, effect.constant_buffers.len());
    for cb in &effect.constant_buffers {
        push_str(&mut body, &cb.name);
        // Validated ≤ 32767, so the i16 the runtime reads is the same value.
        push_i16(&mut body, cb.size as i16);
        push_len(&mut body, cb.entries.len());
        for e in &cb.entries {
            push_i32(&mut body, e.parameter);
            push_u16(&mut body, e.offset);
        }
    }
    push_len(&mut body, effect.shaders.len());
    for shader in &effect.shaders {
        write_shader(&mut body, shader, version);
    }
    write_parameters(&mut body, &effect.parameters);
    push_len(&mut body, effect.techniques.len());
    for tech in &effect.techniques {
        push_str(&mut body, &tech.name);
        push_i32(&mut body, tech.annotations);
        push_len(&mut body, tech.passes.len());
        for pass in &tech.passes {
            write_pass(&mut body, pass);
        }
    }

    let mut out = Vec::with_capacity(body.len() + 14);
    out.extend_from_slice(SIGNATURE);
    out.push(version);
    out.push(effect.profile.to_byte());
    push_i32(&mut out, effect_key(&body));
    out.extend_from_slice(&body);
    out.extend_from_slice(SIGNATURE);
    Ok(out)
}

/// An i32 count or length; `validate` has checked it fits.
fn push_len(out: &mut Vec<u8>, n: usize) {
    push_i32(out, n as i32);
}

fn write_shader(out: &mut Vec<u8>, shader: &Shader, version: u8) {
    push_bool(out, shader.stage == ShaderStage::Vertex);
    if version > 10 {
        push_str(out, shader.source_file.as_deref().unwrap_or(UNKNOWN));
        push_str(out, shader.entry_point.as_deref().unwrap_or(UNKNOWN));
    }
    push_len(out, shader.code.len());
    out.extend_from_slice(&shader.code);
    // Counts below were validated ≤ 255.
    out.push(shader.samplers.len() as u8);
    for s in &shader.samplers {
        out.push(s.ty.to_byte());
        out.push(s.texture_slot);
        out.push(s.sampler_slot);
        push_bool(out, s.state.is_some());
        if let Some(state) = &s.state {
            write_sampler_state(out, state);
        }
        push_str(out, &s.name);
        out.push(s.parameter);
    }
    out.push(shader.cbuffers.len() as u8);
    out.extend_from_slice(&shader.cbuffers);
    out.push(shader.attributes.len() as u8);
    for a in &shader.attributes {
        push_str(out, &a.name);
        out.push(a.usage as u8);
        out.push(a.index);
        push_i16(out, a.location);
    }
}

fn write_sampler_state(out: &mut Vec<u8>, s: &SamplerState) {
    out.extend_from_slice(&[s.address_u as u8, s.address_v as u8, s.address_w as u8]);
    out.extend_from_slice(&s.border_color);
    out.push(s.filter as u8);
    push_i32(out, s.max_anisotropy);
    push_i32(out, s.max_mip_level);
    push_f32(out, s.mip_lod_bias);
}

fn write_parameters(out: &mut Vec<u8>, list: &[Parameter]) {
    push_len(out, list.len());
    for p in list {
        out.push(p.class as u8);
        out.push(p.ty as u8);
        push_str(out, &p.name);
        push_str(out, &p.semantic);
        push_i32(out, p.annotations);
        out.push(p.rows);
        out.push(p.columns);
        write_parameters(out, &p.elements);
        write_parameters(out, &p.members);
        // Presence was validated against the §6.2 rule, so the reader will expect exactly this.
        for &v in p.data.iter().flatten() {
            push_u32(out, v);
        }
    }
}

fn write_pass(out: &mut Vec<u8>, pass: &Pass) {
    push_str(out, &pass.name);
    push_i32(out, pass.annotations);
    push_i32(out, pass.vertex_shader);
    push_i32(out, pass.pixel_shader);
    push_bool(out, pass.blend.is_some());
    if let Some(b) = &pass.blend {
        write_blend(out, b);
    }
    push_bool(out, pass.depth_stencil.is_some());
    if let Some(d) = &pass.depth_stencil {
        write_depth_stencil(out, d);
    }
    push_bool(out, pass.rasterizer.is_some());
    if let Some(r) = &pass.rasterizer {
        write_rasterizer(out, r);
    }
}

fn write_blend(out: &mut Vec<u8>, b: &BlendState) {
    out.extend_from_slice(&[
        b.alpha_blend_function as u8,
        b.alpha_destination_blend as u8,
        b.alpha_source_blend as u8,
    ]);
    out.extend_from_slice(&b.blend_factor);
    out.extend_from_slice(&[
        b.color_blend_function as u8,
        b.color_destination_blend as u8,
        b.color_source_blend as u8,
    ]);
    out.extend_from_slice(&b.color_write_channels);
    push_i32(out, b.multi_sample_mask);
}

fn write_depth_stencil(out: &mut Vec<u8>, d: &DepthStencilState) {
    out.extend_from_slice(&[
        d.ccw_stencil_depth_buffer_fail as u8,
        d.ccw_stencil_fail as u8,
        d.ccw_stencil_function as u8,
        d.ccw_stencil_pass as u8,
    ]);
    push_bool(out, d.depth_buffer_enable);
    out.push(d.depth_buffer_function as u8);
    push_bool(out, d.depth_buffer_write_enable);
    push_i32(out, d.reference_stencil);
    out.push(d.stencil_depth_buffer_fail as u8);
    push_bool(out, d.stencil_enable);
    out.push(d.stencil_fail as u8);
    out.push(d.stencil_function as u8);
    push_i32(out, d.stencil_mask);
    out.push(d.stencil_pass as u8);
    push_i32(out, d.stencil_write_mask);
    push_bool(out, d.two_sided_stencil_mode);
}

fn write_rasterizer(out: &mut Vec<u8>, r: &RasterizerState) {
    out.push(r.cull_mode as u8);
    push_f32(out, r.depth_bias);
    out.push(r.fill_mode as u8);
    push_bool(out, r.multi_sample_anti_alias);
    push_bool(out, r.scissor_test_enable);
    push_f32(out, r.slope_scale_depth_bias);
}
