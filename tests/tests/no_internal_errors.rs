//! No effect in the repository makes the compiler report a bug of its own: every `.fx` file of
//! the test corpora, the golden-parity set, the consumer, UI, probe and example-game shaders
//! compiles, or fails with a user-level diagnostic, never an internal one (`Code::is_internal`,
//! or the dialect stage's "internal:" messages about SPIRV-Cross output it did not expect).
//! Warnings count too.

use std::path::PathBuf;

use shadowdusk_compiler::diag::Diagnostic;
use shadowdusk_compiler::pipeline::{compile_file, Options};
use shadowdusk_tests::files::{fx_files, workspace_root};

/// Folders whose `.fx` files are checked (recursively), relative to the workspace root.
const FOLDERS: [&str; 8] = [
    "tests/corpus",
    "tests/golden_parity",
    "tests/consumer/shaders",
    "tests/rebuild/consumer/shaders",
    "tests/ui/shaders",
    "tests/probes",
    "tests/hot",
    "example-game/shaders",
];

fn internal(d: &Diagnostic) -> bool {
    d.code.is_internal() || d.message.starts_with("internal")
}

#[test]
fn no_effect_reaches_an_internal_diagnostic() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(
            "no_effect_reaches_an_internal_diagnostic",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return;
    }
    let files: Vec<PathBuf> = FOLDERS
        .iter()
        .flat_map(|f| fx_files(&workspace_root().join(f)))
        .collect();
    assert!(
        files.len() >= 100,
        "only {} effect files found",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let diagnostics = match compile_file(path, &Options::default()) {
            Ok(c) => c.warnings.0,
            Err(e) => e.diagnostics.0,
        };
        for d in diagnostics.iter().filter(|d| internal(d)) {
            failures.push(format!("{}: {} {}", path.display(), d.code, d.message));
        }
    }
    assert!(
        failures.is_empty(),
        "internal diagnostics:\n{}",
        failures.join("\n")
    );
}
