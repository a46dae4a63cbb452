//! Compiles every effect under `shaders/` with the Builder, then writes `OUT_DIR/effects.rs`:
//! one `include_effect!` per effect (the macro uses the artifacts just written) and a
//! `describe()` that prints what the binary knows about each, so a test can see an edit arrive.

use std::fmt::Write as _;

fn main() {
    // The rebuild test turns warnings into errors through this variable.
    println!("cargo:rerun-if-env-changed=CONSUMER_WARNINGS_AS_ERRORS");
    let strict = std::env::var_os("CONSUMER_WARNINGS_AS_ERRORS").is_some();
    let artifacts = shadowdusk_build::Builder::new()
        .dir("shaders")
        .warnings_as_errors(strict)
        .compile();
    let mut items = String::new();
    let mut lines = String::new();
    for e in &artifacts.effects {
        let rel = e.relative.to_str().expect("UTF-8 path").replace('\\', "/");
        let stem = e.relative.file_stem().expect("file name").to_string_lossy();
        let name: String = stem
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        writeln!(
            items,
            "shadowdusk::include_effect!({rel:?}, name = fx_{name});"
        )
        .unwrap();
        writeln!(
            lines,
            "        format!(\"{rel}: {{}} bytes, defaults {{:?}}\", fx_{name}::MGFX.len(), fx_{name}::Params::DEFAULT),"
        )
        .unwrap();
    }
    let code = format!(
        "{items}\n/// One line per effect.\npub fn describe() -> Vec<String> {{\n    vec![\n{lines}    ]\n}}\n"
    );
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let path = out.join("effects.rs");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&path, code).expect("write effects.rs");
    }
}
