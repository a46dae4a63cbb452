//! MonoGame sampler states as wgpu samplers.
// HELPER(states): implement.

use crate::mgfx::SamplerState;

/// The sampler descriptor for `state` (`None`: MonoGame's device default, `SamplerState.LinearWrap`),
/// or why this device cannot express it (a border address mode without
/// `Features::ADDRESS_MODE_CLAMP_TO_BORDER`, say).
pub(crate) fn descriptor(
    state: Option<&SamplerState>,
    features: wgpu::Features,
) -> Result<wgpu::SamplerDescriptor<'static>, String> {
    let _ = (state, features);
    unimplemented!()
}
