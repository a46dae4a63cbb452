//! Helpers shared by the fuzz targets in `fuzz_targets/`.
//!
//! Every target checks one thing only: the input is handled without a panic, an abort or a
//! sanitizer report. Errors (diagnostics, `ReadError`s) are expected and fine; they are
//! rendered too, since rendering a diagnostic is part of handling bad input.

use std::path::{Path, PathBuf};

use shadowdusk_compiler::diag::Diagnostics;
use shadowdusk_compiler::source::SourceFiles;

/// The name the fuzz input is compiled under. It does not exist: the text is passed in memory.
/// It sits in `tests/corpus/`, so the `#include "include/..."` lines of the seeds (copied from
/// there) resolve to the real headers and the fuzzer can reach code behind them.
pub fn fx_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/fuzz_input.fx")
}

/// The input as an `.fx` file's text, decoded the way the preprocessor decodes a file it reads.
pub fn fx_text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Renders diagnostics both ways the CLI can (rustc style and mgfxc's), as a user would see them.
pub fn render(files: &SourceFiles, diags: &Diagnostics) {
    let plain = shadowdusk_compiler::diag::render_plain(files, &diags.0, false);
    let mgfxc = shadowdusk_compiler::diag::render_mgfxc(files, &diags.0);
    std::hint::black_box((plain, mgfxc));
}

/// The line `cargo xtask fuzz` reads (followed by the saved file's path): DXC crashed on an
/// input, which therefore fails the fuzz run.
pub const DXC_CRASH_LINE: &str =
    "DXC crashed (SD0104) past pipeline::dxc_guard; saved as a regression case: ";

/// When the compile ended in SD0104 (DXC crashed in its worker process): the guard before DXC
/// (`pipeline::dxc_guard`) let through a text DXC cannot take, which ARCHITECTURE.md's
/// invariant forbids. The text, as the compiler saw it, is saved into the guard's regression
/// set, `tests/dxc_crashes/fuzz-<hash>.fx`, where `tests/tests/dxc_guard_regressions.rs` fails
/// on it until the guard refuses it; the line printed makes `cargo xtask fuzz` fail.
pub fn keep_dxc_crash(data: &[u8], e: &shadowdusk_compiler::pipeline::CompileError) {
    use std::hash::{Hash, Hasher};
    if !e
        .diagnostics
        .0
        .iter()
        .any(|d| d.code == shadowdusk_compiler::diag::Code::SD0104)
    {
        return;
    }
    static SEEN: std::sync::Mutex<Vec<u64>> = std::sync::Mutex::new(Vec::new());
    let mut h = std::hash::DefaultHasher::new();
    data.hash(&mut h);
    let hash = h.finish();
    // Once per input and run, however often the fuzzer repeats it; a file left by an earlier
    // run is written and reported again (the crash is still there).
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if seen.contains(&hash) {
        return;
    }
    seen.push(hash);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/dxc_crashes");
    let _ = std::fs::create_dir_all(&dir);
    let dir = dir.canonicalize().unwrap_or(dir);
    let path = dir.join(format!("fuzz-{hash:016x}.fx"));
    match std::fs::write(&path, fx_text(data)) {
        Ok(()) => eprintln!("{DXC_CRASH_LINE}{}", path.display()),
        // Still a failure of the run: the line names where it should have gone.
        Err(e) => eprintln!("{DXC_CRASH_LINE}{} (not written: {e})", path.display()),
    }
}
