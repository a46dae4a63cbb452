//! Stage 4: DXC. Lowered HLSL → SPIR-V.
//!
//! Input: lowered HLSL text (modern syntax, see the `lower` stage), an entry point and a stage.
//! Output: [`Spirv`] words, or [`DxcError`] with DXC's messages parsed into positions in the
//! lowered text (the pipeline maps them back to the user's file), and the identity of the DXC
//! that compiled it. Arguments: [`args`] (fx-pipeline.md §7). Which library compiles is one
//! decision (`choice`, in `locate`'s order; the per-user cache a first use fills from the
//! pinned sources: [`provision`], [`pins`]) that the cache key ([`expected_version`]), the
//! workers and in-process compiles all take. On Unix the compiles run in worker processes
//! (`isolate`, `worker`, `worker.c`) that load the library file, so a DXC crash or hang fails
//! one shader, and this process need not load it at all ([`prepare`]). On Windows, and where no
//! worker can be started, they run in this process through hassle-rs, which loads it once
//! (`instance`), each compile leasing its own compiler instance.
//! Refused: nothing by this module itself. DXC warnings are not refusals: fxc only warned about
//! the same things (implicit truncation, shadowing, unused comparisons), and mgfxc compiles such
//! files, so they come back in [`Spirv::warnings`].
//!
//! DXC's warnings after a *successful* compile are the catch: hassle-rs 0.12 builds a slice
//! from the error blob's pointer, which is null when the blob is empty, so reading it is
//! undefined behaviour (every blob is checked with `blob::is_empty` before it is read). So every
//! shader is first compiled with `-WX`. No message → done, at no extra cost. A failure is then
//! retried without `-WX`: if that succeeds, every error of the first run was a promoted warning,
//! and its (non-empty) error buffer is the warning list. If it fails too, the second run's
//! buffer holds the real errors. Workers answer the same two calls.

pub mod args;
mod blob;
mod cache_dir;
mod choice;
mod chosen;
mod fetch;
mod identity;
mod instance;
#[cfg(unix)]
mod isolate;
mod locate;
mod messages;
pub mod pins;
pub mod provision;
#[cfg(unix)]
mod worker;

use hassle_rs::{DxcCompiler, DxcLibrary};

use crate::lower::Stage;

/// SPIR-V words of one compiled entry point.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Spirv {
    /// The module.
    pub words: Vec<u32>,
    /// DXC's warnings, positioned in the lowered text (`is_error` is always `false`).
    pub warnings: Vec<DxcMessage>,
    /// The DXC that compiled it, as [`expected_version`] names a DXC.
    pub dxc: String,
}

/// One message DXC printed, positioned in the lowered text.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DxcMessage {
    /// 1-based line in the lowered text (0 when DXC gave no position).
    pub line: u32,
    /// 1-based column in the lowered text (0 when DXC gave no position).
    pub column: u32,
    /// `true` for errors, `false` for warnings/notes.
    pub is_error: bool,
    /// `true` for notes (which only point at code related to the message before them).
    pub note: bool,
    /// DXC's wording.
    pub text: String,
}

/// Why a DXC compile failed.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum DxcError {
    /// The library could not be found or loaded; the message says where we looked and what to do.
    Unavailable(String),
    /// DXC rejected the source.
    Compile {
        /// Parsed messages.
        messages: Vec<DxcMessage>,
        /// DXC's full output, for a note.
        raw: String,
    },
    /// DXC crashed or hung on this source (what happened, e.g. "DXC crashed (signal 11,
    /// SIGSEGV)"); the compile ran in a worker process, so only this shader failed.
    Crashed(String),
}

impl std::fmt::Display for DxcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DxcError::Unavailable(m) => f.write_str(m),
            DxcError::Compile { raw, .. } => write!(f, "DXC failed:\n{raw}"),
            DxcError::Crashed(m) => f.write_str(m),
        }
    }
}

/// The source name DXC sees; messages start with it.
pub const SOURCE_NAME: &str = "shader.hlsl";

/// Environment variable naming the DXC library file to use (loaded as named).
pub const LIBRARY_VAR: &str = "SHADOWDUSK_DXC";

/// Compiles one entry point of lowered HLSL to SPIR-V; warnings come back with the module, with
/// the identity of the DXC that compiled it ([`Spirv::dxc`]).
///
/// On Unix the compile runs in a worker process (`isolate`): a DXC crash or hang is
/// [`DxcError::Crashed`] for this shader, never the end of the calling process. Where no worker
/// can be started, and on Windows, it runs in this process (and the first time, where workers
/// were meant to run, one line says so: a DXC crash then ends this process).
pub fn compile(hlsl: &str, entry: &str, stage: Stage) -> Result<Spirv, DxcError> {
    #[cfg(unix)]
    if !in_process_asked() {
        return match compile_isolated(&WORKERS, &isolate::Limits::standard(), hlsl, entry, stage) {
            // No worker to be had (an executable that cannot be written or run, a library the
            // worker cannot load, a process at its limit): compile here, as without isolation,
            // rather than fail a shader DXC can compile. Loading here also says exactly why
            // DXC is unavailable when it is.
            Err(isolate::Died::Spawn(why)) => {
                let result = in_process(hlsl, entry, stage);
                if !matches!(result, Err(DxcError::Unavailable(_))) {
                    no_workers(&why);
                }
                result
            }
            Err(died) => Err(DxcError::Crashed(died.to_string())),
            Ok(result) => result,
        };
    }
    in_process(hlsl, entry, stage)
}

/// Says once per process that DXC compiles in this process because no worker could start, and
/// what that costs. Through [`provision::notice`]: standard error, or a cargo warning from the
/// Builder.
#[cfg(unix)]
fn no_workers(why: &str) {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        provision::notice(&format!(
            "shadowdusk: DXC compiles in this process, without isolation: no DXC worker \
             process could be started ({why}). A DXC crash now ends this process (the build \
             script, rustc or the game) instead of failing one shader"
        ))
    });
}

/// Set to `1`, DXC compiles in the calling process, without isolation: to measure what the
/// workers cost, or where a process may not start others. Read at every compile.
pub const IN_PROCESS_VAR: &str = "SHADOWDUSK_DXC_IN_PROCESS";

#[cfg(unix)]
fn in_process_asked() -> bool {
    std::env::var_os(IN_PROCESS_VAR).is_some_and(|v| v == "1")
}

/// The workers [`compile`] uses.
#[cfg(unix)]
static WORKERS: std::sync::LazyLock<isolate::Pool> = std::sync::LazyLock::new(isolate::Pool::new);

/// Workers started by this process, and the time spent starting them (until each said it had
/// loaded DXC): the benchmarks' view of what isolation costs a build.
#[cfg(unix)]
static STARTS: std::sync::Mutex<(usize, std::time::Duration)> =
    std::sync::Mutex::new((0, std::time::Duration::ZERO));

/// Not API (ShadowDusk's benchmarks and tests): how many DXC worker processes this process has
/// started, and how long they took to start in all (spawn until the worker has loaded DXC).
/// Always zero where compiles run in process.
#[doc(hidden)]
pub fn worker_starts() -> (usize, std::time::Duration) {
    #[cfg(unix)]
    return *STARTS.lock().unwrap_or_else(|e| e.into_inner());
    #[cfg(not(unix))]
    (0, std::time::Duration::ZERO)
}

/// Ends this process's idle DXC workers now instead of when they expire. The Builder calls it
/// when a build is done, so a build script leaves no process behind; later compiles start new
/// workers.
pub fn release_workers() {
    #[cfg(unix)]
    WORKERS.release();
}

/// The pool's kind for workers of `choice`: one file, by path and content.
#[cfg(unix)]
fn worker_kind(choice: &chosen::Choice) -> String {
    format!("{}\n{}", choice.path.display(), choice.sha256)
}

/// Starts a worker on `choice`'s file, counted in [`worker_starts`]. The worker loaded the
/// chosen file only if it is unchanged now: a worker that may have loaded a replacement is ended.
#[cfg(unix)]
fn spawn_worker(
    choice: &chosen::Choice,
    limits: &isolate::Limits,
) -> Result<isolate::Worker, isolate::Died> {
    let t = std::time::Instant::now();
    let worker = worker::spawn(&choice.path, limits);
    let mut starts = STARTS.lock().unwrap_or_else(|e| e.into_inner());
    starts.0 += 1;
    starts.1 += t.elapsed();
    drop(starts);
    let worker = worker?;
    if !choice.file_unchanged() {
        return Err(isolate::Died::Spawn(format!(
            "{} changed while a worker loaded it",
            choice.path.display()
        )));
    }
    Ok(worker)
}

/// [`compile`] through `pool`'s workers, on the DXC [`choice::current`] names: `Err` only when a
/// worker died or could not start. A DXC replaced while a worker started is decided again.
#[cfg(unix)]
fn compile_isolated(
    pool: &isolate::Pool,
    limits: &isolate::Limits,
    hlsl: &str,
    entry: &str,
    stage: Stage,
) -> Result<Result<Spirv, DxcError>, isolate::Died> {
    let mut tries = 0;
    loop {
        let choice = match choice::current() {
            Ok(c) => c,
            Err(e) => return Ok(Err(DxcError::Unavailable(e))),
        };
        match compile_on(pool, limits, &choice, hlsl, entry, stage) {
            Err(isolate::Died::Spawn(_)) if !choice.file_unchanged() && tries < 3 => tries += 1,
            other => return other,
        }
    }
}

/// [`compile_isolated`] on one chosen DXC.
#[cfg(unix)]
fn compile_on(
    pool: &isolate::Pool,
    limits: &isolate::Limits,
    choice: &chosen::Choice,
    hlsl: &str,
    entry: &str,
    stage: Stage,
) -> Result<Result<Spirv, DxcError>, isolate::Died> {
    let kind = worker_kind(choice);
    let spawn = || spawn_worker(choice, limits);
    let mut died = None;
    let result = compile_with(choice, |warnings_as_errors| {
        let arguments = args::arguments(stage, warnings_as_errors);
        let request = worker::Request {
            source: hlsl,
            source_name: SOURCE_NAME,
            entry,
            profile: args::profile(stage),
            arguments: &arguments,
        };
        let answer = pool
            .ask(&kind, &request.encode(), limits, spawn)
            .map_err(|d| {
                let crashed = DxcError::Crashed(d.to_string());
                died = Some(d);
                crashed
            })?;
        let answer = worker::Answer::decode(&answer)
            .map_err(|e| failure(format!("DXC's process answered unreadably: {e}")))?;
        if answer.compiled() {
            return words_of(&answer.object);
        }
        Err(compile_error(if answer.errors.is_empty() {
            format!(
                "DXC failed with HRESULT {:#010x} and no message",
                answer.hresult as u32
            )
        } else {
            answer.errors
        }))
    });
    match died {
        Some(d) => Err(d),
        None => Ok(result),
    }
}

/// [`compile`] in this process, with the library [`choice::current`] names (loaded once per
/// process: after it was replaced on disk, an error that says so).
fn in_process(hlsl: &str, entry: &str, stage: Stage) -> Result<Spirv, DxcError> {
    let choice = choice::current().map_err(DxcError::Unavailable)?;
    warm_up(&choice);
    instance::with_instance(&choice, |compiler, library| {
        compile_with(&choice, |warnings_as_errors| {
            compile_once(compiler, library, hlsl, entry, stage, warnings_as_errors)
        })
    })
    .unwrap_or_else(|e| Err(DxcError::Unavailable(e)))
}

/// Compiles with `-WX`, and on failure again without it (see the module docs): `call` makes one
/// DXC call, with or without warnings as errors.
/// The module comes back named as compiled by `choice`.
fn compile_with(
    choice: &chosen::Choice,
    mut call: impl FnMut(bool) -> Result<Vec<u32>, DxcError>,
) -> Result<Spirv, DxcError> {
    let spirv = |words, warnings| Spirv {
        words,
        warnings,
        dxc: choice.version(),
    };
    let strict = match call(true) {
        Ok(words) => return Ok(spirv(words, Vec::new())),
        Err(DxcError::Compile { messages, .. }) => messages,
        Err(e) => return Err(e),
    };
    let words = call(false)?;
    let warnings = strict.into_iter().filter_map(promoted_warning).collect();
    Ok(spirv(words, warnings))
}

/// A message of the `-WX` run, as the warning it was: `error: text [-Werror,-Wconversion]`
/// becomes `text [-Wconversion]`. Notes are dropped (they only point at related code).
fn promoted_warning(m: DxcMessage) -> Option<DxcMessage> {
    if !m.is_error {
        return None;
    }
    Some(DxcMessage {
        is_error: false,
        note: false,
        text: m.text.replace("[-Werror,", "[").replace("[-Werror]", ""),
        ..m
    })
}

fn compile_once(
    compiler: &DxcCompiler,
    library: &DxcLibrary,
    hlsl: &str,
    entry: &str,
    stage: Stage,
    warnings_as_errors: bool,
) -> Result<Vec<u32>, DxcError> {
    let args = args::arguments(stage, warnings_as_errors);
    let blob = library
        .create_blob_with_encoding_from_str(hlsl)
        .map_err(|e| failure(format!("DXC could not take the source: {e}")))?;
    match compiler.compile(
        &blob,
        SOURCE_NAME,
        entry,
        args::profile(stage),
        &args,
        None,
        &[],
    ) {
        Ok(op) => {
            let out = op
                .get_result()
                .map_err(|e| failure(format!("DXC returned no SPIR-V: {e}")))?;
            if blob::is_empty(&out) {
                return Err(failure("DXC returned an empty module".into()));
            }
            words_of(out.as_slice())
        }
        Err((op, hr)) => Err(compile_error(
            op.get_error_buffer()
                .ok()
                .map(hassle_rs::DxcBlob::from)
                .filter(|b| !blob::is_empty(b))
                .and_then(|b| library.get_blob_as_string(&b).ok())
                .unwrap_or_else(|| format!("DXC failed with HRESULT {hr:?} and no message")),
        )),
    }
}

/// A compiled object as SPIR-V words.
fn words_of(bytes: &[u8]) -> Result<Vec<u32>, DxcError> {
    if bytes.is_empty() {
        return Err(failure("DXC returned an empty module".into()));
    }
    if !bytes.len().is_multiple_of(4) {
        return Err(failure(format!(
            "DXC returned {} bytes, not a SPIR-V module",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// DXC's output of a failed compile, with its messages parsed.
fn compile_error(raw: String) -> DxcError {
    DxcError::Compile {
        messages: messages::parse(&raw),
        raw,
    }
}

fn failure(text: String) -> DxcError {
    DxcError::Compile {
        messages: vec![DxcMessage {
            line: 0,
            column: 0,
            is_error: true,
            note: false,
            text: text.clone(),
        }],
        raw: text,
    }
}

/// The identity of the DXC the next compile uses, for cache keys: the library's SHA-256 (its
/// contents, not its size or path; see `identity.rs`) and the arguments it is run with. It is
/// the one decision compiles take too (`choice.rs`), made without loading DXC where the library
/// is known by its file (`SHADOWDUSK_DXC`, the verified per-user copy: their content hashes are
/// remembered), so a build whose effects are all cached never maps DXC. The system loader's
/// library (and a DXC still to be fetched) is only known once loaded, so it is loaded here.
///
/// A DXC replaced on disk later is a new identity from the next call on, and compiles take the
/// new file too ([`Spirv::dxc`] names the one that did). `Err` is why DXC is unavailable.
pub fn expected_version() -> Result<String, String> {
    choice::current().map(|c| c.version())
}

/// Not API (ShadowDusk's tests): whether this process has loaded DXC (a build served from its
/// caches never does).
#[doc(hidden)]
pub fn is_loaded() -> bool {
    instance::is_loaded()
}

/// The version string of the DXC library whose SHA-256 is `sha`, run with our arguments.
fn version_of(sha: &str) -> String {
    format!(
        "dxcompiler:{sha}:{}",
        args::arguments(Stage::Pixel, true).join(" ")
    )
}

/// Loads DXC as a compile would, fetching a pinned build into the per-user cache when it is
/// nowhere else (what `shadowdusk setup` and `cargo xtask setup` do), and says from where:
/// the file (`None`: the system loader's, its file unknown) and its SHA-256 (`None` when it
/// cannot be read).
pub fn setup() -> Result<(Option<std::path::PathBuf>, Option<String>), String> {
    let choice = loaded()?;
    let file = choice.path.is_absolute().then_some(choice.path);
    let sha256 = (!choice.sha256.starts_with("unidentified:")).then_some(choice.sha256);
    Ok((file, sha256))
}

/// Whether DXC can be loaded (tests use this to skip loudly).
pub fn available() -> bool {
    load().is_ok()
}

/// For unit tests: `true` when DXC cannot be loaded, after a loud skip of the running test
/// (a failure under `SHADOWDUSK_REQUIRE_ALL=1`).
#[cfg(test)]
pub(crate) fn missing_skips() -> bool {
    let Err(e) = load() else {
        return false;
    };
    let why = format!("DXC unavailable: {e}");
    shadowdusk_testkit::skip(&shadowdusk_testkit::this_test(), &why);
    true
}

/// Loads DXC, or says where it was searched and how to get it (fetching the pinned build into
/// the per-user cache when it is nowhere else). Loading it here checks that it can create a
/// compiler; the workers load the same file.
pub fn load() -> Result<(), String> {
    loaded().map(drop)
}

/// The chosen DXC, loaded into this process.
fn loaded() -> Result<chosen::Choice, String> {
    let choice = choice::current()?;
    instance::with_instance(&choice, |_, _| ())?;
    Ok(choice)
}

/// Readies DXC for compiles as [`compile`] will run them: where they run in worker processes,
/// starts one (it loads the library; this process only finds it), and where none can start,
/// loads it here ([`load`]), saying so once. `Err` says why DXC is unavailable.
pub fn prepare() -> Result<(), String> {
    #[cfg(unix)]
    if !in_process_asked() {
        let choice = choice::current()?;
        let limits = isolate::Limits::standard();
        let started = WORKERS.ready(&worker_kind(&choice), &limits, || {
            spawn_worker(&choice, &limits)
        });
        // A worker that starts has loaded the library; one that cannot falls through to
        // loading here, which says why (or finds that only workers fail).
        return match started {
            Ok(()) => Ok(()),
            Err(died) => {
                load()?;
                match died {
                    isolate::Died::Spawn(why) => no_workers(&why),
                    other => no_workers(&other.to_string()),
                }
                Ok(())
            }
        };
    }
    load()
}

/// Before the first in-process compile: one trivial compile alone, so DXC's lazily built global
/// state is set up once, before threads compile in parallel.
fn warm_up(choice: &chosen::Choice) {
    static WARM: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    WARM.get_or_init(|| {
        let _ = instance::with_instance(choice, |compiler, library| {
            instance::exclusive(|| {
                compile_once(
                    compiler,
                    library,
                    "float4 main() : SV_Target { return 1; }",
                    "main",
                    Stage::Pixel,
                    true,
                )
            })
        });
    });
}

#[cfg(all(test, unix))]
mod isolation_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiles_a_pixel_shader_to_spirv() {
        if missing_skips() {
            return;
        }
        let src = "Texture2D T; SamplerState S; float4 Tint;\n\
                   float4 main(float4 c : COLOR0, float2 uv : TEXCOORD0) : SV_Target { return T.Sample(S, uv) * c * Tint; }";
        let spv = compile(src, "main", Stage::Pixel).unwrap();
        assert_eq!(spv.words[0], 0x0723_0203, "SPIR-V magic");
        assert!(spv.dxc.starts_with("dxcompiler:"), "{}", spv.dxc);
    }

    /// The identity the key takes is the one compiles report, in workers and in process.
    #[test]
    fn the_expected_version_names_the_dxc_that_compiles() {
        if missing_skips() {
            return;
        }
        let expected = expected_version().expect("DXC is available");
        let src = "float4 main() : SV_Target { return 1; }";
        assert_eq!(compile(src, "main", Stage::Pixel).unwrap().dxc, expected);
        assert_eq!(in_process(src, "main", Stage::Pixel).unwrap().dxc, expected);
        assert!(is_loaded());
    }

    /// DXC 1.8 dereferences null completing an effect type in a struct member. The pipeline
    /// refuses that before DXC (`pipeline::dxc_guard`); handed to DXC directly, it crashes a
    /// worker process only: one error, and the next compile works.
    #[cfg(unix)]
    #[test]
    fn a_dxc_crash_fails_only_this_shader() {
        if missing_skips() {
            return;
        }
        let src = "struct Q { float a; texture b; };\n\
                   float4 main(float4 c : COLOR0) : SV_Target { return c; }";
        match compile(src, "main", Stage::Pixel) {
            Err(DxcError::Crashed(m)) => assert!(m.contains("SIGSEGV"), "{m}"),
            other => panic!("expected DXC to crash in its child, got {other:?}"),
        }
        let ok = compile(
            "float4 main() : SV_Target { return 1; }",
            "main",
            Stage::Pixel,
        );
        assert!(ok.is_ok(), "{:?}", ok.err());
    }

    #[test]
    fn errors_carry_line_and_column() {
        if missing_skips() {
            return;
        }
        let src = "float4 main() : SV_Target\n{\n    return undefined_x;\n}\n";
        let Err(DxcError::Compile { messages, raw }) = compile(src, "main", Stage::Pixel) else {
            panic!("expected a compile error")
        };
        let m = messages
            .iter()
            .find(|m| m.is_error)
            .unwrap_or_else(|| panic!("no error in {raw}"));
        assert_eq!((m.line, m.column), (3, 12), "{raw}");
        assert!(m.text.contains("undefined_x"));
    }

    #[test]
    fn missing_entry_point_is_an_error() {
        if missing_skips() {
            return;
        }
        let r = compile(
            "float4 main() : SV_Target { return 1; }",
            "PS",
            Stage::Pixel,
        );
        assert!(matches!(r, Err(DxcError::Compile { .. })));
    }

    #[test]
    fn warnings_are_returned_with_the_module() {
        if missing_skips() {
            return;
        }
        // Implicit truncation float4 -> float2: fxc warned and compiled; so do we.
        let src = "float4 main(float4 c : COLOR0) : SV_Target\n{\n    float2 t = c;\n    return float4(t, 0, 1);\n}";
        let spv = compile(src, "main", Stage::Pixel).unwrap();
        assert_eq!(spv.words[0], 0x0723_0203);
        assert_eq!(spv.warnings.len(), 1, "{:?}", spv.warnings);
        let w = &spv.warnings[0];
        assert_eq!((w.line, w.column, w.is_error), (3, 12, false), "{w:?}");
        assert_eq!(w.text, "implicit truncation of vector type [-Wconversion]");
    }

    #[test]
    fn a_path_without_return_is_a_warning() {
        if missing_skips() {
            return;
        }
        // DXC refuses it even without -WX; fxc compiled effects that have one.
        let src = "float band(float l)\n{\n    if (l < 0.5) return l * 2;\n    else if (l >= 0.5) return 1;\n}\n\
                   float4 main(float4 c : COLOR0) : SV_Target { return band(c.r); }";
        let spv = compile(src, "main", Stage::Pixel).unwrap();
        assert_eq!(spv.warnings.len(), 1, "{:?}", spv.warnings);
        let w = &spv.warnings[0];
        assert_eq!((w.line, w.is_error), (5, false), "{w:?}");
        assert!(w.text.contains("[-Wreturn-type]"), "{w:?}");
    }

    #[test]
    fn clean_shaders_have_no_warnings() {
        if missing_skips() {
            return;
        }
        let src = "float4 main(float4 c : COLOR0) : SV_Target { return c; }";
        assert!(compile(src, "main", Stage::Pixel)
            .unwrap()
            .warnings
            .is_empty());
    }

    #[test]
    fn errors_next_to_warnings_stay_errors() {
        if missing_skips() {
            return;
        }
        let src = "float4 main(float4 c : COLOR0) : SV_Target { float2 t = c; return nope; }";
        let Err(DxcError::Compile { messages, .. }) = compile(src, "main", Stage::Pixel) else {
            panic!("expected the undeclared identifier to fail")
        };
        assert!(messages
            .iter()
            .any(|m| m.is_error && m.text.contains("nope")));
        assert!(messages
            .iter()
            .any(|m| !m.is_error && m.text.contains("truncation")));
    }

    #[test]
    fn old_style_vector_ternary_is_accepted() {
        if missing_skips() {
            return;
        }
        // HLSL 2021 rejects a vector condition in `?:`; MonoGame-era code relies on it (-HV 2018).
        let src = "float4 main(float4 c : COLOR0) : SV_Target { return c > 0.5 ? c : 1 - c; }";
        compile(src, "main", Stage::Pixel).unwrap();
    }

    #[test]
    fn threads_compile_concurrently() {
        if missing_skips() {
            return;
        }
        let handles: Vec<_> = (0..3)
            .map(|k| {
                std::thread::spawn(move || {
                    let src =
                        format!("float4 main(float4 c : COLOR0) : SV_Target {{ return c * {k}; }}");
                    compile(&src, "main", Stage::Pixel).map(|s| s.words.len())
                })
            })
            .collect();
        for h in handles {
            assert!(h.join().unwrap().unwrap() > 5);
        }
    }

    #[test]
    fn vertex_and_pixel_profiles_differ() {
        assert_eq!(args::profile(Stage::Vertex), "vs_6_0");
        assert!(args::arguments(Stage::Pixel, true).contains(&"-fvk-use-dx-position-w"));
        assert!(!args::arguments(Stage::Vertex, true).contains(&"-fvk-use-dx-position-w"));
        assert!(args::arguments(Stage::Pixel, true).contains(&"-WX"));
        assert!(!args::arguments(Stage::Pixel, false).contains(&"-WX"));
    }
}
