//! The writer's checks (mgfx-format.md §13), run before a single byte is written.
//!
//! Input: an [`Effect`]. Output: `Ok(())` or the first [`WriteError`], naming the record (by
//! index and name) and the rule it breaks. Everything refused here would either fail to load in
//! MonoGame, fail at draw time, or be read back differently from what was written:
//! - profiles other than OpenGL/DirectX11, zero techniques;
//! - byte-sized counts over 255, more than 16 cbuffers per shader;
//! - cbuffer sizes over 32767 or not a multiple of 16, entries that overrun their buffer (§7.2)
//!   or name non-uploaded (texture, struct) parameters;
//! - dangling indices (entry → parameter, shader → cbuffer, sampler → texture parameter,
//!   pass → shader of that stage or -1);
//! - attributes on pixel shaders, non-ASCII OpenGL payloads;
//! - String parameters, duplicate non-blank names in a parameter collection, data blocks that
//!   break the presence rule of §6.2, nesting deeper than [`MAX_DEPTH`], negative annotation
//!   counts, strings or payloads longer than `i32::MAX` bytes.

use std::collections::BTreeSet;

use super::read::MAX_DEPTH;
use super::{
    Effect, Parameter, ParameterClass, ParameterType, Profile, Shader, ShaderStage, WriteError,
};

/// Runtime limit on constant buffers bound per stage (`ConstantBufferCollection` size).
const MAX_CBUFFERS_PER_SHADER: usize = 16;

fn fail<T>(msg: String) -> Result<T, WriteError> {
    Err(WriteError(msg))
}

/// Checks `effect` against every rule of mgfx-format.md §13: the one home for MGFX's
/// cross-references and limits. [`write`](crate::write) runs it before writing a byte; a loader
/// runs it on what [`read`](crate::read) returned before following any index, so no index in
/// the records can send it out of range.
pub fn validate(effect: &Effect) -> Result<(), WriteError> {
    if let Profile::Other(b) = effect.profile {
        return fail(format!(
            "profile byte {b} is not OpenGL (0) or DirectX11 (1); no MonoGame 3.8 runtime loads it"
        ));
    }
    if effect.techniques.is_empty() {
        return fail("the effect has no technique; MonoGame needs at least one".into());
    }
    check_parameters(&effect.parameters, "parameter", 0)?;
    check_cbuffers(effect)?;
    for (i, shader) in effect.shaders.iter().enumerate() {
        check_shader(effect, i, shader)?;
    }
    check_techniques(effect)
}

fn check_len(s: &str, what: impl FnOnce() -> String) -> Result<(), WriteError> {
    if s.len() > i32::MAX as usize {
        return fail(format!("{} is longer than i32::MAX bytes", what()));
    }
    Ok(())
}

fn check_count(n: usize, what: impl FnOnce() -> String) -> Result<(), WriteError> {
    if n > i32::MAX as usize {
        return fail(format!("{} has {n} entries, more than i32::MAX", what()));
    }
    Ok(())
}

fn check_cbuffers(effect: &Effect) -> Result<(), WriteError> {
    check_count(effect.constant_buffers.len(), || {
        "the constant buffer list".into()
    })?;
    for (i, cb) in effect.constant_buffers.iter().enumerate() {
        let here = || format!("constant buffer {i} ('{}')", cb.name);
        check_len(&cb.name, here)?;
        check_count(cb.entries.len(), here)?;
        if cb.size > i16::MAX as u16 {
            return fail(format!(
                "{}: size {} exceeds 32767 (the runtime reads an i16)",
                here(),
                cb.size
            ));
        }
        if cb.size % 16 != 0 {
            return fail(format!(
                "{}: size {} is not a multiple of 16",
                here(),
                cb.size
            ));
        }
        for (e, entry) in cb.entries.iter().enumerate() {
            let param = usize::try_from(entry.parameter)
                .ok()
                .and_then(|p| effect.parameters.get(p));
            let Some(param) = param else {
                return fail(format!(
                    "{}: entry {e} refers to parameter {}, but there are {}",
                    here(),
                    entry.parameter,
                    effect.parameters.len()
                ));
            };
            if !param.is_uploaded() {
                return fail(format!(
                    "{}: entry {e} names parameter '{}', which MonoGame never uploads (not a \
                     Bool/Int32/Single value or array of them)",
                    here(),
                    param.name
                ));
            }
            let end = u32::from(entry.offset) + param.upload_bytes();
            if end > u32::from(cb.size) {
                return fail(format!(
                    "{}: parameter '{}' at byte {} needs {} bytes, past the buffer's size {}",
                    here(),
                    param.name,
                    entry.offset,
                    param.upload_bytes(),
                    cb.size
                ));
            }
        }
    }
    Ok(())
}

fn check_shader(effect: &Effect, i: usize, shader: &Shader) -> Result<(), WriteError> {
    let here = || format!("shader {i}");
    if let Some(s) = &shader.source_file {
        check_len(s, || format!("shader {i} source file"))?;
    }
    if let Some(s) = &shader.entry_point {
        check_len(s, || format!("shader {i} entry point"))?;
    }
    if shader.code.len() > i32::MAX as usize {
        return fail(format!("{}: code is longer than i32::MAX bytes", here()));
    }
    if effect.profile == Profile::OpenGL {
        if let Some(at) = shader.code.iter().position(|b| !b.is_ascii()) {
            return fail(format!(
                "{}: GLSL byte {at} is not ASCII (0x{:02X}); MonoGame decodes the payload as ASCII",
                here(),
                shader.code[at]
            ));
        }
    }
    if shader.samplers.len() > 255 {
        return fail(format!(
            "{}: {} samplers, at most 255",
            here(),
            shader.samplers.len()
        ));
    }
    if shader.cbuffers.len() > MAX_CBUFFERS_PER_SHADER {
        return fail(format!(
            "{}: {} constant buffers, MonoGame binds at most {MAX_CBUFFERS_PER_SHADER} per stage",
            here(),
            shader.cbuffers.len()
        ));
    }
    if shader.attributes.len() > 255 {
        return fail(format!(
            "{}: {} attributes, at most 255",
            here(),
            shader.attributes.len()
        ));
    }
    if shader.stage == ShaderStage::Pixel && !shader.attributes.is_empty() {
        return fail(format!(
            "{}: a pixel shader cannot carry vertex attributes",
            here()
        ));
    }
    for &c in &shader.cbuffers {
        if usize::from(c) >= effect.constant_buffers.len() {
            return fail(format!(
                "{}: refers to constant buffer {c}, but there are {}",
                here(),
                effect.constant_buffers.len()
            ));
        }
    }
    for (s, sampler) in shader.samplers.iter().enumerate() {
        check_len(&sampler.name, || format!("shader {i} sampler {s} name"))?;
        match effect.parameters.get(usize::from(sampler.parameter)) {
            Some(p) if p.class == ParameterClass::Object && p.ty.is_texture() => {}
            Some(p) => {
                return fail(format!(
                    "{}: sampler {s} ('{}') refers to parameter '{}', which is not a texture",
                    here(),
                    sampler.name,
                    p.name
                ))
            }
            None => {
                return fail(format!(
                    "{}: sampler {s} ('{}') refers to parameter {}, but there are {}",
                    here(),
                    sampler.name,
                    sampler.parameter,
                    effect.parameters.len()
                ))
            }
        }
    }
    for (a, attr) in shader.attributes.iter().enumerate() {
        check_len(&attr.name, || format!("shader {i} attribute {a} name"))?;
    }
    Ok(())
}

fn check_annotations(n: i32, what: impl FnOnce() -> String) -> Result<(), WriteError> {
    if n < 0 {
        return fail(format!("{}: negative annotation count {n}", what()));
    }
    Ok(())
}

/// One ParameterList; `path` names it in errors (`parameter`, `parameter 'Foo' element`, …).
fn check_parameters(list: &[Parameter], path: &str, depth: usize) -> Result<(), WriteError> {
    if !list.is_empty() && depth > MAX_DEPTH {
        return fail(format!(
            "{path}: parameters nested deeper than {MAX_DEPTH} levels"
        ));
    }
    check_count(list.len(), || format!("{path} list"))?;
    let mut names = BTreeSet::new();
    for (i, p) in list.iter().enumerate() {
        let here = || format!("{path} {i} ('{}')", p.name);
        check_len(&p.name, here)?;
        check_len(&p.semantic, here)?;
        check_annotations(p.annotations, here)?;
        if p.ty == ParameterType::String {
            return fail(format!(
                "{}: String parameters are refused by MonoGame's loader",
                here()
            ));
        }
        if !p.name.trim().is_empty() && !names.insert(p.name.as_str()) {
            return fail(format!("{}: duplicate name in the same collection", here()));
        }
        let wants_data = p.elements.is_empty() && p.members.is_empty() && p.ty.has_data();
        let expected = usize::from(p.rows) * usize::from(p.columns);
        match (&p.data, wants_data) {
            (Some(d), true) if d.len() == expected => {}
            (Some(d), true) => {
                return fail(format!(
                    "{}: {} data values, but rows*columns = {expected}",
                    here(),
                    d.len()
                ))
            }
            (None, true) => {
                return fail(format!("{}: a {:?} value without elements or members needs data", here(), p.ty))
            }
            (Some(_), false) => {
                return fail(format!(
                    "{}: carries data, but only Bool/Int32/Single values without elements or members do",
                    here()
                ))
            }
            (None, false) => {}
        }
        check_parameters(&p.elements, &format!("{} element", here()), depth + 1)?;
        check_parameters(&p.members, &format!("{} member", here()), depth + 1)?;
    }
    Ok(())
}

fn check_techniques(effect: &Effect) -> Result<(), WriteError> {
    check_count(effect.techniques.len(), || "the technique list".into())?;
    for (t, tech) in effect.techniques.iter().enumerate() {
        let here = || format!("technique {t} ('{}')", tech.name);
        check_len(&tech.name, here)?;
        check_annotations(tech.annotations, here)?;
        check_count(tech.passes.len(), here)?;
        for (p, pass) in tech.passes.iter().enumerate() {
            let here = || format!("technique {t} ('{}') pass {p} ('{}')", tech.name, pass.name);
            check_len(&pass.name, here)?;
            check_annotations(pass.annotations, here)?;
            for (index, stage) in [
                (pass.vertex_shader, ShaderStage::Vertex),
                (pass.pixel_shader, ShaderStage::Pixel),
            ] {
                if index == -1 {
                    continue;
                }
                match usize::try_from(index).ok().and_then(|i| effect.shaders.get(i)) {
                    Some(s) if s.stage == stage => {}
                    Some(s) => {
                        return fail(format!(
                            "{}: {stage:?} shader index {index} points at a {:?} shader",
                            here(),
                            s.stage
                        ))
                    }
                    None => {
                        return fail(format!(
                            "{}: {stage:?} shader index {index} is neither -1 nor one of the {} shaders",
                            here(),
                            effect.shaders.len()
                        ))
                    }
                }
            }
        }
    }
    Ok(())
}
