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

/// Where an input that crashed DXC in its worker process is kept (`fuzz/artifacts/pipeline/`,
/// named `dxc-crash-<hash>`): not a failure of ShadowDusk (the compile ended in SD0104), but an
/// input its guard before DXC does not know yet. The line printed is what `cargo xtask fuzz`
/// reports.
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
    let mut h = std::hash::DefaultHasher::new();
    data.hash(&mut h);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("artifacts/pipeline");
    let path = dir.join(format!("dxc-crash-{:016x}", h.finish()));
    if !path.exists() && std::fs::create_dir_all(&dir).is_ok() && std::fs::write(&path, data).is_ok() {
        eprintln!("DXC crash caught (SD0104), input written to {}", path.display());
    }
}
