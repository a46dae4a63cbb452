//! The loader's error type: every failure names where it happened and carries the driver's log.

use crate::mgfx::{Profile, ReadError, ShaderStage};

/// Which shader an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaderRef {
    /// Index into [`Effect::shaders`](crate::mgfx::Effect::shaders).
    Effect(usize),
    /// The built-in SpriteBatch vertex shader used for pixel-only passes.
    BuiltinSpriteVs,
}

impl std::fmt::Display for ShaderRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShaderRef::Effect(i) => write!(f, "shader {i}"),
            ShaderRef::BuiltinSpriteVs => write!(f, "the built-in SpriteBatch vertex shader"),
        }
    }
}

/// A failure of the OpenGL loader.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GlError {
    /// The bytes are not a valid MGFX file.
    #[error("{0}")]
    Read(#[from] ReadError),
    /// The file targets another platform (MonoGame: "built for a different platform").
    #[error(
        "this MGFX effect was built for {0:?}, not OpenGL; rebuild it with the OpenGL profile"
    )]
    WrongProfile(Profile),
    /// A record refers to something that does not exist (index out of range, wrong stage...).
    #[error("malformed effect: {0}")]
    Malformed(String),
    /// `glCreateShader`/`glCompileShader` failed.
    #[error(
        "technique '{technique}' pass '{pass}': {shader} ({stage:?}) failed to compile:\n{log}"
    )]
    Compile {
        /// Technique name.
        technique: String,
        /// Pass name.
        pass: String,
        /// The shader.
        shader: ShaderRef,
        /// Its stage.
        stage: ShaderStage,
        /// The driver's info log.
        log: String,
    },
    /// `glLinkProgram` failed ("Unable to link effect program").
    #[error("technique '{technique}' pass '{pass}': unable to link {vertex} with pixel shader {pixel}:\n{log}")]
    Link {
        /// Technique name.
        technique: String,
        /// Pass name.
        pass: String,
        /// The vertex shader.
        vertex: ShaderRef,
        /// The pixel shader index.
        pixel: usize,
        /// The driver's info log.
        log: String,
    },
    /// A pass without a vertex shader draws with the vertex shader bound when it is applied
    /// (the last pass applied on the context left it, or SpriteBatch's), and the driver could
    /// not link that pair: the pixel shader reads what the vertex shader does not write.
    #[error(
        "{pixel} has no vertex shader, so it draws with the one bound: {vertex}; the driver \
         cannot link the two (the pixel shader reads what that vertex shader does not write). \
         Apply a pass whose vertex shader writes what it reads first (SpriteBatch::begin binds \
         SpriteBatch's), or give the pass a VertexShader:\n{log}"
    )]
    BoundVertexLink {
        /// The vertex shader: its index, effect, technique and pass, or SpriteBatch's.
        vertex: String,
        /// The pixel shader: its index, effect, technique and pass.
        pixel: String,
        /// The driver's info log.
        log: String,
    },
    /// The pass has no pixel shader; MonoGame would keep the device's, which does not exist here.
    #[error(
        "technique '{technique}' pass '{pass}' has no pixel shader; give the pass a PixelShader"
    )]
    MissingPixelShader {
        /// Technique name.
        technique: String,
        /// Pass name.
        pass: String,
    },
    /// No technique/pass with these indices.
    #[error("no pass {pass} in technique {technique} (the effect has {techniques} techniques)")]
    NoSuchPass {
        /// Requested technique index.
        technique: usize,
        /// Requested pass index.
        pass: usize,
        /// Number of techniques.
        techniques: usize,
    },
    /// No top-level parameter with this index.
    #[error("no parameter {0}; use DynEffect::parameter(name) to find an index")]
    NoSuchParameter(usize),
    /// No technique with this name ([`DynEffect::technique`](super::DynEffect::technique)).
    #[error("no technique named '{name}'; the effect has {}", names(known))]
    UnknownTechnique {
        /// The name asked for.
        name: String,
        /// The effect's technique names, in order.
        known: Vec<String>,
    },
    /// No pass with this name in the technique ([`DynEffect::pass`](super::DynEffect::pass)).
    #[error(
        "technique '{technique}' has no pass named '{name}'; it has {}",
        names(known)
    )]
    UnknownPass {
        /// The technique's name.
        technique: String,
        /// The pass name asked for.
        name: String,
        /// The technique's pass names, in order.
        known: Vec<String>,
    },
    /// No top-level parameter with this name
    /// ([`DynEffect::parameter`](super::DynEffect::parameter)).
    #[error("no parameter named '{0}'")]
    UnknownParameter(String),
    /// A typed effect's `Params` does not have the register layout of its MGFX: an
    /// [`Effect`](crate::Effect) implemented by hand, not by `include_effect!`.
    #[error("effect {effect}: {what}; is its Effect implementation generated by include_effect!?")]
    ParamsLayout {
        /// [`Effect::NAME`](crate::Effect::NAME).
        effect: &'static str,
        /// Which record differs, and how.
        what: String,
    },
    /// A value does not fit the parameter's class/type/shape.
    #[error("parameter '{name}': {what}")]
    ParameterShape {
        /// Parameter name.
        name: String,
        /// What is wrong and what was expected.
        what: String,
    },
    /// A constant-buffer entry writes past the end of its buffer (MonoGame throws at draw time).
    #[error("constant buffer '{cbuffer}': parameter '{parameter}' at byte {offset} overruns its {size} bytes")]
    CbufferOverrun {
        /// Buffer name.
        cbuffer: String,
        /// Parameter name.
        parameter: String,
        /// Byte offset of the write that overruns.
        offset: usize,
        /// Buffer size.
        size: usize,
    },
    /// The texture given for a sampler has another GL target than the sampler's type.
    #[error("technique '{technique}' pass '{pass}': sampler '{sampler}' needs a texture of target 0x{expected:04X}, got 0x{got:04X}")]
    TextureTarget {
        /// Technique name.
        technique: String,
        /// Pass name.
        pass: String,
        /// Sampler uniform name.
        sampler: String,
        /// Target the sampler type needs.
        expected: u32,
        /// Target of the texture given.
        got: u32,
    },
    /// Pixel data given for a texture does not have the size its dimensions need.
    #[error("{width}x{height} RGBA8 pixels are {needed} bytes, {got} given")]
    PixelData {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// Bytes the dimensions need (4 per pixel).
        needed: usize,
        /// Bytes given.
        got: usize,
    },
    /// A texture, pass or effect made on one [`GlContext`](super::GlContext) was handed to
    /// something of another: its GL names would mean other objects there, or none.
    #[error("{what} belongs to GL context {foreign}, not to context {context} it was used with; make it on the context that draws with it")]
    ForeignContext {
        /// What came from the other context ("the texture", "the applied pass").
        what: &'static str,
        /// [`GlContext::id`](super::GlContext::id) of the context it was used with.
        context: u64,
        /// Id of the context it was made on.
        foreign: u64,
    },
    /// A texture or render target is larger than the driver allows
    /// (`GL_MAX_TEXTURE_SIZE`, `GL_MAX_RENDERBUFFER_SIZE`).
    #[error(
        "{width}x{height} is larger than this driver allows ({max} pixels a side); make it smaller"
    )]
    TooLarge {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
        /// The driver's limit for either side.
        max: u32,
    },
    /// A GL object could not be created, a render target is incomplete, the framebuffer bound
    /// for reading cannot be read, or the context cannot apply a pass's state (OpenGL ES has no
    /// wireframe fill, and `Border` addressing only from ES 3.2 or with an extension).
    #[error("{context}: OpenGL error {log}")]
    Driver {
        /// What was being done.
        context: String,
        /// Driver message or framebuffer status.
        log: String,
    },
}

/// Names for a message: `'A', 'B'`, or `none`.
fn names(known: &[String]) -> String {
    if known.is_empty() {
        return "none".to_string();
    }
    let quoted: Vec<String> = known.iter().map(|n| format!("'{n}'")).collect();
    quoted.join(", ")
}

/// Maps glow's object-creation error (a driver message) to [`GlError::Driver`].
pub(crate) fn creating(what: &'static str) -> impl FnOnce(String) -> GlError {
    move |log| GlError::Driver {
        context: format!("creating {what}"),
        log,
    }
}
