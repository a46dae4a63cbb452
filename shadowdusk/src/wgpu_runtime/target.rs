//! What a pipeline is built for ([`Target`]), and an offscreen render target with read-back
//! ([`WgpuRenderTarget`]).

use super::{WgpuError, WgpuTexture};

/// The most colour targets a pass draws into at once (MonoGame's `SetRenderTargets` with
/// `COLOR0`–`COLOR3`).
pub const MAX_COLOR_TARGETS: usize = 4;

/// The attachments a pass draws into: a pipeline is built per pass and per `Target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The colour attachments' formats, in the render pass's order: the pixel shader's
    /// `COLORn` goes to attachment `n` (`None`: no attachment there).
    pub colors: [Option<wgpu::TextureFormat>; MAX_COLOR_TARGETS],
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
            colors: [Some(color), None, None, None],
            depth: None,
            sample_count: 1,
            width,
            height,
        }
    }

    /// Single-sampled colour attachments of `colors`, no depth: MonoGame's
    /// `SetRenderTargets(rt0, rt1, …)`. Fails for none or more than [`MAX_COLOR_TARGETS`].
    pub fn with_colors(
        colors: &[wgpu::TextureFormat],
        width: u32,
        height: u32,
    ) -> Result<Target, WgpuError> {
        if colors.is_empty() || colors.len() > MAX_COLOR_TARGETS {
            return Err(WgpuError::ColorTargets {
                count: colors.len(),
                max: MAX_COLOR_TARGETS,
            });
        }
        let mut formats = [None; MAX_COLOR_TARGETS];
        for (to, from) in formats.iter_mut().zip(colors) {
            *to = Some(*from);
        }
        Ok(Target {
            colors: formats,
            ..Target::new(colors[0], width, height)
        })
    }

    /// The same with a depth attachment of `format`.
    pub fn with_depth(self, format: wgpu::TextureFormat) -> Target {
        Target {
            depth: Some(format),
            ..self
        }
    }

    /// The same with `samples` samples per pixel (MSAA: a render pass whose attachments are
    /// multisampled, resolved into your single-sampled texture by the pass).
    pub fn with_sample_count(self, samples: u32) -> Target {
        Target {
            sample_count: samples,
            ..self
        }
    }

    /// The format of colour attachment 0.
    pub fn color(&self) -> Option<wgpu::TextureFormat> {
        self.colors[0]
    }
}

/// The colour format of a [`WgpuRenderTarget`].
const COLOR: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// The depth format of a [`WgpuRenderTarget`] made with a depth target.
const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth24PlusStencil8;

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
        super::texture::check_size(device, width, height)?;
        let size = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let texture = |label, format, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let mut target = Target::new(COLOR, width, height);
        let color = texture(
            "shadowdusk target colour",
            COLOR,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
        );
        let view = color.create_view(&wgpu::TextureViewDescriptor::default());
        let depth = depth.then(|| {
            target = target.with_depth(DEPTH);
            texture(
                "shadowdusk target depth",
                DEPTH,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
            )
            .create_view(&wgpu::TextureViewDescriptor::default())
        });
        Ok(WgpuRenderTarget {
            color,
            view,
            depth,
            target,
        })
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
        let color_load = match clear {
            Some([r, g, b, a]) => wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
            None => wgpu::LoadOp::Load,
        };
        let depth_stencil_attachment =
            self.depth
                .as_ref()
                .map(|view| wgpu::RenderPassDepthStencilAttachment {
                    view,
                    depth_ops: Some(wgpu::Operations {
                        load: if clear.is_some() {
                            wgpu::LoadOp::Clear(1.0)
                        } else {
                            wgpu::LoadOp::Load
                        },
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: Some(wgpu::Operations {
                        load: if clear.is_some() {
                            wgpu::LoadOp::Clear(0)
                        } else {
                            wgpu::LoadOp::Load
                        },
                        store: wgpu::StoreOp::Store,
                    }),
                });
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("shadowdusk target pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &self.view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: color_load,
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        })
    }

    /// The colour texture itself (to copy into or out of it).
    pub fn color_texture(&self) -> &wgpu::Texture {
        &self.color
    }

    /// Its pixels, RGBA8, top row first, `width * 4` bytes a row (waits for the GPU).
    pub fn read_rgba8(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<u8>, WgpuError> {
        let Target { width, height, .. } = self.target;
        let row = width * 4;
        // Buffer copies take rows at multiples of 256 bytes; the padding is dropped below.
        let padded_row =
            row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("shadowdusk read-back"),
            size: u64::from(padded_row) * u64::from(height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("shadowdusk read-back"),
        });
        encoder.copy_texture_to_buffer(
            self.color.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded_row),
                    rows_per_image: Some(height),
                },
            },
            self.color.size(),
        );
        let submission = queue.submit([encoder.finish()]);
        let (sender, receiver) = std::sync::mpsc::channel();
        buffer.map_async(wgpu::MapMode::Read, .., move |result| {
            // The receiver is gone only if this function already returned with an error.
            let _ = sender.send(result);
        });
        device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(submission),
                timeout: None,
            })
            .map_err(|e| WgpuError::ReadBack(format!("waiting for the GPU: {e}")))?;
        receiver
            .recv()
            .map_err(|_| WgpuError::ReadBack("the buffer was never mapped".into()))?
            .map_err(|e| WgpuError::ReadBack(format!("mapping the buffer: {e}")))?;
        let pixels = {
            let mapped = buffer
                .get_mapped_range(..)
                .map_err(|e| WgpuError::ReadBack(format!("reading the mapped buffer: {e}")))?;
            let mut pixels = Vec::with_capacity(row as usize * height as usize);
            for padded in mapped.chunks_exact(padded_row as usize) {
                pixels.extend_from_slice(&padded[..row as usize]);
            }
            pixels
        };
        buffer.unmap();
        Ok(pixels)
    }
}

#[cfg(test)]
mod tests {
    use super::super::headless::for_test;
    use super::*;

    /// Draws `texture` over all of `target` texel for texel (`textureLoad`, no filtering), so
    /// what was uploaded is what a read-back must give.
    fn copy_by_drawing(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        texture: &WgpuTexture,
        target: &WgpuRenderTarget,
    ) {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("texel copy"),
            source: wgpu::ShaderSource::Wgsl(
                "@group(0) @binding(0) var t: texture_2d<f32>;
                 @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
                     let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
                     return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
                 }
                 @fragment fn fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
                     return textureLoad(t, vec2<i32>(p.xy), 0);
                 }"
                .into(),
            ),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("texel copy"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            // A pipeline must name the pass's depth attachment; this one leaves depth alone.
            depth_stencil: target.target().depth.map(|format| wgpu::DepthStencilState {
                format,
                depth_write_enabled: Some(false),
                depth_compare: Some(wgpu::CompareFunction::Always),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[target.target().color().map(Into::into)],
            }),
            multiview_mask: None,
            cache: None,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(texture.view()),
            }],
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = target.begin_pass(&mut encoder, Some([0.0; 4]));
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.draw(0..3, 0..1);
        }
        queue.submit([encoder.finish()]);
    }

    /// Every pixel different (`x`, `y` and a mix of both), so a row shifted by padding or the
    /// rows' order shows.
    fn pattern(width: u32, height: u32) -> Vec<u8> {
        (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .flat_map(|(x, y)| [x as u8, y as u8, (x * 7 + y * 13) as u8, 255 - x as u8])
            .collect()
    }

    #[test]
    fn uploaded_pixels_come_back_exactly_at_odd_widths() {
        let Some(wgpu) = for_test("wgpu texture upload and read-back") else {
            return;
        };
        let (device, queue) = (wgpu.device(), wgpu.queue());
        // 33 and 65 px: rows of 132 and 260 bytes, padded to 256 and 512 in the read-back;
        // 64 px: exactly one 256-byte row, no padding.
        for (width, height) in [(33, 5), (65, 3), (64, 2), (1, 1)] {
            let pixels = pattern(width, height);
            let texture = WgpuTexture::from_rgba8(device, queue, width, height, &pixels).unwrap();
            let target = WgpuRenderTarget::new(device, width, height, false).unwrap();
            copy_by_drawing(device, queue, &texture, &target);
            let back = target.read_rgba8(device, queue).unwrap();
            assert_eq!(back.len(), pixels.len(), "{width}x{height}");
            assert!(back == pixels, "{width}x{height}: the pixels differ");
        }
    }

    #[test]
    fn a_cleared_target_reads_back_the_clear_colour_and_none_keeps_it() {
        let Some(wgpu) = for_test("wgpu render target clear") else {
            return;
        };
        let (device, queue) = (wgpu.device(), wgpu.queue());
        for depth in [false, true] {
            let target = WgpuRenderTarget::new(device, 33, 7, depth).unwrap();
            assert_eq!(
                target.target(),
                Target {
                    colors: [Some(wgpu::TextureFormat::Rgba8Unorm), None, None, None],
                    depth: depth.then_some(wgpu::TextureFormat::Depth24PlusStencil8),
                    sample_count: 1,
                    width: 33,
                    height: 7,
                }
            );
            assert_eq!(target.depth_view().is_some(), depth);
            let mut encoder = device.create_command_encoder(&Default::default());
            drop(target.begin_pass(&mut encoder, Some([0.2, 0.4, 0.6, 1.0])));
            // A second pass that clears nothing leaves the first one's colour.
            drop(target.begin_pass(&mut encoder, None));
            queue.submit([encoder.finish()]);
            let back = target.read_rgba8(device, queue).unwrap();
            assert_eq!(back.len(), 33 * 7 * 4);
            for (i, pixel) in back.chunks_exact(4).enumerate() {
                assert_eq!(pixel, [51, 102, 153, 255], "pixel {i}, depth {depth}");
            }
        }
    }

    #[test]
    fn a_target_is_sampled_through_its_texture() {
        let Some(wgpu) = for_test("wgpu render target as texture") else {
            return;
        };
        let (device, queue) = (wgpu.device(), wgpu.queue());
        let pixels = pattern(9, 4);
        let source = WgpuTexture::from_rgba8(device, queue, 9, 4, &pixels).unwrap();
        let first = WgpuRenderTarget::new(device, 9, 4, false).unwrap();
        copy_by_drawing(device, queue, &source, &first);
        let second = WgpuRenderTarget::new(device, 9, 4, true).unwrap();
        copy_by_drawing(device, queue, &first.texture(), &second);
        assert!(second.read_rgba8(device, queue).unwrap() == pixels);
    }

    #[test]
    fn bad_sizes_and_pixel_counts_are_errors() {
        let Some(wgpu) = for_test("wgpu texture and target sizes") else {
            return;
        };
        let (device, queue) = (wgpu.device(), wgpu.queue());
        let message = |e: WgpuError| e.to_string();
        let short = WgpuTexture::from_rgba8(device, queue, 3, 2, &[0; 23]).unwrap_err();
        assert_eq!(
            message(short),
            "texture: 3x2 RGBA8 needs 24 bytes (3 * 2 * 4), got 23"
        );
        let empty = WgpuTexture::from_rgba8(device, queue, 0, 2, &[]).unwrap_err();
        assert!(message(empty).contains("at least one pixel"));
        let max = device.limits().max_texture_dimension_2d;
        let huge = WgpuTexture::from_rgba8(device, queue, max + 1, 1, &[]).unwrap_err();
        assert!(message(huge).contains(&format!("2D texture limit of {max}")));
        let huge = WgpuRenderTarget::new(device, 1, max + 1, true).unwrap_err();
        assert!(message(huge).contains(&format!("2D texture limit of {max}")));
        assert!(WgpuRenderTarget::new(device, 4, 0, false).is_err());
    }
}
