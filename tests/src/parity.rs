//! One scene drawn by both runtimes: the GL runtime (`shadowdusk::gl::DynEffect` on headless
//! EGL, into a render target) and the wgpu runtime (`DynWgpuEffect` on [`HeadlessWgpu`]), with
//! the same parameter values, textures, vertices, target size and MonoGame's defaults for every
//! state a pass does not bake (`BlendState.Opaque`, `DepthStencilState.None`,
//! `RasterizerState.CullCounterClockwise`, `SamplerState.LinearWrap` on every slot). Both pictures come back
//! top row first.
//!
//! The GL side draws into a render target (an FBO with depth and stencil), because MonoGame's GL
//! runtime flips y there (`posFixup`) so window-space inputs (`VPOS`) count from the top row,
//! as they do on D3D and wgpu.
//!
//! The wgpu side's registers are the GL effect's register images after the values are set
//! (`packing::cbuffer_registers` over the GL model), so both draw from the very same bytes.

use glow::HasContext;
use image::RgbaImage;
use shadowdusk::gl::{DynEffect, DynPass, GlContext, GlTexture};
use shadowdusk::mgfx::{packing, VertexElementUsage};
use shadowdusk::wgpu;
use shadowdusk::wgpu_runtime::headless::HeadlessWgpu;
use shadowdusk::wgpu_runtime::{
    DynWgpuEffect, SpriteBatch, TextureDesc, VertexElement, VertexElementFormat, VertexLayout,
    WgpuRenderTarget, WgpuTexture,
};
use shadowdusk::{DeviceStates, SurfaceFormat};
use shadowdusk_compiler::pipeline::Compiled;

use crate::gl_state::reset_states;
use crate::{draw_mesh, draw_sprite, Fbo, Headless, Sprite};

/// Texels of a texture, RGBA8, rows top first.
#[derive(Clone, Debug)]
pub enum TexData {
    /// A 2D texture with every mip level given (level 0 first).
    D2 {
        /// Level 0 width.
        width: u32,
        /// Level 0 height.
        height: u32,
        /// Each level's texels.
        levels: Vec<Vec<u8>>,
    },
    /// A cube map, faces in GL order (+X, -X, +Y, -Y, +Z, -Z).
    Cube {
        /// Side of a face.
        size: u32,
        /// The six faces.
        faces: Vec<Vec<u8>>,
    },
    /// A 3D texture, slice by slice.
    D3 {
        /// Side.
        size: u32,
        /// The texels.
        texels: Vec<u8>,
    },
}

/// How a mesh element is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshFormat {
    /// `n` floats (1 to 4).
    Float(u8),
    /// Four normalised bytes (data given in 0..1).
    Color,
    /// Four unnormalised bytes (data given as 0..255).
    Byte4,
}

/// One non-interleaved vertex element.
#[derive(Clone, Debug)]
pub struct MeshElement {
    /// Usage.
    pub usage: VertexElementUsage,
    /// Usage index.
    pub index: u8,
    /// Storage.
    pub format: MeshFormat,
    /// Components of every vertex, one vertex after another.
    pub data: Vec<f32>,
}

impl MeshElement {
    /// Components per vertex.
    pub fn components(&self) -> usize {
        match self.format {
            MeshFormat::Float(n) => n as usize,
            MeshFormat::Color | MeshFormat::Byte4 => 4,
        }
    }
}

/// One draw.
#[derive(Clone, Debug)]
pub enum DrawSpec {
    /// A SpriteBatch quad (pixel-only passes get SpriteBatch's vertex shader).
    Sprite(Sprite),
    /// Indexed triangles for the effect's vertex shader.
    Mesh {
        /// The elements.
        elements: Vec<MeshElement>,
        /// Triangle list.
        indices: Vec<u16>,
    },
}

/// What is drawn and how.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Target width.
    pub width: u32,
    /// Target height.
    pub height: u32,
    /// MGFX technique index.
    pub technique: usize,
    /// Values by parameter name (MonoGame's storage order).
    pub values: Vec<(String, Vec<f32>)>,
    /// Textures by parameter name.
    pub textures: Vec<(String, TexData)>,
    /// Draws, each with the passes (MGFX indices in the technique) applied before it, in order.
    pub draws: Vec<(Vec<usize>, DrawSpec)>,
    /// Clear colour.
    pub clear: [u8; 4],
    /// Stencil clear value.
    pub stencil: u8,
    /// Device states set before draw `n` (`GraphicsDevice.BlendState = …`, `SamplerStates[n]
    /// = …`): on GL with `GlContext::set_device_states`, on wgpu with the effect's
    /// `set_device_states`.
    pub device_states: Vec<(usize, DeviceStates)>,
}

/// A wgpu device, or `None` after [`crate::skip`] (a failure under `SHADOWDUSK_REQUIRE_ALL=1`)
/// says why.
pub fn wgpu_or_skip(test: &str) -> Option<HeadlessWgpu> {
    HeadlessWgpu::new()
        .map_err(|e| crate::skip(test, &format!("no wgpu adapter: {e}")))
        .ok()
}

/// A GL texture of `data` with MonoGame's default sampler state (LinearWrap) on the object, which
/// is what a slot without a baked sampler state samples with.
pub fn gl_texture(ctx: &GlContext, data: &TexData) -> Result<GlTexture, String> {
    let gl = ctx.glow();
    let (target, levels) = match data {
        TexData::D2 { levels, .. } => (glow::TEXTURE_2D, levels.len().max(1)),
        TexData::Cube { .. } => (glow::TEXTURE_CUBE_MAP, 1),
        TexData::D3 { .. } => (glow::TEXTURE_3D, 1),
    };
    // SAFETY: the context is current (`GlContext`); each upload gives exactly the bytes of the
    // level, face or volume it describes (checked below), unpack alignment 1.
    unsafe {
        let t = GlTexture::from_raw(ctx, gl.create_texture()?, target);
        gl.bind_texture(target, Some(t.raw()));
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        match data {
            TexData::D2 {
                width,
                height,
                levels,
            } => {
                for (level, texels) in levels.iter().enumerate() {
                    let (w, h) = ((width >> level).max(1), (height >> level).max(1));
                    check(texels, w * h)?;
                    gl.tex_image_2d(
                        target,
                        level as i32,
                        glow::RGBA8 as i32,
                        w as i32,
                        h as i32,
                        0,
                        glow::RGBA,
                        glow::UNSIGNED_BYTE,
                        glow::PixelUnpackData::Slice(Some(texels)),
                    );
                }
            }
            TexData::Cube { size, faces } => {
                for (i, face) in faces.iter().enumerate() {
                    check(face, size * size)?;
                    gl.tex_image_2d(
                        glow::TEXTURE_CUBE_MAP_POSITIVE_X + i as u32,
                        0,
                        glow::RGBA8 as i32,
                        *size as i32,
                        *size as i32,
                        0,
                        glow::RGBA,
                        glow::UNSIGNED_BYTE,
                        glow::PixelUnpackData::Slice(Some(face)),
                    );
                }
            }
            TexData::D3 { size, texels } => {
                check(texels, size * size * size)?;
                gl.tex_image_3d(
                    target,
                    0,
                    glow::RGBA8 as i32,
                    *size as i32,
                    *size as i32,
                    *size as i32,
                    0,
                    glow::RGBA,
                    glow::UNSIGNED_BYTE,
                    glow::PixelUnpackData::Slice(Some(texels)),
                );
            }
        }
        let min = if levels > 1 {
            glow::LINEAR_MIPMAP_LINEAR
        } else {
            glow::LINEAR
        };
        gl.tex_parameter_i32(target, glow::TEXTURE_MIN_FILTER, min as i32);
        gl.tex_parameter_i32(target, glow::TEXTURE_MAG_FILTER, glow::LINEAR as i32);
        for wrap in [
            glow::TEXTURE_WRAP_S,
            glow::TEXTURE_WRAP_T,
            glow::TEXTURE_WRAP_R,
        ] {
            gl.tex_parameter_i32(target, wrap, glow::REPEAT as i32);
        }
        gl.tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, levels as i32 - 1);
        gl.bind_texture(target, None);
        Ok(t)
    }
}

fn check(texels: &[u8], count: u32) -> Result<(), String> {
    if texels.len() == count as usize * 4 {
        Ok(())
    } else {
        Err(format!(
            "{} bytes of texels given, {} needed",
            texels.len(),
            count * 4
        ))
    }
}

/// A wgpu texture of `data` (MonoGame's `Color`, every level, face or slice uploaded), made
/// as the runtime makes a user's texture.
pub fn wgpu_texture(w: &HeadlessWgpu, data: &TexData) -> Result<WgpuTexture, String> {
    let (desc, texels) = match data {
        TexData::D2 {
            width,
            height,
            levels,
        } => (
            TextureDesc::d2(SurfaceFormat::Color, *width, *height)
                .with_mip_levels(levels.len() as u32),
            levels.concat(),
        ),
        TexData::Cube { size, faces } => (
            TextureDesc::cube(SurfaceFormat::Color, *size),
            faces.concat(),
        ),
        TexData::D3 { size, texels } => (
            TextureDesc::d3(SurfaceFormat::Color, *size, *size, *size),
            texels.clone(),
        ),
    };
    WgpuTexture::new(w.device(), w.queue(), &desc, &texels).map_err(|e| e.to_string())
}

/// The GL effect with the scene's values and textures set.
pub fn load_gl(h: &Headless, bytes: &[u8], scene: &Scene) -> Result<DynEffect, String> {
    let mut fx = DynEffect::new(h.ctx(), bytes).map_err(|e| format!("GL: does not load: {e}"))?;
    for (name, values) in &scene.values {
        let i = fx
            .parameter(name)
            .map_err(|_| format!("has no parameter `{name}`"))?;
        fx.set_values(i, values)
            .map_err(|e| format!("setting `{name}`: {e}"))?;
    }
    for (name, data) in &scene.textures {
        let tex = gl_texture(h.ctx(), data)?;
        let i = fx
            .parameter(name)
            .map_err(|_| format!("has no texture parameter `{name}`"))?;
        fx.set_texture(i, Some(&tex))
            .map_err(|e| format!("texture `{name}`: {e}"))?;
    }
    Ok(fx)
}

/// Draws the scene with `fx` into a fresh render target and reads it back.
pub fn render_gl(h: &Headless, fx: &mut DynEffect, scene: &Scene) -> Result<RgbaImage, String> {
    let ctx = h.ctx();
    let fbo = Fbo::new(ctx, scene.width, scene.height)?;
    fbo.bind();
    let result = draw_gl(h, fx, scene, &fbo).map(|_| fbo.read_rgba());
    Fbo::unbind(ctx, h.width, h.height);
    result
}

fn draw_gl(h: &Headless, fx: &mut DynEffect, scene: &Scene, fbo: &Fbo) -> Result<(), String> {
    let ctx = h.ctx();
    h.clear_with(scene.clear, i32::from(scene.stencil));
    reset_states(ctx);
    // MonoGame's default RasterizerState.CullCounterClockwise, which the wgpu runtime keeps for
    // a pass without a rasterizer state, set as the GL runtime sets it into a render target
    // (GL's back faces culled, counter-clockwise fronts: `posFixup` flips the winding).
    // SAFETY: plain state calls on the current context.
    unsafe {
        let gl = ctx.glow();
        gl.enable(glow::CULL_FACE);
        gl.cull_face(glow::BACK);
        gl.front_face(glow::CCW);
    }
    let target = fbo.target();
    let all: Vec<DynPass> = fx.passes(scene.technique).collect();
    for (n, (passes, draw)) in scene.draws.iter().enumerate() {
        for (_, states) in scene.device_states.iter().filter(|(at, _)| *at == n) {
            ctx.set_device_states(states, &target)
                .map_err(|e| format!("GL: device states before draw {n}: {e}"))?;
        }
        for &p in passes {
            let pass = all
                .get(p)
                .copied()
                .ok_or_else(|| format!("technique {} has no pass {p}", scene.technique))?;
            let applied = fx
                .apply(pass, &target)
                .map_err(|e| format!("GL: apply pass {}: {e}", pass.pass))?;
            match draw {
                DrawSpec::Sprite(s) => draw_sprite(ctx, &applied, s)?,
                DrawSpec::Mesh { elements, indices } => {
                    let els: Vec<crate::Element> = elements
                        .iter()
                        .map(|e| (e.usage, e.index, e.components() as i32, e.data.as_slice()))
                        .collect();
                    draw_mesh(ctx, &applied, &els, indices)?
                }
            }
        }
    }
    Ok(())
}

/// The registers of every record of the GL effect's model (its current values).
pub fn registers(fx: &DynEffect) -> Result<Vec<Vec<[f32; 4]>>, String> {
    let model = fx.effect();
    model
        .constant_buffers
        .iter()
        .map(|cb| {
            packing::cbuffer_registers(cb, &model.parameters)
                .map_err(|e| format!("record `{}`: {e}", cb.name))
        })
        .collect()
}

/// The wgpu effect with the registers and the scene's textures set.
pub fn load_wgpu(
    w: &HeadlessWgpu,
    name: &str,
    compiled: &Compiled,
    gl: &DynEffect,
    scene: &Scene,
) -> Result<DynWgpuEffect, String> {
    let wgpu = compiled
        .wgpu
        .as_ref()
        .ok_or("the compile has no wgpu output")?;
    let mut fx = DynWgpuEffect::from_output(w.device(), name, wgpu, &compiled.bytes)
        .map_err(|e| format!("wgpu: does not load: {e}"))?;
    for (record, regs) in registers(gl)?.iter().enumerate() {
        fx.set_registers(record, regs);
    }
    for (tex_name, tex) in &scene.textures {
        let i = gl
            .parameter(tex_name)
            .map_err(|_| format!("has no texture parameter `{tex_name}`"))?;
        let t = wgpu_texture(w, tex)?;
        fx.set_texture(i, Some(&t))
            .map_err(|e| format!("wgpu: texture `{tex_name}`: {e}"))?;
    }
    Ok(fx)
}

/// A render pass into `target`, clearing colour, depth (1) and stencil (`stencil`).
pub fn begin_pass<'e>(
    target: &WgpuRenderTarget,
    encoder: &'e mut wgpu::CommandEncoder,
    clear: [u8; 4],
    stencil: u8,
) -> wgpu::RenderPass<'e> {
    let c = clear.map(|v| f64::from(v) / 255.0);
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("parity"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target.color_view(),
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color {
                    r: c[0],
                    g: c[1],
                    b: c[2],
                    a: c[3],
                }),
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: target.depth_view().map(|view| {
            wgpu::RenderPassDepthStencilAttachment {
                view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(u32::from(stencil)),
                    store: wgpu::StoreOp::Store,
                }),
            }
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// A mesh's elements interleaved in one vertex buffer, and its layout (leaked: pipelines are
/// cached by the layout's value, which wants `'static` elements).
pub fn interleave(elements: &[MeshElement]) -> Result<(Vec<u8>, VertexLayout), String> {
    let mut layout = Vec::new();
    let mut offset = 0u32;
    for e in elements {
        let format = match e.format {
            MeshFormat::Float(1) => VertexElementFormat::Single,
            MeshFormat::Float(2) => VertexElementFormat::Vector2,
            MeshFormat::Float(3) => VertexElementFormat::Vector3,
            MeshFormat::Float(4) => VertexElementFormat::Vector4,
            MeshFormat::Float(n) => return Err(format!("{n} float components")),
            MeshFormat::Color => VertexElementFormat::Color,
            MeshFormat::Byte4 => VertexElementFormat::Byte4,
        };
        layout.push(VertexElement::new(
            offset,
            format,
            e.usage,
            u32::from(e.index),
        ));
        offset += format.size();
    }
    let stride = offset;
    let count = elements
        .first()
        .map_or(0, |e| e.data.len() / e.components());
    let mut bytes = Vec::with_capacity(count * stride as usize);
    for v in 0..count {
        for e in elements {
            let n = e.components();
            let c = e
                .data
                .get(v * n..v * n + n)
                .ok_or_else(|| format!("element {:?}{} is short", e.usage, e.index))?;
            match e.format {
                MeshFormat::Float(_) => c.iter().for_each(|x| bytes.extend(x.to_le_bytes())),
                MeshFormat::Color => c
                    .iter()
                    .for_each(|x| bytes.push((x.clamp(0.0, 1.0) * 255.0).round() as u8)),
                MeshFormat::Byte4 => c.iter().for_each(|x| bytes.push(x.clamp(0.0, 255.0) as u8)),
            }
        }
    }
    let layout = VertexLayout {
        stride,
        elements: Box::leak(layout.into_boxed_slice()),
    };
    Ok((bytes, layout))
}

/// Draws the scene with `fx` into a fresh render target (with depth and stencil) and reads it.
pub fn render_wgpu(
    w: &HeadlessWgpu,
    fx: &mut DynWgpuEffect,
    scene: &Scene,
) -> Result<RgbaImage, String> {
    use wgpu::util::DeviceExt;
    let (device, queue) = (w.device(), w.queue());
    let target = WgpuRenderTarget::new(device, scene.width, scene.height, true)
        .map_err(|e| e.to_string())?;
    let mut meshes = Vec::new();
    for (_, draw) in &scene.draws {
        if let DrawSpec::Mesh { elements, indices } = draw {
            let (vertices, layout) = interleave(elements)?;
            let vb = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("parity vertices"),
                contents: &vertices,
                usage: wgpu::BufferUsages::VERTEX,
            });
            let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
            let ib = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("parity indices"),
                contents: &index_bytes,
                usage: wgpu::BufferUsages::INDEX,
            });
            meshes.push((vb, ib, layout, indices.len() as u32));
        }
    }
    let mut batch = SpriteBatch::new(device);
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    {
        let mut rp = begin_pass(&target, &mut encoder, scene.clear, scene.stencil);
        let mut mesh = meshes.iter();
        for (n, (passes, draw)) in scene.draws.iter().enumerate() {
            for (_, states) in scene.device_states.iter().filter(|(at, _)| *at == n) {
                fx.set_device_states(*states)
                    .map_err(|e| format!("wgpu: device states before draw {n}: {e}"))?;
            }
            let this_mesh = match draw {
                DrawSpec::Mesh { .. } => mesh.next(),
                DrawSpec::Sprite(_) => None,
            };
            for &pass in passes {
                let mut applied = fx
                    .apply(scene.technique, pass, &target.target())
                    .map_err(|e| format!("wgpu: apply pass {pass}: {e}"))?;
                match (draw, this_mesh) {
                    (DrawSpec::Sprite(s), _) => batch
                        .draw(&mut rp, &mut applied, std::slice::from_ref(s))
                        .map_err(|e| format!("wgpu: pass {pass}: {e}"))?,
                    (DrawSpec::Mesh { .. }, Some((vb, ib, layout, n))) => applied
                        .draw_indexed(
                            &mut rp,
                            layout,
                            vb.slice(..),
                            ib.slice(..),
                            wgpu::IndexFormat::Uint16,
                            0..*n,
                            0,
                        )
                        .map_err(|e| format!("wgpu: pass {pass}: {e}"))?,
                    (DrawSpec::Mesh { .. }, None) => return Err("a mesh without buffers".into()),
                }
            }
        }
    }
    fx.flush(queue);
    batch.flush(queue);
    queue.submit([encoder.finish()]);
    let pixels = target
        .read_rgba8(device, queue)
        .map_err(|e| format!("wgpu: read-back: {e}"))?;
    RgbaImage::from_raw(scene.width, scene.height, pixels)
        .ok_or_else(|| "wgpu: read-back of the wrong size".to_string())
}

/// A corpus mesh's elements as the GL harness feeds them (`Color` normalised to 0..1, `Byte4`
/// as its integer values) and the wgpu side stores them.
pub fn mesh_elements(mesh: &crate::corpus::Mesh) -> Vec<MeshElement> {
    use crate::corpus::ElementFormat as F;
    mesh.elements
        .iter()
        .enumerate()
        .map(|(k, el)| {
            let color = el.format == F::Color;
            MeshElement {
                usage: el.usage,
                index: el.index,
                format: match el.format {
                    F::Color => MeshFormat::Color,
                    F::Byte4 => MeshFormat::Byte4,
                    other => MeshFormat::Float(other.components() as u8),
                },
                data: (0..mesh.vertices.len())
                    .flat_map(|v| {
                        mesh.element(v, k)
                            .iter()
                            .map(move |x| if color { x / 255.0 } else { *x })
                    })
                    .collect(),
            }
        })
        .collect()
}

impl From<&crate::corpus::TextureSpec> for TexData {
    fn from(spec: &crate::corpus::TextureSpec) -> TexData {
        use crate::corpus::TextureSpec as T;
        match spec {
            T::D2 { .. } => {
                let (width, height) = spec.level_size(0);
                TexData::D2 {
                    width,
                    height,
                    levels: (0..spec.levels()).map(|l| spec.level_rgba(l)).collect(),
                }
            }
            T::Cube { size, .. } => TexData::Cube {
                size: *size,
                faces: (0..6).map(|f| spec.face_rgba(f)).collect(),
            },
            T::D3 { size } => TexData::D3 {
                size: *size,
                texels: spec.volume_rgba(),
            },
        }
    }
}
