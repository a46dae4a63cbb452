//! [`Applied`]: one pass applied with `WgpuEffect::apply`, drawn into the caller's render pass
//! right away (its pipeline built there the first time), its parameters uploaded by `flush`.

use super::layout::{BufferLayout, VertexBufferBinding, VertexBuffers, VertexLayout};
use super::loaded::{pipeline_key, Staged};
use super::pipeline::{Pipelines, Resources};
use super::{states, Target, WgpuError};

/// One applied pass: its staged parameters and textures, ready to draw into a render pass of
/// the target it was applied for (from [`WgpuEffect::apply`](super::WgpuEffect::apply)).
#[derive(Debug)]
pub struct Applied<'a> {
    pub(crate) device: &'a wgpu::Device,
    pub(crate) resources: &'a Resources,
    pub(crate) pipelines: &'a mut Pipelines,
    pub(crate) layouts: [&'a wgpu::BindGroupLayout; 2],
    pub(crate) target: Target,
    pub(crate) groups: [&'a wgpu::BindGroup; 2],
    pub(crate) staged: Staged,
}

impl Applied<'_> {
    /// Sets the pipeline for `buffers` (built the first time), the bind groups with this
    /// draw's offsets, the blend constant and stencil reference (the device blend and
    /// depth-stencil states'), without binding any vertex buffer.
    fn bind_key(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        buffers: VertexBuffers,
        topology: wgpu::PrimitiveTopology,
    ) -> Result<(), WgpuError> {
        let key = pipeline_key(
            self.resources.name,
            &self.staged.plan,
            &self.target,
            buffers,
            topology,
        )?;
        let pipeline = self
            .pipelines
            .get(self.device, self.resources, &key, self.layouts)?;
        render_pass.set_pipeline(pipeline);
        for (group, bind_group) in self.groups.iter().enumerate() {
            let offsets = if self.staged.dynamic[group] {
                &self.staged.slot.offsets[group..=group]
            } else {
                &[]
            };
            render_pass.set_bind_group(group as u32, *bind_group, offsets);
        }
        render_pass
            .set_blend_constant(states::blend_constant(Some(&self.staged.plan.states.blend)));
        render_pass.set_stencil_reference(states::stencil_reference(Some(
            &self.staged.plan.states.depth_stencil,
        )));
        Ok(())
    }

    /// Sets the pass's pipeline for one per-vertex buffer laid out as `layout` and
    /// `topology` (built the first time), its bind groups with this draw's offsets, its blend
    /// constant and stencil reference: what the caller's own draw call then draws with (the
    /// caller binds the vertex buffer at slot 0).
    pub fn bind(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        layout: &VertexLayout,
        topology: wgpu::PrimitiveTopology,
    ) -> Result<(), WgpuError> {
        self.bind_key(render_pass, VertexBuffers::one(*layout), topology)
    }

    /// As [`bind`](Applied::bind), for several vertex buffers (MonoGame's
    /// `SetVertexBuffers`), which it also binds, at slots 0, 1, …: each vertex shader input
    /// comes from the first buffer whose layout has its usage and index.
    pub fn bind_buffers(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        buffers: &[VertexBufferBinding<'_>],
        topology: wgpu::PrimitiveTopology,
    ) -> Result<(), WgpuError> {
        let key = VertexBuffers::of(
            (self.resources.name, self.staged.plan.info.name),
            buffers.iter().map(BufferLayout::from),
        )?;
        self.bind_key(render_pass, key, topology)?;
        for (i, b) in buffers.iter().enumerate() {
            render_pass.set_vertex_buffer(i as u32, b.buffer);
        }
        Ok(())
    }

    /// Draws `vertices` (laid out as `layout`) as a triangle list.
    pub fn draw(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        layout: &VertexLayout,
        vertices: wgpu::BufferSlice<'_>,
        range: std::ops::Range<u32>,
    ) -> Result<(), WgpuError> {
        self.check_range("vertex", &range, layout.capacity(vertices.size()))?;
        self.bind(render_pass, layout, wgpu::PrimitiveTopology::TriangleList)?;
        render_pass.set_vertex_buffer(0, vertices);
        render_pass.draw(range, 0..1);
        Ok(())
    }

    /// Draws indexed triangles: `indices` of `format` into `vertices` laid out as `layout`.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_indexed(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        layout: &VertexLayout,
        vertices: wgpu::BufferSlice<'_>,
        indices: wgpu::BufferSlice<'_>,
        format: wgpu::IndexFormat,
        range: std::ops::Range<u32>,
        base_vertex: i32,
    ) -> Result<(), WgpuError> {
        self.check_range("index", &range, index_capacity(indices, format))?;
        self.bind(render_pass, layout, wgpu::PrimitiveTopology::TriangleList)?;
        render_pass.set_vertex_buffer(0, vertices);
        render_pass.set_index_buffer(indices, format);
        render_pass.draw_indexed(range, base_vertex, 0..1);
        Ok(())
    }

    /// Draws `instances` of the triangle list `vertices` from `buffers` (MonoGame's
    /// `SetVertexBuffers` + `DrawInstancedPrimitives` without indices): per-vertex buffers
    /// step through `vertices`, per-instance ones through `instances`.
    pub fn draw_instanced(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        buffers: &[VertexBufferBinding<'_>],
        vertices: std::ops::Range<u32>,
        instances: std::ops::Range<u32>,
    ) -> Result<(), WgpuError> {
        self.check_buffers(buffers, Some(&vertices), &instances)?;
        self.bind_buffers(render_pass, buffers, wgpu::PrimitiveTopology::TriangleList)?;
        render_pass.draw(vertices, instances);
        Ok(())
    }

    /// Draws `instances` of indexed triangles: `indices` of `format` into `buffers`
    /// (MonoGame's `DrawInstancedPrimitives`).
    #[allow(clippy::too_many_arguments)]
    pub fn draw_indexed_instanced(
        &mut self,
        render_pass: &mut wgpu::RenderPass<'_>,
        buffers: &[VertexBufferBinding<'_>],
        indices: wgpu::BufferSlice<'_>,
        format: wgpu::IndexFormat,
        range: std::ops::Range<u32>,
        base_vertex: i32,
        instances: std::ops::Range<u32>,
    ) -> Result<(), WgpuError> {
        self.check_range("index", &range, index_capacity(indices, format))?;
        self.check_buffers(buffers, None, &instances)?;
        self.bind_buffers(render_pass, buffers, wgpu::PrimitiveTopology::TriangleList)?;
        render_pass.set_index_buffer(indices, format);
        render_pass.draw_indexed(range, base_vertex, instances);
        Ok(())
    }

    /// The pass's name.
    pub fn name(&self) -> &'static str {
        self.staged.plan.info.name
    }

    /// `Err` when `range` is reversed or reaches past the `available` elements of its buffer.
    fn check_range(
        &self,
        what: &'static str,
        range: &std::ops::Range<u32>,
        available: u64,
    ) -> Result<(), WgpuError> {
        check_range(self.names(), what, range, available)
    }

    /// Each buffer against the range it steps through: `vertices` (when the draw is not
    /// indexed) for per-vertex buffers, `instances` for per-instance ones.
    fn check_buffers(
        &self,
        buffers: &[VertexBufferBinding<'_>],
        vertices: Option<&std::ops::Range<u32>>,
        instances: &std::ops::Range<u32>,
    ) -> Result<(), WgpuError> {
        let each = buffers.iter().map(|b| {
            (
                b.layout.capacity(b.buffer.size()),
                b.instance_frequency == 0,
            )
        });
        check_buffers(self.names(), each, vertices, instances)
    }

    fn names(&self) -> (&'static str, &'static str) {
        (self.resources.name, self.staged.plan.info.name)
    }
}

/// How many indices of `format` the slice holds.
/// `Err` when `range` is reversed or reaches past the `available` elements of its buffer.
pub(crate) fn check_range(
    (effect, pass): (&'static str, &'static str),
    what: &'static str,
    range: &std::ops::Range<u32>,
    available: u64,
) -> Result<(), WgpuError> {
    if range.start <= range.end && u64::from(range.end) <= available {
        return Ok(());
    }
    Err(WgpuError::DrawRange {
        effect,
        pass,
        what,
        start: range.start,
        end: range.end,
        available,
    })
}

/// Each buffer (how many elements it holds, whether it steps per vertex) against the range it
/// steps through: `vertices` (when the draw is not indexed) for per-vertex buffers,
/// `instances` for per-instance ones.
pub(crate) fn check_buffers(
    names: (&'static str, &'static str),
    buffers: impl Iterator<Item = (u64, bool)>,
    vertices: Option<&std::ops::Range<u32>>,
    instances: &std::ops::Range<u32>,
) -> Result<(), WgpuError> {
    check_range(names, "instance", instances, u64::MAX)?;
    for (available, per_vertex) in buffers {
        match (per_vertex, vertices) {
            (true, Some(vertices)) => check_range(names, "vertex", vertices, available)?,
            (true, None) => {}
            (false, _) => check_range(names, "instance", instances, available)?,
        }
    }
    Ok(())
}

pub(crate) fn index_capacity(indices: wgpu::BufferSlice<'_>, format: wgpu::IndexFormat) -> u64 {
    indices.size() / format.byte_size() as u64
}
