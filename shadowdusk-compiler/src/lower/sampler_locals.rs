//! Local sampler variables: FXAA 3.11's HLSL_3 path declares `FxaaTex tex;` (a `sampler2D`)
//! in the pixel shader, assigns it a global sampler (`tex = TextureSampler;`) and hands it to
//! `FxaaPixelShader`, whose `tex2Dlod` calls read it.
//!
//! A D3D9 sampler is not a value: fxc resolves every sampler expression to one sampler register
//! at compile time, so a local sampler is only another name for the sampler it holds. We do the
//! same in the text: the declaration and its assignments are dropped (an empty statement stays,
//! so `if (c) s = A; else s = A;` keeps its shape) and every other use of the local, from its
//! declaration to the end of the function, is renamed to the sampler it was given: a global
//! sampler, or a sampler parameter of the same function. The later passes ([`Locals::resolve`])
//! then see the sampler itself.
//!
//! Refused (FX0012): a local given anything but the name of a sampler, one given different
//! samplers (no single register could be read), and one read without ever being given one.

use std::ops::Range;

use super::emit::Edits;
use super::sampler_aliases::{LocalSampler, Locals};
use super::sampler_params::{in_scope, ParamSampler};
use crate::diag::{Code, Diagnostic};
use crate::effect::lexer::{Token, TokenKind};
use crate::effect::types::legacy_sampler;
use crate::effect::ParsedEffect;
use crate::source::SourceMap;

/// Finds the local sampler variables, drops their declarations and assignments and renames
/// their uses.
pub fn locals(
    parsed: &ParsedEffect,
    src: &str,
    toks: &[Token],
    map: &SourceMap,
    params: &[ParamSampler],
    edits: &mut Edits,
) -> Result<Locals, Box<Diagnostic>> {
    let text = |i: usize| toks.get(i).map_or("", |t: &Token| t.text(src));
    let is_sampler = |name: &str, at: usize| {
        parsed.ast.samplers.iter().any(|s| s.name == name) || in_scope(params, name, at).is_some()
    };
    let fail = |range: Range<usize>, msg: String, help: &str| {
        Box::new(
            Diagnostic::error(Code::FX0012, msg)
                .at_opt(map.span(range))
                .with_help(help.to_string()),
        )
    };
    // The name of a sampler given by the tokens from `i` up to `;` (`A` or `{ A }`), if so.
    let given = |i: usize| -> Option<(usize, usize)> {
        let braced = text(i) == "{";
        let k = if braced { i + 1 } else { i };
        let end = if braced { k + 2 } else { k + 1 };
        let ok = toks.get(k)?.kind == TokenKind::Ident
            && (!braced || text(k + 1) == "}")
            && text(end) == ";";
        ok.then_some((k, end))
    };
    let mut out = Vec::new();
    for f in &parsed.ast.functions {
        let body: Vec<usize> = (0..toks.len())
            .filter(|&i| toks[i].range.start > f.body.start && toks[i].range.end < f.body.end)
            .collect();
        for &i in &body {
            let Some(j) = (toks[i].kind == TokenKind::Ident && legacy_sampler(text(i)).is_some())
                .then_some(i + 1)
                .filter(|&j| toks.get(j).is_some_and(|t| t.kind == TokenKind::Ident))
            else {
                continue;
            };
            let name = text(j);
            let scope = toks[i].range.start..f.body.end;
            // Every place the local is given a sampler: (sampler token, statement to drop).
            let mut assigned: Vec<(usize, Range<usize>)> = Vec::new();
            let decl_end = match text(j + 1) {
                ";" => j + 1,
                "=" => {
                    let (k, end) = given(j + 2).ok_or_else(|| {
                        fail(
                            toks.get(j + 2).unwrap_or(&toks[j]).range.clone(),
                            format!("local sampler `{name}` is initialized with something that is not a sampler"),
                            "initialize it with the name of a global sampler (`sampler2D s = TextureSampler;`)",
                        )
                    })?;
                    assigned.push((k, toks[i].range.start..toks[end].range.start));
                    end
                }
                _ => continue,
            };
            if assigned.is_empty() {
                edits.replace(toks[i].range.start..toks[decl_end].range.start, "");
            }
            let mut renamed = Vec::new();
            for &u in body.iter().filter(|&&u| u > decl_end) {
                if toks[u].kind != TokenKind::Ident || text(u) != name || text(u - 1) == "." {
                    continue;
                }
                let writes = text(u + 1) == "=" && text(u + 2) != "=";
                if !writes {
                    renamed.push(u);
                    continue;
                }
                let Some((k, end)) = given(u + 2) else {
                    return Err(fail(
                        toks[u].range.clone(),
                        format!("local sampler `{name}` is assigned something that is not a sampler"),
                        "assign it the name of a global sampler (`tex = TextureSampler;`)",
                    ));
                };
                assigned.push((k, toks[u].range.start..toks[end].range.start));
            }
            for (k, _) in &assigned {
                if !is_sampler(text(*k), toks[*k].range.start) {
                    return Err(fail(
                        toks[*k].range.clone(),
                        format!("local sampler `{name}` is assigned `{}`, which is not a sampler", text(*k)),
                        "assign it the name of a global sampler (`tex = TextureSampler;`)",
                    ));
                }
            }
            let Some(&(first, _)) = assigned.first() else {
                if let Some(&u) = renamed.first() {
                    return Err(fail(
                        toks[u].range.clone(),
                        format!("local sampler `{name}` is used but never assigned a sampler"),
                        "assign it a global sampler first (`tex = TextureSampler;`)",
                    ));
                }
                continue;
            };
            if let Some(&(other, _)) = assigned.iter().find(|(k, _)| text(*k) != text(first)) {
                let mut d = Diagnostic::error(
                    Code::FX0012,
                    format!(
                        "local sampler `{name}` is assigned `{}` here and `{}` elsewhere; a D3D9 sampler is fixed at compile time",
                        text(other),
                        text(first)
                    ),
                )
                .at_opt(map.span(toks[other].range.clone()))
                .with_help("use one local per sampler, or call the function once per sampler");
                if let Some(s) = map.span(toks[first].range.clone()) {
                    d = d.with_label(s, "first assigned here");
                }
                return Err(Box::new(d));
            }
            let sampler = text(first).to_string();
            for (_, stmt) in &assigned {
                edits.replace(stmt.clone(), "");
            }
            for u in renamed {
                edits.replace(toks[u].range.clone(), sampler.clone());
            }
            out.push(LocalSampler {
                name: name.to_string(),
                scope,
                sampler,
            });
        }
    }
    Ok(Locals(out))
}
