//! MGFX writer.
use super::Effect;

/// An effect that cannot be written (a limit of the container).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot write MGFX: {0}")]
pub struct WriteError(pub String);

/// Serializes an effect.
pub fn write(effect: &Effect) -> Result<Vec<u8>, WriteError> {
    let _ = effect;
    Err(WriteError("writer not implemented yet".into()))
}
