//! [`Staging`]: GPU buffers in chunks, each with its CPU image. Draws write into the images as
//! they are recorded and every chunk used goes up at once. Chunks are kept across frames, so
//! once a frame's largest size has been seen, staging allocates nothing. The parameters of
//! draws ([`super::uniforms`]) and sprite vertices ([`super::sprites`]) both go up this way.

use wgpu::util::DeviceExt;

/// One buffer and its CPU image, the first `used` bytes staged.
#[derive(Debug)]
pub(crate) struct Chunk {
    pub(crate) buffer: wgpu::Buffer,
    pub(crate) staged: Vec<u8>,
    pub(crate) used: usize,
}

/// The chunks of one kind of buffer, filled in order within a frame.
#[derive(Debug)]
pub(crate) struct Staging {
    chunks: Vec<Chunk>,
    current: usize,
    /// The size of a new chunk, unless one draw needs more.
    chunk_size: usize,
    label: &'static str,
    usage: wgpu::BufferUsages,
}

impl Staging {
    /// No chunks yet; they are `chunk_size` bytes of a `usage` buffer (plus `COPY_DST`).
    pub(crate) fn new(label: &'static str, usage: wgpu::BufferUsages, chunk_size: usize) -> Self {
        Staging {
            chunks: Vec::new(),
            current: 0,
            chunk_size,
            label,
            usage: usage | wgpu::BufferUsages::COPY_DST,
        }
    }

    /// The chunk with `need` free bytes after its `used` ones: the current chunk, else the
    /// next one, made when there is none.
    pub(crate) fn room(&mut self, device: &wgpu::Device, need: usize) -> usize {
        let fits = |c: &Chunk| c.used + need <= c.staged.len();
        while self.chunks.get(self.current).is_some_and(|c| !fits(c)) {
            self.current += 1;
        }
        if self.current == self.chunks.len() {
            let size = self.chunk_size.max(need);
            self.chunks.push(Chunk {
                buffer: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(self.label),
                    size: size as u64,
                    usage: self.usage,
                    mapped_at_creation: false,
                }),
                staged: vec![0; size],
                used: 0,
            });
        }
        self.current
    }

    pub(crate) fn chunk(&self, index: usize) -> &Chunk {
        &self.chunks[index]
    }

    pub(crate) fn chunk_mut(&mut self, index: usize) -> &mut Chunk {
        &mut self.chunks[index]
    }

    /// Whether anything was staged since the last upload.
    pub(crate) fn staged(&self) -> bool {
        self.chunks.iter().any(|c| c.used > 0)
    }

    /// Uploads what was staged with `queue.write_buffer` (one per chunk used), which lands
    /// before the next `queue.submit`, and starts over.
    pub(crate) fn write(&mut self, queue: &wgpu::Queue) {
        for c in &mut self.chunks {
            if c.used > 0 {
                queue.write_buffer(&c.buffer, 0, &c.staged[..c.used]);
                c.used = 0;
            }
        }
        self.current = 0;
    }

    /// Records a copy of what was staged into `encoder` (one per chunk used), so it lands
    /// with that submission and no other, and starts over.
    pub(crate) fn copy(&mut self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder) {
        for c in &mut self.chunks {
            if c.used == 0 {
                continue;
            }
            let upload = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(self.label),
                contents: &c.staged[..c.used],
                usage: wgpu::BufferUsages::COPY_SRC,
            });
            encoder.copy_buffer_to_buffer(&upload, 0, &c.buffer, 0, c.used as u64);
            c.used = 0;
        }
        self.current = 0;
    }
}
