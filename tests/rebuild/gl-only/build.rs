//! Two Builders into one `OUT_DIR`, as a game with a wgpu renderer and some OpenGL-only effects
//! writes them: `shaders/` for both targets (less what `CONSUMER_OPENGL_ONLY` names), `gl/` for
//! OpenGL alone. Prints how each effect was served, then writes `OUT_DIR/effects.rs`: one
//! `include_effect!` per effect and a `describe()` of each.

use std::fmt::Write as _;

fn main() {
    // The test names the OpenGL-only effects, and re-runs this script without an edit, through
    // these variables.
    println!("cargo:rerun-if-env-changed=CONSUMER_OPENGL_ONLY");
    println!("cargo:rerun-if-env-changed=CONSUMER_RUN");
    let mut both = shadowdusk_build::Builder::new();
    both.dir("shaders").wgpu(true);
    if let Ok(pattern) = std::env::var("CONSUMER_OPENGL_ONLY") {
        both.opengl_only(pattern);
    }
    let both = both.compile();
    let gl = shadowdusk_build::Builder::new().dir("gl").compile();

    let mut items = String::new();
    let mut lines = String::new();
    for e in both.effects.iter().chain(&gl.effects) {
        let rel = e.relative.to_str().expect("UTF-8 path").replace('\\', "/");
        // Whether the key came from the stamps memo (no preprocessing) or from contents.
        let keyed = !e.timings.key.is_zero();
        println!("consumer: {rel} {:?} keyed={keyed}", e.origin);
        let stem = e.relative.file_stem().expect("file name").to_string_lossy();
        writeln!(items, "shadowdusk::include_effect!({rel:?}, name = fx_{stem});").unwrap();
        writeln!(
            lines,
            "        describe::<fx_{stem}::Effect>({rel:?}),"
        )
        .unwrap();
    }
    let code = format!(
        "{items}\n/// One line per effect.\npub fn all() -> Vec<String> {{\n    vec![\n{lines}    ]\n}}\n"
    );
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let path = out.join("effects.rs");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&path, code).expect("write effects.rs");
    }
}
