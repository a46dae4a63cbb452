//! Reflection of a compiled effect: what the MGFX bytes do not say but code generation, the
//! build manifest and diagnostics need (source locations, HLSL declarations, defaults, which
//! parameters no shader reads).
//!
//! Built by [`crate::pipeline`] next to the [`shadowdusk_mgfx::Effect`]; serialized into the
//! build script's manifest (serde), read back by `include_effect!`.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Reflection of one effect.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EffectReflection {
    /// The effect file.
    pub source: PathBuf,
    /// Every file the preprocessor read, the effect first.
    pub files_read: Vec<PathBuf>,
    /// One entry per top-level MGFX parameter, in the same order.
    pub parameters: Vec<ParameterInfo>,
    /// Techniques in MGFX order.
    pub techniques: Vec<TechniqueInfo>,
    /// One entry per MGFX shader, in the same order.
    pub shaders: Vec<ShaderInfo>,
}

/// Where a declaration is in the user's files.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// File.
    pub file: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// One effect parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParameterInfo {
    /// Name (as in the MGFX).
    pub name: String,
    /// The HLSL declaration as written, e.g. `float4 Tint = float4(1, 0.5, 0.5, 1)`; for a
    /// texture parameter the sampler or texture declaration it comes from.
    pub declaration: String,
    /// Where it is declared, when known.
    pub location: Option<Location>,
    /// `cbuffer` name, if declared inside one.
    pub cbuffer: Option<String>,
    /// The HLSL initializer, flattened in HLSL order (matrices row by row), when present.
    pub default: Option<Vec<f64>>,
    /// False when no shader of the effect reads it (it is still a parameter, so code that sets
    /// it keeps compiling when the shader changes).
    pub used: bool,
}

/// A technique.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TechniqueInfo {
    /// Name.
    pub name: String,
    /// Passes.
    pub passes: Vec<PassInfo>,
}

/// A pass.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassInfo {
    /// Name.
    pub name: String,
    /// Vertex shader entry point, if the pass has one.
    pub vertex_entry: Option<String>,
    /// Pixel shader entry point, if the pass has one.
    pub pixel_entry: Option<String>,
}

/// A compiled shader.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShaderInfo {
    /// Entry point.
    pub entry: String,
    /// Profile as written in the effect (`ps_3_0`).
    pub profile: String,
}
