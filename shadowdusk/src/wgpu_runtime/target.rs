//! What a pipeline is built for ([`Target`]), and an offscreen render target with read-back
//! ([`WgpuRenderTarget`]).
// HELPER(device): implement WgpuRenderTarget.

use super::{WgpuError, WgpuTexture};

/// The attachments a pass draws into: a pipeline is built per pass and per `Target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The colour attachment's format.
    pub color: wgpu::TextureFormat,
    /// The depth(-stencil) attachment's format, if the render pass has one.
    pub depth: Option<wgpu::TextureFormat>,
    /// Samples per pixel of the attachments.
    pub sample_count: u32,
    /// Width in pixels (SpriteBatch's default projection).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl Target {
    /// A single-sampled colour attachment of `color`, no depth.
    pub fn new(color: wgpu::TextureFormat, width: u32, height: u32) -> Target {
        Target {
            color,
            depth: None,
            sample_count: 1,
            width,
            height,
        }
    }

    /// The same with a depth attachment of `format`.
    pub fn with_depth(self, format: wgpu::TextureFormat) -> Target {
        Target {
            depth: Some(format),
            ..self
        }
    }
}

/// An offscreen `Rgba8Unorm` colour target (optionally with a `Depth24PlusStencil8` depth
/// target) that can be sampled and read back.
#[derive(Debug)]
pub struct WgpuRenderTarget {
    color: wgpu::Texture,
    view: wgpu::TextureView,
    depth: Option<wgpu::TextureView>,
    target: Target,
}

impl WgpuRenderTarget {
    /// Creates it.
    pub fn new(
        device: &wgpu::Device,
        width: u32,
        height: u32,
        depth: bool,
    ) -> Result<WgpuRenderTarget, WgpuError> {
        let _ = (device, width, height, depth);
        unimplemented!()
    }

    /// What pipelines drawing into it are built for.
    pub fn target(&self) -> Target {
        self.target
    }

    /// The colour view.
    pub fn color_view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// The depth view.
    pub fn depth_view(&self) -> Option<&wgpu::TextureView> {
        self.depth.as_ref()
    }

    /// The colour texture, to sample it in a later pass.
    pub fn texture(&self) -> WgpuTexture {
        WgpuTexture::from_view(self.view.clone(), crate::wgsl::TextureDimension::D2)
    }

    /// Begins a render pass into it, clearing colour to `clear` (linear 0–1 RGBA), depth to 1
    /// and stencil to 0 when given, else loading what is there.
    pub fn begin_pass<'e>(
        &self,
        encoder: &'e mut wgpu::CommandEncoder,
        clear: Option<[f64; 4]>,
    ) -> wgpu::RenderPass<'e> {
        let _ = (encoder, clear, &self.color);
        unimplemented!()
    }

    /// Its pixels, RGBA8, top row first, `width * 4` bytes a row (waits for the GPU).
    pub fn read_rgba8(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<u8>, WgpuError> {
        let _ = (device, queue);
        unimplemented!()
    }
}
