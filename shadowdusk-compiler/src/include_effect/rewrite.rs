//! `crate = …` (with or without `name = …`): the build script's module with its runtime path
//! and name replaced, at token level, so the macro still generates nothing of its own. `name`
//! alone needs no rewrite (a re-export, see `renamed` in the parent), nor does a module without
//! the formatted `pub mod <name> {` line this falls back for.

use proc_macro2::{Group, Literal, TokenStream, TokenTree};
use syn::{Ident, LitStr};

use super::DEFAULT_CRATE;

/// The build script's module (generated with `mod <stem>` and `::shadowdusk`) with `name = …`
/// and the runtime path `krate` applied, as code generation writes them with those options: the
/// identifier after the top-level `mod`, every path that starts `::shadowdusk`, and the same two
/// in doc text (the module doc's links `](old::Item)`, prose `` `shadowdusk::…` ``).
pub(super) fn rewrite(tokens: TokenStream, name: Option<&Ident>, krate: &str) -> TokenStream {
    let mut trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut docs = Vec::new();
    if let Some(name) = name {
        let module = trees
            .iter()
            .enumerate()
            .find_map(|(i, t)| match (t, trees.get(i + 1)) {
                (TokenTree::Ident(m), Some(TokenTree::Ident(old))) if m == "mod" => {
                    Some((i + 1, old.to_string()))
                }
                _ => None,
            });
        if let Some((i, old)) = module {
            trees[i] = TokenTree::Ident(name.clone());
            let new = name.to_string().trim_start_matches("r#").to_string();
            docs.push((format!("]({old}::"), format!("]({new}::")));
        }
    }
    let mut path = None;
    if krate != DEFAULT_CRATE {
        let prose = krate.trim_start_matches("::");
        docs.push(("`shadowdusk::".to_string(), format!("`{prose}::")));
        path = krate.parse::<TokenStream>().ok();
    }
    let rewrite = Rewrite { path, docs };
    rewrite.apply(trees.into_iter().collect())
}

/// What [`rewrite`] replaces, in every nested group.
struct Rewrite {
    /// The tokens replacing `::shadowdusk` at the start of a path.
    path: Option<TokenStream>,
    /// Text replacements in `doc = "…"` literals.
    docs: Vec<(String, String)>,
}

impl Rewrite {
    fn apply(&self, stream: TokenStream) -> TokenStream {
        let trees: Vec<TokenTree> = stream.into_iter().collect();
        let mut out: Vec<TokenTree> = Vec::with_capacity(trees.len());
        let mut i = 0;
        while i < trees.len() {
            if let Some(path) = &self.path {
                if starts_runtime_path(&trees[i..]) && !continues_path(out.last()) {
                    out.extend(path.clone());
                    i += 3;
                    continue;
                }
            }
            match &trees[i] {
                TokenTree::Group(g) => {
                    let mut group = Group::new(g.delimiter(), self.apply(g.stream()));
                    group.set_span(g.span());
                    out.push(group.into());
                }
                TokenTree::Literal(lit) if is_doc_value(&out) && !self.docs.is_empty() => {
                    out.push(self.doc(lit).into());
                }
                other => out.push(other.clone()),
            }
            i += 1;
        }
        out.into_iter().collect()
    }

    fn doc(&self, lit: &Literal) -> Literal {
        let Ok(text) = syn::parse2::<LitStr>(TokenTree::Literal(lit.clone()).into()) else {
            return lit.clone();
        };
        let mut text = text.value();
        for (from, to) in &self.docs {
            text = text.replace(from, to);
        }
        let mut new = Literal::string(&text);
        new.set_span(lit.span());
        new
    }
}

/// `::shadowdusk` (`:` joint, `:`, the identifier).
fn starts_runtime_path(trees: &[TokenTree]) -> bool {
    matches!(
        trees,
        [TokenTree::Punct(a), TokenTree::Punct(b), TokenTree::Ident(c), ..]
            if a.as_char() == ':' && a.spacing() == proc_macro2::Spacing::Joint
                && b.as_char() == ':' && c == "shadowdusk"
    )
}

/// Whether `::` after `prev` continues a path (`passes::shadowdusk`, a technique so named)
/// rather than starting one (`impl ::shadowdusk::Effect`).
fn continues_path(prev: Option<&TokenTree>) -> bool {
    const STARTS_AFTER: &[&str] = &[
        "as", "const", "dyn", "else", "enum", "fn", "for", "if", "impl", "in", "let", "match",
        "mod", "move", "mut", "pub", "ref", "return", "static", "struct", "trait", "type",
        "unsafe", "use", "where", "while",
    ];
    match prev {
        Some(TokenTree::Ident(i)) => !STARTS_AFTER.contains(&i.to_string().as_str()),
        _ => false,
    }
}

/// Whether the tokens so far end with `doc =` (the literal that follows is doc text).
fn is_doc_value(out: &[TokenTree]) -> bool {
    matches!(
        out,
        [.., TokenTree::Ident(doc), TokenTree::Punct(eq)] if doc == "doc" && eq.as_char() == '='
    )
}
