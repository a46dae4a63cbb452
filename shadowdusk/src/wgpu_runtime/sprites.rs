//! todo
/// Placeholder.
pub struct SpriteBatch;
/// Placeholder.
pub struct Sprite;
