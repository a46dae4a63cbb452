//! Writing the artifacts of one effect into `OUT_DIR`.
//!
//! A file is rewritten only when its bytes change, so an effect recompiled to the same output
//! (an edited comment, a cache hit from another crate) leaves its files' times alone and cargo
//! and rustc see nothing new. The one exception is deliberate: the `.mgfx` must not be older
//! than any file the effect was compiled from, because that is how `include_effect!` decides
//! the build script's artifact is current ([`keep_current`]).
//!
//! The manifest is written last and says the set is complete, so before the `.mgfx` or the
//! module changes, the manifest goes: a build killed between two writes leaves an effect with no
//! manifest (a miss), never a manifest beside another build's `.mgfx` or module. Another text
//! of the effect, another checkout sharing `OUT_DIR`: either could be killed half-way.

use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use shadowdusk_compiler::artifact::{ArtifactPaths, Manifest};
use shadowdusk_compiler::codegen::{self, CodegenOptions, MgfxSource};
use shadowdusk_compiler::pipeline;
use shadowdusk_compiler::plumbing::write_atomic;

use crate::EffectTimings;

/// Removes the temporary files a killed build left in `dir` (its own `OUT_DIR`: cargo runs one
/// build script of a crate at a time, so nothing else is writing there). They are never read,
/// only clutter.
pub(crate) fn remove_stale_temporaries(dir: &Path) {
    for entry in walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
    {
        let name = entry.file_name().to_string_lossy();
        if entry.file_type().is_file() && name.starts_with('.') && name.ends_with(".tmp") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes `bytes` unless the file already holds exactly them; `true` when it wrote.
pub(crate) fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_atomic(path, bytes)?;
    Ok(true)
}

/// An I/O failure, with the file it was about.
#[derive(Debug)]
pub(crate) struct WriteError {
    pub path: PathBuf,
    pub error: std::io::Error,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> WriteError + '_ {
    move |error| WriteError {
        path: path.to_path_buf(),
        error,
    }
}

/// The typed module of the effect, or when code generation refuses it, a `compile_error!` in
/// its place and a warning for cargo: the `.mgfx` is still usable at run time, and the crate
/// fails only if it includes that module.
pub(crate) fn module_code(
    paths: &ArtifactPaths,
    module_name: &str,
    effect: &shadowdusk_mgfx::Effect,
    manifest: &Manifest,
    build: &pipeline::Options,
    timings: &mut EffectTimings,
) -> (String, Option<String>) {
    let mut options =
        CodegenOptions::new(module_name, MgfxSource::IncludeBytes(paths.mgfx.clone()));
    // What shader hot reload needs to recompile the effect as this build did: the effect's
    // options (a shared-cache hit was compiled with the same ones, they are in its key).
    options.source = Some(manifest.source.clone());
    options.files_read = manifest.reflection.files_read.clone();
    options.build = build.clone();
    options.wgpu = manifest.wgpu.clone();
    let generated = {
        let t = Instant::now();
        let tokens = codegen::generate(effect, &manifest.reflection, &options);
        timings.codegen = t.elapsed();
        let t = Instant::now();
        let code = tokens.and_then(|t| codegen::format_module(t, &manifest.reflection, &options));
        timings.format = t.elapsed();
        code
    };
    match generated {
        Ok(code) => (code, None),
        Err(e) => {
            let msg = format!(
                "{}: no Rust module generated: {e}",
                manifest.relative.display()
            );
            (format!("::core::compile_error!({msg:?});\n"), Some(msg))
        }
    }
}

/// Writes the `.mgfx` (first: the generated module's header names its hash).
pub(crate) fn write_mgfx(paths: &ArtifactPaths, bytes: &[u8]) -> Result<(), WriteError> {
    replace(paths, &paths.mgfx, bytes)
}

/// Writes `bytes` to `path`, one of the effect's files before its manifest, unless the file
/// already holds them; the manifest is removed first.
fn replace(paths: &ArtifactPaths, path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    match std::fs::remove_file(&paths.manifest) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&paths.manifest)(e)),
        _ => {}
    }
    write_atomic(path, bytes).map_err(io(path))
}

/// Writes the generated module and the manifest (last: it is what says the set is complete).
pub(crate) fn write_module_and_manifest(
    paths: &ArtifactPaths,
    code: &str,
    manifest: &Manifest,
    timings: &mut EffectTimings,
) -> Result<(), WriteError> {
    let t = Instant::now();
    replace(paths, &paths.code, code.as_bytes())?;
    timings.write += t.elapsed();
    let t = Instant::now();
    let json = serde_json::to_string_pretty(manifest).map_err(|e| WriteError {
        path: paths.manifest.clone(),
        error: std::io::Error::other(e),
    })?;
    timings.manifest = t.elapsed();
    let t = Instant::now();
    write_if_changed(&paths.manifest, json.as_bytes()).map_err(io(&paths.manifest))?;
    timings.write += t.elapsed();
    Ok(())
}

/// Moves the `.mgfx`'s modification time up to the newest file the effect was compiled from,
/// when it is older (unchanged output, or a source touched without a change).
pub(crate) fn keep_current(mgfx: &Path, deps: &[PathBuf]) -> std::io::Result<()> {
    let mtime = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified());
    let newest: Option<SystemTime> = deps.iter().filter_map(|d| mtime(d).ok()).max();
    let Some(newest) = newest else {
        return Ok(());
    };
    if mtime(mgfx)? < newest {
        std::fs::File::options()
            .write(true)
            .open(mgfx)?
            .set_modified(newest)?;
    }
    Ok(())
}
