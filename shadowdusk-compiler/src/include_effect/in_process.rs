//! `include_effect!(…, in_process)`: the effect compiled inside the macro with default options
//! and its module generated here. Only with the `compile` feature.
//!
//! With a cache folder ([`MacroEnv::expansion_cache`](super::MacroEnv::expansion_cache)) an
//! unchanged effect is not compiled again: the module comes from [`expansion_cache`], keyed by
//! content, and its `MGFX` is `include_bytes!` of the cached `.mgfx`. Without one (or when the
//! folder cannot be written, or DXC's identity is unknown) `MGFX` is a byte string. A hit gives
//! the tokens a miss gives; the expansion reports no warnings either way (a proc macro cannot),
//! and errors are never cached. The effect's files are read once
//! ([`pipeline::preprocess_file`]): the key is computed from those texts and a miss compiles
//! them ([`pipeline::compile_preprocessed`]), so what is stored under a key is always that
//! key's text, whenever a file is saved.

use std::path::Path;

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::quote;

use super::expansion_cache::{self, ExpansionCache, KeyInputs};
use super::{display_path, tracking_items, Input};
use crate::codegen::{self, CodegenOptions, MgfxSource};
use crate::paths::normalize;
use crate::pipeline::{self, CompileError};
use crate::reflect::EffectReflection;

/// The module for the effect at `abs` (`shown` in messages), with the tracking constants inside.
pub(super) fn expand(
    input: &Input,
    abs: &Path,
    shown: &str,
    env: &super::MacroEnv,
) -> Result<TokenStream, String> {
    let build = pipeline::Options {
        wgpu: input.wgpu,
        ..pipeline::Options::default()
    };
    let module_name = match &input.name {
        Some(n) => n.to_string().trim_start_matches("r#").to_string(),
        None => codegen::module_name(abs),
    };
    let crate_path = match &input.krate {
        Some(p) => quote!(#p).to_string().replace(' ', ""),
        None => env.crate_path.clone(),
    };
    let inputs = KeyInputs {
        options: &build,
        module_name: &module_name,
        crate_path: &crate_path,
    };
    // One read of the effect's files: the key, the compile and the tracked files all come from
    // it, so a file saved in the meantime is never stored under another text's key.
    let source = pipeline::preprocess_file(abs, &build.preprocess)
        .map_err(|e| shader_error_message(&e, &env.manifest_dir))?;
    let deps = source.deps().to_vec();
    // Keyed by the DXC a compile would take (none when DXC is unavailable: the compile then
    // says why, and nothing is cached).
    let keyed_dxc = crate::dxc::expected_version().ok();
    let cached = env
        .expansion_cache
        .as_deref()
        .zip(keyed_dxc.as_deref())
        .map(|(dir, dxc)| {
            let key = expansion_cache::key(&inputs, dxc, source.files());
            (ExpansionCache { dir }, key)
        });
    if let Some((cache, key)) = &cached {
        if let Some(module) = cache.lookup(key).and_then(|e| e.code.parse().ok()) {
            return Ok(append_to_module(module, tracking_items(abs, &deps)));
        }
    }

    let compiled = pipeline::compile_preprocessed(source, &build)
        .map_err(|e| shader_error_message(&e, &env.manifest_dir))?;
    // The OpenGL output is there; `wgpu` asked for more than the target can give. Say which
    // construct, and how to keep the effect OpenGL-only (never a silent module without it).
    if let Some(e) = compiled.wgpu_failure() {
        return Err(format!(
            "{}\nerror: the wgpu target cannot translate `{shown}`, which compiles for OpenGL\n\
             help: to keep `{shown}` OpenGL-only, drop `wgpu` from this `include_effect!` (its \
             module then has no `wgsl` part)",
            shader_error_message(&e, &env.manifest_dir)
        ));
    }
    // Stored only under the key of the DXC that compiled it (one replaced on disk since the key
    // was made compiled this expansion: it is returned, not cached).
    let same_dxc = compiled.dxc.is_none() || compiled.dxc == keyed_dxc;
    let stored = cached
        .as_ref()
        .filter(|_| same_dxc)
        .and_then(|(cache, key)| {
            let ok = cache.store_mgfx(key, &compiled.bytes).is_ok();
            ok.then_some((cache, key))
        });
    let mgfx = match stored {
        Some((cache, key)) => MgfxSource::IncludeBytes(cache.mgfx_path(key)),
        None => MgfxSource::Bytes(compiled.bytes.clone()),
    };
    let options = CodegenOptions {
        module_name,
        mgfx,
        crate_path,
        source: Some(abs.to_path_buf()),
        files_read: compiled.reflection.files_read.clone(),
        build,
        wgpu: compiled.wgpu.clone(),
    };
    let module = codegen::generate(&compiled.effect, &compiled.reflection, &options)
        .map_err(|e| codegen_message(&e, shown, &compiled.reflection, &env.manifest_dir))?;
    if let Some((cache, key)) = stored {
        cache.store_code(key, &module.to_string(), &compiled.bytes);
    }
    Ok(append_to_module(module, tracking_items(abs, &deps)))
}

/// A shader error for `compile_error!`: [`crate::diag::render_located`] with paths relative to
/// the crate root, so messages do not depend on where the checkout lives.
fn shader_error_message(e: &CompileError, manifest_dir: &Path) -> String {
    let fallback = e
        .files
        .iter()
        .next()
        .map(|(_, f)| f.path.clone())
        .unwrap_or_default();
    let text = crate::diag::render_located(&e.files, &e.diagnostics.0, manifest_dir, &fallback);
    if text.is_empty() {
        return "the effect failed to compile".to_string();
    }
    text.trim_end().to_string()
}

fn codegen_message(
    e: &codegen::CodegenError,
    shown: &str,
    reflection: &EffectReflection,
    manifest_dir: &Path,
) -> String {
    let mut msg = format!("cannot generate Rust for `{shown}`: {e}");
    let declared = e
        .parameter()
        .and_then(|name| reflection.parameters.iter().find(|p| p.name == name))
        .and_then(|p| p.location.as_ref());
    if let Some(loc) = declared {
        msg.push_str(&format!(
            "\n  --> {}:{}:{}",
            display_path(&loc.file, manifest_dir),
            loc.line,
            loc.column
        ));
    }
    strip_dir(&msg, manifest_dir)
}

/// Appends `items` inside the body of the generated `pub mod name { … }`.
fn append_to_module(module: TokenStream, items: TokenStream) -> TokenStream {
    let mut tokens: Vec<TokenTree> = module.into_iter().collect();
    let body = tokens
        .iter()
        .rposition(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace));
    if let Some(i) = body {
        if let TokenTree::Group(g) = &tokens[i] {
            let mut stream = g.stream();
            stream.extend(items);
            let mut group = Group::new(Delimiter::Brace, stream);
            group.set_span(g.span());
            tokens[i] = TokenTree::Group(group);
        }
    }
    tokens.into_iter().collect()
}

/// Absolute paths of files under the crate root that reach a message through other text (an
/// include search list, say) are shown relative too.
pub(super) fn strip_dir(text: &str, dir: &Path) -> String {
    let mut prefix = normalize(dir).display().to_string();
    if prefix.is_empty() || prefix == "/" {
        return text.to_string();
    }
    prefix.push(std::path::MAIN_SEPARATOR);
    text.replace(&prefix, "")
}
