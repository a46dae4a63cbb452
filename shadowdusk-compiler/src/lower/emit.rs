//! Writing the lowered text: the stripped text copied verbatim except for a set of
//! non-overlapping token edits and the `tex*` calls, which are rewritten recursively (their
//! arguments may hold further calls, and a coordinate may be emitted twice, as in
//! `T.SampleLevel(S, (t).xy, (t).w)`).
//!
//! Every synthesized piece maps to the position of the token it replaces, so a DXC message about
//! lowered text points at the user's token ([`TextBuilder`]).

use std::collections::BTreeMap;
use std::ops::Range;

use super::intrinsics::{self, Piece};
use super::sampler_aliases::Locals;
use crate::diag::{Code, Diagnostic};
use crate::effect::lexer::{Token, TokenKind};
use crate::effect::{Dim, ParsedEffect};
use crate::source::{SourceMap, TextBuilder};

/// Replacements of byte ranges (empty ranges are insertions), keyed by start.
#[derive(Debug, Default)]
pub struct Edits {
    // (start, end) → (text, offset the text maps to); insertions at one offset are
    // concatenated in the order added.
    map: BTreeMap<(usize, usize), (String, usize)>,
}

impl Edits {
    /// Replaces `range` by `text`. The same replacement twice is kept once (e.g. the shared type
    /// of `int a, b;`).
    pub fn replace(&mut self, range: Range<usize>, text: impl Into<String>) {
        self.replace_mapped(range.clone(), text, range.start);
    }

    /// Like [`Edits::replace`], but the new text maps to input offset `map_to`.
    pub fn replace_mapped(&mut self, range: Range<usize>, text: impl Into<String>, map_to: usize) {
        let text = text.into();
        let key = (range.start, range.end);
        match self.map.get_mut(&key) {
            Some((t, _)) if *t == text => {}
            Some((t, _)) if range.is_empty() => t.push_str(&text),
            _ => {
                self.map.insert(key, (text, map_to));
            }
        }
    }

    /// Inserts `text` at `at`.
    pub fn insert(&mut self, at: usize, text: impl Into<String>) {
        self.replace(at..at, text);
    }

    /// The first edit starting at or after `pos` that ends by `limit`, skipping keys up to
    /// `done` (an insertion leaves `pos` where it was).
    fn first_at_or_after(
        &self,
        pos: usize,
        limit: usize,
        done: Option<(usize, usize)>,
    ) -> Option<(usize, usize, &str, usize)> {
        self.map
            .range((pos, 0)..)
            .find(|(k, _)| k.0 >= pos && k.1 <= limit && done.is_none_or(|d| **k > d))
            .map(|((s, e), (t, m))| (*s, *e, t.as_str(), *m))
    }
}

/// The sampler parameter named so at an offset: its dimension and texture.
pub type ParamLookup<'a> = dyn Fn(&str, usize) -> Option<(Dim, String)> + 'a;

/// What a legacy sampler lowers to.
#[derive(Clone, Debug)]
pub struct LegacyPair {
    /// Texture object name.
    pub texture: String,
}

/// A `tex*` call found in the text.
#[derive(Clone, Debug)]
pub struct Call {
    /// Byte range of the whole call, name through `)`.
    pub range: Range<usize>,
    /// Template pieces.
    pub template: &'static str,
    /// The sampler argument's name.
    pub sampler: String,
    /// The texture, when the sampler is a function's parameter (else the legacy pair's).
    pub texture: Option<String>,
    /// Byte ranges of the arguments after the sampler.
    pub args: Vec<Range<usize>>,
}

/// Finds every `tex*` call in `toks` and checks it against the legacy samplers. `uses` collects
/// the dimension each plain `sampler` is used with; `declared` tells a name the effect declares
/// as something else from one it never declares.
#[allow(clippy::too_many_arguments)]
pub fn find_calls(
    src: &str,
    toks: &[Token],
    map: &SourceMap,
    is_legacy: &dyn Fn(&str) -> Option<Option<Dim>>,
    param: &ParamLookup<'_>,
    locals: &Locals,
    declared: &dyn Fn(&str) -> bool,
    uses: &mut BTreeMap<String, (Dim, Range<usize>)>,
) -> Result<Vec<Call>, Box<Diagnostic>> {
    let mut calls = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != TokenKind::Ident {
            continue;
        }
        let Some(intr) = intrinsics::find(t.text(src)) else {
            continue;
        };
        if toks.get(i + 1).map(|x| x.text(src)) != Some("(") {
            continue;
        }
        let fail = |msg: String, help: &str| {
            Box::new(
                Diagnostic::error(Code::FX0012, msg)
                    .at_opt(map.span(t.range.clone()))
                    .with_help(help.to_string()),
            )
        };
        let (args, close) = split_args(src, toks, i + 1).ok_or_else(|| {
            fail(
                format!("unbalanced parentheses in `{}` call", intr.name),
                "close the argument list",
            )
        })?;
        let Some(form) = intr.forms.iter().find(|(n, _)| *n == args.len()) else {
            let arities: Vec<String> = intr.forms.iter().map(|(n, _)| n.to_string()).collect();
            return Err(fail(
                format!("`{}` called with {} arguments", intr.name, args.len()),
                &format!("`{}` takes {} arguments", intr.name, arities.join(" or ")),
            ));
        };
        let first = &args[0];
        let sampler_tok = toks
            .iter()
            .position(|x| x.range.start == first.start)
            .filter(|&k| toks[k].range.end == first.end && toks[k].kind == TokenKind::Ident);
        let Some(k) = sampler_tok else {
            return Err(fail(
                format!(
                    "`{}` on an expression that is not a global sampler",
                    intr.name
                ),
                "pass a sampler declared at global scope (`sampler2D S;`) directly; \
                 sampler parameters and arrays are not supported, use `Texture2D`/`SamplerState` \
                 and `.Sample()` instead",
            ));
        };
        let name = locals.resolve(toks[k].text(src), toks[k].range.start);
        let (declared_as, texture) = match param(name, toks[k].range.start) {
            Some((d, t)) => (Some(Some(d)), Some(t)),
            None => (is_legacy(name), None),
        };
        match declared_as {
            None if !declared(name) => return Err(Box::new(undeclared(intr.name, name, map.span(toks[k].range.clone())))),
            None => {
                return Err(fail(
                    format!("`{}` on `{name}`, which is not a sampler", intr.name),
                    "declare it as a global `sampler`/`sampler2D`/… (or a sampler parameter), or use `Texture2D.Sample(SamplerState, uv)`",
                ))
            }
            Some(Some(d)) if d != intr.dim => {
                return Err(fail(
                    format!("`{}` on `{name}`, which is declared as a {:?} sampler", intr.name, d),
                    "use the intrinsic family that matches the sampler type (tex1D/tex2D/tex3D/texCUBE)",
                ))
            }
            Some(Some(_)) => {}
            Some(None) => match uses.get(name) {
                Some((d, first_use)) if *d != intr.dim => {
                    let mut d = Diagnostic::error(
                        Code::FX0012,
                        format!("sampler `{name}` is used as {:?} here and as {d:?} elsewhere", intr.dim),
                    )
                    .at_opt(map.span(t.range.clone()))
                    .with_help("declare one sampler per texture dimension (sampler2D, samplerCUBE, ...)");
                    if let Some(s) = map.span(first_use.clone()) {
                        d = d.with_label(s, "first used here");
                    }
                    return Err(Box::new(d));
                }
                Some(_) => {}
                None => {
                    uses.insert(name.to_string(), (intr.dim, t.range.clone()));
                }
            },
        }
        calls.push(Call {
            range: t.range.start..toks[close].range.end,
            template: form.1,
            sampler: name.to_string(),
            texture,
            args: args[1..].to_vec(),
        });
    }
    Ok(calls)
}

/// Every call of a function in `takers` (function name → per overload, its arity and what the
/// caller needs of it), declarations left out: the called name's token index, the call's
/// argument ranges, and the overload whose arity the call has.
pub fn calls_of<'t, T>(
    parsed: &ParsedEffect,
    src: &str,
    toks: &[Token],
    takers: &'t BTreeMap<&str, Vec<(usize, T)>>,
) -> Vec<(usize, Vec<Range<usize>>, &'t T)> {
    let mut out = Vec::new();
    if takers.is_empty() {
        return out;
    }
    let declarations: Vec<usize> = parsed.ast.functions.iter().map(|f| f.range.start).collect();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != TokenKind::Ident || declarations.contains(&t.range.start) {
            continue;
        }
        let Some(overloads) = takers.get(t.text(src)) else {
            continue;
        };
        if toks.get(i + 1).map(|x| x.text(src)) != Some("(") {
            continue;
        }
        let Some((args, _)) = split_args(src, toks, i + 1) else {
            continue;
        };
        if let Some((_, which)) = overloads.iter().find(|(n, _)| *n == args.len()) {
            out.push((i, args, which));
        }
    }
    out
}

/// Splits the argument list whose `(` is `toks[open]` at depth-0 commas. Returns the byte
/// ranges of the arguments and the index of the closing `)`.
pub fn split_args(src: &str, toks: &[Token], open: usize) -> Option<(Vec<Range<usize>>, usize)> {
    let mut depth = 0;
    let mut args = Vec::new();
    let mut start: Option<usize> = None;
    let mut last_end = 0;
    for (i, t) in toks.iter().enumerate().skip(open) {
        let s = t.text(src);
        match s {
            "(" | "[" | "{" => {
                depth += 1;
                if depth == 1 {
                    continue;
                }
            }
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    if let Some(st) = start {
                        args.push(st..last_end);
                    }
                    return Some((args, i));
                }
            }
            "," if depth == 1 => {
                args.push(
                    start.unwrap_or(t.range.start)..last_end.max(start.unwrap_or(t.range.start)),
                );
                start = None;
                continue;
            }
            _ => {}
        }
        if start.is_none() {
            start = Some(t.range.start);
        }
        last_end = t.range.end;
    }
    None
}

/// A sampler argument (of `intrinsic`, a `tex*` call or a function taking a sampler) that names
/// nothing the effect declares: fxc's X3004, said as such at the name, since the usual cause is
/// a declaration lost to an `#include` or `#if`, not a wrong sampler.
pub fn undeclared(intrinsic: &str, name: &str, at: Option<crate::source::Span>) -> Diagnostic {
    Diagnostic::error(Code::FX0012, format!("undeclared identifier `{name}`"))
        .at_opt(at)
        .with_note(format!("`{intrinsic}` takes a sampler here"))
        .with_help(format!(
            "declare the sampler (`sampler2D {name} = sampler_state {{ Texture = <…>; }};`), or check \
             that the `#include` or `#if` that declares it is active for the OpenGL profile"
        ))
}

/// Emits `src` with edits and call rewrites applied.
pub struct Emitter<'a> {
    /// The stripped text.
    pub src: &'a str,
    /// Token edits.
    pub edits: &'a Edits,
    /// `tex*` calls, sorted by start.
    pub calls: &'a [Call],
    /// Legacy sampler name → texture.
    pub pairs: &'a BTreeMap<String, LegacyPair>,
}

impl Emitter<'_> {
    /// Emits `range` into `b`.
    pub fn emit(&self, range: Range<usize>, b: &mut TextBuilder) {
        let mut pos = range.start;
        let mut done = None;
        loop {
            let edit = self.edits.first_at_or_after(pos, range.end, done);
            let ci = self.calls.partition_point(|c| c.range.start < pos);
            let call = self.calls.get(ci).filter(|c| c.range.end <= range.end);
            match (edit, call) {
                (Some((s, e, text, map_to)), c) if c.is_none_or(|c| s <= c.range.start) => {
                    b.copy(self.src, pos..s);
                    b.insert(text, map_to);
                    pos = e.max(s);
                    done = Some((s, e));
                }
                (_, Some(c)) => {
                    b.copy(self.src, pos..c.range.start);
                    self.emit_call(c, b);
                    pos = c.range.end;
                }
                _ => break,
            }
        }
        b.copy(self.src, pos..range.end.max(pos));
    }

    fn emit_call(&self, c: &Call, b: &mut TextBuilder) {
        let at = c.range.start;
        let texture = c
            .texture
            .as_deref()
            .unwrap_or_else(|| self.pairs[&c.sampler].texture.as_str());
        for p in intrinsics::pieces(c.template) {
            match p {
                Piece::Lit(s) => b.insert(s, at),
                Piece::Texture => b.insert(texture, at),
                Piece::Sampler => b.insert(&c.sampler, at),
                Piece::Arg(n) => {
                    if let Some(r) = c.args.get(n - 1) {
                        self.emit(r.clone(), b);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::lexer::tokenize;

    #[test]
    fn split_args_balances_nested_calls() {
        let src = "f(a, g(b, c), (d, e)[0], {1,2})";
        let toks = tokenize(src).tokens;
        let (args, close) = split_args(src, &toks, 1).unwrap();
        let texts: Vec<&str> = args.iter().map(|r| &src[r.clone()]).collect();
        assert_eq!(texts, ["a", "g(b, c)", "(d, e)[0]", "{1,2}"]);
        assert_eq!(toks[close].text(src), ")");
        assert_eq!(close, toks.len() - 1);
    }

    #[test]
    fn emitter_nests_calls_and_maps_back() {
        let src = "x = tex2Dlod(s, tex2D(s, uv) * 2);";
        let toks = tokenize(src).tokens;
        let mut uses = BTreeMap::new();
        let calls = find_calls(
            src,
            &toks,
            &SourceMap::new(),
            &|n| (n == "s").then_some(Some(Dim::D2)),
            &|_, _| None,
            &Locals::default(),
            &|_| true,
            &mut uses,
        )
        .unwrap();
        assert_eq!(calls.len(), 2);
        let mut pairs = BTreeMap::new();
        pairs.insert(
            "s".to_string(),
            LegacyPair {
                texture: "T".into(),
            },
        );
        let edits = Edits::default();
        let e = Emitter {
            src,
            edits: &edits,
            calls: &calls,
            pairs: &pairs,
        };
        let mut b = TextBuilder::new();
        e.emit(0..src.len(), &mut b);
        let (text, map) = b.finish();
        assert_eq!(
            text,
            "x = T.SampleLevel(s, (T.Sample(s, (uv).xy) * 2).xy, (T.Sample(s, (uv).xy) * 2).w);"
        );
        // `uv` in the first copy maps back to its own position.
        let uv_out = text.find("uv").unwrap();
        assert_eq!(map.map(uv_out as u32) as usize, src.find("uv").unwrap());
    }
}
