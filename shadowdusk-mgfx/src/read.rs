//! MGFX reader (mgfx-format.md §2–§10, reader algorithm in §13).
//!
//! Input: the bytes of a `.mgfx`/`.mgfxo` file, version 10 or 11 (§10: two extra strings per
//! shader), any profile byte. Output: an [`Effect`] holding every field, with `key` as stored
//! (MonoGame never checks it; see [`super::body_key`] to compare).
//!
//! Refused, with the byte offset and what was wrong: a wrong signature or version, truncation
//! anywhere, lengths or counts that cannot fit in the remaining bytes (checked before anything is
//! allocated), 7-bit prefixes over 5 bytes, unknown enum bytes, String-typed parameters (the
//! runtime throws on them), negative sizes or annotation counts, nesting deeper than
//! [`MAX_DEPTH`], invalid UTF-8 names, no techniques, dangling indices (cbuffer entry →
//! parameter, shader → cbuffer, sampler → parameter, pass → shader of the right stage or -1), a
//! missing footer and trailing bytes. The reader never panics.

use super::cursor::Cursor;
use super::hash::{FOOTER_LEN, HEADER_LEN};
use super::{
    Attribute, BlendState, CbufferEntry, ConstantBuffer, DepthStencilState, Effect, Parameter,
    ParameterType, Pass, Profile, RasterizerState, Sampler, SamplerState, Shader, ShaderStage,
    Technique,
};

/// The file signature and footer, "MGFX".
pub(crate) const SIGNATURE: &[u8; 4] = b"MGFX";

/// Deepest nesting level of a non-empty parameter list (elements/members) that the reader and
/// writer accept. The top-level list is level 0, so a chain of 33 nested parameters is the most.
/// The cap keeps the recursive reader from exhausting the stack on hostile input.
pub const MAX_DEPTH: usize = 32;

// Smallest encoding of each record, used to bound counts by the bytes left.
const MIN_CBUFFER: usize = 1 + 2 + 4;
const MIN_ENTRY: usize = 4 + 2;
const MIN_SHADER: usize = 1 + 4 + 1 + 1 + 1;
const MIN_SAMPLER: usize = 1 + 1 + 1 + 1 + 1 + 1;
const MIN_ATTRIBUTE: usize = 1 + 1 + 1 + 2;
const MIN_PARAMETER: usize = 1 + 1 + 1 + 1 + 4 + 1 + 1 + 4 + 4;
const MIN_TECHNIQUE: usize = 1 + 4 + 4;
const MIN_PASS: usize = 1 + 4 + 4 + 4 + 3;

/// A malformed file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid MGFX at byte {offset}: {what}")]
pub struct ReadError {
    /// Byte offset where reading failed.
    pub offset: usize,
    /// What was wrong.
    pub what: String,
}

/// Parses MGFX bytes.
pub fn read(bytes: &[u8]) -> Result<Effect, ReadError> {
    let mut cur = Cursor::new(bytes);
    if bytes.len() < HEADER_LEN + FOOTER_LEN {
        return Err(cur.error_at(
            0,
            format!(
                "file is {} bytes, shorter than a header and footer (14)",
                bytes.len()
            ),
        ));
    }
    if cur.take(4, "signature")? != SIGNATURE {
        return Err(cur.error_at(0, "missing \"MGFX\" signature"));
    }
    let version = cur.u8("version")?;
    if version != 10 && version != 11 {
        return Err(cur.error_at(
            4,
            format!("unsupported MGFX version {version} (expected 10 or 11)"),
        ));
    }
    let profile = Profile::from_byte(cur.u8("profile")?);
    let key = cur.i32("effect key")?;

    let mut refs = ParameterRefs::default();
    let constant_buffers = read_cbuffers(&mut cur, &mut refs)?;
    let shaders = read_shaders(&mut cur, version, constant_buffers.len(), &mut refs)?;
    let parameters = read_parameters(&mut cur, 0, "parameter")?;
    let techniques = read_techniques(&mut cur, &shaders)?;

    let footer_at = cur.pos();
    if cur.take(4, "footer")? != SIGNATURE {
        return Err(cur.error_at(
            footer_at,
            "the last technique is not followed by the \"MGFX\" footer",
        ));
    }
    if cur.remaining() != 0 {
        return Err(cur.error_at(
            cur.pos(),
            format!("{} trailing bytes after the footer", cur.remaining()),
        ));
    }
    refs.check(&cur, &parameters)?;

    Ok(Effect {
        version,
        profile,
        key,
        constant_buffers,
        shaders,
        parameters,
        techniques,
    })
}

/// Parameter indices seen before the parameter list; checked once it has been read.
#[derive(Default)]
struct ParameterRefs {
    /// (offset of the index, index, what refers to it)
    refs: Vec<(usize, i64, &'static str)>,
}

impl ParameterRefs {
    fn check(&self, cur: &Cursor<'_>, parameters: &[Parameter]) -> Result<(), ReadError> {
        for &(offset, index, what) in &self.refs {
            if usize::try_from(index).map_or(true, |i| i >= parameters.len()) {
                return Err(cur.error_at(
                    offset,
                    format!(
                        "{what} refers to parameter {index}, but there are {}",
                        parameters.len()
                    ),
                ));
            }
        }
        Ok(())
    }
}

fn read_cbuffers(
    cur: &mut Cursor<'_>,
    refs: &mut ParameterRefs,
) -> Result<Vec<ConstantBuffer>, ReadError> {
    let n = cur.count("constant buffer count", MIN_CBUFFER)?;
    let mut out = Vec::new();
    for _ in 0..n {
        let name = cur.string("constant buffer name")?;
        let size_at = cur.pos();
        let size = cur.i16("constant buffer size")?;
        let size = u16::try_from(size)
            .map_err(|_| cur.error_at(size_at, format!("negative constant buffer size {size}")))?;
        let entries_n = cur.count("constant buffer entry count", MIN_ENTRY)?;
        let mut entries = Vec::new();
        for _ in 0..entries_n {
            let at = cur.pos();
            let parameter = cur.i32("constant buffer parameter index")?;
            refs.refs
                .push((at, i64::from(parameter), "constant buffer entry"));
            let offset = cur.u16("constant buffer offset")?;
            entries.push(CbufferEntry { parameter, offset });
        }
        out.push(ConstantBuffer {
            name,
            size,
            entries,
        });
    }
    Ok(out)
}

fn read_shaders(
    cur: &mut Cursor<'_>,
    version: u8,
    cbuffer_count: usize,
    refs: &mut ParameterRefs,
) -> Result<Vec<Shader>, ReadError> {
    let n = cur.count("shader count", MIN_SHADER)?;
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(read_shader(cur, version, cbuffer_count, refs)?);
    }
    Ok(out)
}

fn read_shader(
    cur: &mut Cursor<'_>,
    version: u8,
    cbuffer_count: usize,
    refs: &mut ParameterRefs,
) -> Result<Shader, ReadError> {
    let stage = if cur.bool("shader stage flag")? {
        ShaderStage::Vertex
    } else {
        ShaderStage::Pixel
    };
    let (source_file, entry_point) = if version > 10 {
        (
            Some(cur.string("shader source file")?),
            Some(cur.string("shader entry point")?),
        )
    } else {
        (None, None)
    };
    let len = cur.count("shader code length", 1)?;
    let code = cur.take(len, "shader code")?.to_vec();

    let n = small_count(cur, "sampler count", MIN_SAMPLER)?;
    let mut samplers = Vec::new();
    for _ in 0..n {
        let ty = cur.enum_u8("sampler type")?;
        let texture_slot = cur.u8("sampler texture slot")?;
        let sampler_slot = cur.u8("sampler state slot")?;
        let state = if cur.bool("sampler state flag")? {
            Some(read_sampler_state(cur)?)
        } else {
            None
        };
        let name = cur.string("sampler name")?;
        let at = cur.pos();
        let parameter = cur.u8("sampler parameter index")?;
        refs.refs.push((at, i64::from(parameter), "sampler"));
        samplers.push(Sampler {
            ty,
            texture_slot,
            sampler_slot,
            state,
            name,
            parameter,
        });
    }

    let n = usize::from(cur.u8("constant buffer index count")?);
    let mut cbuffers = Vec::new();
    for _ in 0..n {
        let at = cur.pos();
        let index = cur.u8("constant buffer index")?;
        if usize::from(index) >= cbuffer_count {
            return Err(cur.error_at(
                at,
                format!("shader refers to constant buffer {index}, but there are {cbuffer_count}"),
            ));
        }
        cbuffers.push(index);
    }

    let n = small_count(cur, "attribute count", MIN_ATTRIBUTE)?;
    let mut attributes = Vec::new();
    for _ in 0..n {
        let name = cur.string("attribute name")?;
        let usage = cur.enum_u8("vertex element usage")?;
        let index = cur.u8("attribute usage index")?;
        let location = cur.i16("attribute location")?;
        attributes.push(Attribute {
            name,
            usage,
            index,
            location,
        });
    }

    Ok(Shader {
        stage,
        source_file,
        entry_point,
        code,
        samplers,
        cbuffers,
        attributes,
    })
}

/// A `u8` count, bounded like [`Cursor::count`] by the bytes left.
fn small_count(cur: &mut Cursor<'_>, what: &str, min_record: usize) -> Result<usize, ReadError> {
    let at = cur.pos();
    let n = usize::from(cur.u8(what)?);
    if n * min_record > cur.remaining() {
        return Err(cur.error_at(
            at,
            format!(
                "{what} {n} cannot fit in the {} bytes left",
                cur.remaining()
            ),
        ));
    }
    Ok(n)
}

fn read_sampler_state(cur: &mut Cursor<'_>) -> Result<SamplerState, ReadError> {
    Ok(SamplerState {
        address_u: cur.enum_u8("AddressU")?,
        address_v: cur.enum_u8("AddressV")?,
        address_w: cur.enum_u8("AddressW")?,
        border_color: [
            cur.u8("BorderColor.R")?,
            cur.u8("BorderColor.G")?,
            cur.u8("BorderColor.B")?,
            cur.u8("BorderColor.A")?,
        ],
        filter: cur.enum_u8("texture filter")?,
        max_anisotropy: cur.i32("MaxAnisotropy")?,
        max_mip_level: cur.i32("MaxMipLevel")?,
        mip_lod_bias: cur.f32("MipMapLevelOfDetailBias")?,
    })
}

fn read_annotations(cur: &mut Cursor<'_>) -> Result<i32, ReadError> {
    let at = cur.pos();
    let n = cur.i32("annotation count")?;
    if n < 0 {
        return Err(cur.error_at(at, format!("negative annotation count {n}")));
    }
    Ok(n)
}

/// A ParameterList at nesting `depth` (0 = top level), §6.
fn read_parameters(
    cur: &mut Cursor<'_>,
    depth: usize,
    what: &str,
) -> Result<Vec<Parameter>, ReadError> {
    let at = cur.pos();
    let n = cur.count(&format!("{what} count"), MIN_PARAMETER)?;
    // Empty lists end the recursion, so only non-empty ones count towards the depth.
    if n > 0 && depth > MAX_DEPTH {
        return Err(cur.error_at(
            at,
            format!("parameters nested deeper than {MAX_DEPTH} levels"),
        ));
    }
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(read_parameter(cur, depth)?);
    }
    Ok(out)
}

fn read_parameter(cur: &mut Cursor<'_>, depth: usize) -> Result<Parameter, ReadError> {
    let start = cur.pos();
    let class = cur.enum_u8("parameter class")?;
    let ty_at = cur.pos();
    let ty: ParameterType = cur.enum_u8("parameter type")?;
    if ty == ParameterType::String {
        return Err(cur.error_at(ty_at, "String parameters are not supported by MonoGame"));
    }
    let name = cur.string("parameter name")?;
    let semantic = cur.string("parameter semantic")?;
    let annotations = read_annotations(cur)?;
    let rows = cur.u8("parameter rows")?;
    let columns = cur.u8("parameter columns")?;
    let elements = read_parameters(cur, depth + 1, "array element")?;
    let members = read_parameters(cur, depth + 1, "struct member")?;
    let data = if elements.is_empty() && members.is_empty() && ty.has_data() {
        let n = usize::from(rows) * usize::from(columns);
        if n * 4 > cur.remaining() {
            return Err(cur.error_at(
                cur.pos(),
                format!(
                    "truncated data of parameter '{name}' (starting at {start}): need {} bytes",
                    n * 4
                ),
            ));
        }
        let mut values = Vec::with_capacity(n);
        for _ in 0..n {
            values.push(cur.u32("parameter data")?);
        }
        Some(values)
    } else {
        None
    };
    Ok(Parameter {
        class,
        ty,
        name,
        semantic,
        annotations,
        rows,
        columns,
        elements,
        members,
        data,
    })
}

fn read_techniques(cur: &mut Cursor<'_>, shaders: &[Shader]) -> Result<Vec<Technique>, ReadError> {
    let at = cur.pos();
    let n = cur.count("technique count", MIN_TECHNIQUE)?;
    if n == 0 {
        return Err(cur.error_at(at, "no techniques (MonoGame selects technique 0 on load)"));
    }
    let mut out = Vec::new();
    for _ in 0..n {
        let name = cur.string("technique name")?;
        let annotations = read_annotations(cur)?;
        let passes_n = cur.count("pass count", MIN_PASS)?;
        let mut passes = Vec::new();
        for _ in 0..passes_n {
            passes.push(read_pass(cur, shaders)?);
        }
        out.push(Technique {
            name,
            annotations,
            passes,
        });
    }
    Ok(out)
}

fn read_pass(cur: &mut Cursor<'_>, shaders: &[Shader]) -> Result<Pass, ReadError> {
    let name = cur.string("pass name")?;
    let annotations = read_annotations(cur)?;
    let vertex_shader = read_shader_index(cur, shaders, ShaderStage::Vertex)?;
    let pixel_shader = read_shader_index(cur, shaders, ShaderStage::Pixel)?;
    let blend = if cur.bool("blend state flag")? {
        Some(read_blend(cur)?)
    } else {
        None
    };
    let depth_stencil = if cur.bool("depth-stencil state flag")? {
        Some(read_depth_stencil(cur)?)
    } else {
        None
    };
    let rasterizer = if cur.bool("rasterizer state flag")? {
        Some(read_rasterizer(cur)?)
    } else {
        None
    };
    Ok(Pass {
        name,
        annotations,
        vertex_shader,
        pixel_shader,
        blend,
        depth_stencil,
        rasterizer,
    })
}

fn read_shader_index(
    cur: &mut Cursor<'_>,
    shaders: &[Shader],
    stage: ShaderStage,
) -> Result<i32, ReadError> {
    let at = cur.pos();
    let what = match stage {
        ShaderStage::Vertex => "vertex",
        ShaderStage::Pixel => "pixel",
    };
    let index = cur.i32(&format!("pass {what} shader index"))?;
    if index == -1 {
        return Ok(index);
    }
    match usize::try_from(index).ok().and_then(|i| shaders.get(i)) {
        Some(shader) if shader.stage == stage => Ok(index),
        Some(_) => Err(cur.error_at(
            at,
            format!("pass {what} shader index {index} points at a shader of the other stage"),
        )),
        None => Err(cur.error_at(
            at,
            format!(
                "pass {what} shader index {index} is neither -1 nor one of the {} shaders",
                shaders.len()
            ),
        )),
    }
}

fn read_blend(cur: &mut Cursor<'_>) -> Result<BlendState, ReadError> {
    Ok(BlendState {
        alpha_blend_function: cur.enum_u8("AlphaBlendFunction")?,
        alpha_destination_blend: cur.enum_u8("AlphaDestinationBlend")?,
        alpha_source_blend: cur.enum_u8("AlphaSourceBlend")?,
        blend_factor: [
            cur.u8("BlendFactor.R")?,
            cur.u8("BlendFactor.G")?,
            cur.u8("BlendFactor.B")?,
            cur.u8("BlendFactor.A")?,
        ],
        color_blend_function: cur.enum_u8("ColorBlendFunction")?,
        color_destination_blend: cur.enum_u8("ColorDestinationBlend")?,
        color_source_blend: cur.enum_u8("ColorSourceBlend")?,
        color_write_channels: [
            cur.u8("ColorWriteChannels")?,
            cur.u8("ColorWriteChannels1")?,
            cur.u8("ColorWriteChannels2")?,
            cur.u8("ColorWriteChannels3")?,
        ],
        multi_sample_mask: cur.i32("MultiSampleMask")?,
    })
}

fn read_depth_stencil(cur: &mut Cursor<'_>) -> Result<DepthStencilState, ReadError> {
    Ok(DepthStencilState {
        ccw_stencil_depth_buffer_fail: cur.enum_u8("CounterClockwiseStencilDepthBufferFail")?,
        ccw_stencil_fail: cur.enum_u8("CounterClockwiseStencilFail")?,
        ccw_stencil_function: cur.enum_u8("CounterClockwiseStencilFunction")?,
        ccw_stencil_pass: cur.enum_u8("CounterClockwiseStencilPass")?,
        depth_buffer_enable: cur.bool("DepthBufferEnable")?,
        depth_buffer_function: cur.enum_u8("DepthBufferFunction")?,
        depth_buffer_write_enable: cur.bool("DepthBufferWriteEnable")?,
        reference_stencil: cur.i32("ReferenceStencil")?,
        stencil_depth_buffer_fail: cur.enum_u8("StencilDepthBufferFail")?,
        stencil_enable: cur.bool("StencilEnable")?,
        stencil_fail: cur.enum_u8("StencilFail")?,
        stencil_function: cur.enum_u8("StencilFunction")?,
        stencil_mask: cur.i32("StencilMask")?,
        stencil_pass: cur.enum_u8("StencilPass")?,
        stencil_write_mask: cur.i32("StencilWriteMask")?,
        two_sided_stencil_mode: cur.bool("TwoSidedStencilMode")?,
    })
}

fn read_rasterizer(cur: &mut Cursor<'_>) -> Result<RasterizerState, ReadError> {
    Ok(RasterizerState {
        cull_mode: cur.enum_u8("CullMode")?,
        depth_bias: cur.f32("DepthBias")?,
        fill_mode: cur.enum_u8("FillMode")?,
        multi_sample_anti_alias: cur.bool("MultiSampleAntiAlias")?,
        scissor_test_enable: cur.bool("ScissorTestEnable")?,
        slope_scale_depth_bias: cur.f32("SlopeScaleDepthBias")?,
    })
}
