//! What every ShadowDusk test does when something it needs is missing on this machine (DXC,
//! headless EGL, Xvfb, `../shared`): pass with a loud `!!! SKIPPED test: why` line, or, when
//! `SHADOWDUSK_REQUIRE_ALL=1` (CI sets it), fail.
//!
//! The line goes straight to the process's stderr, so plain `cargo test` shows it: libtest
//! captures only what the print macros write, and would hide an `eprintln!` of a passing test.
//! When `SHADOWDUSK_SKIP_LOG` names a file (`cargo xtask test` sets it), each skip also appends
//! one `test<TAB>why` line there, which `cargo xtask test` sums up at the end ([`logged_skips`]).
//!
//! It is its own crate because every crate's tests need it, down to `shadowdusk-mgfx` at the
//! bottom of the graph, and a rule about CI must not drift between copies.

use std::io::Write;

/// The environment variable that turns a skip into a failure when set to `1`.
pub const REQUIRE_ALL: &str = "SHADOWDUSK_REQUIRE_ALL";

/// The environment variable naming the file each skip appends its `test<TAB>why` line to.
pub const SKIP_LOG: &str = "SHADOWDUSK_SKIP_LOG";

/// Whether every test must run (`SHADOWDUSK_REQUIRE_ALL=1`): a skip is then a failure.
pub fn required() -> bool {
    std::env::var(REQUIRE_ALL).is_ok_and(|v| v == "1")
}

/// A test that cannot run here: a loud `!!! SKIPPED` line on stderr (not captured by libtest)
/// and a line in the `SHADOWDUSK_SKIP_LOG` file, or under `SHADOWDUSK_REQUIRE_ALL=1` a panic
/// that fails the test.
pub fn skip(test: &str, why: &str) {
    assert!(!required(), "{test} can't skip ({REQUIRE_ALL}=1): {why}");
    report(&mut std::io::stderr(), test, why);
}

/// The `!!! SKIPPED` line to `out`, and the log line when [`SKIP_LOG`] is set. Failures to
/// write are ignored: a skip must not fail the test it reports.
fn report(out: &mut impl Write, test: &str, why: &str) {
    // One write each, so lines of threads and of concurrent test processes do not interleave.
    let _ = out.write_all(format!("!!! SKIPPED {test}: {why}\n").as_bytes());
    let Some(path) = std::env::var_os(SKIP_LOG) else {
        return;
    };
    let flat = |s: &str| s.replace(['\t', '\r', '\n'], " ");
    let line = format!("{}\t{}\n", flat(test), flat(why.trim()));
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path);
    if let Ok(mut log) = log {
        let _ = log.write_all(line.as_bytes());
    }
}

/// The `(test, why)` pairs of a [`SKIP_LOG`] file's text, in the order they were logged.
pub fn logged_skips(log: &str) -> impl Iterator<Item = (&str, &str)> {
    log.lines().filter_map(|l| l.split_once('\t'))
}

/// The running test's name (libtest names each test's thread after it), for [`skip`].
pub fn this_test() -> String {
    let name = std::thread::current().name().map(str::to_owned);
    name.unwrap_or_else(|| "a test on the main thread".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    // One test, because it sets the process's environment: a second would race with it.
    #[test]
    fn skips_are_reported_and_logged_unless_every_test_is_required() {
        let log =
            std::env::temp_dir().join(format!("shadowdusk-testkit-{}.log", std::process::id()));
        let _ = std::fs::remove_file(&log);
        std::env::set_var(SKIP_LOG, &log);
        std::env::set_var(REQUIRE_ALL, "0");
        assert!(!required());
        let mut stderr = Vec::new();
        report(&mut stderr, "a test", "DXC missing");
        report(
            &mut stderr,
            "another test",
            "no GL:\n\tEGL_NOT_INITIALIZED\n",
        );
        let printed = String::from_utf8(stderr).expect("text");
        assert_eq!(
            printed,
            "!!! SKIPPED a test: DXC missing\n\
             !!! SKIPPED another test: no GL:\n\tEGL_NOT_INITIALIZED\n\n"
        );
        let text = std::fs::read_to_string(&log).expect("the skip log was written");
        let logged: Vec<_> = logged_skips(&text).collect();
        let want = [
            ("a test", "DXC missing"),
            ("another test", "no GL:  EGL_NOT_INITIALIZED"),
        ];
        assert_eq!(logged, want);

        std::env::set_var(REQUIRE_ALL, "1");
        let failed = std::panic::catch_unwind(|| skip("a test", "DXC missing"));
        let message = failed.expect_err("a skip under SHADOWDUSK_REQUIRE_ALL=1 must fail");
        let message = message.downcast_ref::<String>().expect("a formatted panic");
        assert!(message.contains("a test can't skip") && message.contains("DXC missing"));
        let after = std::fs::read_to_string(&log).expect("the skip log");
        assert_eq!(after, text, "a failing skip is not logged as a skip");
        let _ = std::fs::remove_file(&log);
    }
}
