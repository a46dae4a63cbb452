//! Compile-fail tests (trybuild): an `EffectMaterial<tint::Effect>` takes only `tint`'s
//! `Params`, passes and texture slots; `grayscale`'s are type errors naming both effects
//! (`ui/wrong_effect.rs`, expected output beside it; regenerate with `TRYBUILD=overwrite` and
//! review the diff).
//!
//! trybuild compiles the case as a crate of its own in `<target>/tests/trybuild/shadowdusk-bevy/`
//! (its `CARGO_MANIFEST_DIR`); the example's shaders are copied to `shaders/` there, so the case
//! names them as a user's crate would.

use std::path::Path;

#[test]
fn another_effects_items_do_not_compile() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_testkit::skip(
            "another_effects_items_do_not_compile",
            "DXC unavailable (run `cargo xtask setup`)",
        );
        return;
    }
    // CARGO_TARGET_TMPDIR is `<target>/tmp`; trybuild uses `<target>/tests/trybuild/<package>`.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR has a parent");
    let shaders = target.join("tests/trybuild/shadowdusk-bevy/shaders");
    let _ = std::fs::remove_dir_all(&shaders);
    std::fs::create_dir_all(&shaders).unwrap_or_else(|e| panic!("{}: {e}", shaders.display()));
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/shaders");
    for name in ["sprite.fxh", "tint.fx", "grayscale.fx"] {
        std::fs::copy(from.join(name), shaders.join(name))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
