//! Shared by the integration tests: the loud skip.

/// A test that cannot run here: a loud `!!! SKIPPED` line, or with `SHADOWDUSK_REQUIRE_ALL=1`
/// (CI) a failure.
pub fn skip(test: &str, why: &str) {
    let all = std::env::var("SHADOWDUSK_REQUIRE_ALL").is_ok_and(|v| v == "1");
    assert!(!all, "{test} can't skip (SHADOWDUSK_REQUIRE_ALL=1): {why}");
    eprintln!("!!! SKIPPED {test}: {why}");
}
