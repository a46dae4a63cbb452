//! `SOURCE_ID` is the hash of this crate's files as they are now: recomputed here with the
//! build script's own code, so a source edit that did not re-run `build.rs` (a missing
//! `rerun-if-changed`) would leave a stale id, and the compiler's cache key with it, and fail.

#[path = "../../build/source_id.rs"]
mod recipe;

#[test]
fn source_id_is_the_hash_of_the_current_sources() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(crate::SOURCE_ID, recipe::source_id(root));
}

/// Every file counts, under its path: a changed byte, a renamed file or a new one is a new id.
#[test]
fn any_change_to_a_file_moves_the_id() {
    let dir = tempfile_dir();
    let root = dir.as_path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), "pub fn a() {}").unwrap();
    std::fs::write(root.join("Cargo.toml"), "[package]").unwrap();
    let base = recipe::source_id(root);
    assert_eq!(base, recipe::source_id(root), "deterministic");
    std::fs::write(root.join("src/lib.rs"), "pub fn b() {}").unwrap();
    let edited = recipe::source_id(root);
    assert_ne!(edited, base);
    std::fs::rename(root.join("src/lib.rs"), root.join("src/write.rs")).unwrap();
    let renamed = recipe::source_id(root);
    assert_ne!(renamed, edited);
    std::fs::write(root.join("src/packing.rs"), "").unwrap();
    assert_ne!(recipe::source_id(root), renamed);
    let _ = std::fs::remove_dir_all(root);
}

/// A fresh folder under the system's temporary folder (this crate has no `tempfile`).
fn tempfile_dir() -> std::path::PathBuf {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!(
        "shadowdusk-mgfx-source-id-{}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}
