//! Applying a pass, as MonoGame's `EffectPass.Apply` plus the draw-time
//! `GraphicsDevice.ActivateShaderProgram` do it: program use, `posFixup`, constant-buffer
//! upload (`glUniform4fv` of each whole register array), texture binding with the baked
//! sampler states, and the pass's blend / depth-stencil / rasterizer blocks.
//!
//! Applying is on every draw's path, so it allocates nothing and looks nothing up by name:
//! locations come from link time, registers from the caller's [`Registers`], and error text is
//! only built when there is an error.

use std::fmt;

use glow::HasContext;

use super::loaded::{LoadedEffect, Vs};
use super::{sampler, sprite_vs, states, GlContext, GlError, GlTexture};
use crate::mgfx::{SamplerType, VertexElementUsage};
use crate::params::EffectParams;

/// The framebuffer a pass is applied for; decides `posFixup` and the cull winding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderTarget {
    /// Viewport width in pixels.
    pub width: u32,
    /// Viewport height in pixels.
    pub height: u32,
    /// A render target (FBO) is bound: MonoGame flips y (`posFixup.y = -1`) so the image is stored
    /// top row first, and flips the cull winding.
    pub is_render_target: bool,
    /// `GraphicsDevice.UseHalfPixelOffset` (D3D9 half-pixel convention).
    pub half_pixel_offset: bool,
}

/// What the caller needs after applying a pass to set up vertices and draw. It borrows the
/// effect, so the effect cannot apply another pass, or change its parameters or textures, while
/// this one is being drawn with.
///
/// Another effect can still apply a pass in between (`fx_b.apply(…)` after `fx_a.apply(…)`),
/// which makes its program current and binds its textures. Drawing through
/// [`SpriteBatch::draw`](super::SpriteBatch::draw), or after [`AppliedPass::bind`] in your own
/// draw code, makes this pass's program and textures current again first, so the draw uses
/// the pass it was given. The pass's blend / depth-stencil / rasterizer blocks are device
/// state, as in MonoGame: the last pass applied (or your own GL calls) decides them.
#[derive(Clone, Copy)]
pub struct AppliedPass<'a> {
    effect: &'a LoadedEffect,
    /// Index into the effect's `programs`.
    program: usize,
    technique: usize,
    pass: usize,
}

impl AppliedPass<'_> {
    /// The pass's program (current right after apply; [`AppliedPass::bind`] makes it current
    /// again).
    pub fn program(&self) -> glow::Program {
        self.effect.programs[self.program].linked.program
    }

    /// Location of the vertex attribute with this (usage, usage index), as MonoGame matches
    /// vertex-declaration elements (first record with the pair). `None` when the vertex shader has
    /// no such attribute or the driver optimised it away; such elements are not fed.
    pub fn attribute_location(&self, usage: VertexElementUsage, index: u8) -> Option<u32> {
        self.effect.programs[self.program]
            .linked
            .attributes
            .iter()
            .find(|(u, i, _)| *u == usage && *i == index)
            .and_then(|(_, _, loc)| *loc)
    }

    /// Makes this pass's program current and binds its textures (with their baked sampler
    /// states) to its texture units again: what a draw call needs when another pass may have
    /// been applied since. Uniforms live in the program, so they need no upload.
    /// [`SpriteBatch::draw`](super::SpriteBatch::draw) calls it; call it before your own draw
    /// calls.
    pub fn bind(&self) {
        let gl = self.effect.ctx.glow();
        // SAFETY: the context is current (`GlContext`); the program is this effect's, and its
        // textures were checked against their samplers' targets when the pass was applied
        // (the effect is borrowed, so they have not changed since).
        unsafe { gl.use_program(Some(self.program())) };
        let bound = self
            .effect
            .bind_textures(self.program, self.technique, self.pass);
        debug_assert!(bound.is_ok(), "textures were checked at apply");
    }

    /// The context of the effect the pass belongs to.
    pub fn context(&self) -> &GlContext {
        &self.effect.ctx
    }
}

impl PartialEq for AppliedPass<'_> {
    /// The same pass of the same effect.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.effect, other.effect)
            && (self.technique, self.pass) == (other.technique, other.pass)
    }
}

impl fmt::Debug for AppliedPass<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let technique = &self.effect.model.techniques[self.technique];
        f.debug_struct("AppliedPass")
            .field("technique", &technique.name)
            .field("pass", &technique.passes[self.pass].name)
            .field("program", &self.program())
            .finish()
    }
}

/// Where the register image of each constant-buffer record comes from when a pass is applied.
pub(super) trait Registers {
    /// The floats of record `record` (`size / 4` of them), or `None` to upload nothing for it.
    fn record(&self, record: usize) -> Option<&[f32]>;
}

/// A generated `Params` (or anything else handing out records by index).
pub(super) struct ParamsRegisters<'a, P: ?Sized>(pub &'a P);

impl<P: EffectParams + ?Sized> Registers for ParamsRegisters<'_, P> {
    fn record(&self, record: usize) -> Option<&[f32]> {
        self.0
            .constant_buffer(record)
            .map(<[[f32; 4]]>::as_flattened)
    }
}

impl Registers for [Vec<f32>] {
    fn record(&self, record: usize) -> Option<&[f32]> {
        self.get(record).map(Vec::as_slice)
    }
}

impl LoadedEffect {
    /// Applies pass `pass` of technique `technique` for drawing into `target`, uploading each
    /// record the pass's shaders read from `registers`.
    ///
    /// GL's error flags are left alone: `glGetError` returns and clears one flag per call, so
    /// reading them here would take errors of the caller's earlier calls, which only the caller
    /// can attribute. Every index was checked at load and every texture's target is checked
    /// before binding, so the calls below raise no error of their own on a working context;
    /// were one raised (a lost context, out of memory), it stays pending for the caller's
    /// `glGetError` like that of any GL call.
    pub(super) fn apply<R: Registers + ?Sized>(
        &mut self,
        technique: usize,
        pass: usize,
        target: &RenderTarget,
        registers: &R,
    ) -> Result<AppliedPass<'_>, GlError> {
        let index = match self.program_index(technique, pass)? {
            Some(own) => own,
            None => self.bound_program(technique, pass)?,
        };
        let this: &LoadedEffect = self;
        let pass_rec = &this.model.techniques[technique].passes[pass];
        let program = &this.programs[index];
        let linked = &program.linked;
        let gl = this.ctx.glow();
        // SAFETY: the context is current (`GlContext`); every object used is this effect's,
        // every index was checked at load, and each upload is a slice GL reads whole.
        unsafe {
            gl.use_program(Some(linked.program));
            if let Some(loc) = &linked.pos_fixup {
                gl.uniform_4_f32_slice(Some(loc), &pos_fixup(target));
            }
            if let (Vs::Sprite, Some(loc)) = (program.vs, &program.sprite_matrix) {
                let m = this.sprite_transform.unwrap_or_else(|| {
                    sprite_vs::default_transform(
                        target.width,
                        target.height,
                        target.half_pixel_offset,
                    )
                });
                gl.uniform_4_f32_slice(Some(loc), &sprite_vs::cbuffer_floats(m));
            }
            upload(gl, &linked.cbuffers, registers);
            if !program.bound_cbuffers.is_empty() {
                // The bound vertex shader's registers, as they were when its pass was applied
                // (MonoGame keeps that pass's vertex constant buffers bound).
                upload(gl, &program.bound_cbuffers, &*this.ctx.bound_vs());
            }
        }
        if let Vs::Effect(vs) = program.vs {
            this.bind_vertex(vs, registers);
        }
        this.bind_textures(index, technique, pass)?;
        if let Some(b) = &pass_rec.blend {
            states::apply_blend(gl, b);
        }
        if let Some(d) = &pass_rec.depth_stencil {
            states::apply_depth_stencil(gl, d);
        }
        if let Some(r) = &pass_rec.rasterizer {
            states::apply_rasterizer(gl, r, target.is_render_target)
                .map_err(|log| this.unsupported(technique, pass, "its rasterizer state", log))?;
        }
        Ok(AppliedPass {
            effect: this,
            program: index,
            technique,
            pass,
        })
    }

    /// Binds the texture of each sampler of program `index`'s pixel shader to the sampler's
    /// unit, with its baked sampler state; a sampler without a texture gets none (it samples
    /// black, as in MonoGame). Refuses a texture whose target is not the sampler's.
    fn bind_textures(&self, index: usize, technique: usize, pass: usize) -> Result<(), GlError> {
        let gl = self.ctx.glow();
        for s in &self.model.shaders[self.programs[index].ps].samplers {
            let sampler_target = gl_target(s.ty);
            let texture = self.textures[s.parameter as usize].as_ref();
            if let Some(tex) = texture.filter(|t| t.target() != sampler_target) {
                let tech_rec = &self.model.techniques[technique];
                return Err(GlError::TextureTarget {
                    technique: tech_rec.name.clone(),
                    pass: tech_rec.passes[pass].name.clone(),
                    sampler: s.name.clone(),
                    expected: sampler_target,
                    got: tex.target(),
                });
            }
            // SAFETY: the context is current (`GlContext`); the texture is of this context
            // (checked when it was set) and of the sampler's target.
            unsafe {
                gl.active_texture(glow::TEXTURE0 + s.texture_slot as u32);
                gl.bind_texture(sampler_target, texture.map(GlTexture::raw));
                // A sampler without its own state takes the device's for its slot
                // (`SamplerStates[n]`), once the device has them.
                let state = match &s.state {
                    Some(state) => Some(*state),
                    None => self.ctx.device_sampler(usize::from(s.texture_slot)),
                };
                if let (Some(state), Some(_)) = (&state, texture) {
                    sampler::apply(gl, sampler_target, state).map_err(|log| {
                        let what = format!("the sampler state of `{}`", s.name);
                        self.unsupported(technique, pass, &what, log)
                    })?;
                }
            }
        }
        Ok(())
    }

    /// [`GlError::Driver`]: the context cannot do `what` of pass (`technique`, `pass`).
    fn unsupported(&self, technique: usize, pass: usize, what: &str, log: String) -> GlError {
        let tech_rec = &self.model.techniques[technique];
        GlError::Driver {
            context: format!(
                "applying {what} of pass `{}` of technique `{}`",
                tech_rec.passes[pass].name, tech_rec.name
            ),
            log,
        }
    }

    /// The index into `programs` of pass (`technique`, `pass`) (`None` for a pass without a
    /// vertex shader, whose program is the bound vertex shader's), or [`GlError::NoSuchPass`].
    pub(super) fn program_index(
        &self,
        technique: usize,
        pass: usize,
    ) -> Result<Option<usize>, GlError> {
        self.pass_programs
            .get(technique)
            .and_then(|p| p.get(pass))
            .copied()
            .ok_or(GlError::NoSuchPass {
                technique,
                pass,
                techniques: self.pass_programs.len(),
            })
    }
}

/// Uploads each record of `cbuffers` that `registers` has (`glUniform4fv` of the whole array).
///
/// # Safety
/// The context is current and the locations are of the program in use.
unsafe fn upload<R: Registers + ?Sized>(
    gl: &glow::Context,
    cbuffers: &[(usize, glow::UniformLocation)],
    registers: &R,
) {
    for (record, loc) in cbuffers {
        match registers.record(*record) {
            // SAFETY: the caller's promise.
            Some(floats) if !floats.is_empty() => unsafe {
                gl.uniform_4_f32_slice(Some(loc), floats);
            },
            _ => {}
        }
    }
}

/// `posFixup` per glsl-dialect.md §7.
fn pos_fixup(target: &RenderTarget) -> [f32; 4] {
    let mut f = [1.0, 1.0, 0.0, 0.0];
    if target.half_pixel_offset {
        f[2] = (63.0 / 64.0) / target.width.max(1) as f32;
        f[3] = -(63.0 / 64.0) / target.height.max(1) as f32;
    }
    if target.is_render_target {
        f[1] = -f[1];
        f[3] = -f[3];
    }
    f
}

fn gl_target(ty: SamplerType) -> u32 {
    match ty {
        SamplerType::Sampler2D => glow::TEXTURE_2D,
        SamplerType::SamplerCube => glow::TEXTURE_CUBE_MAP,
        SamplerType::SamplerVolume => glow::TEXTURE_3D,
        SamplerType::Sampler1D => glow::TEXTURE_1D,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_fixup_flips_y_and_w_for_render_targets() {
        let mut t = RenderTarget {
            width: 64,
            height: 32,
            is_render_target: false,
            half_pixel_offset: false,
        };
        assert_eq!(pos_fixup(&t), [1.0, 1.0, 0.0, 0.0]);
        t.half_pixel_offset = true;
        assert_eq!(
            pos_fixup(&t),
            [1.0, 1.0, 63.0 / 64.0 / 64.0, -(63.0 / 64.0) / 32.0]
        );
        t.is_render_target = true;
        assert_eq!(
            pos_fixup(&t),
            [1.0, -1.0, 63.0 / 64.0 / 64.0, (63.0 / 64.0) / 32.0]
        );
    }

    #[test]
    fn registers_come_from_params_records() {
        struct Two([[f32; 4]; 2]);
        impl EffectParams for Two {
            fn constant_buffer(&self, record: usize) -> Option<&[[f32; 4]]> {
                (record == 0).then_some(&self.0[..])
            }
            fn constant_buffer_count(&self) -> usize {
                1
            }
        }
        let two = Two([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]);
        let r = ParamsRegisters(&two);
        assert_eq!(r.record(0).map(<[f32]>::len), Some(8));
        assert_eq!(r.record(1), None);
        let images: &[Vec<f32>] = &[vec![1.0; 4]];
        assert_eq!(images.record(0), Some(&[1.0; 4][..]));
    }
}
