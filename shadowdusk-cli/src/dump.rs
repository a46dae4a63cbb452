//! `--dump`: the compiled effect as readable JSON (GLSL as text, not bytes); and
//! `/Profile:Wgpu`'s output file, the wgpu JSON ([`wgpu`]).

use serde_json::{json, Value};
use shadowdusk_compiler::pipeline::Compiled;

pub fn dump(c: &Compiled) -> Value {
    let e = &c.effect;
    let shaders: Vec<Value> = e
        .shaders
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut v = json!({
                "index": i,
                "stage": s.stage,
                "glsl": String::from_utf8_lossy(&s.code),
                "samplers": s.samplers,
                "cbuffers": s.cbuffers,
                "attributes": s.attributes,
            });
            // `/Profile:Wgpu`: the WGSL beside its bind-group and vertex-input tables.
            if let Some(w) = c.wgpu.as_ref().and_then(|w| w.shaders.get(i)) {
                v["wgsl"] = json!(w.wgsl);
                v["wgpu_entry"] = json!(w.entry);
                v["wgpu_bindings"] = json!(w.bindings);
                v["wgpu_vertex_inputs"] = json!(w.vertex_inputs);
                v["wgpu_varyings"] = json!(w.varyings);
            }
            v
        })
        .collect();
    json!({
        "version": e.version,
        "profile": e.profile,
        "constant_buffers": e.constant_buffers,
        "parameters": e.parameters,
        "techniques": e.techniques,
        "shaders": shaders,
        "files_read": c.deps,
        "size_bytes": c.bytes.len(),
    })
}

/// The `/Profile:Wgpu` output: per technique and pass, each stage's WGSL, entry point,
/// bind-group layout entries and vertex inputs (usage, index, location, format), and the pass's
/// render states as data (MGFX's model: blend, depth-stencil, rasterizer; sampler states per
/// slot). The binding rule: group 0 vertex, group 1 pixel; binding 0 the registers, sampler slot
/// N's texture at 1 + 2N and its sampler at 2 + 2N. Then what a runtime loads
/// (`shadowdusk_mgfx::wgpu::WgpuFile`): `mgfx`, the file name of the MGFX written beside it, and
/// `shaders`, the wgpu output in the MGFX effect's shader order.
pub fn wgpu(c: &Compiled, mgfx_file: &str) -> Option<Value> {
    let w = c.wgpu.as_ref()?;
    let e = &c.effect;
    let stage = |index: i32| -> Value {
        let Some(s) = usize::try_from(index).ok().and_then(|i| w.shaders.get(i)) else {
            return Value::Null;
        };
        let samplers = e.shaders[index as usize]
            .samplers
            .iter()
            .map(|smp| {
                json!({
                    "slot": smp.texture_slot,
                    "parameter": e.parameters.get(usize::from(smp.parameter)).map(|p| &p.name),
                    "state": smp.state,
                })
            })
            .collect::<Vec<_>>();
        json!({
            "shader": index,
            "wgsl": s.wgsl,
            "entry": s.entry,
            "group": s.group,
            "uniform_size": s.uniform_size,
            "bindings": s.bindings,
            "vertex_inputs": s.vertex_inputs,
            "varyings": s.varyings,
            "samplers": samplers,
        })
    };
    let techniques: Vec<Value> = e
        .techniques
        .iter()
        .map(|t| {
            let passes: Vec<Value> = t
                .passes
                .iter()
                .map(|p| {
                    json!({
                        "name": p.name,
                        "vertex": stage(p.vertex_shader),
                        "pixel": stage(p.pixel_shader),
                        "blend": p.blend,
                        "depth_stencil": p.depth_stencil,
                        "rasterizer": p.rasterizer,
                    })
                })
                .collect();
            json!({ "name": t.name, "passes": passes })
        })
        .collect();
    Some(json!({
        "format": shadowdusk_mgfx::wgpu::FILE_FORMAT,
        "version": shadowdusk_mgfx::wgpu::FILE_VERSION,
        "constant_buffers": e.constant_buffers,
        "parameters": e.parameters,
        "techniques": techniques,
        "mgfx": mgfx_file,
        "shaders": w.shaders,
    }))
}
