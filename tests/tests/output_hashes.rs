//! Every effect the workspace ships compiles to the same bytes as when `tests/output_hashes.txt`
//! was recorded: the MGFX container, the wgpu target's output (WGSL, bindings, vertex inputs and
//! varyings, as the `/Profile:Wgpu` JSON holds them) and the text of any diagnostic.
//!
//! It guards refactors of the compiler: a change meant to move code, not behaviour, must leave
//! every line of the list as it is. A change meant to alter output re-records the list
//! (`SHADOWDUSK_RECORD_HASHES=1 cargo test -p shadowdusk-tests --test output_hashes`), and the
//! diff of the list names every effect it touched.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use shadowdusk_compiler::diag::render_plain;
use shadowdusk_compiler::pipeline::{compile_file, Options};

const TEST: &str = "output_hashes";
const RECORD: &str = "SHADOWDUSK_RECORD_HASHES";

/// The folders whose `.fx` files are listed, from the workspace root: the corpus, the golden
/// parity effects, the consumer crate's, the examples' and the probes.
const DIRS: &[&str] = &[
    "tests/corpus",
    "tests/golden_parity",
    "tests/consumer/shaders",
    "tests/probes",
    "example-game/shaders",
    "shadowdusk-bevy/examples/shaders",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn list_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("output_hashes.txt")
}

fn effects() -> Vec<String> {
    let mut files = Vec::new();
    for dir in DIRS {
        let entries = std::fs::read_dir(root().join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}"));
        for entry in entries {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".fx") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    files
}

fn hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .take(12)
        .fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// One line: the file, then `mgfx=…  wgsl=…`, or `error=…` for a compile that fails. Paths
/// in diagnostics are made relative to the workspace, so the line is the same in every checkout.
fn line(file: &str) -> String {
    let path = root().join(file);
    let options = Options {
        wgpu: true,
        ..Options::default()
    };
    let relative = |text: String| text.replace(&format!("{}/", root().display()), "");
    match compile_file(&path, &options) {
        Ok(compiled) => {
            let wgsl = match &compiled.wgpu {
                Some(wgpu) => hash(&serde_json::to_vec(wgpu).unwrap()),
                None => format!(
                    "none:{}",
                    hash(
                        relative(render_plain(
                            &compiled.files,
                            &compiled.wgpu_errors.0,
                            false
                        ))
                        .as_bytes()
                    )
                ),
            };
            let warnings = relative(render_plain(&compiled.files, &compiled.warnings.0, false));
            format!(
                "{file} mgfx={} wgsl={wgsl} warnings={}",
                hash(&compiled.bytes),
                hash(warnings.as_bytes())
            )
        }
        Err(e) => format!(
            "{file} error={}",
            hash(relative(e.render(false)).as_bytes())
        ),
    }
}

#[test]
fn every_effect_compiles_to_the_recorded_bytes() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(TEST, "no DXC (cargo xtask setup)");
        return;
    }
    let lines: Vec<String> = effects().iter().map(|f| line(f)).collect();
    let now = lines.join("\n") + "\n";
    if std::env::var(RECORD).is_ok_and(|v| v == "1") {
        std::fs::write(list_file(), &now).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(list_file()).unwrap_or_default();
    let changed: Vec<String> = diff(&recorded, &now);
    assert!(
        changed.is_empty(),
        "{} effects' output differs from tests/output_hashes.txt (re-record with {RECORD}=1 \
         when the change is meant):\n{}",
        changed.len(),
        changed.join("\n")
    );
}

/// The lines of `now` not in `recorded`, and the files `recorded` lists that `now` does not.
fn diff(recorded: &str, now: &str) -> Vec<String> {
    let old: Vec<&str> = recorded.lines().collect();
    let file = |l: &str| l.split(' ').next().unwrap_or("").to_string();
    let mut out: Vec<String> = now
        .lines()
        .filter(|l| !old.contains(l))
        .map(|l| format!("  now {l}"))
        .collect();
    let files: Vec<String> = now.lines().map(file).collect();
    out.extend(
        old.iter()
            .filter(|l| !files.contains(&file(l)))
            .map(|l| format!("  gone {l}")),
    );
    out
}

/// The list is complete for the folders it names and has no duplicate.
#[test]
fn the_list_names_every_effect_once() {
    let recorded = std::fs::read_to_string(list_file()).expect("tests/output_hashes.txt");
    let listed: Vec<&str> = recorded
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(listed, effects(), "re-record with {RECORD}=1");
    assert!(Path::new(&root().join(DIRS[0])).is_dir());
}
