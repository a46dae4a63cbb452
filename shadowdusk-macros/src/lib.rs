//! The `include_effect!` proc macro. Use it through the runtime crate,
//! `shadowdusk::include_effect!`; the generated code refers to `::shadowdusk`.
//!
//! This crate holds no compiler logic: it reads the environment cargo gives rustc and calls
//! [`shadowdusk_compiler::include_effect::expand`], where the expansion is implemented and tested.
//! It uses the compiler crate without its `compile` feature (the build script's artifacts are
//! only read) unless its own `in-process` feature is on.

#![warn(missing_docs)]

use proc_macro::TokenStream;
use shadowdusk_compiler::include_effect::{expand, MacroEnv};

/// Compiles a HLSL effect (`.fx`) to MGFX at compile time and generates a typed module for it.
///
/// ```ignore
/// shadowdusk::include_effect!("shaders/tint.fx");                    // pub mod tint { … }
/// shadowdusk::include_effect!("shaders/tint.fx", name = warm_tint);  // pub mod warm_tint { … }
/// // When the runtime crate is re-exported under another path:
/// shadowdusk::include_effect!("shaders/tint.fx", crate = ::engine::shadowdusk);
/// // After `Builder::new().dir("shaders")`, the one compiled effect whose path ends so:
/// shadowdusk::include_effect!("tint.fx");
/// // A crate without a build script: compile it here, with default options
/// // (shadowdusk's `in-process` feature).
/// shadowdusk::include_effect!("shaders/tint.fx", in_process);
/// // … and for wgpu too, the module's `wgsl` part (shadowdusk's `in-process-wgpu` feature).
/// shadowdusk::include_effect!("shaders/tint.fx", in_process, wgpu);
/// ```
///
/// Use it in item position. The path is relative to the crate root (the folder holding
/// `Cargo.toml`); when no file is there, the effects the build script compiled are searched for
/// the one whose path ends with it (several or none is an error listing them, or the ones that
/// look alike). The module is named after the file stem in snake_case (`TintPS.fx` →
/// `tint_ps`) unless `name = <ident>` is given.
///
/// # What the module holds
///
/// - `MGFX: &[u8]`: the compiled effect (MGFX v10, OpenGL);
/// - `Effect`: an empty enum, the effect as a type. It implements `shadowdusk::Effect`
///   (`Params`, `Technique`, `MGFX`, `NAME`) and is the type parameter of
///   `shadowdusk::gl::GlEffect<Effect>`, which then takes only this module's passes, texture
///   slots and `Params`: another effect's fail to compile;
/// - `Params`: `#[repr(C)]`, one `[[f32; 4]; N]` field per constant-buffer record, laid out as
///   MonoGame uploads them, with `const` assertions on size and offsets; `Default` /
///   `Params::DEFAULT` from the shader's initializers; one setter and getter per parameter
///   (`set_tint([f32; 4])`, `tint()`, scalars `f32`, `int`/`bool` as `i32`/`bool`, vectors as
///   `impl Into<[f32; N]>` (arrays, glam and mint vectors), matrices as
///   `impl Into<shadowdusk::params::Mat<R, C>>`: arrays, MonoGame's `Matrix`, glam, mint; arrays
///   as `set_colors(&[[f32; 4]])` plus `set_colors_at(i, v)`), each documented with its HLSL
///   declaration, `file:line`, registers and default; `shadowdusk::params::EffectParams`, through
///   which `GlEffect::<Effect>::set_params` uploads it;
/// - `Technique`: an enum whose discriminants are the technique indices, with `name()`,
///   `passes()` (its `Pass<Effect>` values) and `pass_names()`;
/// - `passes::<technique>::<PASS>`: one `shadowdusk::Pass<Effect>` per pass, what
///   `GlEffect::<Effect>::apply` takes;
/// - `textures::<NAME>`: one `shadowdusk::TextureSlot<Effect>` per texture parameter, what
///   `GlEffect::<Effect>::set_texture` takes, and `textures::<NAME>_UNITS`, the texture units
///   its samplers use.
///
/// ```ignore
/// shadowdusk::include_effect!("shaders/tint.fx");
///
/// let mut fx = shadowdusk::gl::GlEffect::<tint::Effect>::new(&ctx)?;
/// fx.params_mut().set_tint(glam::Vec4::new(1.0, 0.5, 0.5, 1.0));
/// fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(&texture))?;
/// let pass = fx.apply(tint::passes::sprite_drawing::P0, &target)?;
/// ```
///
/// # Where the bytes come from
///
/// The crate's build script runs `shadowdusk_build::Builder` over the file, and the macro
/// `include!`s the module it generated, `OUT_DIR/shadowdusk/<path>.rs` (the build script's
/// defines and include folders apply; the file is exactly what the macro gives you: `name = x`
/// re-exports its module as `x`, `crate = path` applies to its tokens). An artifact that is
/// missing, or whose recorded sources differ from the files now, is a compile error saying what
/// to do. `in_process` compiles the effect in the macro instead, with no defines; it needs the
/// `in-process` feature of `shadowdusk`, which builds the whole compiler (DXC bindings,
/// SPIRV-Cross) into the macro, and is an error naming the feature without it. An unchanged
/// effect is not compiled again: expansions are cached by content in memory and in
/// `shadowdusk/expansions` under the per-user cache folder (`SHADOWDUSK_EXPANSION_CACHE` names
/// another folder, empty turns it off). Either way the crate is rebuilt when the effect or any
/// file it includes changes.
///
/// # Errors
///
/// Shader errors stop the build with the shader's `path:line:col` and the source snippet: the
/// build script reports them, or with `in_process` the macro, as a compile error on the path
/// literal (DXC must be available then, as for the build script: see the `shadowdusk-build`
/// docs). Problems with the invocation or the artifact are compile errors on the path literal.
#[proc_macro]
pub fn include_effect(input: TokenStream) -> TokenStream {
    let mut env = match MacroEnv::from_process_env() {
        Ok(env) => env,
        Err(message) => return quote_error(&message),
    };
    env.allow_in_process = cfg!(feature = "in-process");
    let input: proc_macro2::TokenStream = input.into();
    // `expand` reports every failure as `compile_error!`; a panic would be a ShadowDusk bug, and
    // the user should see a request to report it rather than rustc's "proc macro panicked".
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| expand(input, &env))) {
        Ok(tokens) => tokens.into(),
        Err(payload) => {
            let why = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            quote_error(&format!(
                "internal error in include_effect! ({why}); please report this with the effect file"
            ))
        }
    }
}

fn quote_error(message: &str) -> TokenStream {
    let lit = proc_macro2::Literal::string(message);
    let tokens: proc_macro2::TokenStream = format!("::core::compile_error!({lit});")
        .parse()
        .unwrap_or_default();
    tokens.into()
}
