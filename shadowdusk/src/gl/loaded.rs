//! [`LoadedEffect`]: an MGFX effect with every pass compiled and linked, the half that typed
//! ([`GlEffect`](super::GlEffect)) and untyped ([`DynEffect`](super::DynEffect)) effects
//! share. It owns the GL shaders and programs and deletes them when dropped; it holds the
//! textures given to its texture parameters; [`apply`](super::apply) applies its passes.
//!
//! Every shader is compiled and every pass with a vertex shader linked here, eagerly (MonoGame
//! links on first draw), so a broken payload fails at load naming technique, pass and shader.
//! A pass without a vertex shader draws with the vertex shader bound when it is applied
//! ([`bound_vs`](super::bound_vs)), as MonoGame does: its program is linked for that pair at
//! apply and kept, and a pair that cannot link is an error there, not at load.

use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use glow::HasContext;

use super::bound_vs::EffectVs;
use super::program::{self, LinkedProgram, Site};
use super::validate::validate;
use super::{sprite_vs, GlContext, GlError, GlTexture, ShaderRef};
use crate::mgfx::{self, ParameterClass, ParameterType, Profile, ShaderStage};

/// The id the next loaded effect gets; never reused within a process, so a program linked with
/// a dropped effect's vertex shader is never taken for another's.
static NEXT_EFFECT: AtomicU64 = AtomicU64::new(1);

/// Which vertex shader a program uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Vs {
    /// Shader `n` of the effect, the pass's own.
    Effect(usize),
    /// The built-in SpriteBatch vertex shader, bound when a pixel-only pass was applied.
    Sprite,
    /// Shader `index` of the effect with id `effect` (this one or another of the context),
    /// bound when a pixel-only pass was applied; its registers come from the binding.
    Bound { effect: u64, index: usize },
}

/// One linked (vertex, pixel) pair; passes that use the same pair share it.
pub(super) struct PassProgram {
    pub vs: Vs,
    pub ps: usize,
    pub linked: LinkedProgram,
    /// The built-in vertex shader's register array (`MatrixTransform`), for [`Vs::Sprite`].
    pub sprite_matrix: Option<glow::UniformLocation>,
    /// For [`Vs::Bound`]: (record of the vertex shader's effect, location) of its register
    /// arrays, uploaded from the registers bound with it. `linked.cbuffers` then has the pixel
    /// shader's only.
    pub bound_cbuffers: Vec<(usize, glow::UniformLocation)>,
}

/// An effect bound to a GL context: the model, its compiled shaders and linked programs, and
/// the textures given to its texture parameters.
pub(crate) struct LoadedEffect {
    pub(super) ctx: GlContext,
    /// This load's id (a hot reload's new effect gets a new one).
    id: u64,
    /// The typed effect's name (`Effect::NAME`), for messages; `None` for a `DynEffect`.
    name: Option<&'static str>,
    /// The effect model; parameter values reflect the last writes through a `DynEffect`.
    pub(super) model: mgfx::Effect,
    /// The texture of each parameter (always `None` for parameters that are not textures).
    pub(super) textures: Vec<Option<GlTexture>>,
    shaders: Vec<Option<glow::Shader>>,
    /// Each vertex shader a pass uses, as the context binds it.
    vertex: Vec<Option<Rc<EffectVs>>>,
    sprite_vs: Option<glow::Shader>,
    pub(super) programs: Vec<PassProgram>,
    /// technique → pass → index into `programs`; `None` for a pass without a vertex shader
    /// (its program depends on what is bound when it is applied).
    pub(super) pass_programs: Vec<Vec<Option<usize>>>,
    /// SpriteBatch's `MatrixTransform` for pixel-only passes; `None`: the target's default.
    pub(super) sprite_transform: Option<[[f32; 4]; 4]>,
}

impl LoadedEffect {
    /// Checks the profile and every index the loader follows, compiles every shader and links
    /// every pass that has a vertex shader. On error, whatever was made is deleted again (by
    /// `Drop`).
    pub(crate) fn new(
        ctx: &GlContext,
        model: mgfx::Effect,
        name: Option<&'static str>,
    ) -> Result<LoadedEffect, GlError> {
        if model.profile != Profile::OpenGL {
            return Err(GlError::WrongProfile(model.profile));
        }
        validate(&model)?;
        let mut loaded = LoadedEffect {
            ctx: ctx.clone(),
            id: NEXT_EFFECT.fetch_add(1, Ordering::Relaxed),
            name,
            textures: vec![None; model.parameters.len()],
            shaders: vec![None; model.shaders.len()],
            vertex: vec![None; model.shaders.len()],
            sprite_vs: None,
            programs: Vec::new(),
            pass_programs: Vec::new(),
            sprite_transform: None,
            model,
        };
        loaded.ctx.bound_vs().add_effect(loaded.id);
        for t in 0..loaded.model.techniques.len() {
            let mut passes = Vec::new();
            for p in 0..loaded.model.techniques[t].passes.len() {
                passes.push(loaded.program_for(t, p)?);
            }
            loaded.pass_programs.push(passes);
        }
        Ok(loaded)
    }

    /// The pixel shader of pass (t, p), or [`GlError::MissingPixelShader`].
    fn pixel_shader(&self, t: usize, p: usize) -> Result<usize, GlError> {
        let technique = &self.model.techniques[t];
        let pass = &technique.passes[p];
        usize::try_from(pass.pixel_shader).map_err(|_| GlError::MissingPixelShader {
            technique: technique.name.clone(),
            pass: pass.name.clone(),
        })
    }

    /// Compiles what pass (t, p) needs and, when it has a vertex shader, links its program
    /// and returns its index (one per shader pair).
    fn program_for(&mut self, t: usize, p: usize) -> Result<Option<usize>, GlError> {
        let ps = self.pixel_shader(t, p)?;
        let technique = &self.model.techniques[t];
        let pass = &technique.passes[p];
        let site = Site {
            technique: &technique.name,
            pass: &pass.name,
        };
        let gl = self.ctx.glow();
        let ps_shader = compiled(gl, &mut self.shaders[ps], &site, || {
            let rec = &self.model.shaders[ps];
            (rec.stage, &rec.code[..], ShaderRef::Effect(ps))
        })?;
        let Ok(vs) = usize::try_from(pass.vertex_shader) else {
            return Ok(None);
        };
        if let Some(i) = self
            .programs
            .iter()
            .position(|q| q.vs == Vs::Effect(vs) && q.ps == ps)
        {
            return Ok(Some(i));
        }
        let rec = &self.model.shaders[vs];
        let vs_shader = compiled(gl, &mut self.shaders[vs], &site, || {
            (rec.stage, &rec.code[..], ShaderRef::Effect(vs))
        })?;
        if self.vertex[vs].is_none() {
            let records = rec
                .cbuffers
                .iter()
                .map(|&r| {
                    let r = usize::from(r);
                    (r, self.model.constant_buffers[r].name.clone())
                })
                .collect();
            self.vertex[vs] = Some(Rc::new(EffectVs {
                effect: self.id,
                index: vs,
                shader: vs_shader,
                attributes: rec.attributes.clone(),
                records,
                label: self.describe(ShaderStage::Vertex, vs, t, p),
            }));
        }
        let mut linked = program::link(
            gl,
            vs_shader,
            ps_shader,
            ShaderRef::Effect(vs),
            ps,
            &rec.attributes,
            &self.model.shaders[ps].samplers,
            &site,
        )?;
        linked.cbuffers = self.locations(linked.program, rec.cbuffers.iter().copied(), ps);
        self.programs.push(PassProgram {
            vs: Vs::Effect(vs),
            ps,
            linked,
            sprite_matrix: None,
            bound_cbuffers: Vec::new(),
        });
        Ok(Some(self.programs.len() - 1))
    }

    /// The program of pixel-only pass (t, p) with the vertex shader bound on the context,
    /// linked the first time the pair is applied.
    pub(super) fn bound_program(&mut self, t: usize, p: usize) -> Result<usize, GlError> {
        let ps = self.pixel_shader(t, p)?;
        let bound = self.ctx.bound_vs().shader.clone();
        let key = match &bound {
            None => Vs::Sprite,
            Some(vs) => Vs::Bound {
                effect: vs.effect,
                index: vs.index,
            },
        };
        if let Some(i) = self.programs.iter().position(|q| q.vs == key && q.ps == ps) {
            return Ok(i);
        }
        self.delete_orphans();
        let technique = &self.model.techniques[t];
        let pass = &technique.passes[p];
        let site = Site {
            technique: &technique.name,
            pass: &pass.name,
        };
        let gl = self.ctx.glow();
        let ps_shader = compiled(gl, &mut self.shaders[ps], &site, || {
            let rec = &self.model.shaders[ps];
            (rec.stage, &rec.code[..], ShaderRef::Effect(ps))
        })?;
        let sprite_attributes;
        let (vs_shader, vs_ref, attributes, vertex_label) = match &bound {
            None => {
                let s = compiled(gl, &mut self.sprite_vs, &site, || {
                    let source = sprite_vs::SOURCE.as_bytes();
                    (ShaderStage::Vertex, source, ShaderRef::BuiltinSpriteVs)
                })?;
                sprite_attributes = sprite_vs::attributes();
                let label = "SpriteBatch's vertex shader (bound when nothing else was, or by \
                             SpriteBatch::begin)";
                (
                    s,
                    ShaderRef::BuiltinSpriteVs,
                    &sprite_attributes[..],
                    label.to_string(),
                )
            }
            Some(vs) => (
                vs.shader,
                ShaderRef::Effect(vs.index),
                &vs.attributes[..],
                vs.label.clone(),
            ),
        };
        let mut linked = program::link(
            gl,
            vs_shader,
            ps_shader,
            vs_ref,
            ps,
            attributes,
            &self.model.shaders[ps].samplers,
            &site,
        )
        .map_err(|e| match e {
            GlError::Link { log, .. } => GlError::BoundVertexLink {
                vertex: vertex_label,
                pixel: self.describe(ShaderStage::Pixel, ps, t, p),
                log,
            },
            other => other,
        })?;
        let program = linked.program;
        linked.cbuffers = self.locations(program, std::iter::empty(), ps);
        let mut bound_cbuffers = Vec::new();
        for (record, name) in bound.iter().flat_map(|vs| &vs.records) {
            // SAFETY: the context is current (`GlContext`); the program was just linked.
            if let Some(location) = unsafe { gl.get_uniform_location(program, name) } {
                bound_cbuffers.push((*record, location));
            }
        }
        let sprite_matrix = match bound {
            // SAFETY: as above.
            None => unsafe { gl.get_uniform_location(program, sprite_vs::CBUFFER) },
            Some(_) => None,
        };
        self.programs.push(PassProgram {
            vs: key,
            ps,
            linked,
            sprite_matrix,
            bound_cbuffers,
        });
        Ok(self.programs.len() - 1)
    }

    /// Deletes the programs linked with the vertex shader of another effect since dropped (or
    /// replaced by a hot reload): no pass can be applied with it again. Only such programs
    /// are removed, and they come after every pass's own (linked at load), so the indices in
    /// `pass_programs` stay valid.
    fn delete_orphans(&mut self) {
        let gl = self.ctx.glow();
        let bound = self.ctx.bound_vs();
        self.programs.retain(|p| match p.vs {
            Vs::Bound { effect, .. } if !bound.is_live(effect) => {
                // SAFETY: a program of this effect on its current context (`GlContext`),
                // found by no pass again.
                unsafe { gl.delete_program(p.linked.program) };
                false
            }
            _ => true,
        });
    }

    /// (record, location) of the register arrays `vs_records` and pixel shader `ps` read that
    /// the driver kept in `program`, so that applying the pass needs no name look-up.
    fn locations(
        &self,
        program: glow::Program,
        vs_records: impl Iterator<Item = u8>,
        ps: usize,
    ) -> Vec<(usize, glow::UniformLocation)> {
        let gl = self.ctx.glow();
        let mut cbuffers: Vec<(usize, glow::UniformLocation)> = Vec::new();
        for record in vs_records.chain(self.model.shaders[ps].cbuffers.iter().copied()) {
            let record = usize::from(record);
            if cbuffers.iter().any(|(r, _)| *r == record) {
                continue;
            }
            let name = &self.model.constant_buffers[record].name;
            // SAFETY: the context is current (`GlContext`); the program was just linked.
            if let Some(location) = unsafe { gl.get_uniform_location(program, name) } {
                cbuffers.push((record, location));
            }
        }
        cbuffers
    }

    /// How errors name shader `index` (of `stage`) of this effect, applied in pass (t, p).
    fn describe(&self, stage: ShaderStage, index: usize, t: usize, p: usize) -> String {
        let technique = &self.model.techniques[t];
        let stage = match stage {
            ShaderStage::Vertex => "vertex",
            ShaderStage::Pixel => "pixel",
        };
        let effect = match self.name {
            Some(name) => format!("effect `{name}`"),
            None => "a DynEffect".to_string(),
        };
        format!(
            "{stage} shader {index} of {effect} (technique '{}' pass '{}')",
            technique.name, technique.passes[p].name
        )
    }

    /// Binds this effect's vertex shader `vs` on the context with its records' registers, as
    /// applying a pass with a vertex shader does.
    pub(super) fn bind_vertex<R: super::apply::Registers + ?Sized>(
        &self,
        vs: usize,
        registers: &R,
    ) {
        if let Some(shader) = &self.vertex[vs] {
            self.ctx.bound_vs().bind(shader, registers);
        }
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
        // Its vertex shaders are deleted below: no later pass may link with them.
        self.ctx.bound_vs().forget_effect(self.id);
        let gl = self.ctx.glow();
        // SAFETY: objects made by this effect on its context, current while it is dropped
        // (`GlContext`); nothing uses them afterwards (programs of other effects linked with a
        // vertex shader of this one keep it attached, which GL keeps alive until they go).
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
