//! [`PreparedDraw`]: one draw prepared with `WgpuEffect::prepare` (its parameters staged in a
//! [`Uniforms`](super::Uniforms) store, its pipeline and bind groups made), recorded later with
//! shared access into a render pass or a render bundle, the way glyphon, iced and egui-wgpu
//! record what they prepared.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::applied::{check_buffers, check_range, index_capacity};
use super::layout::VertexBuffers;
use super::loaded::Staged;
use super::pipeline::RenderStates;
use super::{states, WgpuError};

/// One prepared draw: cheap to keep and to clone (wgpu handles), recorded with `&self` once
/// the [`Uniforms`](super::Uniforms) it was prepared into is uploaded, until that store
/// uploads another frame.
#[derive(Clone, Debug)]
pub struct PreparedDraw {
    effect: &'static str,
    pass: &'static str,
    pipeline: wgpu::RenderPipeline,
    groups: [wgpu::BindGroup; 2],
    offsets: [u32; 2],
    dynamic: [bool; 2],
    blend_constant: wgpu::Color,
    stencil_reference: u32,
    buffers: VertexBuffers,
    frame: u64,
    uploaded: Arc<AtomicU64>,
}

/// Where a prepared draw is recorded: a `wgpu::RenderPass` or a `wgpu::RenderBundleEncoder`.
/// A render bundle cannot set the blend constant or the stencil reference: set the draw's
/// ([`PreparedDraw::blend_constant`], [`PreparedDraw::stencil_reference`]) on the render pass
/// that executes the bundle.
pub trait Recorder<'a>: sealed::Sealed {
    #[doc(hidden)]
    fn set_pipeline_of(&mut self, pipeline: &'a wgpu::RenderPipeline);
    #[doc(hidden)]
    fn set_group(&mut self, index: u32, group: &'a wgpu::BindGroup, offsets: &[u32]);
    #[doc(hidden)]
    fn set_constants(&mut self, blend: wgpu::Color, stencil: u32);
    #[doc(hidden)]
    fn set_vertices(&mut self, slot: u32, buffer: wgpu::BufferSlice<'a>);
    #[doc(hidden)]
    fn set_indices(&mut self, buffer: wgpu::BufferSlice<'a>, format: wgpu::IndexFormat);
    #[doc(hidden)]
    fn draw_range(&mut self, vertices: Range<u32>, instances: Range<u32>);
    #[doc(hidden)]
    fn draw_indexed_range(&mut self, indices: Range<u32>, base_vertex: i32, instances: Range<u32>);
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for wgpu::RenderPass<'_> {}
    impl Sealed for wgpu::RenderBundleEncoder<'_> {}
}

impl<'a> Recorder<'a> for wgpu::RenderPass<'_> {
    fn set_pipeline_of(&mut self, pipeline: &'a wgpu::RenderPipeline) {
        self.set_pipeline(pipeline);
    }
    fn set_group(&mut self, index: u32, group: &'a wgpu::BindGroup, offsets: &[u32]) {
        self.set_bind_group(index, group, offsets);
    }
    fn set_constants(&mut self, blend: wgpu::Color, stencil: u32) {
        self.set_blend_constant(blend);
        self.set_stencil_reference(stencil);
    }
    fn set_vertices(&mut self, slot: u32, buffer: wgpu::BufferSlice<'a>) {
        self.set_vertex_buffer(slot, buffer);
    }
    fn set_indices(&mut self, buffer: wgpu::BufferSlice<'a>, format: wgpu::IndexFormat) {
        self.set_index_buffer(buffer, format);
    }
    fn draw_range(&mut self, vertices: Range<u32>, instances: Range<u32>) {
        self.draw(vertices, instances);
    }
    fn draw_indexed_range(&mut self, indices: Range<u32>, base_vertex: i32, instances: Range<u32>) {
        self.draw_indexed(indices, base_vertex, instances);
    }
}

impl<'a> Recorder<'a> for wgpu::RenderBundleEncoder<'a> {
    fn set_pipeline_of(&mut self, pipeline: &'a wgpu::RenderPipeline) {
        self.set_pipeline(pipeline);
    }
    fn set_group(&mut self, index: u32, group: &'a wgpu::BindGroup, offsets: &[u32]) {
        self.set_bind_group(index, group, offsets);
    }
    fn set_constants(&mut self, _blend: wgpu::Color, _stencil: u32) {
        // A bundle has neither; the render pass executing it sets them.
    }
    fn set_vertices(&mut self, slot: u32, buffer: wgpu::BufferSlice<'a>) {
        self.set_vertex_buffer(slot, buffer);
    }
    fn set_indices(&mut self, buffer: wgpu::BufferSlice<'a>, format: wgpu::IndexFormat) {
        self.set_index_buffer(buffer, format);
    }
    fn draw_range(&mut self, vertices: Range<u32>, instances: Range<u32>) {
        self.draw(vertices, instances);
    }
    fn draw_indexed_range(&mut self, indices: Range<u32>, base_vertex: i32, instances: Range<u32>) {
        self.draw_indexed(indices, base_vertex, instances);
    }
}

impl PreparedDraw {
    pub(crate) fn new(
        (effect, pass): (&'static str, &'static str),
        pipeline: wgpu::RenderPipeline,
        groups: [wgpu::BindGroup; 2],
        staged: Staged,
        states: &RenderStates,
        buffers: VertexBuffers,
        uploaded: Arc<AtomicU64>,
    ) -> PreparedDraw {
        PreparedDraw {
            effect,
            pass,
            pipeline,
            groups,
            offsets: staged.slot.offsets,
            dynamic: staged.dynamic,
            blend_constant: states::blend_constant(Some(&states.blend)),
            stencil_reference: states::stencil_reference(Some(&states.depth_stencil)),
            buffers,
            frame: staged.slot.frame,
            uploaded,
        }
    }

    /// The pass's name.
    pub fn name(&self) -> &'static str {
        self.pass
    }

    /// The blend constant it draws with (the device blend state's `BlendFactor`).
    pub fn blend_constant(&self) -> wgpu::Color {
        self.blend_constant
    }

    /// The stencil reference it draws with (the device depth-stencil state's
    /// `ReferenceStencil`).
    pub fn stencil_reference(&self) -> u32 {
        self.stencil_reference
    }

    /// `Err` unless its store's last upload is the frame it was prepared in.
    fn check_uploaded(&self) -> Result<(), WgpuError> {
        let uploaded = self.uploaded.load(Ordering::Acquire);
        if uploaded == self.frame {
            return Ok(());
        }
        Err(WgpuError::NotUploaded {
            effect: self.effect,
            pass: self.pass,
            later: uploaded > self.frame,
        })
    }

    /// Sets its pipeline and bind groups with its offsets (and on a render pass its blend
    /// constant and stencil reference), binding no vertex buffer: what your own draw call then
    /// draws with. `Err` when its parameters are not the ones uploaded last.
    pub fn bind<'a>(&'a self, recorder: &mut impl Recorder<'a>) -> Result<(), WgpuError> {
        self.check_uploaded()?;
        recorder.set_pipeline_of(&self.pipeline);
        for (group, bind_group) in self.groups.iter().enumerate() {
            let offsets = if self.dynamic[group] {
                &self.offsets[group..=group]
            } else {
                &[]
            };
            recorder.set_group(group as u32, bind_group, offsets);
        }
        recorder.set_constants(self.blend_constant, self.stencil_reference);
        Ok(())
    }

    /// Draws `range` of `vertices` (the one per-vertex buffer it was prepared for).
    pub fn draw<'a>(
        &'a self,
        recorder: &mut impl Recorder<'a>,
        vertices: wgpu::BufferSlice<'a>,
        range: Range<u32>,
    ) -> Result<(), WgpuError> {
        self.check_range("vertex", &range, self.capacity(0, &vertices))?;
        self.bind(recorder)?;
        recorder.set_vertices(0, vertices);
        recorder.draw_range(range, 0..1);
        Ok(())
    }

    /// Draws `range` of `indices` (of `format`) into `vertices`.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_indexed<'a>(
        &'a self,
        recorder: &mut impl Recorder<'a>,
        vertices: wgpu::BufferSlice<'a>,
        indices: wgpu::BufferSlice<'a>,
        format: wgpu::IndexFormat,
        range: Range<u32>,
        base_vertex: i32,
    ) -> Result<(), WgpuError> {
        self.check_range("index", &range, index_capacity(indices, format))?;
        self.bind(recorder)?;
        recorder.set_vertices(0, vertices);
        recorder.set_indices(indices, format);
        recorder.draw_indexed_range(range, base_vertex, 0..1);
        Ok(())
    }

    /// Draws `instances` of `vertices` from `buffers`, one slice per buffer it was prepared for
    /// (per-vertex buffers step through `vertices`, per-instance ones through `instances`).
    pub fn draw_instanced<'a>(
        &'a self,
        recorder: &mut impl Recorder<'a>,
        buffers: &[wgpu::BufferSlice<'a>],
        vertices: Range<u32>,
        instances: Range<u32>,
    ) -> Result<(), WgpuError> {
        self.check_buffers(buffers, Some(&vertices), &instances)?;
        self.bind(recorder)?;
        for (slot, buffer) in buffers.iter().enumerate() {
            recorder.set_vertices(slot as u32, *buffer);
        }
        recorder.draw_range(vertices, instances);
        Ok(())
    }

    /// Draws `instances` of `range` of `indices` (of `format`) into `buffers`.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_indexed_instanced<'a>(
        &'a self,
        recorder: &mut impl Recorder<'a>,
        buffers: &[wgpu::BufferSlice<'a>],
        indices: wgpu::BufferSlice<'a>,
        format: wgpu::IndexFormat,
        range: Range<u32>,
        base_vertex: i32,
        instances: Range<u32>,
    ) -> Result<(), WgpuError> {
        self.check_range("index", &range, index_capacity(indices, format))?;
        self.check_buffers(buffers, None, &instances)?;
        self.bind(recorder)?;
        for (slot, buffer) in buffers.iter().enumerate() {
            recorder.set_vertices(slot as u32, *buffer);
        }
        recorder.set_indices(indices, format);
        recorder.draw_indexed_range(range, base_vertex, instances);
        Ok(())
    }

    /// How many elements buffer `slot` (of the layout prepared for it) holds in `slice`.
    fn capacity(&self, slot: usize, slice: &wgpu::BufferSlice<'_>) -> u64 {
        self.buffers.slots[slot].map_or(0, |(layout, _)| layout.capacity(slice.size()))
    }

    fn check_range(
        &self,
        what: &'static str,
        range: &Range<u32>,
        available: u64,
    ) -> Result<(), WgpuError> {
        check_range((self.effect, self.pass), what, range, available)
    }

    /// The slices against the buffers prepared: as many, each within the range it steps
    /// through.
    fn check_buffers(
        &self,
        buffers: &[wgpu::BufferSlice<'_>],
        vertices: Option<&Range<u32>>,
        instances: &Range<u32>,
    ) -> Result<(), WgpuError> {
        let prepared = self
            .buffers
            .slots
            .iter()
            .take_while(|s| s.is_some())
            .count();
        if buffers.len() != prepared {
            return Err(WgpuError::BufferCount {
                effect: self.effect,
                pass: self.pass,
                prepared,
                given: buffers.len(),
            });
        }
        let each = buffers.iter().zip(&self.buffers.slots).map(|(b, slot)| {
            slot.map_or((0, true), |(layout, step)| {
                (
                    layout.capacity(b.size()),
                    step == wgpu::VertexStepMode::Vertex,
                )
            })
        });
        check_buffers((self.effect, self.pass), each, vertices, instances)
    }
}
