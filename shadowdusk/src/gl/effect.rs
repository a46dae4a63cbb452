//! [`GlEffect`]: an MGFX effect loaded into OpenGL, applied pass by pass like MonoGame's
//! `EffectPass.Apply` plus the draw-time `GraphicsDevice.ActivateShaderProgram`.

use glow::HasContext;

use super::program::{self, LinkedProgram, Site};
use super::{cbuffer_bytes, params, sampler, sprite_vs, states, GlError, ShaderRef};
use crate::mgfx::{
    self, Effect, ParameterClass, ParameterType, Profile, SamplerType, ShaderStage,
    VertexElementUsage,
};

/// A texture given to a texture parameter: the GL object and its target
/// (`glow::TEXTURE_2D`, `TEXTURE_CUBE_MAP`, `TEXTURE_3D`, `TEXTURE_1D`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlTexture {
    /// The texture object.
    pub texture: glow::Texture,
    /// Its target.
    pub target: u32,
}

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

/// What the caller needs after [`GlEffect::apply`] to set up vertices and draw.
#[derive(Clone, Debug, PartialEq)]
pub struct AppliedPass {
    program: glow::Program,
    attributes: Vec<(VertexElementUsage, u8, Option<u32>)>,
}

impl AppliedPass {
    /// The program now in use.
    pub fn program(&self) -> glow::Program {
        self.program
    }

    /// Location of the vertex attribute with this (usage, usage index), as MonoGame matches
    /// vertex-declaration elements (first record with the pair). `None` when the vertex shader has
    /// no such attribute or the driver optimised it away; such elements are not fed.
    pub fn attribute_location(&self, usage: VertexElementUsage, index: u8) -> Option<u32> {
        self.attributes
            .iter()
            .find(|(u, i, _)| *u == usage && *i == index)
            .and_then(|(_, _, loc)| *loc)
    }
}

/// Which vertex shader a program uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Vs {
    Effect(usize),
    Sprite,
}

/// An effect bound to a GL context. Call [`GlEffect::destroy`] with the same context to free it.
pub struct GlEffect {
    effect: Effect,
    textures: Vec<Option<GlTexture>>,
    shaders: Vec<Option<glow::Shader>>,
    sprite_vs: Option<glow::Shader>,
    /// One program per (vertex, pixel) pair.
    programs: Vec<(Vs, usize, LinkedProgram)>,
    /// technique → pass → index into `programs`.
    pass_programs: Vec<Vec<usize>>,
    sprite_transform: Option<[[f32; 4]; 4]>,
    /// Register images given through [`GlEffect::set_params`], one per constant-buffer record;
    /// when present they are uploaded instead of the bytes built from the parameter values.
    records: Option<Vec<Vec<f32>>>,
}

impl GlEffect {
    /// Reads MGFX bytes, checks the profile is OpenGL, compiles every shader and links every
    /// pass's program.
    pub fn new(gl: &glow::Context, bytes: &[u8]) -> Result<GlEffect, GlError> {
        let effect = mgfx::read(bytes)?;
        GlEffect::from_effect(gl, effect)
    }

    /// Like [`GlEffect::new`] for an effect already in memory.
    pub fn from_effect(gl: &glow::Context, effect: Effect) -> Result<GlEffect, GlError> {
        if effect.profile != Profile::OpenGL {
            return Err(GlError::WrongProfile(effect.profile));
        }
        validate(&effect)?;
        let mut out = GlEffect {
            textures: vec![None; effect.parameters.len()],
            shaders: vec![None; effect.shaders.len()],
            sprite_vs: None,
            programs: Vec::new(),
            pass_programs: Vec::new(),
            sprite_transform: None,
            records: None,
            effect,
        };
        match out.build(gl) {
            Ok(()) => Ok(out),
            Err(e) => {
                out.destroy(gl);
                Err(e)
            }
        }
    }

    fn build(&mut self, gl: &glow::Context) -> Result<(), GlError> {
        for t in 0..self.effect.techniques.len() {
            let mut passes = Vec::new();
            for p in 0..self.effect.techniques[t].passes.len() {
                passes.push(self.program_for(gl, t, p)?);
            }
            self.pass_programs.push(passes);
        }
        Ok(())
    }

    /// Compiles what pass (t, p) needs and returns its program index (cached per pair).
    fn program_for(&mut self, gl: &glow::Context, t: usize, p: usize) -> Result<usize, GlError> {
        let technique = &self.effect.techniques[t];
        let pass = &technique.passes[p];
        let site = Site {
            technique: &technique.name,
            pass: &pass.name,
        };
        let Ok(ps) = usize::try_from(pass.pixel_shader) else {
            return Err(GlError::MissingPixelShader {
                technique: technique.name.clone(),
                pass: pass.name.clone(),
            });
        };
        let vs = usize::try_from(pass.vertex_shader).map_or(Vs::Sprite, Vs::Effect);
        if let Some(i) = self
            .programs
            .iter()
            .position(|(v, q, _)| *v == vs && *q == ps)
        {
            return Ok(i);
        }
        let ps_shader = match self.shaders[ps] {
            Some(s) => s,
            None => {
                let rec = &self.effect.shaders[ps];
                let s = program::compile(gl, rec.stage, &rec.code, ShaderRef::Effect(ps), &site)?;
                self.shaders[ps] = Some(s);
                s
            }
        };
        let (vs_shader, vs_ref, attributes) = match vs {
            Vs::Effect(i) => {
                let rec = &self.effect.shaders[i];
                let s = match self.shaders[i] {
                    Some(s) => s,
                    None => {
                        let s = program::compile(
                            gl,
                            rec.stage,
                            &rec.code,
                            ShaderRef::Effect(i),
                            &site,
                        )?;
                        self.shaders[i] = Some(s);
                        s
                    }
                };
                (s, ShaderRef::Effect(i), rec.attributes.clone())
            }
            Vs::Sprite => {
                let s = match self.sprite_vs {
                    Some(s) => s,
                    None => {
                        let s = program::compile(
                            gl,
                            ShaderStage::Vertex,
                            sprite_vs::SOURCE.as_bytes(),
                            ShaderRef::BuiltinSpriteVs,
                            &site,
                        )?;
                        self.sprite_vs = Some(s);
                        s
                    }
                };
                (s, ShaderRef::BuiltinSpriteVs, sprite_vs::attributes())
            }
        };
        let linked = program::link(
            gl,
            vs_shader,
            ps_shader,
            vs_ref,
            ps,
            &attributes,
            &self.effect.shaders[ps].samplers,
            &site,
        )?;
        self.programs.push((vs, ps, linked));
        Ok(self.programs.len() - 1)
    }

    /// The effect model (parameter values reflect the last writes).
    pub fn effect(&self) -> &Effect {
        &self.effect
    }

    /// Index of the first top-level parameter named `name`.
    pub fn parameter(&self, name: &str) -> Option<usize> {
        self.effect.parameters.iter().position(|p| p.name == name)
    }

    fn param_mut(&mut self, param: usize) -> Result<&mut mgfx::Parameter, GlError> {
        self.effect
            .parameters
            .get_mut(param)
            .ok_or(GlError::NoSuchParameter(param))
    }

    /// Sets a value parameter from raw data (matrices column by column: `data[c*rows + r]`;
    /// arrays: elements concatenated). The count must match exactly.
    pub fn set_values(&mut self, param: usize, values: &[f32]) -> Result<(), GlError> {
        params::set_values(self.param_mut(param)?, values)
    }

    /// MonoGame `SetValue(Matrix)`: `m[r][c]` is XNA's `M(r+1, c+1)`; stored column by column for
    /// the parameter's rows×columns (4×4, 4×3, 4×2, 3×4, 3×3, 3×2).
    pub fn set_matrix(&mut self, param: usize, m: [[f32; 4]; 4]) -> Result<(), GlError> {
        params::set_matrix(self.param_mut(param)?, m)
    }

    /// Takes every constant-buffer record from a generated, typed `Params` struct (the register
    /// image MonoGame would upload), replacing what [`GlEffect::set_values`] and
    /// [`GlEffect::set_matrix`] wrote, until [`GlEffect::clear_params`]. Fails, changing
    /// nothing, when `params` was generated for an effect with other records.
    pub fn set_params<P: crate::params::EffectParams>(
        &mut self,
        params: &P,
    ) -> Result<(), GlError> {
        let records = &self.effect.constant_buffers;
        if params.constant_buffer_count() != records.len() {
            return Err(GlError::Malformed(format!(
                "the typed parameters have {} constant-buffer records, the effect {}; were they generated for another effect?",
                params.constant_buffer_count(),
                records.len()
            )));
        }
        for (i, cb) in records.iter().enumerate() {
            let registers = params.constant_buffer(i).unwrap_or(&[]);
            if registers.len() * 16 != cb.size as usize {
                return Err(GlError::Malformed(format!(
                    "constant buffer '{}' ({i}) is {} bytes in the effect but {} in the typed parameters; were they generated for another effect?",
                    cb.name,
                    cb.size,
                    registers.len() * 16
                )));
            }
        }
        // Copied into the buffers of the last call: after the first frame this allocates nothing.
        let images = self.records.get_or_insert_with(Vec::new);
        images.resize_with(records.len(), Vec::new);
        for (i, image) in images.iter_mut().enumerate() {
            let registers = params.constant_buffer(i).unwrap_or(&[]);
            image.clear();
            image.extend(registers.iter().flatten().copied());
        }
        Ok(())
    }

    /// Goes back to uploading the values set through [`GlEffect::set_values`] and friends.
    pub fn clear_params(&mut self) {
        self.records = None;
    }

    /// Assigns (or clears) the texture of a texture parameter.
    pub fn set_texture(&mut self, param: usize, tex: Option<GlTexture>) -> Result<(), GlError> {
        let p = self.param_mut(param)?;
        let is_texture = p.class == ParameterClass::Object
            && matches!(
                p.ty,
                ParameterType::Texture
                    | ParameterType::Texture1D
                    | ParameterType::Texture2D
                    | ParameterType::Texture3D
                    | ParameterType::TextureCube
            );
        if !is_texture {
            return Err(GlError::ParameterShape {
                name: p.name.clone(),
                what: format!("is a {:?} {:?}, not a texture", p.class, p.ty),
            });
        }
        self.textures[param] = tex;
        Ok(())
    }

    /// Sets SpriteBatch's `MatrixTransform` used by the built-in vertex shader of pixel-only
    /// passes (`m[r][c]` = XNA `M(r+1,c+1)`; SpriteBatch passes `transformMatrix * projection`).
    /// Until set, apply uses SpriteBatch's default for the target:
    /// [`sprite_vs::default_transform`].
    pub fn set_sprite_transform(&mut self, m: [[f32; 4]; 4]) {
        self.sprite_transform = Some(m);
    }

    /// Goes back to SpriteBatch's default projection of the target size at each apply.
    pub fn clear_sprite_transform(&mut self) {
        self.sprite_transform = None;
    }

    /// Applies pass `pass` of technique `technique` for drawing into `target`: uses the program,
    /// sets `posFixup`, uploads the constant buffers, binds textures with their baked sampler
    /// states, and applies the pass's state blocks.
    pub fn apply(
        &mut self,
        gl: &glow::Context,
        technique: usize,
        pass: usize,
        target: &RenderTarget,
    ) -> Result<AppliedPass, GlError> {
        let index = self
            .pass_programs
            .get(technique)
            .and_then(|p| p.get(pass))
            .copied()
            .ok_or(GlError::NoSuchPass {
                technique,
                pass,
                techniques: self.pass_programs.len(),
            })?;
        let GlEffect {
            effect,
            textures,
            programs,
            sprite_transform,
            records,
            ..
        } = self;
        let records = records.as_deref();
        let tech_rec = &effect.techniques[technique];
        let pass_rec = &tech_rec.passes[pass];
        let (vs, ps, linked) = &mut programs[index];
        let context = format!("technique '{}' pass '{}'", tech_rec.name, pass_rec.name);
        // SAFETY: GL calls on the caller's current context with objects this effect owns.
        unsafe {
            // Errors left by earlier unrelated calls must not be blamed on this pass.
            // Bounded: a lost context can report an error on every call.
            for _ in 0..64 {
                if gl.get_error() == glow::NO_ERROR {
                    break;
                }
            }
            gl.use_program(Some(linked.program));
            if let Some(loc) = &linked.pos_fixup {
                gl.uniform_4_f32_slice(Some(loc), &pos_fixup(target));
            }
            match *vs {
                Vs::Sprite => {
                    let m = sprite_transform.unwrap_or_else(|| {
                        sprite_vs::default_transform(
                            target.width,
                            target.height,
                            target.half_pixel_offset,
                        )
                    });
                    if let Some(loc) = linked.uniform(gl, sprite_vs::CBUFFER) {
                        gl.uniform_4_f32_slice(Some(&loc), &sprite_vs::cbuffer_floats(m));
                    }
                }
                Vs::Effect(i) => upload_cbuffers(gl, effect, records, i, linked)?,
            }
            upload_cbuffers(gl, effect, records, *ps, linked)?;
            for s in &effect.shaders[*ps].samplers {
                let sampler_target = gl_target(s.ty);
                gl.active_texture(glow::TEXTURE0 + s.texture_slot as u32);
                match textures.get(s.parameter as usize).copied().flatten() {
                    Some(tex) => {
                        if tex.target != sampler_target {
                            return Err(GlError::TextureTarget {
                                technique: tech_rec.name.clone(),
                                pass: pass_rec.name.clone(),
                                sampler: s.name.clone(),
                                expected: sampler_target,
                                got: tex.target,
                            });
                        }
                        gl.bind_texture(tex.target, Some(tex.texture));
                        if let Some(state) = &s.state {
                            sampler::apply(gl, tex.target, state);
                        }
                    }
                    None => gl.bind_texture(sampler_target, None),
                }
            }
            if let Some(b) = &pass_rec.blend {
                states::apply_blend(gl, b);
            }
            if let Some(d) = &pass_rec.depth_stencil {
                states::apply_depth_stencil(gl, d);
            }
            if let Some(r) = &pass_rec.rasterizer {
                states::apply_rasterizer(gl, r, target.is_render_target);
            }
            let err = gl.get_error();
            if err != glow::NO_ERROR {
                return Err(GlError::Driver {
                    context: format!("{context}: applying the pass"),
                    log: format!("glGetError 0x{err:04X}"),
                });
            }
        }
        Ok(AppliedPass {
            program: linked.program,
            attributes: linked.attributes.clone(),
        })
    }

    /// Deletes the programs and shaders.
    pub fn destroy(self, gl: &glow::Context) {
        // SAFETY: objects created by this effect on this context; none is used afterwards.
        unsafe {
            for (_, _, p) in &self.programs {
                gl.delete_program(p.program);
            }
            for s in self.shaders.iter().flatten().chain(self.sprite_vs.iter()) {
                gl.delete_shader(*s);
            }
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

/// Uploads every constant buffer of shader `shader` whose name is a uniform of the program.
///
/// # Safety
/// `gl` must be current and `linked.program` in use.
unsafe fn upload_cbuffers(
    gl: &glow::Context,
    effect: &Effect,
    records: Option<&[Vec<f32>]>,
    shader: usize,
    linked: &mut LinkedProgram,
) -> Result<(), GlError> {
    for &cb_index in &effect.shaders[shader].cbuffers {
        let cb = &effect.constant_buffers[cb_index as usize];
        let Some(loc) = linked.uniform(gl, &cb.name) else {
            continue;
        };
        let floats: Vec<f32> = match records.and_then(|r| r.get(cb_index as usize)) {
            Some(image) => image.clone(),
            None => cbuffer_bytes(cb, &effect.parameters)?
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        };
        if !floats.is_empty() {
            // SAFETY: forwarded from the caller.
            unsafe { gl.uniform_4_f32_slice(Some(&loc), &floats) };
        }
    }
    Ok(())
}

/// Checks every index the loader follows, so apply never indexes out of range.
fn validate(effect: &Effect) -> Result<(), GlError> {
    let bad = |what: String| Err(GlError::Malformed(what));
    for (i, s) in effect.shaders.iter().enumerate() {
        for &c in &s.cbuffers {
            if c as usize >= effect.constant_buffers.len() {
                return bad(format!("shader {i} refers to constant buffer {c}"));
            }
        }
        for smp in &s.samplers {
            if smp.parameter as usize >= effect.parameters.len() {
                return bad(format!(
                    "sampler '{}' of shader {i} refers to parameter {}",
                    smp.name, smp.parameter
                ));
            }
        }
    }
    for (ci, cb) in effect.constant_buffers.iter().enumerate() {
        for e in &cb.entries {
            if usize::try_from(e.parameter).map_or(true, |p| p >= effect.parameters.len()) {
                return bad(format!(
                    "constant buffer {ci} refers to parameter {}",
                    e.parameter
                ));
            }
        }
    }
    if effect.techniques.is_empty() {
        return bad("the effect has no technique".into());
    }
    for t in &effect.techniques {
        for p in &t.passes {
            let check = |index: i32, stage: ShaderStage| -> Result<(), GlError> {
                if index < 0 {
                    return Ok(());
                }
                match effect.shaders.get(index as usize) {
                    Some(s) if s.stage == stage => Ok(()),
                    Some(_) => Err(GlError::Malformed(format!(
                        "technique '{}' pass '{}': shader {index} is not a {stage:?} shader",
                        t.name, p.name
                    ))),
                    None => Err(GlError::Malformed(format!(
                        "technique '{}' pass '{}': no shader {index}",
                        t.name, p.name
                    ))),
                }
            };
            check(p.vertex_shader, ShaderStage::Vertex)?;
            check(p.pixel_shader, ShaderStage::Pixel)?;
        }
    }
    Ok(())
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
    fn validate_refuses_a_vertex_shader_in_the_pixel_slot() {
        let effect = Effect {
            version: 10,
            profile: Profile::OpenGL,
            key: 0,
            constant_buffers: vec![],
            shaders: vec![mgfx::Shader {
                stage: ShaderStage::Vertex,
                source_file: None,
                entry_point: None,
                code: vec![],
                samplers: vec![],
                cbuffers: vec![],
                attributes: vec![],
            }],
            parameters: vec![],
            techniques: vec![mgfx::Technique {
                name: "T".into(),
                annotations: 0,
                passes: vec![mgfx::Pass {
                    name: "P".into(),
                    annotations: 0,
                    vertex_shader: -1,
                    pixel_shader: 0,
                    blend: None,
                    depth_stencil: None,
                    rasterizer: None,
                }],
            }],
        };
        let err = validate(&effect).unwrap_err();
        assert!(err.to_string().contains("not a Pixel shader"), "{err}");
    }
}
