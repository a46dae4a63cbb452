//! Tests for the preprocessor as a whole (through [`preprocess`]).

use std::path::{Path, PathBuf};

use super::*;
use crate::diag::Code;

fn run_with(src: &str, opts: &Options) -> (Result<Expanded, Diagnostics>, SourceFiles) {
    let mut files = SourceFiles::new();
    let r = preprocess(Path::new("main.fx"), Some(src), opts, &mut files);
    (r, files)
}

fn run(src: &str) -> Result<Expanded, Diagnostics> {
    run_with(src, &Options::default()).0
}

fn ok(src: &str) -> String {
    match run(src) {
        Ok(e) => e.text,
        Err(d) => panic!("unexpected errors: {d:#?}"),
    }
}

fn err(src: &str) -> Diagnostics {
    match run(src) {
        Ok(e) => panic!("expected an error, got:\n{}", e.text),
        Err(d) => d,
    }
}

fn codes(d: &Diagnostics) -> Vec<Code> {
    d.iter().map(|d| d.code).collect()
}

/// The text without any whitespace (for comparing expansions whose spacing is free).
fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A fresh directory under the system temp dir.
fn temp_dir(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let d = std::env::temp_dir().join(format!(
        "shadowdusk-pp-{}-{}-{}",
        name,
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let p = dir.join(rel);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, text).unwrap();
    p
}

fn run_file(path: &Path, opts: &Options) -> (Result<Expanded, Diagnostics>, SourceFiles) {
    let mut files = SourceFiles::new();
    let r = preprocess(path, None, opts, &mut files);
    (r, files)
}

/// 1-based (line, col) in the original file of output offset `out`, plus that file's path.
fn origin(e: &Expanded, files: &SourceFiles, out: usize) -> (PathBuf, u32, u32) {
    let (id, off) = e.map.lookup(out as u32).unwrap();
    let f = files.get(id);
    let (l, c) = f.line_col(off);
    (f.path.clone(), l, c)
}

// ---- macros ----------------------------------------------------------------------------------

#[test]
fn opengl_predefined_macros() {
    let out = ok("#if OPENGL && GLSL && MGFX == 1 && !defined(SM4) && !defined(DEBUG)\nyes\n#else\nno\n#endif\n");
    assert!(out.contains("yes") && !out.contains("no"), "{out}");
    let opts = Options {
        debug: true,
        ..Options::default()
    };
    let out = run_with("#ifdef DEBUG\ndbg DEBUG\n#endif\n", &opts)
        .0
        .unwrap()
        .text;
    assert_eq!(squash(&out), "dbg1");
}

#[test]
fn user_defines_with_values_follow_the_platform_ones() {
    let opts = Options {
        defines: vec![
            ("SCALE".into(), "2.5".into()),
            ("MODE".into(), "3".into()),
            ("OPENGL".into(), "7".into()),
            ("TWICE(x)".into(), "((x)*2)".into()),
        ],
        ..Options::default()
    };
    let out = run_with(
        "float s = SCALE * TWICE(MODE);\n#if OPENGL == 7\nok\n#endif\n",
        &opts,
    )
    .0
    .unwrap()
    .text;
    assert_eq!(squash(&out), "floats=2.5*((3)*2);ok");
    let bad = Options {
        defines: vec![("1bad".into(), "1".into())],
        ..Options::default()
    };
    let d = run_with("x\n", &bad).0.unwrap_err();
    assert_eq!(codes(&d), [Code::SD0004]);
}

#[test]
fn nested_conditionals_with_defined() {
    let src = "\
#define A 2
#if defined(A) && A > 1
#  ifdef B
b
#  elif defined A && !defined(B)
a_not_b
#    if 0
#      error never
#      bogus directive in dead code
#    else
inner_else
#    endif
#  else
wrong
#  endif
#elif 1
wrong2
#else
wrong3
#endif
#ifndef B
nb
#endif
#undef A
#ifdef A
wrong4
#endif
";
    assert_eq!(squash(&ok(src)), "a_not_binner_elsenb");
}

#[test]
fn declare_texture_pastes_names_and_registers() {
    let src = "\
#define DECLARE_TEXTURE(Name, index) \\
    texture2D Name; \\
    sampler Name##Sampler : register(s##index) = sampler_state { Texture = (Name); };
DECLARE_TEXTURE(Tex, 0);
";
    let out = ok(src);
    assert!(out.contains("sampler TexSampler : register(s0)"), "{out}");
    assert_eq!(
        squash(&out),
        squash("texture2D Tex; sampler TexSampler : register(s0) = sampler_state { Texture = (Tex); };;")
    );
}

#[test]
fn technique_macro_produces_technique_text() {
    let src = "\
#define TECHNIQUE(name, vsname, psname ) technique name { pass { VertexShader = compile vs_2_0 vsname (); PixelShader = compile ps_2_0 psname(); } }
#define BEGIN_CONSTANTS
#define _vs(r)  : register(vs, r)
BEGIN_CONSTANTS
float4 DiffuseColor _vs(c0);
TECHNIQUE( BasicEffect, VSBasic, PSBasic );
";
    let out = ok(src);
    assert!(
        out.contains("float4 DiffuseColor : register(vs, c0);"),
        "{out}"
    );
    assert!(
        out.contains(
            "technique BasicEffect { pass { VertexShader = compile vs_2_0 VSBasic (); PixelShader = compile ps_2_0 PSBasic(); } }"
        ),
        "{out}"
    );
}

#[test]
fn monogame_template_profile_macros() {
    let src = "\
#if OPENGL
\t#define SV_POSITION POSITION
\t#define VS_SHADERMODEL vs_3_0
\t#define PS_SHADERMODEL ps_3_0
#else
\t#define VS_SHADERMODEL vs_4_0_level_9_1
\t#define PS_SHADERMODEL ps_4_0_level_9_1
#endif
float4 P : SV_POSITION;
technique T { pass P0 { VertexShader = compile VS_SHADERMODEL MainVS(); PixelShader = compile PS_SHADERMODEL MainPS(); } };
";
    let out = ok(src);
    assert!(out.contains("float4 P : POSITION;"), "{out}");
    assert!(
        out.contains("compile vs_3_0 MainVS()") && out.contains("compile ps_3_0 MainPS()"),
        "{out}"
    );
}

#[test]
fn nested_calls_and_rescanning() {
    let src = "\
#define ADD(a, b) ((a) + (b))
#define TWICE(x) ADD(x, x)
#define CALL(f, v) f(v)
#define ID(x) x
#define G ID
TWICE(ADD(1, 2))
CALL(TWICE, 3)
G(4)
ID(ID)(5)
";
    assert_eq!(
        squash(&ok(src)),
        // `ID(ID)`'s result is painted: C leaves `ID(5)` unexpanded.
        "((((1)+(2)))+(((1)+(2))))((3)+(3))4ID(5)"
    );
}

/// The example of C11 6.10.3.5p5, which exercises rescanning, hide sets and pasting together.
#[test]
fn c_standard_example() {
    let src = "\
#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
";
    let expected = "\
f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { \"hello\", \"\" };";
    assert_eq!(squash(&ok(src)), squash(expected));
}

#[test]
fn self_referential_macros_do_not_recurse() {
    let src = "\
#define foo foo + 1
#define a b
#define b a
#define f(x) f(x) * 2
foo; a; b; f(f(3));
";
    assert_eq!(squash(&ok(src)), "foo+1;a;b;f(f(3)*2)*2;");
}

#[test]
fn stringizing_and_variadics() {
    let src = r#"#define S(x) #x
#define V(fmt, ...) call(fmt, __VA_ARGS__)
#define W(...) [__VA_ARGS__]
#define GNU(fmt, args...) g(fmt, ## args)
S(  a   +  "q\"" );
V(1, 2, 3);
W();
GNU(f);
GNU(f, 1, 2);
"#;
    let out = ok(src);
    assert!(out.contains(r#""a + \"q\\\"\"""#), "{out}");
    assert_eq!(
        squash(&out),
        squash(r#""a + \"q\\\"\""; call(1, 2, 3); []; g(f); g(f,1,2);"#)
    );
}

#[test]
fn expansion_never_glues_tokens() {
    let out = ok("#define NEG -1\n#define E\nx = -NEG; a E b; c = 1E+2;\n");
    assert!(!out.contains("--"), "{out}");
    assert!(!out.contains("ab"), "{out}");
    assert!(out.contains("1E+2"), "{out}");
}

#[test]
fn invocation_arguments_may_contain_conditionals() {
    let src = "\
#define SAMPLE(t, uv) tex2D(t, uv)
#define F(x) [x]
float4 c = SAMPLE(s0,
#if OPENGL
    uvGL
#else
    uvDX
#endif
);
int after;
F
#ifdef OPENGL
(1)
#endif
;
int last;
";
    let out = ok(src);
    assert!(out.contains("tex2D(s0, uvGL)"), "{out}");
    assert!(out.contains("[1]"), "{out}");
    let lines: Vec<&str> = out.split('\n').collect();
    assert_eq!(lines[9], "int after;", "{out}");
    assert_eq!(lines[15], "int last;", "{out}");
    assert_eq!(out.matches('\n').count(), src.matches('\n').count());
    // A `#define` inside arguments still ends the run.
    let d = err("#define F(x) x\nF(1,\n#define Y\n2)\n");
    assert_eq!(codes(&d), [Code::SD0004]);
}

#[test]
fn function_like_name_without_parens_is_left_alone() {
    assert_eq!(
        squash(&ok("#define F(x) [x]\nint F; F (1) F\n")),
        "intF;[1]F"
    );
}

// ---- text handling ---------------------------------------------------------------------------

#[test]
fn comments_removed_strings_untouched() {
    let src = "#define X 1\nstring s = \"X // /* not a comment */\"; // X\nint y = X; /* X\n X */ int z;\n";
    let out = ok(src);
    assert!(out.contains("\"X // /* not a comment */\""), "{out}");
    assert!(out.contains("int y = 1;"), "{out}");
    assert!(!out.contains("/*") || out.contains("\"X // /*"), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[3].contains("int z;"), "{out}");
}

#[test]
fn directives_and_inactive_lines_keep_line_numbers() {
    let src = "\
#define A 1
#if 0
dead
#else
live
#endif
#define LONG first \\
   second
float4 x;
LONG
";
    let out = ok(src);
    let lines: Vec<&str> = out.split('\n').collect();
    assert_eq!(lines[0], "");
    assert_eq!(lines[2], "");
    assert_eq!(lines[4], "live");
    assert_eq!(lines[8], "float4 x;");
    assert_eq!(squash(lines[9]), "firstsecond");
    assert_eq!(out.matches('\n').count(), src.matches('\n').count());
}

#[test]
fn multi_line_invocation_keeps_following_lines_aligned() {
    let src = "#define F(a, b) a + b\nint v = F(1,\n          2);\nint after;\n";
    let out = ok(src);
    let lines: Vec<&str> = out.split('\n').collect();
    assert_eq!(squash(lines[1]), "intv=1+2;");
    assert_eq!(lines[3], "int after;");
}

#[test]
fn crlf_and_continuations_are_handled() {
    let out = ok("#define A 1 \\\r\n + 2\r\nint x = A;\r\n");
    assert_eq!(out, "\r\n\r\nint x = 1 + 2;\r\n");
}

#[test]
fn pack_matrix_pragma_is_kept_others_dropped() {
    let out = ok("#pragma pack_matrix(row_major)\n#pragma warning(disable: 3571)\n#line 10 \"x.fx\"\nint a;\n");
    let lines: Vec<&str> = out.split('\n').collect();
    assert_eq!(lines[0], "#pragma pack_matrix(row_major)");
    assert_eq!(lines[1], "");
    assert_eq!(lines[2], "");
    assert_eq!(lines[3], "int a;");
}

// ---- errors ----------------------------------------------------------------------------------

#[test]
fn error_directive_reports_its_text() {
    let d = err("#if !OPENGL\n#endif\n#error  unsupported platform\n");
    assert_eq!(codes(&d), [Code::SD0003]);
    assert_eq!(d.0[0].message, "unsupported platform");
    let p = d.0[0].primary.as_ref().unwrap();
    assert_eq!(p.span.start, 19);
}

#[test]
fn conditional_errors_are_collected_with_spans() {
    let src = "#else\n#endif\n#if 1 +\n#endif\n#if 1\nint x;\n";
    let d = err(src);
    assert_eq!(codes(&d), [Code::SD0004; 4]);
    // The unterminated group points at its `#if`.
    let last = d.0[3].primary.as_ref().unwrap().span;
    assert_eq!(&src[last.start as usize..last.end as usize], "#if 1");
    assert!(d.iter().all(|d| d.help.is_some()));
}

#[test]
fn bad_macro_invocations() {
    let d = err("#define F(a, b) a b\nF(1);\nF(1, 2, 3);\n");
    assert_eq!(codes(&d), [Code::SD0004, Code::SD0004]);
    let s = d.0[0].primary.as_ref().unwrap().span;
    assert_eq!((s.start, s.end), (20, 21));
    let d = err("#define F(a) a\nF(1,\n");
    assert_eq!(codes(&d), [Code::SD0004]);
    assert!(d.0[0].message.contains("unterminated"));
    let d = err("#define F(a, a) a\n#define G(x) #y\n#define H ## x\n#define\n#foo\n");
    assert_eq!(codes(&d), [Code::SD0004; 5]);
}

#[test]
fn unterminated_comment_and_string() {
    let d = err("int a;\n/* open\n");
    assert_eq!(codes(&d), [Code::SD0006]);
    assert_eq!(d.0[0].primary.as_ref().unwrap().span.start, 7);
    let d = err("string s = \"open;\n");
    assert_eq!(codes(&d), [Code::SD0006]);
    // A stray quote in dead code is fine.
    ok("#if 0\ndon't \"\n#endif\n");
}

#[test]
fn unreadable_main_file() {
    let mut files = SourceFiles::new();
    let d = preprocess(
        Path::new("/nonexistent/shadowdusk/none.fx"),
        None,
        &Options::default(),
        &mut files,
    )
    .unwrap_err();
    assert_eq!(codes(&d), [Code::SD0005]);
    assert!(d.0[0].help.is_some());
}

// ---- includes --------------------------------------------------------------------------------

#[test]
fn includes_quoted_angled_and_include_dirs() {
    let dir = temp_dir("incl");
    write(&dir, "fx/local.fxh", "local_text\n");
    write(&dir, "fx/both.fxh", "both_local\n");
    write(&dir, "sys/both.fxh", "both_sys\n");
    write(
        &dir,
        "sys/sysonly.fxh",
        "#include \"nested.fxh\"\nsys_text\n",
    );
    write(&dir, "sys/nested.fxh", "nested_text\n");
    let main = write(
        &dir,
        "fx/main.fx",
        "#include \"local.fxh\"\n#include \"both.fxh\"\n#include <both.fxh>\n#include <sysonly.fxh>\n#define HDR \"local.fxh\"\n#include HDR\nend\n",
    );
    let opts = Options {
        include_dirs: vec![dir.join("sys")],
        ..Options::default()
    };
    let (r, files) = run_file(&main, &opts);
    let e = r.unwrap();
    assert_eq!(
        squash(&e.text),
        "local_textboth_localboth_sysnested_textsys_textlocal_textend"
    );
    let deps: Vec<PathBuf> = e.deps.clone();
    assert_eq!(
        deps,
        [
            main.clone(),
            dir.join("fx/local.fxh"),
            dir.join("fx/both.fxh"),
            dir.join("sys/both.fxh"),
            dir.join("sys/sysonly.fxh"),
            dir.join("sys/nested.fxh"),
        ]
    );
    assert_eq!(files.len(), 6);
    // The included text maps into the included file.
    let at = e.text.find("nested_text").unwrap();
    let (path, line, col) = origin(&e, &files, at);
    assert_eq!((path, line, col), (dir.join("sys/nested.fxh"), 1, 1));
    let at = e.text.find("end").unwrap();
    assert_eq!(origin(&e, &files, at), (main.clone(), 7, 1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn windows_separators_and_bom_in_includes() {
    let dir = temp_dir("winsep");
    write(
        &dir,
        "inc/common.fxh",
        "\u{FEFF}#define COMMON 1\ncommon_text COMMON\n",
    );
    let main = write(
        &dir,
        "main.fx",
        "\u{FEFF}#include \"inc\\common.fxh\"\nend\n",
    );
    let (r, _) = run_file(&main, &Options::default());
    let e = r.unwrap();
    assert_eq!(squash(&e.text), "common_text1end");
    assert!(e.text.is_ascii(), "{:?}", e.text);
    assert_eq!(e.deps[1], dir.join("inc/common.fxh"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dot_slash_is_normalized_in_deps() {
    let dir = temp_dir("dot");
    write(&dir, "a.fxh", "a\n");
    let main = write(&dir, "main.fx", "#include \"./a.fxh\"\n");
    let (r, _) = run_file(&main, &Options::default());
    assert_eq!(r.unwrap().deps, [main.clone(), dir.join("a.fxh")]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pragma_once_and_diamonds() {
    let dir = temp_dir("once");
    write(&dir, "once.fxh", "#pragma once\nonce_body\n");
    write(&dir, "plain.fxh", "plain_body\n");
    write(
        &dir,
        "left.fxh",
        "#include \"plain.fxh\"\n#include \"once.fxh\"\n",
    );
    write(
        &dir,
        "right.fxh",
        "#include \"plain.fxh\"\n#include \"once.fxh\"\n",
    );
    let main = write(
        &dir,
        "main.fx",
        "#include \"left.fxh\"\n#include \"right.fxh\"\n",
    );
    let (r, files) = run_file(&main, &Options::default());
    let e = r.unwrap();
    assert_eq!(e.text.matches("once_body").count(), 1);
    assert_eq!(e.text.matches("plain_body").count(), 2);
    assert_eq!(e.deps.len(), 5);
    assert_eq!(files.len(), 5, "a file included twice is read once");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn include_cycle_is_an_error() {
    let dir = temp_dir("cycle");
    write(&dir, "a.fxh", "#include \"b.fxh\"\n");
    write(&dir, "b.fxh", "#include \"a.fxh\"\n");
    let main = write(&dir, "main.fx", "#include \"a.fxh\"\n");
    let (r, files) = run_file(&main, &Options::default());
    let d = r.unwrap_err();
    assert_eq!(codes(&d), [Code::SD0002]);
    let span = d.0[0].primary.as_ref().unwrap().span;
    let f = files.get(span.file);
    assert_eq!(f.path, dir.join("b.fxh"));
    assert_eq!(&f.text[span.start as usize..span.end as usize], "\"a.fxh\"");
    let self_incl = write(&dir, "self.fx", "#include \"self.fx\"\n");
    let d = run_file(&self_incl, &Options::default()).0.unwrap_err();
    assert_eq!(codes(&d), [Code::SD0002]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_include_lists_searched_paths() {
    let dir = temp_dir("missing");
    let main = write(&dir, "main.fx", "int a;\n#include <nope.fxh>\n");
    let opts = Options {
        include_dirs: vec![dir.join("extra")],
        ..Options::default()
    };
    let (r, files) = run_file(&main, &opts);
    let d = r.unwrap_err();
    assert_eq!(codes(&d), [Code::SD0001]);
    let note = &d.0[0].notes[0];
    let extra = dir.join("extra/nope.fxh").display().to_string();
    let own = dir.join("nope.fxh").display().to_string();
    let (ie, io) = (note.find(&extra).unwrap(), note.find(&own).unwrap());
    assert!(ie < io, "<> searches include dirs first: {note}");
    let span = d.0[0].primary.as_ref().unwrap().span;
    assert_eq!(files.get(span.file).line_col(span.start), (2, 10));
    assert_eq!(
        &files.get(span.file).text[span.start as usize..span.end as usize],
        "<nope.fxh>"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- source map ------------------------------------------------------------------------------

#[test]
fn source_map_for_verbatim_text_and_expansions() {
    let src = "#define COLOR_OF(t) tex2D(t, uv)\n\nfloat4 main() : COLOR {\n    return  COLOR_OF(s0);\n}\n";
    let (r, files) = run_with(src, &Options::default());
    let e = r.unwrap();
    let main_path = PathBuf::from("main.fx");
    // Verbatim text maps byte for byte.
    let at = e.text.find("main()").unwrap();
    assert_eq!(origin(&e, &files, at), (main_path.clone(), 3, 8));
    let ret = e.text.find("return").unwrap();
    assert_eq!(origin(&e, &files, ret), (main_path.clone(), 4, 5));
    // Every byte of the expansion maps to the macro's name at the use site.
    let start = e.text.find("tex2D").unwrap();
    let end = e.text.find("uv)").unwrap() + 3;
    for o in start..end {
        assert_eq!(
            origin(&e, &files, o),
            (main_path.clone(), 4, 13),
            "offset {o}"
        );
    }
    // And text after it is verbatim again.
    let semi = end;
    assert_eq!(&e.text[semi..semi + 1], ";");
    assert_eq!(origin(&e, &files, semi), (main_path.clone(), 4, 25));
    let span = e.map.span(start..end).unwrap();
    assert_eq!(span.start, src.find("COLOR_OF(s0)").unwrap() as u32);
}

#[test]
fn output_is_deterministic() {
    let src = "#define A(x) x##x B\n#define B 1\nA(q) A(r)\n";
    assert_eq!(ok(src), ok(src));
    let a = run(src).unwrap();
    let b = run(src).unwrap();
    assert_eq!(a.map.len(), b.map.len());
    for o in 0..a.text.len() as u32 {
        assert_eq!(a.map.lookup(o), b.map.lookup(o));
    }
}

// ---- robustness ------------------------------------------------------------------------------

const SAMPLE: &str = r#"// A small MonoGame-style effect.
#if OPENGL
    #define SV_POSITION POSITION
    #define VS_SHADERMODEL vs_3_0
    #define PS_SHADERMODEL ps_3_0
#else
    #define VS_SHADERMODEL vs_4_0_level_9_1
    #define PS_SHADERMODEL ps_4_0_level_9_1
#endif
#define DECLARE_TEXTURE(Name, index) \
    texture2D Name; \
    sampler Name##Sampler : register(s##index) = sampler_state { Texture = (Name); };
#define TECHNIQUE(name, vsname, psname ) \
    technique name { pass { VertexShader = compile VS_SHADERMODEL vsname (); PixelShader = compile PS_SHADERMODEL psname(); } }
#define S(x) #x
/* block
   comment */
DECLARE_TEXTURE(Texture, 0);
float4x4 MatrixTransform _vs(c0);
string Name = "quoted \" text";
struct VSOutput { float4 Position : SV_POSITION; float4 Color : COLOR0; };
VSOutput MainVS(float4 p : POSITION0) { VSOutput o; o.Position = mul(p, MatrixTransform); o.Color = 1; return o; }
float4 MainPS(VSOutput i) : COLOR { return tex2D(TextureSampler, i.Color.xy) * (1 << 2 >> 1); }
#if defined(DEBUG) || (1 + 2 * 3 == 7 && !0)
TECHNIQUE(Main, MainVS, MainPS);
#elif 0
#error nope
#endif
"#;

#[test]
fn sample_effect_expands() {
    let out = ok(SAMPLE);
    assert!(
        out.contains("sampler TextureSampler : register(s0)"),
        "{out}"
    );
    assert!(out.contains("compile vs_3_0 MainVS ()"), "{out}");
    assert_eq!(out.matches('\n').count(), SAMPLE.matches('\n').count());
}

#[test]
fn garbage_and_truncations_never_panic() {
    let mut seed: u64 = 0x5eed_1234_abcd_ef01;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let bytes = SAMPLE.as_bytes();
    let alphabet = b"#()\\,\"'/*\n <>_aZ09.+-!&|?:~^%=;{}##defined";
    let mut outcomes = (0, 0);
    for round in 0..600 {
        let mut v: Vec<u8> = match round % 3 {
            // Truncation.
            0 => bytes[..(next() as usize % (bytes.len() + 1))].to_vec(),
            // Mutation.
            1 => {
                let mut v = bytes.to_vec();
                for _ in 0..(1 + next() % 8) {
                    let i = next() as usize % v.len();
                    v[i] = alphabet[next() as usize % alphabet.len()];
                }
                v
            }
            // Pure garbage from the interesting alphabet.
            _ => (0..(next() % 200))
                .map(|_| alphabet[next() as usize % alphabet.len()])
                .collect(),
        };
        if round % 5 == 0 {
            v.push(0xC3); // a cut UTF-8 sequence
        }
        let text = String::from_utf8_lossy(&v);
        match run(&text) {
            Ok(_) => outcomes.0 += 1,
            Err(d) => {
                assert!(d.has_errors());
                outcomes.1 += 1;
            }
        }
    }
    assert!(outcomes.0 > 0 && outcomes.1 > 0, "{outcomes:?}");
}

#[test]
fn runaway_expansions_are_stopped() {
    let mut src = String::new();
    for i in 0..40 {
        src.push_str(&format!("#define M{i} M{} M{}\n", i + 1, i + 1));
    }
    src.push_str("M0\n");
    let d = err(&src);
    assert_eq!(codes(&d), [Code::SD0004]);
}

#[test]
fn deeply_nested_invocations_are_stopped() {
    let deep = format!(
        "#define F(x) x\n{}1{}\n",
        "F(".repeat(5000),
        ")".repeat(5000)
    );
    assert_eq!(codes(&err(&deep)), [Code::SD0004]);
}

#[test]
fn stock_effect_shape_with_macros_header() {
    let dir = temp_dir("stock");
    write(
        &dir,
        "Macros.fxh",
        r#"#if defined(SM6) || defined(VULKAN)
#define DECLARE_TEXTURE(Name, index) Texture2D<float4> Name : register(t##index); sampler Name##Sampler : register(s##index)
#elif defined(SM4)
#define DECLARE_TEXTURE(Name, index) \
    Texture2D<float4> Name : register(t##index); \
    sampler Name##Sampler : register(s##index)
#else
#define BEGIN_CONSTANTS
#define END_CONSTANTS
#define _vs(r)  : register(vs, r)
#define _ps(r)  : register(ps, r)
#define _cb(r)
#define DECLARE_TEXTURE(Name, index) \
    texture2D Name; \
    sampler Name##Sampler : register(s##index) = sampler_state { Texture = (Name); };
#define SAMPLE_TEXTURE(Name, texCoord)  tex2D(Name##Sampler, texCoord)
#endif
#define TECHNIQUE(name, vsname, psname ) \
	technique name { pass { VertexShader = compile vs_2_0 vsname (); PixelShader = compile ps_2_0 psname(); } }
"#,
    );
    let main = write(
        &dir,
        "SpriteEffect.fx",
        "#include \"Macros.fxh\"\n\nDECLARE_TEXTURE(Texture, 0);\n\nBEGIN_CONSTANTS\n    float4x4 MatrixTransform    _vs(c0) _cb(c0);\nEND_CONSTANTS\n\nfloat4 SpritePixelShader(float4 color : COLOR0, float2 texCoord : TEXCOORD0) : SV_Target0\n{\n    return SAMPLE_TEXTURE(Texture, texCoord) * color;\n}\n\nTECHNIQUE( SpriteBatch, SpriteVertexShader, SpritePixelShader );\n",
    );
    let (r, files) = run_file(&main, &Options::default());
    let e = r.unwrap();
    let t = &e.text;
    assert!(
        t.contains(
            "sampler TextureSampler : register(s0) = sampler_state { Texture = (Texture); };"
        ),
        "{t}"
    );
    assert!(
        t.contains("float4x4 MatrixTransform    : register(vs, c0) ;"),
        "{t}"
    );
    assert!(
        t.contains("return tex2D(TextureSampler, texCoord) * color;"),
        "{t}"
    );
    assert!(t.contains("technique SpriteBatch { pass { VertexShader = compile vs_2_0 SpriteVertexShader (); PixelShader = compile ps_2_0 SpritePixelShader(); } }"), "{t}");
    // Every output byte maps into a file that was read, inside that file.
    for o in 0..t.len() {
        let (id, off) = e.map.lookup(o as u32).unwrap();
        assert!(off as usize <= files.get(id).text.len());
    }
    // The technique maps to the TECHNIQUE use in the effect, line 14.
    let at = t.find("technique SpriteBatch").unwrap();
    assert_eq!(origin(&e, &files, at), (main.clone(), 14, 1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn large_input_is_linear_enough() {
    let mut src = String::from("#define MUL(a, b) mul(a, b)\n#define C(x) x##_c\n");
    for i in 0..20_000 {
        src.push_str(&format!(
            "float4 v{i} = MUL(C(w{i}), float4(1, 2, 3, 4)); // note\n"
        ));
        if i % 100 == 0 {
            src.push_str("#if OPENGL\n#endif\n");
        }
    }
    let t = std::time::Instant::now();
    let out = ok(&src);
    assert!(out.contains("float4 v19999 = mul(w19999_c, float4(1, 2, 3, 4));"));
    assert!(t.elapsed().as_secs() < 30, "took {:?}", t.elapsed());
}

// ---- Windows habits mgfxc tolerates ------------------------------------------------------------

/// (code, line, col) of each warning.
fn warnings_of(e: &Expanded, files: &SourceFiles) -> Vec<(Code, u32, u32)> {
    e.warnings
        .iter()
        .map(|d| {
            assert_eq!(d.severity, crate::diag::Severity::Warning, "{d:#?}");
            let s = d.primary.as_ref().expect("a span").span;
            let (l, c) = files.get(s.file).line_col(s.start);
            (d.code, l, c)
        })
        .collect()
}

#[test]
fn undefined_function_like_macro_in_if_is_false_with_a_warning() {
    let src = "#if SKINNED(4) || 0\nfloat a;\n#elif defined(OPENGL) && FOO(1, (2))\nfloat b;\n#else\nfloat c;\n#endif\n";
    let (r, files) = run_with(src, &Options::default());
    let e = r.expect("compiles");
    assert_eq!(squash(&e.text), "floatc;");
    assert_eq!(
        warnings_of(&e, &files),
        [(Code::SD0007, 1, 5), (Code::SD0007, 3, 26)]
    );
    // A real function-like macro is still called.
    assert_eq!(
        squash(&ok(
            "#define TWICE(x) (x * 2)\n#if TWICE(2) == 4\nfloat a;\n#endif\n"
        )),
        "floata;"
    );
    // An unclosed call is still an error.
    assert_eq!(codes(&err("#if FOO(1\n#endif\n")), [Code::SD0004]);
}

#[test]
fn include_with_other_letter_case_is_found_with_a_warning() {
    let d = temp_dir("case");
    write(&d, "Shaders/Include.fxh", "float fromHeader;\n");
    let main = write(
        &d,
        "main.fx",
        "#include \"shaders/include.FXH\"\nfloat a;\n",
    );
    let (r, files) = run_file(&main, &Options::default());
    let e = r.expect("found by case-insensitive match");
    assert_eq!(squash(&e.text), "floatfromHeader;floata;");
    assert_eq!(warnings_of(&e, &files), [(Code::SD0008, 1, 10)]);
    let w = &e.warnings.0[0];
    assert!(w.message.contains("Shaders/Include.fxh"), "{}", w.message);
    assert!(w.message.contains("shaders/include.FXH"), "{}", w.message);
    assert_eq!(e.deps[1], d.join("Shaders/Include.fxh"));

    // The exact spelling wins over a case-insensitive one, silently.
    write(&d, "shaders/include.FXH", "float exact;\n");
    let (r, _) = run_file(&main, &Options::default());
    let e = r.expect("exact match");
    assert_eq!(squash(&e.text), "floatexact;floata;");
    assert!(e.warnings.is_empty());
}

#[test]
fn include_matching_two_files_by_case_is_an_error() {
    let d = temp_dir("case2");
    write(&d, "Common.fxh", "float a;\n");
    write(&d, "COMMON.fxh", "float b;\n");
    let main = write(&d, "main.fx", "#include \"common.fxh\"\n");
    let (r, _) = run_file(&main, &Options::default());
    let diags = r.expect_err("ambiguous");
    assert_eq!(codes(&diags), [Code::SD0009]);
    let note = &diags.0[0].notes[0];
    assert!(
        note.contains("COMMON.fxh") && note.contains("Common.fxh"),
        "{note}"
    );
}
