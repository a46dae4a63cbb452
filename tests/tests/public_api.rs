//! The public surface of the library crates, kept deliberate: each crate's items are listed
//! from its source and compared with the checked-in list in `tests/public-api/<crate>.snap`
//! (insta; `INSTA_UPDATE=always` accepts a change). A new `pub` item, a changed signature or a
//! module made public fails here until the list is updated in the same change, so a reviewer
//! sees every API change as a diff of one file.
//!
//! The listing reads the source with `syn`: it follows public modules from `lib.rs`, and in a
//! private module lists only what the parent re-exports with `pub use`. Skipped: `#[cfg(test)]`,
//! `#[doc(hidden)]` and `#[cfg(feature = "internals")]` items (the compiler's stage modules,
//! published for ShadowDusk's own tests only). Each line is `module::path: item`, with
//! signatures as tokens, sorted.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::{Attribute, Item, ItemMod, UseTree, Visibility};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

/// Whether an attribute list hides the item from the public surface.
fn hidden(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        let text = a.to_token_stream().to_string().replace(' ', "");
        text.starts_with("#[cfg(test")
            || text.contains("cfg(feature=\"internals\")")
            || text.starts_with("#[doc(hidden")
    })
}

fn is_pub(v: &Visibility) -> bool {
    matches!(v, Visibility::Public(_))
}

/// Tokens as one line with single spaces.
fn tokens(t: &impl ToTokens) -> String {
    t.to_token_stream()
        .to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A variant's fields without their attributes (doc comments are not API).
fn fields(f: &syn::Fields) -> String {
    let list = |named: bool| {
        f.iter()
            .map(|x| match (&x.ident, named) {
                (Some(n), true) => format!("{n}: {}", tokens(&x.ty)),
                _ => tokens(&x.ty),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match f {
        syn::Fields::Named(_) => format!(" {{ {} }}", list(true)),
        syn::Fields::Unnamed(_) => format!("({})", list(false)),
        syn::Fields::Unit => String::new(),
    }
}

/// The names a `use` tree brings in (for `pub use private_mod::{A, B}`), keyed by the first
/// path segment (the module they come from).
fn use_names(tree: &UseTree, first: Option<&str>, out: &mut Vec<(String, String)>) {
    match tree {
        UseTree::Path(p) => {
            let head = first.map_or_else(|| p.ident.to_string(), str::to_string);
            use_names(&p.tree, Some(&head), out);
        }
        UseTree::Name(n) => {
            if let Some(m) = first {
                out.push((m.to_string(), n.ident.to_string()));
            }
        }
        UseTree::Rename(r) => {
            if let Some(m) = first {
                out.push((m.to_string(), r.ident.to_string()));
            }
        }
        UseTree::Group(g) => {
            for t in &g.items {
                use_names(t, first, out);
            }
        }
        UseTree::Glob(_) => {
            if let Some(m) = first {
                out.push((m.to_string(), "*".into()));
            }
        }
    }
}

struct Walker {
    lines: BTreeSet<String>,
}

impl Walker {
    /// Lists module `path` from `items`; `only` restricts a private module to re-exported names.
    fn module(&mut self, path: &str, dir: &Path, items: &[Item], only: Option<&BTreeSet<String>>) {
        let wanted = |name: &str| only.is_none_or(|set| set.contains(name) || set.contains("*"));
        let mut reexports: Vec<(String, String)> = Vec::new();
        for item in items {
            if let Item::Use(u) = item {
                if is_pub(&u.vis) && !hidden(&u.attrs) && only.is_none() {
                    self.add(path, format!("pub use {}", tokens(&u.tree)));
                }
                if is_pub(&u.vis) && !hidden(&u.attrs) {
                    use_names(&u.tree, None, &mut reexports);
                }
            }
        }
        for item in items {
            match item {
                Item::Fn(f)
                    if is_pub(&f.vis) && !hidden(&f.attrs) && wanted(&f.sig.ident.to_string()) =>
                {
                    self.add(path, tokens(&f.sig));
                }
                Item::Struct(s)
                    if is_pub(&s.vis) && !hidden(&s.attrs) && wanted(&s.ident.to_string()) =>
                {
                    self.add(path, format!("struct {}{}", s.ident, tokens(&s.generics)));
                    for (i, f) in s.fields.iter().enumerate() {
                        if is_pub(&f.vis) && !hidden(&f.attrs) {
                            let name = f.ident.as_ref().map_or(i.to_string(), |n| n.to_string());
                            self.add(path, format!("{}.{name}: {}", s.ident, tokens(&f.ty)));
                        }
                    }
                }
                Item::Enum(e)
                    if is_pub(&e.vis) && !hidden(&e.attrs) && wanted(&e.ident.to_string()) =>
                {
                    self.add(path, format!("enum {}{}", e.ident, tokens(&e.generics)));
                    for v in &e.variants {
                        if !hidden(&v.attrs) {
                            self.add(
                                path,
                                format!("{}::{}{}", e.ident, v.ident, fields(&v.fields)),
                            );
                        }
                    }
                }
                Item::Const(c)
                    if is_pub(&c.vis) && !hidden(&c.attrs) && wanted(&c.ident.to_string()) =>
                {
                    self.add(path, format!("const {}: {}", c.ident, tokens(&c.ty)));
                }
                Item::Static(s)
                    if is_pub(&s.vis) && !hidden(&s.attrs) && wanted(&s.ident.to_string()) =>
                {
                    self.add(path, format!("static {}: {}", s.ident, tokens(&s.ty)));
                }
                Item::Type(t)
                    if is_pub(&t.vis) && !hidden(&t.attrs) && wanted(&t.ident.to_string()) =>
                {
                    self.add(
                        path,
                        format!(
                            "type {}{} = {}",
                            t.ident,
                            tokens(&t.generics),
                            tokens(&t.ty)
                        ),
                    );
                }
                Item::Trait(t)
                    if is_pub(&t.vis) && !hidden(&t.attrs) && wanted(&t.ident.to_string()) =>
                {
                    self.add(path, format!("trait {}{}", t.ident, tokens(&t.generics)));
                    for ti in &t.items {
                        match ti {
                            syn::TraitItem::Fn(f) if !hidden(&f.attrs) => {
                                self.add(path, format!("{}::{}", t.ident, tokens(&f.sig)));
                            }
                            syn::TraitItem::Type(ty) if !hidden(&ty.attrs) => {
                                self.add(path, format!("{}::type {}", t.ident, ty.ident));
                            }
                            syn::TraitItem::Const(c) if !hidden(&c.attrs) => {
                                self.add(
                                    path,
                                    format!("{}::const {}: {}", t.ident, c.ident, tokens(&c.ty)),
                                );
                            }
                            _ => {}
                        }
                    }
                }
                Item::Macro(m) if !hidden(&m.attrs) => {
                    let exported = m.attrs.iter().any(|a| a.path().is_ident("macro_export"));
                    if let (true, Some(name)) = (exported, &m.ident) {
                        self.add("crate", format!("macro {name}!"));
                    }
                }
                Item::Impl(i) if !hidden(&i.attrs) => self.implementation(path, i, &wanted),
                Item::Mod(m) if !hidden(&m.attrs) => self.submodule(path, dir, m, &reexports),
                _ => {}
            }
        }
    }

    fn implementation(&mut self, path: &str, i: &syn::ItemImpl, wanted: &dyn Fn(&str) -> bool) {
        let ty = tokens(&i.self_ty);
        let base = ty.split([' ', '<']).next().unwrap_or("").to_string();
        if !wanted(&base) {
            return;
        }
        match &i.trait_ {
            Some((t, _)) => self.add(
                path,
                format!("impl{} {} for {ty}", tokens(&i.generics), tokens(t)),
            ),
            None => {
                for item in &i.items {
                    match item {
                        syn::ImplItem::Fn(f) if is_pub(&f.vis) && !hidden(&f.attrs) => {
                            self.add(path, format!("{ty}::{}", tokens(&f.sig)));
                        }
                        syn::ImplItem::Const(c) if is_pub(&c.vis) && !hidden(&c.attrs) => {
                            self.add(path, format!("{ty}::const {}: {}", c.ident, tokens(&c.ty)));
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    fn submodule(&mut self, path: &str, dir: &Path, m: &ItemMod, reexports: &[(String, String)]) {
        let name = m.ident.to_string();
        let only: Option<BTreeSet<String>> = if is_pub(&m.vis) {
            None
        } else {
            let names: BTreeSet<String> = reexports
                .iter()
                .filter(|(module, _)| *module == name)
                .map(|(_, n)| n.clone())
                .collect();
            if names.is_empty() {
                return;
            }
            Some(names)
        };
        let child_path = match &only {
            None => format!("{path}::{name}"),
            // Re-exported items are listed where users name them: in the parent.
            Some(_) => path.to_string(),
        };
        let child_dir = dir.join(&name);
        if let Some((_, items)) = &m.content {
            self.module(&child_path, &child_dir, items, only.as_ref());
            return;
        }
        let file = [
            dir.join(format!("{name}.rs")),
            dir.join(&name).join("mod.rs"),
        ]
        .into_iter()
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("module {path}::{name}: no file in {}", dir.display()));
        let text = std::fs::read_to_string(&file).expect("read module");
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        self.module(&child_path, &child_dir, &parsed.items, only.as_ref());
    }

    fn add(&mut self, path: &str, item: String) {
        self.lines.insert(format!("{path}: {item}"));
    }
}

/// The public surface of the library crate in folder `name`, one item per line.
fn surface(name: &str) -> String {
    let src = workspace().join(name).join("src");
    let text = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let file = syn::parse_file(&text).expect("lib.rs parses");
    let mut w = Walker {
        lines: BTreeSet::new(),
    };
    w.module("crate", &src, &file.items, None);
    w.lines.into_iter().collect::<Vec<_>>().join("\n") + "\n"
}

fn check(name: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("public-api"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(format!(
        "the public API of {name}; a change here is an API change (INSTA_UPDATE=always accepts)"
    ));
    settings.bind(|| insta::assert_snapshot!(name, surface(name)));
}

#[test]
fn the_compiler_surface_is_the_checked_in_one() {
    check("shadowdusk-compiler");
}

#[test]
fn the_builder_surface_is_the_checked_in_one() {
    check("shadowdusk-build");
}

#[test]
fn the_runtime_surface_is_the_checked_in_one() {
    check("shadowdusk");
}

#[test]
fn the_mgfx_surface_is_the_checked_in_one() {
    check("shadowdusk-mgfx");
}

#[test]
fn the_bevy_surface_is_the_checked_in_one() {
    check("shadowdusk-bevy");
}

/// The walker itself: a public item in a private module counts only when re-exported, and
/// `internals` modules are not counted.
#[test]
fn private_modules_count_only_through_re_exports() {
    let src: syn::File = syn::parse_quote! {
        mod hidden_stage { pub fn not_listed() {} pub struct Shown; }
        pub use hidden_stage::Shown;
        #[cfg(feature = "internals")]
        pub mod stage { pub fn internal() {} }
        pub mod open { pub fn listed(x: u32) -> u32 { x } fn private() {} }
    };
    let mut w = Walker {
        lines: BTreeSet::new(),
    };
    w.module("crate", Path::new("/nonexistent"), &src.items, None);
    let lines: Vec<&str> = w.lines.iter().map(String::as_str).collect();
    assert_eq!(
        lines,
        [
            "crate: pub use hidden_stage :: Shown",
            "crate: struct Shown",
            "crate::open: fn listed (x : u32) -> u32",
        ]
    );
}
