//! Rust code generation: a compiled effect → a typed parameter module.
//!
//! Input: the [`Effect`] (MGFX model) and its [`EffectReflection`] (declarations, locations,
//! defaults; may be empty, e.g. for a bare `.mgfx`, in which case the docs show MGFX types only).
//! Output: `pub mod <name> { … }` holding
//!
//! - `MGFX`: the effect bytes (a byte-string literal, or `include_bytes!` of an absolute path);
//! - `Params`: `#[repr(C)]`, one `[[f32; 4]; N]` field per MGFX constant-buffer record (N =
//!   size / 16), so its memory *is* what MonoGame uploads with `glUniform4fv`; `const`
//!   assertions pin its size and field offsets; `Default` is the register image MonoGame builds
//!   from the parameters' MGFX data; typed setters and getters per value parameter (see
//!   `accessors`); `shadowdusk::params::EffectParams` for the loader; `Pod`/`Zeroable` when
//!   the runtime crate's `bytemuck` feature is on;
//! - `Effect`: an empty enum implementing the runtime's `Effect` trait (bytes, `Params`,
//!   `Technique`, name, layout fingerprint, and for hot reload the source, the files read and
//!   the build's options), the type parameter of the runtime's typed effect;
//! - `Technique`, `passes::*` (`Pass<Effect>` values), `textures` (`TextureSlot<Effect>`
//!   values): techniques, passes and texture parameters typed by their effect.
//!
//! The code uses absolute paths only (`::core::…`, the runtime crate through
//! [`CodegenOptions::crate_path`]), so it compiles under `#![no_implicit_prelude]`, and it is
//! warning-free under `#![deny(warnings)]` and clippy's default lints.
//!
//! Refused with a [`CodegenError`] (never a partial module): non-OpenGL effects, records or
//! offsets that are not whole registers, entries that overrun their record or share a register,
//! dangling indices, struct parameters and arrays of arrays (MonoGame uploads nothing for
//! structs), int/bool matrices, malformed data blocks, a reflection that does not match the
//! effect, and options that are not valid Rust. Spec: mgfx-format.md §4, §6, §7, §12.

mod accessors;
mod docs;
mod items;
mod model;
pub(crate) mod names;
mod wgpu;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use shadowdusk_mgfx::{Effect, Profile};

use crate::reflect::{EffectReflection, ParameterInfo, ShaderInfo};

/// The module name an effect file gets (`shaders/BloomCombine.fx` → `bloom_combine`): its stem
/// in snake_case, `effect` when nothing usable is left, keywords with a trailing `_`. The build
/// script and `include_effect!` both name modules this way.
pub fn module_name(path: &std::path::Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    names::snake(&stem, "effect")
}

/// Where the generated `MGFX` constant gets its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MgfxSource {
    /// Embedded as a byte-string literal (self-contained; used by snapshots and the proc macro).
    Bytes(Vec<u8>),
    /// `include_bytes!` of this path, which must be absolute (the build script's `OUT_DIR`
    /// file). [`generate_string`] reads it to hash it for the header.
    IncludeBytes(PathBuf),
}

/// Code generation options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodegenOptions {
    /// Name of the generated module; must be a Rust identifier (not a keyword).
    pub module_name: String,
    /// The MGFX bytes for the `MGFX` constant.
    pub mgfx: MgfxSource,
    /// Path of the runtime crate in the user's crate. Default `::shadowdusk`.
    pub crate_path: String,
    /// The effect file it was compiled from (absolute), for shader hot reload (`Effect::SOURCE`);
    /// `None` writes `""`.
    pub source: Option<PathBuf>,
    /// Every file the compile read, absolute (`Effect::FILES_READ`): what hot reload watches
    /// without compiling first.
    pub files_read: Vec<PathBuf>,
    /// The options it was compiled with (`Effect::OPTIONS`), so a hot reload compiles alike.
    /// The MGFX version written is the effect's own.
    pub build: crate::pipeline::Options,
    /// The effect's wgpu output ([`crate::Compiled::wgpu`]), when it was compiled for wgpu:
    /// the module then has a `wgsl` part and `Effect::WGPU`.
    pub wgpu: Option<crate::wgsl::WgpuEffect>,
}

impl CodegenOptions {
    /// Options with the default crate path.
    pub fn new(module_name: impl Into<String>, mgfx: MgfxSource) -> CodegenOptions {
        CodegenOptions {
            module_name: module_name.into(),
            mgfx,
            crate_path: "::shadowdusk".to_string(),
            source: None,
            files_read: Vec::new(),
            build: crate::pipeline::Options::default(),
            wgpu: None,
        }
    }
}

/// Why no module was generated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodegenError {
    /// Only OpenGL effects have the register model the generated code mirrors.
    #[error("cannot generate parameters for a {0:?} effect; compile it for OpenGL")]
    UnsupportedProfile(Profile),
    /// A parameter whose type has no faithful typed accessor.
    #[error("parameter `{name}` is not supported by code generation: {reason}")]
    UnsupportedParameter {
        /// Parameter name.
        name: String,
        /// What is wrong and what to do.
        reason: String,
    },
    /// The effect breaks an MGFX rule the generated code relies on.
    #[error("the effect is malformed: {0}")]
    Malformed(String),
    /// The reflection does not describe this effect.
    #[error("the reflection does not match the effect: {0}; regenerate both from one compile")]
    ReflectionMismatch(String),
    /// An option is not valid Rust.
    #[error("invalid codegen option: {0}")]
    InvalidOption(String),
    /// The `IncludeBytes` file could not be read.
    #[error("cannot read MGFX file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The generator produced text that does not parse (a bug in ShadowDusk).
    #[error("internal error: generated code does not parse ({0}); please report this")]
    Internal(String),
}

impl CodegenError {
    /// The parameter the error is about, when there is one, so a caller can point at its
    /// declaration through the reflection.
    pub fn parameter(&self) -> Option<&str> {
        match self {
            CodegenError::UnsupportedParameter { name, .. } => Some(name),
            _ => None,
        }
    }
}

/// What every emitter needs.
pub(crate) struct Ctx<'a> {
    /// The runtime crate path, as tokens and as written.
    pub krate: TokenStream,
    pub krate_str: String,
    pub plan: &'a model::Plan,
    /// Field identifier of each record.
    pub fields: Vec<proc_macro2::Ident>,
    pub reflection: &'a EffectReflection,
    /// Directory locations are shown relative to.
    pub base: PathBuf,
}

impl Ctx<'_> {
    /// Reflection of parameter `index`, when the reflection is present.
    pub(crate) fn info(&self, index: usize) -> Option<&ParameterInfo> {
        self.reflection.parameters.get(index)
    }

    /// Reflection of shader `index`, when present.
    pub(crate) fn shader_info(&self, index: usize) -> Option<&ShaderInfo> {
        self.reflection.shaders.get(index)
    }
}

fn check_reflection(effect: &Effect, r: &EffectReflection) -> Result<(), CodegenError> {
    if !r.parameters.is_empty() {
        if r.parameters.len() != effect.parameters.len() {
            return Err(CodegenError::ReflectionMismatch(format!(
                "{} reflected parameters for {} MGFX parameters",
                r.parameters.len(),
                effect.parameters.len()
            )));
        }
        for (i, (info, p)) in r.parameters.iter().zip(&effect.parameters).enumerate() {
            if info.name != p.name {
                return Err(CodegenError::ReflectionMismatch(format!(
                    "parameter {i} is `{}` in the reflection and `{}` in the MGFX",
                    info.name, p.name
                )));
            }
        }
    }
    if !r.shaders.is_empty() && r.shaders.len() != effect.shaders.len() {
        return Err(CodegenError::ReflectionMismatch(format!(
            "{} reflected shaders for {} MGFX shaders",
            r.shaders.len(),
            effect.shaders.len()
        )));
    }
    Ok(())
}

fn parse_ident(name: &str) -> Result<proc_macro2::Ident, CodegenError> {
    let ok = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
        && !names::is_keyword(name);
    if !ok {
        return Err(CodegenError::InvalidOption(format!(
            "module name `{name}` is not a Rust identifier (use snake_case letters, digits and _)"
        )));
    }
    Ok(format_ident!("{}", name))
}

/// The `MGFX` constant's initializer.
fn mgfx_tokens(source: &MgfxSource) -> Result<TokenStream, CodegenError> {
    match source {
        MgfxSource::Bytes(b) => {
            let lit = Literal::byte_string(b);
            Ok(quote!(#lit))
        }
        MgfxSource::IncludeBytes(p) => {
            if !p.is_absolute() {
                return Err(CodegenError::InvalidOption(format!(
                    "include_bytes path {} is relative; it would resolve against the generated \
                     file, so pass an absolute path",
                    p.display()
                )));
            }
            let Some(s) = p.to_str() else {
                return Err(CodegenError::InvalidOption(format!(
                    "include_bytes path {} is not valid UTF-8",
                    p.display()
                )));
            };
            Ok(quote!(::core::include_bytes!(#s)))
        }
    }
}

/// `Params`, its layout assertions, `DEFAULT`, `Default`, accessors, `EffectParams`, `Pod`.
fn params_items(ctx: &Ctx) -> TokenStream {
    let k = &ctx.krate;
    let fields = &ctx.fields;
    let field_items = record_fields(ctx);
    let (offset_asserts, size) = layout_asserts(ctx);
    let default_fields = default_fields(ctx);
    let accessor_items = accessor_items(ctx);
    let buffer_arms = fields.iter().enumerate().map(|(i, f)| {
        let i = Literal::usize_unsuffixed(i);
        quote!(#i => ::core::option::Option::Some(&self.#f))
    });
    let count = Literal::usize_unsuffixed(fields.len());
    let pod_fields = ctx.plan.records.iter().zip(fields).map(|(rec, f)| {
        let n = Literal::usize_unsuffixed(rec.registers);
        quote!(#f: [[f32; 4]; #n])
    });
    let params_doc = accessors::doc_attrs(&[
        "The constant-buffer registers of the effect, one field per MGFX constant-buffer record \
         in record order, laid out exactly as MonoGame uploads them (`glUniform4fv` of \
         `size / 16` vec4s per record)."
            .to_string(),
        String::new(),
        format!(
            "Set values with the typed setters; hand it to `{}::gl::GlEffect::<Effect>::set_params` (which uploads it through `{0}::params::EffectParams`).",
            ctx.krate_str.trim_start_matches("::")
        ),
    ]);

    // Without records a `match` would have one arm, which clippy flags in the user's crate (the
    // module is `include!`d there).
    let buffer_body = if fields.is_empty() {
        quote!(let _ = record; ::core::option::Option::None)
    } else {
        quote!(match record { #(#buffer_arms,)* _ => ::core::option::Option::None, })
    };
    quote! {
        #params_doc
        #[repr(C)]
        #[derive(::core::clone::Clone, ::core::marker::Copy, ::core::fmt::Debug, ::core::cmp::PartialEq)]
        pub struct Params {
            #(#field_items,)*
        }

        const _: () = {
            let size = ::core::mem::size_of::<Params>();
            ::core::assert!(size == #size);
            #(#offset_asserts)*
        };

        impl Params {
            /// Every register as MonoGame initialises it from the parameters' MGFX data.
            #[allow(clippy::approx_constant)]
            pub const DEFAULT: Params = Params {
                #(#default_fields,)*
            };
        }

        impl ::core::default::Default for Params {
            /// [`Params::DEFAULT`].
            fn default() -> Params {
                Params::DEFAULT
            }
        }

        impl Params {
            #(#accessor_items)*
        }

        impl #k::params::EffectParams for Params {
            fn constant_buffer(&self, record: usize) -> ::core::option::Option<&[[f32; 4]]> {
                #buffer_body
            }

            fn constant_buffer_count(&self) -> usize {
                #count
            }
        }

        // SAFETY: `Params` is the `#[repr(C)]` struct above, whose every field is listed here
        // with its type; the macro checks the size adds up (no padding).
        #k::__impl_pod!(unsafe Params { #(#pod_fields),* });
    }
}

/// One `Params` field per record, documented with the registers each parameter takes, so a
/// reader of the generated code sees MonoGame's layout.
fn record_fields(ctx: &Ctx) -> Vec<TokenStream> {
    let plan = ctx.plan;
    let fields = &ctx.fields;
    plan.records
        .iter()
        .zip(fields)
        .enumerate()
        .map(|(ri, (rec, f))| {
            let n = Literal::usize_unsuffixed(rec.registers);
            let mut lines = vec![format!(
                "Record {ri}: {}, {} register{} ({} bytes), read by {}.",
                docs::code(&rec.name),
                rec.registers,
                if rec.registers == 1 { "" } else { "s" },
                rec.registers * 16,
                docs::shader_list(&rec.shaders)
            )];
            if !rec.contents.is_empty() {
                lines.push(String::new());
            }
            for (first, pi) in &rec.contents {
                let Some(v) = plan.values.iter().find(|v| v.index == *pi) else {
                    continue;
                };
                let n = v.registers();
                let range = if n == 1 {
                    format!("[{first}]")
                } else {
                    format!("[{first}..{}]", first + n)
                };
                lines.push(format!(
                    "- {}: {} ({})",
                    docs::code(&range),
                    docs::code(&v.name),
                    docs::code(&docs::hlsl_type(v))
                ));
            }
            let doc = accessors::doc_attrs(&lines);
            quote!(#doc pub #f: [[f32; 4]; #n])
        })
        .collect()
}

/// Compile-time checks that each field sits at its record's byte offset and that nothing pads
/// the struct, since the runtimes upload it as bytes; and the struct's size.
fn layout_asserts(ctx: &Ctx) -> (Vec<TokenStream>, Literal) {
    let mut offset = 0usize;
    let fields = &ctx.fields;
    let offset_asserts: Vec<TokenStream> = ctx
        .plan
        .records
        .iter()
        .zip(fields)
        .map(|(rec, f)| {
            let o = Literal::usize_unsuffixed(offset);
            offset += rec.registers * 16;
            quote!(::core::assert!(::core::mem::offset_of!(Params, #f) == #o);)
        })
        .collect();
    (offset_asserts, Literal::usize_unsuffixed(offset))
}

/// `DEFAULT`'s fields: each record's registers as MonoGame initialises them.
fn default_fields(ctx: &Ctx) -> Vec<TokenStream> {
    ctx.plan
        .records
        .iter()
        .zip(&ctx.fields)
        .map(|(rec, f)| {
            let n = Literal::usize_unsuffixed(rec.registers);
            if rec.default.iter().all(|r| r.iter().all(|b| *b == 0)) {
                quote!(#f: [[0.0; 4]; #n])
            } else {
                let regs = rec.default.iter().map(|r| {
                    let lanes = r.iter().map(|b| docs::float_tokens(*b));
                    quote!([#(#lanes),*])
                });
                quote!(#f: [#(#regs),*])
            }
        })
        .collect()
}

/// The typed getters and setters. Each parameter's family of names (`x`, `set_x`, and for
/// arrays `x_at`, `set_x_at`) is claimed in declaration order, clear of `Params`'s own methods
/// and of one another, so a name never depends on what comes after it.
fn accessor_items(ctx: &Ctx) -> Vec<TokenStream> {
    let mut methods = names::Namer::with_reserved(&[
        "clone",
        "constant_buffer",
        "constant_buffer_count",
        "default",
        "eq",
        "fmt",
        "ne",
    ]);
    ctx.plan
        .values
        .iter()
        .map(|v| {
            let base = names::snake(&v.name, "param");
            let family: &[(&str, &str)] = if v.array.is_some() {
                &[("", ""), ("set_", ""), ("", "_at"), ("set_", "_at")]
            } else {
                &[("", ""), ("set_", "")]
            };
            let name = methods.claim(&base, "_", family);
            accessors::accessors(ctx, v, &name)
        })
        .collect()
}

/// The label the docs and header use for the effect: the reflection's source file name.
fn source_label(reflection: &EffectReflection, module: &str) -> String {
    reflection
        .source
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| module.to_string())
}

/// Generates the module as tokens.
pub fn generate(
    effect: &Effect,
    reflection: &EffectReflection,
    options: &CodegenOptions,
) -> Result<TokenStream, CodegenError> {
    let module = parse_ident(&options.module_name)?;
    let krate_path: syn::Path = syn::parse_str(&options.crate_path).map_err(|e| {
        CodegenError::InvalidOption(format!(
            "crate path `{}` is not a Rust path: {e}",
            options.crate_path
        ))
    })?;
    check_reflection(effect, reflection)?;
    let plan = model::plan(effect)?;

    let mut field_names = names::Namer::with_reserved(&[]);
    let fields = plan
        .records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let base = format!("{}_{i}", names::snake(&r.name, "record"));
            format_ident!("{}", field_names.claim_one(&base, "_"))
        })
        .collect();
    let ctx = Ctx {
        krate: quote!(#krate_path),
        krate_str: options.crate_path.clone(),
        plan: &plan,
        fields,
        reflection,
        base: reflection
            .source
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
    };

    let mgfx = mgfx_tokens(&options.mgfx)?;
    let params = params_items(&ctx);
    let techniques = items::techniques(&ctx, effect);
    let textures = items::textures(&ctx);
    let label = source_label(reflection, &options.module_name);
    let marker = items::effect_marker(&ctx, &label, effect, options);
    let module_doc = format!(" Typed parameters of the effect {}.", docs::code(&label));
    // Outer docs of a module resolve links in the parent's scope, hence the module prefix.
    let module_items_doc = format!(
        " Generated by ShadowDusk: [`Effect`]({m}::Effect) (the effect as a type), \
         [`MGFX`]({m}::MGFX) (the compiled effect), [`Params`]({m}::Params) (its \
         constant-buffer registers with typed setters), [`Technique`]({m}::Technique), \
         [`passes`]({m}::passes) and [`textures`]({m}::textures).",
        m = options.module_name
    );
    let mgfx_doc = format!(" The compiled effect (MGFX v{}, OpenGL).", effect.version);
    let wgpu = match &options.wgpu {
        Some(w) => wgpu::module(&ctx.krate, effect, w)?,
        None => TokenStream::new(),
    };

    Ok(quote! {
        #[doc = #module_doc]
        ///
        #[doc = #module_items_doc]
        // A program uses some of an effect's setters and techniques, not all: in a binary crate
        // the rest would be dead-code warnings the user cannot fix.
        #[allow(dead_code)]
        pub mod #module {
            #[doc = #mgfx_doc]
            pub const MGFX: &[u8] = #mgfx;

            #marker
            #params
            #techniques
            #textures
            #wgpu
        }
    })
}

/// Generates the module as formatted file text, with a header naming the tool, its version and
/// a hash of the MGFX bytes.
pub fn generate_string(
    effect: &Effect,
    reflection: &EffectReflection,
    options: &CodegenOptions,
) -> Result<String, CodegenError> {
    format_module(generate(effect, reflection, options)?, reflection, options)
}

/// [`generate`]'s tokens as [`generate_string`] writes them: formatted, under the header.
pub fn format_module(
    tokens: TokenStream,
    reflection: &EffectReflection,
    options: &CodegenOptions,
) -> Result<String, CodegenError> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| CodegenError::Internal(e.to_string()))?;
    let bytes = match &options.mgfx {
        MgfxSource::Bytes(b) => b.clone(),
        MgfxSource::IncludeBytes(p) => std::fs::read(p).map_err(|source| CodegenError::Io {
            path: p.clone(),
            source,
        })?,
    };
    let hash = blake3::hash(&bytes);
    let label = source_label(reflection, &options.module_name);
    let header = format!(
        "// @generated by shadowdusk-compiler {} from {label}. Do not edit.\n\
         // MGFX: {} bytes, blake3 {}.\n\n",
        env!("CARGO_PKG_VERSION"),
        bytes.len(),
        hash.to_hex()
    );
    Ok(header + &prettyplease::unparse(&file))
}
