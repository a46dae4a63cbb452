//! Sprites on wgpu, submitted as MonoGame's `SpriteBatch` submits them: quads of
//! `VertexPositionColorTexture` in pixel coordinates (TL, TR, BL, BR; indices 0,1,2 1,3,2),
//! drawn with whatever pass is applied. Vertices are staged like parameters: into chunks kept
//! across frames, uploaded by [`SpriteBatch::flush`].

pub use crate::sprite::Sprite;

use super::applied::Applied;
use super::layout::VertexLayout;
use super::staging::Staging;
use super::WgpuError;

/// Sprites per draw call: 16-bit indices reach 65535 vertices, four per sprite.
const MAX_PER_DRAW: usize = u16::MAX as usize / 4;
const VERTEX_BYTES: usize = 24;
/// Bytes per vertex chunk (about 2,700 sprites).
const CHUNK_SIZE: usize = 256 * 1024;

/// A vertex staging ring and a shared index buffer; dropping it releases them.
#[derive(Debug)]
pub struct SpriteBatch {
    device: wgpu::Device,
    indices: wgpu::Buffer,
    chunks: Staging,
}

impl SpriteBatch {
    /// Creates the index buffer (the largest draw's indices, once).
    pub fn new(device: &wgpu::Device) -> SpriteBatch {
        let mut bytes = Vec::with_capacity(MAX_PER_DRAW * 12);
        for i in 0..MAX_PER_DRAW {
            let base = (i * 4) as u16;
            for k in [0u16, 1, 2, 1, 3, 2] {
                bytes.extend_from_slice(&(base + k).to_le_bytes());
            }
        }
        let indices = wgpu::util::DeviceExt::create_buffer_init(
            device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("shadowdusk sprite indices"),
                contents: &bytes,
                usage: wgpu::BufferUsages::INDEX,
            },
        );
        SpriteBatch {
            device: device.clone(),
            indices,
            chunks: Staging::new(
                "shadowdusk sprite vertices",
                wgpu::BufferUsages::VERTEX,
                CHUNK_SIZE,
            ),
        }
    }

    /// Draws `sprites` in order with the applied pass, into `render_pass` (indexed triangles,
    /// several draw calls past a chunk). The vertices reach the GPU at [`SpriteBatch::flush`].
    ///
    /// Fails, drawing nothing, when the pass's vertex shader reads what sprites do not carry or
    /// the pipeline cannot be built (see [`Applied::bind`]).
    pub fn draw(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        pass: &mut Applied<'_>,
        sprites: &[Sprite],
    ) -> Result<(), WgpuError> {
        pass.bind(
            render_pass,
            &VertexLayout::POSITION_COLOR_TEXTURE,
            wgpu::PrimitiveTopology::TriangleList,
        )?;
        render_pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint16);
        let per_chunk = (CHUNK_SIZE / (4 * VERTEX_BYTES)).min(MAX_PER_DRAW);
        let mut rest = sprites;
        while !rest.is_empty() {
            let (now, later) = rest.split_at(rest.len().min(per_chunk));
            let chunk = self.chunks.room(&self.device, now.len() * 4 * VERTEX_BYTES);
            let c = self.chunks.chunk_mut(chunk);
            let first = c.used;
            for (sprite, quad) in now
                .iter()
                .zip(c.staged[first..].chunks_exact_mut(4 * VERTEX_BYTES))
            {
                for (vertex, out) in sprite
                    .vertices()
                    .iter()
                    .zip(quad.chunks_exact_mut(VERTEX_BYTES))
                {
                    out.copy_from_slice(vertex);
                }
            }
            let bytes = now.len() * 4 * VERTEX_BYTES;
            c.used = first + bytes;
            render_pass.set_vertex_buffer(0, c.buffer.slice(first as u64..(first + bytes) as u64));
            render_pass.draw_indexed(0..(now.len() * 6) as u32, 0, 0..1);
            rest = later;
        }
        Ok(())
    }

    /// Uploads the vertices staged since the last flush and starts over. Call it once a
    /// frame, before `queue.submit`.
    pub fn flush(&mut self, queue: &wgpu::Queue) {
        self.chunks.write(queue);
    }
}
