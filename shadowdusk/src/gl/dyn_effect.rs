//! [`DynEffect`]: an effect whose bytes arrive at run time (a `.mgfx` file, a hot reload, an
//! effect built in code), so nothing about it is known to the type system. Techniques, passes
//! and parameters are found by name or index, and every look-up or write that does not fit the
//! effect is an `Err` saying so, never a panic.

use std::fmt;

use super::apply::{ParamsRegisters, Registers};
use super::loaded::LoadedEffect;
use super::{cbuffer_bytes, params, AppliedPass, GlContext, GlError, GlTexture, RenderTarget};
use crate::mgfx;
use crate::params::EffectParams;

/// A pass of a [`DynEffect`], by MGFX indices. Find one with [`DynEffect::pass`] (by names) or
/// [`DynEffect::pass_at`] (checked indices); [`DynEffect::apply`] checks it again, since
/// nothing ties it to one effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DynPass {
    /// Technique index.
    pub technique: usize,
    /// Pass index within the technique.
    pub pass: usize,
}

/// An effect loaded from bytes at run time: every pass compiled and linked, parameters set by
/// index as MonoGame's `EffectParameter.SetValue` sets them.
///
/// For an effect known at build time use [`GlEffect`](super::GlEffect), which checks all of
/// this at compile time. Dropping it deletes its shaders and programs (on its context, which
/// must then be current; see [`GlContext`]).
pub struct DynEffect {
    loaded: LoadedEffect,
    /// The register image of each constant-buffer record, as last uploaded.
    images: Vec<Vec<f32>>,
    /// Records whose image is older than the parameter values (rebuilt when a pass needs them).
    stale: Vec<bool>,
    /// [`DynEffect::set_params`] gave the images; parameter values are ignored until
    /// [`DynEffect::clear_params`].
    from_params: bool,
}

impl DynEffect {
    /// Reads MGFX bytes, checks the profile is OpenGL, compiles every shader and links the
    /// program of every pass with a vertex shader.
    pub fn new(ctx: &GlContext, bytes: &[u8]) -> Result<DynEffect, GlError> {
        DynEffect::from_effect(ctx, mgfx::read(bytes)?)
    }

    /// Like [`DynEffect::new`] for an effect already in memory.
    pub fn from_effect(ctx: &GlContext, effect: mgfx::Effect) -> Result<DynEffect, GlError> {
        let records = effect.constant_buffers.len();
        Ok(DynEffect {
            loaded: LoadedEffect::new(ctx, effect, None)?,
            images: vec![Vec::new(); records],
            stale: vec![true; records],
            from_params: false,
        })
    }

    /// The effect model (parameter values reflect the last writes).
    pub fn effect(&self) -> &mgfx::Effect {
        &self.loaded.model
    }

    /// The context it was loaded on.
    pub fn context(&self) -> &GlContext {
        &self.loaded.ctx
    }

    /// Index of the first technique named `name`.
    pub fn technique(&self, name: &str) -> Result<usize, GlError> {
        let techniques = &self.loaded.model.techniques;
        techniques
            .iter()
            .position(|t| t.name == name)
            .ok_or_else(|| GlError::UnknownTechnique {
                name: name.to_string(),
                known: techniques.iter().map(|t| t.name.clone()).collect(),
            })
    }

    /// The first pass named `pass` of the first technique named `technique`.
    pub fn pass(&self, technique: &str, pass: &str) -> Result<DynPass, GlError> {
        let t = self.technique(technique)?;
        let passes = &self.loaded.model.techniques[t].passes;
        match passes.iter().position(|p| p.name == pass) {
            Some(p) => Ok(DynPass {
                technique: t,
                pass: p,
            }),
            None => Err(GlError::UnknownPass {
                technique: technique.to_string(),
                name: pass.to_string(),
                known: passes.iter().map(|p| p.name.clone()).collect(),
            }),
        }
    }

    /// Pass `pass` of technique `technique`, when the effect has it.
    pub fn pass_at(&self, technique: usize, pass: usize) -> Result<DynPass, GlError> {
        self.loaded.program_index(technique, pass)?;
        Ok(DynPass { technique, pass })
    }

    /// The passes of technique `technique`, in order (none when there is no such technique).
    pub fn passes(&self, technique: usize) -> impl Iterator<Item = DynPass> {
        let count = self.loaded.pass_programs.get(technique).map_or(0, Vec::len);
        (0..count).map(move |pass| DynPass { technique, pass })
    }

    /// Index of the first top-level parameter named `name`.
    pub fn parameter(&self, name: &str) -> Result<usize, GlError> {
        self.loaded
            .model
            .parameters
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| GlError::UnknownParameter(name.to_string()))
    }

    fn value_param_mut(&mut self, param: usize) -> Result<&mut mgfx::Parameter, GlError> {
        let p = self
            .loaded
            .model
            .parameters
            .get_mut(param)
            .ok_or(GlError::NoSuchParameter(param))?;
        // Any value may sit in any record; each is rebuilt when a pass next needs it.
        self.stale.fill(true);
        Ok(p)
    }

    /// Sets a value parameter from raw data (matrices column by column: `data[c*rows + r]`;
    /// arrays: elements concatenated). The count must match exactly.
    pub fn set_values(&mut self, param: usize, values: &[f32]) -> Result<(), GlError> {
        params::set_values(self.value_param_mut(param)?, values)
    }

    /// MonoGame `SetValue(Matrix)`: `m[r][c]` is XNA's `M(r+1, c+1)`; stored column by column for
    /// the parameter's rows×columns (4×4, 4×3, 4×2, 3×4, 3×3, 3×2).
    pub fn set_matrix(&mut self, param: usize, m: [[f32; 4]; 4]) -> Result<(), GlError> {
        params::set_matrix(self.value_param_mut(param)?, m)
    }

    /// Assigns (or clears) the texture of texture parameter `param`. The effect keeps a
    /// handle, so the texture stays alive while it is set. Fails on a parameter that is not a
    /// texture, and on a texture of another context ([`GlError::ForeignContext`]).
    pub fn set_texture(
        &mut self,
        param: usize,
        texture: Option<&GlTexture>,
    ) -> Result<(), GlError> {
        self.loaded.set_texture(param, texture)
    }

    /// Takes every constant-buffer record from a generated `Params` struct whose effect has
    /// this one's layout (the same effect reloaded at run time, say), replacing what
    /// [`DynEffect::set_values`] and [`DynEffect::set_matrix`] wrote until
    /// [`DynEffect::clear_params`]. The effect is recognised only by its records, so this
    /// fails, changing nothing, when their count or sizes differ. After the first call it
    /// allocates nothing.
    pub fn set_params<P: EffectParams + ?Sized>(&mut self, params: &P) -> Result<(), GlError> {
        let records = &self.loaded.model.constant_buffers;
        if params.constant_buffer_count() != records.len() {
            return Err(GlError::Malformed(format!(
                "the typed parameters have {} constant-buffer records, the effect {}; were they generated for another effect?",
                params.constant_buffer_count(),
                records.len()
            )));
        }
        for (i, cb) in records.iter().enumerate() {
            let registers = params.constant_buffer(i).map_or(0, <[_]>::len);
            if registers * 16 != cb.size as usize {
                return Err(GlError::Malformed(format!(
                    "constant buffer '{}' ({i}) is {} bytes in the effect but {} in the typed parameters; were they generated for another effect?",
                    cb.name,
                    cb.size,
                    registers * 16
                )));
            }
        }
        let typed = ParamsRegisters(params);
        for (i, image) in self.images.iter_mut().enumerate() {
            image.clear();
            image.extend_from_slice(typed.record(i).unwrap_or(&[]));
        }
        self.from_params = true;
        Ok(())
    }

    /// Goes back to uploading the values set through [`DynEffect::set_values`] and friends.
    pub fn clear_params(&mut self) {
        self.from_params = false;
        self.stale.fill(true);
    }

    /// Sets SpriteBatch's `MatrixTransform` used by the built-in vertex shader of pixel-only
    /// passes (`m[r][c]` = XNA `M(r+1,c+1)`). Until set, apply uses SpriteBatch's default for
    /// the target: [`sprite_vs::default_transform`](super::sprite_vs::default_transform).
    pub fn set_sprite_transform(&mut self, m: [[f32; 4]; 4]) {
        self.loaded.sprite_transform = Some(m);
    }

    /// Goes back to SpriteBatch's default projection of the target size at each apply.
    pub fn clear_sprite_transform(&mut self) {
        self.loaded.sprite_transform = None;
    }

    /// Applies `pass` for drawing into `target`, like [`GlEffect::apply`](super::GlEffect::apply).
    ///
    /// Fails on a pass the effect does not have ([`GlError::NoSuchPass`]), a pass without a
    /// vertex shader that cannot link with the one bound ([`GlError::BoundVertexLink`]),
    /// parameter values
    /// MonoGame could not upload either ([`GlError::CbufferOverrun`]) or a texture of the wrong
    /// target. GL's error flags are neither read nor cleared.
    pub fn apply(
        &mut self,
        pass: DynPass,
        target: &RenderTarget,
    ) -> Result<AppliedPass<'_>, GlError> {
        self.loaded.program_index(pass.technique, pass.pass)?;
        if !self.from_params {
            let model = &self.loaded.model;
            let pass_rec = &model.techniques[pass.technique].passes[pass.pass];
            // The records of the pass's own shaders; a bound vertex shader's registers were
            // taken when its pass was applied.
            let shaders = [pass_rec.vertex_shader, pass_rec.pixel_shader];
            let records = shaders
                .into_iter()
                .filter_map(|s| usize::try_from(s).ok())
                .flat_map(|s| model.shaders[s].cbuffers.iter().map(|&r| usize::from(r)));
            for record in records {
                if !self.stale[record] {
                    continue;
                }
                let bytes = cbuffer_bytes(&model.constant_buffers[record], &model.parameters)?;
                let image = &mut self.images[record];
                image.clear();
                image.extend(
                    bytes
                        .chunks_exact(4)
                        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                );
                self.stale[record] = false;
            }
        }
        self.loaded
            .apply(pass.technique, pass.pass, target, &self.images[..])
    }
}

impl fmt::Debug for DynEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self
            .loaded
            .model
            .techniques
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        f.debug_struct("DynEffect")
            .field("techniques", &names)
            .finish_non_exhaustive()
    }
}
