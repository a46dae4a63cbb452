//! MonoGame's render states as wgpu pipeline state, mapped as MonoGame's DirectX 11 runtime maps
//! them (wgpu shares its conventions: clockwise front faces, D3D clip space).
//! A pass that sets no block gets the device's initial state in MonoGame (`BlendState.Opaque`,
//! `DepthStencilState.Default`, `RasterizerState.CullCounterClockwise`).
// HELPER(states): implement.

use crate::mgfx::{BlendState, DepthStencilState, RasterizerState};

/// The colour target of a pass drawn into `format`: blend (None when the state is opaque, so
/// formats that cannot blend still draw it) and write mask. `Err(())` when the state blends and
/// `format` cannot be blended.
pub(crate) fn color_target(
    blend: Option<&BlendState>,
    format: wgpu::TextureFormat,
) -> Result<wgpu::ColorTargetState, ()> {
    let _ = (blend, format);
    unimplemented!()
}

/// `BlendState.BlendFactor` as wgpu's blend constant.
pub(crate) fn blend_constant(blend: Option<&BlendState>) -> wgpu::Color {
    let _ = blend;
    unimplemented!()
}

/// `BlendState.MultiSampleMask`.
pub(crate) fn sample_mask(blend: Option<&BlendState>) -> u64 {
    let _ = blend;
    unimplemented!()
}

/// Cull mode and winding for `topology`.
pub(crate) fn primitive(
    rasterizer: Option<&RasterizerState>,
    topology: wgpu::PrimitiveTopology,
) -> wgpu::PrimitiveState {
    let _ = (rasterizer, topology);
    unimplemented!()
}

/// Depth, stencil and depth bias for a target whose depth attachment has `format` (`None`: no
/// depth attachment, no depth-stencil state).
pub(crate) fn depth_stencil(
    depth_stencil: Option<&DepthStencilState>,
    rasterizer: Option<&RasterizerState>,
    format: Option<wgpu::TextureFormat>,
    topology: wgpu::PrimitiveTopology,
) -> Option<wgpu::DepthStencilState> {
    let _ = (depth_stencil, rasterizer, format, topology);
    unimplemented!()
}

/// `DepthStencilState.ReferenceStencil`.
pub(crate) fn stencil_reference(depth_stencil: Option<&DepthStencilState>) -> u32 {
    let _ = depth_stencil;
    unimplemented!()
}
