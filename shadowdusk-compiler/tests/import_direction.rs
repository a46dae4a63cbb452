//! The compiler reads as a pipeline: every import points down the stage order written in
//! [`ORDER`], and no two files need each other.
//!
//! The check reads the crate's sources (not the compiled crate), so it sees every file whatever
//! the features: each `use` tree and each `crate::` / `super::` / `self::` path in code, outside
//! `#[cfg(test)]` items and test files. Doc comments and strings are not code and do not count.
//! `check` runs on the real sources and on fixtures that show both rules failing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

/// The crate's top-level modules, bottom first: a module may import only modules before it.
/// A new top-level module must be placed here, which is where its direction is decided.
const ORDER: &[&str] = &[
    // Leaves: data and plumbing several stages share. They import no stage.
    "file_stamp",
    "paths",
    "plumbing",
    "source",
    "diag",
    "build_id",
    "reflect",
    "artifact",
    // The stages, in pipeline order (dialect and wgsl both read cross's output; wgsl also
    // takes the dialect's register and sampler decisions, so it comes after it).
    "preprocess",
    "effect",
    "lower",
    "dxc",
    "cross",
    "dialect",
    "wgsl",
    "layout",
    // What strings the stages together, and what uses a compiled effect.
    "pipeline",
    "codegen",
    "include_effect",
    "watch",
];

/// A module of the crate: its path below the crate root (`["lower", "emit"]`) and its file.
struct Module {
    path: Vec<String>,
    file: String,
    syntax: syn::File,
}

/// One finding: an import up the order, or a circle of files.
fn check(files: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut modules = Vec::new();
    for (file, text) in files {
        match syn::parse_file(text) {
            Ok(syntax) => modules.push(Module {
                path: module_path(file),
                file: file.clone(),
                syntax,
            }),
            Err(e) => problems.push(format!("{file}: does not parse: {e}")),
        }
    }
    let test_only = test_only_children(&modules);
    modules.retain(|m| !test_only.contains(&m.path));
    let known: BTreeSet<Vec<String>> = modules.iter().map(|m| m.path.clone()).collect();
    let reexports = root_reexports(&modules);

    let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for m in &modules {
        for path in referenced_paths(m, &known) {
            let Some(target) = resolve(&path, &known, &reexports) else {
                continue;
            };
            if target.is_empty() || m.path.starts_with(&target) {
                // The root's own items and a module's ancestors: where a stage's shared
                // types live, so a child reaching them is no circle.
                continue;
            }
            if let Some(problem) = upward(m, &target) {
                problems.push(problem);
            }
            graph.entry(m.path.clone()).or_default().insert(target);
        }
    }
    problems.extend(cycles(&graph));
    problems.sort();
    problems.dedup();
    problems
}

/// `lower/emit.rs` → `["lower", "emit"]`; `lower/mod.rs` → `["lower"]`; `lib.rs` → `[]`.
fn module_path(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

fn is_test_cfg(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta
                .to_token_stream()
                .into_iter()
                .any(|t| mentions_test(&t))
    })
}

fn mentions_test(tree: &TokenTree) -> bool {
    match tree {
        TokenTree::Ident(i) => i == "test",
        TokenTree::Group(g) => g.stream().into_iter().any(|t| mentions_test(&t)),
        _ => false,
    }
}

/// Files that are modules declared under `#[cfg(test)]` (`#[cfg(test)] mod tests;`).
fn test_only_children(modules: &[Module]) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    for m in modules {
        for item in &m.syntax.items {
            if let syn::Item::Mod(module) = item {
                if module.content.is_none() && is_test_cfg(&module.attrs) {
                    let mut path = m.path.clone();
                    path.push(module.ident.to_string());
                    out.insert(path);
                }
            }
        }
    }
    // A test module's own children are test code too.
    let all: Vec<Vec<String>> = modules.iter().map(|m| m.path.clone()).collect();
    for path in all {
        if out.iter().any(|t| path.starts_with(t)) {
            out.insert(path);
        }
    }
    out
}

/// What the crate root re-exports by name (`pub use pipeline::Compiled;`), so that
/// `crate::Compiled` counts as an import of `pipeline`.
fn root_reexports(modules: &[Module]) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let Some(root) = modules.iter().find(|m| m.path.is_empty()) else {
        return out;
    };
    for item in &root.syntax.items {
        if let syn::Item::Use(u) = item {
            for path in use_paths(&u.tree, Vec::new()) {
                if let Some(name) = path.last() {
                    out.insert(name.clone(), path[..path.len() - 1].to_vec());
                }
            }
        }
    }
    out
}

/// Every path a module names: its `use` trees, and paths in code that start at `crate`,
/// `super`, `self` or a child module. Absolute, from the crate root.
fn referenced_paths(m: &Module, known: &BTreeSet<Vec<String>>) -> Vec<Vec<String>> {
    let mut raw = Vec::new();
    collect_items(&m.syntax.items, &mut raw);
    raw.into_iter()
        .filter_map(|path| absolute(&m.path, path, known))
        .collect()
}

fn collect_items(items: &[syn::Item], out: &mut Vec<Vec<String>>) {
    for item in items {
        match item {
            _ if is_test_cfg(item_attrs(item)) => {}
            syn::Item::Use(u) => out.extend(use_paths(&u.tree, Vec::new())),
            syn::Item::Mod(module) => {
                if let Some((_, inner)) = &module.content {
                    collect_items(inner, out);
                }
            }
            other => scan(other.to_token_stream(), out),
        }
    }
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// A `use` tree flattened into its paths; a glob names its module.
fn use_paths(tree: &syn::UseTree, prefix: Vec<String>) -> Vec<Vec<String>> {
    let with = |name: String| {
        let mut p = prefix.clone();
        p.push(name);
        p
    };
    match tree {
        syn::UseTree::Path(p) => use_paths(&p.tree, with(p.ident.to_string())),
        syn::UseTree::Name(n) => vec![with(n.ident.to_string())],
        syn::UseTree::Rename(r) => vec![with(r.ident.to_string())],
        syn::UseTree::Glob(_) => vec![prefix],
        syn::UseTree::Group(g) => g
            .items
            .iter()
            .flat_map(|t| use_paths(t, prefix.clone()))
            .collect(),
    }
}

/// Paths in code: an identifier followed by `::`-separated identifiers. Doc comments arrive
/// as string literals and are skipped with every other literal.
fn scan(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Group(g) => {
                scan(g.stream(), out);
                i += 1;
            }
            TokenTree::Ident(first) if !follows_colons(&trees, i) => {
                let mut path = vec![first.to_string()];
                let mut j = i + 1;
                while is_colons(&trees, j) {
                    match trees.get(j + 2) {
                        Some(TokenTree::Ident(next)) => {
                            path.push(next.to_string());
                            j += 3;
                        }
                        _ => break,
                    }
                }
                if path.len() > 1 {
                    out.push(path);
                }
                i = j.max(i + 1);
            }
            _ => i += 1,
        }
    }
}

fn is_colons(trees: &[TokenTree], at: usize) -> bool {
    matches!(
        (trees.get(at), trees.get(at + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && b.as_char() == ':'
    )
}

/// Whether the identifier at `at` continues a path (`a::b`), so it is not a path's start.
fn follows_colons(trees: &[TokenTree], at: usize) -> bool {
    at >= 2 && is_colons(trees, at - 2)
}

/// `path` as seen from `from`, made absolute; `None` for paths into other crates.
fn absolute(
    from: &[String],
    path: Vec<String>,
    known: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let (head, rest) = path.split_first()?;
    let mut base: Vec<String> = match head.as_str() {
        "crate" => Vec::new(),
        "self" => from.to_vec(),
        "super" => from[..from.len().checked_sub(1)?].to_vec(),
        child => {
            let mut p = from.to_vec();
            p.push(child.to_string());
            if !known.contains(&p) {
                return None;
            }
            p.pop();
            return Some([p, path].concat());
        }
    };
    let mut rest = rest.to_vec();
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest.remove(0);
    }
    Some([base, rest].concat())
}

/// The module an absolute path lands in: its longest prefix that is a module, or for a name
/// the root re-exports, the module it comes from.
fn resolve(
    path: &[String],
    known: &BTreeSet<Vec<String>>,
    reexports: &BTreeMap<String, Vec<String>>,
) -> Option<Vec<String>> {
    if path.len() == 1 {
        if let Some(from) = reexports.get(&path[0]) {
            return resolve(from, known, reexports).or(Some(Vec::new()));
        }
    }
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| known.contains(p))
}

/// An import of a later top-level module, or of one [`ORDER`] does not place.
fn upward(m: &Module, target: &[String]) -> Option<String> {
    let (Some(from), Some(to)) = (m.path.first(), target.first()) else {
        return None;
    };
    if from == to {
        return None;
    }
    let rank = |name: &str| ORDER.iter().position(|o| *o == name);
    match (rank(from), rank(to)) {
        (Some(a), Some(b)) if b < a => None,
        (Some(_), Some(_)) => Some(format!(
            "{}: imports `{}`, which comes after `{from}` in the stage order; move what both \
             need into a module before `{from}`",
            m.file,
            target.join("::")
        )),
        (None, _) => Some(format!("{}: `{from}` is not in ORDER: place it", m.file)),
        (_, None) => Some(format!("{}: `{to}` is not in ORDER: place it", m.file)),
    }
}

/// Every circle of files importing one another, each named once by its smallest member.
fn cycles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    let mut found = BTreeSet::new();
    for start in graph.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, trail)) = stack.pop() {
            for next in graph.get(&at).into_iter().flatten() {
                if next == start {
                    if trail.iter().min() == Some(start) {
                        let names: Vec<String> =
                            trail.iter().chain([start]).map(|p| p.join("::")).collect();
                        found.insert(format!(
                            "files import one another in a circle: {}",
                            names.join(" → ")
                        ));
                    }
                } else if seen.insert(next.clone()) {
                    let mut t = trail.clone();
                    t.push(next.clone());
                    stack.push((next.clone(), t));
                }
            }
        }
    }
    found.into_iter().collect()
}

/// The crate's source files, as paths below `src/` and their text.
fn sources(src: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![PathBuf::from(src)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(src)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_compiler_imports_only_down_the_pipeline() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = sources(&src);
    assert!(files.len() > 100, "read {} files", files.len());
    let problems = check(&files);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every top-level module of the crate is placed, and nothing placed is gone.
#[test]
fn the_order_names_every_top_level_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tops: BTreeSet<String> = sources(&src)
        .iter()
        .filter_map(|(f, _)| module_path(f).first().cloned())
        .collect();
    let placed: BTreeSet<String> = ORDER.iter().map(|s| s.to_string()).collect();
    assert_eq!(tops, placed);
}

fn fixture(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect()
}

/// The preprocessor reaching up into the effect parser is refused, naming the file and the
/// module; the same import the other way round is fine, and a doc link or a test is no import.
#[test]
fn an_upward_import_fails() {
    let upward = fixture(&[
        ("lib.rs", "mod preprocess; mod effect;"),
        ("preprocess/mod.rs", "mod lexer; pub struct Expanded;"),
        (
            "preprocess/lexer.rs",
            "use crate::effect::ast::Declaration; pub fn lex() {}",
        ),
        ("effect/mod.rs", "pub mod ast;"),
        ("effect/ast.rs", "pub struct Declaration;"),
    ]);
    assert_eq!(
        check(&upward),
        [
            "preprocess/lexer.rs: imports `effect::ast`, which comes after `preprocess` in the \
          stage order; move what both need into a module before `preprocess`"
        ]
    );

    let downward = fixture(&[
        ("lib.rs", "mod preprocess; mod effect;"),
        (
            "preprocess/mod.rs",
            "/// Read by [`crate::effect::parse`].\npub struct Expanded;\n\
             #[cfg(test)] mod tests { use crate::effect::parse; }",
        ),
        (
            "effect/mod.rs",
            "pub fn parse(e: crate::preprocess::Expanded) { let _ = \"crate::pipeline::x\"; }",
        ),
    ]);
    assert_eq!(check(&downward), Vec::<String>::new());
}

/// Two files of one stage that need each other are a circle, however they name each other;
/// a child using its parent's items is not.
#[test]
fn a_circle_fails() {
    let files = fixture(&[
        ("lib.rs", "mod lower;"),
        (
            "lower/mod.rs",
            "mod emit; mod samplers; pub enum Stage { Vertex }",
        ),
        (
            "lower/emit.rs",
            "use super::samplers::Plan; use super::Stage; pub fn emit(_: Plan) {}",
        ),
        (
            "lower/samplers.rs",
            "pub struct Plan; fn f() { crate::lower::emit::emit(Plan); }",
        ),
    ]);
    assert_eq!(
        check(&files),
        ["files import one another in a circle: lower::emit → lower::samplers → lower::emit"]
    );
}

/// An import that names a module no order places is refused too, so a new module is placed.
#[test]
fn an_unplaced_module_fails() {
    let files = fixture(&[
        ("lib.rs", "mod lower; mod helpers;"),
        ("lower/mod.rs", "use crate::helpers::x;"),
        ("helpers.rs", "pub fn x() {}"),
    ]);
    assert_eq!(
        check(&files),
        ["lower/mod.rs: `helpers` is not in ORDER: place it"]
    );
}
