//! [`Uniforms`]: the parameters of every draw of a frame, for every effect of a device, each
//! draw's registers at their own aligned offset of a chunk (bound with dynamic offsets), then
//! uploaded together.
//!
//! Two ways up, one store:
//! * [`Uniforms::upload`] records one copy per chunk into the caller's command encoder, before
//!   the render passes that draw: a submission carries its own parameters, so a frame recorded
//!   while the previous one waits to be submitted cannot overwrite them (prepare, upload,
//!   record: `WgpuEffect::prepare`);
//! * [`Uniforms::write`] uses `queue.write_buffer`, which runs before the next submission: for
//!   draws recorded first and uploaded after, in one frame (`WgpuEffect::apply` and `flush`).
//!
//! The chunks are [`Staging`]'s, kept across frames.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::staging::Staging;

/// Bytes per chunk: 256 draws of two stages at the smallest alignment.
const CHUNK_SIZE: usize = 128 * 1024;

/// Each store's id, for caches keyed by the buffers a store owns.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Where one draw's registers are: the chunk, each stage's dynamic offset in it, and the frame
/// they were staged for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub(crate) chunk: usize,
    pub(crate) offsets: [u32; 2],
    pub(crate) frame: u64,
}

/// The parameters of a frame's draws, for every effect of one device: make one per device (or
/// per renderer) and prepare every effect's draws into it. Cheap to keep; its buffers grow to
/// the largest frame seen.
#[derive(Debug)]
pub struct Uniforms {
    id: u64,
    chunks: Staging,
    align: usize,
    /// The frame being staged (1 first).
    frame: u64,
    /// The last frame uploaded (0: none), read by prepared draws when they are recorded.
    uploaded: Arc<AtomicU64>,
}

impl Uniforms {
    /// An empty store for `device`'s draws.
    pub fn new(device: &wgpu::Device) -> Uniforms {
        Uniforms {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            chunks: Staging::new(
                "shadowdusk uniforms",
                wgpu::BufferUsages::UNIFORM,
                CHUNK_SIZE,
            ),
            align: device.limits().min_uniform_buffer_offset_alignment.max(16) as usize,
            frame: 1,
            uploaded: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Its id (bind groups name its buffers).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// The frame being staged (what a prepared draw belongs to).
    #[cfg(feature = "egui")]
    pub(crate) fn frame(&self) -> u64 {
        self.frame
    }

    /// What prepared draws read to learn whether their frame was uploaded.
    pub(crate) fn uploaded_flag(&self) -> &Arc<AtomicU64> {
        &self.uploaded
    }

    /// The buffer of chunk `index` (made by the stage that first used it).
    pub(crate) fn buffer(&self, index: usize) -> &wgpu::Buffer {
        &self.chunks.chunk(index).buffer
    }

    /// Stages one draw whose stages each read `size` bytes: `write(stage, bytes)` fills each
    /// stage's registers (zeroed first). Returns where they are.
    pub(crate) fn stage(
        &mut self,
        device: &wgpu::Device,
        size: usize,
        mut write: impl FnMut(usize, &mut [u8]),
    ) -> Slot {
        let step = size.div_ceil(self.align) * self.align;
        // The last stage's binding reads `size` bytes at its offset.
        let need = step + size;
        let index = self.chunks.room(device, need);
        let chunk = self.chunks.chunk_mut(index);
        let mut offsets = [0u32; 2];
        for (stage, offset) in offsets.iter_mut().enumerate() {
            let at = chunk.used;
            let bytes = &mut chunk.staged[at..at + size];
            bytes.fill(0);
            write(stage, bytes);
            *offset = at as u32;
            chunk.used += step;
        }
        Slot {
            chunk: index,
            offsets,
            frame: self.frame,
        }
    }

    /// Records the frame's parameters into `encoder`, one copy per chunk used, ahead of the
    /// render passes recorded into it after this call (or into encoders submitted after it),
    /// and starts the next frame. The draws prepared before it can then be recorded; preparing
    /// a draw after it starts the next frame's. With nothing staged since the last upload it
    /// does nothing (so every egui callback's `finish_prepare` may call it).
    pub fn upload(&mut self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder) {
        if !self.chunks.staged() {
            return;
        }
        self.chunks.copy(device, encoder);
        self.next_frame();
    }

    /// Uploads the frame's parameters with `queue.write_buffer` (one per chunk), which lands
    /// before the next `queue.submit`, and starts the next frame: for draws recorded before the
    /// upload in one frame, as `WgpuEffect::flush` does.
    pub fn write(&mut self, queue: &wgpu::Queue) {
        if !self.chunks.staged() {
            return;
        }
        self.chunks.write(queue);
        self.next_frame();
    }

    fn next_frame(&mut self) {
        self.uploaded.store(self.frame, Ordering::Release);
        self.frame += 1;
    }
}

/// Writes `registers` as little-endian floats into `out` (as many as fit).
pub(crate) fn write_registers(registers: &[[f32; 4]], out: &mut [u8]) {
    for (register, bytes) in registers.iter().zip(out.chunks_exact_mut(16)) {
        for (value, b) in register.iter().zip(bytes.chunks_exact_mut(4)) {
            b.copy_from_slice(&value.to_le_bytes());
        }
    }
}
