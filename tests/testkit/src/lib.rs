//! What every ShadowDusk test does when something it needs is missing on this machine (DXC,
//! headless EGL, Xvfb, `../shared`): print a loud `!!! SKIPPED` line and pass, or, when
//! `SHADOWDUSK_REQUIRE_ALL=1` (CI, and `cargo xtask test` by default), fail.
//!
//! It is its own crate because every crate's tests need it, down to `shadowdusk-mgfx` at the
//! bottom of the graph, and a rule about CI must not drift between copies.

/// The environment variable that turns a skip into a failure when set to `1`.
pub const REQUIRE_ALL: &str = "SHADOWDUSK_REQUIRE_ALL";

/// Whether every test must run (`SHADOWDUSK_REQUIRE_ALL=1`): a skip is then a failure.
pub fn required() -> bool {
    std::env::var(REQUIRE_ALL).is_ok_and(|v| v == "1")
}

/// A test that cannot run here: a loud `!!! SKIPPED` line, or under
/// `SHADOWDUSK_REQUIRE_ALL=1` a panic that fails the test.
pub fn skip(test: &str, why: &str) {
    assert!(!required(), "{test} can't skip ({REQUIRE_ALL}=1): {why}");
    eprintln!("!!! SKIPPED {test}: {why}");
}

/// The running test's name (libtest names each test's thread after it), for [`skip`].
pub fn this_test() -> String {
    let name = std::thread::current().name().map(str::to_owned);
    name.unwrap_or_else(|| "a test on the main thread".into())
}

#[cfg(test)]
mod tests {
    // One test, because it sets the process's environment: a second would race with it.
    #[test]
    fn skip_passes_loudly_unless_every_test_is_required() {
        std::env::set_var(super::REQUIRE_ALL, "0");
        super::skip("a test", "nothing missing, really");
        std::env::set_var(super::REQUIRE_ALL, "1");
        let failed = std::panic::catch_unwind(|| super::skip("a test", "DXC missing"));
        let message = failed.expect_err("a skip under SHADOWDUSK_REQUIRE_ALL=1 must fail");
        let message = message.downcast_ref::<String>().expect("a formatted panic");
        assert!(message.contains("a test can't skip") && message.contains("DXC missing"));
    }
}
