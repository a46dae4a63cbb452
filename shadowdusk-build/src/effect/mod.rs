//! Stage 2: the effect-syntax parser.
//!
//! Input: [`Expanded`] text. Output: [`ParsedEffect`]: the [`EffectAst`] (techniques, passes,
//! render and sampler states, annotations, uniform globals with initializers, samplers, textures,
//! function signatures) and the *stripped* text, in which every technique block, sampler state
//! block and annotation block is blanked (each byte replaced by a space, newlines kept), so byte
//! offsets in the stripped text equal offsets in the expanded text.
//!
//! Implements fx-pipeline.md §3 and §6.

pub mod ast;

pub use ast::*;

use crate::diag::Diagnostics;
use crate::preprocess::Expanded;

/// Result of parsing.
#[derive(Clone, Debug)]
pub struct ParsedEffect {
    /// The extracted syntax.
    pub ast: EffectAst,
    /// The expanded text with effect syntax blanked; same length as the input.
    pub stripped: String,
}

/// Parses the effect syntax of expanded text.
pub fn parse(expanded: &Expanded) -> Result<ParsedEffect, Diagnostics> {
    let _ = expanded;
    Err(crate::diag::Diagnostic::error(crate::diag::Code::FX0001, "effect parser not implemented yet").into())
}
