//! Which identifier tokens name a global: the hygiene of the names the lowering rewrites.
//!
//! Several rewrites replace the uses of a global by a generated name (a texture under its
//! reserved name, a uniform's writable copy, a matrix getter). A use is a use of the global only
//! where no function parameter or local declaration of the same name is in scope: a local
//! `float4 diffuseTexture` beside the global `texture diffuseTexture` keeps its own name, so the
//! rewrite neither captures the user's local nor lets it capture ours. Locals are scoped to the
//! block that declares them (a `for` initializer to the enclosing block, a superset).
//!
//! Every generated name starts with [`RESERVED`]; [`reserved_identifier`] finds a user
//! identifier that does, which the lowering refuses, so no user declaration can shadow one.

use std::ops::Range;

use crate::effect::lexer::{Token, TokenKind};
use crate::effect::ParsedEffect;

/// The prefix of every name the lowering generates.
pub const RESERVED: &str = "__sd_";

/// Words that can stand before an identifier without declaring it.
const NOT_TYPES: &[&str] = &[
    "return", "else", "do", "case", "in", "out", "inout", "uniform", "goto", "typedef",
];

/// Names declared inside functions (parameters and locals) with where they are in scope.
#[derive(Debug, Default)]
pub struct Scopes(Vec<(String, Range<usize>)>);

impl Scopes {
    /// Collects every function parameter (scoped to its body) and local declaration.
    pub fn new(parsed: &ParsedEffect, src: &str, toks: &[Token]) -> Scopes {
        let text = |i: usize| toks.get(i).map_or("", |t: &Token| t.text(src));
        let mut out = Vec::new();
        for f in &parsed.ast.functions {
            for p in &f.params {
                out.push((p.name.clone(), p.range.start..f.body.end));
            }
            let body: Vec<usize> = (0..toks.len())
                .filter(|&i| toks[i].range.start > f.body.start && toks[i].range.end < f.body.end)
                .collect();
            for &i in &body {
                let declares = toks[i].kind == TokenKind::Ident
                    && i > 0
                    && toks[i - 1].kind == TokenKind::Ident
                    && !NOT_TYPES.contains(&text(i - 1))
                    && matches!(text(i + 1), ";" | "=" | "," | "[" | ":");
                if !declares {
                    continue;
                }
                // The end of the innermost block holding the declaration.
                let mut depth = 0i32;
                let end = body
                    .iter()
                    .filter(|&&k| k > i)
                    .find(|&&k| {
                        match text(k) {
                            "{" => depth += 1,
                            "}" => depth -= 1,
                            _ => {}
                        }
                        depth < 0
                    })
                    .map_or(f.body.end, |&k| toks[k].range.end);
                out.push((text(i).to_string(), toks[i].range.start..end));
            }
        }
        Scopes(out)
    }

    /// Whether `name` at `at` is a parameter or local rather than the global.
    pub fn shadowed(&self, name: &str, at: usize) -> bool {
        self.0.iter().any(|(n, r)| n == name && r.contains(&at))
    }

    /// Token indices that name the global `name`, outside its declaration `decl`: not a member
    /// access (`x.name`), not inside a struct declaration, not shadowed.
    pub fn global_uses(
        &self,
        parsed: &ParsedEffect,
        src: &str,
        toks: &[Token],
        name: &str,
        decl: &Range<usize>,
    ) -> Vec<usize> {
        (0..toks.len())
            .filter(|&i| {
                let t = &toks[i];
                t.kind == TokenKind::Ident
                    && t.text(src) == name
                    && !decl.contains(&t.range.start)
                    && (i == 0 || toks[i - 1].text(src) != ".")
                    && !parsed
                        .ast
                        .structs
                        .iter()
                        .any(|s| s.range.contains(&t.range.start))
                    && !self.shadowed(name, t.range.start)
            })
            .collect()
    }
}

/// Whether the effect declares `name` anywhere: a global, sampler, texture, function or struct
/// of the AST, or any token that follows a type the way a declarator does (a parameter, a
/// local, a global the effect parser keeps no record of). Used to tell an undeclared name
/// from one declared as something else; erring towards "declared" only costs the more
/// general message.
pub fn declared_anywhere(parsed: &ParsedEffect, src: &str, toks: &[Token], name: &str) -> bool {
    let ast = &parsed.ast;
    if ast.declaration(name).is_some()
        || ast.functions.iter().any(|f| f.name == name)
        || ast.structs.iter().any(|s| s.name == name)
    {
        return true;
    }
    let text = |i: usize| toks.get(i).map_or("", |t: &Token| t.text(src));
    (1..toks.len()).any(|i| {
        toks[i].kind == TokenKind::Ident
            && text(i) == name
            && toks[i - 1].kind == TokenKind::Ident
            && !NOT_TYPES.contains(&text(i - 1))
            && matches!(text(i + 1), ";" | "=" | "," | "[" | ":" | ")")
    })
}

/// The first user identifier that starts with [`RESERVED`].
pub fn reserved_identifier<'t>(src: &str, toks: &'t [Token]) -> Option<&'t Token> {
    toks.iter()
        .find(|t| t.kind == TokenKind::Ident && t.text(src).starts_with(RESERVED))
}
