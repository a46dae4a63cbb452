//! Which functions one entry point reaches, and what DXC sees of the others.
//!
//! fxc compiles only the functions a `compile` statement's entry reaches: an effect may keep a
//! helper that calls `noise()` (an intrinsic fxc has only for texture shaders), or read one plain
//! `sampler` as 2D in one technique's helper and as a cube map in another's, and build fine as
//! long as no entry reaches both. DXC type-checks every function body, so the bodies an entry
//! does not reach are replaced by `;` (the definition becomes a prototype nothing calls; its
//! newlines are kept, so the lines after it keep their numbers), and the sampler rewrites look at
//! reached code only ([`live_tokens`]).
//!
//! Reached means: the entry (the one overload the `compile` statement names, `overloads`) and
//! every function named in a call (`name(`) in a reached body or outside every function body (a
//! global `static` initializer), transitively. Calls go by name, so every overload of a called
//! name counts as reached: conservative, never dropping a body the entry needs.

use std::collections::BTreeSet;
use std::ops::Range;

use crate::effect::lexer::{Token, TokenKind};
use crate::effect::ParsedEffect;

/// The bodies (`{` through `}`) of the functions `functions[entry]` does not reach, in source
/// order.
pub fn unreached_bodies(
    parsed: &ParsedEffect,
    src: &str,
    toks: &[Token],
    entry: usize,
) -> Vec<Range<usize>> {
    let functions = &parsed.ast.functions;
    let names: BTreeSet<&str> = functions.iter().map(|f| f.name.as_str()).collect();
    // (name, previous token) of every `name(` of a function inside `range`.
    let calls_in = |range: Range<usize>| -> Vec<(&str, Option<&Token>)> {
        let first = toks.partition_point(|t| t.range.start < range.start);
        (first..toks.len().saturating_sub(1))
            .take_while(|&i| toks[i].range.end <= range.end)
            .filter(|&i| {
                let t = &toks[i];
                t.kind == TokenKind::Ident
                    && toks[i + 1].text(src) == "("
                    && names.contains(t.text(src))
            })
            .map(|i| (toks[i].text(src), i.checked_sub(1).map(|p| &toks[p])))
            .collect()
    };
    let mut reached: BTreeSet<&str> = BTreeSet::new();
    let mut pending: Vec<&str> = calls_in(functions[entry].body.clone())
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    // Calls outside every body are global `static` initializers'. A function's definition or
    // prototype (`float4 F(`) is not a call: there the name follows its return type, and no
    // call follows an identifier.
    let mut bodies: Vec<Range<usize>> = functions.iter().map(|f| f.body.clone()).collect();
    bodies.sort_by_key(|b| b.start);
    let mut outside = Vec::new();
    let mut from = 0;
    for b in &bodies {
        outside.push(from..b.start);
        from = b.end;
    }
    outside.push(from..src.len());
    for r in outside {
        pending.extend(
            calls_in(r)
                .into_iter()
                .filter(|(_, prev)| prev.is_none_or(|p| p.kind != TokenKind::Ident))
                .map(|(n, _)| n),
        );
    }
    while let Some(name) = pending.pop() {
        if !reached.insert(name) {
            continue;
        }
        for f in functions.iter().filter(|f| f.name == name) {
            pending.extend(calls_in(f.body.clone()).into_iter().map(|(n, _)| n));
        }
    }
    let mut out: Vec<Range<usize>> = functions
        .iter()
        .filter(|f| {
            // The entry defined twice keeps both bodies, so DXC reports the redefinition.
            !super::overloads::same_signature(f, &functions[entry])
                && !reached.contains(f.name.as_str())
        })
        .map(|f| f.body.clone())
        .collect();
    out.sort_by_key(|b| b.start);
    out
}

/// `toks` without the tokens inside `dead` (sorted, disjoint ranges).
pub fn live_tokens(toks: &[Token], dead: &[Range<usize>]) -> Vec<Token> {
    toks.iter()
        .filter(|t| {
            let k = dead.partition_point(|d| d.end <= t.range.start);
            dead.get(k).is_none_or(|d| t.range.end <= d.start)
        })
        .cloned()
        .collect()
}

/// What replaces an unreached body: `;` and the body's line breaks.
pub fn prototype_body(src: &str, body: &Range<usize>) -> String {
    let breaks = src[body.clone()].matches('\n').count();
    format!(";{}", "\n".repeat(breaks))
}
