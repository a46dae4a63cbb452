//! [`WgpuError`]: why the wgpu runtime refused, naming the effect and pass.

/// An error of the wgpu runtime.
#[derive(Debug, thiserror::Error)]
pub enum WgpuError {
    /// The effect was built without the wgpu target.
    #[error(
        "{effect} has no wgpu part: compile it with `Builder::wgpu(true)` in build.rs (or \
         `include_effect!(\"…\", in_process, wgpu)`)"
    )]
    NoWgpuTarget {
        /// The effect's file name.
        effect: &'static str,
    },
    /// The pass indices name no pass of the effect (a hand-written `Effect` only).
    #[error("{effect} has no pass {pass} in technique {technique}")]
    NoSuchPass {
        /// The effect.
        effect: &'static str,
        /// MGFX technique index.
        technique: usize,
        /// MGFX pass index.
        pass: usize,
    },
    /// `E::Params` or the MGFX bytes do not fit the effect's wgpu part (a hand-written
    /// `Effect`, or parts of two builds).
    #[error("{effect}: {what}")]
    ParamsLayout {
        /// The effect.
        effect: &'static str,
        /// What does not fit.
        what: String,
    },
    /// The parameter index names no parameter of the effect: a `DynWgpuEffect` index past its
    /// parameters, or the slot of a hand-written `Effect` whose MGFX does not have it (generated
    /// slots always exist).
    #[error(
        "{effect} has no parameter {parameter}: pass the index of one of its texture parameters \
         (its MGFX parameter list), or a generated texture slot"
    )]
    NoSuchTexture {
        /// The effect.
        effect: &'static str,
        /// MGFX parameter index.
        parameter: usize,
    },
    /// The pass samples a texture that was never set.
    #[error(
        "{effect}, pass '{pass}': the {stage} shader samples '{texture}' (slot {slot}), but no \
         texture is set for it: call set_texture first"
    )]
    MissingTexture {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// "vertex" or "pixel".
        stage: &'static str,
        /// The HLSL name of the texture.
        texture: &'static str,
        /// The sampler slot.
        slot: u32,
    },
    /// A texture the effect's shaders cannot sample: an integer or stencil format (MonoGame's
    /// shaders sample floats), multisampled, or made without `TEXTURE_BINDING` usage (wgpu
    /// would refuse the bind group with a panic).
    #[error(
        "{effect}, pass '{pass}': '{texture}' (sampler slot {slot}) is sampled as a float \
         texture, but the texture set is {format:?} with {samples} sample(s){usage}; set a \
         single-sampled texture of a colour, float or depth format made with \
         TextureUsages::TEXTURE_BINDING (WgpuTexture::new makes one of any SurfaceFormat; \
         resolve a multisampled target first)"
    )]
    TextureFormat {
        /// The effect.
        effect: &'static str,
        /// The first pass that samples it.
        pass: &'static str,
        /// The texture parameter.
        texture: &'static str,
        /// The sampler slot.
        slot: u32,
        /// The texture's format.
        format: wgpu::TextureFormat,
        /// Its sample count.
        samples: u32,
        /// `" and no TEXTURE_BINDING usage"` when that is missing, else empty.
        usage: &'static str,
    },
    /// wgpu refused a bind group of the pass's textures (its validation message): a view of
    /// a depth-stencil texture with both aspects, or a view whose dimension is not the one its
    /// `WgpuTexture` says.
    #[error(
        "{effect}, pass '{pass}': wgpu refused the textures bound: {message} (a depth-stencil \
         texture is sampled through a view with `aspect: TextureAspect::DepthOnly`; a view's \
         dimension must be the one given to WgpuTexture::from_view)"
    )]
    BindGroup {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// wgpu's message.
        message: String,
    },
    /// A texture of another dimension than the shader samples.
    #[error(
        "{effect}: '{texture}' is sampled as a {expected:?} texture, but the texture set is {found:?}"
    )]
    TextureDimension {
        /// The effect.
        effect: &'static str,
        /// The HLSL name.
        texture: &'static str,
        /// What the shader samples.
        expected: crate::wgsl::TextureDimension,
        /// What was set.
        found: crate::wgsl::TextureDimension,
    },
    /// The vertex layout lacks an element the vertex shader reads.
    #[error(
        "{effect}, pass '{pass}': the vertex shader reads {usage:?}{index}, which the vertex \
         layout does not have"
    )]
    MissingVertexElement {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// The usage.
        usage: crate::mgfx::VertexElementUsage,
        /// The usage index.
        index: u32,
    },
    /// The pixel shader reads a varying the vertex shader does not write.
    #[error(
        "{effect}, pass '{pass}': the pixel shader reads {semantic}, which the vertex shader \
         does not write"
    )]
    MissingVarying {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// The varying's semantic.
        semantic: &'static str,
    },
    /// A pass without a vertex shader draws with the vertex shader bound when it is applied
    /// (that of the effect's last pass applied, else SpriteBatch's), and its pixel shader reads
    /// a varying that one does not write.
    #[error(
        "{effect}, pass '{pass}' has no vertex shader, so it draws with the one bound: \
         {vertex}; its pixel shader reads {semantic}, which that vertex shader does not write. \
         Apply a pass of the effect whose vertex shader writes it first, or give the pass a \
         VertexShader"
    )]
    BoundVertexVarying {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// The vertex shader bound: its index and the pass it comes from, or SpriteBatch's.
        vertex: String,
        /// The varying's semantic.
        semantic: &'static str,
    },
    /// The pass needs more vertex attributes or inter-stage variables than the device allows.
    #[error(
        "{effect}, pass '{pass}': the vertex shader has {count} of what the device's \
         `{limit}` allows {value} of, the first past it {semantic}; request a higher limit \
         when creating the device, or pass fewer values"
    )]
    DeviceLimit {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// The first semantic past the limit (`TEXCOORD11`, `BlendWeight1`).
        semantic: String,
        /// The limit's name in `wgpu::Limits`.
        limit: &'static str,
        /// Its value on the device (less the variable a point list takes).
        value: u32,
        /// How many the vertex shader has.
        count: u32,
    },
    /// The pass blends, but the target's colour format cannot be blended.
    #[error(
        "{effect}, pass '{pass}': its blend state blends, but the target format {format:?} \
         cannot be blended; draw it into a blendable format (Rgba8Unorm, Rgba16Float) or give \
         the pass BlendState Opaque"
    )]
    NotBlendable {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// The target's colour format.
        format: wgpu::TextureFormat,
    },
    /// A pass without a pixel shader cannot be drawn.
    #[error("{effect}, pass '{pass}': the pass has no pixel shader; MonoGame's runtimes need one")]
    MissingPixelShader {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
    },
    /// wgpu refused to build the pass's pipeline (its validation message).
    #[error("{effect}, pass '{pass}': wgpu refused the pipeline: {message}")]
    Pipeline {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// wgpu's message.
        message: String,
    },
    /// The effect's WGSL did not load as a shader module (a build from another wgpu major).
    #[error("{effect}: wgpu refused shader {shader}: {message}")]
    Shader {
        /// The effect.
        effect: &'static str,
        /// The index of the shader in the effect.
        shader: usize,
        /// wgpu's message.
        message: String,
    },
    /// The sampler state cannot be expressed on wgpu with this device's features.
    #[error("{effect}: sampler of '{texture}': {message}")]
    Sampler {
        /// The effect.
        effect: &'static str,
        /// The HLSL name of the texture it samples.
        texture: &'static str,
        /// Why.
        message: String,
    },
    /// A device sampler state (`DeviceStates::samplers`) cannot be expressed on wgpu with this
    /// device's features.
    #[error("{effect}: device sampler state of slot {slot}: {message}")]
    DeviceSampler {
        /// The effect.
        effect: &'static str,
        /// The sampler slot (`GraphicsDevice.SamplerStates[slot]`).
        slot: usize,
        /// Why.
        message: String,
    },
    /// A vertex buffer's instance frequency is neither 0 (per vertex) nor 1 (per instance):
    /// wgpu steps a buffer once per vertex or once per instance, nothing in between.
    #[error(
        "{effect}, pass '{pass}': vertex buffer {buffer} has instance frequency {frequency}; \
         wgpu steps a buffer per vertex (0) or per instance (1) only: repeat each instance's \
         data {frequency} times in the buffer and give it frequency 1"
    )]
    InstanceFrequency {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// The buffer's index in the bindings.
        buffer: usize,
        /// The frequency given.
        frequency: u32,
    },
    /// A draw's vertex, index or instance range is reversed or reaches past its buffer (which
    /// wgpu would refuse with a panic when the commands are finished).
    #[error(
        "{effect}, pass '{pass}': the {what} range {start}..{end} is reversed or reaches past \
         the {available} the buffer holds; draw within the buffer"
    )]
    DrawRange {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// "vertex", "index" or "instance".
        what: &'static str,
        /// The range's start.
        start: u32,
        /// The range's end.
        end: u32,
        /// How many the buffer holds.
        available: u64,
    },
    /// A prepared draw recorded with other vertex buffers than it was prepared for.
    #[error(
        "{effect}, pass '{pass}': the draw was prepared for {prepared} vertex buffer(s), \
         {given} given; prepare it with the buffers it draws from"
    )]
    BufferCount {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// How many it was prepared for.
        prepared: usize,
        /// How many were given.
        given: usize,
    },
    /// A prepared draw recorded when its parameters are not the ones its `Uniforms` uploaded
    /// last: before the upload (they would be zeros or another frame's), or after a later
    /// frame's upload (they would be that frame's).
    #[error(
        "{effect}, pass '{pass}': {}",
        if *later {
            "a later frame's parameters were uploaded since the draw was prepared; record a \
             frame's draws before preparing and uploading the next"
        } else {
            "the draw's parameters were not uploaded; call `uniforms.upload(&device, &mut \
             encoder)` after preparing the frame's draws and before recording them"
        }
    )]
    NotUploaded {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// Whether a later frame was uploaded (else none since it was prepared).
        later: bool,
    },
    /// More vertex buffers, or colour targets, than the runtime binds.
    #[error("{effect}, pass '{pass}': {count} {what} given, at most {max} are supported")]
    TooMany {
        /// The effect.
        effect: &'static str,
        /// The pass name.
        pass: &'static str,
        /// "vertex buffers".
        what: &'static str,
        /// How many were given.
        count: usize,
        /// The most there can be.
        max: usize,
    },
    /// A [`Target`](super::Target) of no colour target or more than a pass can draw into.
    #[error(
        "{count} colour targets given: a pass draws into 1 to {max} (COLOR0 to COLOR{last})",
        last = max - 1
    )]
    ColorTargets {
        /// How many were given.
        count: usize,
        /// The most there can be.
        max: usize,
    },
    /// A texture's pixels or size do not fit.
    #[error("texture: {0}")]
    Texture(String),
    /// No adapter or device (headless).
    #[error("no wgpu device: {0}")]
    NoDevice(String),
    /// Reading a target back failed.
    #[error("reading back the target failed: {0}")]
    ReadBack(String),
}

/// Why [`WgpuEffect::replace_effect`](super::WgpuEffect::replace_effect) kept the running
/// effect.
#[derive(Debug, thiserror::Error)]
pub enum ReplaceError {
    /// The new effect's layout differs (the change names the parameter or technique): `E`'s
    /// generated code cannot drive it.
    #[error("{0}")]
    Layout(crate::mgfx::layout::LayoutChange),
    /// wgpu refused a shader of the new effect, or it is malformed.
    #[error(transparent)]
    Wgpu(#[from] WgpuError),
}
