//! [`GlEffect`]: an effect known at build time (`include_effect!`), loaded into OpenGL and
//! applied pass by pass. Its passes, texture slots and parameters are types of that effect, so
//! handing it another effect's is a compile error, and nothing is looked up by name or index
//! at run time.

use std::fmt;

use super::apply::ParamsRegisters;
use super::loaded::LoadedEffect;
use super::{AppliedPass, GlContext, GlError, GlTexture, RenderTarget};
use crate::effect::{check_fingerprint, check_fits};
use crate::params::EffectParams;
use crate::{mgfx, Effect, Pass, TextureSlot};

/// Effect `E` (the `Effect` marker of a generated module, `tint::Effect`) loaded into a GL
/// context: every pass compiled and linked, with `E::Params` as its parameter values.
///
/// ```no_run
/// # #[cfg(feature = "gl")]
/// # fn frame(ctx: &shadowdusk::gl::GlContext, texture: &shadowdusk::gl::GlTexture) -> Result<(), shadowdusk::gl::GlError> {
/// # shadowdusk::include_effect!("doc/tint.fx", in_process);
/// use shadowdusk::gl::{GlEffect, RenderTarget, Sprite, SpriteBatch};
///
/// let mut fx = GlEffect::<tint::Effect>::new(ctx)?;
/// let mut batch = SpriteBatch::new(ctx)?;
/// fx.params_mut().set_tint([1.0, 0.5, 0.5, 1.0]);
/// fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(texture))?;
/// let pass = fx.apply(tint::passes::sprite_drawing::P0, &RenderTarget::backbuffer(800, 480))?;
/// batch.draw(&pass, &[Sprite::new(0.0, 0.0, 64.0, 64.0)])?;
/// # Ok(())
/// # }
/// ```
///
/// Dropping it deletes its shaders and programs (on its context, which must then be current;
/// see [`GlContext`]).
pub struct GlEffect<E: Effect> {
    loaded: LoadedEffect,
    params: E::Params,
}

impl<E: Effect> GlEffect<E> {
    /// Loads `E::MGFX`: compiles every shader and links the program of every pass with a
    /// vertex shader (a pass without one is linked with the vertex shader bound when it is
    /// applied). The parameters start at `E::Params::default()`, the values MonoGame starts
    /// from.
    ///
    /// Fails when the driver refuses a shader or program (with its log), or when `E::Params`
    /// does not have the register layout of `E::MGFX` (only possible with a hand-written
    /// [`Effect`] implementation).
    pub fn new(ctx: &GlContext) -> Result<GlEffect<E>, GlError> {
        let model = mgfx::read(E::MGFX)?;
        let params = E::Params::default();
        check_layout::<E>(&model, &params)?;
        check_fingerprint::<E>(&model).map_err(|c| GlError::ParamsLayout {
            effect: E::NAME,
            what: c.0,
        })?;
        Ok(GlEffect {
            loaded: LoadedEffect::new(ctx, model, Some(E::NAME))?,
            params,
        })
    }

    /// Replaces every parameter value (a copy into the effect's own `Params`: no allocation).
    /// The registers reach GL at the next [`GlEffect::apply`].
    pub fn set_params(&mut self, params: &E::Params) {
        self.params.clone_from(params);
    }

    /// The parameter values the next [`GlEffect::apply`] uploads.
    pub fn params(&self) -> &E::Params {
        &self.params
    }

    /// The parameter values, to change in place with the generated setters.
    pub fn params_mut(&mut self) -> &mut E::Params {
        &mut self.params
    }

    /// Assigns (or clears) the texture of a texture parameter. The effect keeps a handle, so
    /// the texture stays alive while it is set.
    ///
    /// Fails, changing nothing, when the texture was made on another context
    /// ([`GlError::ForeignContext`]), or when `slot` is not a texture parameter of `E::MGFX`
    /// ([`GlError::NoSuchParameter`], [`GlError::ParameterShape`]: only possible with a
    /// hand-written [`Effect`] whose slots break [`TextureSlot::__new`]'s contract).
    pub fn set_texture(
        &mut self,
        slot: TextureSlot<E>,
        texture: Option<&GlTexture>,
    ) -> Result<(), GlError> {
        self.loaded.set_texture(slot.parameter_index(), texture)
    }

    /// The texture set for `slot`.
    pub fn texture(&self, slot: TextureSlot<E>) -> Option<&GlTexture> {
        self.loaded.textures.get(slot.parameter_index())?.as_ref()
    }

    /// Sets SpriteBatch's `MatrixTransform` used by the built-in vertex shader of pixel-only
    /// passes (`m[r][c]` = XNA `M(r+1,c+1)`; SpriteBatch passes `transformMatrix * projection`).
    /// Until set, apply uses SpriteBatch's default for the target:
    /// [`sprite_vs::default_transform`](super::sprite_vs::default_transform).
    pub fn set_sprite_transform(&mut self, m: [[f32; 4]; 4]) {
        self.loaded.sprite_transform = Some(m);
    }

    /// Goes back to SpriteBatch's default projection of the target size at each apply.
    pub fn clear_sprite_transform(&mut self) {
        self.loaded.sprite_transform = None;
    }

    /// Applies `pass` for drawing into `target`: uses its program, sets `posFixup`, uploads
    /// the parameters' registers, binds textures with their baked sampler states and applies
    /// the pass's state blocks. Allocates nothing once warm.
    ///
    /// A pass without a vertex shader draws with the one bound on the context: the last
    /// applied pass's, else SpriteBatch's ([`SpriteBatch::begin`](super::SpriteBatch::begin));
    /// the program of that pair is linked the first time it is applied.
    ///
    /// Fails when a pass without a vertex shader cannot link with the one bound
    /// ([`GlError::BoundVertexLink`]), a texture has another target than its sampler
    /// ([`GlError::TextureTarget`]),
    /// or `pass` is not a pass of `E::MGFX` ([`GlError::NoSuchPass`]: only possible with a
    /// hand-written [`Effect`]). GL's error flags are neither read nor cleared: errors the
    /// caller's earlier GL calls raised stay pending for the caller's `glGetError`.
    pub fn apply(
        &mut self,
        pass: Pass<E>,
        target: &RenderTarget,
    ) -> Result<AppliedPass<'_>, GlError> {
        self.loaded.apply(
            pass.technique_index(),
            pass.index(),
            target,
            &ParamsRegisters(&self.params),
        )
    }

    /// Swaps in another compile of `E`'s effect (shader hot reload: the same source, edited)
    /// when it has the layout `E`'s generated code was made for — the records, parameters,
    /// texture units and techniques whose fingerprint is [`Effect::LAYOUT`]; a change is named
    /// by comparing with the running effect ([`mgfx::layout::compare`]). Its shaders are
    /// compiled and its passes with a vertex shader linked before anything is replaced, so on
    /// any error the running effect stays as it was; the program bound before stays bound.
    /// Parameter values, textures and the sprite transform carry over. The old effect's
    /// programs are deleted, those of its passes without a vertex shader too (linked again
    /// when next applied), and if its vertex shader was the one bound on the context,
    /// SpriteBatch's is bound instead.
    pub fn replace_effect(&mut self, model: mgfx::Effect) -> Result<(), ReplaceError> {
        check_fits::<E>(&self.loaded.model, &model).map_err(ReplaceError::Layout)?;
        check_layout::<E>(&model, &self.params)?;
        let mut loaded = LoadedEffect::new(&self.loaded.ctx, model, Some(E::NAME))?;
        loaded.textures = std::mem::take(&mut self.loaded.textures);
        loaded.sprite_transform = self.loaded.sprite_transform;
        self.loaded = loaded;
        Ok(())
    }

    /// The effect model read from `E::MGFX`.
    pub fn effect(&self) -> &mgfx::Effect {
        &self.loaded.model
    }

    /// The context it was loaded on.
    pub fn context(&self) -> &GlContext {
        &self.loaded.ctx
    }
}

impl<E: Effect> fmt::Debug for GlEffect<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GlEffect")
            .field("effect", &E::NAME)
            .field("techniques", &self.loaded.model.techniques.len())
            .finish_non_exhaustive()
    }
}

/// Why [`GlEffect::replace_effect`] kept the running effect.
#[derive(Debug, thiserror::Error)]
pub enum ReplaceError {
    /// The new effect's layout differs (the change names the parameter or technique): `E`'s
    /// generated code cannot drive it.
    #[error("{0}")]
    Layout(mgfx::layout::LayoutChange),
    /// The driver refused a shader or program of the new effect, or it is malformed.
    #[error(transparent)]
    Gl(#[from] GlError),
}

/// Whether `params` has exactly `model`'s records, register for register: generated code
/// always has; a hand-written [`Effect`] might not.
fn check_layout<E: Effect>(model: &mgfx::Effect, params: &E::Params) -> Result<(), GlError> {
    let mismatch = |what: String| GlError::ParamsLayout {
        effect: E::NAME,
        what,
    };
    let records = &model.constant_buffers;
    if params.constant_buffer_count() != records.len() {
        return Err(mismatch(format!(
            "Params has {} constant-buffer records, the MGFX {}",
            params.constant_buffer_count(),
            records.len()
        )));
    }
    for (i, cb) in records.iter().enumerate() {
        let bytes = params.constant_buffer(i).map_or(0, |r| r.len() * 16);
        if bytes != cb.size as usize {
            return Err(mismatch(format!(
                "record {i} ('{}') is {} bytes in the MGFX but {bytes} in Params",
                cb.name, cb.size
            )));
        }
    }
    Ok(())
}
