//! The effect, its techniques, passes and texture slots as typed items (mgfx-format.md §5.2,
//! §8).
//!
//! `Effect` is an empty enum implementing the runtime's `Effect` trait: the type that ties the
//! bytes, `Params`, passes and slots of this effect together, so the runtime refuses another
//! effect's at compile time. `Technique` is an enum whose discriminants are the MGFX technique
//! indices; `passes::<technique>` holds one `Pass<Effect>` constant per pass; `textures` holds
//! each texture parameter's `TextureSlot<Effect>` and the texture units its samplers use.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use shadowdusk_mgfx::{Effect, Pass, ShaderStage, Technique};

use super::accessors::doc_attrs;
use super::docs;
use super::names::{self, Namer};
use super::Ctx;

/// One pass's shaders for docs: "vertex shader 1 (`VSMain`, `vs_3_0`), pixel shader 0 (…)".
fn pass_shaders(ctx: &Ctx, pass: &Pass) -> String {
    let mut parts = Vec::new();
    for (index, stage) in [
        (pass.vertex_shader, ShaderStage::Vertex),
        (pass.pixel_shader, ShaderStage::Pixel),
    ] {
        let Ok(i) = usize::try_from(index) else {
            continue;
        };
        let mut s = format!("{} shader {i}", docs::stage_word(stage));
        if let Some(info) = ctx.shader_info(i) {
            s.push_str(&format!(
                " ({}, {})",
                docs::code(&info.entry),
                docs::code(&info.profile)
            ));
        }
        parts.push(s);
    }
    if parts.is_empty() {
        "no shaders (keeps the device's)".to_string()
    } else {
        parts.join(", ")
    }
}

/// The `Technique` enum and the `passes` module.
pub(crate) fn techniques(ctx: &Ctx, effect: &Effect) -> TokenStream {
    let names = variant_names(effect);
    let idents: Vec<_> = names.iter().map(|n| format_ident!("{}", n)).collect();
    let pass_names = pass_idents(effect, &names);
    let technique = technique_enum(ctx, effect, &idents, &pass_names);
    let pass_mods = effect
        .techniques
        .iter()
        .zip(&names)
        .zip(&pass_names)
        .enumerate()
        .map(|(ti, ((t, variant), (m, consts)))| pass_module(ctx, ti, t, variant, m, consts));
    quote! {
        #technique

        /// The passes of each technique, one module per technique: what
        /// `GlEffect::<Effect>::apply` takes.
        pub mod passes {
            #(#pass_mods)*
        }
    }
}

/// `Technique` variant names, unique even when technique names camel-case alike; an
/// anonymous technique is named by its index.
fn variant_names(effect: &Effect) -> Vec<String> {
    let mut variants = Namer::with_reserved(&[]);
    effect
        .techniques
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let base = if t.name.trim().is_empty() {
                format!("Technique{i}")
            } else {
                names::camel(&t.name, "Technique")
            };
            variants.claim_one(&base, "")
        })
        .collect()
}

/// Each technique's module in `passes` and its pass constants. Named before any item is
/// written, since `Technique::passes` refers to the constants.
fn pass_idents(effect: &Effect, names: &[String]) -> Vec<(Ident, Vec<Ident>)> {
    let mut modules = Namer::with_reserved(&[]);
    effect
        .techniques
        .iter()
        .zip(names)
        .map(|(t, variant)| {
            let m = format_ident!(
                "{}",
                modules.claim_one(&names::snake(variant, "technique"), "_")
            );
            let mut consts = Namer::with_reserved(&[]);
            let cs = t
                .passes
                .iter()
                .enumerate()
                .map(|(pi, p)| {
                    let base = if p.name.trim().is_empty() {
                        format!("PASS_{pi}")
                    } else {
                        names::screaming(&p.name, "PASS")
                    };
                    format_ident!("{}", consts.claim_one(&base, "_"))
                })
                .collect();
            (m, cs)
        })
        .collect()
}

/// A technique's or pass's name for docs.
fn doc_name(name: &str) -> String {
    if name.is_empty() {
        "anonymous".to_string()
    } else {
        docs::code(name)
    }
}

/// One `Technique` variant, its docs listing the passes and their shaders so the choice can
/// be made from the generated docs alone.
fn technique_variant(ctx: &Ctx, i: usize, t: &Technique, id: &Ident) -> TokenStream {
    let mut lines = vec![
        format!(
            "Technique {i}, {} ({} pass{}).",
            doc_name(&t.name),
            t.passes.len(),
            if t.passes.len() == 1 { "" } else { "es" }
        ),
        String::new(),
    ];
    for (pi, p) in t.passes.iter().enumerate() {
        let pname = doc_name(&p.name);
        lines.push(format!("- pass {pi}, {pname}: {}", pass_shaders(ctx, p)));
    }
    let doc = doc_attrs(&lines);
    let disc = Literal::usize_unsuffixed(i);
    quote!(#doc #id = #disc)
}

/// The `Technique` enum with its index, name and pass lookups.
fn technique_enum(
    ctx: &Ctx,
    effect: &Effect,
    idents: &[Ident],
    pass_names: &[(Ident, Vec<Ident>)],
) -> TokenStream {
    let count = Literal::usize_unsuffixed(idents.len());
    let variant_items = effect
        .techniques
        .iter()
        .zip(idents)
        .enumerate()
        .map(|(i, (t, id))| technique_variant(ctx, i, t, id));
    let name_arms = effect.techniques.iter().zip(idents).map(|(t, id)| {
        let n = &t.name;
        quote!(Technique::#id => #n)
    });
    let pass_name_arms = effect.techniques.iter().zip(idents).map(|(t, id)| {
        let ns = t.passes.iter().map(|p| &p.name);
        quote!(Technique::#id => &[#(#ns),*])
    });
    let from_arms = idents.iter().enumerate().map(|(i, id)| {
        let i = Literal::usize_unsuffixed(i);
        quote!(#i => ::core::option::Option::Some(Technique::#id))
    });
    let pass_list_arms = idents
        .iter()
        .zip(pass_names)
        .map(|(id, (m, consts))| quote!(Technique::#id => &[#(passes::#m::#consts),*]));
    let k = &ctx.krate;
    quote! {
        /// The techniques of the effect; the discriminant is the MGFX technique index.
        #[derive(
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::fmt::Debug,
            ::core::cmp::PartialEq,
            ::core::cmp::Eq,
            ::core::hash::Hash,
            ::core::cmp::PartialOrd,
            ::core::cmp::Ord
        )]
        // Variants mirror the effect's technique names, which often share a prefix.
        #[allow(clippy::enum_variant_names)]
        pub enum Technique {
            #(#variant_items,)*
        }

        impl Technique {
            /// Every technique, in MGFX order.
            pub const ALL: [Technique; #count] = [#(Technique::#idents),*];

            /// The MGFX technique index.
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The technique with MGFX index `index`.
            pub const fn from_index(index: usize) -> ::core::option::Option<Technique> {
                match index {
                    #(#from_arms,)*
                    _ => ::core::option::Option::None,
                }
            }

            /// The name as written in the effect (`""` when anonymous).
            pub const fn name(self) -> &'static str {
                match self {
                    #(#name_arms,)*
                }
            }

            /// The passes, in order (the constants of [`passes`]).
            pub const fn passes(self) -> &'static [#k::Pass<Effect>] {
                match self {
                    #(#pass_list_arms,)*
                }
            }

            /// The pass names, in order (`""` for anonymous passes).
            pub const fn pass_names(self) -> &'static [&'static str] {
                match self {
                    #(#pass_name_arms,)*
                }
            }
        }
    }
}

/// The module of technique `ti`'s pass constants; `variant` is its `Technique` variant.
fn pass_module(
    ctx: &Ctx,
    ti: usize,
    t: &Technique,
    variant: &str,
    m: &Ident,
    consts: &[Ident],
) -> TokenStream {
    let k = &ctx.krate;
    let items = t.passes.iter().zip(consts).enumerate().map(|(pi, (p, c))| {
        let doc = format!(
            " Pass {pi} ({}): {}.",
            doc_name(&p.name),
            pass_shaders(ctx, p)
        );
        let (ti, pi) = (Literal::usize_unsuffixed(ti), Literal::usize_unsuffixed(pi));
        // `unsafe`: `__new`'s contract, a pass of this effect's MGFX, holds by
        // construction (the indices are those of the technique and pass it compiled).
        quote! {
            #[doc = #doc]
            pub const #c: #k::Pass<super::super::Effect> =
                unsafe { #k::Pass::__new(#ti, #pi) };
        }
    });
    // Outer docs of a module resolve links in the parent's (`passes`) scope.
    let doc = format!(" Passes of [`Technique::{variant}`](super::Technique::{variant}).");
    quote!(#[doc = #doc] pub mod #m { #(#items)* })
}

/// The `textures` module.
pub(crate) fn textures(ctx: &Ctx) -> TokenStream {
    let k = &ctx.krate;
    let mut consts = Namer::with_reserved(&[]);
    let items = ctx.plan.textures.iter().map(|t| {
        let base = names::screaming(&t.name, "TEXTURE");
        let name = consts.claim(&base, "_", &[("", ""), ("", "_UNITS")]);
        let index_id = format_ident!("{}", name);
        let units_id = format_ident!("{}_UNITS", name);
        let units: BTreeSet<u8> = t.uses.iter().map(|u| u.3).collect();
        let unit_lits = units.iter().map(|u| Literal::u8_unsuffixed(*u));
        let mut lines = vec![
            format!(
                "The texture parameter {} ({:?}, MGFX parameter {}).",
                docs::code(&t.name),
                t.ty,
                t.index
            ),
            String::new(),
        ];
        if let Some(info) = ctx.info(t.index) {
            if !info.declaration.trim().is_empty() {
                let mut l = format!("HLSL: {}", docs::code(&info.declaration));
                if let Some(loc) = &info.location {
                    l.push_str(&format!(
                        " ({})",
                        docs::location_text(&loc.file, loc.line, &ctx.base)
                    ));
                }
                lines.push(l);
                lines.push(String::new());
            }
        }
        if t.uses.is_empty() {
            lines.push("No shader samples it.".to_string());
        } else {
            lines.push("Sampled by:".to_string());
            lines.push(String::new());
            for (si, stage, sampler, unit) in &t.uses {
                lines.push(format!(
                    "- {} shader {si} as {} on texture unit {unit}",
                    docs::stage_word(*stage),
                    docs::code(sampler)
                ));
            }
        }
        let doc = doc_attrs(&lines);
        let index = Literal::usize_unsuffixed(t.index);
        let units_doc = format!(
            " Texture units {} is bound to (sorted, distinct).",
            docs::code(&t.name)
        );
        quote! {
            #doc
            pub const #index_id: #k::TextureSlot<super::Effect> =
                unsafe { #k::TextureSlot::__new(#index) };
            #[doc = #units_doc]
            pub const #units_id: &[u8] = &[#(#unit_lits),*];
        }
    });
    quote! {
        /// Texture parameters: their slots (what `GlEffect::<Effect>::set_texture` takes) and
        /// the texture units shaders sample them on.
        pub mod textures {
            #(#items)*
        }
    }
}

/// The `Effect` marker type and its `Effect` trait implementation.
pub(crate) fn effect_marker(
    ctx: &Ctx,
    label: &str,
    effect: &shadowdusk_mgfx::Effect,
    options: &super::CodegenOptions,
) -> TokenStream {
    let k = &ctx.krate;
    let krate = ctx.krate_str.trim_start_matches("::");
    let doc = doc_attrs(&[
        format!(
            "The effect {} as a type (never instantiated).",
            docs::code(label)
        ),
        String::new(),
        format!(
            "It implements `{krate}::Effect`, which ties [`MGFX`], [`Params`], [`Technique`], \
             [`passes`] and [`textures`] together: `{krate}::gl::GlEffect::<Effect>` takes this \
             effect's passes, texture slots and `Params`, and another effect's fail to compile."
        ),
    ]);
    let name = Literal::string(label);
    let layout = Literal::u64_suffixed(shadowdusk_mgfx::layout::fingerprint(effect));
    let source = Literal::string(
        &options
            .source
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
    );
    let files_read = options
        .files_read
        .iter()
        .map(|p| Literal::string(&p.display().to_string()));
    let build_options = build_options(ctx, effect, &options.build);
    let wgpu = options.wgpu.as_ref().map(|_| {
        quote!(const WGPU: ::core::option::Option<&'static #k::wgsl::WgslEffect> = ::core::option::Option::Some(&wgsl::EFFECT);)
    });
    quote! {
        #doc
        pub enum Effect {}

        impl #k::Effect for Effect {
            type Params = Params;
            type Technique = Technique;
            const MGFX: &'static [u8] = MGFX;
            const NAME: &'static str = #name;
            const LAYOUT: u64 = #layout;
            const SOURCE: &'static str = #source;
            const FILES_READ: &'static [&'static str] = &[#(#files_read),*];
            const OPTIONS: #k::BuildOptions = #build_options;
            #wgpu
        }
    }
}

/// The runtime's `BuildOptions` value for `build`: what hot reload compiles with. The MGFX
/// version is the one `effect` was written in.
fn build_options(
    ctx: &Ctx,
    effect: &shadowdusk_mgfx::Effect,
    build: &crate::pipeline::Options,
) -> TokenStream {
    let k = &ctx.krate;
    let version = Literal::u8_unsuffixed(effect.version);
    let wx = build.warnings_as_errors;
    let debug = build.preprocess.debug;
    let defines = build.preprocess.defines.iter().map(|(k, v)| {
        let (k, v) = (Literal::string(k), Literal::string(v));
        quote!((#k, #v))
    });
    let include_dirs = build
        .preprocess
        .include_dirs
        .iter()
        .map(|d| Literal::string(&d.display().to_string()));
    let source_name = Literal::string(build.source_name.as_deref().unwrap_or(""));
    quote! {
        #k::BuildOptions {
            mgfx_version: #version,
            warnings_as_errors: #wx,
            debug: #debug,
            defines: &[#(#defines),*],
            include_dirs: &[#(#include_dirs),*],
            source_name: #source_name,
        }
    }
}
