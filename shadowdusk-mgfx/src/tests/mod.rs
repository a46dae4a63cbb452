//! Cross-module tests of the reader and writer: the spec's worked example, round trips over
//! every field, the writer's refusals, and the reader's robustness on damaged input.

mod fixtures;
mod refusals;
mod robustness;
mod roundtrip;
mod worked_example;
