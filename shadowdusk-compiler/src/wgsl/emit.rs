//! naga: the rewritten SPIR-V read with wgpu's own settings (`adjust_coordinate_space: false`,
//! so D3D's clip space stays as it is, which is wgpu's), validated with every flag, and written
//! as WGSL under `diagnostic(off, derivative_uniformity);`: D3D takes derivatives (`tex2D`,
//! `ddx`) in non-uniform control flow, and the module says so, both in the IR the validator
//! checks and in the text, so what naga validated is what a WGSL front end reads.

use naga::diagnostic_filter::{
    DiagnosticFilter, DiagnosticFilterNode, FilterableTriggeringRule, Severity,
    StandardFilterableTriggeringRule,
};
use naga::valid::{Capabilities, ValidationFlags, Validator};

use super::WgslError;

/// The directive the WGSL starts with.
pub const DIRECTIVE: &str = "diagnostic(off, derivative_uniformity);\n";

/// (WGSL text, entry point name).
pub(super) fn emit(words: &[u32]) -> Result<(String, String), WgslError> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let options = naga::front::spv::Options {
        adjust_coordinate_space: false,
        strict_capabilities: false,
        block_ctx_dump_prefix: None,
    };
    let mut module = naga::front::spv::parse_u8_slice(&bytes, &options)
        .map_err(|e| WgslError::naga("reading the SPIR-V", e.to_string()))?;
    let leaf = module.diagnostic_filters.append(
        DiagnosticFilterNode {
            inner: DiagnosticFilter {
                new_severity: Severity::Off,
                triggering_rule: FilterableTriggeringRule::Standard(
                    StandardFilterableTriggeringRule::DerivativeUniformity,
                ),
            },
            parent: module.diagnostic_filter_leaf,
        },
        naga::Span::UNDEFINED,
    );
    module.diagnostic_filter_leaf = Some(leaf);
    let info = validator()
        .validate(&module)
        .map_err(|e| WgslError::naga("validating the module", format!("{:?}", e.into_inner())))?;
    let text =
        naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
            .map_err(|e| WgslError::naga("writing WGSL", e.to_string()))?;
    // The writer renames what WGSL reserves (`__` prefixes, keywords), so the entry point is
    // named as the text names it: the function after the stage attribute.
    let entry = text
        .split("\n@")
        .skip(1)
        .find(|s| s.starts_with("vertex") || s.starts_with("fragment"))
        .and_then(|s| s.split("fn ").nth(1))
        .and_then(|s| s.split('(').next())
        .map(|s| s.trim().to_string())
        .ok_or_else(|| WgslError::internal("naga wrote no entry point".into()))?;
    Ok((format!("{DIRECTIVE}{text}"), entry))
}

/// The validator wgpu runs on a shader module: every check, and the capabilities a WebGPU
/// device has without optional features.
pub fn validator() -> Validator {
    Validator::new(ValidationFlags::all(), Capabilities::empty())
}
