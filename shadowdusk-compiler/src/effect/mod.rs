//! Stage 2: the effect-syntax parser.
//!
//! Input: [`Expanded`] text. Output: [`ParsedEffect`]: the [`EffectAst`] (techniques, passes,
//! render and sampler states, annotations, uniform globals with initializers, samplers, textures,
//! function signatures), the [`DeclSites`] the lowering stage edits, and the *stripped* text, in
//! which every technique block, sampler state block and annotation block is blanked (each byte
//! replaced by a space, newlines kept), so byte offsets in the stripped text equal offsets in the
//! expanded text.
//!
//! Semantics follow mgfxc where they matter for output (fx-pipeline.md §3): render states apply
//! in source order; passes without shaders are dropped, and techniques left without passes.
//! Stricter than mgfxc by ShadowDusk policy: duplicate technique names (FX0005) and duplicate
//! pass names in one technique (FX0006), unknown state keys (SD0011/SD0024).
//!
//! Refused: see `parser` for the syntax errors; FX0011 for characters the lexer cannot
//! classify; SD0010 when no technique keeps a pass.
//!
//! Implements fx-pipeline.md §3 and §6.

mod annotations;
pub mod ast;
mod initializer;
pub mod lexer;
mod parser;
mod render_states;
mod sampler_states;
pub mod state_objects;
pub mod types;
mod values;

#[cfg(test)]
mod tests;

use std::ops::Range;

pub use ast::*;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::preprocess::Expanded;
use crate::source::{SourceFiles, SourceMap};

/// Result of parsing.
#[derive(Clone, Debug)]
pub struct ParsedEffect {
    /// The extracted syntax.
    pub ast: EffectAst,
    /// The expanded text with effect syntax blanked; same length as the input.
    pub stripped: String,
    /// Token positions of declarations, for the lowering stage's edits.
    pub sites: DeclSites,
    /// What the effect syntax is allowed to do but probably should not (duplicate names).
    pub warnings: Diagnostics,
}

/// Where the parts of declarations are, parallel to the lists in [`EffectAst`]
/// (`sites.globals[i]` belongs to `ast.globals[i]`, and so on). Kept apart from the AST so the
/// AST stays a plain description of the effect.
#[derive(Clone, Debug, Default)]
pub struct DeclSites {
    /// One per [`EffectAst::globals`].
    pub globals: Vec<GlobalSite>,
    /// One per [`EffectAst::samplers`].
    pub samplers: Vec<SamplerSite>,
    /// One per [`EffectAst::textures`].
    pub textures: Vec<TextureSite>,
    /// One list per [`EffectAst::functions`], one entry per parameter.
    pub params: Vec<Vec<ParamSite>>,
    /// Every state assignment of passes, sampler blocks and state objects, and every
    /// `Set…State(Name, …)` of a pass, in source order.
    pub states: Vec<StateSite>,
}

/// One state assignment (`FillMode = WireFrame;`, `BorderColor = 0xFF0000;`) or state-object
/// call (`SetRasterizerState(Wire);`), for diagnostics that point at the state that causes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateSite {
    /// The start of the owner's name range: a [`Pass`], a [`SamplerDecl`] or a
    /// [`StateObject`].
    pub owner: usize,
    /// The key or the called function, lowercased (`fillmode`, `setrasterizerstate`).
    pub key: String,
    /// The value's text; for a call, its first argument (the object's name).
    pub value: String,
    /// From the key through the value (or the call's closing parenthesis).
    pub range: Range<usize>,
}

/// Positions in a uniform's declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalSite {
    /// The type keyword (`int` in `uniform int Count;`).
    pub ty_range: Range<usize>,
    /// Just past the statement: the declaration's `;`, or for a cbuffer member the cbuffer's
    /// closing `}` (and its `;` when present).
    pub stmt_end: usize,
    /// `= initializer` (from `=` through the last token of the value), if any.
    pub init_range: Option<Range<usize>>,
}

/// Positions in a sampler declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SamplerSite {
    /// The type keyword (`sampler2D`, `SamplerState`).
    pub keyword_range: Range<usize>,
    /// Just past the declaration's `;`.
    pub stmt_end: usize,
}

/// Positions in a texture declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureSite {
    /// The type keyword (`texture`, `Texture2D`), without template arguments.
    pub keyword_range: Range<usize>,
    /// True for effect-framework spellings DXC rejects (`texture`, `texture2D`, `textureCUBE`).
    pub legacy: bool,
}

/// Positions in a function parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSite {
    /// The type, template arguments included.
    pub ty_range: Range<usize>,
    /// The name.
    pub name_range: Range<usize>,
    /// The (last) semantic, if any.
    pub semantic_range: Option<Range<usize>>,
}

/// Parses the effect syntax of expanded text.
pub fn parse(expanded: &Expanded) -> Result<ParsedEffect, Diagnostics> {
    let src = expanded.text.as_str();
    let lexed = lexer::tokenize(src);
    if !lexed.bad_chars.is_empty() {
        let mut d = Diagnostics::new();
        // A run of unknown characters is one error (a pasted binary is not 10^6 errors).
        let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
        for r in &lexed.bad_chars {
            match runs.last_mut() {
                Some(last) if last.end == r.start => last.end = r.end,
                _ => runs.push(r.clone()),
            }
        }
        for r in runs {
            let text = &src[r.clone()];
            let shown: String = text.chars().take(8).collect();
            let what = if text.chars().nth(8).is_some() {
                format!(
                    "{} unexpected characters starting `{}`",
                    text.chars().count(),
                    crate::diag::escape(&shown)
                )
            } else if shown.chars().count() > 1 {
                format!("unexpected characters `{}`", crate::diag::escape(&shown))
            } else {
                format!("unexpected character `{}`", crate::diag::escape(&shown))
            };
            d.push(
                Diagnostic::error(Code::FX0011, what)
                    .at_opt(expanded.map.span(r.start..r.end.min(r.start + 1)))
                    .with_help(
                        "remove it; such characters are only allowed inside strings and comments",
                    ),
            );
        }
        return Err(d);
    }
    let pack_matrix = lexed
        .tokens
        .iter()
        .filter(|t| t.kind == lexer::TokenKind::Directive)
        .filter_map(|t| {
            let words: Vec<&str> = t
                .text(src)
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            match words.as_slice() {
                ["pragma", "pack_matrix", .., "row_major"] => Some((t.range.start, true)),
                ["pragma", "pack_matrix", .., "column_major"] => Some((t.range.start, false)),
                _ => None,
            }
        })
        .collect();
    let toks: Vec<lexer::Token> = lexed
        .tokens
        .into_iter()
        .filter(|t| t.kind != lexer::TokenKind::Directive)
        .collect();
    // A `#` left after preprocessing (`float x = #error`) is an error in any HLSL, and sends
    // DXC 1.8 down a path that crashes the process (found by fuzzing): refused here.
    if let Some(t) = toks
        .iter()
        .find(|t| t.kind == lexer::TokenKind::Punct && t.text(src) == "#")
    {
        return Err(Diagnostic::error(
            Code::FX0011,
            "unexpected `#` outside a preprocessor directive",
        )
        .at_opt(expanded.map.span(t.range.clone()))
        .with_help("a directive must start its own line (`#if`, `#define`, …); elsewhere `#` is only allowed inside a macro definition")
        .into());
    }
    let mut p = parser::Parser::new(src, &toks, &expanded.map);
    p.pack_matrix = pack_matrix;
    if let Err(d) = p.run() {
        return Err((*d).into());
    }
    let mut ast = std::mem::take(&mut p.ast);
    let sites = std::mem::take(&mut p.sites);
    let blank = std::mem::take(&mut p.blank);
    let warnings = check_techniques(&mut ast, &expanded.map)?;
    Ok(ParsedEffect {
        stripped: blank_ranges(src, &blank),
        ast,
        sites,
        warnings,
    })
}

/// Duplicate names (warnings: mgfxc accepts them, and MonoGame's `Techniques["name"]` finds the
/// first), dropping shader-less passes and empty techniques, and SD0010.
fn check_techniques(ast: &mut EffectAst, map: &SourceMap) -> Result<Diagnostics, Diagnostics> {
    let mut diags = Diagnostics::new();
    for (ti, t) in ast.techniques.iter().enumerate() {
        if !t.name.is_empty() {
            if let Some(first) = ast.techniques[..ti].iter().find(|o| o.name == t.name) {
                let mut d = Diagnostic::warning(
                    Code::FX0005,
                    format!("duplicate technique name `{}`", t.name),
                )
                .at_opt(map.span(t.range.clone()))
                .with_help("both are kept, as mgfxc does, but MonoGame's `Techniques[\"name\"]` only finds the first; rename one");
                if let Some(s) = map.span(first.range.clone()) {
                    d = d.with_label(s, "first declared here");
                }
                diags.push(d);
            }
        }
        for (pi, p) in t.passes.iter().enumerate() {
            if p.name.is_empty() {
                continue;
            }
            if let Some(first) = t.passes[..pi].iter().find(|o| o.name == p.name) {
                let mut d = Diagnostic::warning(
                    Code::FX0006,
                    format!("duplicate pass name `{}` in technique `{}`", p.name, t.name),
                )
                .at_opt(map.span(p.range.clone()))
                .with_help("both are kept, as mgfxc does, but MonoGame's `Passes[\"name\"]` only finds the first; rename one");
                if let Some(s) = map.span(first.range.clone()) {
                    d = d.with_label(s, "first declared here");
                }
                diags.push(d);
            }
        }
    }
    // mgfxc drops passes without shaders, then techniques without passes.
    for t in &mut ast.techniques {
        t.passes
            .retain(|p| p.vertex_shader.is_some() || p.pixel_shader.is_some());
    }
    let first = ast.techniques.first().map(|t| t.range.clone());
    ast.techniques.retain(|t| !t.passes.is_empty());
    if ast.techniques.is_empty() {
        let d = Diagnostic::error(
            Code::SD0010,
            "the effect has no technique with a pass that compiles a shader",
        )
        .at_opt(first.and_then(|r| map.span(r)))
        .with_help(
            "add `technique T { pass P { PixelShader = compile ps_3_0 MainPS(); } }` \
                 (check that `#if` branches did not remove it)",
        );
        return Err(d.into());
    }
    Ok(diags)
}

/// Replaces every byte of `ranges` by a space, keeping newlines (and carriage returns).
fn blank_ranges(src: &str, ranges: &[Range<usize>]) -> String {
    let mut bytes = src.as_bytes().to_vec();
    for r in ranges {
        for b in &mut bytes[r.clone()] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    // Every blanked range starts and ends on a token boundary, and non-ASCII bytes inside it
    // all became spaces, so the text stays valid UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Builds an [`Expanded`] for text that needs no preprocessing: one file holding `text`, mapped
/// verbatim. For tests of this and later stages, which must not depend on the preprocessor.
pub fn expanded_from_plain(files: &mut SourceFiles, path: &str, text: &str) -> Expanded {
    let id = files.add(path, text);
    let mut map = SourceMap::new();
    map.push(0, text.len() as u32, id, 0, true);
    Expanded {
        text: text.to_string(),
        map,
        deps: vec![path.into()],
        warnings: Diagnostics::new(),
    }
}
