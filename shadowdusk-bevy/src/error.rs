//! Why an effect's pass cannot be drawn the way it was asked for, found when the material or
//! post-process is made (Bevy's pipeline specialization cannot report errors of its own).

/// An effect or pass that an [`EffectMaterial`](crate::EffectMaterial) or
/// [`EffectPostProcess`](crate::EffectPostProcess) cannot draw, and what to do instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EffectError {
    /// The effect was compiled for OpenGL only.
    #[error(
        "{effect} has no wgpu part: compile it with the wgpu target (`Builder::wgpu(true)` in \
         the build script, or `include_effect!(\"…\", in_process, wgpu)`)"
    )]
    NoWgpu {
        /// The effect's file name.
        effect: &'static str,
    },
    /// A pass index the effect does not have (a `DynEffect`-style index from elsewhere).
    #[error("{effect} has no pass {pass} in technique {technique}")]
    NoSuchPass {
        /// The effect's file name.
        effect: &'static str,
        /// Technique index.
        technique: usize,
        /// Pass index.
        pass: usize,
    },
    /// A post-process was given no passes.
    #[error("{effect}: a post-process needs at least one pass (a technique's `passes()`)")]
    NoPasses {
        /// The effect's file name.
        effect: &'static str,
    },
    /// The pass sets no pixel shader.
    #[error("{effect}, pass {pass}: the pass has no pixel shader, so it has nothing to draw")]
    NoPixelShader {
        /// The effect's file name.
        effect: &'static str,
        /// The pass's name.
        pass: &'static str,
    },
    /// A post-process pass has its own vertex shader.
    #[error(
        "{effect}, pass {pass}: the pass has its own vertex shader; a post-process draws its \
         passes with SpriteBatch's vertex stage over the whole view, so give it only a \
         `PixelShader` (or draw the pass on a mesh with an `EffectMaterial`)"
    )]
    OwnVertexShader {
        /// The effect's file name.
        effect: &'static str,
        /// The pass's name.
        pass: &'static str,
    },
    /// The pixel shader reads a value SpriteBatch's vertex shader does not write.
    #[error(
        "{effect}, pass {pass}: the pixel shader reads {semantic}, which SpriteBatch's vertex \
         shader does not write (it writes COLOR0 and TEXCOORD0): read those instead"
    )]
    Varying {
        /// The effect's file name.
        effect: &'static str,
        /// The pass's name.
        pass: &'static str,
        /// The input's semantic (`TEXCOORD1`).
        semantic: &'static str,
    },
    /// The pass's vertex shader reads an input no Bevy mesh attribute holds.
    #[error(
        "{effect}, pass {pass}: the vertex shader reads {input}, which no Bevy mesh attribute \
         holds; it can read POSITION0, NORMAL0, TEXCOORD0, TEXCOORD1, TANGENT0, COLOR0 and \
         BLENDWEIGHT0 (as floats) from the mesh's position, normal, UV 0, UV 1, tangent, \
         colour and joint weights"
    )]
    MeshAttribute {
        /// The effect's file name.
        effect: &'static str,
        /// The pass's name.
        pass: &'static str,
        /// The input's usage and index (`BlendIndices0`).
        input: String,
    },
    /// The pass's vertex shader samples textures.
    #[error(
        "{effect}, pass {pass}: the vertex shader samples textures, which a Bevy material does \
         not bind to its vertex stage; sample them in the pixel shader"
    )]
    VertexTextures {
        /// The effect's file name.
        effect: &'static str,
        /// The pass's name.
        pass: &'static str,
    },
    /// The pixel shader reads a value the pass's vertex shader does not write.
    #[error(
        "{effect}, pass {pass}: the pixel shader reads {semantic}, which the pass's vertex \
         shader does not write: write it there, or read only what it writes"
    )]
    NotWritten {
        /// The effect's file name.
        effect: &'static str,
        /// The pass's name.
        pass: &'static str,
        /// The input's semantic.
        semantic: &'static str,
    },
    /// One texture unit is sampled as two kinds of texture by the effect's pixel shaders.
    #[error(
        "{effect}: texture unit {slot} is a {first:?} texture in one pass and a {second:?} \
         texture in another; a Bevy material has one bind-group layout for all its passes, so \
         sample them on different units (`register(s1)`)"
    )]
    SlotDimension {
        /// The effect's file name.
        effect: &'static str,
        /// The texture unit.
        slot: u32,
        /// Its dimension in the first pixel shader.
        first: shadowdusk::wgsl::TextureDimension,
        /// Its dimension in a later one.
        second: shadowdusk::wgsl::TextureDimension,
    },
}
