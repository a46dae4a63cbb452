//! todo
use std::marker::PhantomData;
/// Placeholder.
pub struct WgpuEffect<E>(PhantomData<E>);
/// Placeholder.
pub struct Applied;
