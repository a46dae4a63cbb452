//! Field-by-field comparison of our MGFX model with mgfxc's (mgfx-format.md §12). Shader
//! payloads are not compared (two different compilers wrote them); instead both payloads must
//! declare every name the records promise, which is what MonoGame binds by.
//!
//! Accepted on purpose, each because ShadowDusk does better than mgfxc's OpenGL output
//! (shadowdusk-compiler/src/layout/mod.rs):
//! * parameter data: mgfxc writes zeros on OpenGL; ShadowDusk bakes HLSL initializers. Where the
//!   golden holds zeros, ours may hold non-zero data only for a parameter whose declaration has
//!   an initializer (and, for a scalar or vector, exactly that initializer). Non-zero golden data
//!   must match exactly.
//! * uniforms no shader reads: mgfxc drops them, ShadowDusk lists them after every other
//!   parameter so code that sets them keeps working. Extra trailing parameters are accepted
//!   when the reflection says no shader reads them.

use std::fmt::Debug;

use shadowdusk::mgfx::{Effect, Parameter, ParameterClass, SamplerType, Shader};
use shadowdusk_compiler::reflect::EffectReflection;

/// Collects differences as `path: ours X, mgfxc Y`.
struct Report(Vec<String>);

impl Report {
    fn eq<T: PartialEq + Debug>(&mut self, path: &str, ours: T, theirs: T) -> bool {
        if ours != theirs {
            self.0
                .push(format!("{path}: ours {ours:?}, mgfxc {theirs:?}").replace('"', ""));
            false
        } else {
            true
        }
    }
}

/// Every layout difference between our effect and the golden, empty when they agree.
pub fn compare(ours: &Effect, reflection: &EffectReflection, theirs: &Effect) -> Vec<String> {
    let mut r = Report(Vec::new());
    techniques(&mut r, ours, theirs);
    shaders(&mut r, ours, theirs);
    constant_buffers(&mut r, ours, theirs);
    parameters(&mut r, ours, reflection, theirs);
    for (who, effect) in [("ours", ours), ("mgfxc", theirs)] {
        for (i, s) in effect.shaders.iter().enumerate() {
            glsl_declares_records(&mut r, &format!("shaders[{i}] GLSL ({who})"), effect, s);
        }
    }
    r.0
}

fn techniques(r: &mut Report, ours: &Effect, theirs: &Effect) {
    if !r.eq(
        "techniques.len",
        ours.techniques.len(),
        theirs.techniques.len(),
    ) {
        return;
    }
    for (t, (a, b)) in ours.techniques.iter().zip(&theirs.techniques).enumerate() {
        let at = format!("techniques[{t}]");
        r.eq(&format!("{at}.name"), &a.name, &b.name);
        r.eq(&format!("{at}.annotations"), a.annotations, b.annotations);
        if !r.eq(&format!("{at}.passes.len"), a.passes.len(), b.passes.len()) {
            continue;
        }
        for (p, (x, y)) in a.passes.iter().zip(&b.passes).enumerate() {
            let at = format!("{at}.passes[{p}]");
            r.eq(&format!("{at}.name"), &x.name, &y.name);
            r.eq(&format!("{at}.annotations"), x.annotations, y.annotations);
            r.eq(
                &format!("{at}.vertex_shader"),
                x.vertex_shader,
                y.vertex_shader,
            );
            r.eq(
                &format!("{at}.pixel_shader"),
                x.pixel_shader,
                y.pixel_shader,
            );
            r.eq(&format!("{at}.blend"), x.blend, y.blend);
            r.eq(
                &format!("{at}.depth_stencil"),
                x.depth_stencil,
                y.depth_stencil,
            );
            r.eq(&format!("{at}.rasterizer"), x.rasterizer, y.rasterizer);
        }
    }
}

fn param_name(effect: &Effect, index: impl TryInto<usize>) -> String {
    index
        .try_into()
        .ok()
        .and_then(|i| effect.parameters.get(i))
        .map_or_else(|| "<out of range>".to_string(), |p| p.name.clone())
}

fn shaders(r: &mut Report, ours: &Effect, theirs: &Effect) {
    let stages = |e: &Effect| e.shaders.iter().map(|s| s.stage).collect::<Vec<_>>();
    if !r.eq("shaders (stages in order)", stages(ours), stages(theirs)) {
        return;
    }
    for (i, (a, b)) in ours.shaders.iter().zip(&theirs.shaders).enumerate() {
        let at = format!("shaders[{i}]");
        r.eq(&format!("{at}.cbuffers"), &a.cbuffers, &b.cbuffers);
        if r.eq(
            &format!("{at}.samplers.len"),
            a.samplers.len(),
            b.samplers.len(),
        ) {
            for (k, (x, y)) in a.samplers.iter().zip(&b.samplers).enumerate() {
                let at = format!("{at}.samplers[{k}]");
                r.eq(&format!("{at}.type"), x.ty, y.ty);
                r.eq(
                    &format!("{at}.texture_slot"),
                    x.texture_slot,
                    y.texture_slot,
                );
                r.eq(
                    &format!("{at}.sampler_slot"),
                    x.sampler_slot,
                    y.sampler_slot,
                );
                r.eq(&format!("{at}.name"), &x.name, &y.name);
                r.eq(
                    &format!("{at}.parameter"),
                    format!("{} ({})", x.parameter, param_name(ours, x.parameter)),
                    format!("{} ({})", y.parameter, param_name(theirs, y.parameter)),
                );
                r.eq(&format!("{at}.state"), x.state, y.state);
            }
        }
        if r.eq(
            &format!("{at}.attributes.len"),
            a.attributes.len(),
            b.attributes.len(),
        ) {
            for (k, (x, y)) in a.attributes.iter().zip(&b.attributes).enumerate() {
                let at = format!("{at}.attributes[{k}]");
                r.eq(&format!("{at}.name"), &x.name, &y.name);
                r.eq(&format!("{at}.usage"), x.usage, y.usage);
                r.eq(&format!("{at}.index"), x.index, y.index);
                r.eq(&format!("{at}.location"), x.location, y.location);
            }
        }
    }
}

fn constant_buffers(r: &mut Report, ours: &Effect, theirs: &Effect) {
    if !r.eq(
        "constant_buffers.len",
        ours.constant_buffers.len(),
        theirs.constant_buffers.len(),
    ) {
        return;
    }
    let entries = |e: &Effect, i: usize| -> String {
        let list: Vec<String> = e.constant_buffers[i]
            .entries
            .iter()
            .map(|x| format!("{}@{}", param_name(e, x.parameter), x.offset))
            .collect();
        format!("[{}]", list.join(", "))
    };
    for (i, (a, b)) in ours
        .constant_buffers
        .iter()
        .zip(&theirs.constant_buffers)
        .enumerate()
    {
        let at = format!("constant_buffers[{i}]");
        r.eq(&format!("{at}.name"), &a.name, &b.name);
        r.eq(&format!("{at}.size"), a.size, b.size);
        // By name first (readable); the raw indices only when the names agree, because a name
        // difference already implies an index difference reported under `parameters`.
        if r.eq(
            &format!("{at}.entries"),
            entries(ours, i),
            entries(theirs, i),
        ) {
            let idx = |c: &shadowdusk::mgfx::ConstantBuffer| {
                c.entries.iter().map(|x| x.parameter).collect::<Vec<_>>()
            };
            r.eq(&format!("{at}.entry_parameters"), idx(a), idx(b));
        }
    }
}

fn parameters(r: &mut Report, ours: &Effect, reflection: &EffectReflection, theirs: &Effect) {
    let common = ours.parameters.len().min(theirs.parameters.len());
    for (i, (a, b)) in ours.parameters.iter().zip(&theirs.parameters).enumerate() {
        let initializer = reflection
            .parameters
            .iter()
            .find(|p| p.name == a.name)
            .and_then(|p| p.default.as_deref());
        parameter(r, &format!("parameters[{i}]"), a, b, initializer);
    }
    for (i, extra) in ours.parameters.iter().enumerate().skip(common) {
        let unused = reflection
            .parameters
            .iter()
            .any(|p| p.name == extra.name && !p.used);
        if !unused {
            r.0.push(format!(
                "parameters[{i}]: ours has `{}`, which a shader reads, mgfxc has no parameter here",
                extra.name
            ));
        }
    }
    for (i, missing) in theirs.parameters.iter().enumerate().skip(common) {
        r.0.push(format!(
            "parameters[{i}]: ours has none, mgfxc has `{}`",
            missing.name
        ));
    }
}

/// One parameter, recursively. `initializer` is the HLSL initializer of the top-level
/// declaration, in HLSL order.
fn parameter(r: &mut Report, at: &str, a: &Parameter, b: &Parameter, initializer: Option<&[f64]>) {
    r.eq(&format!("{at}.name"), &a.name, &b.name);
    r.eq(&format!("{at}.class"), a.class, b.class);
    r.eq(&format!("{at}.type"), a.ty, b.ty);
    r.eq(&format!("{at}.semantic"), &a.semantic, &b.semantic);
    r.eq(&format!("{at}.annotations"), a.annotations, b.annotations);
    r.eq(&format!("{at}.rows"), a.rows, b.rows);
    r.eq(&format!("{at}.columns"), a.columns, b.columns);
    if r.eq(
        &format!("{at}.elements.len"),
        a.elements.len(),
        b.elements.len(),
    ) {
        for (k, (x, y)) in a.elements.iter().zip(&b.elements).enumerate() {
            parameter(r, &format!("{at}.elements[{k}]"), x, y, initializer);
        }
    }
    if r.eq(
        &format!("{at}.members.len"),
        a.members.len(),
        b.members.len(),
    ) {
        for (k, (x, y)) in a.members.iter().zip(&b.members).enumerate() {
            parameter(r, &format!("{at}.members[{k}]"), x, y, None);
        }
    }
    data(r, at, a, b, initializer);
}

fn data(r: &mut Report, at: &str, a: &Parameter, b: &Parameter, initializer: Option<&[f64]>) {
    let floats = |d: &Option<Vec<u32>>| {
        d.as_ref()
            .map(|v| v.iter().map(|&x| f32::from_bits(x)).collect::<Vec<_>>())
    };
    let (ours, theirs) = (floats(&a.data), floats(&b.data));
    let zero = |d: &Option<Vec<f32>>| d.as_ref().is_none_or(|v| v.iter().all(|&x| x == 0.0));
    if !zero(&theirs) || ours.is_none() != theirs.is_none() {
        r.eq(&format!("{at}.data"), &ours, &theirs);
        return;
    }
    if zero(&ours) {
        return;
    }
    // Golden zeros, ours not: only a baked initializer may explain it.
    let Some(init) = initializer else {
        r.0.push(format!(
            "{at}.data: ours {ours:?} without an initializer in the .fx, mgfxc zeros"
        ));
        return;
    };
    let plain = a.elements.is_empty() && a.class != ParameterClass::Matrix;
    if plain && !a.name.is_empty() {
        let mut want: Vec<f32> = init.iter().map(|&v| v as f32).collect();
        let n = a.rows as usize * a.columns as usize;
        if want.len() == 1 && n > 1 {
            want = vec![want[0]; n];
        }
        want.resize(n, 0.0);
        r.eq(&format!("{at}.data (baked initializer)"), ours, Some(want));
    }
}

/// The payload must declare what the records name: the register array of each constant buffer
/// with the record's length, each sampler with its type, each attribute.
fn glsl_declares_records(r: &mut Report, at: &str, effect: &Effect, shader: &Shader) {
    let text = String::from_utf8_lossy(&shader.code);
    let mut want = Vec::new();
    for &c in &shader.cbuffers {
        if let Some(cb) = effect.constant_buffers.get(c as usize) {
            want.push(format!("uniform vec4 {}[{}];", cb.name, cb.size / 16));
        }
    }
    for s in &shader.samplers {
        let ty = match s.ty {
            SamplerType::Sampler2D => "sampler2D",
            SamplerType::SamplerCube => "samplerCube",
            SamplerType::SamplerVolume => "sampler3D",
            SamplerType::Sampler1D => "sampler1D",
        };
        want.push(format!("uniform {ty} {};", s.name));
    }
    for a in &shader.attributes {
        want.push(format!("attribute vec4 {};", a.name));
    }
    for w in want {
        if !text.contains(&w) {
            r.0.push(format!("{at}: does not declare `{w}`"));
        }
    }
}
