//! The Builder's part of the cache key ([`cache::BUILDER_ID`]) is the hash of this crate's files
//! as they are now: recomputed here with the build script's own code, so a source edit that did
//! not re-run `build.rs` would leave a stale id and fail; and any change to a source moves the
//! key.

use std::path::Path;

use super::*;

#[path = "../../build/source_id.rs"]
mod recipe;

fn part<'a>(id: &'a str, name: &str) -> &'a str {
    id.split(';')
        .find_map(|p| p.strip_prefix(name)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no part {name} in {id}"))
}

#[test]
fn the_builder_id_is_the_hash_of_the_current_sources() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(part(cache::BUILDER_ID, "sources"), recipe::source_id(root));
    assert_eq!(
        part(cache::BUILDER_ID, "version"),
        env!("CARGO_PKG_VERSION")
    );
}

/// The three crates that hash themselves share one recipe, file for file.
#[test]
fn the_recipe_is_the_compilers_and_the_mgfx_crates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ours = std::fs::read_to_string(root.join("build/source_id.rs")).expect("ours");
    for other in ["shadowdusk-compiler", "shadowdusk-mgfx"] {
        let path = root.join("..").join(other).join("build/source_id.rs");
        let theirs = std::fs::read_to_string(&path).expect("the workspace's copy");
        assert!(ours == theirs, "{} differs", path.display());
    }
}

/// A copy of this crate with one source changed (the code that writes the manifest and the
/// generated module's options) has another id, and so builds under another key.
#[test]
fn changing_the_builders_source_changes_the_key() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let copy = tmp.path().join("shadowdusk-build");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for entry in recipe::ENTRIES {
        copy_tree(&root.join(entry), &copy.join(entry));
    }
    let id = |dir: &Path| format!("version=0.1.0;sources={}", recipe::source_id(dir));
    let before = id(&copy);
    assert_eq!(
        part(&before, "sources"),
        part(cache::BUILDER_ID, "sources"),
        "the copy hashes as the crate"
    );
    let file = copy.join("src/options.rs");
    let text = std::fs::read_to_string(&file).expect("options.rs");
    std::fs::write(&file, text.replace("'\\\\', \"/\"", "'\\\\', \"|\"")).expect("edit");
    assert_ne!(std::fs::read_to_string(&file).expect("edited"), text);
    let after = id(&copy);
    assert_ne!(after, before);

    let key = |builder: &str| {
        let toolchain = cache::Toolchain {
            builder: builder.to_string(),
            ..cache::Toolchain::with_dxc("dxc")
        };
        let options = options::for_build(Target::OpenGL, &[], &[], false, MgfxVersion::V10, false);
        cache::key_base(&toolchain, Target::OpenGL, &options, Path::new("/crate"))
            .finalize()
            .to_hex()
            .to_string()
    };
    assert_ne!(key(&before), key(&after));
}

fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).expect("mkdir");
        for e in std::fs::read_dir(from).expect("read dir") {
            let e = e.expect("entry");
            copy_tree(&e.path(), &to.join(e.file_name()));
        }
    } else {
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(from, to).expect("copy");
    }
}
