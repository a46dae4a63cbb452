//! Effects as types: what `include_effect!` generates for each effect, and what
//! `gl::GlEffect` takes so that mixing up two effects fails to compile.
//!
//! Each generated module holds a marker type `Effect` (an empty enum) implementing [`Effect`],
//! one [`Pass`] constant per pass (`passes::<technique>::<PASS>`) and one [`TextureSlot`]
//! constant per texture parameter (`textures::<NAME>`). Both carry the marker as a type
//! parameter, so `GlEffect<tint::Effect>` accepts `tint`'s passes, slots and `Params` and
//! nothing else:
//!
//! ```compile_fail
//! shadowdusk::include_effect!("doc/tint.fx", in_process);
//! shadowdusk::include_effect!("doc/tint.fx", name = other, in_process);
//!
//! // Two modules of the same file are still two effects.
//! let pass: shadowdusk::Pass<tint::Effect> = other::passes::sprite_drawing::P0;
//! ```
//!
//! Only generated code makes passes and slots, through hidden constructors that are `unsafe`
//! (their contract: the index names a pass or texture parameter the effect really has), so safe
//! code cannot forge one:
//!
//! ```compile_fail,E0133
//! shadowdusk::include_effect!("doc/tint.fx", in_process);
//!
//! let forged = shadowdusk::TextureSlot::<tint::Effect>::__new(7);
//! ```
//!
//! A hand-written [`Effect`] can still break the contract; the runtime checks every index again
//! and returns an error for one that does not fit, never ignoring it.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;

use crate::params::EffectParams;
use crate::BuildOptions;

/// A compiled effect known at build time; implemented by the `Effect` marker type of every
/// module `include_effect!` generates (`tint::Effect` for `shaders/tint.fx`).
///
/// The marker is never instantiated (it is an empty enum): it only ties the effect's bytes,
/// parameter struct, passes and texture slots together in the type system.
pub trait Effect: 'static {
    /// The generated `Params` struct: the effect's constant-buffer registers with typed setters.
    type Params: EffectParams + Clone + Default + Send + Sync;
    /// The generated `Technique` enum.
    type Technique: Copy + fmt::Debug + 'static;
    /// The compiled effect (MGFX, OpenGL profile).
    const MGFX: &'static [u8];
    /// The effect's source file name (`tint.fx`), for messages.
    const NAME: &'static str;
    /// [`shadowdusk_mgfx::layout::fingerprint`] of `MGFX`: the register records, parameters,
    /// texture units and techniques the generated code was made for. An effect with the same
    /// fingerprint fits the same `Params`, passes and slots: `gl::GlEffect` checks it when it
    /// loads `MGFX` and when a hot reload replaces it. 0 when unknown (checks nothing).
    const LAYOUT: u64 = 0;
    /// The effect file `MGFX` was compiled from, as an absolute path at build time (what
    /// `hot::HotEffect::new` watches); `""` when unknown.
    const SOURCE: &'static str = "";
    /// Every file the compile read, absolute at build time: `SOURCE` first, then its includes
    /// (what `hot::HotEffect::new` watches without compiling first); empty when unknown.
    const FILES_READ: &'static [&'static str] = &[];
    /// The options it was compiled with (what a hot reload compiles with).
    const OPTIONS: BuildOptions = BuildOptions::DEFAULT;
    /// The effect compiled for wgpu, when the build turned the wgpu target on
    /// (`Builder::wgpu(true)`, `include_effect!(…, wgpu)`); `None` otherwise.
    const WGPU: Option<&'static crate::wgsl::WgslEffect> = None;
}

/// One pass of one technique of effect `E`, as a value: what
/// `gl::GlEffect::apply` takes.
///
/// Generated modules hold one per pass (`tint::passes::sprite_drawing::P0`), and
/// `Technique::passes()` lists a technique's passes in order.
pub struct Pass<E> {
    technique: usize,
    pass: usize,
    // `fn() -> E`: the marker is only named, never owned, so a pass is `Copy`, `Send` and `Sync`
    // whatever `E` is.
    effect: PhantomData<fn() -> E>,
}

impl<E> Pass<E> {
    /// Used by generated code only.
    ///
    /// # Safety
    ///
    /// Pass `pass` of technique `technique` must exist in `E::MGFX`: `include_effect!`
    /// generates one constant per pass it compiled, and no other code should make one. Breaking
    /// this is not undefined behaviour (the runtime checks the indices again and
    /// [`GlEffect::apply`](crate::gl::GlEffect::apply) returns `GlError::NoSuchPass`), but it
    /// forges a value whose type promises a pass of `E`, so it takes `unsafe` to write.
    #[doc(hidden)]
    pub const unsafe fn __new(technique: usize, pass: usize) -> Pass<E> {
        Pass {
            technique,
            pass,
            effect: PhantomData,
        }
    }

    /// The MGFX index of its technique.
    pub const fn technique_index(self) -> usize {
        self.technique
    }

    /// Its MGFX index within the technique.
    pub const fn index(self) -> usize {
        self.pass
    }
}

/// A texture parameter of effect `E`: what
/// `gl::GlEffect::set_texture` takes.
///
/// Generated modules hold one per texture parameter (`tint::textures::SPRITE_TEXTURE`).
pub struct TextureSlot<E> {
    parameter: usize,
    effect: PhantomData<fn() -> E>,
}

impl<E> TextureSlot<E> {
    /// Used by generated code only.
    ///
    /// # Safety
    ///
    /// `parameter` must be the index of a texture parameter of `E::MGFX`: `include_effect!`
    /// generates one constant per texture parameter, and no other code should make one.
    /// Breaking this is not undefined behaviour (the runtime checks the index again and
    /// [`GlEffect::set_texture`](crate::gl::GlEffect::set_texture) returns an error), but it
    /// forges a value whose type promises a texture of `E`, so it takes `unsafe` to write.
    #[doc(hidden)]
    pub const unsafe fn __new(parameter: usize) -> TextureSlot<E> {
        TextureSlot {
            parameter,
            effect: PhantomData,
        }
    }

    /// The MGFX index of the texture parameter.
    pub const fn parameter_index(self) -> usize {
        self.parameter
    }
}

// The derives would require `E: Clone` and so on; the marker is never stored, so none is needed.
macro_rules! marker_value_impls {
    ($t:ident { $($field:ident),* }) => {
        impl<E> Clone for $t<E> {
            fn clone(&self) -> Self {
                *self
            }
        }

        impl<E> Copy for $t<E> {}

        impl<E> PartialEq for $t<E> {
            fn eq(&self, other: &Self) -> bool {
                true $(&& self.$field == other.$field)*
            }
        }

        impl<E> Eq for $t<E> {}

        impl<E> Hash for $t<E> {
            fn hash<H: Hasher>(&self, state: &mut H) {
                $(self.$field.hash(state);)*
            }
        }

        impl<E: Effect> fmt::Debug for $t<E> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($t))
                    .field("effect", &E::NAME)
                    $(.field(stringify!($field), &self.$field))*
                    .finish()
            }
        }
    };
}

marker_value_impls!(Pass { technique, pass });
marker_value_impls!(TextureSlot { parameter });

/// Whether `new` can replace `running` under `E`'s generated code. The check is `E::LAYOUT`
/// (one hash of the new layout); the running effect is compared only to name what changed.
#[cfg(any(feature = "gl", feature = "wgpu"))]
pub(crate) fn check_fits<E: Effect>(
    running: &crate::mgfx::Effect,
    new: &crate::mgfx::Effect,
) -> Result<(), crate::mgfx::layout::LayoutChange> {
    if E::LAYOUT != 0 && crate::mgfx::layout::fingerprint(new) == E::LAYOUT {
        return Ok(());
    }
    crate::mgfx::layout::compare(running, new)?;
    check_fingerprint::<E>(new)
}

/// Whether `model` has the layout `E`'s generated code was made for: its fingerprint is
/// `E::LAYOUT` (0, unknown, for a hand-written [`Effect`], checks nothing).
#[cfg(any(feature = "gl", feature = "wgpu"))]
pub(crate) fn check_fingerprint<E: Effect>(
    model: &crate::mgfx::Effect,
) -> Result<(), crate::mgfx::layout::LayoutChange> {
    let found = crate::mgfx::layout::fingerprint(model);
    if E::LAYOUT == 0 || found == E::LAYOUT {
        return Ok(());
    }
    Err(crate::mgfx::layout::LayoutChange(format!(
        "its layout fingerprint is {found:#018x}, but the code generated for {} expects \
         {:#018x} (Effect::LAYOUT); rebuild so that the generated code and the effect come \
         from one compile",
        E::NAME,
        E::LAYOUT
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    enum Fake {}

    #[derive(Clone, Default)]
    struct NoRecords;

    impl EffectParams for NoRecords {
        fn constant_buffer(&self, _: usize) -> Option<&[[f32; 4]]> {
            None
        }
        fn constant_buffer_count(&self) -> usize {
            0
        }
    }

    impl Effect for Fake {
        type Params = NoRecords;
        type Technique = ();
        const MGFX: &'static [u8] = &[];
        const NAME: &'static str = "fake.fx";
    }

    #[test]
    fn passes_and_slots_are_plain_copyable_indices() {
        // SAFETY: not upheld (`Fake` has no passes); these values are only compared and printed.
        const P: Pass<Fake> = unsafe { Pass::__new(2, 1) };
        let copy = P;
        assert_eq!((P.technique_index(), P.index()), (2, 1));
        assert_eq!(copy, P);
        // SAFETY: as above.
        assert_ne!(unsafe { Pass::<Fake>::__new(2, 0) }, P);
        assert_eq!(
            format!("{P:?}"),
            r#"Pass { effect: "fake.fx", technique: 2, pass: 1 }"#
        );
        // SAFETY: as above.
        let slot = unsafe { TextureSlot::<Fake>::__new(3) };
        assert_eq!(slot.parameter_index(), 3);
        assert_eq!(
            format!("{slot:?}"),
            r#"TextureSlot { effect: "fake.fx", parameter: 3 }"#
        );
    }
}
