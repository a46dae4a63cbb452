//! [`LoadedEffect`]: an MGFX effect with every pass compiled and linked, the half that typed
//! ([`GlEffect`](super::GlEffect)) and untyped ([`DynEffect`](super::DynEffect)) effects
//! share. It owns the GL shaders and programs and deletes them when dropped; it holds the
//! textures given to its texture parameters; [`apply`](super::apply) applies its passes.
//!
//! Every program is linked here, eagerly (MonoGame links on first draw), so a broken payload
//! fails at load naming technique, pass and shader, and applying a pass only looks up indices.

use glow::HasContext;

use super::program::{self, LinkedProgram, Site};
use super::validate::validate;
use super::{sprite_vs, GlContext, GlError, GlTexture, ShaderRef};
use crate::mgfx::{self, ParameterClass, ParameterType, Profile, ShaderStage};

/// Which vertex shader a program uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Vs {
    /// Shader `n` of the effect.
    Effect(usize),
    /// The built-in SpriteBatch vertex shader, for a pass with a pixel shader only.
    Sprite,
}

/// One linked (vertex, pixel) pair; passes that use the same pair share it.
pub(super) struct PassProgram {
    pub vs: Vs,
    pub ps: usize,
    pub linked: LinkedProgram,
    /// The built-in vertex shader's register array (`MatrixTransform`), for [`Vs::Sprite`].
    pub sprite_matrix: Option<glow::UniformLocation>,
}

/// An effect bound to a GL context: the model, its compiled shaders and linked programs, and
/// the textures given to its texture parameters.
pub(crate) struct LoadedEffect {
    pub(super) ctx: GlContext,
    /// The effect model; parameter values reflect the last writes through a `DynEffect`.
    pub(super) model: mgfx::Effect,
    /// The texture of each parameter (always `None` for parameters that are not textures).
    pub(super) textures: Vec<Option<GlTexture>>,
    shaders: Vec<Option<glow::Shader>>,
    sprite_vs: Option<glow::Shader>,
    pub(super) programs: Vec<PassProgram>,
    /// technique → pass → index into `programs`.
    pub(super) pass_programs: Vec<Vec<usize>>,
    /// SpriteBatch's `MatrixTransform` for pixel-only passes; `None`: the target's default.
    pub(super) sprite_transform: Option<[[f32; 4]; 4]>,
}

impl LoadedEffect {
    /// Checks the profile and every index the loader follows, compiles every shader and links
    /// every pass's program. On error, whatever was made is deleted again (by `Drop`).
    pub(crate) fn new(ctx: &GlContext, model: mgfx::Effect) -> Result<LoadedEffect, GlError> {
        if model.profile != Profile::OpenGL {
            return Err(GlError::WrongProfile(model.profile));
        }
        validate(&model)?;
        let mut loaded = LoadedEffect {
            ctx: ctx.clone(),
            textures: vec![None; model.parameters.len()],
            shaders: vec![None; model.shaders.len()],
            sprite_vs: None,
            programs: Vec::new(),
            pass_programs: Vec::new(),
            sprite_transform: None,
            model,
        };
        for t in 0..loaded.model.techniques.len() {
            let mut passes = Vec::new();
            for p in 0..loaded.model.techniques[t].passes.len() {
                passes.push(loaded.program_for(t, p)?);
            }
            loaded.pass_programs.push(passes);
        }
        Ok(loaded)
    }

    /// Compiles what pass (t, p) needs and returns its program index (one per shader pair).
    fn program_for(&mut self, t: usize, p: usize) -> Result<usize, GlError> {
        let technique = &self.model.techniques[t];
        let pass = &technique.passes[p];
        let Ok(ps) = usize::try_from(pass.pixel_shader) else {
            return Err(GlError::MissingPixelShader {
                technique: technique.name.clone(),
                pass: pass.name.clone(),
            });
        };
        let vs = usize::try_from(pass.vertex_shader).map_or(Vs::Sprite, Vs::Effect);
        if let Some(i) = self.programs.iter().position(|q| q.vs == vs && q.ps == ps) {
            return Ok(i);
        }
        let site = Site {
            technique: &technique.name,
            pass: &pass.name,
        };
        let gl = self.ctx.glow();
        let ps_shader = compiled(gl, &mut self.shaders[ps], &site, || {
            let rec = &self.model.shaders[ps];
            (rec.stage, &rec.code[..], ShaderRef::Effect(ps))
        })?;
        let (vs_shader, vs_ref, attributes) = match vs {
            Vs::Effect(i) => {
                let rec = &self.model.shaders[i];
                let s = compiled(gl, &mut self.shaders[i], &site, || {
                    (rec.stage, &rec.code[..], ShaderRef::Effect(i))
                })?;
                (s, ShaderRef::Effect(i), rec.attributes.clone())
            }
            Vs::Sprite => {
                let s = compiled(gl, &mut self.sprite_vs, &site, || {
                    let source = sprite_vs::SOURCE.as_bytes();
                    (ShaderStage::Vertex, source, ShaderRef::BuiltinSpriteVs)
                })?;
                (s, ShaderRef::BuiltinSpriteVs, sprite_vs::attributes())
            }
        };
        let mut linked = program::link(
            gl,
            vs_shader,
            ps_shader,
            vs_ref,
            ps,
            &attributes,
            &self.model.shaders[ps].samplers,
            &site,
        )?;
        // Register arrays by record, so that applying the pass needs no name look-up.
        let program = linked.program;
        let vs_records = match vs {
            Vs::Effect(i) => &self.model.shaders[i].cbuffers[..],
            Vs::Sprite => &[],
        };
        let mut cbuffers = Vec::new();
        for &record in vs_records.iter().chain(&self.model.shaders[ps].cbuffers) {
            let record = record as usize;
            if cbuffers.iter().any(|(r, _)| *r == record) {
                continue;
            }
            let name = &self.model.constant_buffers[record].name;
            // SAFETY: the context is current (`GlContext`); the program was just linked.
            if let Some(location) = unsafe { gl.get_uniform_location(program, name) } {
                cbuffers.push((record, location));
            }
        }
        linked.cbuffers = cbuffers;
        let sprite_matrix = match vs {
            // SAFETY: as above.
            Vs::Sprite => unsafe { gl.get_uniform_location(program, sprite_vs::CBUFFER) },
            Vs::Effect(_) => None,
        };
        self.programs.push(PassProgram {
            vs,
            ps,
            linked,
            sprite_matrix,
        });
        Ok(self.programs.len() - 1)
    }

    /// Sets the texture of parameter `param`, which must be a texture parameter; the texture
    /// must be of this effect's context.
    pub(crate) fn set_texture(
        &mut self,
        param: usize,
        texture: Option<&GlTexture>,
    ) -> Result<(), GlError> {
        let p = self
            .model
            .parameters
            .get(param)
            .ok_or(GlError::NoSuchParameter(param))?;
        if !is_texture(p) {
            return Err(GlError::ParameterShape {
                name: p.name.clone(),
                what: format!("is a {:?} {:?}, not a texture", p.class, p.ty),
            });
        }
        if let Some(t) = texture {
            self.ctx.expect_same(t.context(), "the texture")?;
        }
        // A clone of the handle, not a copy of the name: the texture lives while it is set.
        self.textures[param] = texture.cloned();
        Ok(())
    }
}

impl Drop for LoadedEffect {
    fn drop(&mut self) {
        let gl = self.ctx.glow();
        // SAFETY: objects made by this effect on its context, current while it is dropped
        // (`GlContext`); nothing uses them afterwards.
        unsafe {
            for p in &self.programs {
                gl.delete_program(p.linked.program);
            }
            for s in self.shaders.iter().flatten().chain(&self.sprite_vs) {
                gl.delete_shader(*s);
            }
        }
    }
}

/// The compiled shader in `slot`, compiling `source()` into it the first time.
fn compiled<'a>(
    gl: &glow::Context,
    slot: &mut Option<glow::Shader>,
    site: &Site,
    source: impl FnOnce() -> (ShaderStage, &'a [u8], ShaderRef),
) -> Result<glow::Shader, GlError> {
    if let Some(s) = *slot {
        return Ok(s);
    }
    let (stage, code, shader) = source();
    let s = program::compile(gl, stage, code, shader, site)?;
    *slot = Some(s);
    Ok(s)
}

/// Whether a parameter takes a texture.
pub(super) fn is_texture(p: &mgfx::Parameter) -> bool {
    p.class == ParameterClass::Object
        && matches!(
            p.ty,
            ParameterType::Texture
                | ParameterType::Texture1D
                | ParameterType::Texture2D
                | ParameterType::Texture3D
                | ParameterType::TextureCube
        )
}
