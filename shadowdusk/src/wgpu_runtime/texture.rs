//! [`WgpuTexture`]: a texture view an effect samples, and 2D textures from RGBA8 pixels.
// HELPER(device): implement.

use super::WgpuError;
use crate::wgsl::TextureDimension;

/// A texture to bind to a texture slot: a view and its dimension. Cheap to clone (wgpu handles).
#[derive(Clone, Debug)]
pub struct WgpuTexture {
    view: wgpu::TextureView,
    dimension: TextureDimension,
}

impl WgpuTexture {
    /// A 2D `Rgba8Unorm` texture with one mip level (as `gl::GlTexture::from_rgba8`), rows top
    /// first, `width * height * 4` bytes.
    pub fn from_rgba8(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        width: u32,
        height: u32,
        pixels: &[u8],
    ) -> Result<WgpuTexture, WgpuError> {
        let _ = (device, queue, width, height, pixels);
        unimplemented!()
    }

    /// Any view of yours, sampled as `dimension` (a filterable float texture).
    pub fn from_view(view: wgpu::TextureView, dimension: TextureDimension) -> WgpuTexture {
        WgpuTexture { view, dimension }
    }

    /// The view bound.
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// Its dimension.
    pub fn dimension(&self) -> TextureDimension {
        self.dimension
    }
}
