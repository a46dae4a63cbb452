//! Damaged effect sources never panic the compiler: every corpus effect is cut, spliced and
//! sprinkled with stray characters many times (a fixed-seed generator, so a failure repeats),
//! and each result must compile or fail with diagnostics that carry a code and render. DXC
//! crashing on one (SD0104) is a failure, not a refusal: the guard before DXC missed a case.
//!
//! The stages before DXC (preprocess, effect parse, lower) are checked on every machine; the
//! whole pipeline, which needs DXC, skips loudly without it ([`shadowdusk_tests::skip`]).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use shadowdusk_compiler::diag::{render_plain, Code, Diagnostics};
use shadowdusk_compiler::effect::parse;
use shadowdusk_compiler::lower::{lower, Stage};
use shadowdusk_compiler::pipeline::{compile_source, Options};
use shadowdusk_compiler::preprocess::{preprocess, Options as PreOptions};
use shadowdusk_compiler::source::SourceFiles;
use shadowdusk_tests::corpus::corpus_dir;

/// Mutations per effect.
const PER_EFFECT: usize = 64;

/// xorshift64*: enough randomness to wander the grammar, and repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Characters that matter to the preprocessor, the effect grammar and HLSL.
const STRAY: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "<",
    ">",
    ";",
    "\"",
    "/*",
    "*/",
    "//",
    "#",
    "#if 1\n",
    "#endif\n",
    "#define X(a) a##a\n",
    "\\\n",
    "=",
    ",",
    ":",
    "[",
    "]",
    "technique",
    "pass",
    "compile",
    "sampler_state",
    "register(s3)",
    "0x",
    "1e99",
    "\u{e9}",
    "\0",
];

fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut s: Vec<char> = src.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let len = s.len();
        let at = rng.below(len + 1);
        match rng.below(4) {
            // Cut a range.
            0 => {
                let end = (at + 1 + rng.below(40)).min(len);
                s.drain(at.min(end)..end);
            }
            // Duplicate a range elsewhere.
            1 => {
                let from = rng.below(len);
                let end = (from + 1 + rng.below(60)).min(len);
                let piece: Vec<char> = s[from..end].to_vec();
                let to = rng.below(s.len() + 1);
                s.splice(to..to, piece);
            }
            // Insert a stray token.
            2 => {
                let t: Vec<char> = STRAY[rng.below(STRAY.len())].chars().collect();
                s.splice(at..at, t);
            }
            // Truncate.
            _ => s.truncate(at),
        }
    }
    s.into_iter().collect()
}

/// Every corpus effect with its [`PER_EFFECT`] mutations, in a fixed order from a fixed seed.
fn mutations() -> Vec<(PathBuf, Vec<String>)> {
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir())
        .expect("corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fx"))
        .collect();
    files.sort();
    let mut rng = Rng(0x5EED_5EED_D05C_0FFE);
    files
        .into_iter()
        .map(|path| {
            let original = std::fs::read_to_string(&path).expect("read");
            let texts = (0..PER_EFFECT)
                .map(|_| mutate(&original, &mut rng))
                .collect();
            (path, texts)
        })
        .collect()
}

/// Refused sources fail with errors that carry a code, render, and (only a missing tool or an
/// effect with no technique at all has no place to point at) point into the source.
fn check_refusal(at: &str, diagnostics: &Diagnostics, rendered: &str) {
    assert!(
        !diagnostics.0.is_empty() && diagnostics.has_errors(),
        "{at}: an error without diagnostics"
    );
    assert!(rendered.contains("error["), "{at}:\n{rendered}");
    for d in diagnostics.iter().filter(|d| d.is_error()) {
        assert!(
            d.primary.is_some() || d.code.as_str() == "SD0010",
            "{at}: `{}` has no position:\n{rendered}",
            d.code.as_str()
        );
    }
}

/// Whether DXC crashed (SD0104): never a clean refusal. The worker process kept the compiler
/// alive, but the guard before DXC (`pipeline::dxc_guard`) should have refused the text at its
/// place in the source.
fn crashed_dxc(diagnostics: &Diagnostics) -> bool {
    diagnostics.iter().any(|d| d.code == Code::SD0104)
}

/// Preprocess, effect parse and lower of every shader every pass names; `Ok(shaders lowered)`
/// or the first stage's diagnostics.
fn stages_before_dxc(path: &Path, text: &str) -> Result<usize, (SourceFiles, Diagnostics)> {
    let mut files = SourceFiles::new();
    let expanded = match preprocess(path, Some(text), &PreOptions::default(), &mut files) {
        Ok(e) => e,
        Err(d) => return Err((files, d)),
    };
    let parsed = match parse(&expanded) {
        Ok(p) => p,
        Err(d) => return Err((files, d)),
    };
    let mut lowered = 0;
    for p in parsed.ast.techniques.iter().flat_map(|t| &t.passes) {
        let shaders = [
            (Stage::Vertex, &p.vertex_shader),
            (Stage::Pixel, &p.pixel_shader),
        ];
        for (stage, shader) in shaders {
            let Some(s) = shader else { continue };
            match lower(&expanded, &parsed, s, stage) {
                Ok(_) => lowered += 1,
                Err(d) => return Err((files, d)),
            }
        }
    }
    Ok(lowered)
}

/// Needs no DXC, so it runs everywhere.
#[test]
fn damaged_sources_never_panic_preprocess_parse_or_lower() {
    let (mut passed, mut refused) = (0, 0);
    let mut codes = std::collections::BTreeSet::new();
    let effects = mutations();
    for (path, texts) in &effects {
        for (i, text) in texts.iter().enumerate() {
            let at = format!("{} mutation {i}", path.display());
            let outcome = catch_unwind(AssertUnwindSafe(|| stages_before_dxc(path, text)));
            match outcome {
                Err(_) => panic!("{at} panicked before DXC; source:\n{text}"),
                Ok(Ok(_)) => passed += 1,
                Ok(Err((files, d))) => {
                    check_refusal(&at, &d, &render_plain(&files, &d.0, false));
                    codes.insert(d.0[0].code.as_str());
                    refused += 1;
                }
            }
        }
    }
    eprintln!(
        "mutations before DXC: {} effects x {PER_EFFECT}: {passed} lowered, {refused} refused with codes {codes:?}",
        effects.len()
    );
    assert!(
        passed > 0 && refused > passed / 4,
        "the mutations hardly ever broke anything (or nothing lowered)"
    );
}

/// The whole pipeline, DXC included.
#[test]
fn damaged_sources_fail_with_diagnostics_and_never_panic() {
    if !shadowdusk_compiler::dxc::available() {
        let why = "DXC is not available (run `cargo xtask setup`); \
                   damaged_sources_never_panic_preprocess_parse_or_lower needs none";
        shadowdusk_tests::skip("damaged_sources_fail_with_diagnostics_and_never_panic", why);
        return;
    }
    let (mut compiled, mut refused) = (0, 0);
    let mut codes = std::collections::BTreeSet::new();
    let mut dxc_crashes = Vec::new();
    let effects = mutations();
    for (path, texts) in &effects {
        for (i, text) in texts.iter().enumerate() {
            let at = format!("{} mutation {i}", path.display());
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                compile_source(path, text, &Options::default())
            }));
            match outcome {
                Err(_) => panic!("{at} panicked the compiler; source:\n{text}"),
                Ok(Ok(c)) => {
                    shadowdusk::mgfx::read(&c.bytes).expect("a successful compile reads back");
                    compiled += 1;
                }
                Ok(Err(e)) if crashed_dxc(&e.diagnostics) => {
                    dxc_crashes.push(format!("{at}:\n{text}\n{}", e.render_mgfxc()));
                }
                Ok(Err(e)) => {
                    check_refusal(&at, &e.diagnostics, &e.render(false));
                    codes.insert(e.diagnostics.0[0].code.as_str());
                    refused += 1;
                }
            }
        }
    }
    eprintln!(
        "mutations: {} effects x {PER_EFFECT}: {compiled} still compiled, {refused} refused with codes {codes:?}",
        effects.len()
    );
    assert!(
        dxc_crashes.is_empty(),
        "{} mutations crashed DXC (SD0104): pipeline::dxc_guard let text DXC cannot take through. \
         Add each, minimized, to tests/dxc_crashes/ (tests/dxc_guard_regressions.rs) and make the \
         guard refuse it:\n{}",
        dxc_crashes.len(),
        dxc_crashes.join("\n----\n")
    );
    assert!(
        refused > compiled / 4,
        "the mutations hardly ever broke anything"
    );
}
