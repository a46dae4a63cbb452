//! MGFX reader.
use super::Effect;

/// A malformed file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid MGFX at byte {offset}: {what}")]
pub struct ReadError {
    /// Byte offset where reading failed.
    pub offset: usize,
    /// What was wrong.
    pub what: String,
}

/// Parses MGFX bytes.
pub fn read(bytes: &[u8]) -> Result<Effect, ReadError> {
    let _ = bytes;
    Err(ReadError { offset: 0, what: "reader not implemented yet".into() })
}
