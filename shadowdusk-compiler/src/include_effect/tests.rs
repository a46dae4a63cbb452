//! `expand` without rustc: which source it picks (artifact or in-process), what it tracks, how
//! errors are spanned and worded. Tests that compile shaders skip loudly without DXC.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, SystemTime};

use proc_macro2::{TokenStream, TokenTree};

use super::*;
use crate::dxc;

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
            mgfx: paths.mgfx.clone(),
            cache_key: "test".to_string(),
            sources_hash: artifact::sources_hash(&c.reflection.files_read).unwrap(),
            defines: vec![("WARM".to_string(), "1".to_string())],
            include_dirs: Vec::new(),
            reflection: c.reflection,
            layout: c.effect,
        };
        std::fs::write(
            &paths.manifest,
            serde_json::to_string_pretty(&manifest).unwrap(),
        )
        .unwrap();
        paths.mgfx
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
fn build_script_artifact_is_preferred_when_present() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("artifact");
    let mgfx = k.write_artifact();
    let mut env = k.env();
    env.out_dir = Some(k.out_dir());
    let out = run(r#""shaders/tint.fx""#, &env);
    let m = parse_module(&out);
    assert_eq!(
        embedded_bytes(&m),
        None,
        "bytes must come from the artifact"
    );
    let files = tracked(&out);
    assert_eq!(files[0], mgfx.display().to_string(), "{out}");
    assert!(files.contains(&k.root.join("shaders/common.fxh").display().to_string()));
    // The artifact was compiled with WARM: its default, not the macro's own compile.
    let text = out.to_string();
    assert!(text.contains("0.25") && !text.contains("0.125"), "{text}");

    // Other spellings of the same file find the same artifact.
    let absolute = format!("{:?}", k.root.join("shaders/tint.fx").display().to_string());
    for spelling in [r#""./shaders/../shaders/tint.fx""#, absolute.as_str()] {
        let m = parse_module(&run(spelling, &env));
        assert_eq!(embedded_bytes(&m), None, "{spelling} missed the artifact");
    }
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
    assert!(embedded_bytes(&parse_module(&run(r#""shaders/tint.fx""#, &env))).is_none());
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
    assert!(embedded_bytes(&parse_module(&run(r#""shaders/tint.fx""#, &env))).is_none());

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
        strip_dir("see /w/crate/shaders/a.fx and /w/crateX", base),
        "see shaders/a.fx and /w/crateX"
    );
}
