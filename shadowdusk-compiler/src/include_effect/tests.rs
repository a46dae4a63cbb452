//! `expand` without rustc: which source it picks (artifact or in-process), what it tracks, how
//! errors are spanned and worded. Tests that compile shaders skip loudly without DXC.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, SystemTime};

use proc_macro2::{TokenStream, TokenTree};

use super::*;
use crate::artifact::Manifest;
use crate::codegen::{self, CodegenOptions, MgfxSource};
use crate::{dxc, pipeline};

const TINT: &str = "\
// Concern: a PS-only effect with an include and a define-dependent default.
#include \"common.fxh\"
#ifdef WARM
float4 Tint = float4(1, 0.5, 0.25, 1);
#else
float4 Tint = float4(0.125, 0.25, 0.5, 1);
#endif
float4 MainPS(float4 color : COLOR0) : COLOR0 { return scale(color * Tint); }
technique Draw { pass P0 { PixelShader = compile ps_3_0 MainPS(); } }
";

const COMMON: &str = "float4 scale(float4 c) { return c * 2; }\n";

const BAD: &str = "\
float4 Tint;
float4 MainPS(float4 color : COLOR0) : COLOR0
{
    return color * Tint
}
technique Draw { pass P0 { PixelShader = compile ps_3_0 MainPS(); } }
";

/// A throwaway crate root holding `shaders/`.
struct Crate {
    root: PathBuf,
}

impl Crate {
    fn new(name: &str) -> Crate {
        let root = std::env::temp_dir().join(format!(
            "shadowdusk-include-effect-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("shaders")).unwrap();
        std::fs::write(root.join("shaders/tint.fx"), TINT).unwrap();
        std::fs::write(root.join("shaders/common.fxh"), COMMON).unwrap();
        std::fs::write(root.join("shaders/bad.fx"), BAD).unwrap();
        Crate { root }
    }

    fn env(&self) -> MacroEnv {
        MacroEnv::new(&self.root)
    }

    fn out_dir(&self) -> PathBuf {
        self.root.join("out")
    }

    /// Writes the build script's artifacts for `shaders/tint.fx` as the builder would, compiled
    /// with `WARM` defined so they differ from what the macro compiles on its own.
    fn write_artifact(&self) -> PathBuf {
        let src = self.root.join("shaders/tint.fx");
        let mut options = pipeline::Options::default();
        options
            .preprocess
            .defines
            .push(("WARM".to_string(), "1".to_string()));
        let c = pipeline::compile_file(&src, &options).unwrap_or_else(|e| panic!("{e}"));
        let rel = Path::new("shaders/tint.fx");
        let paths = artifact::paths(&self.out_dir(), rel);
        std::fs::create_dir_all(paths.mgfx.parent().unwrap()).unwrap();
        std::fs::write(&paths.mgfx, &c.bytes).unwrap();
        let manifest = Manifest {
            warnings: Vec::new(),
            format: artifact::FORMAT,
            source: src,
            relative: rel.to_path_buf(),
            root: self.root.clone(),
            mgfx: paths.mgfx.clone(),
            cache_key: "test".to_string(),
            sources_hash: artifact::sources_hash(&c.reflection.files_read).unwrap(),
            defines: vec![("WARM".to_string(), "1".to_string())],
            include_dirs: Vec::new(),
            warnings_as_errors: false,
            reflection: c.reflection,
            layout: c.effect.clone(),
            wgpu: None,
        };
        // The generated module, as `shadowdusk-build`'s `output.rs` writes it.
        let mut options = CodegenOptions::new(
            codegen::module_name(rel),
            MgfxSource::IncludeBytes(paths.mgfx.clone()),
        );
        options.source = Some(manifest.source.clone());
        options.build.preprocess.defines = manifest.defines.clone();
        let code = codegen::generate_string(&c.effect, &manifest.reflection, &options).unwrap();
        std::fs::write(&paths.code, code).unwrap();
        std::fs::write(
            &paths.manifest,
            serde_json::to_string_pretty(&manifest).unwrap(),
        )
        .unwrap();
        paths.mgfx
    }

    /// Copies the build script's artifacts of `shaders/tint.fx` to those of `to`, a copy of
    /// the effect elsewhere in the crate, as if the build script had compiled it too.
    fn copy_artifact(&self, to: &str) {
        let from = artifact::paths(&self.out_dir(), Path::new("shaders/tint.fx"));
        let dest = artifact::paths(&self.out_dir(), Path::new(to));
        let src = self.root.join(to);
        std::fs::create_dir_all(src.parent().unwrap()).unwrap();
        std::fs::create_dir_all(dest.mgfx.parent().unwrap()).unwrap();
        std::fs::copy(self.root.join("shaders/tint.fx"), &src).unwrap();
        std::fs::copy(
            self.root.join("shaders/common.fxh"),
            src.with_file_name("common.fxh"),
        )
        .unwrap();
        std::fs::copy(&from.mgfx, &dest.mgfx).unwrap();
        std::fs::copy(&from.code, &dest.code).unwrap();
        let mut manifest = Manifest::load(&from.manifest).unwrap();
        manifest.source = src.clone();
        manifest.relative = PathBuf::from(to);
        manifest.mgfx = dest.mgfx.clone();
        manifest.reflection.files_read = vec![src.clone(), src.with_file_name("common.fxh")];
        std::fs::write(
            &dest.manifest,
            serde_json::to_string_pretty(&manifest).unwrap(),
        )
        .unwrap();
    }
}

impl Drop for Crate {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn run(input: &str, env: &MacroEnv) -> TokenStream {
    expand(TokenStream::from_str(input).unwrap(), env)
}

fn parse_module(tokens: &TokenStream) -> syn::ItemMod {
    syn::parse2(tokens.clone()).unwrap_or_else(|e| panic!("not a module ({e}):\n{tokens}"))
}

/// The module an expansion defines, as rustc would see it: an `include!` of the build script's
/// file is replaced by that file's items, and a module reached through `pub use … as x` (out of
/// the hidden module holding the `include!`) is named `x`.
fn expanded_module(tokens: &TokenStream) -> syn::ItemMod {
    let file: syn::File =
        syn::parse2(tokens.clone()).unwrap_or_else(|e| panic!("not items ({e}):\n{tokens}"));
    let mut modules = Vec::new();
    let mut alias = None;
    for item in file.items {
        match item {
            syn::Item::Mod(m) if m.ident.to_string().starts_with("__shadowdusk_") => {
                let items = &m.content.as_ref().expect("an inline module").1;
                let [syn::Item::Macro(inc)] = items.as_slice() else {
                    panic!("the hidden module holds only the include!: {}", quote!(#m));
                };
                modules.extend(included_modules(inc));
            }
            syn::Item::Mod(m) => modules.push(m),
            syn::Item::Macro(m) if m.mac.path.segments.last().unwrap().ident == "include" => {
                modules.extend(included_modules(&m));
            }
            syn::Item::Use(u) => {
                assert!(
                    matches!(u.vis, syn::Visibility::Public(_)),
                    "{}",
                    quote!(#u)
                );
                let syn::UseTree::Path(p) = &u.tree else {
                    panic!("{}", quote!(#u))
                };
                let syn::UseTree::Rename(r) = &*p.tree else {
                    panic!("{}", quote!(#u))
                };
                alias = Some((r.ident.clone(), r.rename.clone()));
            }
            syn::Item::Const(c) => assert_eq!(c.ident, "_", "only tracking constants beside"),
            other => panic!("unexpected item {}", quote!(#other)),
        }
    }
    assert_eq!(modules.len(), 1, "{tokens}");
    let mut m = modules.pop().unwrap();
    if let Some((generated, rename)) = alias {
        assert_eq!(
            m.ident, generated,
            "the re-export names the included module"
        );
        m.ident = rename;
    }
    m
}

/// The modules of the file an `include!(…)` item names.
fn included_modules(m: &syn::ItemMacro) -> Vec<syn::ItemMod> {
    assert_eq!(m.mac.path.segments.last().unwrap().ident, "include");
    let path: LitStr = m.mac.parse_body().unwrap();
    let text = std::fs::read_to_string(path.value()).unwrap();
    let included: syn::File = syn::parse_str(&text).unwrap();
    included
        .items
        .into_iter()
        .filter_map(|i| match i {
            syn::Item::Mod(m) => Some(m),
            _ => None,
        })
        .collect()
}

/// The byte-string value of `MGFX`, or `None` when it is not a literal.
fn embedded_bytes(m: &syn::ItemMod) -> Option<Vec<u8>> {
    m.content.as_ref()?.1.iter().find_map(|item| match item {
        syn::Item::Const(c) if c.ident == "MGFX" => match &*c.expr {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::ByteStr(b),
                ..
            }) => Some(b.value()),
            _ => None,
        },
        _ => None,
    })
}

/// The message and span start of a `compile_error!` expansion.
fn compile_error_of(tokens: &TokenStream) -> (String, proc_macro2::LineColumn) {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    assert!(
        tokens.to_string().contains("compile_error"),
        "expected a compile_error!, got:\n{tokens}"
    );
    for t in trees {
        if let TokenTree::Group(g) = t {
            for inner in g.stream() {
                if let TokenTree::Literal(l) = inner {
                    let lit: LitStr = syn::parse2(TokenTree::Literal(l.clone()).into()).unwrap();
                    return (lit.value(), l.span().start());
                }
            }
        }
    }
    panic!("no message literal in {tokens}");
}

fn tracked(tokens: &TokenStream) -> Vec<String> {
    let text = tokens.to_string();
    text.split("include_bytes ! (")
        .skip(1)
        .map(|s| {
            let lit = &s[..s.find(')').unwrap()];
            syn::parse_str::<LitStr>(lit.trim()).unwrap().value()
        })
        .collect()
}

#[test]
fn in_process_embeds_the_compiled_bytes_and_tracks_every_file() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("in-process");
    let out = run(r#""shaders/tint.fx", in_process"#, &k.env());
    let m = parse_module(&out);
    assert_eq!(m.ident, "tint");
    let expected = pipeline::compile_file(
        &k.root.join("shaders/tint.fx"),
        &pipeline::Options::default(),
    )
    .unwrap();
    assert_eq!(embedded_bytes(&m).as_deref(), Some(&expected.bytes[..]));
    let text = out.to_string();
    // The default without WARM: 0.125, 0.25, 0.5.
    assert!(text.contains("0.125"), "{text}");
    let files = tracked(&out);
    assert_eq!(
        files,
        [
            k.root.join("shaders/tint.fx").display().to_string(),
            k.root.join("shaders/common.fxh").display().to_string(),
        ]
    );
}

#[test]
fn the_build_scripts_module_is_included_as_written() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("artifact");
    let mgfx = k.write_artifact();
    let code = artifact::paths(&k.out_dir(), Path::new("shaders/tint.fx")).code;
    let mut env = k.env();
    env.out_dir = Some(k.out_dir());
    let out = run(r#""shaders/tint.fx""#, &env);
    // No code generated here: rustc reads the build script's file.
    let code = code.display().to_string();
    let include = quote!(::core::include!(#code);).to_string();
    assert!(out.to_string().starts_with(&include), "{out}");
    let m = expanded_module(&out);
    assert_eq!(m.ident, "tint");
    assert_eq!(
        embedded_bytes(&m),
        None,
        "bytes must come from the artifact"
    );
    let module = quote!(#m).to_string();
    let bytes = format!("include_bytes ! ({:?})", mgfx.display().to_string());
    assert!(module.contains(&bytes), "{module}");
    // Rebuild tracking beside the module: the effect, then its include.
    assert_eq!(
        tracked(&out),
        [
            k.root.join("shaders/tint.fx").display().to_string(),
            k.root.join("shaders/common.fxh").display().to_string(),
        ]
    );
    // The artifact was compiled with WARM: its default, not a compile with default options.
    assert!(
        module.contains("0.25") && !module.contains("0.125"),
        "{module}"
    );

    // Other spellings of the same file find the same artifact.
    let absolute = format!("{:?}", k.root.join("shaders/tint.fx").display().to_string());
    for spelling in [r#""./shaders/../shaders/tint.fx""#, absolute.as_str()] {
        let out = run(spelling, &env).to_string();
        assert!(out.contains(&code), "{spelling} missed the artifact: {out}");
    }
}

#[test]
fn name_and_crate_rewrite_the_build_scripts_module_as_codegen_would() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("artifact-options");
    let mgfx = k.write_artifact();
    let mut env = k.env();
    env.out_dir = Some(k.out_dir());
    let out = run(
        r#""shaders/tint.fx", name = warm_tint, crate = ::engine::sd"#,
        &env,
    );
    let m = expanded_module(&out);
    assert_eq!(m.ident, "warm_tint");
    // What the build script would have written with these options, token for token.
    let manifest =
        Manifest::load(&artifact::paths(&k.out_dir(), Path::new("shaders/tint.fx")).manifest)
            .unwrap();
    let effect = shadowdusk_mgfx::read(&std::fs::read(&mgfx).unwrap()).unwrap();
    let mut options = CodegenOptions::new("warm_tint", MgfxSource::IncludeBytes(mgfx));
    options.crate_path = "::engine::sd".to_string();
    options.source = Some(manifest.source.clone());
    options.build.preprocess.defines = manifest.defines.clone();
    let text = codegen::generate_string(&effect, &manifest.reflection, &options).unwrap();
    let expected: syn::File = syn::parse_str(&text).unwrap();
    assert_eq!(quote!(#m).to_string(), quote!(#expected).to_string());
    let module = quote!(#m).to_string();
    assert!(!module.contains("shadowdusk ::"), "{module}");
    assert!(module.contains("](warm_tint::Effect)"), "{module}");
    assert_eq!(tracked(&out).len(), 3, "MGFX, the effect and its include");
}

#[test]
fn name_alone_re_exports_the_build_scripts_module_which_rustc_reads_itself() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("artifact-name");
    k.write_artifact();
    let code = artifact::paths(&k.out_dir(), Path::new("shaders/tint.fx")).code;
    let mut env = k.env();
    env.out_dir = Some(k.out_dir());
    let out = run(r#""shaders/tint.fx", name = cool"#, &env);
    // Not a token of the file passes through the macro: rustc includes it, and the module
    // gets its name from a re-export.
    let code = code.display().to_string();
    let expected = quote! {
        #[doc(hidden)]
        mod __shadowdusk_cool {
            ::core::include!(#code);
        }
        #[allow(unused_imports)]
        pub use __shadowdusk_cool::tint as cool;
    };
    let text = out.to_string();
    assert!(text.starts_with(&expected.to_string()), "{text}");
    assert_eq!(tracked(&out).len(), 2, "the effect and its include");
    let m = expanded_module(&out);
    assert_eq!(m.ident, "cool");
    let module = quote!(#m).to_string();
    assert!(
        module.contains(":: shadowdusk :: params :: EffectParams"),
        "{module}"
    );

    // Two names for one effect in one module do not collide; a raw identifier is one name.
    let other = run(r#""shaders/tint.fx", name = r#type"#, &env).to_string();
    assert!(other.contains("mod __shadowdusk_type"), "{other}");
    assert!(other.contains("tint as r#type"), "{other}");

    // A file without the formatted `pub mod` line falls back to rewriting its tokens.
    let path = artifact::paths(&k.out_dir(), Path::new("shaders/tint.fx")).code;
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("pub mod tint {", "pub mod tint{")).unwrap();
    let out = run(r#""shaders/tint.fx", name = cool"#, &env);
    assert!(!out.to_string().contains(":: include !"), "{out}");
    assert_eq!(expanded_module(&out).ident, "cool");
}

#[test]
fn wgpu_goes_with_in_process() {
    let k = Crate::new("wgpu-flag");
    let (msg, _) = compile_error_of(&run(r#""shaders/tint.fx", wgpu"#, &k.env()));
    assert!(msg.contains("goes with `in_process`"), "{msg}");
    assert!(msg.contains(".wgpu(true)"), "{msg}");
}

#[test]
fn missing_stale_or_foreign_artifacts_are_errors_that_say_what_to_do() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("stale");
    // No build script at all: the macro does not quietly compile with default options.
    let (msg, _) = compile_error_of(&run(r#""shaders/tint.fx""#, &k.env()));
    assert!(msg.contains("no build script"), "{msg}");
    assert!(
        msg.contains("Builder::new().file(\"shaders/tint.fx\")"),
        "{msg}"
    );
    assert!(msg.contains("in_process"), "{msg}");

    // A build script that did not compile this effect.
    let mut env = k.env();
    env.out_dir = Some(k.out_dir());
    let (msg, _) = compile_error_of(&run(r#""shaders/tint.fx""#, &env));
    assert!(
        msg.contains("the build script did not compile `shaders/tint.fx`"),
        "{msg}"
    );

    // Compiled, then an include changed (its time is irrelevant: the contents differ).
    let mgfx = k.write_artifact();
    expanded_module(&run(r#""shaders/tint.fx""#, &env));
    let header = k.root.join("shaders/common.fxh");
    let text = std::fs::read_to_string(&header).unwrap();
    std::fs::write(&header, format!("{text}\n// edited\n")).unwrap();
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
    std::fs::File::options()
        .write(true)
        .open(&header)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let (msg, _) = compile_error_of(&run(r#""shaders/tint.fx""#, &env));
    assert!(msg.contains("out of date"), "{msg}");
    std::fs::write(&header, text).unwrap();
    // Back to the compiled contents: current again, whatever the times say.
    std::fs::File::options()
        .write(true)
        .open(&mgfx)
        .unwrap()
        .set_modified(old)
        .unwrap();
    expanded_module(&run(r#""shaders/tint.fx""#, &env));

    // The manifest describes another crate's file.
    let k2 = Crate::new("foreign");
    k2.write_artifact();
    env.manifest_dir = k.root.clone();
    env.out_dir = Some(k2.out_dir());
    let (msg, _) = compile_error_of(&run(r#""shaders/tint.fx""#, &env));
    assert!(msg.contains("did not compile"), "{msg}");
}

#[test]
fn name_and_crate_options() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("options");
    let out = run(
        r#""./shaders/tint.fx", name = warm_tint, crate = ::engine::sd, in_process,"#,
        &k.env(),
    );
    let m = parse_module(&out);
    assert_eq!(m.ident, "warm_tint");
    let text = out.to_string();
    assert!(
        text.contains(":: engine :: sd :: params :: EffectParams"),
        "{text}"
    );
    assert!(!text.contains(":: shadowdusk ::"), "{text}");
}

#[test]
fn in_process_without_the_feature_names_it() {
    let k = Crate::new("no-feature");
    let mut env = k.env();
    env.allow_in_process = false;
    let (msg, at) = compile_error_of(&run(r#" "shaders/tint.fx", in_process"#, &env));
    assert_eq!((at.line, at.column), (1, 1), "span is not the literal's");
    assert!(
        msg.contains("`in-process` feature of `shadowdusk`"),
        "{msg}"
    );
    assert!(msg.contains("features = [\"in-process\"]"), "{msg}");
    // The missing-artifact help offers `in_process` with the feature it needs.
    let (msg, _) = compile_error_of(&run(r#""shaders/tint.fx""#, &env));
    assert!(
        msg.contains("with shadowdusk's `in-process` feature"),
        "{msg}"
    );
}

#[test]
fn a_path_not_under_the_crate_root_is_found_among_the_compiled_effects() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("search");
    k.write_artifact();
    let mut env = k.env();
    env.out_dir = Some(k.out_dir());
    let code = artifact::paths(&k.out_dir(), Path::new("shaders/tint.fx"))
        .code
        .display()
        .to_string();
    // `Builder::new().dir("shaders")`, then `include_effect!("tint.fx")`: one effect ends so.
    let out = run(r#""tint.fx""#, &env);
    assert!(out.to_string().contains(&code), "{out}");
    assert_eq!(expanded_module(&out).ident, "tint");
    // `name` applies to the effect found.
    assert_eq!(
        expanded_module(&run(r#""tint.fx", name = t"#, &env)).ident,
        "t"
    );

    // No effect ends with it: the close ones are suggested.
    let (msg, at) = compile_error_of(&run(r#" "tnt.fx""#, &env));
    assert_eq!((at.line, at.column), (1, 1), "span is not the literal's");
    assert!(msg.contains("cannot read effect file `tnt.fx`"), "{msg}");
    assert!(msg.contains("did you mean `shaders/tint.fx`?"), "{msg}");
    let (msg, _) = compile_error_of(&run(r#""shader/tint.fx""#, &env));
    assert!(msg.contains("did you mean `shaders/tint.fx`?"), "{msg}");
    // Nothing alike: no suggestion.
    let (msg, _) = compile_error_of(&run(r#""bloom.fx""#, &env));
    assert!(!msg.contains("did you mean"), "{msg}");

    // Several end with it: all are listed, none is picked.
    k.copy_artifact("more/tint.fx");
    let (msg, _) = compile_error_of(&run(r#""tint.fx""#, &env));
    assert!(msg.contains("several effects"), "{msg}");
    assert!(
        msg.contains("did you mean `more/tint.fx` or `shaders/tint.fx`?"),
        "{msg}"
    );
    // Either is still found by a longer ending, and the copy by its own artifact.
    let out = run(r#""more/tint.fx""#, &env).to_string();
    assert!(out.contains("more/tint.rs"), "{out}");

    // `in_process` does not look at the build script's effects.
    let (msg, _) = compile_error_of(&run(r#""tint.fx", in_process"#, &env));
    assert!(msg.contains("cannot read effect file `tint.fx`"), "{msg}");
}

#[test]
fn a_module_the_build_script_refused_is_an_error_on_the_literal() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("refused");
    k.write_artifact();
    let code = artifact::paths(&k.out_dir(), Path::new("shaders/tint.fx")).code;
    let refusal = "shaders/tint.fx: no Rust module generated: parameter `Tint` is not supported";
    std::fs::write(&code, format!("::core::compile_error!({refusal:?});\n")).unwrap();
    let mut env = k.env();
    env.out_dir = Some(k.out_dir());
    let (msg, at) = compile_error_of(&run(r#"  "shaders/tint.fx""#, &env));
    assert_eq!((at.line, at.column), (1, 2));
    assert_eq!(msg, refusal);
}

#[test]
fn shader_error_is_spanned_on_the_literal_with_location_and_snippet() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("error");
    let out = run("\n    \"shaders/bad.fx\", in_process", &k.env());
    let (msg, at) = compile_error_of(&out);
    assert_eq!((at.line, at.column), (2, 4), "span is not the literal's");
    let first = msg.lines().next().unwrap();
    assert!(first.starts_with("shaders/bad.fx:4:24: "), "{msg}");
    assert!(first.contains("error[SD"), "{msg}");
    assert!(
        msg.contains("return color * Tint"),
        "snippet missing:\n{msg}"
    );
    assert!(
        !msg.contains(&k.root.display().to_string()),
        "absolute path leaked:\n{msg}"
    );
}

#[test]
fn missing_file_names_the_path() {
    let k = Crate::new("missing");
    let out = run(r#"  "shaders/nope.fx""#, &k.env());
    let (msg, at) = compile_error_of(&out);
    assert_eq!((at.line, at.column), (1, 2));
    assert!(msg.contains("`shaders/nope.fx`"), "{msg}");
    assert!(msg.contains("relative to the crate root"), "{msg}");
    assert!(!msg.contains(&k.root.display().to_string()), "{msg}");
}

#[test]
fn malformed_invocations_are_errors_not_panics() {
    let k = Crate::new("malformed");
    for (input, needle) in [
        ("", "expected the effect's path"),
        ("shaders/tint.fx", "expected string literal"),
        (
            r#""shaders/tint.fx", colour = x"#,
            "unknown option `colour`",
        ),
        (
            r#""shaders/tint.fx", name = a, name = b"#,
            "`name` is given twice",
        ),
        (r#""shaders/tint.fx" name = a"#, "expected `,`"),
        (r#""""#, "the effect path is empty"),
        (r#""shaders""#, "it is not a file"),
    ] {
        let out = run(input, &k.env());
        let (msg, _) = compile_error_of(&out);
        assert!(msg.contains(needle), "{input}: {msg}");
    }
}

#[test]
fn codegen_errors_are_reported() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("codegen");
    let (msg, _) = compile_error_of(&run(
        r#""shaders/tint.fx", name = r#type, in_process"#,
        &k.env(),
    ));
    assert!(
        msg.contains("cannot generate Rust for `shaders/tint.fx`") && msg.contains("`type`"),
        "{msg}"
    );
}

#[test]
fn paths_are_shown_relative_to_the_crate_root() {
    let base = Path::new("/w/crate");
    assert_eq!(
        display_path(Path::new("/w/crate/shaders/a.fx"), base),
        "shaders/a.fx"
    );
    assert_eq!(
        display_path(Path::new("/w/crate/./x/../shaders/a.fx"), base),
        "shaders/a.fx"
    );
    assert_eq!(
        display_path(Path::new("/w/common/a.fxh"), base),
        "../common/a.fxh"
    );
    assert_eq!(display_path(Path::new("rel/a.fx"), base), "rel/a.fx");
    assert_eq!(normalize(Path::new("../a/./b/../c")), Path::new("../a/c"));
    assert_eq!(
        in_process::strip_dir("see /w/crate/shaders/a.fx and /w/crateX", base),
        "see shaders/a.fx and /w/crateX"
    );
}

mod expansion_cache;

/// `in_process, wgpu` of an effect the wgpu target refuses (`modf`'s result struct, SD0303
/// today): an error at the construct that says the effect compiles for OpenGL and how to keep
/// it OpenGL-only, never a module silently without its wgpu part.
#[cfg(feature = "wgsl")]
#[test]
fn in_process_wgpu_of_an_effect_wgpu_refuses_says_how_to_keep_it_opengl_only() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("gl-only");
    std::fs::write(
        k.root.join("shaders/frac.fx"),
        "sampler s0;\nfloat Tiles = 4;\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0\n\
         { float whole; float part = modf(uv.x * Tiles, whole); \
         return tex2D(s0, float2(part, uv.y)) * (whole / Tiles); }\n\
         technique Frac { pass P0 { PixelShader = compile ps_2_0 PS(); } }\n",
    )
    .unwrap();
    let (msg, _) = compile_error_of(&run(r#""shaders/frac.fx", in_process, wgpu"#, &k.env()));
    assert!(
        msg.starts_with("shaders/frac.fx:5:57: error[SD0303]"),
        "{msg}"
    );
    assert!(
        msg.contains(
            "error: the wgpu target cannot translate `shaders/frac.fx`, which compiles for OpenGL\n\
             help: to keep `shaders/frac.fx` OpenGL-only, drop `wgpu` from this \
             `include_effect!` (its module then has no `wgsl` part)"
        ),
        "{msg}"
    );
    // Without `wgpu`: the GL module.
    let m = expanded_module(&run(r#""shaders/frac.fx", in_process"#, &k.env()));
    assert!(!quote::quote!(#m).to_string().contains("WGPU"));
}
