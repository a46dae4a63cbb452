//! Damaged effect sources never panic the compiler: every corpus effect is cut, spliced and
//! sprinkled with stray characters many times (a fixed-seed generator, so a failure repeats),
//! and each result must compile or fail with diagnostics that carry a code and render.

use std::panic::{catch_unwind, AssertUnwindSafe};

use shadowdusk_build::pipeline::{compile_source, Options};
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

#[test]
fn damaged_sources_fail_with_diagnostics_and_never_panic() {
    if !shadowdusk_build::dxc::available() {
        eprintln!("!!! SKIPPED damaged_sources_fail_with_diagnostics_and_never_panic: DXC is not available (run `cargo xtask setup`)");
        return;
    }
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir())
        .expect("corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fx"))
        .collect();
    files.sort();
    let mut rng = Rng(0x5EED_5EED_D05C_0FFE);
    let (mut compiled, mut refused) = (0, 0);
    let mut codes = std::collections::BTreeSet::new();
    for path in &files {
        let original = std::fs::read_to_string(path).expect("read");
        for i in 0..PER_EFFECT {
            let text = mutate(&original, &mut rng);
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                compile_source(path, &text, &Options::default())
            }));
            match outcome {
                Err(_) => panic!(
                    "{} mutation {i} panicked the compiler; source:\n{text}",
                    path.display()
                ),
                Ok(Ok(c)) => {
                    shadowdusk::mgfx::read(&c.bytes).expect("a successful compile reads back");
                    compiled += 1;
                }
                Ok(Err(e)) => {
                    assert!(
                        !e.diagnostics.0.is_empty() && e.diagnostics.has_errors(),
                        "{}: an error without diagnostics",
                        path.display()
                    );
                    let rendered = e.render(false);
                    assert!(rendered.contains("error["), "{rendered}");
                    codes.insert(e.diagnostics.0[0].code.as_str());
                    // Every error about the source points into it (only a missing tool or an
                    // effect with no technique at all has no place to point at).
                    for d in e.diagnostics.iter().filter(|d| d.is_error()) {
                        assert!(
                            d.primary.is_some() || d.code.as_str() == "SD0010",
                            "{} mutation {i}: `{}` has no position:\n{rendered}",
                            path.display(),
                            d.code.as_str()
                        );
                    }
                    refused += 1;
                }
            }
        }
    }
    eprintln!(
        "mutations: {} effects x {PER_EFFECT}: {compiled} still compiled, {refused} refused with codes {codes:?}",
        files.len()
    );
    assert!(
        refused > compiled / 4,
        "the mutations hardly ever broke anything"
    );
}
