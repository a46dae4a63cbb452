//! [`WgpuTexture`]: a texture view an effect samples, and textures made from MonoGame texel
//! data of any [`SurfaceFormat`] ([`TextureDesc`]).

use super::surface::{self, Storage};
use super::WgpuError;
use crate::surface_format::SurfaceFormat;
use crate::wgsl::TextureDimension;

/// A texture to make from MonoGame texel data: its [`SurfaceFormat`], kind, size and mip levels
/// (MonoGame's `Texture2D`, `TextureCube` and `Texture3D` constructors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureDesc {
    /// How the texels are stored.
    pub format: SurfaceFormat,
    /// The kind: `D2`, `Cube` (six square faces), `D3` (a volume) or `D1` (one row, one level).
    pub dimension: TextureDimension,
    /// Texels across level 0.
    pub width: u32,
    /// Texels down level 0 (1 for `D1`; `width` for `Cube`).
    pub height: u32,
    /// Slices of level 0 for `D3`; 1 otherwise.
    pub depth: u32,
    /// Mip levels, at least 1.
    pub mip_levels: u32,
}

impl TextureDesc {
    /// A 2D texture with one level (`new Texture2D(device, width, height, false, format)`).
    pub fn d2(format: SurfaceFormat, width: u32, height: u32) -> TextureDesc {
        TextureDesc {
            format,
            dimension: TextureDimension::D2,
            width,
            height,
            depth: 1,
            mip_levels: 1,
        }
    }

    /// A cube of six `size` × `size` faces with one level (`new TextureCube(…)`).
    pub fn cube(format: SurfaceFormat, size: u32) -> TextureDesc {
        TextureDesc {
            dimension: TextureDimension::Cube,
            ..TextureDesc::d2(format, size, size)
        }
    }

    /// A volume with one level (`new Texture3D(…)`).
    pub fn d3(format: SurfaceFormat, width: u32, height: u32, depth: u32) -> TextureDesc {
        TextureDesc {
            dimension: TextureDimension::D3,
            depth,
            ..TextureDesc::d2(format, width, height)
        }
    }

    /// With `levels` mip levels.
    pub fn with_mip_levels(self, levels: u32) -> TextureDesc {
        TextureDesc {
            mip_levels: levels,
            ..self
        }
    }

    /// Width, height and images (faces of a cube, slices of a volume) of `level`.
    pub fn level_extent(&self, level: u32) -> (u32, u32, u32) {
        let (w, h) = ((self.width >> level).max(1), (self.height >> level).max(1));
        match self.dimension {
            TextureDimension::Cube => (w, h, 6),
            TextureDimension::D3 => (w, h, (self.depth >> level).max(1)),
            TextureDimension::D1 | TextureDimension::D2 => (w, h, 1),
        }
    }

    /// The bytes of texel data [`WgpuTexture::new`] takes: every level, largest first; in each,
    /// every face (+X, −X, +Y, −Y, +Z, −Z, MonoGame's `CubeMapFace` order) or slice; in each,
    /// rows (of blocks, for a compressed format) top first, tightly packed, each image
    /// [`SurfaceFormat::level_size`] bytes.
    pub fn data_size(&self) -> u64 {
        (0..self.mip_levels)
            .map(|level| {
                let (w, h, images) = self.level_extent(level);
                self.format.level_size(w, h) * u64::from(images)
            })
            .sum()
    }

    /// `Err` unless the kind, size and level count are ones `device` can make.
    fn check(&self, device: &wgpu::Device) -> Result<(), WgpuError> {
        let limits = device.limits();
        let bad = |why: String| Err(WgpuError::Texture(format!("{self:?}: {why}")));
        let (max, extent) = match self.dimension {
            TextureDimension::D1 => (limits.max_texture_dimension_1d, self.width),
            TextureDimension::D3 => (
                limits.max_texture_dimension_3d,
                self.width.max(self.height).max(self.depth),
            ),
            TextureDimension::D2 | TextureDimension::Cube => {
                (limits.max_texture_dimension_2d, self.width.max(self.height))
            }
        };
        if self.width == 0 || self.height == 0 || self.depth == 0 {
            return bad("a texture needs at least one texel each way".into());
        }
        if extent > max {
            return bad(format!(
                "larger than this device's limit of {max} texels a side"
            ));
        }
        let flat = self.height == 1 && self.depth == 1 && self.mip_levels == 1;
        match self.dimension {
            TextureDimension::D1 if !flat => {
                return bad("a 1D texture has height 1, depth 1 and one mip level in wgpu".into())
            }
            TextureDimension::Cube if self.width != self.height || self.depth != 1 => {
                return bad("a cube's faces are square (height = width, depth 1)".into())
            }
            TextureDimension::D2 if self.depth != 1 => {
                return bad("a 2D texture has depth 1".into())
            }
            _ => {}
        }
        let full = 32 - extent.leading_zeros();
        if self.mip_levels == 0 || self.mip_levels > full {
            return bad(format!(
                "{} mip levels; a texture this size has 1 to {full}",
                self.mip_levels
            ));
        }
        Ok(())
    }
}

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

    /// A texture of `desc` holding `data` (laid out as [`TextureDesc::data_size`] says), in
    /// the wgpu format that samples as MonoGame samples the [`SurfaceFormat`]: its own where
    /// wgpu and the device have it (block-compressed formats with the device's
    /// `TEXTURE_COMPRESSION_*` feature), else converted on the way (decoded for a
    /// block-compressed format the device cannot sample). `Err` for a size, kind or level
    /// count the device cannot make, or data of the wrong length.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        desc: &TextureDesc,
        data: &[u8],
    ) -> Result<WgpuTexture, WgpuError> {
        desc.check(device)?;
        let expected = desc.data_size();
        if data.len() as u64 != expected {
            return Err(WgpuError::Texture(format!(
                "{desc:?} takes {expected} bytes of texel data, got {}",
                data.len()
            )));
        }
        let Storage { format, convert } = surface::storage(
            desc.format,
            desc.dimension,
            (desc.width, desc.height),
            device.features(),
        );
        let (width, height, layers) = desc.level_extent(0);
        // What `check` and `storage` rule out cannot reach wgpu's validation; the scope turns
        // anything they miss into an `Err`, not wgpu's panic.
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("shadowdusk texture"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: layers,
            },
            mip_level_count: desc.mip_levels,
            sample_count: 1,
            dimension: match desc.dimension {
                TextureDimension::D1 => wgpu::TextureDimension::D1,
                TextureDimension::D2 | TextureDimension::Cube => wgpu::TextureDimension::D2,
                TextureDimension::D3 => wgpu::TextureDimension::D3,
            },
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let (block_width, block_height) = format.block_dimensions();
        let block_bytes = format.block_copy_size(None).unwrap_or(4);
        let mut rest = data;
        let mut level_bytes = Vec::new();
        for level in 0..desc.mip_levels {
            let (w, h, images) = desc.level_extent(level);
            let size = desc.format.level_size(w, h) as usize;
            level_bytes.clear();
            for _ in 0..images {
                let (image, tail) = rest.split_at(size);
                convert.image(image, w, h, &mut level_bytes);
                rest = tail;
            }
            let (across, down) = (w.div_ceil(block_width), h.div_ceil(block_height));
            queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &texture,
                    mip_level: level,
                    origin: wgpu::Origin3d::ZERO,
                    aspect: wgpu::TextureAspect::All,
                },
                &level_bytes,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(across * block_bytes),
                    rows_per_image: Some(down),
                },
                // A level smaller than a block is copied as the whole block it is stored in.
                wgpu::Extent3d {
                    width: across * block_width,
                    height: down * block_height,
                    depth_or_array_layers: images,
                },
            );
        }
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(super::pipeline::view_dimension(desc.dimension)),
            ..Default::default()
        });
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(WgpuError::Texture(format!(
                "{desc:?} as {format:?}: wgpu refused it: {error}"
            )));
        }
        Ok(WgpuTexture::from_view(view, desc.dimension))
    }

    /// Any view of yours, sampled as `dimension`. How its format is sampled follows the format,
    /// as a D3D11 device's does: filtered where the device can filter it (32-bit floats need
    /// `FLOAT32_FILTERABLE`), else with the nearest texel whatever the sampler state says; a
    /// depth view (of a depth-stencil texture: `aspect: DepthOnly`) samples its depth in red.
    /// Integer, stencil and multisampled views, and textures without `TEXTURE_BINDING`, are
    /// refused when set ([`WgpuError::TextureFormat`]).
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
