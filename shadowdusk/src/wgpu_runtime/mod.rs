//! wgpu runtime (feature `wgpu`): draws effects compiled for wgpu (`Effect::WGPU`, turned on by
//! `Builder::wgpu(true)` or `include_effect!(…, wgpu)`) with MonoGame's semantics, the same shape
//! as [`gl`](crate::gl): a typed [`WgpuEffect<E>`](WgpuEffect) takes only `E`'s `Params`, passes
//! and texture slots.
//!
//! What wgpu asks for that GL does not, and where it lives:
//! * render states are baked into immutable pipelines, so a pipeline is built the first time a
//!   pass is drawn into a given [`Target`] (colour formats, depth format, sample count) from
//!   given vertex buffers ([`VertexLayout`]s and step modes) with given render states and
//!   vertex shader, and cached by them: changing the [`DeviceStates`] between draws costs a
//!   lookup. A pass without a vertex shader draws, as in MonoGame, with the vertex shader of
//!   the effect's last pass applied that has one, else SpriteBatch's; that binding is per
//!   effect, since wgpu has no object of ours that the effects of a device share (the GL
//!   runtime keeps it per context);
//! * parameters that change between draws of one render pass are staged at their own offset
//!   of a [`Uniforms`] store and bound with dynamic offsets. Two ways to draw: prepare, then
//!   record ([`WgpuEffect::prepare`] into a store shared by every effect of the device,
//!   [`Uniforms::upload`] once into the frame's encoder, then [`PreparedDraw`]s recorded with
//!   shared access into a render pass or a render bundle, as egui, iced and glyphon record);
//!   or apply inside the render pass ([`WgpuEffect::apply`], the effect's own store) and
//!   [`WgpuEffect::flush`] once before the frame's commands are submitted;
//! * MonoGame's DirectX 11 runtime shares wgpu's conventions (D3D clip space, no `posFixup`,
//!   clockwise front faces), so states map as it maps them (`states.rs`; see [`DeviceStates`]
//!   for the blocks and sampler slots a pass leaves unset).
//!
//! * textures of every MonoGame [`SurfaceFormat`](crate::SurfaceFormat) are made by
//!   [`WgpuTexture::new`] in the wgpu format that samples alike (converted or decoded where the
//!   device has none), and a shader's bind-group layout follows the textures bound: a texture
//!   the device cannot filter (32-bit floats without `FLOAT32_FILTERABLE`, depth) is bound as
//!   unfilterable with a nearest sampler, as a D3D11 device samples what it cannot filter.
//!
//! Errors are [`WgpuError`]s naming the effect, the pass and the mismatch; wgpu's own
//! validation is asked through an error scope when a pipeline, a bind group or a texture is
//! made, so a mistake becomes an `Err`, not wgpu's default panic.

mod applied;
crate::__wgpu_states!(wgpu);
mod data;
mod dyn_effect;
mod effect;
#[cfg(feature = "egui")]
pub mod egui;
mod error;
pub mod headless;
mod layout;
mod link;
mod loaded;
mod pipeline;
mod prepared;
mod sampler;
mod sprite_vs;
mod sprites;
mod staging;
mod states;
mod surface;
mod target;
#[cfg(test)]
mod tests;
mod texture;
mod uniforms;

pub use crate::device_states::{DeviceStates, SAMPLER_SLOTS};
pub use applied::Applied;
pub use dyn_effect::DynWgpuEffect;
pub use effect::WgpuEffect;
pub use error::{ReplaceError, WgpuError};
pub use headless::WANTED_FEATURES;
pub use layout::{
    BufferLayout, VertexBufferBinding, VertexElement, VertexElementFormat, VertexLayout,
    MAX_VERTEX_BUFFERS,
};
pub use prepared::{PreparedDraw, Recorder};
pub use sprites::{Sprite, SpriteBatch};
pub use target::{Target, WgpuRenderTarget, MAX_COLOR_TARGETS};
pub use texture::{TextureDesc, WgpuTexture};
pub use uniforms::Uniforms;
