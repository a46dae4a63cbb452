//! Constant-buffer records from a shader's register allocation (fx-pipeline.md §9.2).

use shadowdusk_mgfx::{CbufferEntry, ConstantBuffer};

use super::parameters::ParameterTable;
use super::ShaderInput;
use crate::diag::{Code, Diagnostic};
use crate::lower::Stage;

/// The record for one shader, or `None` when it reads no uniform.
pub(super) fn record(
    shader: &ShaderInput,
    params: &mut ParameterTable<'_>,
) -> Result<Option<ConstantBuffer>, Diagnostic> {
    if shader.register_count == 0 {
        return Ok(None);
    }
    let name = match shader.stage {
        Stage::Vertex => "vs_uniforms_vec4",
        Stage::Pixel => "ps_uniforms_vec4",
    };
    let size = shader.register_count as u64 * 16;
    let Ok(size) = u16::try_from(size) else {
        return Err(too_big(name, size));
    };
    if size > 32767 {
        return Err(too_big(name, size as u64));
    }
    let mut entries = Vec::with_capacity(shader.registers.len());
    for r in &shader.registers {
        let parameter = params.value(&r.parameter)?;
        let end = (r.base + r.count) as u64 * 16;
        if end > size as u64 {
            return Err(Diagnostic::error(
                Code::SD0012,
                format!(
                    "internal: uniform `{}` ends at byte {end}, past the end of {name} ({size} bytes)",
                    r.parameter
                ),
            ));
        }
        entries.push(CbufferEntry {
            parameter: parameter as i32,
            offset: (r.base * 16) as u16,
        });
    }
    Ok(Some(ConstantBuffer {
        name: name.to_string(),
        size,
        entries,
    }))
}

fn too_big(name: &str, size: u64) -> Diagnostic {
    Diagnostic::error(
        Code::SD0020,
        format!("the {name} constant buffer needs {size} bytes; MonoGame allows at most 32767"),
    )
    .with_help("use fewer or smaller uniforms in this shader stage (arrays count every element)")
}
