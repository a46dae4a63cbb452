//! Shared helpers for ShadowDusk's integration tests.
