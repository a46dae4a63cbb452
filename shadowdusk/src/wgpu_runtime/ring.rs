//! The uniform ring: every draw's registers staged at their own 256-byte-aligned offset of a
//! chunk, bound with dynamic offsets, and uploaded with one `write_buffer` per chunk when the
//! frame is flushed. `write_buffer` is ordered before the commands submitted after it, so the
//! offsets a render pass recorded read what was staged for them, however many draws changed
//! the parameters in between.
//!
//! Chunks are kept across frames, so once a frame's largest draw count has been seen, staging
//! allocates nothing.

/// Bytes per chunk: 256 draws of two stages at the smallest alignment.
const CHUNK_SIZE: u64 = 128 * 1024;

/// One uniform buffer and its CPU image.
#[derive(Debug)]
pub(crate) struct Chunk {
    pub(crate) buffer: wgpu::Buffer,
    staged: Vec<u8>,
    used: usize,
}

/// Where one draw's registers are: the chunk, and each stage's dynamic offset in it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub(crate) chunk: usize,
    pub(crate) offsets: [u32; 2],
}

/// The ring of one effect.
#[derive(Debug)]
pub(crate) struct Ring {
    chunks: Vec<Chunk>,
    current: usize,
    align: usize,
    /// Bytes one stage's binding may read at an offset (the largest uniform of the effect).
    largest: usize,
}

impl Ring {
    pub(crate) fn new(device: &wgpu::Device, largest: usize) -> Ring {
        Ring {
            chunks: Vec::new(),
            current: 0,
            align: device.limits().min_uniform_buffer_offset_alignment.max(16) as usize,
            largest: largest.max(16),
        }
    }

    /// The chunk's buffer, made before the first draw so bind groups can point at it.
    pub(crate) fn chunk(&self, index: usize) -> Option<&Chunk> {
        self.chunks.get(index)
    }

    /// Stages one draw: `write(stage, bytes)` fills each stage's registers (the bytes are
    /// zeroed first). Returns where they are.
    pub(crate) fn stage(
        &mut self,
        device: &wgpu::Device,
        mut write: impl FnMut(usize, &mut [u8]),
    ) -> Slot {
        let step = self.largest.div_ceil(self.align) * self.align;
        let need = 2 * step;
        let fits = |c: &Chunk| c.used + need <= c.staged.len();
        if self.chunks.get(self.current).is_some_and(|c| !fits(c)) {
            self.current += 1;
        }
        if self.current == self.chunks.len() {
            let size = (CHUNK_SIZE as usize).max(need);
            self.chunks.push(Chunk {
                buffer: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("shadowdusk uniform ring"),
                    size: size as u64,
                    usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }),
                staged: vec![0; size],
                used: 0,
            });
        }
        let chunk = &mut self.chunks[self.current];
        let mut offsets = [0u32; 2];
        for (stage, offset) in offsets.iter_mut().enumerate() {
            let at = chunk.used;
            let bytes = &mut chunk.staged[at..at + self.largest];
            bytes.fill(0);
            write(stage, bytes);
            *offset = at as u32;
            chunk.used += step;
        }
        Slot {
            chunk: self.current,
            offsets,
        }
    }

    /// Uploads what was staged since the last flush and starts over at the first chunk.
    pub(crate) fn flush(&mut self, queue: &wgpu::Queue) {
        for chunk in &mut self.chunks {
            if chunk.used > 0 {
                queue.write_buffer(&chunk.buffer, 0, &chunk.staged[..chunk.used]);
                chunk.used = 0;
            }
        }
        self.current = 0;
    }

    /// The binding size a stage's uniform binding reads at its offset.
    pub(crate) fn binding_size(&self) -> u64 {
        self.largest as u64
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
