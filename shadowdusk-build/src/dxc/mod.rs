//! Stage 4: DXC. Lowered HLSL → SPIR-V, through hassle-rs.
//!
//! The library is loaded once per process (see [`locate`]); compiles are serialized behind a
//! lock, because one DXC instance must not be used from two threads at once.

pub mod locate;

use crate::lower::Stage;

/// SPIR-V words of one compiled entry point.
#[derive(Clone, Debug)]
pub struct Spirv {
    /// The module.
    pub words: Vec<u32>,
}

/// One message DXC printed, positioned in the lowered text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DxcMessage {
    /// 1-based line in the lowered text.
    pub line: u32,
    /// 1-based column in the lowered text.
    pub column: u32,
    /// `true` for errors, `false` for warnings/notes.
    pub is_error: bool,
    /// DXC's wording.
    pub text: String,
}

/// Why a DXC compile failed.
#[derive(Clone, Debug)]
pub enum DxcError {
    /// The library could not be found or loaded; the message says where we looked and what to do.
    Unavailable(String),
    /// DXC rejected the source.
    Compile {
        /// Parsed messages.
        messages: Vec<DxcMessage>,
        /// DXC's full output, for a note.
        raw: String,
    },
}

/// Compiles one entry point of lowered HLSL to SPIR-V.
pub fn compile(hlsl: &str, entry: &str, stage: Stage) -> Result<Spirv, DxcError> {
    let _ = (hlsl, entry, stage);
    Err(DxcError::Unavailable("DXC stage not implemented yet".into()))
}
