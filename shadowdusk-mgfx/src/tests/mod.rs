//! Cross-module tests of the reader and writer: the spec's worked example, round trips over
//! every field, the writer's refusals, and the reader's robustness on damaged input; and that
//! `SOURCE_ID` is the hash of the sources as they are now.

mod fixtures;
mod refusals;
mod robustness;
mod roundtrip;
mod source_id;
mod worked_example;
