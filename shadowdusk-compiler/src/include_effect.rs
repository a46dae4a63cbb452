//! What `include_effect!` expands to, as a plain function so it can be tested and benchmarked
//! without rustc (the `shadowdusk-macros` crate is a one-line shell over [`expand`]).
//!
//! Input: the macro's tokens and a [`MacroEnv`]. Syntax:
//!
//! ```text
//! include_effect!("shaders/tint.fx");                       // → pub mod tint { … }
//! include_effect!("shaders/tint.fx", name = warm_tint);     // → pub mod warm_tint { … }
//! include_effect!("shaders/tint.fx", crate = ::my_engine::shadowdusk);
//! include_effect!("shaders/tint.fx", in_process);          // no build script: compile here
//! ```
//!
//! The path is relative to the crate root (`CARGO_MANIFEST_DIR`, the folder holding
//! `Cargo.toml`); the module is named after the file stem in snake_case unless `name` is given;
//! `crate` is the path of the runtime crate the generated code refers to (default
//! `::shadowdusk`).
//!
//! Output: the module [`codegen`] generates (`pub mod name { … }`). Its bytes come from the
//! build script's artifact ([`crate::artifact`]): `OUT_DIR` must hold one for this file whose
//! recorded source contents match the files on disk (`include_bytes!` of the `.mgfx`), so the
//! module always has exactly the defines and include folders the `Builder` compiled it with. A
//! missing or out-of-date artifact is an error saying what to do, never a silent compile with
//! other options. `in_process` asks for the other way explicitly: the effect is compiled here
//! with default options and embedded as a byte string (a crate without a build script). Either
//! way the module holds a hidden `const _: &[u8] = include_bytes!(…)` per source file (the
//! effect and every include), which is how rustc learns to rebuild the crate when one
//! changes.
//!
//! Errors become `compile_error!` spanned on the path literal, never a panic: malformed macro
//! input, a missing file, a shader error (rendered with `path:line:col`, code, message and
//! snippet, paths relative to the crate root) and a code generation error.

use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, Group, Literal, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

use crate::artifact::{self, Manifest};
use crate::codegen::{self, CodegenOptions, MgfxSource};
use crate::paths::normalize;
use crate::pipeline::{self, CompileError};
use crate::reflect::EffectReflection;

/// What the macro knows about the crate being compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroEnv {
    /// The crate root (`CARGO_MANIFEST_DIR`); effect paths are relative to it.
    pub manifest_dir: PathBuf,
    /// The build script's output folder (`OUT_DIR`), when the crate has a build script.
    pub out_dir: Option<PathBuf>,
    /// The runtime crate's path in generated code, unless the invocation says `crate = …`.
    pub crate_path: String,
}

impl MacroEnv {
    /// An environment with no build script and the default runtime path `::shadowdusk`.
    pub fn new(manifest_dir: impl Into<PathBuf>) -> MacroEnv {
        MacroEnv {
            manifest_dir: manifest_dir.into(),
            out_dir: None,
            crate_path: "::shadowdusk".to_string(),
        }
    }

    /// The environment cargo gives rustc: `CARGO_MANIFEST_DIR` and, with a build script,
    /// `OUT_DIR`.
    pub fn from_process_env() -> Result<MacroEnv, String> {
        let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").ok_or_else(|| {
            "CARGO_MANIFEST_DIR is not set; include_effect! must be expanded by cargo".to_string()
        })?;
        let mut env = MacroEnv::new(manifest_dir);
        env.out_dir = std::env::var_os("OUT_DIR").map(PathBuf::from);
        Ok(env)
    }
}

/// The parsed invocation.
struct Input {
    path: LitStr,
    name: Option<Ident>,
    krate: Option<syn::Path>,
    /// `in_process`: compile here with default options instead of using the build script's
    /// artifact.
    in_process: bool,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Input> {
        if input.is_empty() {
            return Err(
                input.error("expected the effect's path: include_effect!(\"shaders/tint.fx\")")
            );
        }
        let path: LitStr = input.parse()?;
        let mut out = Input {
            path,
            name: None,
            krate: None,
            in_process: false,
        };
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            if input.peek(Token![crate]) {
                let kw: Token![crate] = input.parse()?;
                input.parse::<Token![=]>()?;
                if out.krate.is_some() {
                    return Err(syn::Error::new(kw.span, "`crate` is given twice"));
                }
                out.krate = Some(input.parse()?);
                continue;
            }
            let key: Ident = input.parse().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "expected `name = <ident>`, `crate = <path>` or `in_process`",
                )
            })?;
            if key == "in_process" {
                out.in_process = true;
                continue;
            }
            input.parse::<Token![=]>()?;
            match key.to_string().as_str() {
                "name" if out.name.is_some() => {
                    return Err(syn::Error::new(key.span(), "`name` is given twice"));
                }
                "name" => out.name = Some(input.parse()?),
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown option `{other}`; expected `name`, `crate` or `in_process`"
                        ),
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// Expands one `include_effect!` invocation. Never panics: every failure is a
/// `compile_error!` spanned on the offending token.
pub fn expand(input: TokenStream, env: &MacroEnv) -> TokenStream {
    let input: Input = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    match expand_input(&input, env) {
        Ok(tokens) => tokens,
        Err(message) => compile_error(input.path.span(), &message),
    }
}

fn compile_error(span: Span, message: &str) -> TokenStream {
    let mut lit = Literal::string(message);
    lit.set_span(span);
    quote_spanned!(span=> ::core::compile_error!(#lit);)
}

/// The effect to generate from: bytes (or their file), the model and reflection, the files to
/// track.
struct Source {
    mgfx: MgfxSource,
    effect: shadowdusk_mgfx::Effect,
    reflection: EffectReflection,
    deps: Vec<PathBuf>,
    /// The options it was compiled with, for the generated `Effect` (hot reload compiles alike).
    defines: Vec<(String, String)>,
    include_dirs: Vec<PathBuf>,
}

fn expand_input(input: &Input, env: &MacroEnv) -> Result<TokenStream, String> {
    let written = input.path.value();
    if written.trim().is_empty() {
        let example = r#"include_effect!("shaders/tint.fx")"#;
        return Err(format!(
            "the effect path is empty; name a .fx file relative to the crate root, e.g. {example}"
        ));
    }
    let abs = normalize(&env.manifest_dir.join(&written));
    // Relative to the crate root, as the build script names its artifacts and as messages show
    // it: `./shaders/x/../tint.fx` and an absolute spelling both become `shaders/tint.fx`.
    let shown = display_path(&abs, &env.manifest_dir);
    if let Err(e) = std::fs::metadata(&abs).and_then(|m| {
        if m.is_file() {
            Ok(())
        } else {
            Err(std::io::Error::other("it is not a file"))
        }
    }) {
        return Err(format!(
            "cannot read effect file `{shown}`: {e}\n\
             help: the path is relative to the crate root (the folder holding Cargo.toml)"
        ));
    }
    let module_name = match &input.name {
        Some(n) => n.to_string().trim_start_matches("r#").to_string(),
        None => codegen::module_name(&abs),
    };
    let crate_path = match &input.krate {
        Some(p) => quote!(#p).to_string().replace(' ', ""),
        None => env.crate_path.clone(),
    };

    let source = if input.in_process {
        compile_in_process(&abs, env)?
    } else {
        from_artifact(env.out_dir.as_deref(), Path::new(&shown), &abs)?
    };

    let options = CodegenOptions {
        module_name,
        mgfx: source.mgfx,
        crate_path,
        source: Some(abs.clone()),
        defines: source.defines,
        include_dirs: source.include_dirs,
    };
    let module = codegen::generate(&source.effect, &source.reflection, &options)
        .map_err(|e| codegen_message(&e, &shown, &source.reflection, env))?;
    Ok(append_to_module(module, tracking_items(&abs, &source.deps)))
}

/// The build script's artifact for `rel`: it must exist, describe this file, and have been
/// compiled from exactly the contents the effect's files have now. Otherwise the message says
/// what to do (the macro never compiles with options other than the build script's on its own).
fn from_artifact(out_dir: Option<&Path>, rel: &Path, abs: &Path) -> Result<Source, String> {
    let shown = rel.display();
    let in_process = format!(
        "or write `include_effect!(\"{shown}\", in_process)` to compile it here with default options \
         (no defines or include folders)"
    );
    let Some(out_dir) = out_dir else {
        return Err(format!(
            "`{shown}` has no compiled artifact: this crate has no build script\n\
             help: add `shadowdusk_build::Builder::new().file(\"{shown}\").compile();` to build.rs \
             (with `shadowdusk-build` in [build-dependencies]), {in_process}"
        ));
    };
    let paths = artifact::paths(out_dir, rel);
    let missing = || {
        format!(
            "the build script did not compile `{shown}` (no {} in OUT_DIR)\n\
             help: add it to the `shadowdusk_build::Builder` in build.rs (`.file(\"{shown}\")`, or a \
             `.dir(..)` that holds it), {in_process}",
            paths.manifest.display()
        )
    };
    let manifest = Manifest::load(&paths.manifest).ok_or_else(missing)?;
    if !same_file(&manifest.source, abs) {
        return Err(missing());
    }
    let mgfx_path = if manifest.mgfx.is_absolute() {
        manifest.mgfx.clone()
    } else {
        paths.mgfx.clone()
    };
    let mut deps = manifest.reflection.files_read.clone();
    if deps.is_empty() {
        deps.push(abs.to_path_buf());
    }
    let stale = || {
        format!(
            "the build script's artifact for `{shown}` is out of date: the effect or one of its \
             includes changed since it was compiled\n\
             help: build the crate again (`cargo build` reruns the build script, which recompiles \
             it)"
        )
    };
    if artifact::sources_hash(&deps).as_deref() != Some(manifest.sources_hash.as_str()) {
        return Err(stale());
    }
    let bytes = std::fs::read(&mgfx_path).map_err(|_| stale())?;
    let effect = shadowdusk_mgfx::read(&bytes).map_err(|_| stale())?;
    Ok(Source {
        mgfx: MgfxSource::IncludeBytes(mgfx_path),
        effect,
        reflection: manifest.reflection,
        deps,
        defines: manifest.defines,
        include_dirs: manifest.include_dirs,
    })
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => normalize(a) == normalize(b),
    }
}

fn compile_in_process(abs: &Path, env: &MacroEnv) -> Result<Source, String> {
    match pipeline::compile_file(abs, &pipeline::Options::default()) {
        Ok(c) => Ok(Source {
            mgfx: MgfxSource::Bytes(c.bytes),
            effect: c.effect,
            reflection: c.reflection,
            deps: c.deps,
            defines: Vec::new(),
            include_dirs: Vec::new(),
        }),
        Err(e) => Err(shader_error_message(&e, &env.manifest_dir)),
    }
}

/// A shader error for `compile_error!`: [`crate::diag::render_located`] with paths relative to
/// the crate root, so messages do not depend on where the checkout lives.
pub fn shader_error_message(e: &CompileError, manifest_dir: &Path) -> String {
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
    env: &MacroEnv,
) -> String {
    let mut msg = format!("cannot generate Rust for `{shown}`: {e}");
    let declared = e
        .parameter()
        .and_then(|name| reflection.parameters.iter().find(|p| p.name == name))
        .and_then(|p| p.location.as_ref());
    if let Some(loc) = declared {
        msg.push_str(&format!(
            "\n  --> {}:{}:{}",
            display_path(&loc.file, &env.manifest_dir),
            loc.line,
            loc.column
        ));
    }
    strip_dir(&msg, &env.manifest_dir)
}

/// `const _: &[u8] = include_bytes!(…)` per file read, main file first, each once.
fn tracking_items(main: &Path, deps: &[PathBuf]) -> TokenStream {
    let mut seen: Vec<PathBuf> = Vec::new();
    for d in std::iter::once(main).chain(deps.iter().map(PathBuf::as_path)) {
        let d = normalize(d);
        if d.is_absolute() && !seen.contains(&d) {
            seen.push(d);
        }
    }
    let items = seen.iter().filter_map(|p| p.to_str()).map(|p| {
        quote! {
            #[doc(hidden)]
            const _: &[u8] = ::core::include_bytes!(#p);
        }
    });
    // Tells a reader of the expansion why the constants are there.
    quote! {
        // Rebuild tracking: rustc records every `include_bytes!` file as a dependency.
        #(#items)*
    }
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

/// `path` as shown in a message: relative to `base` (with `..` when it lies outside), or as is
/// when they share no more than the root.
fn display_path(path: &Path, base: &Path) -> String {
    let path = normalize(path);
    crate::paths::relative(&path, &normalize(base))
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Absolute paths of files under the crate root that reach a message through other text (an
/// include search list, say) are shown relative too.
fn strip_dir(text: &str, dir: &Path) -> String {
    let mut prefix = normalize(dir).display().to_string();
    if prefix.is_empty() || prefix == "/" {
        return text.to_string();
    }
    prefix.push(std::path::MAIN_SEPARATOR);
    text.replace(&prefix, "")
}

#[cfg(test)]
mod tests;
