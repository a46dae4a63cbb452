//! Vertex layouts in MonoGame's terms.

/// Placeholder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexLayout;
/// Placeholder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexElement;
/// Placeholder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexElementFormat {}
