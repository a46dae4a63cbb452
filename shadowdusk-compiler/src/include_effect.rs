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
//! include_effect!("shaders/tint.fx", in_process, wgpu);    // … for wgpu too (`tint::wgpu`)
//! ```
//!
//! The path is relative to the crate root (`CARGO_MANIFEST_DIR`, the folder holding
//! `Cargo.toml`). When no file is there, the effects the build script compiled are searched for
//! one whose path ends with it (`"tint.fx"` finds `shaders/tint.fx` after
//! `Builder::new().dir("shaders")`): exactly one is taken, several or none are an error that
//! lists them or the close ones. The module is named after the file stem in snake_case unless
//! `name` is given; `crate` is the path of the runtime crate the generated code refers to
//! (default `::shadowdusk`).
//!
//! Output: the module the build script generated, `OUT_DIR/shadowdusk/<path>.rs`
//! ([`crate::artifact`]), brought in with `include!`, so the module is exactly the file a reader
//! finds there and the macro does no code generation of its own. With `name = x` the `include!`
//! sits in a hidden module `__shadowdusk_x` and the generated module is re-exported as `x`;
//! with `crate = …` the file's tokens are parsed and the runtime path (and the name) replaced.
//! The artifact must exist and its
//! recorded source contents must match the files on disk; a missing or out-of-date artifact is
//! an error saying what to do, never a silent compile with other options. `in_process` asks for
//! the other way explicitly: the effect is compiled here with default options and generated
//! here (a crate without a build script), cached by content in [`MacroEnv::expansion_cache`]
//! (`MGFX` then `include_bytes!` of the cached `.mgfx`; without a cache, a byte string). It
//! needs the `compile` feature
//! of this crate and [`MacroEnv::allow_in_process`] (the `in-process` feature of
//! `shadowdusk-macros`); without them it is an error naming the feature. Either way the
//! expansion holds a hidden `const _: &[u8] = include_bytes!(…)` per source file (the effect
//! and every include), which is how rustc learns to rebuild the crate when one changes.
//!
//! Errors become `compile_error!` spanned on the path literal, never a panic: malformed macro
//! input, a missing file, a shader error (rendered with `path:line:col`, code, message and
//! snippet, paths relative to the crate root) and a code generation error.

use std::path::{Path, PathBuf};

use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

use crate::artifact;
use crate::paths::normalize;

#[cfg(feature = "compile")]
mod expansion_cache;
#[cfg(feature = "compile")]
mod in_process;
mod rewrite;
mod search;

use rewrite::rewrite;
use search::locate;

/// The runtime path the build script's generated module uses.
const DEFAULT_CRATE: &str = "::shadowdusk";

/// What the macro knows about the crate being compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroEnv {
    /// The crate root (`CARGO_MANIFEST_DIR`); effect paths are relative to it.
    pub manifest_dir: PathBuf,
    /// The build script's output folder (`OUT_DIR`), when the crate has a build script.
    pub out_dir: Option<PathBuf>,
    /// The runtime crate's path in generated code, unless the invocation says `crate = …`.
    pub crate_path: String,
    /// Whether `in_process` may compile the effect here: the `in-process` feature of
    /// `shadowdusk-macros` (and `shadowdusk`). Without it, `in_process` is an error naming the
    /// feature. It takes this crate's `compile` feature too.
    pub allow_in_process: bool,
    /// Where `in_process` expansions are cached by content, so an unchanged effect is not
    /// compiled again (an absolute folder; `None`: compile on every expansion). Cargo's
    /// environment gives `SHADOWDUSK_EXPANSION_CACHE` or the per-user cache folder +
    /// `shadowdusk/expansions`.
    pub expansion_cache: Option<PathBuf>,
}

impl MacroEnv {
    /// An environment with no build script and the default runtime path `::shadowdusk`;
    /// `in_process` is allowed when this crate has its `compile` feature.
    pub fn new(manifest_dir: impl Into<PathBuf>) -> MacroEnv {
        MacroEnv {
            manifest_dir: manifest_dir.into(),
            out_dir: None,
            crate_path: DEFAULT_CRATE.to_string(),
            allow_in_process: cfg!(feature = "compile"),
            expansion_cache: None,
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
        #[cfg(feature = "compile")]
        {
            env.expansion_cache = expansion_cache::dir_from_env();
        }
        Ok(env)
    }

    /// Drops this process's in-memory `in_process` expansions from
    /// [`expansion_cache`](Self::expansion_cache) (the folder keeps them), so the next
    /// expansion reads the folder as a fresh rustc process would. For benchmarks and tests.
    #[cfg(feature = "compile")]
    pub fn forget_in_memory_expansions(&self) {
        if let Some(dir) = &self.expansion_cache {
            expansion_cache::ExpansionCache { dir }.forget_in_memory();
        }
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
    /// `wgpu` (with `in_process`): compile for wgpu too, so the module has its `wgsl` part.
    wgpu: bool,
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
            wgpu: false,
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
                    "expected `name = <ident>`, `crate = <path>`, `in_process` or `wgpu`",
                )
            })?;
            if key == "in_process" {
                out.in_process = true;
                continue;
            }
            if key == "wgpu" {
                out.wgpu = true;
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
                            "unknown option `{other}`; expected `name`, `crate`, `in_process` or `wgpu`"
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

fn expand_input(input: &Input, env: &MacroEnv) -> Result<TokenStream, String> {
    let written = input.path.value();
    if written.trim().is_empty() {
        let example = r#"include_effect!("shaders/tint.fx")"#;
        return Err(format!(
            "the effect path is empty; name a .fx file relative to the crate root, e.g. {example}"
        ));
    }
    if input.wgpu && !input.in_process {
        return Err(format!(
            "`wgpu` compiles the effect for wgpu inside the macro, so it goes with `in_process`\n\
             help: write `include_effect!(\"{written}\", in_process, wgpu)`, or turn the target on \
             in build.rs: `shadowdusk_build::Builder::new()….wgpu(true)`"
        ));
    }
    if input.wgpu && !cfg!(feature = "wgsl") {
        return Err(
            "`wgpu` compiles the effect for wgpu inside the macro, which needs the \
             `in-process-wgpu` feature of `shadowdusk` (naga in the macro)\n\
             help: enable it (`shadowdusk = { version = \"0.1\", features = [\"in-process-wgpu\"] }`), \
             or compile the effect in build.rs with `shadowdusk_build::Builder::new()….wgpu(true)`"
                .to_string(),
        );
    }
    let abs = locate(&written, !input.in_process, env)?;
    // Relative to the crate root, as the build script names its artifacts and as messages show
    // it: `./shaders/x/../tint.fx` and an absolute spelling both become `shaders/tint.fx`.
    let shown = display_path(&abs, &env.manifest_dir);
    if input.in_process {
        #[cfg(feature = "compile")]
        if env.allow_in_process {
            return in_process::expand(input, &abs, &shown, env);
        }
        return Err(format!(
            "`in_process` compiles the effect inside the macro, which needs the `in-process` \
             feature of `shadowdusk`\n\
             help: enable it (`shadowdusk = {{ version = \"0.1\", features = [\"in-process\"] }}`), \
             or compile `{shown}` in build.rs with `shadowdusk_build::Builder` and drop `in_process`"
        ));
    }

    let artifact = from_artifact(env, Path::new(&shown), &abs)?;
    let krate = match &input.krate {
        Some(p) => quote!(#p).to_string().replace(' ', ""),
        None => env.crate_path.clone(),
    };
    let span = input.path.span();
    let code_path = artifact.code.to_str().filter(|_| krate == DEFAULT_CRATE);
    let module = match (&input.name, code_path, artifact.module_name()) {
        // The file as the build script wrote it: rustc reads it (and tracks it) itself.
        (None, Some(path), _) => include_item(path, span),
        // Renamed by a re-export rather than by rewriting the file's tokens, so rustc still
        // reads the file itself (tokenizing it here cost milliseconds per invocation).
        (Some(name), Some(path), Some(generated)) => {
            renamed(include_item(path, span), generated, name, span)
        }
        _ => {
            let tokens: TokenStream = artifact.text.parse().map_err(|e| {
                format!(
                    "the build script's module for `{shown}` ({}) does not parse: {e}\n\
                     help: build the crate again",
                    artifact.code.display()
                )
            })?;
            rewrite(tokens, input.name.as_ref(), &krate)
        }
    };
    let mut out = module;
    out.extend(tracking_items(&abs, &artifact.deps));
    Ok(out)
}

/// `include!(path);` spanned on the path literal.
fn include_item(path: &str, span: Span) -> TokenStream {
    let mut lit = Literal::string(path);
    lit.set_span(span);
    quote_spanned!(span=> ::core::include!(#lit);)
}

/// `name = x` for a module rustc reads from the build script's file: the file inside a hidden
/// module of its own, named after `x` (so two names for one effect do not collide), and the
/// generated module re-exported as `x` with the visibility it is declared with (`pub`). Paths
/// inside the module are absolute or `super::` within it, so the extra level changes nothing;
/// rustdoc and rust-analyzer show the re-export as module `x` with the generated docs, whose
/// links resolve where the module is declared.
fn renamed(include: TokenStream, generated: &str, name: &Ident, span: Span) -> TokenStream {
    let bare = name.to_string().trim_start_matches("r#").to_string();
    let hidden = Ident::new(&format!("__shadowdusk_{bare}"), span);
    let generated = Ident::new(generated, span);
    quote_spanned! {span=>
        #[doc(hidden)]
        mod #hidden {
            #include
        }
        // An effect the crate never uses must not warn, as the module (`allow(dead_code)`)
        // does not; rustc does not lint an unused `pub use` today, this keeps it so.
        #[allow(unused_imports)]
        pub use #hidden::#generated as #name;
    }
}

/// The build script's generated module for one effect, checked current.
struct Artifact {
    /// `OUT_DIR/shadowdusk/<path>.rs`.
    code: PathBuf,
    /// Its text.
    text: String,
    /// Every file the effect read, the effect first.
    deps: Vec<PathBuf>,
}

/// The build script's artifact for `rel`: it must exist, describe this file, and have been
/// compiled from exactly the contents the effect's files have now. Otherwise the message says
/// what to do (the macro never compiles with options other than the build script's on its own).
fn from_artifact(env: &MacroEnv, rel: &Path, abs: &Path) -> Result<Artifact, String> {
    let shown = rel.display();
    let feature = if env.allow_in_process {
        ""
    } else {
        ", with shadowdusk's `in-process` feature"
    };
    let in_process = format!(
        "or write `include_effect!(\"{shown}\", in_process)` to compile it here with default options \
         (no defines or include folders{feature})"
    );
    let Some(out_dir) = env.out_dir.as_deref() else {
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
            paths
                .manifest
                .strip_prefix(out_dir)
                .unwrap_or(&paths.manifest)
                .display()
        )
    };
    let manifest = Current::load(&paths.manifest).ok_or_else(missing)?;
    if !same_file(&manifest.source, abs) {
        return Err(missing());
    }
    let mut deps = manifest.reflection.files_read;
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
    let mgfx = if manifest.mgfx.is_absolute() {
        &manifest.mgfx
    } else {
        &paths.mgfx
    };
    if !mgfx.is_file() {
        return Err(stale());
    }
    let text = std::fs::read_to_string(&paths.code).map_err(|_| stale())?;
    // The build script writes this instead of a module when code generation refused the
    // effect: the message belongs on the path literal.
    if text.trim_start().starts_with("::core::compile_error!") {
        let refused = syn::parse_str::<syn::Macro>(text.trim().trim_end_matches(';'))
            .and_then(|m| m.parse_body::<LitStr>())
            .map(|lit| lit.value())
            .unwrap_or_else(|_| text.trim().to_string());
        return Err(refused);
    }
    Ok(Artifact {
        code: paths.code,
        text,
        deps,
    })
}

impl Artifact {
    /// The name of the module the file declares: the first line `pub mod <name> {` of the
    /// formatted file (`codegen::generate_string`). `None` if there is none, and then the
    /// tokens are rewritten instead.
    fn module_name(&self) -> Option<&str> {
        let rest = self.text.lines().find_map(|l| l.strip_prefix("pub mod "))?;
        let name = rest.strip_suffix(" {")?;
        let ident = !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric());
        ident.then_some(name)
    }
}

/// The part of a [`Manifest`](artifact::Manifest) that says whether the artifact is this effect's and current:
/// read on every invocation, so the rest (reflection, layout: most of the file) is skipped
/// rather than built.
#[derive(serde::Deserialize)]
struct Current {
    format: u32,
    source: PathBuf,
    mgfx: PathBuf,
    sources_hash: String,
    reflection: CurrentFiles,
}

#[derive(serde::Deserialize)]
struct CurrentFiles {
    files_read: Vec<PathBuf>,
}

impl Current {
    fn load(path: &Path) -> Option<Current> {
        let text = std::fs::read(path).ok()?;
        let m: Current = serde_json::from_slice(&text).ok()?;
        (m.format == artifact::FORMAT).then_some(m)
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    // The build script records the path the macro computes the same way (normalized, under
    // the crate root): equal names need no file system calls.
    if normalize(a) == normalize(b) {
        return true;
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => normalize(a) == normalize(b),
    }
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

/// `path` as shown in a message: relative to `base` (with `..` when it lies outside), or as is
/// when they share no more than the root.
fn display_path(path: &Path, base: &Path) -> String {
    let path = normalize(path);
    crate::paths::relative(&path, &normalize(base))
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(all(test, feature = "compile"))]
mod tests;
