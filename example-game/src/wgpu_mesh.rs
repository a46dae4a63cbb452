//! The cube and the skinned ribbon in wgpu buffers, with their vertex layouts in MonoGame's
//! terms (`VertexDeclaration`). The vertices are [`cube::mesh`] and [`skinned::mesh`], the same
//! data the OpenGL meshes upload.

use shadowdusk::mgfx::VertexElementUsage as U;
use shadowdusk::wgpu;
use shadowdusk::wgpu::util::DeviceExt;
use shadowdusk::wgpu_runtime::{Applied, VertexElement, VertexElementFormat as F, VertexLayout};

use crate::{cube, skinned};

/// The cube's vertex: position, normal, texture coordinate (`VertexPositionNormalTexture`).
pub const CUBE_LAYOUT: VertexLayout = VertexLayout {
    stride: 32,
    elements: &[
        VertexElement::new(0, F::Vector3, U::Position, 0),
        VertexElement::new(12, F::Vector3, U::Normal, 0),
        VertexElement::new(24, F::Vector2, U::TextureCoordinate, 0),
    ],
};

/// The ribbon's vertex: position, normal, colour (four floats, as the GL mesh feeds it), bone
/// indices as MonoGame stores them (`Byte4`: the shader reads `int4 BLENDINDICES0`, which
/// wgpu wants from an integer format, where GLSL 1.10 took floats) and weights.
pub const RIBBON_LAYOUT: VertexLayout = VertexLayout {
    stride: 60,
    elements: &[
        VertexElement::new(0, F::Vector3, U::Position, 0),
        VertexElement::new(12, F::Vector3, U::Normal, 0),
        VertexElement::new(24, F::Vector4, U::Color, 0),
        VertexElement::new(40, F::Byte4, U::BlendIndices, 0),
        VertexElement::new(44, F::Vector4, U::BlendWeight, 0),
    ],
};

/// An indexed triangle mesh: vertex and index buffers and the vertices' layout.
pub struct WgpuMesh {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    count: u32,
    layout: VertexLayout,
    what: &'static str,
}

impl WgpuMesh {
    fn new(
        device: &wgpu::Device,
        what: &'static str,
        vertices: &[u8],
        indices: &[u16],
        layout: VertexLayout,
    ) -> WgpuMesh {
        let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let buffer = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        WgpuMesh {
            vertices: buffer(what, vertices, wgpu::BufferUsages::VERTEX),
            indices: buffer(what, &index_bytes, wgpu::BufferUsages::INDEX),
            count: indices.len() as u32,
            layout,
            what,
        }
    }

    /// Uploads [`cube::mesh`] as [`CUBE_LAYOUT`].
    pub fn cube(device: &wgpu::Device) -> WgpuMesh {
        let (vertices, indices) = cube::mesh();
        let bytes: Vec<u8> = vertices.iter().flat_map(|f| f.to_le_bytes()).collect();
        WgpuMesh::new(device, "cube", &bytes, &indices, CUBE_LAYOUT)
    }

    /// Uploads [`skinned::mesh`] as [`RIBBON_LAYOUT`].
    pub fn ribbon(device: &wgpu::Device) -> WgpuMesh {
        let (vertices, indices) = skinned::mesh();
        let mut bytes = Vec::with_capacity(vertices.len() * RIBBON_LAYOUT.stride as usize);
        for v in &vertices {
            let floats = v.position.to_array().into_iter().chain(v.normal.to_array());
            bytes.extend(floats.chain(v.color).flat_map(f32::to_le_bytes));
            // Two bones of a palette of two: the indices are 0 and 1.
            bytes.extend([v.bones[0] as u8, v.bones[1] as u8, 0, 0]);
            let weights = [v.weights[0], v.weights[1], 0.0, 0.0];
            bytes.extend(weights.into_iter().flat_map(f32::to_le_bytes));
        }
        WgpuMesh::new(device, "skinned mesh", &bytes, &indices, RIBBON_LAYOUT)
    }

    /// Draws the whole mesh with the applied pass.
    pub fn draw(
        &self,
        render_pass: &mut wgpu::RenderPass<'_>,
        pass: &mut Applied<'_>,
    ) -> Result<(), String> {
        pass.draw_indexed(
            render_pass,
            &self.layout,
            self.vertices.slice(..),
            self.indices.slice(..),
            wgpu::IndexFormat::Uint16,
            0..self.count,
            0,
        )
        .map_err(|e| format!("drawing the {}: {e}", self.what))
    }
}
