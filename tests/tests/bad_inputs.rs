//! Bad input, stage by stage, through the real `shadowdusk` binary: every case must exit 1, print
//! its FIRST error as `file(line,col): error CODE: …` at the exact place a user would point at (or
//! `file: error CODE: …` / `error CODE: …` where the error has no position by nature), print no
//! raw control bytes, and write nothing at all (no output file, no stray temporary file).
//!
//! KNOWN_WRONG: cases where ShadowDusk is wrong today (wrong code or position, a misleading
//! message, a shader that compiles but must not) sit in `known_wrong()` with the RIGHT
//! expectation and a record of what ShadowDusk does today. The test checks that each still fails
//! in exactly that recorded way, so a fix has to move its case into `cases()` (and a change to
//! yet another wrong answer is noticed).
//!
//! `BAD_INPUTS_ONLY=text` runs only the cases whose name contains `text`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

const PS: &str = "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return float4(uv, 0, 1); }\n";
const TECH: &str = "technique T { pass P { PixelShader = compile ps_2_0 PS(); } }\n";
const MIB: usize = 1 << 20;

/// A one-line technique; the pass body starts at column 24 (`technique T { pass P { ` is 23).
fn pass(body: &str) -> String {
    format!("technique T {{ pass P {{ {body} }} }}\n")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    Preprocessor,
    EffectSyntax,
    Lowering,
    Dxc,
    Dialect,
    Layout,
    CommandLine,
    Hostile,
}

/// Where the first error must be reported.
#[derive(Clone, Debug)]
enum Where {
    /// `<dir>/<file>(<line>,<col>): error CODE: `.
    At(&'static str, u32, u32),
    /// `<dir>/<file>: error CODE: ` (no position by nature).
    Named(&'static str),
    /// `error CODE: ` with `<dir>/<file>` named in the message (how the CLI reports an input
    /// it cannot read).
    Mentions(&'static str),
    /// `error CODE: ` (a command-line error about no file).
    Bare,
}

#[derive(Clone, Debug)]
struct Want {
    code: &'static str,
    at: Where,
    /// Text stderr must contain, the case's folder written as `{dir}`.
    stderr_has: Option<&'static str>,
}

fn want(code: &'static str, at: Where) -> Want {
    Want {
        code,
        at,
        stderr_has: None,
    }
}
fn at(code: &'static str, file: &'static str, line: u32, col: u32) -> Want {
    want(code, Where::At(file, line, col))
}
fn named(code: &'static str, file: &'static str) -> Want {
    want(code, Where::Named(file))
}
fn mentions(code: &'static str, file: &'static str) -> Want {
    want(code, Where::Mentions(file))
}
fn bare(code: &'static str) -> Want {
    want(code, Where::Bare)
}
impl Want {
    fn saying(mut self, text: &'static str) -> Self {
        self.stderr_has = Some(text);
        self
    }
}

/// What a KNOWN_WRONG case gets today.
#[derive(Clone, Debug)]
enum Today {
    /// Exit 1, nothing written, and this first error line (checked like a `Want`).
    Says(Want),
    /// The compile succeeds (exit 0) and writes the output: a shader that must be refused.
    #[allow(dead_code)] // for an input that compiles when it must be refused (none today)
    Compiles,
}

struct Case {
    stage: Stage,
    name: &'static str,
    /// Relative path and contents; the first file is the input.
    files: Vec<(&'static str, Vec<u8>)>,
    /// Extra folders to create (relative).
    dirs: Vec<&'static str>,
    /// The command line with `{in}`, `{out}` and `{dir}` replaced; empty means
    /// `{in} {out} /Profile:OpenGL`.
    args: Vec<&'static str>,
    want: Want,
    /// Hostile sizes: stderr stays short.
    hostile: bool,
}

/// Hostile input: at most this many diagnostics (the compiler lists 50 and then one line saying
/// how many more it dropped) ...
const MAX_HOSTILE_DIAGNOSTICS: usize = 60;
/// ... and at most this many lines in all (each diagnostic brings its `note:`/`help:` lines).
const MAX_HOSTILE_LINES: usize = 4 * MAX_HOSTILE_DIAGNOSTICS;
/// ... and no echo of a hostile input's megabyte.
const MAX_HOSTILE_BYTES: usize = 64 * 1024;

fn case(stage: Stage, name: &'static str, fx: impl Into<Vec<u8>>, want: Want) -> Case {
    Case {
        stage,
        name,
        files: vec![("effect.fx", fx.into())],
        dirs: Vec::new(),
        args: Vec::new(),
        want,
        hostile: false,
    }
}

impl Case {
    fn file(mut self, name: &'static str, text: impl Into<Vec<u8>>) -> Self {
        self.files.push((name, text.into()));
        self
    }
    fn dir(mut self, name: &'static str) -> Self {
        self.dirs.push(name);
        self
    }
    fn args(mut self, args: &[&'static str]) -> Self {
        self.args = args.to_vec();
        self
    }
    fn hostile(mut self) -> Self {
        self.hostile = true;
        self
    }
}

const WX: &[&str] = &["{in}", "{out}", "/Profile:OpenGL", "/WX"];

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    v.extend(preprocessor());
    v.extend(effect_syntax());
    v.extend(lowering());
    v.extend(dxc());
    v.extend(dialect());
    v.extend(layout());
    v.extend(command_line());
    v.extend(hostile());
    v
}

fn preprocessor() -> Vec<Case> {
    use Stage::Preprocessor as S;
    // effect.fx -> h1.fxh -> ... -> h70.fxh: the chain holds 64 files (effect.fx and h1..h63)
    // when h63.fxh asks for h64.fxh, one more than the limit allows.
    let mut deep = case(
        S,
        "include nesting deeper than 64 levels",
        format!("#include \"h1.fxh\"\n{PS}{TECH}"),
        at("SD0002", "h63.fxh", 1, 10).saying("too deep"),
    );
    for k in 1..=70u32 {
        let name: &'static str = Box::leak(format!("h{k}.fxh").into_boxed_str());
        deep = deep.file(name, format!("#include \"h{}.fxh\"\n", k + 1));
    }
    let deep = deep.file("h71.fxh", "");
    vec![
        case(
            S,
            "missing include",
            format!("{PS}#include \"nope.fxh\"\n{TECH}"),
            at("SD0001", "effect.fx", 2, 10),
        ),
        case(
            S,
            "missing <include>",
            format!("#include <nope.fxh>\n{PS}{TECH}"),
            at("SD0001", "effect.fx", 1, 10),
        ),
        case(
            S,
            "missing include inside a header",
            format!("#include \"a.fxh\"\n{PS}{TECH}"),
            at("SD0001", "a.fxh", 2, 10),
        )
        .file("a.fxh", "// a header\n#include \"gone.fxh\"\n"),
        case(
            S,
            "missing include in an existing subfolder",
            format!("#include \"sub/nope.fxh\"\n{PS}{TECH}"),
            at("SD0001", "effect.fx", 1, 10),
        )
        .dir("sub"),
        case(
            S,
            "include names a folder",
            format!("#include \"sub\"\n{PS}{TECH}"),
            at("SD0001", "effect.fx", 1, 10),
        )
        .dir("sub"),
        case(
            S,
            "file includes itself",
            format!("#include \"effect.fx\"\n{PS}{TECH}"),
            at("SD0002", "effect.fx", 1, 10),
        ),
        case(
            S,
            "include cycle A -> B -> A",
            format!("#include \"a.fxh\"\n{PS}{TECH}"),
            at("SD0002", "b.fxh", 1, 10).saying("b.fxh -> "),
        )
        .file("a.fxh", "#include \"b.fxh\"\n")
        .file("b.fxh", "#include \"a.fxh\"\n"),
        case(
            S,
            "include ambiguous by letter case",
            format!("#include \"Light.fxh\"\n{PS}{TECH}"),
            at("SD0009", "effect.fx", 1, 10),
        )
        .file("light.fxh", "")
        .file("LIGHT.fxh", ""),
        case(
            S,
            "include found only by letter case, /WX",
            format!("#include \"Common.fxh\"\n{PS}{TECH}"),
            at("SD0008", "effect.fx", 1, 10),
        )
        .file("common.fxh", "")
        .args(WX),
        deep,
        case(
            S,
            "#error",
            format!("#if OPENGL\n#error no GL here\n#endif\n{PS}{TECH}"),
            at("SD0003", "effect.fx", 2, 1).saying("no GL here"),
        ),
        case(
            S,
            "#error without text",
            format!("{PS}#error\n{TECH}"),
            at("SD0003", "effect.fx", 2, 1),
        ),
        case(
            S,
            "#error inside a header",
            format!("{PS}#include \"a.fxh\"\n{TECH}"),
            at("SD0003", "a.fxh", 3, 1),
        )
        .file("a.fxh", "// a header\n\n#error from the header\n"),
        case(
            S,
            "#error selected by /Defines",
            format!("#if QUALITY > 2\n#error QUALITY too high\n#endif\n{PS}{TECH}"),
            at("SD0003", "effect.fx", 2, 1),
        )
        .args(&["{in}", "{out}", "/Profile:OpenGL", "/Defines:QUALITY=3"]),
        case(
            S,
            "#if name(...) of no macro, /WX",
            format!("#if HAS_FEATURE(FOG)\n#endif\n{PS}{TECH}"),
            at("SD0007", "effect.fx", 1, 5),
        )
        .args(WX),
        case(
            S,
            "#else without #if",
            format!("{PS}#else\n{TECH}"),
            at("SD0004", "effect.fx", 2, 1),
        ),
        case(
            S,
            "#elif without #if",
            format!("{PS}#elif 1\n{TECH}"),
            at("SD0004", "effect.fx", 2, 1),
        ),
        case(
            S,
            "#endif without #if",
            format!("{PS}{TECH}#endif\n"),
            at("SD0004", "effect.fx", 3, 1),
        ),
        case(
            S,
            "#elif after #else",
            format!("#if 0\n#else\n#elif 1\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 3, 1),
        ),
        case(
            S,
            "#else after #else",
            format!("#if 0\n#else\n#else\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 3, 1),
        ),
        case(
            S,
            "#if without expression",
            format!("#if\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 1),
        ),
        case(
            S,
            "#if dividing by zero",
            format!("#if 1 / 0\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 7),
        ),
        case(
            S,
            "#if with a stray character",
            format!("#if 1 @ 2\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 7),
        ),
        case(
            S,
            "#if with a string",
            format!("#if \"abc\"\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 5),
        ),
        case(
            S,
            "#ifdef without a name",
            format!("#ifdef\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 1),
        ),
        case(
            S,
            "#define without a name",
            format!("#define\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 1),
        ),
        case(
            S,
            "#define of a number",
            format!("#define 123 x\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 9),
        ),
        case(
            S,
            "#define with an empty parameter",
            format!("#define F(a, ) a\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 14),
        ),
        case(
            S,
            "#undef without a name",
            format!("#undef\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 1),
        ),
        case(
            S,
            "unknown directive",
            format!("#frobnicate\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 1),
        ),
        case(
            S,
            "#include without a file",
            format!("#include\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 1),
        ),
        case(
            S,
            "macro with too few arguments",
            format!("#define ADD(a, b) ((a) + (b))\nfloat x = ADD(1);\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 2, 11),
        ),
        case(
            S,
            "macro with too many arguments",
            format!("#define ADD(a, b) ((a) + (b))\nfloat x = ADD(1, 2, 3);\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 2, 11),
        ),
        case(
            S,
            "macro call never closed",
            format!("#define F(a) a\nfloat x = F(1;\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 2, 11),
        ),
        case(
            S,
            "macro with too few arguments in #if",
            format!("#define TWO(a, b) a + b\n#if TWO(1)\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 2, 5),
        ),
        case(
            S,
            "unterminated #if",
            format!("#if 1\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 1),
        ),
        case(
            S,
            "unterminated outer #if",
            format!("#if 1\n#if 0\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 1),
        ),
        case(
            S,
            "unterminated #ifndef in a header",
            format!("#include \"a.fxh\"\n{PS}{TECH}"),
            at("SD0004", "a.fxh", 1, 1),
        )
        .file("a.fxh", "#ifndef A_FXH\n#define A_FXH\nfloat A;\n"),
        case(
            S,
            "#endif in a header closing the includer's #if",
            format!("#if 1\n#include \"a.fxh\"\n{PS}{TECH}"),
            at("SD0004", "a.fxh", 1, 1),
        )
        .file("a.fxh", "#endif\n"),
        case(
            S,
            "unterminated comment",
            format!("{PS}/* open\n{TECH}"),
            at("SD0006", "effect.fx", 2, 1),
        ),
        case(
            S,
            "unterminated comment in a header",
            format!("#include \"a.fxh\"\n{PS}{TECH}"),
            at("SD0006", "a.fxh", 2, 1),
        )
        .file("a.fxh", "float A;\n/* never closed\n"),
        case(
            S,
            "unterminated string",
            format!("{PS}float4 Tint = \"abc;\n{TECH}"),
            at("SD0006", "effect.fx", 2, 15),
        ),
        // Was KNOWN_WRONG: fixed.
        case(
            S,
            "#line abc",
            format!("#line abc\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 7),
        ),
        // Was KNOWN_WRONG: fixed.
        case(
            S,
            "#include of a bare word",
            format!("#include nope\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 10),
        ),
        // Was KNOWN_WRONG: fixed.
        case(
            S,
            "#if with a dangling operator",
            format!("#if 1 +\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 7),
        ),
        // Was KNOWN_WRONG: fixed.
        case(
            S,
            "#if with an unclosed parenthesis",
            format!("#if (1 + 2\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 5),
        ),
        // Was KNOWN_WRONG: fixed.
        case(
            S,
            "#if defined( never closed",
            format!("#if defined(FOO\n#endif\n{PS}{TECH}"),
            at("SD0004", "effect.fx", 1, 12).saying("`)`"),
        ),
    ]
}

fn effect_syntax() -> Vec<Case> {
    use Stage::EffectSyntax as S;
    // Line 2 is `sampler S = sampler_state { Texture = <Tex>; <state> };`, <state> at column 46.
    let sampler = |state: &str| {
        format!("texture Tex;\nsampler S = sampler_state {{ Texture = <Tex>; {state} }};\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return tex2D(S, uv); }}\n{TECH}")
    };
    let blend = "SetBlendState(Additive, float4(0, 0, 0, 0), 0xFFFFFFFF); PixelShader = compile ps_2_0 PS();";
    vec![
        case(S, "missing ; after compile", format!("{PS}{}", pass("PixelShader = compile ps_2_0 PS()")), at("FX0008", "effect.fx", 2, 57)),
        case(S, "missing ; after a global", format!("float Scale\n{PS}{TECH}"), at("FX0008", "effect.fx", 1, 12)),
        case(S, "missing ; after sampler_state", format!("texture Tex;\nsampler S = sampler_state {{ Texture = <Tex>; }}\n{PS}{TECH}"), at("FX0008", "effect.fx", 2, 47)),
        case(S, "missing ; with CRLF line ends", format!("{PS}{}", pass("PixelShader = compile ps_2_0 PS()")).replace('\n', "\r\n"), at("FX0008", "effect.fx", 2, 57)),
        case(S, "pass outside a technique", format!("{PS}pass P {{ PixelShader = compile ps_2_0 PS(); }}\n"), at("FX0001", "effect.fx", 2, 1).saying("pass")),
        case(S, "unclosed technique", format!("{PS}technique T {{\n    pass P {{ PixelShader = compile ps_2_0 PS(); }}\n"), at("FX0002", "effect.fx", 2, 1)),
        case(S, "unclosed pass", format!("{PS}technique T {{ pass P {{ PixelShader = compile ps_2_0 PS();\n"), at("FX0002", "effect.fx", 2, 15)),
        case(S, "unclosed technique annotation", format!("{PS}technique T < string D = \"x\";\n{{ pass P {{ PixelShader = compile ps_2_0 PS(); }} }}\n"), at("FX0007", "effect.fx", 2, 13)),
        case(S, "unclosed sampler_state", "texture Tex;\nsampler S = sampler_state\n{\n    Texture = <Tex>;\n    MinFilter = Linear;\n", at("FX0009", "effect.fx", 3, 1)),
        case(S, "unknown render-state key", format!("{PS}{}", pass("Frobnicate = true; PixelShader = compile ps_2_0 PS();")), at("SD0011", "effect.fx", 2, 24)),
        case(S, "bad render-state value", format!("{PS}{}", pass("AlphaBlendEnable = Maybe; PixelShader = compile ps_2_0 PS();")), at("SD0011", "effect.fx", 2, 43)),
        case(S, "bad CullMode", format!("{PS}{}", pass("CullMode = Sideways; PixelShader = compile ps_2_0 PS();")), at("SD0011", "effect.fx", 2, 35)),
        case(S, "bad SrcBlend", format!("{PS}{}", pass("SrcBlend = Sideways; PixelShader = compile ps_2_0 PS();")), at("SD0011", "effect.fx", 2, 35)),
        case(S, "render state without =", format!("{PS}{}", pass("AlphaBlendEnable true; PixelShader = compile ps_2_0 PS();")), at("FX0001", "effect.fx", 2, 41)),
        case(S, "unknown sampler-state key", sampler("Wobble = 1;"), at("SD0024", "effect.fx", 2, 46)),
        case(S, "bad sampler filter", sampler("MinFilter = Blurry;"), at("SD0024", "effect.fx", 2, 58)),
        case(S, "bad sampler address mode", sampler("AddressU = Sideways;"), at("SD0024", "effect.fx", 2, 57)),
        case(S, "malformed BorderColor", sampler("BorderColor = banana;"), at("SD0024", "effect.fx", 2, 60)),
        case(S, "unknown profile ps_9_9", format!("{PS}{}", pass("PixelShader = compile ps_9_9 PS();")), at("SD0013", "effect.fx", 2, 46)),
        case(S, "vertex profile for a pixel shader", format!("{PS}{}", pass("PixelShader = compile vs_2_0 PS();")), at("SD0013", "effect.fx", 2, 46)),
        case(S, "pixel profile for a vertex shader", format!("{PS}{}", pass("VertexShader = compile ps_2_0 PS();")), at("SD0013", "effect.fx", 2, 47)),
        case(S, "unknown profile after tabs", format!("{PS}technique T {{\n\tpass P {{\n\t\tPixelShader = compile ps_9_9 PS();\n\t}}\n}}\n"), at("SD0013", "effect.fx", 4, 25)),
        case(S, "compile without entry", format!("{PS}{}", pass("PixelShader = compile ps_2_0;")), at("FX0003", "effect.fx", 2, 52)),
        case(S, "compile without profile", format!("{PS}{}", pass("PixelShader = compile;")), at("FX0003", "effect.fx", 2, 45)),
        case(S, "compile entry without parentheses", format!("{PS}{}", pass("PixelShader = compile ps_2_0 PS;")), at("FX0003", "effect.fx", 2, 55)),
        case(S, "no technique", PS, named("SD0010", "effect.fx")),
        case(S, "empty file", "", named("SD0010", "effect.fx")),
        case(S, "technique removed by #if", format!("{PS}#if 0\n{TECH}#endif\n"), named("SD0010", "effect.fx")),
        // A technique is there but compiles nothing: the error points at it.
        case(S, "technique without pass", format!("{PS}technique T {{ }}\n"), at("SD0010", "effect.fx", 2, 11)),
        case(S, "pass without shader", format!("{PS}technique T {{ pass P {{ }} }}\n"), at("SD0010", "effect.fx", 2, 11)),
        case(S, "extra closing brace", format!("{PS}technique T {{ pass P {{ PixelShader = compile ps_2_0 PS(); }} }} }}\n"), at("FX0001", "effect.fx", 2, 63)),
        case(S, "technique without {", format!("{PS}technique T pass P {{ PixelShader = compile ps_2_0 PS(); }} }}\n"), at("FX0001", "effect.fx", 2, 13)),
        case(S, "pass statement without =", format!("{PS}{}", pass("PixelShader compile ps_2_0 PS();")), at("FX0001", "effect.fx", 2, 36)),
        case(S, "stray @", format!("{PS}float Gain = 1 @ 2;\n{TECH}"), at("FX0011", "effect.fx", 2, 16)),
        case(S, "stray $ placeholder", format!("float Exposure = $EXPOSURE;\n{PS}{TECH}"), at("FX0011", "effect.fx", 1, 18)),
        case(S, "stray backtick in a shader body", format!("float4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return float4(uv, 0, 1) ` 2; }}\n{TECH}"), at("FX0011", "effect.fx", 1, 69)),
        case(S, "stray $ after non-ASCII text", format!("{PS}/* h\u{e9}llo */ float Gain = $;\n{TECH}"), at("FX0011", "effect.fx", 2, 26)),
        case(S, "duplicate technique, /WX", format!("{PS}{TECH}{TECH}"), at("FX0005", "effect.fx", 3, 11)).args(WX),
        case(S, "duplicate pass, /WX", format!("{PS}technique T {{\n    pass P {{ PixelShader = compile ps_2_0 PS(); }}\n    pass P {{ PixelShader = compile ps_2_0 PS(); }}\n}}\n"), at("FX0006", "effect.fx", 4, 10))
            .args(WX),
        case(S, "undeclared state object", format!("{PS}{}", pass(blend)), at("SD0027", "effect.fx", 2, 38)),
        case(S, "state object of another kind", format!("RasterizerState Additive {{ CullMode = NONE; }};\n{PS}{}", pass(blend)), at("SD0027", "effect.fx", 3, 38)),
        case(S, "geometry shader", format!("{PS}{}", pass("SetGeometryShader(compile gs_4_0 PS()); PixelShader = compile ps_2_0 PS();")), at("SD0027", "effect.fx", 2, 24)),
        case(S, "bad BlendState value", format!("BlendState Additive\n{{\n    SrcBlend = ONE;\n    DestBlend = SOMETIMES;\n}};\n{PS}{}", pass(blend)), at("SD0026", "effect.fx", 4, 17)),
        case(S, "unknown RasterizerState key", format!("RasterizerState R\n{{\n    Wobble = TRUE;\n}};\n{PS}{}", pass("SetRasterizerState(R); PixelShader = compile ps_2_0 PS();")), at("SD0026", "effect.fx", 3, 5)),
        // `sin` of a constant folds (fxc's habit); the other parameter it reads is what is not.
        case(S, "non-constant global initializer", format!("float Time;\nfloat Phase = sin(Time);\n{PS}{TECH}"), at("SD0025", "effect.fx", 2, 19)),
        // Was KNOWN_WRONG: fixed.
        case(S, "stray $ after a byte-order mark", format!("\u{feff}float Gain = $;\n{PS}{TECH}"), at("FX0011", "effect.fx", 1, 14)),
        // Was KNOWN_WRONG: fixed.
        case(S, "missing ; after a render state", format!("{PS}{}", pass("AlphaBlendEnable = true PixelShader = compile ps_2_0 PS();")), at("FX0008", "effect.fx", 2, 47)),
        // Was KNOWN_WRONG: fixed.
        case(S, "missing ; inside sampler_state", "texture Tex;\nsampler S = sampler_state { Texture = <Tex> MinFilter = Linear; };\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }\ntechnique T { pass P { PixelShader = compile ps_2_0 PS(); } }\n", at("FX0008", "effect.fx", 2, 44)),
        // Was KNOWN_WRONG: fixed.
        case(
            S,
            "unclosed global annotation",
            format!("float Scale < string UIName = \"Scale\";\n{PS}{TECH}"),
            at("FX0007", "effect.fx", 1, 13),
        ),
    ]
}

fn lowering() -> Vec<Case> {
    use Stage::Lowering as S;
    vec![
        case(S, "tex2D on a samplerCUBE", format!("samplerCUBE Env;\nfloat4 PS(float3 d : TEXCOORD0) : COLOR0 {{ return tex2D(Env, d.xy); }}\n{TECH}"), at("FX0012", "effect.fx", 2, 51)),
        case(S, "texCUBE on a sampler2D", format!("sampler2D Flat;\nfloat4 PS(float3 d : TEXCOORD0) : COLOR0 {{ return texCUBE(Flat, d); }}\n{TECH}"), at("FX0012", "effect.fx", 2, 51)),
        case(S, "one sampler used as 2D and 3D", format!("sampler S;\nfloat4 PS(float3 d : TEXCOORD0) : COLOR0 {{ return tex2D(S, d.xy) + tex3D(S, d); }}\n{TECH}"), at("FX0012", "effect.fx", 2, 68)),
        case(S, "one texture sampled as 2D and CUBE", format!("texture T0;\nsampler2D A = sampler_state {{ Texture = <T0>; }};\nsamplerCUBE B = sampler_state {{ Texture = <T0>; }};\nfloat4 PS(float3 d : TEXCOORD0) : COLOR0 {{ return tex2D(A, d.xy) + texCUBE(B, d); }}\n{TECH}"), at("FX0012", "effect.fx", 3, 13)),
        case(S, "int array passed whole", format!("int Counts[4];\nfloat First(int c[4]) {{ return c[0]; }}\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return First(Counts); }}\n{TECH}"), at("FX0012", "effect.fx", 3, 58)),
        case(S, "sampler parameter given a float", format!("float Gain;\nfloat4 Shade(sampler2D s, float2 uv) {{ return tex2D(s, uv); }}\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return Shade(Gain, uv); }}\n{TECH}"), at("FX0012", "effect.fx", 3, 58)),
        case(S, "sampler parameter used as 2D and CUBE", format!("sampler S;\nfloat4 Shade(sampler s, float3 d) {{ return tex2D(s, d.xy) + texCUBE(s, d); }}\nfloat4 PS(float3 d : TEXCOORD0) : COLOR0 {{ return Shade(S, d); }}\n{TECH}"), at("FX0012", "effect.fx", 2, 61)),
        // fxc's X3004, at the name (a declaration lost to an `#include` or `#if`).
        case(S, "tex2D on an undeclared sampler", format!("float4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return tex2D(PreviousSampler, uv); }}\n{TECH}"), at("FX0012", "effect.fx", 1, 58).saying("undeclared identifier `PreviousSampler`")),
        case(S, "undeclared sampler passed to a sampler parameter", format!("float4 Shade(sampler2D s, float2 uv) {{ return tex2D(s, uv); }}\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return Shade(PreviousSampler, uv); }}\n{TECH}"), at("FX0012", "effect.fx", 2, 58).saying("undeclared identifier `PreviousSampler`")),
        case(S, "tex2D with one argument", format!("sampler2D S;\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return tex2D(S); }}\n{TECH}"), at("FX0012", "effect.fx", 2, 52)),
        case(S, "lerp with two arguments", format!("float4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return lerp(uv.x, uv.y); }}\n{TECH}"), at("SD0100", "effect.fx", 1, 52).saying("takes 3 arguments")),
        // The compile-literal count errors point at the entry named by the `compile`.
        case(S, "compile passes too many literals", format!("float4 PS(float2 uv : TEXCOORD0, uniform float k) : COLOR0 {{ return float4(uv, k, 1); }}\n{}", pass("PixelShader = compile ps_2_0 PS(1, 2);")), at("FX0003", "effect.fx", 2, 53)),
        case(S, "compile passes literals to an entry with no uniform parameter", format!("{PS}{}", pass("PixelShader = compile ps_2_0 PS(1);")), at("FX0003", "effect.fx", 2, 53)),
        case(S, "unbound uniform parameter that cannot be an effect parameter", format!("float4 PS(float2 uv : TEXCOORD0, uniform float k[2]) : COLOR0 {{ return float4(uv, k[0], 1); }}\n{TECH}"), at("FX0003", "effect.fx", 1, 34)),
    ]
}

/// A pixel shader `PS` whose body (lines 3..) is `body`, and the ps_2_0 technique.
fn ps_lines(body: &str) -> String {
    format!("float4 PS(float2 uv : TEXCOORD0) : COLOR0\n{{\n{body}\n}}\n{TECH}")
}

fn dxc() -> Vec<Case> {
    use Stage::Dxc as S;
    let ps = ps_lines;
    vec![
        case(S, "undeclared identifier", ps("    return float4(uv, 0, 1) * undefinedThing;"), at("SD0100", "effect.fx", 3, 31)),
        case(S, "undeclared identifier in a header", format!("#include \"broken.fxh\"\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return Shade(uv); }}\n{TECH}"), at("SD0100", "broken.fxh", 4, 31))
            .file("broken.fxh", "// a header\nfloat4 Shade(float2 uv)\n{\n    return float4(uv, 0, 1) * notDeclared;\n}\n"),
        case(S, "undeclared identifier from a macro", format!("#define TINT undefinedThing\n{}", ps("    return float4(uv, 0, 1) * TINT;")), at("SD0100", "effect.fx", 4, 31)),
        case(S, "macros referring to each other", format!("#define A B\n#define B A\n{}", ps("    return float4(uv, 0, 1) * A;")), at("SD0100", "effect.fx", 5, 31)),
        case(S, "undeclared function", ps("    return Shade(uv);"), at("SD0100", "effect.fx", 3, 12)),
        // DXC points at the variable being initialized.
        case(S, "float2 into a float4", ps("    float4 c = uv;\n    return c;"), at("SD0100", "effect.fx", 3, 12)),
        case(S, "misspelt type", ps("    flaot4 c = 1;\n    return c;"), at("SD0100", "effect.fx", 3, 5)),
        case(S, "swizzle out of range", ps("    return float4(uv.xz, 0, 1);"), at("SD0100", "effect.fx", 3, 22)),
        case(S, "no such struct member", format!("struct S {{ float a; }};\n{}", ps("    S s;\n    s.a = uv.x;\n    return s.b;")), at("SD0100", "effect.fx", 6, 14)),
        case(S, "missing ; in a function body", ps("    float4 c = float4(uv, 0, 1)\n    return c;"), at("SD0100", "effect.fx", 3, 32)),
        case(S, "user function with too many arguments", format!("float Half(float x) {{ return x * 0.5; }}\n{}", ps("    return Half(uv.x, uv.y);")), at("SD0100", "effect.fx", 4, 12)),
        case(S, "redefined uniform", format!("float Gain;\nfloat Gain;\n{PS}{TECH}"), at("SD0100", "effect.fx", 2, 7)),
        case(S, "redefined function", format!("{PS}{PS}{TECH}"), at("SD0100", "effect.fx", 2, 8)),
        // DXC points at the recursive function's definition.
        case(S, "recursive function", format!("float F(float x) {{ return F(x); }}\n{}", ps("    return F(uv.x);")), at("SD0100", "effect.fx", 1, 1)),
        // fxc's X3507, at the function's name as fxc puts it.
        case(S, "entry that returns nothing", ps("    float4 c = float4(uv, 0, 1);"), at("SD0111", "effect.fx", 1, 8).saying("no path through it returns a value")),
        case(S, "helper that returns nothing", format!("float4 Shade(float2 uv)\n{{\n    float4 c = float4(uv, 0, 1);\n}}\n{}", ps("    return Shade(uv);")), at("SD0111", "effect.fx", 1, 8).saying("`Shade` returns `float4`")),
        case(S, "entry that ends in discard", ps("    discard;"), at("SD0111", "effect.fx", 1, 8)),
        case(S, "missing entry point", format!("{PS}{}", pass("PixelShader = compile ps_2_0 Nope();")), at("SD0102", "effect.fx", 2, 53)),
        case(S, "entry point spelt in the wrong case", format!("{PS}{}", pass("PixelShader = compile ps_2_0 ps();")), at("SD0102", "effect.fx", 2, 53)),
        case(S, "entry point naming a variable", format!("float Gain;\n{PS}{}", pass("PixelShader = compile ps_2_0 Gain();")), at("SD0102", "effect.fx", 3, 53)),
        case(S, "pixel shader output without semantic", format!("float4 PS(float2 uv : TEXCOORD0) {{ return float4(uv, 0, 1); }}\n{TECH}"), at("SD0100", "effect.fx", 1, 8)),
        // Points at the `compile` that makes VS a vertex shader.
        case(S, "vertex shader without position output", "struct VSOut { float4 Color : COLOR0; };\nVSOut VS(float4 p : POSITION0) { VSOut o; o.Color = p; return o; }\nfloat4 PS(float4 c : COLOR0) : COLOR0 { return c; }\ntechnique T { pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }\n", at("SD0217", "effect.fx", 4, 54)),
        case(S, "uniforms over the ps_3_0 register limit", format!("float4 Big[300];\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return Big[(int)(uv.x * 299)]; }}\n{}", pass("PixelShader = compile ps_3_0 PS();")), at("SD0218", "effect.fx", 1, 8)),
        case(S, "uniforms over the vs_3_0 register limit", format!("float4 Huge[8200];\nfloat4 VS(float4 p : POSITION0) : POSITION0 {{ return p + Huge[(int)p.w]; }}\nfloat4 PS() : COLOR0 {{ return 1; }}\n{VSPS3}"), at("SD0218", "effect.fx", 1, 8)),
        case(S, "uniforms over the ps_2_0 register limit", format!("float4 Small;\nfloat4 Table[40];\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return Small * Table[(int)(uv.x * 39)]; }}\n{TECH}"), at("SD0218", "effect.fx", 2, 8)),
    ]
}

const PS3: &str = "technique T { pass P { PixelShader = compile ps_3_0 PS(); } }\n";
const VSPS3: &str = "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

/// A ps_3_0 pixel shader `PS` whose body (lines 3..) is `body`.
fn ps3_lines(body: &str) -> String {
    format!("float4 PS(float2 uv : TEXCOORD0) : COLOR0\n{{\n{body}\n}}\n{PS3}")
}

fn dialect() -> Vec<Case> {
    use Stage::Dialect as S;
    vec![
        case(S, "struct uniform", format!("struct Light {{ float3 dir; float4 color; }};\nLight L;\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return L.color; }}\n{TECH}"), at("SD0210", "effect.fx", 2, 7)),
        case(S, "local non-square matrix row picked at run time", format!("float2x3 M;\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ float2x3 k = M * uv.y; return float4(k[(int)uv.x], 1); }}\n{TECH}"), at("SD0210", "effect.fx", 2, 82)),
        case(S, "vertex texture", format!("sampler2D s0;\nfloat4 VS(float4 p : POSITION0) : POSITION0 {{ return p + tex2Dlod(s0, float4(0, 0, 0, 0)); }}\nfloat4 PS() : COLOR0 {{ return 1; }}\n{VSPS3}"), at("SD0211", "effect.fx", 1, 11)),
        // Vertex and pixel semantics: the error points at the parameter.
        case(S, "vertex input without VertexElementUsage", format!("float4 VS(float4 p : POSITION0, float4 extra : WEIGHTS0) : POSITION0 {{ return p + extra; }}\nfloat4 PS() : COLOR0 {{ return 1; }}\n{VSPS3}"), at("SD0213", "effect.fx", 1, 33)),
        case(S, "pixel input no vertex shader writes", format!("float4 PS(float3 n : WORLDNORMAL) : COLOR0 {{ return float4(n, 1); }}\n{PS3}"), at("SD0216", "effect.fx", 1, 11)),
        case(S, "SV_VertexID", format!("float4 VS(uint id : SV_VertexID) : POSITION0 {{ return float4(id, 0, 0, 1); }}\nfloat4 PS() : COLOR0 {{ return 1; }}\n{VSPS3}"), at("SD0219", "effect.fx", 1, 11)),
        case(S, "SV_PrimitiveID", format!("float4 PS(float2 uv : TEXCOORD0, uint prim : SV_PrimitiveID) : COLOR0 {{ return float4(uv, prim, 1); }}\n{PS3}"), at("SD0219", "effect.fx", 1, 34)),
        // Points at the sampler, as SD0211 does.
        // Was KNOWN_WRONG: fixed.
        case(S, "integer shift", ps3_lines("    int cell = (int)(uv.x * 16) << 2;\n    return float4(cell / 64.0, uv.y, 0, 1);"), at("SD0221", "effect.fx", 3, 33)),
        // Was KNOWN_WRONG: fixed.
        case(S, "integer bitwise and", ps3_lines("    int cell = (int)(uv.x * 16) & 3;\n    return float4(cell / 4.0, uv.y, 0, 1);"), at("SD0221", "effect.fx", 3, 33)),
        // Was KNOWN_WRONG: fixed.
        case(S, "integer bitwise or", ps3_lines("    int cell = (int)(uv.x * 16) | 1;\n    return float4(cell / 16.0, uv.y, 0, 1);"), at("SD0221", "effect.fx", 3, 33)),
        // Was KNOWN_WRONG: fixed.
        case(S, "integer bitwise xor", ps3_lines("    int cell = (int)(uv.x * 16) ^ 5;\n    return float4(cell / 16.0, uv.y, 0, 1);"), at("SD0221", "effect.fx", 3, 33)),
        // Was KNOWN_WRONG: fixed.
        case(S, "integer bitwise not", ps3_lines("    int cell = ~(int)(uv.x * 16);\n    return float4(cell / 16.0, uv.y, 0, 1);"), at("SD0221", "effect.fx", 3, 16)),
        case(S, "integer shift assignment", ps3_lines("    int cell = (int)(uv.x * 16);\n    cell <<= 1;\n    return float4(cell / 32.0, uv.y, 0, 1);"), at("SD0221", "effect.fx", 4, 10)),
        // Was KNOWN_WRONG: fixed.
        case(S, "GetDimensions", format!("Texture2D Tex;\n{}", ps3_lines("    float w, h;\n    Tex.GetDimensions(w, h);\n    return float4(w, h, 0, 1);")), at("SD0219", "effect.fx", 5, 5)),
        // Was KNOWN_WRONG: fixed.
        case(S, "Texture2DArray", format!("Texture2DArray Layers;\nSamplerState LayerSampler;\n{}", ps3_lines("    return Layers.Sample(LayerSampler, float3(uv, 1));")), at("SD0212", "effect.fx", 1, 16)),
        // Was KNOWN_WRONG: fixed.
        case(S, "struct named posFixup", format!("struct posFixup {{ float4 Color; float Weight; }};\n{}", ps3_lines("    posFixup steps[2];\n    steps[0].Color = float4(1, 0, 0, 1);\n    steps[0].Weight = uv.x;\n    steps[1].Color = float4(0, 0, 1, 1);\n    steps[1].Weight = uv.y;\n    posFixup s = steps[(int)(uv.x * 1.99)];\n    return s.Color * s.Weight;")), at("SD0215", "effect.fx", 1, 8)),
        // Was KNOWN_WRONG: fixed.
        case(S, "shadow sampler", format!("Texture2D Depth;\nSamplerComparisonState Cmp;\n{}", ps3_lines("    return Depth.SampleCmp(Cmp, uv, 0.5);")), at("SD0212", "effect.fx", 2, 24)),
        // Was KNOWN_WRONG: fixed.
        case(S, "texel fetch", format!("Texture2D Tex;\n{}", ps3_lines("    return Tex.Load(int3(uv * 8, 0));")), at("SD0219", "effect.fx", 4, 12)),
    ]
}

fn layout() -> Vec<Case> {
    use Stage::Layout as S;
    let decl256 = "#define DECL4(n) float n##0; float n##1; float n##2; float n##3;\n#define DECL16(n) DECL4(n##0) DECL4(n##1) DECL4(n##2) DECL4(n##3)\n#define DECL64(n) DECL16(n##0) DECL16(n##1) DECL16(n##2) DECL16(n##3)\n#define DECL256(n) DECL64(n##0) DECL64(n##1) DECL64(n##2) DECL64(n##3)\n#define SUM4(n) (n##0 + n##1 + n##2 + n##3)\n#define SUM16(n) (SUM4(n##0) + SUM4(n##1) + SUM4(n##2) + SUM4(n##3))\n#define SUM64(n) (SUM16(n##0) + SUM16(n##1) + SUM16(n##2) + SUM16(n##3))\n#define SUM256(n) (SUM64(n##0) + SUM64(n##1) + SUM64(n##2) + SUM64(n##3))\n";
    let ps4 = pass("PixelShader = compile ps_4_0 PS();");
    vec![
        case(S, "sampler slot above 15", format!("sampler2D Detail : register(s16);\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return tex2D(Detail, uv); }}\n{TECH}"), at("SD0023", "effect.fx", 1, 11)),
        case(S, "two samplers on one slot", format!("sampler2D A : register(s1);\nsampler2D B : register(s1);\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return tex2D(A, uv) + tex2D(B, uv); }}\n{TECH}"), at("SD0023", "effect.fx", 2, 11)),
        case(S, "texture and value sharing a name", format!("float4 Tint;\nsampler TintSampler = sampler_state {{ Texture = <Tint>; }};\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return tex2D(TintSampler, uv) * Tint; }}\n{TECH}"), at("SD0014", "effect.fx", 1, 8)),
        // Was KNOWN_WRONG: fixed.
        case(S, "constant buffer over 32767 bytes", format!("float4 Palette[2100];\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return Palette[(int)(uv.x * 2099)]; }}\n{ps4}"), at("SD0020", "effect.fx", 1, 8)),
        // Was KNOWN_WRONG: fixed.
        case(S, "matrices over 32767 bytes", format!("float4x4 Bones[600];\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return Bones[(int)(uv.x * 599)][0]; }}\n{ps4}"), at("SD0020", "effect.fx", 1, 10)),
        // Was KNOWN_WRONG: fixed.
        case(S, "sampler parameter index above 255", format!("{decl256}DECL256(Weight)\nsampler2D Diffuse;\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return tex2D(Diffuse, uv) * SUM256(Weight); }}\n{ps4}"), at("SD0022", "effect.fx", 10, 11).saying("Diffuse")),
    ]
}

fn command_line() -> Vec<Case> {
    use Stage::CommandLine as S;
    let good = || format!("{PS}{TECH}");
    vec![
        case(
            S,
            "/Profile:DirectX_11",
            good(),
            named("SD0030", "effect.fx"),
        )
        .args(&["{in}", "{out}", "/Profile:DirectX_11"]),
        case(S, "empty /Profile:", good(), named("SD0030", "effect.fx")).args(&[
            "{in}",
            "{out}",
            "/Profile:",
        ]),
        case(S, "unknown --flag", good(), bare("SD0030")).args(&["{in}", "{out}", "--frobnicate"]),
        case(S, "misspelt /Option:", good(), bare("SD0030")).args(&[
            "{in}",
            "{out}",
            "/Profil:OpenGL",
        ]),
        case(
            S,
            "input does not exist",
            good(),
            mentions("SD0005", "absent.fx"),
        )
        .args(&["{dir}/absent.fx", "{out}", "/Profile:OpenGL"]),
        case(S, "input is a folder", good(), mentions("SD0005", "sub"))
            .dir("sub")
            .args(&["{dir}/sub", "{out}", "/Profile:OpenGL"]),
        case(
            S,
            "missing output argument",
            good(),
            named("SD0030", "effect.fx"),
        )
        .args(&["{in}", "/Profile:OpenGL"]),
        case(S, "extra argument", good(), bare("SD0030")).args(&[
            "{in}",
            "{out}",
            "{dir}/third.mgfx",
        ]),
        case(S, "/MGFXVersion:12", good(), bare("SD0030")).args(&[
            "{in}",
            "{out}",
            "/MGFXVersion:12",
        ]),
        case(S, "bad /Defines", good(), bare("SD0030")).args(&["{in}", "{out}", "/Defines:A B"]),
        case(S, "--explain of an unknown code", good(), bare("SD0030"))
            .args(&["--explain", "SD9999"]),
        case(S, "--explain without a code", good(), bare("SD0030")).args(&["--explain"]),
        case(
            S,
            "output inside a file",
            good(),
            named("SD0031", "effect.fx"),
        )
        .args(&["{in}", "{in}/x.mgfx", "/Profile:OpenGL"]),
        case(S, "output names a folder", good(), named("SD0031", "out")).args(&[
            "{in}",
            "{dir}/out",
            "/Profile:OpenGL",
        ]),
        case(
            S,
            "include folder that does not exist",
            format!("#include \"lib.fxh\"\n{PS}{TECH}"),
            at("SD0001", "effect.fx", 1, 10),
        )
        .args(&["{in}", "{out}", "/Profile:OpenGL", "/I:{dir}/nowhere"]),
    ]
}

/// 1 MiB of deterministic junk (a linear congruential generator) that starts with the invalid
/// UTF-8 byte 0xFF; `tame` replaces `/`, `"`, `'` and `#` so no comment, string or directive
/// starts in it.
fn junk(tame: bool) -> Vec<u8> {
    let mut x: u32 = 0x1234_5678;
    let mut v = vec![0xffu8];
    while v.len() < MIB {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let b = (x >> 24) as u8;
        v.push(if tame && b"/\"'#".contains(&b) {
            b'x'
        } else {
            b
        });
    }
    v
}

fn hostile() -> Vec<Case> {
    use Stage::Hostile as S;
    let nested_if = format!(
        "{}#error deep\n{}{PS}{TECH}",
        "#if 1\n".repeat(100_000),
        "#endif\n".repeat(100_000)
    );
    let exponential = {
        let mut s = String::from("#define M0 x\n");
        for k in 1..=40 {
            s.push_str(&format!("#define M{k} M{} M{}\n", k - 1, k - 1));
        }
        format!("{s}float y = M40;\n{PS}{TECH}")
    };
    // The body's `(`s start at column 71; DXC refuses the 257th.
    let shader_parens = format!(
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return float4(uv, 0, 1) * {}1{}; }}\n{TECH}",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    // The body's `{` is the first brace, the extra ones start at column 45; DXC refuses the
    // 257th brace, the 256th extra one.
    let shader_braces = format!(
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ {}{} return float4(uv, 0, 1); }}\n{TECH}",
        "{".repeat(10_000),
        "}".repeat(10_000)
    );
    let long_dxc_line = format!(
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return float4(uv, 0, 1){}* undefinedThing; }}\n{TECH}",
        " ".repeat(MIB)
    );
    let long_fx_line = format!("{}$\n{PS}{TECH}", " ".repeat(MIB));
    let many_includes = format!(
        "{}#error done\n{PS}{TECH}",
        "#include \"once.fxh\"\n".repeat(10_000)
    );
    let many_dxc_errors = {
        let mut body = String::from("    float4 c = 0;\n");
        for k in 0..1000 {
            body.push_str(&format!("    c += undefined{k};\n"));
        }
        ps_lines(&format!("{body}    return c;"))
    };
    let many_fx_errors = format!("{PS}{TECH}{}", "$\n".repeat(10_000));
    vec![
        // The preprocessor reads the file first (invalid UTF-8 as U+FFFD) and finds a `/*` that
        // is never closed: line 3841, character 69 (lines end at `\n`).
        case(
            S,
            "1 MiB of junk bytes",
            junk(false),
            at("SD0006", "effect.fx", 3841, 69),
        )
        .hostile(),
        case(
            S,
            "1 MiB of junk bytes in a header",
            format!("{PS}#include \"junk.fxh\"\n{TECH}"),
            at("FX0011", "junk.fxh", 1, 1),
        )
        .file("junk.fxh", junk(true))
        .hostile(),
        case(
            S,
            "1 MiB of @",
            "@".repeat(MIB),
            at("FX0011", "effect.fx", 1, 1),
        )
        .hostile(),
        case(
            S,
            "1 MiB of NUL",
            vec![0u8; MIB],
            at("FX0011", "effect.fx", 1, 1),
        )
        .hostile(),
        case(
            S,
            "100k nested #if 1",
            nested_if,
            at("SD0003", "effect.fx", 100_001, 1),
        )
        .hostile(),
        case(
            S,
            "exponential macros, 40 levels",
            exponential,
            at("SD0004", "effect.fx", 42, 11),
        )
        .hostile(),
        case(
            S,
            "10k nested parentheses in a shader",
            shader_parens,
            at("SD0100", "effect.fx", 1, 71 + 256),
        )
        .hostile(),
        case(
            S,
            "10k nested braces in a shader",
            shader_braces,
            at("SD0100", "effect.fx", 1, 45 + 255),
        )
        .hostile(),
        case(
            S,
            "a 1 MiB line in a shader",
            long_dxc_line,
            at("SD0100", "effect.fx", 1, 67 + MIB as u32 + 3),
        )
        .hostile(),
        case(
            S,
            "a 1 MiB line before a stray $",
            long_fx_line,
            at("FX0011", "effect.fx", 1, MIB as u32 + 1),
        )
        .hostile(),
        case(
            S,
            "10k includes of a #pragma once header",
            many_includes,
            at("SD0003", "effect.fx", 10_001, 1),
        )
        .file("once.fxh", "#pragma once\nfloat Shared;\n")
        .hostile(),
        case(
            S,
            "1000 DXC errors",
            many_dxc_errors,
            at("SD0100", "effect.fx", 4, 10),
        )
        .hostile(),
        case(
            S,
            "10k stray characters",
            many_fx_errors,
            at("FX0011", "effect.fx", 3, 1),
        )
        .hostile(),
        // Was KNOWN_WRONG: fixed.
        case(
            S,
            "100k nested parentheses in a global initializer",
            format!(
                "float x = {}1{};\n{PS}{TECH}",
                "(".repeat(100_000),
                ")".repeat(100_000)
            ),
            at("SD0025", "effect.fx", 1, 267).saying("nest"),
        )
        .hostile(),
    ]
}

/// `#define A0 1`, `#define Ak A(k-1)` up to A100000, then `#if A100000 == 1` / `#error` (line
/// 100003).
fn macro_chain() -> String {
    let mut s = String::from("#define A0 1\n");
    for k in 1..=100_000 {
        s.push_str(&format!("#define A{k} A{}\n", k - 1));
    }
    format!("{s}#if A100000 == 1\n#error chain resolved\n#endif\n{PS}{TECH}")
}

/// KNOWN_WRONG: the right expectation, and what ShadowDusk does instead today.
fn known_wrong() -> Vec<(Case, Today)> {
    use Stage::*;
    let says = Today::Says;
    vec![
        // ---- hostile -----------------------------------------------------------------------
        (
            // A0 .. A100000, each defined as the one before: one token at every step, which a C
            // preprocessor resolves to 1; ShadowDusk bounds the work of one expansion (the hide
            // sets grow with the depth), so from about a thousand links on it gives up, saying
            // the expansion is too deeply nested.
            case(
                Hostile,
                "a chain of 100k macros",
                macro_chain(),
                at("SD0003", "effect.fx", 100_003, 1).saying("chain resolved"),
            )
            .hostile(),
            says(at("SD0004", "effect.fx", 100_002, 5).saying("too deeply nested")),
        ),
    ]
}

// ---- running ---------------------------------------------------------------------------------

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// Builds the `shadowdusk` binary once (`cargo build -p shadowdusk-cli --bin shadowdusk`) and
/// returns its path in the workspace's target folder.
fn binary() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let root = workspace_root();
        let status = Command::new(env!("CARGO"))
            .args([
                "build",
                "--quiet",
                "-p",
                "shadowdusk-cli",
                "--bin",
                "shadowdusk",
            ])
            .current_dir(&root)
            .status()
            .expect("run cargo build");
        assert!(
            status.success(),
            "cargo build of the shadowdusk binary failed"
        );
        let target = match std::env::var_os("CARGO_TARGET_DIR") {
            Some(t) => root.join(t),
            None => root.join("target"),
        };
        let exe = target
            .join("debug")
            .join(format!("shadowdusk{}", std::env::consts::EXE_SUFFIX));
        assert!(exe.is_file(), "{} was not built", exe.display());
        exe
    })
}

fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// Every file and folder under `dir`, with file sizes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Option<u64>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let meta = std::fs::symlink_metadata(&p).expect("metadata");
            if meta.is_dir() {
                out.insert(p.clone(), None);
                stack.push(p);
            } else {
                out.insert(p, Some(meta.len()));
            }
        }
    }
    out
}

struct Run {
    status: Option<i32>,
    stderr: Vec<u8>,
    /// Problems with the parts every case must get right whatever its code: exit 1, no raw
    /// control bytes, nothing written, stderr size for hostile input.
    hygiene: Vec<String>,
    dir: PathBuf,
}

fn run(root: &Path, index: usize, case: &Case) -> Run {
    let dir = root.join(format!("{index:03}-{}", slug(case.name)));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("out")).expect("case folder");
    for d in &case.dirs {
        std::fs::create_dir_all(dir.join(d)).expect("case subfolder");
    }
    for (name, text) in &case.files {
        std::fs::write(dir.join(name), text).expect("case file");
    }
    let input = dir.join(case.files[0].0);
    let output = dir.join("out").join("effect.mgfx");
    let template: Vec<&str> = if case.args.is_empty() {
        vec!["{in}", "{out}", "/Profile:OpenGL"]
    } else {
        case.args.clone()
    };
    let args: Vec<String> = template
        .iter()
        .map(|a| {
            a.replace("{in}", &input.display().to_string())
                .replace("{out}", &output.display().to_string())
                .replace("{dir}", &dir.display().to_string())
        })
        .collect();
    let before = snapshot(&dir);
    let out = Command::new(binary())
        .args(&args)
        .output()
        .expect("run shadowdusk");
    let after = snapshot(&dir);

    let mut hygiene = Vec::new();
    let status = out.status.code();
    if status != Some(1) {
        hygiene.push(format!("exit status {:?}, expected 1", out.status));
    }
    if let Some(bad) = out
        .stderr
        .iter()
        .find(|&&b| (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f)
    {
        hygiene.push(format!("stderr holds the raw control byte {bad:#04x}"));
    }
    // The output path (or any of the output-folder arguments) names no new file.
    for a in &args {
        if a.ends_with(".mgfx") && Path::new(a).is_file() {
            hygiene.push(format!("{a} was written"));
        }
    }
    if before != after {
        let added: Vec<_> = after.keys().filter(|k| !before.contains_key(*k)).collect();
        let changed: Vec<_> = after
            .iter()
            .filter(|(k, v)| before.get(*k).is_some_and(|b| b != *v))
            .map(|(k, _)| k)
            .collect();
        let removed: Vec<_> = before.keys().filter(|k| !after.contains_key(*k)).collect();
        hygiene.push(format!(
            "the case folder changed: added {added:?}, changed {changed:?}, removed {removed:?}"
        ));
    }
    if case.hostile {
        let text = String::from_utf8_lossy(&out.stderr);
        let lines = text.lines().count();
        let diagnostics = text
            .lines()
            .filter(|l| {
                l.contains(": error ") || l.starts_with("error ") || l.contains(": warning ")
            })
            .count();
        if diagnostics > MAX_HOSTILE_DIAGNOSTICS || lines > MAX_HOSTILE_LINES {
            hygiene.push(format!(
                "{diagnostics} diagnostics in {lines} lines of stderr (at most \
                 {MAX_HOSTILE_DIAGNOSTICS} in {MAX_HOSTILE_LINES})"
            ));
        }
        if out.stderr.len() > MAX_HOSTILE_BYTES {
            hygiene.push(format!(
                "{} bytes of stderr (at most {MAX_HOSTILE_BYTES}): is the input echoed?",
                out.stderr.len()
            ));
        }
        if diagnostics > 50 && !text.contains("not shown") {
            hygiene.push(format!(
                "{diagnostics} diagnostics and no line saying how many were dropped"
            ));
        }
    }
    Run {
        status,
        stderr: out.stderr,
        hygiene,
        dir,
    }
}

/// The first line of stderr that reports an error (`… error XX0000: …`).
fn first_error_line(stderr: &str) -> Option<&str> {
    stderr.lines().find(|l| {
        let mut rest = *l;
        while let Some(i) = rest.find("error ") {
            let after = &rest[i + 6..];
            let code = after.get(..6).unwrap_or("");
            let is_code = code.len() == 6
                && code[..2].chars().all(|c| c.is_ascii_uppercase())
                && code[2..].chars().all(|c| c.is_ascii_digit());
            let starts_ok = i == 0 || rest[..i].ends_with(": ");
            if is_code && starts_ok && after[6..].starts_with(": ") {
                return true;
            }
            rest = after;
        }
        false
    })
}

/// `Ok` when the run's first error matches `want`, else why not.
fn check(want: &Want, dir: &Path, stderr: &str) -> Result<(), String> {
    let Some(line) = first_error_line(stderr) else {
        return Err("no error line".into());
    };
    let path = |f: &str| dir.join(f).display().to_string();
    let prefix = match &want.at {
        Where::At(f, l, c) => format!("{}({l},{c}): error {}: ", path(f), want.code),
        Where::Named(f) => format!("{}: error {}: ", path(f), want.code),
        Where::Mentions(_) | Where::Bare => format!("error {}: ", want.code),
    };
    if !line.starts_with(&prefix) {
        return Err(format!("expected `{prefix}…`, got `{}`", clip(line)));
    }
    if let Where::Mentions(f) = &want.at {
        if !line.contains(&path(f)) {
            return Err(format!("`{}` does not name {}", clip(line), path(f)));
        }
    }
    if let Some(text) = want.stderr_has {
        // Only the messages count: the case's folder name must not match by accident.
        let messages = stderr.replace(&dir.display().to_string(), "{dir}");
        if !messages.contains(text) {
            return Err(format!("stderr lacks `{text}`"));
        }
    }
    Ok(())
}

fn clip(s: &str) -> String {
    if s.len() > 300 {
        let mut end = 300;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}… ({} bytes)", &s[..end], s.len())
    } else {
        s.to_string()
    }
}

fn excerpt(stderr: &str) -> String {
    stderr
        .lines()
        .take(6)
        .map(clip)
        .collect::<Vec<_>>()
        .join("\n    ")
}

/// Runs `jobs` on two threads (the machine is shared), in order of index.
fn run_all<T: Send + Sync, R: Send>(jobs: Vec<T>, f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(i) else { break };
                let r = f(i, job);
                results.lock().unwrap()[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
}

#[test]
fn bad_inputs_fail_cleanly_at_the_right_place() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(
            "bad_inputs_fail_cleanly_at_the_right_place",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return;
    }
    let started = std::time::Instant::now();
    let only = std::env::var("BAD_INPUTS_ONLY").ok();
    let selected = |name: &str| only.as_deref().is_none_or(|o| name.contains(o));
    let root = std::env::temp_dir().join(format!("shadowdusk-bad-inputs-{}", std::process::id()));
    binary();

    let mut names = std::collections::HashSet::new();
    for c in cases().iter().chain(known_wrong().iter().map(|(c, _)| c)) {
        assert!(names.insert(c.name), "two cases are named `{}`", c.name);
    }

    let good: Vec<Case> = cases().into_iter().filter(|c| selected(c.name)).collect();
    let wrong: Vec<(Case, Today)> = known_wrong()
        .into_iter()
        .filter(|(c, _)| selected(c.name))
        .collect();

    let mut failures = Vec::new();
    let mut per_stage: BTreeMap<Stage, (usize, usize)> = BTreeMap::new();
    let results = run_all(good, |i, c| {
        let r = run(&root, i, c);
        let stderr = String::from_utf8_lossy(&r.stderr).into_owned();
        let mut problems = r.hygiene.clone();
        if let Err(e) = check(&c.want, &r.dir, &stderr) {
            problems.push(e);
        }
        if problems.is_empty() {
            let _ = std::fs::remove_dir_all(&r.dir);
        }
        (c.stage, c.name, problems, stderr)
    });
    for (stage, name, problems, stderr) in results {
        per_stage.entry(stage).or_default().0 += 1;
        if !problems.is_empty() {
            failures.push(format!(
                "[{stage:?}] {name}: {}\n    stderr: {}",
                problems.join("; "),
                excerpt(&stderr)
            ));
        }
    }

    // KNOWN_WRONG folders are numbered from 500.
    let offset = 500;
    let results = run_all(wrong, |i, (c, today)| {
        let r = run(&root, offset + i, c);
        let stderr = String::from_utf8_lossy(&r.stderr).into_owned();
        let mut problems = Vec::new();
        let right = r.hygiene.is_empty() && check(&c.want, &r.dir, &stderr).is_ok();
        if right {
            problems.push(
                "passes now: move it from known_wrong() to cases() and drop it from the report"
                    .to_string(),
            );
        } else {
            match today {
                Today::Says(w) => {
                    if let Err(e) = check(w, &r.dir, &stderr) {
                        problems.push(format!("fails differently than recorded: {e}"));
                    }
                    // What ShadowDusk gets right today (exit 1, clean stderr, nothing written)
                    // must stay right.
                    problems.extend(r.hygiene.iter().cloned());
                }
                Today::Compiles => {
                    if r.status != Some(0) {
                        problems.push(format!(
                            "fails differently than recorded: exit {:?}, recorded a successful compile",
                            r.status
                        ));
                    }
                }
            }
        }
        if problems.is_empty() {
            let _ = std::fs::remove_dir_all(&r.dir);
        }
        (c.stage, c.name, problems, stderr)
    });
    for (stage, name, problems, stderr) in results {
        per_stage.entry(stage).or_default().1 += 1;
        if !problems.is_empty() {
            failures.push(format!(
                "[{stage:?}] KNOWN_WRONG {name}: {}\n    stderr: {}",
                problems.join("; "),
                excerpt(&stderr)
            ));
        }
    }

    let total: (usize, usize) = per_stage
        .values()
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    eprintln!(
        "bad inputs: {} cases ({} expected right, {} KNOWN_WRONG) in {:.1?}",
        total.0 + total.1,
        total.0,
        total.1,
        started.elapsed()
    );
    for (stage, (n, w)) in &per_stage {
        eprintln!("  {stage:?}: {} ({n} + {w} KNOWN_WRONG)", n + w);
    }
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&root);
    }
    assert!(
        failures.is_empty(),
        "{} of {} bad-input cases failed (folders kept under {}):\n\n{}",
        failures.len(),
        total.0 + total.1,
        root.display(),
        failures.join("\n\n")
    );
}
