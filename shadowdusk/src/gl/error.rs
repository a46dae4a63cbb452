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
    #[error("no parameter {0}; use GlEffect::parameter(name) to find an index")]
    NoSuchParameter(usize),
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
    /// A GL object could not be created, or the driver reported an error while applying a pass.
    #[error("{context}: OpenGL error {log}")]
    Driver {
        /// What was being done (technique/pass when applying).
        context: String,
        /// Driver message or `glGetError` code.
        log: String,
    },
}

/// `glGetError` as a result; `what` says what was being done.
pub(crate) fn check_gl(gl: &glow::Context, what: &str) -> Result<(), GlError> {
    use glow::HasContext;
    // SAFETY: a query on the caller's current context.
    match unsafe { gl.get_error() } {
        glow::NO_ERROR => Ok(()),
        e => Err(GlError::Driver {
            context: what.to_string(),
            log: format!("glGetError 0x{e:04X}"),
        }),
    }
}

/// Maps glow's object-creation error (a driver message) to [`GlError::Driver`].
pub(crate) fn creating(what: &'static str) -> impl FnOnce(String) -> GlError {
    move |log| GlError::Driver {
        context: format!("creating {what}"),
        log,
    }
}
