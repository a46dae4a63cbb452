//! [`WgpuTexture`]: a texture view an effect samples, and 2D textures from RGBA8 pixels.

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
        check_size(device, width, height)?;
        let expected = u64::from(width) * u64::from(height) * 4;
        if pixels.len() as u64 != expected {
            return Err(WgpuError::Texture(format!(
                "{width}x{height} RGBA8 needs {expected} bytes ({width} * {height} * 4), got {}",
                pixels.len()
            )));
        }
        let size = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("shadowdusk rgba8"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        // write_texture takes tightly packed rows (only buffer copies need 256-byte rows).
        queue.write_texture(
            texture.as_image_copy(),
            pixels,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(width * 4),
                rows_per_image: Some(height),
            },
            size,
        );
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Ok(WgpuTexture::from_view(view, TextureDimension::D2))
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

/// A 2D texture of `width` x `height` fits `device` (checked here so that a bad size is an
/// `Err`, not wgpu's validation panic).
pub(crate) fn check_size(device: &wgpu::Device, width: u32, height: u32) -> Result<(), WgpuError> {
    let max = device.limits().max_texture_dimension_2d;
    if width == 0 || height == 0 {
        return Err(WgpuError::Texture(format!(
            "{width}x{height}: a texture needs at least one pixel each way"
        )));
    }
    if width > max || height > max {
        return Err(WgpuError::Texture(format!(
            "{width}x{height} is larger than this device's 2D texture limit of {max} pixels a side"
        )));
    }
    Ok(())
}
