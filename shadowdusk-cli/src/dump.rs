//! `--dump`: the compiled effect as readable JSON (GLSL as text, not bytes).

use serde_json::{json, Value};
use shadowdusk_compiler::pipeline::Compiled;

pub fn dump(c: &Compiled) -> Value {
    let e = &c.effect;
    let shaders: Vec<Value> = e
        .shaders
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "index": i,
                "stage": s.stage,
                "glsl": String::from_utf8_lossy(&s.code),
                "samplers": s.samplers,
                "cbuffers": s.cbuffers,
                "attributes": s.attributes,
            })
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
