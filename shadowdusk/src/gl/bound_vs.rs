//! The vertex shader bound on a context: what MonoGame's `GraphicsDevice.VertexShader` (and the
//! vertex constant buffers bound with it) is, and what a pass without a vertex shader draws
//! with.
//!
//! XNA effects rely on it: a technique's second pass sets only a `PixelShader` and reads what
//! the first pass's vertex shader writes; SpriteBatch applies SpriteEffect's pass before a
//! custom effect's pixel-only pass. MonoGame links the (vertex, pixel) pair at draw time, so
//! the pair is what was bound when the pass was applied. It is kept per
//! [`GlContext`](super::GlContext), as MonoGame keeps it per device: every effect of a context
//! shares it.

use std::rc::Rc;

use super::apply::Registers;
use crate::mgfx::Attribute;

/// One vertex shader of a loaded effect, as a pass of any effect of the context links with it.
#[derive(Debug)]
pub(super) struct EffectVs {
    /// The id of the [`LoadedEffect`](super::loaded::LoadedEffect) it belongs to.
    pub effect: u64,
    /// Its index in that effect's shaders.
    pub index: usize,
    /// The compiled shader, owned (and deleted) by its effect.
    pub shader: glow::Shader,
    /// Its attribute records.
    pub attributes: Vec<Attribute>,
    /// (record of its effect, uniform name) of each register array it reads.
    pub records: Vec<(usize, String)>,
    /// How errors name it: shader, effect, technique and pass it was applied from.
    pub label: String,
}

/// What the last pass applied on the context left bound.
#[derive(Debug, Default)]
pub(super) struct BoundVs {
    /// `None`: SpriteBatch's vertex shader (nothing else bound yet, or `SpriteBatch::begin`).
    pub shader: Option<Rc<EffectVs>>,
    /// (record, start, length) into `floats`: the registers its records had when applied.
    records: Vec<(usize, usize, usize)>,
    floats: Vec<f32>,
    /// The ids of the context's loaded effects, so that programs linked with the vertex shader
    /// of one since dropped (or replaced by a hot reload) can be deleted.
    live: Vec<u64>,
}

impl BoundVs {
    /// Binds SpriteBatch's vertex shader.
    pub fn bind_sprite(&mut self) {
        self.shader = None;
        self.records.clear();
        self.floats.clear();
    }

    /// Binds `vs` with the registers its records have in `registers`, as MonoGame's
    /// `EffectPass.Apply` binds the vertex shader and its constant buffers. Allocates nothing
    /// once the largest register set was bound.
    pub fn bind<R: Registers + ?Sized>(&mut self, vs: &Rc<EffectVs>, registers: &R) {
        if !self.shader.as_ref().is_some_and(|s| Rc::ptr_eq(s, vs)) {
            self.shader = Some(Rc::clone(vs));
        }
        self.records.clear();
        self.floats.clear();
        for &(record, _) in &vs.records {
            if let Some(f) = registers.record(record) {
                self.records.push((record, self.floats.len(), f.len()));
                self.floats.extend_from_slice(f);
            }
        }
    }

    /// Counts effect `effect` among the context's loaded effects.
    pub fn add_effect(&mut self, effect: u64) {
        self.live.push(effect);
    }

    /// Whether effect `effect` is loaded (not dropped) on the context.
    pub fn is_live(&self, effect: u64) -> bool {
        self.live.contains(&effect)
    }

    /// Effect `effect` is being dropped: it is no longer counted, and if its vertex shader was
    /// bound, SpriteBatch's is bound instead.
    pub fn forget_effect(&mut self, effect: u64) {
        self.live.retain(|&e| e != effect);
        if self.shader.as_ref().is_some_and(|s| s.effect == effect) {
            self.bind_sprite();
        }
    }
}

impl Registers for BoundVs {
    fn record(&self, record: usize) -> Option<&[f32]> {
        self.records
            .iter()
            .find(|(r, _, _)| *r == record)
            .map(|&(_, start, len)| &self.floats[start..start + len])
    }
}
