//! No function of the published crates is longer than a reader can hold: [`LIMIT`] lines from
//! `fn` to its closing brace. A longer one becomes a short driver over named passes. Test code (`#[cfg(test)]` items, `tests.rs` and `tests/` files) is exempt.

use std::path::{Path, PathBuf};

const LIMIT: usize = 150;

/// The crates held to it, from the workspace root.
const CRATES: &[&str] = &[
    "shadowdusk-compiler/src",
    "shadowdusk-build/src",
    "shadowdusk/src",
];

/// Each function's place and length in lines.
fn lengths(file: &str, text: &str) -> Vec<(String, usize)> {
    let syntax = syn::parse_file(text).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut out = Vec::new();
    items(file, &syntax.items, &mut out);
    out
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || (a.path().is_ident("cfg")
                && quote::quote!(#a).to_string().contains("test")
                && !quote::quote!(#a).to_string().contains("not"))
    })
}

fn measure(file: &str, name: &syn::Ident, block: &syn::Block, out: &mut Vec<(String, usize)>) {
    let start = name.span().start().line;
    let end = block.brace_token.span.close().end().line;
    out.push((format!("{file}:{start} {name}"), end + 1 - start));
}

fn items(file: &str, list: &[syn::Item], out: &mut Vec<(String, usize)>) {
    for item in list {
        match item {
            syn::Item::Fn(f) if !is_test(&f.attrs) => measure(file, &f.sig.ident, &f.block, out),
            syn::Item::Impl(i) if !is_test(&i.attrs) => {
                for member in &i.items {
                    if let syn::ImplItem::Fn(f) = member {
                        if !is_test(&f.attrs) {
                            measure(file, &f.sig.ident, &f.block, out);
                        }
                    }
                }
            }
            syn::Item::Trait(t) if !is_test(&t.attrs) => {
                for member in &t.items {
                    if let syn::TraitItem::Fn(f) = member {
                        if let Some(block) = &f.default {
                            measure(file, &f.sig.ident, block, out);
                        }
                    }
                }
            }
            syn::Item::Mod(m) if !is_test(&m.attrs) => {
                if let Some((_, inner)) = &m.content {
                    items(file, inner, out);
                }
            }
            _ => {}
        }
    }
}

/// The non-test `.rs` files under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir) {
        let path = entry.unwrap().into_path();
        let test_file = path.file_name().is_some_and(|n| n == "tests.rs")
            || path
                .strip_prefix(dir)
                .is_ok_and(|p| p.components().any(|c| c.as_os_str() == "tests"));
        if path.extension().is_some_and(|e| e == "rs") && !test_file {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut long = Vec::new();
    let mut count = 0;
    for krate in CRATES {
        for path in sources(&root.join(krate)) {
            let file = path.strip_prefix(&root).unwrap().display().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            for (at, lines) in lengths(&file, &text) {
                count += 1;
                if lines > LIMIT {
                    long.push(format!("{at}: {lines} lines"));
                }
            }
        }
    }
    assert!(count > 1000, "measured only {count} functions");
    assert!(
        long.is_empty(),
        "functions over {LIMIT} lines (make each a driver over named passes):\n{}",
        long.join("\n")
    );
}

/// The measure itself: from the `fn` line to the closing brace, test functions left out.
#[test]
fn lengths_are_counted_from_fn_to_the_closing_brace() {
    let text = "fn short() {\n    let x = 1;\n}\n\n\
                impl S {\n    fn method(&self) {}\n}\n\n\
                #[cfg(test)]\nmod tests {\n    fn helper() {\n\n\n    }\n}\n";
    assert_eq!(
        lengths("f.rs", text),
        [
            ("f.rs:1 short".to_string(), 3),
            ("f.rs:6 method".to_string(), 1)
        ]
    );
}
