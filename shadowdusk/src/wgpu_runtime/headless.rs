//! A device without a window, for tests, screenshots and CI (Mesa's lavapipe on Vulkan, or
//! llvmpipe through wgpu's GL back end).
// HELPER(device): implement.

use super::WgpuError;

/// A wgpu device and queue with no surface.
#[derive(Debug)]
pub struct HeadlessWgpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
}

impl HeadlessWgpu {
    /// Picks an adapter (`WGPU_BACKEND` chooses the back end; otherwise Vulkan, then GL) and
    /// opens a device with the optional features the effects' states may use
    /// (`ADDRESS_MODE_CLAMP_TO_BORDER`, `POLYGON_MODE_LINE`) where the adapter has them.
    pub fn new() -> Result<HeadlessWgpu, WgpuError> {
        unimplemented!()
    }

    /// The device.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// Its queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// Which adapter it runs on.
    pub fn info(&self) -> &wgpu::AdapterInfo {
        &self.info
    }
}
