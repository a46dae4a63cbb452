//! [`GlContext`]: the one place where "this OpenGL context is current" is promised.
//!
//! glow marks every GL call `unsafe` because it is only sound on the thread where the context
//! is current. Rather than make every drawing function `unsafe`, the runtime asks for that
//! promise once, in [`GlContext::from_glow`], and makes the promise hard to break afterwards:
//!
//! - the handle is an `Rc`, so it and everything made from it (effects, textures, render
//!   targets, sprite batches) is `!Send` and stays on the thread that made it, as GL requires;
//! - everything made from it holds a clone, so the GL functions outlive the objects, whose
//!   `Drop` deletes them on the same context;
//! - each handle made by [`GlContext::from_glow`] has its own [`id`](GlContext::id), stamped on
//!   everything made from it, so that handing one context's texture or pass to another
//!   context's effect or batch is [`GlError::ForeignContext`](super::GlError::ForeignContext)
//!   instead of a GL name looked up in the wrong context.

use std::any::Any;
use std::cell::{Cell, RefCell, RefMut};
use std::fmt;
use std::panic::{AssertUnwindSafe, RefUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::bound_vs::BoundVs;
use super::{sampler, states, GlError, RenderTarget};
use crate::mgfx::SamplerState;
use crate::{DeviceStates, SAMPLER_SLOTS};

/// The id the next context gets; ids are never reused within a process.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// An OpenGL context made current on this thread, shared by everything made from it.
///
/// glow's GL calls are `unsafe` because they need a current context; this handle is the
/// promise that there is one ([`GlContext::from_glow`]), so the runtime's functions that take
/// it, or belong to something holding it, are safe. It is an `Rc`: cheap to clone, and neither
/// it nor anything made from it can leave the thread, as GL requires. Effects, textures, render
/// targets and sprite batches each keep a clone and release their GL objects when dropped.
#[derive(Clone)]
pub struct GlContext {
    shared: Rc<Shared>,
}

struct Shared {
    gl: glow::Context,
    /// This context's [`GlContext::id`].
    id: u64,
    /// The vertex shader the last pass applied left bound (MonoGame's device keeps it), which
    /// passes without a vertex shader draw with. Asserted unwind-safe (the handle always was):
    /// a panic mid-update leaves at worst a binding whose registers are partly copied.
    vertex: AssertUnwindSafe<RefCell<BoundVs>>,
    /// The sampler state of each slot for samplers without their own, once
    /// [`GlContext::set_device_states`] set them (before: the texture's own parameters).
    /// Unwind-safe: a `Cell` of plain values is replaced whole, so a panic cannot leave it
    /// half-written (and the handle stays `RefUnwindSafe`, as it was before it had this).
    samplers: AssertUnwindSafe<Cell<Option<[SamplerState; SAMPLER_SLOTS]>>>,
    /// What keeps the context itself alive (the headless EGL context): dropped after `gl` and
    /// after the last clone of the handle, so no GL object outlives its context.
    _owner: Option<Box<dyn Any + RefUnwindSafe>>,
}

impl GlContext {
    /// Takes a glow context for the runtime to use.
    ///
    /// # Safety
    ///
    /// The context must be current on this thread whenever the returned handle, or anything
    /// made from it (a [`GlEffect`](super::GlEffect), [`DynEffect`](super::DynEffect),
    /// [`GlTexture`](super::GlTexture), [`GlRenderTarget`](super::GlRenderTarget),
    /// [`SpriteBatch`](super::SpriteBatch)), is used or dropped. Drop them all before
    /// destroying the context; while another context is current, use and drop none of them.
    pub unsafe fn from_glow(gl: glow::Context) -> GlContext {
        GlContext {
            shared: Rc::new(Shared {
                gl,
                id: next_id(),
                vertex: AssertUnwindSafe(RefCell::default()),
                samplers: AssertUnwindSafe(Cell::new(None)),
                _owner: None,
            }),
        }
    }

    /// Like [`GlContext::from_glow`], keeping `owner` (what keeps the context alive) until the
    /// last handle is dropped.
    ///
    /// # Safety
    /// As [`GlContext::from_glow`].
    #[cfg(feature = "headless")]
    pub(crate) unsafe fn with_owner(
        gl: glow::Context,
        owner: Box<dyn Any + RefUnwindSafe>,
    ) -> GlContext {
        GlContext {
            shared: Rc::new(Shared {
                gl,
                id: next_id(),
                vertex: AssertUnwindSafe(RefCell::default()),
                samplers: AssertUnwindSafe(Cell::new(None)),
                _owner: Some(owner),
            }),
        }
    }

    /// The glow functions, for your own GL calls (still `unsafe` in glow: this handle's
    /// promise makes them sound to call on this thread, but not with any arguments).
    pub fn glow(&self) -> &glow::Context {
        &self.shared.gl
    }

    /// This context's id: distinct for every [`GlContext::from_glow`] in the process, shared by
    /// its clones. GL object names (texture 3, program 7) only mean something in the context
    /// that made them, so the runtime refuses to mix objects of different ids.
    pub fn id(&self) -> u64 {
        self.shared.id
    }

    /// The vertex shader bound on the context ([`bound_vs`](super::bound_vs)). Borrowed only
    /// for the length of one apply or drop, never across user code.
    pub(super) fn bound_vs(&self) -> RefMut<'_, BoundVs> {
        self.shared.vertex.borrow_mut()
    }

    /// Sets the device's states as MonoGame's `GraphicsDevice` setters do
    /// (`BlendState`, `DepthStencilState`, `RasterizerState`, `SamplerStates[n]`): the three
    /// blocks (with the blend factor and stencil reference they carry) go into GL now, for a
    /// draw into `target` (the cull winding depends on it), and a pass that sets no block
    /// keeps them, as in MonoGame; each slot's sampler state is applied, from now on, to the
    /// texture of every sampler the effect gives no state (before the first call such a
    /// texture samples with its own parameters).
    ///
    /// Fails, setting nothing, when the context cannot do a slot's sampler state (`Border`
    /// addressing on OpenGL ES before 3.2); fails, having set the blocks before it, when it
    /// cannot do the rasterizer state (a wireframe fill on OpenGL ES).
    pub fn set_device_states(
        &self,
        states: &DeviceStates,
        target: &RenderTarget,
    ) -> Result<(), GlError> {
        let gl = self.glow();
        // Every slot is checked before anything is set, so an applied pass's textures always
        // take the device's sampler states when it draws.
        for (slot, state) in states.samplers.iter().enumerate() {
            sampler::check(gl, state).map_err(|log| GlError::Driver {
                context: format!("the device's sampler state of slot {slot}"),
                log,
            })?;
        }
        states::apply_blend(gl, &states.blend);
        states::apply_depth_stencil(gl, &states.depth_stencil);
        states::apply_rasterizer(gl, &states.rasterizer, target.is_render_target).map_err(
            |log| GlError::Driver {
                context: "applying the device's rasterizer state".to_string(),
                log,
            },
        )?;
        self.shared.samplers.set(Some(states.samplers));
        Ok(())
    }

    /// The sampler state the device holds for `slot`, if [`GlContext::set_device_states`]
    /// was called.
    pub(crate) fn device_sampler(&self, slot: usize) -> Option<SamplerState> {
        self.shared
            .samplers
            .get()
            .and_then(|s| s.get(slot).copied())
    }

    /// `Ok` when `other` is this context; otherwise [`GlError::ForeignContext`] naming `what`
    /// came from `other`.
    pub(crate) fn expect_same(&self, other: &GlContext, what: &'static str) -> Result<(), GlError> {
        if self.id() == other.id() {
            return Ok(());
        }
        Err(GlError::ForeignContext {
            what,
            context: self.id(),
            foreign: other.id(),
        })
    }
}

fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

impl fmt::Debug for GlContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use glow::HasContext;
        let v = self.shared.gl.version();
        f.debug_struct("GlContext")
            .field("id", &self.shared.id)
            .field("version", &format_args!("{}.{}", v.major, v.minor))
            .field("embedded", &v.is_embedded)
            .field("vendor_info", &v.vendor_info)
            .finish()
    }
}
